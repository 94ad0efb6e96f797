#!/bin/sh
# Time to be ready when a deepq-server restarts from its processed-profile
# cache (after an idle timeout), for one profile.
#
#	sh bench/restart.sh FILE [runs]
#
# A first server loads FILE from the source and writes the cache (waited
# for: minutes at 10^8 call nodes); then, runs times (default 5), the
# server is stopped and the next query starts a new one that maps the
# cache. Prints each restart's wall time of that first query (`deepq
# query FILE cmd=status', the client starting the server and waiting for
# it) and the server's own load_ms, then the best and median. The
# directories are on /dev/shm (runtime, mode 0700) and under TMPDIR
# (the cache: as a real cache_dir, on disk, its pages in the page cache
# after the first run; DEEPQ_RESTART_CACHE=DIR keeps it there, and a
# cache already there is used). Quote the load average it prints: the
# machine's cores may be shared. The page cache's state weighs as much:
# a cache file whose pages are in 2 MB folios is mapped with huge pages
# (FilePmdMapped in /proc/PID/smaps_rollup), one in small folios (written
# while memory was fragmented, or copied) takes up to three times the
# CPU at 10^8 nodes, for the TLB misses. Compare builds on the same file,
# or on files re-read after POSIX_FADV_DONTNEED (readahead makes large
# folios).
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
f=${1:?usage: restart.sh FILE [runs]}
runs=${2:-5}
deepq=$top_builddir/cli/deepq
f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-restart.XXXXXX")
run=$(mktemp -d /dev/shm/deepq-restart.XXXXXX)
chmod 700 "$run"
DEEPQ_CONFIG=$tmp/deepq.conf
export DEEPQ_CONFIG
cache=${DEEPQ_RESTART_CACHE:-$tmp/cache}
cleanup() {
	"$deepq" stop --all >/dev/null 2>&1 || :
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
cat >"$DEEPQ_CONFIG" <<EOF
profile_root = $(dirname "$f")
runtime_dir = $run
server_path = $top_builddir/server/deepq-server
cache_dir = $cache
load_timeout = 3600
load_wait = 60
EOF
mkdir -p -m 700 "$cache"
# The server uses a cache_dir only if private and ours (as the runtime
# directory), else it loads the source every time, and this would wait.
if [ ! -O "$cache" ] || [ "$(stat -c %a "$cache")" != 700 ]; then
	echo "restart.sh: $cache must be ours with mode 0700" >&2
	exit 1
fi

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now_ms)
# A load over load_wait is answered "still loading": ask again.
until "$deepq" query "$f" 'cmd=status&format=json' >/dev/null 2>&1; do
	sleep 1
done
echo "first load from the source: $(($(now_ms) - t0)) ms"
k=0
while [ -z "$(ls "$cache" | grep '\.cache$' || :)" ] && [ $k -lt 3600 ]
do
	sleep 0.5
	k=$((k + 1))
done
# The writer renames the file into place once complete, then exits; it
# is in the session of the server that forked it (this run's, whose pid
# its liveness file holds), not some other run's or user's.
sid=$(sed -n 1p "$run"/*.alive 2>/dev/null | head -1)
while [ -n "$sid" ] &&
    pgrep -s "$sid" -f 'deepq-server: cache writer' >/dev/null 2>&1; do
	sleep 0.5
done
echo "cache: $(du -h "$cache"/*.cache | cut -f1)"
: >"$tmp/times"
for i in $(seq "$runs"); do
	"$deepq" stop "$f" >/dev/null 2>&1 || :
	sleep 0.3
	t0=$(now_ms)
	"$deepq" query "$f" 'cmd=status&format=json' >"$tmp/status"
	t=$(($(now_ms) - t0))
	grep -q '"cached":true' "$tmp/status" ||
	    { echo "restart $i: not from the cache" >&2; exit 1; }
	l=$(sed -n 's/.*"load_ms":\([0-9]*\).*/\1/p' "$tmp/status")
	echo "restart $i: first query $t ms, load_ms $l"
	echo "$t $l" >>"$tmp/times"
done
sort -n "$tmp/times" | awk '{ t[NR] = $1; l[NR] = $2 }
    END { printf "best %d ms (load_ms %d), median %d ms (load_ms %d)\n",
    t[1], l[1], t[int((NR + 1) / 2)], l[int((NR + 1) / 2)] }'
echo "load average now $(cut -d' ' -f1-3 /proc/loadavg)"

#!/bin/sh
# Latency of deepq.cgi through a real web server (lighttpd on 127.0.0.1,
# curl as the client): cold requests (each starts and loads a server),
# warm requests (answered by a running server), and 64 simultaneous cold
# requests for one file. Times are curl's time_total, so curl's own start
# is not counted.
#
#	sh bench/cgi-latency.sh [profile] [warm-requests]
#
# Run from the top of a built tree (or set top_builddir). The profile
# defaults to tests/data/firefox.folded; the shared corpus's
# collapsed/node-recursive.folded (440 KB) is also measured when present.

set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"
server=$top_builddir/server/deepq-server
cgi=$top_builddir/cgi/deepq.cgi
deepq=$top_builddir/cli/deepq
warm=${2:-200}
cold=20
for f in "$server" "$cgi" "$deepq" "$LIGHTTPD"; do
	[ -x "$f" ] || { echo "cgi-latency: $f is missing" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
. "$top_srcdir/bench/lib.sh"
rundir=$(bench_rundir "$tmp")
lpid=
cleanup() {
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all 2>/dev/null || :
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null || :
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

mkdir -p "$tmp/root" "$tmp/www/cgi-bin"
cp "$cgi" "$tmp/www/cgi-bin/deepq.cgi"
profiles=${1:-$top_srcdir/tests/data/firefox.folded}
corpus=$(cd "$top_srcdir/.." && pwd)/shared/corpus/collapsed/node-recursive.folded
[ -n "${1:-}" ] || [ ! -f "$corpus" ] || profiles="$profiles $corpus"
for p in $profiles; do
	cp "$p" "$tmp/root/"
done
cat >"$tmp/deepq.conf" <<EOF
profile_root = $tmp/root
runtime_dir = $rundir
server_path = $server
idle_timeout = 300
load_wait = 30
EOF
export DEEPQ_CONFIG="$tmp/deepq.conf"

bench_lighttpd cgi-latency
url="http://127.0.0.1:$port/cgi-bin/deepq.cgi"

# stats FILE: median, p90, p99, min, max of the milliseconds in FILE.
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		printf "median %.2f ms, p90 %.2f ms, p99 %.2f ms, " \
		    "min %.2f ms, max %.2f ms (n=%d)\n",
		    v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)],
		    v[int(NR * 0.99 + 0.5)], v[1], v[NR], NR }'
}

# get QUERY: one request; prints its time in ms, fails unless 200.
get() {
	curl -sS -o "$tmp/body" -w '%{http_code} %{time_total}\n' "$url?$1" |
	    awk '$1 != 200 { exit 1 } { printf "%.3f\n", $2 * 1000 }'
}

echo "deepq.cgi latency through lighttpd $("$LIGHTTPD" -v 2>&1 |
    sed -n 's,^lighttpd/\([^ ]*\).*,\1,p'), $(nproc) CPUs, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
for p in $profiles; do
	name=${p##*/}
	size=$(wc -c <"$p")
	q="file=$name&cmd=top&format=json"
	: >"$tmp/cold"
	i=0
	while [ $i -lt $cold ]; do
		i=$((i + 1))
		"$deepq" stop --all
		get "$q" >>"$tmp/cold"
	done
	: >"$tmp/warm"
	get "$q" >/dev/null
	i=0
	while [ $i -lt "$warm" ]; do
		i=$((i + 1))
		get "$q" >>"$tmp/warm"
	done
	echo "$name ($size bytes), cmd=top&format=json:"
	echo "  cold (starts and loads a server): $(stats "$tmp/cold")"
	echo "  warm (running server):            $(stats "$tmp/warm")"
done

# 64 simultaneous cold requests for one file.
name=${profiles%% *}
name=${name##*/}
"$deepq" stop --all
q="file=$name&cmd=top&format=json"
start=$(date +%s%N)
pids=
i=0
while [ $i -lt 64 ]; do
	i=$((i + 1))
	curl -sS -o "$tmp/c.$i" -w '%{http_code} %{time_total}\n' "$url?$q" \
	    >"$tmp/c.$i.t" &
	pids="$pids $!"
done
wait $pids
end=$(date +%s%N)
ok=$(cat "$tmp"/c.*.t | grep -c '^200 ' || :)
same=$(i=0; while [ $i -lt 64 ]; do i=$((i + 1)); md5sum <"$tmp/c.$i"; done |
    sort -u | wc -l)
servers=$(grep -laF -- "$rundir" /proc/[0-9]*/cmdline 2>/dev/null |
    while read -r c; do grep -qaF deepq-server "$c" 2>/dev/null && echo x
    done | wc -l)
cat "$tmp"/c.*.t | awk '{ printf "%.3f\n", $2 * 1000 }' >"$tmp/c64"
echo "64 simultaneous cold requests for $name: $ok answered 200," \
    "$same distinct bodies, $servers server(s), wall $(((end - start) / 1000000)) ms"
echo "  per request: $(stats "$tmp/c64")"

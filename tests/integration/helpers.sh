#!/bin/sh
# No helper process outlives its reason (T52-T54), through lighttpd and
# the CGI:
# - a gzip, zstd or xz file of one small member followed by a terabyte
#   of sparse zeros (the red team's): refused within seconds, no
#   decoding process left; one paused at its start dies with its server
#   (SIGKILL) and with a load that times out;
# - a worker paused at its start has its CPU and address-space limits
#   and dies with its server;
# - base= cycling over five files whose loaders are paused: four
#   loaders at most (one per slot), a fifth base 503 "busy", a loader
#   killed with its slot, all gone with the server.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
need_test_hooks
: "${GENPROF:=$top_builddir/bench/genprof}"
[ -x "$GENPROF" ] || { echo "Bail out! build bench/genprof first"; exit 1; }
for z in gzip zstd xz; do
	command -v $z >/dev/null 2>&1 || skip_all "$z is not installed"
done

# helpers: the processes of this test that are not servers at a hook
# and hold its runtime directory in their command line, or say they are
# a server's helper (a decoder is a fork of its server; workers, loaders
# and the cache writer retitle themselves).
helpers() {
	{
		grep -laF -- "$run" /proc/[0-9]*/cmdline
		grep -laE 'deepq-server: (worker|base loader|cache writer)' \
		    /proc/[0-9]*/cmdline
	} 2>/dev/null | sort -u | while read -r _c; do
		_p=${_c#/proc/}
		_p=${_p%/cmdline}
		case $(rdv_state "$_p") in '' | Z | X) continue ;; esac
		echo "$_p"
	done
}
# no_helpers: true when helpers lists nothing (rdv_wait runs a
# function, not a string).
no_helpers() {
	[ -z "$(helpers)" ]
}
# ppid PID: its parent.
ppid() {
	# Empty for a process already gone (a load_timeout may end the
	# server and its paused decoder first): not sed's status 2 under
	# set -e.
	sed -n 's/^[0-9]* ([^)]*) . \([0-9]*\).*/\1/p' "/proc/$1/stat" \
	    2>/dev/null || :
}
# children PID: how many running processes have PID as parent (one
# pass over /proc: a process per entry is minutes on a busy machine).
children() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$1" '
	    { sub(/^.*\) /, "") }
	    $2 == p && $1 != "Z" && $1 != "X" { n++ }
	    END { print n + 0 }'
}
rdv_conf load_wait=30 load_timeout=30 query_timeout=30
rdv_httpd
# part N: when each part starts, so that a run that outlasts the
# deadline shows where its time went.
t_start=$(rdv_ms)
part() {
	echo "# part $1 at $(($(rdv_ms) - t_start)) ms"
}

part 1
# 1. Padded files: refused at once (64 MiB of zeros decode to nothing).
printf 'main;work 5\n' >"$tmp/small.folded"
for z in gzip zstd xz; do
	$z -c "$tmp/small.folded" >"$root/padded.$z"
	truncate -s 1T "$root/padded.$z"
	t0=$(rdv_ms)
	st=$(rdv_get "file=padded.$z&cmd=top&format=json")
	ms=$(($(rdv_ms) - t0))
	# Before, the decoder read the zeros until load_timeout (504).
	check "$z member + 1 TiB of zeros: $st (in $ms ms)" test "$st" = 422
	check "...saying why, not its bytes" \
	    grep -qE 'decode to nothing|corrupt zstd' "$tmp/body"
	rdv_wait 5 no_helpers || :
	check "...no process left ($(helpers | tr '\n' ' '))" \
	    test -z "$(helpers)"
	rm -f "$root/padded.$z"
done

part 2
# 2. A decoding process paused at its start dies with its server: kill
# -9, and a load that times out.
head -c 6000000 /dev/urandom | od -An -tx1 | tr -d ' \n' |
    fold -w 60 | awk '{ print "main;f" NR % 97 ";" $0 " 1" }' |
    gzip -1 >"$root/big.folded.gz"
for how in kill timeout; do
	if [ $how = timeout ]; then
		rdv_conf load_wait=30 load_timeout=2 query_timeout=30
	fi
	touch "$hooks/pause-decoder"
	curl -s -o /dev/null --max-time 40 \
	    "$url?file=big.folded.gz&cmd=top" &
	echo $! >"$tmp/c.pid"
	dec=
	dec=$(rdv_held 20 decoder)
	rm -f "$hooks/pause-decoder"
	check "$how: a decoder paused at its start (${dec:-none})" \
	    test -n "$dec"
	srv=$(ppid "$dec")
	[ $how = kill ] && kill -9 "$srv" 2>/dev/null
	rdv_wait 10 rdv_gone "$dec" || :
	check "$how: the decoder is gone with its server" rdv_gone "$dec"
	wait "$(cat "$tmp/c.pid")" 2>/dev/null || :
	rm -f "$hooks"/decoder.*
	rdv_stop
	# The client starts another server after a kill while loading,
	# which may load the file and write its cache before rdv_stop (a
	# fast machine does): the next round must decode the file again.
	rm -rf "$run/cache"
done
rdv_conf load_wait=30 load_timeout=30 query_timeout=30

part 3
# 3. A worker paused at its start: its limits, and gone with the server.
"$GENPROF" -F trace -n 50000 >"$root/heavy.trace"
rdv_conf max_cost=0 query_timeout=30 max_workers=2 answer_cache=0 \
    worker_memory=512
rdv_get 'file=heavy.trace&cmd=menu' >/dev/null
touch "$hooks/pause-worker"
curl -s -o /dev/null --max-time 40 \
    "$url?file=heavy.trace&cmd=tree&depth=100000&budget=1000000&format=json" &
echo $! >"$tmp/c.pid"
wk=
wk=$(rdv_held 20 worker)
rm -f "$hooks/pause-worker"
check "a worker paused at its start (${wk:-none})" test -n "$wk"
check "...with a CPU limit" sh -c \
    "grep '^Max cpu time' /proc/$wk/limits | grep -qv unlimited"
check "...and an address-space limit" sh -c \
    "grep '^Max address space' /proc/$wk/limits | grep -qv unlimited"
srv=$(ppid "$wk")
kill -9 "$srv"
rdv_wait 10 rdv_gone "$wk" || :
check "the worker is gone with its server" rdv_gone "$wk"
wait "$(cat "$tmp/c.pid")" 2>/dev/null || :
rm -f "$hooks"/worker.*
rdv_stop

part 4
# 4. base= over five files, their loaders paused: one per slot at most.
rdv_conf query_timeout=3 load_timeout=30
for i in 1 2 3 4 5; do
	printf 'main;base%s %s\n' "$i" "$i" >"$root/b$i.folded"
done
rdv_get 'file=firefox.folded&cmd=menu' >/dev/null
srv=$(rdv_pids | head -1)
touch "$hooks/pause-base-loader"
codes=
for i in 1 2 3 4 5 1 2 3 4 5 1 2; do
	codes="$codes$(rdv_get "file=firefox.folded&base=b$i.folded&cmd=top&format=json") "
	[ "$i" = 5 ] && cp "$tmp/body" "$tmp/fifth"
done
check "twelve requests over five bases: 503 each ($codes)" \
    test "$codes" = "$(printf '503 %.0s' 1 2 3 4 5 6 7 8 9 10 11 12)"
check "...the fifth told the slots are all loading" \
    grep -q 'busy: 4 comparison profiles are loading' "$tmp/fifth"
n=$(children "$srv")
check "four loaders, one per slot ($n children)" test "$n" -eq 4
rdv_get 'file=firefox.folded&cmd=status&format=json' >/dev/null
check "cmd=status counts them" grep -q '"loaders": *4' "$tmp/body"
# A base changed while loading: its slot is dropped, its loader killed,
# another started. (The kernel continues the other stopped loaders once
# one of their process group dies: only the new one stays paused.)
before=$(for f in "$hooks"/base-loader.*; do echo "${f##*.}"; done)
touch -d '2001-01-01' "$root/b1.folded"
rdv_get "file=firefox.folded&base=b1.folded&cmd=top&format=json" >/dev/null
rdv_wait 5 sh -c "[ \$(ls '$hooks'/base-loader.* | wc -l) -ge 5 ]" || :
gone=0
for p in $before; do rdv_gone "$p" && gone=$((gone + 1)); done
new=$(for f in "$hooks"/base-loader.*; do echo "${f##*.}"; done |
    grep -vxF "$before" || :)
n=$(children "$srv")
check "a base changed while loading: a loader killed ($gone), another in its slot (${new:-none}), $n loaders" \
    test "$gone" -ge 1 -a -n "$new" -a "$n" -le 4
kill -9 "$srv"
rdv_wait 10 no_helpers || :
check "the loaders are gone with their server ($(helpers | tr '\n' ' '))" \
    test -z "$(helpers)"
rm -f "$hooks/pause-base-loader" "$hooks"/base-loader.*
rdv_stop
done_testing

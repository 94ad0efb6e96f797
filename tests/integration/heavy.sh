#!/bin/sh
# A server that stays responsive: four heavy queries (a whole tree of a
# generated profile of 50,000 call nodes, seconds each, within the
# budget, four different depths) sent at once, and meanwhile cheap ones
# (cmd=menu) through lighttpd and the CGI. The server tries each query for a slice of
# 50 ms, then hands it to a worker process (max_workers). The workers
# are held at a test hook (worker-run) while the menus are asked, so
# that what is checked is that they are answered meanwhile, not how
# fast the machine is (bench/ has the figures); a heavy query past
# max_workers gets 503 with Retry-After; the heavy answers are whole,
# and come back to the server's answer cache. The same heavy query asked
# four times at once runs in one worker, whose answer all four get (or a
# 503 with Retry-After when that worker is killed). No timeout is under test
# here: query_timeout (600 s) and curl's bounds are for a hang only, as
# four heavy queries at once take minutes of a loaded 2-core machine
# (they hit a 60 s query_timeout there: 504).
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 1500 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
need_test_hooks
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

: "${GENPROF:=$top_builddir/bench/genprof}"
[ -x "$GENPROF" ] || { echo "Bail out! build bench/genprof first"; exit 1; }
"$GENPROF" -F trace -n 50000 >"$root/big.trace"
heavy='file=big.trace&cmd=tree&depth=100000&budget=1000000&format=json'
# heavy N: another heavy query (still deeper than the tree: the same rows).
heavy() {
	echo "file=big.trace&cmd=tree&depth=$((100000 - $1))&budget=1000000&format=json"
}
menu='file=big.trace&cmd=menu&format=json'
rdv_httpd

# held N: the pids of the workers stopped at the worker-run hook, once
# N of them are.
held() {
	rdv_wait 120 held_n "$1" && cat "$hooks"/worker-run.*
}
# held_n N: N workers are stopped at the hook. A worker writes its pid
# file just before it stops itself: counted by the file alone, a
# release's SIGCONT could come before the stop, which would then hold
# that worker for good.
held_n() {
	_n=0
	for _f in "$hooks"/worker-run.*; do
		[ -f "$_f" ] && [ "$(rdv_state "${_f##*.}")" = T ] &&
		    _n=$((_n + 1))
	done
	[ "$_n" -ge "$1" ]
}
# release: let the held workers go on, and hold no more.
release() {
	rm -f "$hooks/pause-worker-run"
	for _p in $(cat "$hooks"/worker-run.* 2>/dev/null); do
		kill -CONT "$_p" 2>/dev/null || :
	done
	rm -f "$hooks"/worker-run.*
}

# ask NAME QUERY: QUERY in the background; its body, headers, status and
# curl's pid in $tmp/NAME.body, .head, .code and .cpid.
ask() {
	curl -sS --max-time 700 -D "$tmp/$1.head" -o "$tmp/$1.body" \
	    -w '%{http_code}' "$url?$2" >"$tmp/$1.code" 2>/dev/null &
	echo $! >"$tmp/$1.cpid"
}
# answered NAME...: wait for those asks (in this shell: they are its
# children); $codes gets their statuses, one string.
answered() {
	for _a; do wait "$(cat "$tmp/$_a.cpid")" || :; done
	codes=$(for _a; do cat "$tmp/$_a.code"; done | tr -d '\n')
}
# status FIELD: a figure of the server's status (jq's path).
status() {
	curl -s --max-time 60 "$url?file=big.trace&cmd=status&format=json" |
	    jq -r ".$1"
}

# Four heavy queries at once, each handed to a worker after its slice,
# held there (test hook); meanwhile cheap queries are answered by the
# server: its loop is free, whatever the speed of the machine.
rdv_conf max_cost=0 query_timeout=600 max_workers=4 answer_cache=0
rdv_get "$menu" >/dev/null	# load
: >"$hooks/pause-worker-run"
for i in 1 2 3 4; do ask "h.$i" "$(heavy $((i - 1)))"; done
check "the four heavy queries went to four workers" held 4
n=0
for j in 1 2 3 4 5; do
	c=$(curl -sS --max-time 60 -o /dev/null -w '%{http_code}' \
	    "$url?$menu" 2>/dev/null || echo 000)
	[ "$c" = 200 ] && n=$((n + 1))
done
check "five menus answered while the four heavy queries run ($n)" \
    test "$n" = 5
release
answered h.1 h.2 h.3 h.4
check "the four heavy queries answered 200 ($codes)" \
    test "$codes" = 200200200200
rdv_local 'cmd=tree&depth=100000&budget=1000000&format=json' big.trace \
    >"$tmp/want.json"
check "...whole, as answered in-process" cmp -s "$tmp/want.json" \
    "$tmp/h.1.body"

# The same heavy query four times at once: one worker runs it; the
# other three wait for its answer (status: waiting), and all four get it.
# waiting N: N requests wait for a worker's answer, one worker is held.
waiting() {
	held_n 1 && [ "$(status waiting)" = "$1" ]
}
: >"$hooks/pause-worker-run"
for i in 1 2 3 4; do ask "s.$i" "$heavy"; done
check "the same query four times at once: one worker, three waiting" \
    rdv_wait 120 waiting 3
check "...and no second worker" \
    test "$(ls "$hooks" | grep -c '^worker-run\.')" -eq 1
check "...status says one worker" test "$(status workers)" = 1
release
answered s.1 s.2 s.3 s.4
check "...all four answered 200 ($codes)" test "$codes" = 200200200200
n=0
for i in 1 2 3 4; do
	cmp -s "$tmp/want.json" "$tmp/s.$i.body" && n=$((n + 1))
done
check "...the one answer, whole, to each ($n)" test "$n" = 4
check "...and none waits now" test "$(status waiting)" = 0

# The worker killed while two more wait for it: they are told to retry
# (503 with Retry-After), never left hanging.
: >"$hooks/pause-worker-run"
for i in 1 2 3; do ask "k.$i" "$(heavy 7)"; done
check "a third asker of a held query waits for it too" rdv_wait 120 waiting 2
wpid=$(cat "$hooks"/worker-run.* | head -1)
kill -9 "$wpid"
release
answered k.1 k.2 k.3
n=0
for i in 1 2 3; do
	[ "$(cat "$tmp/k.$i.code")" = 503 ] &&
	    grep -qi '^Retry-After:' "$tmp/k.$i.head" && n=$((n + 1))
done
check "a waited-for worker killed: its two waiters get 503 with Retry-After ($codes)" \
    test "$n" -ge 2
rdv_stop

# A worker's answer comes back to the server's answer cache: the same
# heavy query again is answered from it (a hit), not by a worker.
# cache FIELD: a figure of the server's answer cache.
cache() {
	status "answer_cache.$1"
}
# cache_grew N: the cache holds more than N answers.
cache_grew() {
	[ "$(cache entries)" -gt "$1" ]
}
rdv_conf max_cost=0 query_timeout=600 max_workers=2 answer_cache=256
rdv_get "$menu" >/dev/null
e0=$(cache entries)
c1=$(rdv_get "$heavy" --max-time 700)
cp "$tmp/body" "$tmp/first.json"
# The worker sends it back beside its client's answer: wait for it.
rdv_wait 60 cache_grew "$e0"
h0=$(cache hits)
: >"$hooks/pause-worker-run"
c2=$(rdv_get "$heavy" --max-time 700)
cp "$tmp/body" "$tmp/second.json"
rm -f "$hooks/pause-worker-run"
h1=$(cache hits)
check "the heavy query again: from the answer cache ($c1, then $c2; hits $h0 -> $h1)" \
    sh -c "[ '$c1 $c2' = '200 200' ] && [ $h1 -eq $((h0 + 1)) ]"
check "...no worker ran for it" sh -c "! ls '$hooks' | grep -q '^worker-run\\.'"
check "...the same bytes" cmp -s "$tmp/first.json" "$tmp/second.json"
release
rdv_stop

# max_workers=1: while one heavy query holds the worker, a second is
# refused at once, 503 (answered while the first is still held).
rdv_conf max_cost=0 query_timeout=600 max_workers=1 answer_cache=0
rdv_get "$menu" >/dev/null
: >"$hooks/pause-worker-run"
curl -sS --max-time 700 -o /dev/null "$url?$heavy" &
apid=$!
check "the first heavy query holds the one worker" held 1
c=$(rdv_get "$(heavy 1)" --max-time 60)
check "past max_workers: 503 while the worker is busy ($c)" test "$c" = 503
check "...with Retry-After" test -n "$(rdv_header Retry-After)"
srv=$(rdv_pids | head -1)
release
wait "$apid" || :
# no_worker_of PID: no worker of that server runs (only ours: the tests
# beside this one under make -j have workers of their own).
no_worker_of() {
	for _c in $(grep -laF 'deepq-server: worker' /proc/[0-9]*/cmdline \
	    2>/dev/null); do
		_p=${_c#/proc/}
		_p=${_p%/cmdline}
		[ "$(sed -n 's/^[0-9]* ([^)]*) . \([0-9]*\).*/\1/p' \
		    "/proc/$_p/stat" 2>/dev/null)" != "$1" ] || return 1
	done
	return 0
}
check "no worker is left (server ${srv:-none})" rdv_wait 10 no_worker_of "$srv"
rdv_stop
done_testing

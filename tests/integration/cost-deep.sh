#!/bin/sh
# Every answer obeys the cost budget (T55): a chain 300,000 calls deep
# (a small .xz made here) and, on it, the exports (callgrind, pprof,
# speedscope), the flame graph in every style and an inverted tree, each
# of which used to run in the server's loop until done while cmd=status
# waited (20 s, then 504). Each now stops within the 50 ms slice and
# goes to a worker: with the worker paused at its start (a test hook:
# the heavy query is provably still running), cmd=status is answered
# (not the 504 of a busy loop; the time is printed). Also: a query known
# to be heavy is refused at once when the workers are busy, without
# running in the loop (a hook there would stop the server); a worker
# whose client left stops at its next cost check; the folded export of
# the chain is refused 413 before it is written (it would be hundreds
# of gigabytes), naming maxdepth=; an answer past max_answer is 413.
# The folded export is not among the heavy queries: its size is worked
# out in one pass over the nodes first, so whether its 413 comes within
# the slice or from a worker depends only on the machine's speed.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
need_test_hooks
command -v xz >/dev/null 2>&1 || skip_all "xz is not installed"

awk 'BEGIN { n = 300000; print "# deepq-trace 1"; print "metric ticks count"
    for (i = 0; i < n; i++) print "call " i " f" i
    for (i = 0; i < n; i++) print "return " (n + i + 1) " f" (n - 1 - i) }' |
    xz -1 >"$root/chain.trace.xz"
echo "# the chain: $(wc -c <"$root/chain.trace.xz") bytes of xz"
rdv_conf query_timeout=30 load_wait=30 max_workers=2 answer_cache=0
rdv_httpd
# Loaded by a report: cmd=status starts no server (it would answer 404).
st=$(rdv_get 'file=chain.trace.xz&cmd=menu&format=json')
check "the chain loads: 200 ($st)" test "$st" = 200

# status_ms: the time of one cmd=status through the CGI, in ms (99999
# if not 200). What is checked is that it is answered, not the 504 a
# server loop busy with the heavy query gives after query_timeout: the
# times are printed (bench/cost-status.sh measures them).
status_ms() {
	_t0=$(rdv_ms)
	_c=$(curl -s -o /dev/null --max-time 90 -w '%{http_code}' \
	    "$url?file=chain.trace.xz&cmd=status&format=json")
	[ "$_c" = 200 ] || { echo 99999; return; }
	echo $(($(rdv_ms) - _t0))
}
alone=0
for i in 1 2 3; do
	t=$(status_ms)
	[ "$t" -gt "$alone" ] && alone=$t
done
# A failed one (99999) would make every comparison below hold.
check "cmd=status alone: 200 each, up to $alone ms" test "$alone" -lt 99999

# worker_paused: wait for a worker stopped at its start; its pid.
worker_paused() {
	_w=$(rdv_held 20 worker)
	[ -n "$_w" ] && echo "$_w"
}

for q in 'cmd=callgrind&format=callgrind' 'cmd=pprof&format=pprof' \
    'cmd=speedscope&format=speedscope' 'cmd=flame&format=svg' \
    'cmd=flame&format=json&style=icicle' \
    'cmd=flame&format=json&style=chart' 'cmd=tree&t=1~inv&format=json'; do
	touch "$hooks/pause-worker"
	curl -s -o "$tmp/heavy.body" -w '%{http_code}' --max-time 60 \
	    "$url?file=chain.trace.xz&$q" >"$tmp/heavy.code" &
	echo $! >"$tmp/heavy.pid"
	wk=$(worker_paused) || wk=
	rm -f "$hooks/pause-worker"
	if [ -z "$wk" ]; then
		not_ok "$q: no worker (it ran in the server's loop)"
		wait "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
		continue
	fi
	t=$(status_ms)
	check "$q in a worker: cmd=status answered beside it ($t ms, alone $alone)" \
	    test "$t" -ne 99999
	# What it would answer is not what this test is about (some run
	# to their budget): the worker killed, its client gets 503 at
	# once, not a hang.
	kill -9 "$wk"
	wait "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
	c=$(cat "$tmp/heavy.code")
	check "$q: its worker killed, the client 503 ($c)" test "$c" = 503
	rm -f "$hooks"/worker.*
done

# The folded export: refused before it is written, the way to cut it.
st=$(rdv_get 'file=chain.trace.xz&cmd=folded&format=folded')
check "folded export of the chain: 413 ($st)" test "$st" = 413
check "...naming maxdepth=" grep -q 'maxdepth=' "$tmp/body"
st=$(rdv_get 'file=chain.trace.xz&cmd=folded&format=folded&maxdepth=100')
check "...with maxdepth=100: 200 ($st, $(wc -c <"$tmp/body") bytes)" \
    test "$st" = 200

# max_workers busy: a query known heavy is refused without running in
# the loop (pause-server-slice would stop the server if it did). It is
# another query than the worker's: the same one would wait for that
# worker's answer (tests/integration/heavy.sh). The other is made known
# heavy first: its slice runs out, its worker is killed.
rdv_stop
rdv_conf query_timeout=30 load_wait=30 max_workers=1 answer_cache=0
heavy='file=chain.trace.xz&cmd=flame&format=json&style=chart'
other='file=chain.trace.xz&cmd=flame&format=json&style=icicle'
touch "$hooks/pause-worker"
curl -s -o /dev/null --max-time 60 "$url?$other" &
echo $! >"$tmp/other.pid"
wk=$(worker_paused) || wk=
check "max_workers=1: another heavy query in a worker, then killed" \
    test -n "$wk"
[ -z "$wk" ] || kill -9 "$wk"
wait "$(cat "$tmp/other.pid")" 2>/dev/null || :
rm -f "$hooks"/worker.*
curl -s -o /dev/null --max-time 60 "$url?$heavy" &
echo $! >"$tmp/heavy.pid"
wk=$(worker_paused) || wk=
check "max_workers=1: one heavy query in a worker" test -n "$wk"
touch "$hooks/pause-server-slice"
t0=$(rdv_ms)
codes=
for i in 1 2 3 4 5; do
	codes="$codes$(curl -s -o /dev/null --max-time 60 -w '%{http_code}' \
	    "$url?$other") "
done
ms=$(($(rdv_ms) - t0))
rm -f "$hooks/pause-server-slice"
srv=$(rdv_pids | head -1)
check "...the other heavy query five times: 503 each, at once ($codes$ms ms)" \
    test "$codes" = '503 503 503 503 503 '
check "...none ran in the server's loop" \
    sh -c "! ls '$hooks'/server-slice.* >/dev/null 2>&1"
for p in $(rdv_paused server-slice); do kill -CONT "$p"; done
rm -f "$hooks/pause-worker"
[ -n "$wk" ] && kill -CONT "$wk"

# The client leaves: the worker's query stops at its next cost check
# (max_cost=0: only the time budget would stop it otherwise, and did,
# 16 minutes for the red team's, past query_timeout). query_timeout is
# 600 s here, so that the time budget cannot be what stops it within
# the wait below, however slow the machine.
kill "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
wait "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
rdv_stop
rdv_conf query_timeout=600 load_wait=30 max_workers=1 answer_cache=0 \
    max_cost=0
rm -f "$hooks"/worker.*
touch "$hooks/pause-worker"
curl -s -o /dev/null --max-time 60 "$url?$heavy" &
echo $! >"$tmp/heavy.pid"
wk=$(worker_paused) || wk=
rm -f "$hooks/pause-worker"
# The CGI goes, as when the web server ends it (the client left) or at
# its query_timeout: SIGTERM, and nobody reads the reply FIFO any more.
for c in /proc/[0-9]*/exe; do
	[ "$(readlink "$c" 2>/dev/null)" = "$tmp/www/cgi-bin/deepq.cgi" ] ||
	    continue
	c=${c#/proc/}
	kill -TERM "${c%/exe}" 2>/dev/null || :
done
wait "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
sleep 0.5
t0=$(rdv_ms)
[ -n "$wk" ] && kill -CONT "$wk"
rdv_wait 10 rdv_gone "${wk:-0}" || :
check "the client gone: its worker stops ($(($(rdv_ms) - t0)) ms)" \
    rdv_gone "${wk:-0}"

# max_answer: a body past it is stopped while written, 413 naming it.
rdv_stop
rdv_conf query_timeout=30 load_wait=30 max_answer=1
st=$(rdv_get 'file=chain.trace.xz&cmd=tree&depth=5000&budget=100000&format=json')
check "an answer past max_answer=1: 413 ($st)" test "$st" = 413
check "...naming the limit" grep -q '1 MiB' "$tmp/body"
rdv_stop
done_testing

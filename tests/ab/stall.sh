#!/bin/sh
# cost-deep.sh (T55) without test hooks, for builds that lack the worker
# hook (doc/reliability.md, bench/tests-ab.sh; not in make check: it
# compares times, and runs each heavy query to its end): cmd=status is
# asked every 0.2 s while each heavy query of the 300,000-deep chain runs,
# from its start to its end, and its slowest must be within a second of
# cmd=status alone. Before issue 30 the flame graph, its chart and the
# inverted tree ran in the server's loop: cmd=status waited 12 s or 504.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/../integration/rendezvous-lib.sh"
awk 'BEGIN { n = 300000; print "# deepq-trace 1"; print "metric ticks count"
    for (i = 0; i < n; i++) print "call " i " f" i
    for (i = 0; i < n; i++) print "return " (n + i + 1) " f" (n - 1 - i) }' |
    xz -1 >"$root/chain.trace.xz"
rdv_conf query_timeout=30 load_wait=30 max_workers=2 answer_cache=0
rdv_httpd
st=$(rdv_get 'file=chain.trace.xz&cmd=menu&format=json')
check "the chain loads: 200 ($st)" test "$st" = 200
status_ms() {
	_t0=$(rdv_ms)
	_c=$(curl -s -o /dev/null --max-time 60 -w '%{http_code}' \
	    "$url?file=chain.trace.xz&cmd=status&format=json")
	[ "$_c" = 200 ] || { echo 99999; return; }
	echo $(($(rdv_ms) - _t0))
}
alone=0
for i in 1 2 3; do
	t=$(status_ms)
	[ "$t" -gt "$alone" ] && alone=$t
done
check "cmd=status alone: 200 each, up to $alone ms" test "$alone" -lt 99999
for q in 'cmd=callgrind&format=callgrind' 'cmd=pprof&format=pprof' \
    'cmd=speedscope&format=speedscope' 'cmd=flame&format=svg' \
    'cmd=flame&format=json&style=chart' 'cmd=tree&t=1~inv&format=json'; do
	t0=$(rdv_ms)
	curl -s -o /dev/null -w '%{http_code}' --max-time 60 \
	    "$url?file=chain.trace.xz&$q" >"$tmp/heavy.code" &
	hp=$!
	worst=0 n=0
	while kill -0 "$hp" 2>/dev/null; do
		sleep 0.2
		t=$(status_ms)
		n=$((n + 1))
		[ "$t" -gt "$worst" ] && worst=$t
	done
	wait "$hp" 2>/dev/null || :
	check "$q ($(cat "$tmp/heavy.code") in $(($(rdv_ms) - t0)) ms): $n cmd=status beside it, the slowest $worst ms (alone $alone)" \
	    test "$worst" -lt $((alone + 1000))
done
rdv_stop
done_testing

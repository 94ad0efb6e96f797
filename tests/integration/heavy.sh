#!/bin/sh
# A server that stays responsive: four heavy queries (a whole tree of a
# generated profile of 50,000 call nodes, seconds each, within the
# budget) sent at once, and meanwhile cheap ones (cmd=menu) through
# lighttpd and the CGI. The server tries each query for a slice of
# 50 ms, then hands it to a worker process (max_workers); the menus
# wait well under a second. The same with max_workers=0 (one query at a
# time, as before) for comparison; a fifth heavy query past max_workers
# gets 503 with Retry-After; the heavy answers are whole, and come back
# to the server's answer cache.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 400 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${GENPROF:=$top_builddir/bench/genprof}"
[ -x "$GENPROF" ] || { echo "Bail out! build bench/genprof first"; exit 1; }
"$GENPROF" -F trace -n 50000 >"$root/big.trace"
heavy='file=big.trace&cmd=tree&depth=100000&budget=1000000&format=json'
menu='file=big.trace&cmd=menu&format=json'
rdv_httpd

# round WORKERS: four heavy queries, menus meanwhile; prints the
# slowest menu in ms and leaves the heavy statuses in $tmp/h.*.code.
round() {
	rdv_conf max_cost=0 query_timeout=60 max_workers="$1" \
	    answer_cache=0
	rdv_get "$menu" >/dev/null	# load
	rm -f "$tmp"/h.*
	for i in 1 2 3 4; do
		curl -sS --max-time 100 -o "$tmp/h.$i.body" -w '%{http_code}' \
		    "$url?$heavy" >"$tmp/h.$i.code" 2>/dev/null &
		echo $! >"$tmp/h.$i.cpid"
	done
	sleep 0.3
	worst=0
	n=0
	for j in 1 2 3 4 5 6 7 8 9 10; do
		t0=$(rdv_ms)
		c=$(curl -sS --max-time 100 -o /dev/null -w '%{http_code}' \
		    "$url?$menu" 2>/dev/null || echo 000)
		ms=$(($(rdv_ms) - t0))
		[ "$c" = 200 ] && n=$((n + 1))
		[ "$ms" -gt "$worst" ] && worst=$ms
		# Stop when the heavy queries are all done.
		[ "$(cat "$tmp"/h.[1-4].code | tr -d '\n' | wc -c)" -lt 12 ] ||
		    break
		sleep 0.2
	done
	for i in 1 2 3 4; do wait "$(cat "$tmp/h.$i.cpid")" || :; done
	echo "$worst $n"
}

# One query at a time (max_workers=0): the menus wait for the heavy.
set -- $(round 0)
serial=$1
echo "# max_workers=0: the slowest of the menus beside four heavy queries: $1 ms"
rdv_stop

set -- $(round 4)
echo "# max_workers=4: the slowest of $2 menus beside four heavy queries: $1 ms"
check "every menu answered ($2)" test "$2" -ge 1
check "the slowest menu waited under a second ($1 ms; one at a time: $serial ms)" \
    test "$1" -lt 1000
check "the four heavy queries answered 200 ($(cat "$tmp"/h.[1-4].code | tr -d '\n'))" \
    test "$(cat "$tmp"/h.[1-4].code | tr -d '\n')" = 200200200200
rdv_local 'cmd=tree&depth=100000&budget=1000000&format=json' big.trace \
    >"$tmp/want.json"
check "...whole, as answered in-process" cmp -s "$tmp/want.json" \
    "$tmp/h.1.body"
rdv_stop

# A worker's answer comes back to the server's answer cache: the same
# heavy query again is answered from it.
rdv_conf max_cost=0 query_timeout=60 max_workers=2 answer_cache=256
rdv_get "$menu" >/dev/null
t0=$(rdv_ms)
c1=$(rdv_get "$heavy")
t1=$(($(rdv_ms) - t0))
cp "$tmp/body" "$tmp/first.json"
sleep 0.5
t0=$(rdv_ms)
c2=$(rdv_get "$heavy")
t2=$(($(rdv_ms) - t0))
echo "# a heavy query through a worker: $t1 ms; again, from the answer cache: $t2 ms"
check "the heavy query again: from the cache ($c1 $t1 ms, then $c2 $t2 ms)" \
    sh -c "[ '$c1 $c2' = '200 200' ] && [ $t2 -lt $((t1 / 2)) ]"
check "...the same bytes" cmp -s "$tmp/first.json" "$tmp/body"
rdv_stop

# max_workers=1: a second heavy query meanwhile is refused at once.
rdv_conf max_cost=0 query_timeout=60 max_workers=1 answer_cache=0
rdv_get "$menu" >/dev/null
curl -sS --max-time 100 -o /dev/null "$url?$heavy" &
apid=$!
sleep 0.5
t0=$(rdv_ms)
c=$(rdv_get "$heavy")
ms=$(($(rdv_ms) - t0))
check "past max_workers: 503 in $ms ms ($c)" test "$c" = 503 -a "$ms" -lt 2000
check "...with Retry-After" test -n "$(rdv_header Retry-After)"
wait "$apid" || :
check "no worker is left" sh -c \
    "! grep -laF 'deepq-server: worker' /proc/[0-9]*/cmdline 2>/dev/null | \
    while read f; do p=\${f#/proc/}; p=\${p%/cmdline}; \
    [ \"\$(readlink /proc/\$p/cwd)\" = / ] && echo \$p; done | grep -q ."
rdv_stop
done_testing

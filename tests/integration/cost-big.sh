#!/bin/sh
# Every answer obeys the cost budget on a big profile too (T56): 6.6
# million call nodes (2,570 x 2,570, made here), where an export or a
# flame graph used to hold the server's loop for seconds. With the
# worker paused at its start (a test hook), cmd=status beside each of
# them is answered (not the 504 of a busy loop; the time is printed,
# bench/cost-status.sh measures it); four clients
# looping on cmd=callgrind while both workers are busy are refused at
# once, and cost the loop nothing (a hook there would stop it).
# Not in make check: loading the profile takes a minute under a
# sanitizer on a busy machine, and cost-deep.sh checks the same paths on
# the chain. Run it by hand in a build configured with
# --enable-test-hooks: make check TESTS=tests/integration/cost-big.sh;
# bench/cost-status.sh gives the figures on a release build.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
need_test_hooks

awk 'BEGIN { for (i = 0; i < 2570; i++) for (j = 0; j < 2570; j++)
    printf "f%d;g%d 1\n", i, j }' >"$root/big.folded"
rdv_conf query_timeout=60 load_wait=60 load_timeout=300 max_workers=2 \
    answer_cache=0
rdv_httpd
# The load takes seconds (a minute under a sanitizer on a busy machine);
# a report starts it (cmd=status starts no server: 404).
rdv_wait 280 sh -c "[ \$(curl -s -o /dev/null --max-time 70 -w '%{http_code}' \
    '$url?file=big.folded&cmd=menu&format=json') = 200 ]" || :
check "6.6 million call nodes loaded" \
    test "$(rdv_get 'file=big.folded&cmd=menu&format=json')" = 200
check "...all of them" grep -q '"nodes": *66[0-9][0-9][0-9][0-9][0-9]' \
    "$tmp/body"

# status_ms: one cmd=status through the CGI: its ms, 99999 if not 200.
status_ms() {
	_t0=$(rdv_ms)
	_c=$(curl -s -o /dev/null --max-time 90 -w '%{http_code}' \
	    "$url?file=big.folded&cmd=status&format=json")
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

worker_paused() {
	_w=$(rdv_held 60 worker)
	[ -n "$_w" ] && echo "$_w"
}

for q in 'cmd=callgrind&format=callgrind' 'cmd=folded&format=folded' \
    'cmd=pprof&format=pprof' 'cmd=speedscope&format=speedscope' \
    'cmd=flame&format=svg' 'cmd=tree&t=1~inv&format=json'; do
	touch "$hooks/pause-worker"
	curl -s -o /dev/null -w '%{http_code}' --max-time 120 \
	    "$url?file=big.folded&$q" >"$tmp/heavy.code" &
	echo $! >"$tmp/heavy.pid"
	wk=$(worker_paused) || wk=
	rm -f "$hooks/pause-worker"
	if [ -z "$wk" ]; then
		not_ok "$q: no worker (it ran in the server's loop: $(cat "$tmp/heavy.code"))"
		wait "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
		continue
	fi
	t=$(status_ms)
	check "$q in a worker: cmd=status answered beside it ($t ms, alone $alone)" \
	    test "$t" -ne 99999
	# Its answer is not what this test is about: let it go.
	kill -9 "$wk"
	wait "$(cat "$tmp/heavy.pid")" 2>/dev/null || :
	rm -f "$hooks"/worker.*
done

# Four clients looping on cmd=pprof, known heavy (above), both workers
# busy with other exports: refused at once, each (the red team's made
# every cheap query wait seconds, though their own requests were
# refused). The workers' own queries would wait for their answers
# instead (tests/integration/heavy.sh).
touch "$hooks/pause-worker"
for i in 1 2; do
	[ $i = 1 ] && busy='cmd=callgrind&format=callgrind' ||
	    busy='cmd=folded&format=folded'
	curl -s -o /dev/null --max-time 120 "$url?file=big.folded&$busy" &
	echo $! >"$tmp/w$i.pid"
	rdv_wait 60 sh -c "[ \$(ls '$hooks'/worker.* 2>/dev/null | wc -l) -ge $i ]" ||
	    :
done
heavy='file=big.folded&cmd=pprof&format=pprof'
check "two workers busy with cmd=callgrind and cmd=folded" \
    test "$(ls "$hooks"/worker.* 2>/dev/null | wc -l)" -eq 2
# While they loop, a hook stops the server the moment any query runs in
# its loop: none may (cmd=status would, so it is asked after).
touch "$hooks/pause-server-slice"
for i in 1 2 3 4; do
	sh -c "end=\$((\$(date +%s) + 5)); n=0; r=0
	    while [ \$(date +%s) -lt \$end ]; do
		c=\$(curl -s -o /dev/null --max-time 30 -w '%{http_code}' '$url?$heavy')
		n=\$((n + 1)); [ \"\$c\" = 503 ] && r=\$((r + 1))
	    done; echo \"\$n \$r\"" >"$tmp/loop.$i" &
	echo $! >"$tmp/loop$i.pid"
done
for i in 1 2 3 4; do wait "$(cat "$tmp/loop$i.pid")" 2>/dev/null || :; done
n=0
r=0
for i in 1 2 3 4; do
	set -- $(cat "$tmp/loop.$i")
	n=$((n + $1))
	r=$((r + $2))
done
check "four looping clients: $n requests, all refused 503 ($r)" \
    test "$n" -gt 0 -a "$r" -eq "$n"
check "...none of them ran in the server's loop" \
    sh -c "! ls '$hooks'/server-slice.* >/dev/null 2>&1"
rm -f "$hooks/pause-server-slice"
for p in $(rdv_paused server-slice); do kill -CONT "$p"; done
t=$(status_ms)
check "...cmd=status then answered ($t ms, alone $alone)" \
    test "$t" -ne 99999
rm -f "$hooks/pause-worker"
for p in $(ls "$hooks"/worker.* 2>/dev/null | sed 's/.*\.//'); do
	kill -9 "$p" 2>/dev/null || :
done
for i in 1 2; do wait "$(cat "$tmp/w$i.pid")" 2>/dev/null || :; done
rdv_stop
done_testing

#!/bin/sh
# A large answer from a fresh server, to a client that reads slowly: a
# dump of a generated profile (17 MB of JSON), the server held at a test
# hook before it makes it for longer than write_timeout, read by a CGI
# that is stopped for half a second at a time (SIGSTOP/SIGCONT) while it
# reads. The stall timeout counts from the last bytes written on the
# real clock, so the answer arrives whole; a client that stops reading
# for longer than write_timeout (held at a test hook) is still dropped.
# The half-second stops are a twelfth of write_timeout (6 s): room for a
# loaded machine that oversleeps them.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${GENPROF:=$top_builddir/bench/genprof}"
[ -x "$GENPROF" ] || { echo "Bail out! build bench/genprof first"; exit 1; }
"$GENPROF" -F trace -n 100000 >"$root/big.trace"
q='file=big.trace&cmd=dump&format=json&limit=1000000'
(cd "$root" && "$DEEPQ" query --local big.trace \
    'cmd=dump&format=json&limit=1000000') >"$tmp/want.json"
size=$(wc -c <"$tmp/want.json")

# In the server process (no worker), a stall of six seconds at most.
rdv_conf write_timeout=6 max_workers=0 query_timeout=120 load_wait=60
rdv_httpd

# cgi_pid: the CGI process of this test, if one runs.
# By the program it runs: lighttpd may start it under its base name.
cgi_pid() {
	for _c in /proc/[0-9]*/exe; do
		# The same file (device and inode), however its path is spelt.
		[ "$_c" -ef "$tmp/www/cgi-bin/deepq.cgi" ] || continue
		_c=${_c#/proc/}
		echo "${_c%/exe}"
		return 0
	done
	return 1
}

# slow STOP-SECONDS: stop and continue the CGI while it runs.
# The pid is looked up once per CGI: a scan of /proc each round took
# long enough on a loaded machine to let the CGI read the whole answer
# between two stops.
slow() {
	p=
	while :; do
		[ -n "$p" ] && [ -d "/proc/$p" ] ||
		    p=$(cgi_pid) || { p=; sleep 0.05; continue; }
		kill -STOP "$p" 2>/dev/null || :
		sleep "$1"
		kill -CONT "$p" 2>/dev/null || :
		sleep 0.1
	done
}

# The server is held before the answer for longer than write_timeout
# (sleep never returns early): a stall counted from the query's start,
# not from the last bytes written, would drop the client.
t0=$(rdv_ms)
: >"$hooks/pause-server-answer"
slow 0.5 &
echo $! >"$tmp/slow.pid"
rdv_get "$q" --max-time 300 >"$tmp/code1" &
echo $! >"$tmp/get1.pid"
check "the server is held before its answer" \
    rdv_wait 60 rdv_paused server-answer
srv=$(rdv_paused server-answer || :)
rm -f "$hooks/pause-server-answer"
sleep 7
kill -CONT "$srv" 2>/dev/null || :
wait "$(cat "$tmp/get1.pid")" 2>/dev/null || :
rm -f "$tmp/get1.pid"
code=$(cat "$tmp/code1")
kill "$(cat "$tmp/slow.pid")"
wait "$(cat "$tmp/slow.pid")" 2>/dev/null || :
p=$(cgi_pid) && kill -CONT "$p" 2>/dev/null || :
t1=$(rdv_ms)
echo "# fresh server, 0.5 s stops: $code, $(wc -c <"$tmp/body") of $size bytes in $((t1 - t0)) ms"
check "a fresh server's $size-byte dump, read slowly: 200 ($code)" \
    test "$code" = 200
check "...whole, the same bytes as in-process" cmp -s "$tmp/want.json" \
    "$tmp/body"

# A client that stops reading once its answer has begun, for longer than
# write_timeout: dropped, not waited for. The CGI stops itself at the
# test hook after the answer's header (so the server is writing, and the
# stop cannot fall before), and is let go only once the server has given
# up on it (its reply FIFO no longer open): no race with the clock.
# Another query (limit one less), or the answer cache would answer it at
# once.
reply_closed() {
	for _p in $(rdv_pids); do
		ls -l "/proc/$_p/fd" 2>/dev/null | grep -q '\.reply' && return 1
	done
	return 0
}
: >"$hooks/pause-client-body"
t2=$(rdv_ms)
rdv_get "${q%1000000}999999" --max-time 120 >"$tmp/code3" &
echo $! >"$tmp/get3.pid"
rdv_wait 60 sh -c "ls '$hooks' | grep -q '^client-body\.'"
rm -f "$hooks/pause-client-body"
cgi=$(cat "$hooks"/client-body.*)
check "the CGI stopped with its answer begun (pid $cgi)" kill -0 "$cgi"
check "the server drops the client that stopped reading" \
    rdv_wait 60 reply_closed
kill -CONT "$cgi" 2>/dev/null || :
wait "$(cat "$tmp/get3.pid")" 2>/dev/null || :
rm -f "$tmp/get3.pid"
code=$(cat "$tmp/code3")
echo "# stopped past write_timeout: $code in $(( $(rdv_ms) - t2 )) ms"
check "a client stopped past write_timeout is dropped: 503 ($code)" \
    test "$code" = 503
rdv_stop
done_testing

#!/bin/sh
# A client whose server is SIGKILLed and replaced by a new one before it
# looks again: it used to see KEY.alive locked (by the new server, which
# never heard of its request) and wait the whole query_timeout. The
# liveness file names the server (pid, path, start time); the client
# compares it with the one it sent to and answers 503 at once.
# Processes are stopped at exact points by DEEPQ_TEST_HOOKS.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_conf query_timeout=600
rdv_httpd
q='file=firefox.folded&cmd=top&format=json'
key=$(rdv_key "$root/firefox.folded")

code=$(rdv_get "$q")
check "a first server answers ($code)" test "$code" = 200
old=$(sed -n 1p "$run/$key.alive")
check "its liveness file names it: pid, path, start time" sh -c \
    "[ '$old' = '$(rdv_pids)' ] && [ \"\$(sed -n 2p '$run/$key.alive')\" = \
    '$root/firefox.folded' ] && sed -n 3p '$run/$key.alive' |
    grep -Eq '^[0-9]+\\.[0-9]{9}\$'"

# Client A sends, then both it and the server stop: A before reading,
# the server before answering.
touch "$hooks/pause-client-read" "$hooks/pause-server-answer"
curl -sS --max-time 30 -o "$tmp/a.body" -w '%{http_code}' \
    "$url?$q&limit=3" >"$tmp/a.code" &
apid=$!
check "the server stops before answering" rdv_wait 10 rdv_paused server-answer
check "client A stops before reading" rdv_wait 10 rdv_paused client-read
cgi=$(rdv_paused client-read)
rm -f "$hooks/pause-client-read" "$hooks/pause-server-answer"

# kill -9 the server; client B starts a new one and is answered.
kill -9 "$old"
rdv_wait 5 rdv_gone "$old"
code=$(rdv_get "$q&limit=4")
new=$(sed -n 1p "$run/$key.alive")
check "client B: a new server answers ($code)" test "$code" = 200
check "a new server holds the lock ($old -> $new)" \
    sh -c "[ -n '$new' ] && [ '$new' != '$old' ]"

# A goes on: it must see that its server is gone, not wait out
# query_timeout (600 s: curl's 30 s would give up first, so an answer
# at all says it did not wait, however slow the machine).
t0=$(rdv_ms)
kill -CONT "$cgi"
wait "$apid" || :
t1=$(rdv_ms)
echo "# client A answered $(cat "$tmp/a.code") in $((t1 - t0)) ms"
check "client A: 503 ($(cat "$tmp/a.code"))" test "$(cat "$tmp/a.code")" = 503
check "...saying the server went away" grep -q 'exited before answering' \
    "$tmp/a.body"
code=$(rdv_get "$q")
check "the next request is answered by the new server ($code)" sh -c \
    "[ '$code' = 200 ] && [ '$(rdv_pids)' = '$new' ]"
rdv_stop
done_testing

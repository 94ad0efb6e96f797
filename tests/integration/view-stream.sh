#!/bin/sh
# A view's endpoint that streams (T60): a fake ClickHouse
# (tests/unit/stream-server) answering the stacks' query with chunks of
# zero bytes that never end (each 18 zeros are a valid row: stack 0, no
# frames) is refused once the rows reach the query's LIMIT (twice
# max_rows), after megabytes, not after the view's timeout and
# gigabytes. And a view's password file (T61): following the old
# advice of deepq-clickhouse(7), it sits beside the view under the
# profile root, and reads as a folded profile; once a server has loaded
# the view, file= and base= of it are 404 as if it were not there.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${STREAM_SERVER:=$top_builddir/tests/unit/stream-server}"
[ -x "$STREAM_SERVER" ] || { echo "Bail out! build tests/unit/stream-server"; exit 1; }

# fake MODE NAME: a fake ClickHouse; its port in $fport.
fake() {
	rm -f "$tmp/$2.port"
	"$STREAM_SERVER" "$1" "$tmp/$2.port" "$tmp/$2.count" &
	echo $! >"$tmp/$2.pid"
	rdv_wait 5 test -s "$tmp/$2.port" ||
	    { echo "Bail out! the fake ClickHouse does not start"; exit 1; }
	fport=$(cat "$tmp/$2.port")
}

rdv_conf query_timeout=40 load_wait=40 load_timeout=60
rdv_httpd

# The stream: 40 s of timeout, 5,000,000 stacks (the default max_rows,
# whose byte bound, max_bytes, is then 16 GiB).
fake zeros zeros
mkdir -p "$root/ch"
{ echo '# deepq-view 1'; echo "clickhouse = http://127.0.0.1:$fport/";
    echo 'table = prof'; echo 'timeout = 40'; } >"$root/ch/stream.deepq"
t0=$(rdv_ms)
st=$(rdv_get 'file=ch/stream.deepq&cmd=top&format=json')
ms=$(($(rdv_ms) - t0))
check "an endless stream of rows: refused ($st in $ms ms)" \
    test "$st" = 422 -a "$ms" -lt 30000
check "...past max_rows" grep -q 'more than 5000000 stacks' "$tmp/body"
rdv_wait 5 test -s "$tmp/zeros.count" || :
sent=$(cat "$tmp/zeros.count" 2>/dev/null || echo 0)
check "...after $((sent >> 20)) MiB of it (10,000,002 rows are 172)" \
    test "$sent" -gt 0 -a "$sent" -lt $((256 << 20))
kill "$(cat "$tmp/zeros.pid")" 2>/dev/null || :

# The password file beside the view, as the old advice had it, whose
# line reads as a folded stack: "s3cret 42".
fake row row
printf 's3cret 42\n' >"$root/ch/ch.pass"
{ echo '# deepq-view 1'; echo "clickhouse = http://127.0.0.1:$fport/";
    echo 'table = prof'; echo 'user = deepq';
    echo 'password_file = ch.pass'; } >"$root/ch/x.deepq"
st=$(rdv_get 'file=ch/x.deepq&cmd=top&format=json')
check "the view loads ($st)" test "$st" = 200
st=$(rdv_get 'file=ch/ch.pass&cmd=top&format=json')
check "file= of its password file: 404 ($st)" test "$st" = 404
check "...without a byte of it" sh -c "! grep -q s3cret '$tmp/body'"
st=$(rdv_get 'file=ch/x.deepq&base=ch.pass&cmd=top&format=json')
st2=$(rdv_get 'file=ch/x.deepq&base=ch/ch.pass&cmd=top&format=json')
check "base= of it: 404 ($st $st2)" test "$st$st2" = 404404
check "...without a byte of it" sh -c "! grep -q s3cret '$tmp/body'"
# Changed (a new password): the mark no longer matches until the view
# is loaded again; then it does.
printf 'n3wer 7\n' >"$root/ch/ch.pass"
touch "$root/ch/x.deepq"
rdv_wait 10 sh -c "[ \$(curl -s -o /dev/null -w '%{http_code}' \
    '$url?file=ch/x.deepq&cmd=top&format=json') = 200 ] &&
    [ \$(curl -s -o /dev/null -w '%{http_code}' \
    '$url?file=ch/ch.pass&cmd=top&format=json') = 404 ]"
check "a new password file, the view loaded again: 404 too" \
    test "$(rdv_get 'file=ch/ch.pass&cmd=top&format=json')" = 404
rdv_stop
done_testing

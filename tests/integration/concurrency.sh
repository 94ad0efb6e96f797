#!/bin/sh
# Two hundred clients against one profile (DEEPQ_CLIENTS; 50 in make
# check, to stay well under a minute) while its server is killed with
# SIGKILL mid-load and mid-answer (T62), through lighttpd and the CGI,
# each moment held by a test hook: every answer is a 200 (equal to the
# in-process one) or a documented 503 with Retry-After (deepq.cgi(8):
# busy, the lock busy, the answer cut), one server is left, and no
# client waits for a timeout: load_wait and query_timeout are 60 s, so
# a client left waiting on the dead server would get 503 "loading",
# 504, or nothing by curl's --max-time, each counted against it. The
# slowest is printed, not compared (many CGIs at once take seconds of
# CPU themselves, more under sanitizers: a bound would be the
# machine's speed).
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
need_test_hooks
. "${0%/*}/rendezvous-lib.sh"
n=${DEEPQ_CLIENTS:-50}

# A tree well over one write chunk, so that a kill lands mid-answer.
awk 'BEGIN { for (a = 0; a < 10; a++) for (b = 0; b < 10; b++)
	for (c = 0; c < 10; c++) for (d = 0; d < 10; d++)
	printf "fn_%d;fn_%d;fn_%d;fn_%d %d\n", a, b, c, d,
	    1 + (a * 1000 + b * 100 + c * 10 + d) % 97 }' >"$root/big.folded"
# max_workers=0: the server answers each itself (under a sanitizer the
# tree is expensive: with workers most clients would get 503 busy, and
# the answer paused would be a worker's, not the server's).
rdv_conf load_wait=60 query_timeout=60 max_servers=16 max_workers=0
rdv_httpd
q='file=big.folded&cmd=tree&depth=5&budget=2000&format=json'
rdv_local 'cmd=tree&depth=5&budget=2000&format=json' big.folded \
    >"$tmp/want.json"

# clients N TAG: N clients at once; their "code seconds" in $tmp/TAG.*,
# their bodies beside, the pids in $tmp/TAG.pids.
clients() {
	: >"$tmp/$2.pids"
	_i=0
	while [ "$_i" -lt "$1" ]; do
		_i=$((_i + 1))
		curl -s -o "$tmp/$2.$_i.body" -D "$tmp/$2.$_i.head" \
		    --max-time 100 -w '%{http_code} %{time_total} %{exitcode}\n' \
		    "$url?$q" >"$tmp/$2.$_i.out" 2>/dev/null &
		echo $! >>"$tmp/$2.pids"
	done
}

# all_out TAG: has every client of TAG written its "code seconds"?
all_out() {
	for _f in "$tmp/$1".*.out; do [ -s "$_f" ] || return 1; done
}

# verdict TAG: the checks on every client of TAG.
verdict() {
	_tag=$1
	for _p in $(cat "$tmp/$1.pids"); do wait "$_p" 2>/dev/null || :; done
	# wait may return early (a signal): curl's --max-time bounds this.
	rdv_wait 110 all_out "$1" || :
	_ok=0 _busy=0 _bad=0 _worst=0 _noretry=0
	for _f in "$tmp/$1".*.out; do
		set -- $(cat "$_f") 000 0
		_b=${_f%.out}.body
		_ms=$(echo "$2" | awk '{ printf "%d", $1 * 1000 }')
		[ "$_ms" -gt "$_worst" ] && _worst=$_ms
		case $1 in
		200) cmp -s "$tmp/want.json" "$_b" && _ok=$((_ok + 1)) ||
		    _bad=$((_bad + 1)) ;;
		503) if grep -q 'loading' "$_b"; then
			_bad=$((_bad + 1))
			echo "# 503 after load_wait: $(head -c 300 "$_b")" \
			    >>"$tmp/other"
			continue
		    fi
		    _busy=$((_busy + 1))
		    head -c 80 "$_b" | tr '\n' ' ' >>"$tmp/why.$_tag"
		    echo >>"$tmp/why.$_tag"
		    grep -qi '^retry-after:' "${_f%.out}.head" ||
			_noretry=$((_noretry + 1)) ;;
		*) _bad=$((_bad + 1))
		    echo "# $1 (curl exit ${3:-?}): $(head -c 300 "$_b" 2>/dev/null)" \
			>>"$tmp/other" ;;
		esac
	done
	sort "$tmp/why.$_tag" 2>/dev/null | uniq -c | sed 's/^/# 503: /' >&2
	# The last answer after the kill: curl writes its .out when done,
	# so the newest .out's time less the kill's ($tmp/killed, ms).
	_last=$(stat -c '%.3Y' "$tmp/$_tag".*.out | sort -n | tail -1 |
	    tr -d .)
	echo "$_ok $_busy $_bad $_worst $_noretry $((_last - $(cat "$tmp/killed")))"
}

# SIGKILL mid-load: the first server stops at its load, every client
# waits for it; killed, one of them starts another.
touch "$hooks/pause-server-load"
clients "$n" load
rdv_wait 20 rdv_paused server-load >/dev/null
srv=$(rdv_paused server-load)
check "$n clients, the server stopped in its load (${srv:-none})" \
    test -n "$srv"
rm -f "$hooks/pause-server-load"
sleep 1
kill -9 "$srv"
echo $(($(date +%s%N) / 1000000)) >"$tmp/killed"
set -- $(verdict load)
[ ! -s "$tmp/other" ] || { head -5 "$tmp/other"; rm -f "$tmp/other"; }
check "killed mid-load: $1 answers 200 as in-process, $2 503, $3 other" \
    test "$3" -eq 0 -a $(($1 + $2)) -eq "$n"
check "...every 503 with Retry-After ($5 without)" test "$5" -eq 0
echo "# the slowest client: $4 ms from its start, held at the hook until the kill; the last answer came $6 ms after the kill"
rdv_wait 10 rdv_one || :
check "...one server left ($(rdv_count))" rdv_one

# SIGKILL mid-answer: the server stops after the first chunk of one
# answer while the clients wait.
touch "$hooks/pause-server-write"
clients "$n" answer
rdv_wait 20 rdv_paused server-write >/dev/null
srv=$(rdv_paused server-write)
check "$n clients, the server stopped mid-answer (${srv:-none})" \
    test -n "$srv"
rm -f "$hooks/pause-server-write"
sleep 1
kill -9 "$srv" 2>/dev/null || :
echo $(($(date +%s%N) / 1000000)) >"$tmp/killed"
set -- $(verdict answer)
[ ! -s "$tmp/other" ] || { head -5 "$tmp/other"; rm -f "$tmp/other"; }
check "killed mid-answer: $1 answers 200 as in-process, $2 503, $3 other" \
    test "$3" -eq 0 -a $(($1 + $2)) -eq "$n"
check "...every 503 with Retry-After ($5 without)" test "$5" -eq 0
echo "# the slowest client: $4 ms from its start, held at the hook until the kill; the last answer came $6 ms after the kill"
code=$(rdv_get "$q")
check "...the next request: 200 ($code)" test "$code" = 200
rdv_wait 10 rdv_one || :
check "...one server left ($(rdv_count))" rdv_one
rdv_stop
done_testing

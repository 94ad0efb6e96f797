#!/bin/sh
# deepq.cgi relaying answers through lighttpd and curl, byte for byte
# against `deepq query --local': bodies of exactly 65535, 65536 and 65537
# bytes (around where the CGI starts pre-faulting its body buffer) and
# around its 8 KB first read, a 1.25 MB JSON page, HEAD requests (the
# length, no body), and the server killed with kill -9 in the middle of
# a body: a 503 whole error page, never a part of the answer; and the
# CGI told by SIGTERM to stop while blocked writing an answer.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
need_test_hooks
. "${0%/*}/rendezvous-lib.sh"

# sized N: a profile whose folded export (cmd=folded&format=folded) is
# exactly N bytes (N >= 12), in lines of 100 bytes and two of the rest.
sized() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; n > 0; i++) {
			l = n >= 200 ? 100 : n >= 100 ? int(n / 2) : n
			p = sprintf("s%06d;", i)
			while (length(p) < l - 3)
				p = p "a"
			printf "%s 1\n", p
			n -= l
		}
	}'
}

# A profile whose tree, to depth 5 and 11,000 nodes, is 1.25 MB of JSON.
awk 'BEGIN { for (a = 0; a < 20; a++) for (b = 0; b < 20; b++)
	for (c = 0; c < 20; c++) for (d = 0; d < 10; d++)
	printf "fn_%d;fn_%d;fn_%d;fn_%d %d\n", a, b, c, d,
	    1 + (a * 1000 + b * 100 + c * 10 + d) % 97 }' >"$root/big.folded"
rdv_httpd

# head_req QUERY: a HEAD request through lighttpd (prints the status; the
# headers in $tmp/head), and the CGI's own output for one in $tmp/raw.
head_req() {
	curl -sS --max-time 20 -I -o "$tmp/head" -w '%{http_code}' "$url?$1" ||
	    echo 000
	REQUEST_METHOD=HEAD QUERY_STRING=$1 "$CGI" >"$tmp/raw"
}

# nobody: the CGI's HEAD output ends with its blank line.
nobody() {
	[ "$(sed -n '/^$/,$p' "$tmp/raw")" = "" ] &&
	    [ "$(tail -c 2 "$tmp/raw" | od -An -c | tr -d ' ')" = '\n\n' ]
}

# Exact sizes. A frame is 48 bytes of header, the type and the body.
for n in 65535 65536 65537 8100 8150 8200 131072 12; do
	sized $n >"$root/s$n.folded"
	q="file=s$n.folded&cmd=folded&format=folded"
	rdv_local 'cmd=folded&format=folded' "s$n.folded" >"$tmp/want"
	check "the export of s$n.folded is $n bytes" \
	    test "$(wc -c <"$tmp/want")" -eq "$n"
	code=$(rdv_get "$q")
	check "$n bytes through lighttpd: 200 ($code)" test "$code" = 200
	check "  byte-identical to deepq query --local" cmp "$tmp/want" \
	    "$tmp/body"
	check "  Content-Length $n ($(rdv_header Content-Length))" \
	    test "$(rdv_header Content-Length)" = "$n"
	code=$(head_req "$q")
	check "  HEAD: 200 ($code), Content-Length $n" test "$code \
$(rdv_header Content-Length)" = "200 $n"
	check "  HEAD: no body" nobody
done

# 1.25 MB of JSON.
bigq='cmd=tree&depth=5&budget=11000&format=json'
rdv_local "$bigq" big.folded >"$tmp/big.json"
size=$(wc -c <"$tmp/big.json")
check "the big page is 1.2-1.3 MB ($size bytes)" \
    test "$size" -gt 1200000 -a "$size" -lt 1300000
code=$(rdv_get "file=big.folded&$bigq")
check "1.25 MB JSON through lighttpd: 200 ($code)" test "$code" = 200
check "  byte-identical to deepq query --local" cmp "$tmp/big.json" \
    "$tmp/body"
check "  Content-Length $size" test "$(rdv_header Content-Length)" = "$size"
ctype=$(rdv_header Content-Type)
check "  Content-Type $ctype" test "${ctype%%;*}" = application/json
code=$(head_req "file=big.folded&$bigq")
check "  HEAD: 200 ($code), Content-Length $size" test "$code \
$(rdv_header Content-Length)" = "200 $size"
check "  HEAD: no body" nobody
code=$(rdv_get "file=big.folded&$bigq")
check "  again (from the server's cache): the same bytes" sh -c \
    "[ '$code' = 200 ] && cmp -s '$tmp/big.json' '$tmp/body'"

# kill -9 of the server after its first 32 KB chunk of the 1.25 MB body:
# the CGI has part of the body and must send none of it.
bkey=$(rdv_key "$root/big.folded")
pid=$(sed -n 1p "$run/$bkey.alive")
touch "$hooks/pause-server-write"
rdv_get "file=big.folded&$bigq" >"$tmp/code" &
cpid=$!
check "the server stops after its first chunk" \
    rdv_wait 10 rdv_paused server-write
rm -f "$hooks/pause-server-write"
kill -9 "$pid"
wait $cpid || :
check "kill -9 mid-body: 503 ($(cat "$tmp/code"))" \
    test "$(cat "$tmp/code")" = 503
blen=$(wc -c <"$tmp/body")
check "  a whole error page: Content-Length is the body's ($blen)" \
    test "$(rdv_header Content-Length)" = "$blen"
check "  in the query's format, not a part of the answer" sh -c \
    "[ $blen -lt 4096 ] && head -c 1 '$tmp/body' | grep -q '{' &&
    ! grep -q 'fn_0' '$tmp/body'"
check "  with Retry-After" test -n "$(rdv_header Retry-After)"
check "  and no reply FIFO or want file left" test -z "$(ls "$run" |
    grep -E '\.(want|reply)\.')"
code=$(rdv_get "file=big.folded&$bigq")
check "the next request starts a server and gets it all ($code)" sh -c \
    "[ '$code' = 200 ] && cmp -s '$tmp/big.json' '$tmp/body'"

# A web server that stops reading and sends SIGTERM (its client went
# away): the CGI, blocked writing the 1.25 MB page into a full pipe,
# stops at once, without waiting to be killed.
mkfifo "$tmp/stuck"
sleep 600 <"$tmp/stuck" &
holder=$!
REQUEST_METHOD=GET QUERY_STRING="file=big.folded&$bigq" "$CGI" \
    >"$tmp/stuck" &
cpid=$!
# The pipe holds 64 KB: the CGI is blocked once it has written that.
sleep 1
check "the CGI is blocked writing into a pipe nobody reads" \
    kill -0 "$cpid"
t0=$(rdv_ms)
kill -TERM "$cpid"
gone() { ! kill -0 "$cpid" 2>/dev/null; }
# Gone while the pipe is still held (for minutes), in however long a
# loaded machine takes: it did not wait to be read or killed.
check "SIGTERM while it writes: the CGI exits, the pipe still held" \
    rdv_wait 60 gone
echo "#   in $(($(rdv_ms) - t0)) ms"
wait "$cpid" 2>/dev/null || :
kill "$holder" 2>/dev/null || :
wait "$holder" 2>/dev/null || :
check "  and leaves no reply FIFO or want file" test -z "$(ls "$run" |
    grep -E '\.(want|reply)\.')"

rdv_stop
done_testing

#!/bin/sh
# deepq.cgi called directly with a synthetic CGI environment (RFC 3875),
# no web server: T1 bad QUERY_STRING (unset, empty, 64 KiB, invalid
# UTF-8) refused with a short body and no server started; T4 a
# CONTENT_LENGTH that disagrees with the body is never read; T9 CR LF
# in every parameter gives exactly the intended header lines; T10 a
# spoofed Host is never echoed, links stay relative.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_conf max_query=8192

# cgi NAME [VAR=VALUE...]: run the CGI in a clean environment with
# these variables (GET by default); the response in $tmp/NAME.out, its
# headers in $tmp/NAME.head, its body in $tmp/NAME.body, the time it
# took in ms in $tmp/NAME.ms. stdin is whatever the caller gives.
cgi() {
	_n=$1
	shift
	_t0=$(rdv_ms)
	# A CGI that read a stdin that never ends would be killed here.
	timeout 60 env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$conf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET SERVER_PROTOCOL=HTTP/1.1 \
	    "$@" "$CGI" >"$tmp/$_n.out" 2>"$tmp/$_n.err" || :
	echo $(($(rdv_ms) - _t0)) >"$tmp/$_n.ms"
	sed '/^$/q' "$tmp/$_n.out" | sed '$d' >"$tmp/$_n.head"
	sed '1,/^$/d' "$tmp/$_n.out" >"$tmp/$_n.body"
}
status() { sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/$1.head"; }
size() { wc -c <"$tmp/$1.body"; }

# T1: bad query strings, each refused with a short body; nothing runs.
cgi unset
check "QUERY_STRING unset: 400 ($(status unset))" test "$(status unset)" = 400
cgi empty QUERY_STRING=
check "QUERY_STRING empty: 400 ($(status empty))" test "$(status empty)" = 400
big=$(head -c 65536 /dev/zero | tr '\0' a)
cgi big "QUERY_STRING=file=firefox.folded&x=$big"
check "QUERY_STRING of 64 KiB: 414 ($(status big))" test "$(status big)" = 414
cgi bigkey "QUERY_STRING=$big"
check "64 KiB without a key: 414" test "$(status bigkey)" = 414
for q in 'file=fire%ffox.folded' 'file=%c3%28.folded' 'file=firefox.folded&cmd=%e2%82' \
    'file=firefox.folded&func=%ed%a0%80' 'file=firefox.folded&focus=%c0%af'; do
	cgi utf "QUERY_STRING=$q"
	check "invalid UTF-8 refused 400: $q ($(status utf))" \
	    test "$(status utf)" = 400
	check "  with a short body ($(size utf) bytes)" test "$(size utf)" -lt 4096
done
for n in unset empty big bigkey; do
	check "short body for $n ($(size $n) bytes)" test "$(size $n)" -lt 4096
done
check "no server was started by any of them" rdv_none
check "no runtime file was made" test -z "$(ls "$run" 2>/dev/null)"

# T4: POST (or GET) with a CONTENT_LENGTH the body does not have, from a
# stdin that never ends: the CGI never reads it, so it answers (one that
# read it would wait until cgi's timeout killed it, with no answer).
mkfifo "$tmp/stdin"
sleep 600 >"$tmp/stdin" &
echo $! >"$tmp/sleeper.pid"
cgi post REQUEST_METHOD=POST CONTENT_LENGTH=1000000 \
    CONTENT_TYPE=application/x-www-form-urlencoded \
    'QUERY_STRING=file=firefox.folded&cmd=top' <"$tmp/stdin"
check "POST, CONTENT_LENGTH 1000000, no body: 405 ($(status post))" \
    test "$(status post)" = 405
echo "#   without reading stdin: $(cat "$tmp/post.ms") ms"
cgi postsd REQUEST_METHOD=POST CONTENT_LENGTH=1000000 \
    'QUERY_STRING=file=firefox.folded&cmd=shutdown' \
    HTTP_SEC_FETCH_SITE=same-origin <"$tmp/stdin"
check "POST cmd=shutdown, CONTENT_LENGTH lying: answered ($(cat \
    "$tmp/postsd.ms") ms)" grep -q '^Content-Type: ' "$tmp/postsd.head"
cgi getcl CONTENT_LENGTH=-5 'QUERY_STRING=file=nonexistent.folded' \
    <"$tmp/stdin"
check "GET with CONTENT_LENGTH -5: 404 without reading stdin ($(cat \
    "$tmp/getcl.ms") ms)" test "$(status getcl)" = 404
kill "$(cat "$tmp/sleeper.pid")" 2>/dev/null || :
rdv_stop

# T9: %0d%0a (and bare %0a, %0d) in every key: the header lines are
# exactly the intended ones, each of a known name, no blank line early.
known='^(Status|Content-Length|Content-Type|Content-Encoding|Vary|ETag|Last-Modified|X-Content-Type-Options|Content-Security-Policy|Referrer-Policy|Cache-Control|Retry-After|Allow): '
inj='x%0d%0aSet-Cookie:%20a=b%0d%0a%0d%0a<script>'
for key in file cmd format func path metric sort fields t focus hide \
    base open close depth budget limit from module clique style; do
	case $key in
	file) q="file=$inj" ;;
	*) q="file=firefox.folded&$key=$inj" ;;
	esac
	for v in "$q" "$(echo "$q" | sed 's/%0d//g')" \
	    "$(echo "$q" | sed 's/%0a//g')"; do
		cgi inj "QUERY_STRING=$v"
		bad=$(grep -cvE "$known" "$tmp/inj.head" || :)
		check "$key: only known header lines ($(status inj), $bad other)" \
		    sh -c "[ '$bad' = 0 ] && ! grep -qi 'set-cookie' \
		    '$tmp/inj.head' && [ \$(grep -c '^Status: ' \
		    '$tmp/inj.head') = 1 ]"
	done
done
cgi okhead 'QUERY_STRING=file=firefox.folded&cmd=top'
check "a good answer's header lines, exactly" test "$(cut -d: -f1 \
    "$tmp/okhead.head" | tr '\n' ' ')" = "Status Content-Length \
Content-Type X-Content-Type-Options Content-Security-Policy \
Referrer-Policy Cache-Control Vary "

# T10: a spoofed Host (and forwarded headers) never reach the page.
spoof=evil.example.com
for cmd in menu top tree func cliques; do
	cgi host HTTP_HOST=$spoof SERVER_NAME=$spoof \
	    HTTP_X_FORWARDED_HOST=$spoof HTTP_FORWARDED="host=$spoof" \
	    "QUERY_STRING=file=firefox.folded&cmd=$cmd&func=1"
	check "cmd=$cmd with Host $spoof: 200, host not echoed" sh -c \
	    "[ '$(status host)' = 200 ] && ! grep -q '$spoof' '$tmp/host.out'"
	check "  every link relative" sh -c "! grep -oE \
	    '(href|src|action)=\"[a-z]+:|(href|src|action)=\"//' \
	    '$tmp/host.body'"
done
cgi hosterr HTTP_HOST=$spoof 'QUERY_STRING=file=nope.folded'
check "an error page does not echo the Host either" \
    sh -c "! grep -q '$spoof' '$tmp/hosterr.out'"
rdv_stop
done_testing

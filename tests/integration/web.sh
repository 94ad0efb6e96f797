#!/bin/sh
# deepq web against curl and headless Chromium: the index (HTML, JSON,
# Accept), every report of a sample equal to the in-process answer,
# static assets, headers, 32+ concurrent requests, the CGI's traversal
# set refused the same way, shutdown rules, one server shared with the
# CGI's client path, and SIGINT stopping it cleanly.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

cp "$top_srcdir/tests/data/samples/workload-fp.folded" "$root/"
csp="default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

rdv_web
url=$web
wpid=$(cat "$tmp/web.pid")
check "it listens on loopback" sh -c "echo '$web' | grep -q '^http://127.0.0.1:[0-9]*/$'"

# The index.
code=$(rdv_get '')
check "index: 200" test "$code" = 200
check "index is HTML with the CSP" \
    test "$(rdv_header Content-Security-Policy)" = "$csp"
check "index: nosniff" test "$(rdv_header X-Content-Type-Options)" = nosniff
check "index lists the profiles with their format" sh -c \
    "grep -q 'href=\"?file=firefox.folded\"' '$tmp/body' &&
    grep -q 'href=\"?file=workload-fp.folded\"' '$tmp/body' &&
    grep -q '<td>folded</td>' '$tmp/body'"
check "index links the assets" grep -q '/static/deepq.css' "$tmp/body"
code=$(rdv_get 'format=json')
check "index as JSON: 200" test "$code" = 200
check "index JSON: name, format, size, server" sh -c "jq -e \
    '.profiles[] | select(.name == \"firefox.folded\") |
    .format == \"folded\" and .size == $(stat -c %s "$root/firefox.folded")
    and .server == null' '$tmp/body'"
code=$(rdv_get '' -H 'Accept: application/json')
check "Accept: application/json gives the JSON index" sh -c \
    "test $code = 200 && test \"\$(sed -n 's/^Content-Type: //Ip' '$tmp/head' | tr -d '\r')\" = application/json && jq -e '.cmd == \"index\"' '$tmp/body'"
code=$(rdv_get '' -H 'Accept: text/html,application/json;q=0.9,*/*;q=0.8')
check "a browser's Accept gets HTML" grep -q '^<!DOCTYPE html>' "$tmp/body"

# Every report of a sample, JSON and HTML: the CGI's answer exactly (the
# CGI run directly, same client, same server; status counts requests).
rdv_conf static_url=/static/
cgi_body() {
	env REQUEST_METHOD=GET QUERY_STRING="$1" "$CGI" >"$tmp/cgi.raw"
	sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/cgi.raw" >"$tmp/cgi.code"
	sed '1,/^\r*$/d' "$tmp/cgi.raw"
}
for cmd in menu top tree modules cliques dump flame folded callgrind \
    'func&func=workload' 'callers&func=workload'; do
	for fmt in json html; do
		q="file=workload-fp.folded&cmd=$cmd&format=$fmt"
		cgi_body "$q" >"$tmp/want"
		code=$(rdv_get "$q")
		check "$q: $code, as the CGI" sh -c \
		    "test $code = $(cat "$tmp/cgi.code") &&
		    cmp -s '$tmp/want' '$tmp/body'"
	done
done
code=$(rdv_get 'file=workload-fp.folded&cmd=top&format=json')
check "top JSON has the profile's own total" \
    jq -e '.total == 1680680679' "$tmp/body"
code=$(rdv_get 'file=workload-fp.folded&cmd=status&format=json')
check "status: 200 from the shared server" sh -c \
    "test $code = 200 && jq -e '.pid == $(rdv_pids | head -1)' '$tmp/body'"
code=$(rdv_get 'file=workload-fp.folded&cmd=top' \
    -H 'Accept: application/json')
check "Accept: application/json on a report gives JSON" \
    jq -e '.cmd == "top" and .total == 1680680679' "$tmp/body"
code=$(rdv_get 'file=workload-fp.folded&cmd=top')
check "report page: CSP" test "$(rdv_header Content-Security-Policy)" = "$csp"
check "report page links assets under /static/" \
    grep -q 'src="/static/deepq.js"' "$tmp/body"
code=$(rdv_get 'file=workload-fp.folded&cmd=flame&format=svg')
check "flame graph: 200, an SVG with its own script" sh -c \
    "test $code = 200 && grep -q '<script' '$tmp/body'"
check "flame graph: a CSP that lets only its inline script and style run" \
    test "$(rdv_header Content-Security-Policy)" = \
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'self'"

# Static assets.
for f in deepq.css deepq.js flame.js deepq-timeline.js favicon.svg; do
	code=$(curl -sS -D "$tmp/head" -o "$tmp/body" -w '%{http_code}' \
	    "${web}static/$f")
	check "static $f: 200, same bytes, nosniff" sh -c "test $code = 200 &&
	    cmp -s '$top_srcdir/www/$f' '$tmp/body' &&
	    grep -qi '^X-Content-Type-Options: nosniff' '$tmp/head'"
done
for f in ../deepq.conf .hidden nope.css 'deepq.css%2f..%2f..%2fetc%2fpasswd'; do
	code=$(curl -sS -o /dev/null -w '%{http_code}' --path-as-is \
	    "${web}static/$f")
	check "static $f: 404" test "$code" = 404
done
code=$(curl -sS -o /dev/null -w '%{http_code}' --path-as-is "${web}etc/passwd")
check "any other path: 404 (the CGI's PATH_INFO rule)" test "$code" = 404

# 40 requests at once: each 200 with the identical right body.
(cd "$root" && "$DEEPQ" query --local --static-base /static/ \
    workload-fp.folded 'cmd=tree&format=json') >"$tmp/tree.want"
i=0
while [ $i -lt 40 ]; do
	curl -sS -o "$tmp/par.$i" -w '%{http_code}\n' \
	    "${web}?file=workload-fp.folded&cmd=tree&format=json" \
	    >"$tmp/par.$i.code" &
	i=$((i + 1))
done
wait_curls() {
	i=0
	while [ $i -lt 40 ]; do
		[ "$(cat "$tmp/par.$i.code" 2>/dev/null)" = 200 ] || return 1
		cmp -s "$tmp/tree.want" "$tmp/par.$i" || return 1
		i=$((i + 1))
	done
}
check "40 concurrent requests: all 200, identical right bodies" \
    rdv_wait 60 wait_curls

# The CGI's traversal set, refused the same way (403/404/400).
mkdir -p "$tmp/outside" "$root/sub/dir.folded"
cp "$root/firefox.folded" "$tmp/outside/secret.folded"
ln -s "$tmp/outside/secret.folded" "$root/link-out.folded"
ln -s "$tmp/outside" "$root/linkdir"
mkfifo "$root/fifo.folded"
rdv_stop
for q in \
    'file=../outside/secret.folded' \
    'file=%2e%2e%2foutside%2fsecret.folded' \
    'file=..%2Foutside%2Fsecret.folded' \
    'file=sub/../../outside/secret.folded' \
    "file=$tmp/outside/secret.folded" \
    'file=/etc/passwd' \
    'file=link-out.folded' \
    'file=linkdir/secret.folded' \
    'file=sub/dir.folded' \
    'file=sub' \
    'file=fifo.folded' \
    'file=nonexistent.folded' \
    'file=%252e%252e%252foutside%252fsecret.folded' \
    'file=firefox.folded%00.x' \
    'file=' \
    ; do
	code=$(rdv_get "$q&format=json")
	cgi=$(env REQUEST_METHOD=GET QUERY_STRING="$q&format=json" "$CGI" |
	    sed -n 's/^Status: \([0-9]*\).*/\1/p')
	case $code in
	400 | 403 | 404) check "refused $q ($code, the CGI: $cgi)" \
	    test "$code" = "$cgi" ;;
	*) not_ok "refused $q (got $code)" ;;
	esac
done
check "no server was started by any of them" rdv_none
check "the index lists no fifo, link or directory" sh -c \
    "test \$(curl -s '${web}?format=json' | jq '.profiles | length') = 3"

# Methods and shutdown: POST only for shutdown, the CGI's origin rules.
code=$(rdv_get 'file=firefox.folded&cmd=top' -X POST -d '')
check "POST of a report: 405" test "$code" = 405
code=$(rdv_get 'file=firefox.folded' -X DELETE)
check "DELETE: 405 with Allow" sh -c "test $code = 405 &&
    grep -qi '^Allow: GET, HEAD' '$tmp/head'"
code=$(rdv_get 'file=firefox.folded&cmd=status&format=json')
check "status with no server: 404 ($code)" test "$code" = 404
check "...and none started for it" rdv_none
code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
code=$(rdv_get 'file=firefox.folded&cmd=status&format=json')
check "status: 200" test "$code" = 200
pid=$(rdv_pids)
check "one server runs" test -n "$pid"

# A CGI user and a web user share the server.
(REQUEST_METHOD=GET QUERY_STRING='file=firefox.folded&cmd=status&format=json' \
    "$CGI" | sed '1,/^\r*$/d' >"$tmp/cgi.status")
check "the CGI got an answer from the same server (pid $pid)" \
    jq -e ".pid == $pid" "$tmp/cgi.status"
check "still one server" rdv_one
check "the index shows it live with its pid" sh -c "curl -s '${web}?format=json' |
    jq -e '.profiles[] | select(.name == \"firefox.folded\") |
    .server.pid == $pid and .server.serving'"

code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -H 'Sec-Fetch-Site: cross-site')
check "GET shutdown cross-site: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -H 'Origin: http://evil.example')
check "GET shutdown from a foreign Origin: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -X POST -d '' \
    -H 'Origin: http://evil.example')
check "POST shutdown from a foreign origin: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -H 'Sec-Purpose: prefetch')
check "prefetch of shutdown: 403" test "$code" = 403
check "the server is still there" rdv_one
host=${web#http://}
host=${host%/}
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -X POST -d 'x=1' \
    -H "Origin: http://$host" -H 'Sec-Fetch-Site: same-origin')
check "same-origin POST shutdown (the form): 200" test "$code" = 200
check "...and the server is gone" rdv_wait 10 rdv_none
code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
code=$(rdv_get 'file=firefox.folded&cmd=shutdown')
check "GET shutdown from curl: 200" test "$code" = 200
check "...and the server is gone" rdv_wait 10 rdv_none

# Headless Chromium: index -> profile -> top -> tree (tests/browser/
# web.mjs prints TAP lines we renumber). Screenshots: tests/browser-out/.
script=$top_srcdir/tests/browser/web.mjs
if [ ! -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] &&
    [ -d "${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core" ]; then
	mkdir -p "$tmp/browser"
	cp "$script" "$tmp/browser/"
	ln -s "$DEEPQ_NODE_MODULES" "$tmp/browser/node_modules"
	script=$tmp/browser/web.mjs
fi
if command -v node >/dev/null 2>&1 && [ -x "${CHROMIUM:-/usr/bin/chromium}" ] &&
    [ -d "${script%/*}/node_modules/playwright-core" ]; then
	out=$top_builddir/tests/browser-out
	mkdir -p "$out"
	CHROMIUM=${CHROMIUM:-/usr/bin/chromium} HOME=$tmp timeout 120 \
	    node "$script" "$web" "$out" >"$tmp/browser.tap" 2>&1 || :
	grep -q '^ok' "$tmp/browser.tap" || not_ok "the browser test ran"
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "browser: ${line#ok * - }" ;;
		"not ok "*) not_ok "browser: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$tmp/browser.tap"
elif [ "${CI:-}" = true ]; then
	not_ok "the browser test needs node, Chromium and playwright-core"
else
	echo "# browser part skipped: node, Chromium or playwright-core missing"
fi

# SIGINT: a clean stop, status 0, no runtime files left; an idle
# keep-alive connection (a browser's, here a socket that sends nothing)
# is no request under way: nothing is waited for.
port=${web#http://127.0.0.1:}
port=${port%/}
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(PeerAddr =>
    "127.0.0.1:$ARGV[0]") or die; sleep 600' "$port" &
echo $! >"$tmp/idle.pid"
sleep 0.5
kill -INT "$wpid"
st=0
rdv_wait 10 rdv_gone "$wpid" || st=1
wait "$wpid" || st=$?
check "SIGINT stops it with status 0" test "$st" = 0
check "it said so" grep -q stopping "$tmp/web.err"
check "...waiting for no request, an idle connection open" \
    sh -c "! grep -q 'waiting for' '$tmp/web.err'"
kill "$(cat "$tmp/idle.pid")" 2>/dev/null || :
rdv_stop
check "no client file left behind" test -z "$(rdv_leftovers)"
rm -f "$tmp/web.pid"
done_testing

#!/bin/sh
# deepq.cgi's contract (RFC 3875) through lighttpd and curl: statuses,
# headers (CSP, nosniff), HEAD, methods, PATH_INFO, bounded QUERY_STRING,
# escaped errors, shutdown refused from other sites, a query too big for
# one atomic frame, and the path traversal set refused before any server
# is started.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_conf max_query=6000
rdv_httpd
csp="default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

# The traversal set first, while nothing runs: each refused with 403/404,
# and no server started, no runtime file made for it.
mkdir -p "$tmp/outside" "$root/sub/dir.folded"
cp "$root/firefox.folded" "$tmp/outside/secret.folded"
ln -s "$tmp/outside/secret.folded" "$root/link-out.folded"
ln -s "$tmp/outside" "$root/linkdir"
mkfifo "$root/fifo.folded"
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
	case $code in
	400 | 403 | 404) ok "refused $q ($code)" ;;
	*) not_ok "refused $q (got $code)" ;;
	esac
done
check "no server was started by any of them" rdv_none
check "no runtime file was made for them" test -z "$(ls "$run" 2>/dev/null)"
code=$(rdv_get 'file=link-out.folded')
check "the refusal names the file= value only" sh -c \
    "! grep -q '$tmp/outside' '$tmp/body'"
check "a symlink inside the root is followed" \
    sh -c "ln -s firefox.folded '$root/alias.folded' &&
    test \"\$(curl -s -o /dev/null -w '%{http_code}' '$url?file=alias.folded')\" = 200"
rdv_stop

# Headers of an HTML answer.
code=$(rdv_get 'file=firefox.folded&cmd=top')
check "HTML answer 200" test "$code" = 200
check "Content-Type is text/html with a charset" \
    test "$(rdv_header Content-Type)" = "text/html; charset=utf-8"
check "Content-Security-Policy on HTML" \
    test "$(rdv_header Content-Security-Policy)" = "$csp"
check "X-Content-Type-Options: nosniff" \
    test "$(rdv_header X-Content-Type-Options)" = nosniff
check "Content-Length matches the body" \
    test "$(rdv_header Content-Length)" = "$(wc -c <"$tmp/body")"
check "links stay relative and keep file=" \
    grep -q 'href="?file=firefox.folded' "$tmp/body"

# HEAD: the same headers, no body.
code=$(curl -sS --max-time 20 -I -o "$tmp/head" -w '%{http_code}' \
    "$url?file=firefox.folded&cmd=top")
check "HEAD answers 200" test "$code" = 200
check "HEAD has the CSP" test "$(rdv_header Content-Security-Policy)" = "$csp"
(REQUEST_METHOD=HEAD QUERY_STRING='file=firefox.folded&cmd=top' \
    "$CGI" >"$tmp/head.raw")
check "HEAD has no body" test "$(sed -n '/^$/,$p' "$tmp/head.raw")" = ""
check "HEAD says the body's length" grep -q '^Content-Length: [1-9]' \
    "$tmp/head.raw"

# Methods, PATH_INFO, bounds, bad queries.
code=$(rdv_get 'file=firefox.folded' -X DELETE)
check "DELETE: 405" test "$code" = 405
check "405 says Allow" test -n "$(rdv_header Allow)"
code=$(rdv_get 'file=firefox.folded&cmd=top' -X POST -d '')
check "POST of a report: 405" test "$code" = 405
code=$(curl -sS --max-time 20 -o "$tmp/body" -w '%{http_code}' \
    "http://127.0.0.1:$port/cgi-bin/deepq.cgi/extra/path?file=firefox.folded")
check "PATH_INFO: 404" test "$code" = 404
long=$(head -c 7000 /dev/zero | tr '\0' a)
code=$(rdv_get "file=firefox.folded&title=$long")
check "QUERY_STRING over max_query: 414" test "$code" = 414
code=$(rdv_get 'cmd=top&format=json')
check "no file=: 400" test "$code" = 400
code=$(rdv_get 'file=firefox.folded&bogus=1&format=json')
check "unknown key: 400" test "$code" = 400
check "400 answered as JSON when format=json" grep -q '"status":400' \
    "$tmp/body"
code=$(rdv_get 'file=firefox.folded&cmd=nope')
check "unknown cmd: 400" test "$code" = 400
code=$(rdv_get 'file=%3Cscript%3Ealert(1)%3C%2Fscript%3E.folded')
check "error echo: 404" test "$code" = 404
check "error echo is escaped" sh -c \
    "grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' '$tmp/body' &&
    ! grep -q '<script>alert' '$tmp/body'"
check "errors carry the CSP too" \
    test "$(rdv_header Content-Security-Policy)" = "$csp"

# A query too big for one atomic FIFO write goes through a query file:
# the answer is the same as in-process.
big="cmd=top&format=json&title=$(head -c 250 /dev/zero | tr '\0' t)"
# open= paths that name no node change nothing but the query's length.
big="$big&open=$(head -c 5000 /dev/zero | sed 's/\x0\x0/9~/g')9"
rdv_local "$big" >"$tmp/big.json" 2>&1 || :
code=$(rdv_get "file=firefox.folded&$big")
check "a ${#big}-byte query is answered" test "$code" = 200
check "...exactly as in-process" cmp "$tmp/big.json" "$tmp/body"
check "...and its query file is gone" sh -c "! ls '$run' | grep -q query"

# Shutdown: refused from another site, by a prefetch, or by a POST from a
# foreign origin; the server stays. Same-origin POST (the page's form)
# works.
pid=$(rdv_pids)
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' \
    -H 'Sec-Fetch-Site: cross-site')
check "GET shutdown with Sec-Fetch-Site: cross-site: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' \
    -H 'Sec-Fetch-Site: same-site')
check "GET shutdown with Sec-Fetch-Site: same-site: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' \
    -H 'Origin: http://evil.example')
check "GET shutdown with a foreign Origin: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -X POST -d '' \
    -H 'Origin: http://evil.example')
check "POST shutdown from a foreign origin: 403" test "$code" = 403
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -H 'Sec-Purpose: prefetch')
check "prefetch of shutdown: 403" test "$code" = 403
check "the server is still running" test "$(rdv_pids)" = "$pid"
code=$(rdv_get 'file=firefox.folded&cmd=shutdown' -X POST -d '' \
    -H "Origin: http://127.0.0.1:$port" -H 'Sec-Fetch-Site: same-origin')
check "POST shutdown from the page's own origin: 200" test "$code" = 200
check "...and the server goes" rdv_wait 5 rdv_gone "$pid"

done_testing

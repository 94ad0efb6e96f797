#!/bin/sh
# deepq.cgi's profile index, cmd=index (the "deepq" link of every page),
# called directly with a CGI environment: off by default (a page that
# says so, 200, linking back to the profile; no server started), a
# redirect to index_url, the list when index_entries is set (hidden
# names, symbolic links and what they lead to left out, names escaped,
# bounded in entries, JSON and text too), an empty query still a 400,
# and the 404 page of an extra path linking to the program's index.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

# cgi NAME [VAR=VALUE...]: as in cgi-input.sh; $tmp/NAME.head, .body.
cgi() {
	_n=$1
	shift
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$conf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 SCRIPT_NAME=/cgi-bin/deepq.cgi \
	    "$@" "$CGI" >"$tmp/$_n.out" 2>"$tmp/$_n.err" </dev/null || :
	sed '/^\r*$/q' "$tmp/$_n.out" | sed '$d' >"$tmp/$_n.head"
	sed '1,/^\r*$/d' "$tmp/$_n.out" >"$tmp/$_n.body"
}
status() { sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/$1.head"; }
body_has() { grep -qF -- "$2" "$tmp/$1.body"; }

mkdir -p "$root/sub/deeper" "$root/.hidden" "$tmp/outside"
echo 'a;b 1' >"$root/sub/deeper/x.folded"
echo 'a;b 1' >"$root/.hidden/y.folded"
echo 'a;b 1' >"$root/.dot.folded"
echo 'a;b 1' >"$root/<b>&amp.folded"
echo 'a;b 1' >"$tmp/outside/secret.folded"
ln -s "$tmp/outside" "$root/linkdir"
ln -s "$tmp/outside/secret.folded" "$root/link.folded"

# Off (the default): 200, says so, links back; never a server.
cgi off QUERY_STRING='file=firefox.folded&cmd=index'
check "off: cmd=index answers 200 ($(status off))" test "$(status off)" = 200
check "off: the page says the site lists no profiles" \
    body_has off 'does not list its profiles'
check "off: it links back to the profile" \
    body_has off 'href="?file=firefox.folded">'
check "off: no file is named" sh -c "! grep -q recursion '$tmp/off.body'"
cgi offj QUERY_STRING='cmd=index&format=json'
check "off: JSON says 404 ($(status offj))" test "$(status offj)" = 404
cgi empty QUERY_STRING=
check "an empty query is still a 400 ($(status empty))" \
    test "$(status empty)" = 400
cgi nofile QUERY_STRING=cmd=top
check "no file= and another cmd: 400 ($(status nofile))" \
    test "$(status nofile)" = 400
check "no server was started" rdv_none

# index_url: See Other, to the site's own page.
rdv_conf index_url=/profiles/
cgi url QUERY_STRING='file=firefox.folded&cmd=index'
check "index_url: 303 ($(status url))" test "$(status url)" = 303
check "index_url: Location: /profiles/" grep -q '^Location: /profiles/' \
    "$tmp/url.head"
rdv_conf index_url=javascript:alert
cgi badurl QUERY_STRING='cmd=index'
check "index_url: javascript: refused as a configuration error" \
    test "$(status badurl)" = 500

# The list.
rdv_conf index_entries=100
cgi list QUERY_STRING='cmd=index'
check "list: 200 ($(status list))" test "$(status list)" = 200
for f in firefox.folded recursion.folded sub/deeper/x.folded; do
	check "list: names $f" body_has list ">$f</a>"
done
check "list: a name escaped" body_has list '>&lt;b&gt;&amp;amp.folded</a>'
check "list: its link encoded" \
    body_has list 'href="?file=%3Cb%3E%26amp.folded"'
for f in y.folded .dot.folded secret.folded link.folded linkdir; do
	check "list: leaves out $f" sh -c "! grep -qF '$f' '$tmp/list.body'"
done
check "list: the form to compare two" body_has list \
    '<select name="base">'
cgi json QUERY_STRING='cmd=index&format=json'
check "list: JSON" sh -c "jq -e '.cmd == \"index\" and
    (.profiles | map(.name) | index(\"sub/deeper/x.folded\")) != null and
    .truncated == false' '$tmp/json.body' >/dev/null"
check "list: JSON does not name the root's path" \
    sh -c "! grep -qF '$root' '$tmp/json.body'"
cgi text QUERY_STRING='cmd=index&format=text'
check "list: text, a line each" test "$(grep -c folded "$tmp/text.body")" = 4
rdv_conf index_entries=2
cgi few QUERY_STRING='cmd=index&format=json'
check "list: bounded by index_entries" sh -c "jq -e '(.profiles | length)
    == 2 and .truncated' '$tmp/few.body' >/dev/null"
cgi bad QUERY_STRING='cmd=index&format=svg'
check "list: format=svg refused ($(status bad))" test "$(status bad)" = 400
cgi post REQUEST_METHOD=POST QUERY_STRING='cmd=index'
check "list: POST refused ($(status post))" test "$(status post)" = 405
check "still no server" rdv_none

# A 404 for an extra path links to the index through the program's path.
cgi extra PATH_INFO=/x QUERY_STRING='cmd=index'
check "extra path: 404 ($(status extra))" test "$(status extra)" = 404
check "extra path: the home link is the program's" body_has extra \
    'class="home" href="/cgi-bin/deepq.cgi?cmd=index"'

done_testing

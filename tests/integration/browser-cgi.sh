#!/bin/sh
# The browser test of browser.sh (tests/browser/browse.mjs) driving the
# real deepq.cgi under lighttpd: menu -> top -> tree, expand two levels,
# a function page, back; every XSS page runs no script from the data.
# The pages come through deepq-server, with the headers the CGI sends.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${CHROMIUM:=/usr/bin/chromium}"
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
[ -x "$CHROMIUM" ] || skip_all "no Chromium at $CHROMIUM"
script=$top_srcdir/tests/browser/browse.mjs
if [ ! -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] &&
    [ -d "${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core" ]; then
	mkdir "$tmp/browser"
	cp "$script" "$tmp/browser/"
	ln -s "$DEEPQ_NODE_MODULES" "$tmp/browser/node_modules"
	script=$tmp/browser/browse.mjs
fi
[ -d "${script%/*}/node_modules/playwright-core" ] ||
    skip_all "playwright-core missing (cd tests/browser && npm ci)"

cp "$top_srcdir/tests/data/cliques.folded" "$top_srcdir/tests/data/xss.folded" \
    "$root/"
mkdir -p "$tmp/www/static"
cp "$top_srcdir"/www/deepq.css "$top_srcdir"/www/deepq.js "$top_srcdir"/www/flame.js \
    "$top_srcdir"/www/deepq-timeline.js "$top_srcdir"/www/favicon.svg \
    "$tmp/www/static/"
rdv_conf static_url=/static/
rdv_httpd

out=$top_builddir/tests/browser-out/cgi
mkdir -p "$out"
export CHROMIUM
DEEPQ_CGI_URL=$url HOME=$tmp node "$script" \
    "$DEEPQ" "$top_srcdir/www" "$top_srcdir/tests/data" "$out"

#!/bin/sh
# The pages in headless Chromium (tests/browser/browse.mjs, playwright-
# core driving /usr/bin/chromium): menu -> top -> tree, expand two
# levels, collapse in place with deepq.js, keyboard, a function page,
# back; then every page of xss.folded runs no script from the data.
# Screenshots go to tests/browser-out/. DEEPQ_CGI_URL points the same
# test at the CGI under a real web server (see browse.mjs).
. "${0%/*}/../lib.sh"

: "${CHROMIUM:=/usr/bin/chromium}"
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
[ -x "$CHROMIUM" ] || skip_all "no Chromium at $CHROMIUM"
# The script resolves playwright-core beside itself; a tree without
# node_modules (make distcheck's) borrows DEEPQ_NODE_MODULES's.
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
export CHROMIUM
out=$top_builddir/tests/browser-out
mkdir -p "$out"
# Chromium wants a writable home for its profile; keep it private.
HOME=$tmp timeout 300 node "$script" \
    "$DEEPQ" "$top_srcdir/www" "$top_srcdir/tests/data" "$out"

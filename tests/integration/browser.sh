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
[ -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] ||
    skip_all "playwright-core missing (cd tests/browser && npm ci)"
export CHROMIUM
out=$top_builddir/tests/browser-out
mkdir -p "$out"
# Chromium wants a writable home for its profile; keep it private.
HOME=$tmp timeout 300 node "$top_srcdir/tests/browser/browse.mjs" \
    "$DEEPQ" "$top_srcdir/www" "$top_srcdir/tests/data" "$out"

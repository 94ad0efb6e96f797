#!/bin/sh
# cmd=source in headless Chromium (tests/browser/source.mjs, playwright-
# core driving /usr/bin/chromium) against deepq web --source over
# tests/data/pprof: top -> function -> source, landing at the hottest
# line, then a call line's callee link. Screenshots go to
# tests/browser-out/.
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
script=$top_srcdir/tests/browser/source.mjs
if [ ! -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] &&
    [ -d "${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core" ]; then
	mkdir "$tmp/browser"
	cp "$script" "$tmp/browser/"
	ln -s "$DEEPQ_NODE_MODULES" "$tmp/browser/node_modules"
	script=$tmp/browser/source.mjs
fi
[ -d "${script%/*}/node_modules/playwright-core" ] ||
    skip_all "playwright-core missing (cd tests/browser && npm ci)"
export CHROMIUM

cp "$top_srcdir/tests/data/pprof/cpu.pb" "$root/"
"$DEEPQ" web --listen 127.0.0.1:0 --source "$top_srcdir/tests/data/pprof" \
    --www "$top_srcdir/www" "$root" >"$tmp/web.out" 2>"$tmp/web.err" &
echo $! >"$tmp/web.pid"
rdv_wait 10 grep -q 'http://' "$tmp/web.out" || {
	echo "Bail out! deepq web does not start: $(cat "$tmp/web.err")"
	exit 1
}
web=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$tmp/web.out")
out=$top_builddir/tests/browser-out
mkdir -p "$out"
# Chromium wants a writable home for its profile; keep it private.
HOME=$tmp timeout 200 node "$script" "$web" "$out"
rc=$?
kill "$(cat "$tmp/web.pid")" 2>/dev/null || :
exit $rc

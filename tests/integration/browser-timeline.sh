#!/bin/sh
# The timeline in headless Chromium (tests/browser/timeline.mjs,
# playwright-core driving /usr/bin/chromium) against deepq web: a drag
# across the lanes opens the range's page with the range's top functions,
# the tree and the flame graph keep the range, the state bar clears it;
# ruler buckets are links, the heat map and the flame chart select by
# dragging; no script error or policy violation. Screenshots go to
# tests/browser-out/timeline/.
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
script=$top_srcdir/tests/browser/timeline.mjs
if [ ! -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] &&
    [ -d "${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core" ]; then
	mkdir "$tmp/browser"
	cp "$script" "$tmp/browser/"
	ln -s "$DEEPQ_NODE_MODULES" "$tmp/browser/node_modules"
	script=$tmp/browser/timeline.mjs
fi
[ -d "${script%/*}/node_modules/playwright-core" ] ||
    skip_all "playwright-core missing (cd tests/browser && npm ci)"
export CHROMIUM

# A real Chrome trace of many threads (tests/data/timeline/README).
cp "$top_srcdir/tests/data/timeline/chromium-startup.json.xz" "$root/"
rdv_web
HOME=$tmp timeout 200 node "$script" "$web" chromium-startup.json.xz \
    "$top_builddir/tests/browser-out/timeline" >"$tmp/tap" 2>&1 || :
grep -q '^ok' "$tmp/tap" || not_ok "the browser test ran"
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok * - }" ;;
	"not ok "*) not_ok "${line#not ok * - }" ;;
	"#"*) echo "$line" ;;
	esac
done <"$tmp/tap"
kill -INT "$(cat "$tmp/web.pid")" 2>/dev/null || :
rdv_stop
done_testing

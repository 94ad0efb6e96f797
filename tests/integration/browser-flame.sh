#!/bin/sh
# The flame graph in headless Chromium (tests/browser/flame.mjs,
# playwright-core driving /usr/bin/chromium) against deepq web and its
# servers: a V8 profile 3,000 frames deep (made by
# tests/browser/gen-deep-cpuprofile.mjs) answers its flame, icicle,
# inverted and chart pages within the budget (1 MB, 10,000 nodes); the
# card at the pointer and its Zoom; the highlight and its share across
# zooms; zoom and reset in place; the keyboard alone; a phone's
# viewport; a comparison normalised by default with its legend; the
# accessibility check (theme contrast in both themes, labels, roles);
# then the inverted trees of CPython under callgrind (tests/data) and of
# a generated profile too large to invert whole (bench/genprof), a
# refused query's error page with the profile's header, the tree's row
# menus, "N more" in place and caller sites by name, a comparison
# started without the script. Screenshots go to tests/browser-out/.
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
script=$top_srcdir/tests/browser/flame.mjs
if [ ! -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] &&
    [ -d "${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core" ]; then
	mkdir "$tmp/browser"
	cp "$script" "$tmp/browser/"
	ln -s "$DEEPQ_NODE_MODULES" "$tmp/browser/node_modules"
	script=$tmp/browser/flame.mjs
fi
[ -d "${script%/*}/node_modules/playwright-core" ] ||
    skip_all "playwright-core missing (cd tests/browser && npm ci)"

for f in diff-old.folded diff-new.folded samples/workload-fp.folded \
    cliques.folded cpython-json.callgrind.gz; do
	cp "$top_srcdir/tests/data/$f" "$root/"
done
# Stacks of 40 frames over 150,000 call nodes: their inversion, 6
# million frames, is bounded for the page.
"$top_builddir/bench/genprof" -F trace -s mixed -n 150000 >"$root/big.trace" ||
    { echo "Bail out! build bench/genprof first"; exit 1; }
# A node with 300 children: "N more" under it.
awk 'BEGIN { for (i = 0; i < 300; i++) printf "main;work;f%03d %d\n", i,
    400 - i; print "main;io 50" }' >"$root/wide.folded"
node "$top_srcdir/tests/browser/gen-deep-cpuprofile.mjs" 3000 \
    >"$root/deep.cpuprofile"
export CHROMIUM

out=$top_builddir/tests/browser-out
mkdir -p "$out"
rdv_web
HOME=$tmp timeout -k 10 420 node "$script" "$web" "$out" >"$tmp/flame.tap" 2>&1 ||
    :
grep -q '^ok' "$tmp/flame.tap" || not_ok "the browser test ran"
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok * - }" ;;
	"not ok "*) not_ok "${line#not ok * - }" ;;
	"#"*) echo "$line" ;;
	esac
done <"$tmp/flame.tap"
kill -INT "$(cat "$tmp/web.pid")"
rm -f "$tmp/web.pid"
rdv_stop
done_testing

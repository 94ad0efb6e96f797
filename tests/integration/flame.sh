#!/bin/sh
# Flame graphs: the layout in JSON (firefox.folded's tree, tezos.trace's
# flame chart in time order), SVG escaping of hostile names, the output
# bound, and the embedded script run by headless Chromium: it loads,
# zooms on a click and highlights a search.
. "${0%/*}/../lib.sh"
need_corpus
command -v jq >/dev/null || skip_all "jq is not installed"
chrome=$(command -v chromium || command -v chromium-browser || :)
[ -n "$chrome" ] || skip_all "chromium is not installed"

q() { "$DEEPQ" query --local "$@"; }
data=$top_srcdir/tests/data

# Chromium's DOM after the page's scripts ran (and a test script, if any).
dom() {
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$tmp/chrome" --virtual-time-budget=5000 \
	    --dump-dom "file://$1" 2>/dev/null
}

# 1. Layout.
q "$data/firefox.folded" 'cmd=flame&format=json' >"$tmp/ff.json"
check "flame: the root frame is the whole profile" \
    jq -e '.frames[0] == [0, 0, 3, 0] and .total == 3' "$tmp/ff.json"
check "flame: C is 2 wide at depth 3, H after it" jq -e \
    '[.frames[] | select(.[0] == 3)] == [[3, 0, 2, 3], [3, 2, 1, 8]]' \
    "$tmp/ff.json"
check "flame: F appears in both contexts" jq -e \
    '[.frames[] | select(.[3] == 6)] | length == 2' "$tmp/ff.json"
q "$data/tezos.trace" 'cmd=flame&style=chart&format=json' >"$tmp/chart.json"
check "chart: time order, g from tick 10 to 100, h from 30 to 60" jq -e \
    '.lanes[0].frames | sort == [[0,0,160,1],[1,10,90,2],[2,30,30,3]]' \
    "$tmp/chart.json"
q "$data/tezos.trace" 'cmd=flame&format=json' >"$tmp/flame.json"
check "flame of the same trace merges to the left" jq -e \
    '.frames[2] == [2,0,90,2]' "$tmp/flame.json"
if q "$data/firefox.folded" 'cmd=flame&style=chart&format=json' \
    >/dev/null 2>&1; then
	not_ok "style=chart without sample order should fail"
else
	ok "style=chart without sample order is a 400"
fi
q "$data/firefox.folded" 'cmd=flame&maxdepth=2&format=json' >"$tmp/md.json"
check "maxdepth=2 draws no frame deeper than 2" \
    jq -e '[.frames[][0]] | max == 2' "$tmp/md.json"
q "$data/firefox.folded" 'cmd=flame&t=1~mcn-1,2,3&format=json' >"$tmp/t.json"
check "transforms apply to flame graphs" jq -e \
    '.transforms[0].kind == "merge-call-node" and ([.frames[][0]] | max == 4)' \
    "$tmp/t.json"

# 2. Hostile names are escaped; the SVG stays well-formed.
printf '%s\n' \
    'main;<script>alert(1)</script>;a&b"c'"'"'d 5' \
    "main;$(printf '\357\277\276')bad;x]]>y 3" \
    'main;libc`memcpy 2' >"$tmp/evil.folded"
q "$tmp/evil.folded" 'cmd=flame&format=svg&palette=module&title=%3Cb%3E&countname=%26amp%3B' \
    >"$tmp/evil.svg"
check "no raw <script> from a name" sh -c \
    "! grep -q '<script>alert' '$tmp/evil.svg'"
check "names escaped in text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' \
    "$tmp/evil.svg"
check "U+FFFE replaced" sh -c "! grep -q \"\$(printf '\357\277\276')\" '$tmp/evil.svg'"
check "one script element, the constant one" \
    test "$(grep -c '<script' "$tmp/evil.svg")" = 1
dom "$tmp/evil.svg" >"$tmp/evil.dom"
check "Chromium parses the hostile SVG and runs its script" \
    grep -q 'data-ready="7"' "$tmp/evil.dom"

# 3. Bounded output on a big, flat profile.
awk 'BEGIN { for (i = 0; i < 60000; i++) printf "root;mid%d;leaf%d %d\n", i % 300, i, 1 + i % 7 }' \
    >"$tmp/big.folded"
q "$tmp/big.folded" 'cmd=flame&format=svg&minwidth=0' >"$tmp/big.svg"
size=$(wc -c <"$tmp/big.svg")
check "60,000 stacks with minwidth=0: SVG under 5 MB ($size bytes)" \
    test "$size" -lt 5000000
q "$tmp/big.folded" 'cmd=flame&format=json&minwidth=0' >"$tmp/big.json"
check "the frame budget dropped frames and raised minwidth" \
    jq -e '.omitted > 0 and .minwidth > 0 and (.frames | length) <= 12000' \
    "$tmp/big.json"
q "$tmp/big.folded" 'cmd=flame&format=json' >"$tmp/big1.json"
check "minwidth=0.1 alone keeps frames at least 0.1 px wide" jq -e \
    '(.frames | length) > 1 and ([.frames[][2]] | min) * 1180 / .total >= 0.1' \
    "$tmp/big1.json"

# 4. The script: click to zoom, search.
cat >"$tmp/inject.svg" <<'EOF2'
<script type="text/ecmascript"><![CDATA[
window.addEventListener("load", function () { setTimeout(function () {
  var z = frames[2]; zoom(z);
  var out = [z.r.getAttribute("width"), frames[0].g.style.opacity,
    frames.filter(function (f) { return f.g.style.display === "none"; }).length];
  unzoom();
  out.push(frames[2].r.getAttribute("width") === frames[2].w.toFixed(1));
  window.prompt = function () { return "ackermann"; }; search();
  out.push(document.getElementById("matched").textContent);
  svg.setAttribute("data-test", out.join("|"));
}, 0); });
]]></script>
EOF2
f=$corpus/collapsed/workload-fp.folded
for style in flame icicle; do
	q "$f" "cmd=flame&style=$style&format=svg" >"$tmp/z.svg"
	n=$(q "$f" "cmd=flame&style=$style&format=json" | jq -r '.frames | length')
	# Zoom on the third frame, then search for "ackermann".
	awk -v inject="$tmp/inject.svg" \
	    '/<\/svg>/ { while ((getline l < inject) > 0) print l } { print }' \
	    "$tmp/z.svg" >"$tmp/zt.svg"
	dom "$tmp/zt.svg" >"$tmp/z.dom"
	check "$style: the script loaded all $n frames" \
	    grep -q "data-ready=\"$n\"" "$tmp/z.dom"
	t=$(sed -n 's/.*data-test="\([^"]*\)".*/\1/p' "$tmp/z.dom")
	case $t in
	1180.0\|0.5\|[1-9]*\|true\|Matched:*%) ok "$style: zoom stretches the frame, dims ancestors, hides others; unzoom restores; search reports ($t)" ;;
	*) not_ok "$style: zoom/search gave '$t'" ;;
	esac
done
done_testing

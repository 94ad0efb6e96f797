#!/bin/sh
# The time views and range=/thread= through every way in: for each
# recording of tests/data that keeps times (V8, Chrome trace and
# DevTools, Firefox Gecko and processed, perf script, node trace events,
# a deepq trace, speedscope evented), cmd=timeline, cmd=heatmap and the
# flame chart answer valid JSON and HTML, reports under range= and
# thread= too; a profile's server answers as deepq query --local does,
# first loading the file, then from its processed-profile cache; a page
# stays under 200 KB; names from the profile never become markup; a
# format without times says so.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
command -v tidy >/dev/null 2>&1 || skip_all "tidy is not installed"
data=$top_srcdir/tests/data

cp "$data/v8-small.cpuprofile" "$data/small.perf" "$data/tezos.trace" \
    "$data/json/chrome-trace.json" "$data/json/devtools-trace.json" \
    "$data/json/firefox-gecko.json" "$data/json/firefox-processed-v49.json" \
    "$data/json/node-trace.json" \
    "$data/timeline/chromium-startup.json.xz" "$root/"
# speedscope's evented sample, in milliseconds: a time it can keep.
sed 's/"unit": "none"/"unit": "milliseconds"/' \
    "$data/json/speedscope-evented.json" >"$root/speedscope-ms.json"
# Markup in a thread's, a marker's and a function's name.
cat >"$root/xss-trace.json" <<'EOF'
{"traceEvents":[
{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"<script>alert(1)</script>"}},
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"\"'><img src=x>"}},
{"ph":"X","name":"<b>slice</b>","cat":"<i>cat</i>","pid":1,"tid":2,"ts":10,"dur":50},
{"ph":"X","name":"child&amp;","cat":"c","pid":1,"tid":2,"ts":20,"dur":10},
{"ph":"i","name":"<svg onload=alert(2)>","pid":1,"tid":2,"ts":30}
]}
EOF
profiles="v8-small.cpuprofile small.perf tezos.trace chrome-trace.json
devtools-trace.json firefox-gecko.json firefox-processed-v49.json
node-trace.json chromium-startup.json.xz speedscope-ms.json xss-trace.json"

# The queries of a profile: the views, and reports within its first half
# and of its busiest thread.
queries() {
	"$DEEPQ" query --local "$root/$1" 'cmd=timeline&format=json' \
	    >"$tmp/tl.json"
	half=$(jq -r '"\(.view[0]),\((.view[0] + .view[1]) / 2)"' \
	    "$tmp/tl.json" | awk -F, '{ printf "%.6f,%.6f", $1, $2 }')
	th=$(jq -j '.threads[0].label' "$tmp/tl.json" | jq -sRr @uri)
	echo "cmd=timeline"
	echo "cmd=timeline&range=$half"
	echo "cmd=timeline&thread=$th&width=600"
	[ "$(jq '.clock.rate > 0' "$tmp/tl.json")" = true ] &&
	    echo "cmd=heatmap" && echo "cmd=heatmap&range=$half"
	echo "cmd=flame&style=chart"
	echo "cmd=flame&style=chart&range=$half&thread=$th"
	echo "cmd=menu&range=$half"
	echo "cmd=top&range=$half"
	echo "cmd=tree&range=$half&thread=$th"
	echo "cmd=flame&range=$half"
	echo "cmd=top&t=1~inv&range=$half"
	echo "cmd=timeline&t=1~inv&range=$half"
	echo "cmd=top&base_range=$half"
}

pagebench=$top_builddir/bench/pagebench
for prof in $profiles; do
	queries "$prof" >"$tmp/queries"
	# One process a profile: each query as JSON, then as a page.
	set --
	while IFS= read -r q; do
		set -- "$@" "$q&format=json"
	done <"$tmp/queries"
	while IFS= read -r q; do
		set -- "$@" "$q"
	done <"$tmp/queries"
	n=$(($# / 2)) bad=0 big=0 xss=0
	rm -rf "$tmp/ans"
	mkdir "$tmp/ans"
	"$pagebench" -r 2 -o "$tmp/ans" "$root/$prof" "$@" >"$tmp/pb" 2>&1 ||
	    bad=$((bad + 1))
	i=0
	while IFS= read -r q; do
		if ! jq -e '.deepq == 1 and (has("error") | not)' \
		    "$tmp/ans/$i" >/dev/null 2>&1; then
			bad=$((bad + 1))
			echo "# $prof $q: bad JSON: $(head -c 300 "$tmp/ans/$i")"
		fi
		h=$tmp/ans/$((i + n))
		# An SVG's <a href> is SVG 2's, which tidy does not know; nor
		# does this tidy know aria-current, nor the role, aria-level and
		# tabindex of the flame graph's frames (render-svg.c).
		tidy -q -e "$h" 2>&1 | grep -v -e 'proprietary attribute "href"' \
		    -e 'proprietary attribute "aria-current"' \
		    -e 'proprietary attribute "role"' \
		    -e 'proprietary attribute "aria-level"' \
		    -e 'proprietary attribute "tabindex"' >"$tmp/tidy" || :
		if [ -s "$tmp/tidy" ]; then
			bad=$((bad + 1))
			echo "# $prof $q: not valid HTML5:"
			head -5 "$tmp/tidy" | sed 's/^/#   /'
		fi
		[ "$(wc -c <"$h")" -le 204800 ] || {
			big=$((big + 1))
			echo "# $prof $q: $(wc -c <"$h") bytes"
		}
		if grep -i -e '<img' -e '<b>' -e '<i>' -e '<svg onload' \
		    -e '<script>alert' "$h" >/dev/null; then
			xss=$((xss + 1))
			echo "# $prof $q: markup from the profile in the page"
		fi
		i=$((i + 1))
	done <"$tmp/queries"
	[ "$bad" -eq 0 ] && ok "$prof: $n answers, valid JSON and HTML" ||
	    not_ok "$prof: $bad of $n answers not valid"
	[ "$big" -eq 0 ] && ok "$prof: every page under 200 KB" ||
	    not_ok "$prof: $big pages over 200 KB"
	[ "$xss" -eq 0 ] && ok "$prof: no markup from the profile" ||
	    not_ok "$prof: $xss pages with markup from the profile"
done

# Through a server: the same answers, loaded from the file, then from
# its cache (a second server).
for prof in v8-small.cpuprofile small.perf chromium-startup.json.xz; do
	queries "$prof" | sed -n '2,3p;6p;9p;13p' | sed "s|^|$prof |"
done >"$tmp/sq"
answers() {
	while read -r prof q; do
		"$DEEPQ" query ${1:-} "$root/$prof" "$q&format=json" </dev/null ||
		    echo "failed: $prof $q"
	done <"$tmp/sq"
}
answers --local >"$tmp/want"
answers >"$tmp/got" 2>&1 || :
check "through servers: the answers of deepq query --local" cmp "$tmp/want" \
    "$tmp/got"
cache=$run/cache/$(rdv_key "$root/small.perf").cache
check "a cache is written" rdv_wait 10 test -f "$cache"
rdv_stop
answers >"$tmp/got2" 2>&1 || :
"$DEEPQ" query "$root/small.perf" 'cmd=status&format=json' >"$tmp/status"
check "second servers: loaded from the cache" test "$(rdv_field cached \
    "$tmp/status")" = true
check "second servers: the same answers" cmp "$tmp/want" "$tmp/got2"
rdv_stop

# Formats without times offer nothing time-based (their menu as before,
# the goldens' answers) and say why when asked.
"$DEEPQ" query --local "$data/cliques.folded" 'cmd=menu&format=json' \
    >"$tmp/menu.json"
check "folded: the menu's JSON has no time" jq -e 'has("time") | not' \
    "$tmp/menu.json"
"$DEEPQ" query --local "$data/cliques.folded" 'cmd=menu' >"$tmp/menu.html"
check "folded: the menu's page has no time section" sh -c "! grep -q \
    '<h2>Time</h2>' '$tmp/menu.html'"
check "folded: no timeline link" sh -c "! grep -q 'cmd=timeline' \
    '$tmp/menu.html'"
"$DEEPQ" query --local "$data/cliques.folded" 'cmd=timeline&format=json' \
    >"$tmp/out" 2>&1 || :
check "folded: cmd=timeline refused, no times" grep -q 'records no times' \
    "$tmp/out"
"$DEEPQ" query --local "$root/tezos.trace" 'cmd=heatmap&format=json' \
    >"$tmp/out" 2>&1 || :
check "ticks: no heat map without seconds" grep -q 'no known rate' "$tmp/out"

# The state bar shows range= and thread= and clears them; links keep them.
"$DEEPQ" query --local --static-base /static/ "$root/small.perf" \
    'cmd=top&range=0,0.002&thread=4243' >"$tmp/top.html"
check "state bar: range= shown" grep -q '<code>range=0,0.002</code>' \
    "$tmp/top.html"
check "state bar: thread= shown" grep -q '<code>thread=4243</code>' \
    "$tmp/top.html"
check "state bar: clear all drops both" grep -q \
    'class="clear" href="?cmd=top"' "$tmp/top.html"
check "the header's links keep them" grep -q \
    'cmd=tree&amp;range=0,0.002&amp;thread=4243"' "$tmp/top.html"
"$DEEPQ" query --local "$root/small.perf" \
    'cmd=top&range=0,0.002&thread=4242&thread=4243&format=json' \
    >"$tmp/top.json"
check "JSON: range and threads noted" jq -e \
    '.range == [0, 0.002] and .thread == ["4242", "4243"]' "$tmp/top.json"
# Text states them under the title, as the state bar does; without
# them it starts as it always did, the table after the title.
"$DEEPQ" query --local "$root/small.perf" \
    'cmd=top&range=0,0.002&thread=4242&thread=4243&format=text' \
    >"$tmp/top.txt"
check "text: range stated" grep -qx \
    'Range: 0 s to 0.002 s from the start' "$tmp/top.txt"
check "text: threads stated" grep -qx 'Threads: 4242, 4243' "$tmp/top.txt"
"$DEEPQ" query --local "$root/small.perf" \
    'cmd=top&base_range=0,0.001&format=text' >"$tmp/base.txt"
check "text: base range stated" grep -qx \
    'Base range: 0 s to 0.001 s from the start' "$tmp/base.txt"
"$DEEPQ" query --local "$root/small.perf" 'cmd=top&format=text' \
    >"$tmp/whole.txt"
check "text: nothing stated without them" sh -c \
    '! grep -q "^Range:\|^Threads:\|^Base range:" "$1"' sh "$tmp/whole.txt"
done_testing

#!/bin/sh
# Costs by source line of V8 profiles against the files' own sums, by a
# script of their own (jq): a .cpuprofile that node --cpu-prof writes
# here of tests/data/source/lines.js, and the committed real ones under
# tests/data/samples: every function's samples by line are the sum of
# its nodes' positionTicks at that line. A Chrome trace's ProfileChunk
# "lines" (tests/data/json/devtools-trace.json): every function's
# samples by line are its samples' count at that line. The page shows
# lines.js from a source root.
. "${0%/*}/../lib.sh"
command -v node >/dev/null || skip_all "no node (Debian: nodejs)"
command -v jq >/dev/null || skip_all "no jq"

mkdir "$tmp/prog"
cp "$top_srcdir/tests/data/source/lines.js" "$tmp/prog/"
(cd "$tmp/prog" && node --cpu-prof --cpu-prof-dir=. \
    --cpu-prof-name=lines.cpuprofile --cpu-prof-interval 250 lines.js \
    >/dev/null) || { echo "Bail out! node --cpu-prof failed"; exit 1; }

# deepq's "name<TAB>line<TAB>samples" rows of every function (cmd=source
# without func=: every function's lines at once).
ours() {
	"$DEEPQ" query --local "$1" 'cmd=source&format=json' |
	    jq -r '.functions[] | .func.name as $n | .lines[] |
	    select(.self.samples != 0) | "\($n)\t\(.line)\t\(.self.samples)"' |
	    sort
}

# The positionTicks summed by (function, line), "(anonymous)" for a
# function without a name, as the reader names it.
ticks() {
	jq -r '[.nodes[] | select(.positionTicks != null) |
	    (.callFrame.functionName | if . == "" then "(anonymous)"
	    else . end) as $n | .positionTicks[] |
	    {k: "\($n)\t\(.line)", t: .ticks}] | group_by(.k)[] |
	    "\(.[0].k)\t\(map(.t) | add)"' "$1" | sort
}

for f in "$tmp/prog/lines.cpuprofile" \
    "$top_srcdir"/tests/data/samples/recursive.cpuprofile \
    "$top_srcdir"/tests/data/samples/many-functions.cpuprofile; do
	ticks "$f" >"$tmp/want"
	ours "$f" >"$tmp/got"
	# Functions of one name in several files merge in the script.
	awk -F '\t' '{ s[$1 "\t" $2] += $3 } END { for (k in s)
	    print k "\t" s[k] }' "$tmp/got" | sort >"$tmp/got2"
	n=$(wc -l <"$tmp/want")
	if [ "$n" -gt 3 ] && cmp -s "$tmp/want" "$tmp/got2"; then
		ok "${f##*/}: every function's samples by line are its positionTicks' sums ($n lines)"
	else
		not_ok "${f##*/}: lines differ from the positionTicks' sums ($n)"
		diff "$tmp/want" "$tmp/got2" | head | sed 's/^/# /'
	fi
done

# A Chrome trace: each sample at its "lines" entry (0: none).
trace=$top_srcdir/tests/data/json/devtools-trace.json
jq -r '[.traceEvents[] | select(.name == "ProfileChunk") | .args.data] as $c |
    [$c[].cpuProfile.nodes // [] | .[]] | map({key: "\(.id)",
    value: (.callFrame.functionName | if . == "" then "(anonymous)"
    else . end)}) | from_entries as $name |
    [$c[] | (.cpuProfile.samples // []) as $s | (.lines // ($s | map(0)))
    as $l | range($s | length) as $i | select($l[$i] > 0) |
    "\($name["\($s[$i])"])\t\($l[$i])"] | group_by(.)[] |
    "\(.[0])\t\(length)"' "$trace" | sort >"$tmp/want"
ours "$trace" >"$tmp/got"
n=$(wc -l <"$tmp/want")
if [ "$n" -gt 3 ] && cmp -s "$tmp/want" "$tmp/got"; then
	ok "devtools-trace.json: every function's samples by line are its samples' lines ($n lines)"
else
	not_ok "devtools-trace.json: lines differ ($n)"
	diff "$tmp/want" "$tmp/got" | head | sed 's/^/# /'
fi

"$DEEPQ" query --local --source "$tmp/prog" "$tmp/prog/lines.cpuprofile" \
    'cmd=source&func=fib&format=text' >"$tmp/fib.txt"
check "the page shows lines.js's text" \
    grep -q 'return fib(n - 1) + fib(n - 2);' "$tmp/fib.txt"
done_testing

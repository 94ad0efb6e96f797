#!/bin/sh
# Costs by source line of a speedscope file whose frames have lines (as
# py-spy writes them: a frame per line, the sample's line innermost and
# the call's outside), tests/data/json/speedscope-lines.json, a sampled
# and an evented profile, against the file's own sums by a script of
# their own (jq): every line's self is the time its frame is innermost,
# its total the time it is on the stack, once however often.
. "${0%/*}/../lib.sh"
command -v jq >/dev/null || skip_all "no jq"

f=$top_srcdir/tests/data/json/speedscope-lines.json

# deepq's "name<TAB>line<TAB>self<TAB>total" rows, in ms.
"$DEEPQ" query --local "$f" 'cmd=source&format=json' | jq -r '
    .functions[] | .func.name as $n | .lines[] |
    "\($n)\t\(.line)\t\(.self.time)\t\(.total.time)"' | sort >"$tmp/got"

# The same from the file: each stack's time (samples' weights, events'
# spans) on its innermost frame (self) and once on each distinct frame
# (total), for the frames with a line; seconds and milliseconds in ms.
jq -r '.shared.frames as $fr |
    def ms($u): if $u == "seconds" then 1000 else 1 end;
    def spans: (.unit) as $u |
	if .type == "sampled" then
	    [.samples, .weights] | transpose[] | {s: .[0], t: (.[1] * ms($u))}
	else
	    foreach (.events[], {type: "E", at: .endValue}) as $e (
		{st: [], last: .startValue, out: null};
		.out = {s: .st, t: (($e.at - .last) * ms($u))} |
		.last = $e.at |
		if $e.type == "O" then .st += [$e.frame]
		elif $e.type == "C" then .st |= .[:-1] else . end;
		.out)
	end;
    [.profiles[] | spans | select(.t > 0) | .t as $t |
	((.s | last // empty) | {k: ., self: $t, total: 0}),
	(.s | unique[] | {k: ., self: 0, total: $t})] |
    map(select($fr[.k].line != null) |
	.k = "\($fr[.k].name)\t\($fr[.k].line)") |
    group_by(.k)[] |
    "\(.[0].k)\t\(map(.self) | add | round)\t\(map(.total) | add | round)"' \
    "$f" | sort >"$tmp/want"

n=$(wc -l <"$tmp/want")
if [ "$n" -ge 7 ] && cmp -s "$tmp/want" "$tmp/got"; then
	ok "speedscope-lines.json: every line's self and total are the file's sums ($n lines)"
else
	not_ok "speedscope-lines.json: lines differ ($n)"
	diff "$tmp/want" "$tmp/got" | head | sed 's/^/# /'
fi
"$DEEPQ" query --local "$f" 'cmd=source&func=sleep&format=json' \
    >"$tmp/sleep" 2>&1 || :
check "a frame without a line has no rows" \
    jq -e '.lines == []' "$tmp/sleep"
"$DEEPQ" query --local "$top_srcdir/tests/data/json/speedscope-sampled.json" \
    'cmd=source&func=1&format=json' >"$tmp/none" 2>&1 || :
check "a file none of whose frames has a line keeps none" \
    grep -q 'records no source lines' "$tmp/none"
done_testing

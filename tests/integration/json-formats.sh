#!/bin/sh
# The Chrome, speedscope and Firefox Profiler readers on real files
# (tests/data/json, see its README): each file is detected as its
# format and loads with the totals its viewer shows, computed here from
# the file with jq (tests/data/json/jq/*.jq), not by the reader. The
# other JSON profiles keep their readers; broken files are refused
# with a cause.
. "${0%/*}/../lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "no jq"
data=$top_srcdir/tests/data
json=$data/json
jqdir=$json/jq

# menu FILE: the menu as JSON in $tmp/menu.json; false if it fails.
menu() {
	"$DEEPQ" query --local "$1" 'format=json' >"$tmp/menu.json" \
	    2>"$tmp/err"
}

# total METRIC: that metric's total in $tmp/menu.json.
total() {
	jq -r ".totals.\"$1\" // \"none\"" "$tmp/menu.json"
}

# expect NAME FORMAT METRIC WANT: the file loads as FORMAT with WANT as
# the METRIC total.
expect() {
	if ! menu "$json/$1"; then
		not_ok "$1: does not load: $(cat "$tmp/err")"
		return
	fi
	fmt=$(jq -r .format "$tmp/menu.json")
	got=$(total "$3")
	if [ "$fmt" = "$2" ] && [ "$got" = "$4" ]; then
		ok "$1: $2, $3 total $got"
	else
		not_ok "$1: $fmt, $3 total $got; want $2, $4"
	fi
}

# Chrome: CPU profiles (samples and time as the V8 reader counts them).
set -- $(jq -r -f "$jqdir/trace-cpuprofile.jq" "$json/chrome-trace.json")
expect chrome-trace.json chrome samples "$1"
expect chrome-trace.json chrome time "$2"
# The same from a file DevTools' Performance panel saved.
set -- $(jq -r -f "$jqdir/trace-cpuprofile.jq" "$json/devtools-trace.json")
expect devtools-trace.json chrome samples "$1"
expect devtools-trace.json chrome time "$2"
# Duration events: time is what the slices of each thread cover.
set -- $(jq -r -f "$jqdir/trace-events.jq" "$json/node-trace.json")
expect node-trace.json chrome time "$1"
expect node-trace.json chrome calls "$2"
# The same Chrome file read by its timeline slices (the events variant).
set -- $(jq -r -f "$jqdir/trace-events.jq" "$json/chrome-trace.json")
dump=$top_builddir/tests/unit/folded-dump
got=$("$dump" -r chrome -o events "$json/chrome-trace.json" |
    awk '{ s += $NF } END { print s + 0 }')
[ "$got" = "$1" ] && ok "chrome-trace.json, events: time total $got" ||
    not_ok "chrome-trace.json, events: time total $got, want $1"
got=$("$dump" -r chrome -o events -m calls "$json/chrome-trace.json" |
    awk '{ s += $NF } END { print s + 0 }')
[ "$got" = "$2" ] && ok "chrome-trace.json, events: $got slices" ||
    not_ok "chrome-trace.json, events: $got slices, want $2"

# speedscope: sum of weights, or the evented span, per profile.
expect speedscope-evented.json speedscope weight \
    "$(jq -f "$jqdir/speedscope.jq" "$json/speedscope-evented.json")"
expect speedscope-sampled.json speedscope time \
    "$(jq -f "$jqdir/speedscope.jq" "$json/speedscope-sampled.json")"
expect speedscope-two-sampled.json speedscope time \
    "$(jq -f "$jqdir/speedscope.jq" "$json/speedscope-two-sampled.json")"
# Each profile is a child of the root carrying its own total.
"$DEEPQ" query --local "$json/speedscope-two-sampled.json" \
    'cmd=tree&format=json&depth=1' >"$tmp/tree.json" 2>&1 || :
got=$(jq -c '[.. | objects | select(.name? == "one" or .name? == "two")
    | .total? // .totals?] | length' "$tmp/tree.json" 2>/dev/null || echo 0)
[ "$got" = 2 ] && ok "speedscope-two-sampled.json: a node per profile" ||
    not_ok "speedscope-two-sampled.json: profile nodes: $got"
for f in speedscope-bad-incomplete.json:"still open" \
    speedscope-bad-order.json:"not the open one"; do
	name=${f%%:*}
	if menu "$json/$name"; then
		not_ok "$name: loads"
	elif grep -q "${f#*:}" "$tmp/err"; then
		ok "$name: refused: $(cat "$tmp/err")"
	else
		not_ok "$name: refused without the cause: $(cat "$tmp/err")"
	fi
done

# Firefox: samples with a stack, in threads and child processes.
for f in firefox-gecko.json firefox-gecko-v3.json; do
	expect "$f" gecko samples "$(jq -f "$jqdir/gecko-samples.jq" \
	    "$json/$f")"
done
for v in 24 49 58 68; do
	f=firefox-processed-v$v.json
	expect "$f" gecko samples "$(jq -f "$jqdir/processed-samples.jq" \
	    "$json/$f")"
done

# Each keeps its samples or spans in time order: a flame chart draws.
for f in chrome-trace.json node-trace.json speedscope-evented.json \
    speedscope-two-sampled.json firefox-gecko.json \
    firefox-processed-v24.json; do
	if "$DEEPQ" query --local "$json/$f" 'cmd=flame&style=chart&format=svg' \
	    >"$tmp/chart.svg" 2>"$tmp/err" && grep -q '<rect' "$tmp/chart.svg"
	then
		ok "$f: a time-ordered flame chart"
	else
		not_ok "$f: no flame chart: $(cat "$tmp/err")"
	fi
done

# Untrusted input: indices out of range, cycles, nesting, bad values
# are refused with their cause (the fuzz seeds; replay.sh runs them all).
fuzz=$top_srcdir/tests/fuzz/corpus
while IFS=: read -r f want; do
	if menu "$fuzz/$f"; then
		not_ok "$f: loads"
	elif grep -qF -- "$want" "$tmp/err"; then
		ok "$f: refused: $want"
	else
		not_ok "$f: refused without \"$want\": $(cat "$tmp/err")"
	fi
done <<'LIST'
chrome/deep.json:maximum parsing depth
chrome/profile-cycle.json:is its own ancestor
chrome/profile-missing-node.json:node id 7 is not in "nodes"
chrome/unpaired.json:dur is not a number
gecko/gecko-bad-frame.json:frame is not in the frameTable
gecko/gecko-bad-stack.json:not one of the 1 stacks
gecko/gecko-bad-string.json:location is not in the stringTable
gecko/gecko-nested.json:nested more than 8 deep
gecko/gecko-prefix-loop.json:prefix is not an earlier stack
gecko/processed-bad-offset.json:prefix is not an earlier stack
speedscope/bad-index.json:not one of the 3 shared frames
speedscope/before-start.json:goes back in time
speedscope/negative.json:weights[1] is negative
speedscope/mixed-units.json:out of range
LIST
# Kept: unpaired E and B events, an array cut short, huge integers.
menu "$fuzz/chrome/truncated-array" && [ "$(total time)" = 5 ] &&
    ok "an array without its closing bracket loads" ||
    not_ok "an array without its closing bracket: $(cat "$tmp/err")"
menu "$fuzz/chrome/bigint.json" && [ "$(total time)" = 2 ] &&
    ok "integers beyond 64 bits in args do not stop the load" ||
    not_ok "integers beyond 64 bits: $(cat "$tmp/err")"

# The other JSON profiles keep their readers; nothing else is taken.
for f in "$data"/*.cpuprofile "$data"/samples/*.cpuprofile \
    "$data"/*-pj.prof "$data"/*.folded "$data"/*.callgrind \
    "$data"/*.perf "$data"/*.trace; do
	case $f in
	*.cpuprofile) want=v8 ;;
	*-pj.prof) want=ghc-json ;;
	*) want=other ;;
	esac
	menu "$f" || { not_ok "${f##*/}: does not load"; continue; }
	fmt=$(jq -r .format "$tmp/menu.json")
	case $want:$fmt in
	v8:v8 | ghc-json:ghc-json | other:[!cgs]* | other:callgrind) \
	    ok "${f##*/}: still $fmt" ;;
	*) not_ok "${f##*/}: detected as $fmt" ;;
	esac
done
done_testing

#!/bin/sh
# The speedscope export (deepq convert --to speedscope, cmd=speedscope)
# of every sample profile: sound against speedscope's schema (the
# required fields and enums of tests/data/speedscope/file-format-schema.json,
# checked by check.jq there with frame ranges and event nesting), one
# profile per metric whose weights (sampled) or time span (evented) are
# deepq's totals. And the folded export's modules=0.
. "${0%/*}/../lib.sh"
command -v jq >/dev/null || skip_all "no jq"
data=$top_srcdir/tests/data
schema=$data/speedscope/file-format-schema.json

for f in pprof/cpu.pb pprof/heap.pb.gz firefox.folded recursion.folded \
    cliques.folded example.callgrind small.perf tezos.trace \
    v8-small.cpuprofile ghc-small.prof clean.pgcl; do
	if ! "$DEEPQ" convert --to speedscope "$data/$f" "$tmp/out.json" \
	    2>"$tmp/err"; then
		not_ok "$f: convert --to speedscope: $(cat "$tmp/err")"
		continue
	fi
	jq -r --slurpfile schema "$schema" -f "$data/speedscope/check.jq" \
	    "$tmp/out.json" >"$tmp/problems" 2>&1 || echo "jq failed" \
	    >>"$tmp/problems"
	if [ -s "$tmp/problems" ]; then
		not_ok "$f -> speedscope: not sound"
		sed 's/^/# /' "$tmp/problems" | head -10
	else
		ok "$f -> speedscope: sound against the schema"
	fi
	"$DEEPQ" query --local "$data/$f" 'format=json' >"$tmp/menu.json"
	want=$(jq -c '[.metrics[].name as $m | {($m): .totals[$m]}] | add' \
	    "$tmp/menu.json")
	got=$(jq -c '[.profiles[] | {(.name): (if .type == "sampled" then
	    (.weights | add // 0) else .endValue - .startValue end)}] | add' \
	    "$tmp/out.json")
	[ "$got" = "$want" ] &&
	    ok "$f -> speedscope: a profile per metric with deepq's totals" ||
	    not_ok "$f -> speedscope: totals $got, deepq's $want"
done

# A time line becomes an evented profile, the rest sampled ones.
"$DEEPQ" convert --to speedscope "$data/v8-small.cpuprofile" "$tmp/v8.json"
check "v8 -> speedscope: samples evented, time sampled" \
    jq -e '[.profiles[].type] == ["evented", "sampled"]' "$tmp/v8.json"
"$DEEPQ" query --local "$data/v8-small.cpuprofile" \
    'cmd=speedscope&format=speedscope' >"$tmp/query.json"
check "cmd=speedscope&format=speedscope is convert's file" \
    cmp "$tmp/v8.json" "$tmp/query.json"
"$DEEPQ" query --local "$data/pprof/heap.pb" \
    'cmd=speedscope&format=speedscope&metric=alloc_space' >"$tmp/heap.json"
check "metric= is the profile speedscope opens first" \
    jq -e '.profiles[.activeProfileIndex].name == "alloc_space"' \
    "$tmp/heap.json"

# modules=0: the same stacks and counts without module\` prefixes.
"$DEEPQ" query --local "$data/pprof/cpu.pb" 'cmd=folded&format=folded' \
    >"$tmp/with"
"$DEEPQ" query --local "$data/pprof/cpu.pb" \
    'cmd=folded&format=folded&modules=0' >"$tmp/without"
check "folded: frames carry their module by default" grep -q 'prog`main.spin' \
    "$tmp/with"
check "folded modules=0: no module\` prefix" sh -c "! grep -q '\`' '$tmp/without'"
sed 's/prog`//g' "$tmp/with" >"$tmp/stripped"
check "folded modules=0: otherwise the same lines" cmp "$tmp/stripped" \
    "$tmp/without"
"$DEEPQ" convert --no-modules "$data/pprof/cpu.pb" "$tmp/convert"
check "convert --no-modules writes what modules=0 answers" cmp \
    "$tmp/without" "$tmp/convert"
done_testing

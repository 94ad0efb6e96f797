#!/bin/sh
# Every real folded file in the corpus loads, and its totals equal the sum
# of its counts (computed here independently with awk).
. "${0%/*}/../lib.sh"
need_corpus

for f in "$corpus"/collapsed/*.folded; do
	name=${f##*/}
	want=$(awk '{ s += $NF } END { printf "%d\n", s }' "$f")
	if "$DEEPQ" query --local "$f" 'format=json' >"$tmp/menu.json" 2>"$tmp/err"; then
		got=$(sed -n 's/.*"totals":{"samples":\([0-9]*\)}.*/\1/p' "$tmp/menu.json")
		if [ "$got" = "$want" ]; then
			ok "$name: total $got equals the sum of counts"
		else
			not_ok "$name: total $got, sum of counts $want"
		fi
	else
		not_ok "$name: does not load: $(cat "$tmp/err")"
	fi
done
# flamegraph's own expected collapsed outputs are folded files too.
n=0
bad=0
for f in "$corpus"/flamegraph-tests/test/results/*.txt; do
	[ -s "$f" ] || continue
	want=$(awk '{ s += $NF } END { printf "%d\n", s }' "$f")
	got=$("$DEEPQ" query --local "$f" 'format=json' 2>/dev/null |
	    sed -n 's/.*"totals":{"samples":\([0-9]*\)}.*/\1/p')
	n=$((n + 1))
	if [ "$got" != "$want" ]; then
		bad=$((bad + 1))
		echo "# ${f##*/}: got $got want $want"
	fi
done
if [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
	ok "$n flamegraph expected outputs: totals equal the sums"
else
	not_ok "$bad of $n flamegraph expected outputs disagree"
fi
done_testing

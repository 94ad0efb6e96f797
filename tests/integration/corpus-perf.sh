#!/bin/sh
# The perf script reader against stackcollapse-perf.pl: every stack's count
# through our model (tests/unit/folded-dump) equals the script's output,
# for FlameGraph's own test vectors in each of its option modes and for
# the corpus' perf files (collapsed/ holds the script's output of them).
. "${0%/*}/../lib.sh"
need_corpus

dump=$top_builddir/tests/unit/folded-dump
fg=$corpus/flamegraph-tests/test

# FlameGraph's expected outputs, one per input and option (byte for byte:
# both sides are sorted and merged, so this is the multiset comparison).
for f in "$fg"/perf-*.txt; do
	name=${f##*/}
	name=${name%.txt}
	for mode in pid tid kernel jit all addrs; do
		want=$fg/results/$name-collapsed-$mode.txt
		if ! "$dump" -r perf -o "$mode" "$f" >"$tmp/got" 2>"$tmp/err"; then
			not_ok "$name --$mode: does not load: $(cat "$tmp/err")"
		elif cmp -s "$tmp/got" "$want"; then
			ok "$name --$mode: $(wc -l <"$want") stacks equal stackcollapse-perf's"
		else
			not_ok "$name --$mode differs from stackcollapse-perf"
			diff "$want" "$tmp/got" | head -10 | sed 's/^/# /'
		fi
	done

	# No expected file exists for the script's default mode; it is the
	# --kernel output without its _[k] marks (summed again).
	sed 's/_\[k\]//g' "$fg/results/$name-collapsed-kernel.txt" |
	    awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n }
	    END { for (k in s) printf "%s %.0f\n", k, s[k] }' |
	    sort >"$tmp/want"
	"$dump" -r perf "$f" >"$tmp/got" 2>&1 || :
	if cmp -s "$tmp/got" "$tmp/want"; then
		ok "$name default mode: equals --kernel without _[k]"
	else
		not_ok "$name default mode differs"
		diff "$tmp/want" "$tmp/got" | head -10 | sed 's/^/# /'
	fi
done

# Every input is recognised as perf script text by its content.
n=0
bad=
for f in "$fg"/perf-*.txt; do
	n=$((n + 1))
	"$DEEPQ" query --local "$f" format=json 2>/dev/null |
	    grep -q '"format":"perf"' || bad="$bad ${f##*/}"
done
if [ -z "$bad" ]; then
	ok "all $n FlameGraph inputs are detected as perf script text"
else
	not_ok "not detected as perf:$bad"
fi

# The corpus' perf files, detected by content, against the script's plain
# and --all outputs; totals from the menu against the folded sums.
for f in "$corpus"/perf/*.perf-script.txt; do
	name=${f##*/}
	name=${name%.perf-script.txt}
	for mode in plain all; do
		if [ $mode = plain ]; then
			want=$corpus/collapsed/$name.folded
			opt=
		else
			want=$corpus/collapsed/$name.all.folded
			opt="-o all"
		fi
		# shellcheck disable=SC2086
		if "$dump" $opt "$f" >"$tmp/got" 2>"$tmp/err" &&
		    cmp -s "$tmp/got" "$want"; then
			ok "$name ($mode): $(wc -l <"$want") stacks equal collapsed/${want##*/}"
		else
			not_ok "$name ($mode) differs from collapsed/${want##*/}"
			cat "$tmp/err" | sed 's/^/# /'
			diff "$want" "$tmp/got" | head -10 | sed 's/^/# /'
		fi
	done

	period=$(awk '{ s += $NF } END { printf "%.0f\n", s }' \
	    "$corpus/collapsed/$name.folded")
	samples=$(grep -c 'cpu-clock: *$' "$f")
	"$DEEPQ" query --local "$f" format=json >"$tmp/menu" 2>"$tmp/err" || :
	if grep -q "\"format\":\"perf\"" "$tmp/menu" &&
	    grep -q "\"totals\":{\"period\":$period,\"samples\":$samples}" \
	    "$tmp/menu"; then
		ok "$name: detected as perf; totals period $period ns, $samples samples"
	else
		not_ok "$name: menu totals (want period $period, samples $samples)"
		sed 's/^/# /' "$tmp/menu" "$tmp/err"
	fi
done

# Variants the reader does not know are refused, naming the word.
if "$dump" -r perf -o pid,bogus "$fg/perf-dd-stacks-01.txt" >/dev/null \
    2>"$tmp/err"; then
	not_ok "an unknown variant word is refused"
else
	check "an unknown variant word is refused" grep -q '"bogus"' "$tmp/err"
fi
done_testing

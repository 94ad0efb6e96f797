#!/bin/sh
# Exports. folded -> deepq -> folded gives the same file (after sorting and
# merging duplicate stacks) for every folded file in the corpus; maxdepth
# and order=time keep the totals (tezos.trace's sequence); callgrind
# output is accepted by valgrind's callgrind_annotate with our totals and
# is read back by our own callgrind reader; deepq convert writes the same
# bytes as the query.
. "${0%/*}/../lib.sh"
need_corpus
command -v callgrind_annotate >/dev/null ||
    skip_all "callgrind_annotate (valgrind) is not installed"

q() { "$DEEPQ" query --local "$@"; }

# A folded file in canonical form: the count split off at the last blank
# (flamegraph.pl's rule), duplicate stacks summed, zero lines dropped, sorted.
canon() {
	sed -E 's/^(.*)[ 	]([0-9]+)$/\1	\2/' "$1" |
	    awk -F'	' 'NF == 2 { s[$1] += $2 }
		END { for (k in s) if (s[k] != 0) printf "%s %.0f\n", k, s[k] }' |
	    sort
}

sum() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"; }

# 1. The round trip, file by file.
for f in "$corpus"/collapsed/*.folded; do
	name=${f##*/}
	if q "$f" 'cmd=folded&format=folded' >"$tmp/out" 2>"$tmp/err"; then
		canon "$f" >"$tmp/want"
		canon "$tmp/out" >"$tmp/got"
		if cmp -s "$tmp/want" "$tmp/got"; then
			ok "$name: folded round trip is identical ($(wc -l <"$tmp/want") stacks)"
		else
			not_ok "$name: folded round trip differs"
			diff "$tmp/want" "$tmp/got" | head -5 | sed 's/^/# /'
		fi
	else
		not_ok "$name: cmd=folded failed: $(cat "$tmp/err")"
	fi
done
n=0
bad=0
for f in "$corpus"/flamegraph-tests/test/results/*.txt; do
	[ -s "$f" ] || continue
	n=$((n + 1))
	q "$f" 'cmd=folded&format=folded' >"$tmp/out" 2>/dev/null || :
	canon "$f" >"$tmp/want"
	canon "$tmp/out" >"$tmp/got"
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		bad=$((bad + 1))
		echo "# ${f##*/} differs"
	fi
done
if [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]; then
	ok "$n flamegraph expected outputs: folded round trip is identical"
else
	not_ok "$bad of $n flamegraph expected outputs differ after a round trip"
fi

# 2. maxdepth cuts stacks but keeps the total; order=time keeps the order.
f=$corpus/collapsed/workload-fp.folded
q "$f" 'cmd=folded&format=folded&maxdepth=4' >"$tmp/cut"
check "maxdepth=4: no stack deeper than 4 frames" \
    awk '{ $NF = ""; if (split($0, a, ";") > 4) exit 1 }' "$tmp/cut"
check "maxdepth=4 keeps the total" test "$(sum "$tmp/cut")" = "$(sum "$f")"
printf 'f 10\nf;g 20\nf;g;h 30\nf;g 40\nf 60\n' >"$tmp/tezos.want"
q "$top_srcdir/tests/data/tezos.trace" 'cmd=folded&format=folded&order=time' \
    >"$tmp/tezos.got"
check "order=time on tezos.trace is f 10, g 20, h 30, g 40, f 60" \
    cmp "$tmp/tezos.want" "$tmp/tezos.got"
if q "$f" 'cmd=folded&format=folded&order=time' >/dev/null 2>&1; then
	not_ok "order=time on a profile without sample order should fail"
else
	ok "order=time without a sample order is refused"
fi

# 3. callgrind_annotate accepts our callgrind with our totals.
# A folded file is no callgrind file: only an unknown reader says none.
have_reader=1
"$DEEPQ" query --local --reader callgrind "$top_srcdir/tests/data/firefox.folded" \
    format=json >/dev/null 2>"$tmp/err" ||
    ! grep -q 'unknown format' "$tmp/err" || have_reader=0
for f in "$top_srcdir/tests/data/firefox.folded" "$corpus"/collapsed/*.folded \
    "$top_srcdir/tests/data/tezos.trace"; do
	name=${f##*/}
	q "$f" 'cmd=callgrind&format=callgrind' >"$tmp/cg"
	want=$(q "$f" 'format=json' | sed -n 's/.*"totals":{"[a-z_]*":\([0-9]*\).*/\1/p')
	if callgrind_annotate --inclusive=yes "$tmp/cg" >"$tmp/ann" 2>"$tmp/err"; then
		got=$(sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$tmp/ann" | tr -d ,)
		if [ "$got" = "$want" ]; then
			ok "$name: callgrind_annotate reads our callgrind, total $got"
		else
			not_ok "$name: callgrind_annotate total $got, ours $want"
		fi
	else
		not_ok "$name: callgrind_annotate refuses our callgrind: $(head -3 "$tmp/err")"
	fi
	# Re-read with our own reader, once it exists.
	if [ "$have_reader" = 0 ]; then
		ok "$name: re-read callgrind # SKIP no callgrind reader yet"
		continue
	fi
	cp "$tmp/cg" "$tmp/callgrind.out.$name"
	got=$(q "$tmp/callgrind.out.$name" 'format=json' |
	    sed -n 's/.*"totals":{"[a-z_]*":\([0-9]*\).*/\1/p')
	if [ "$got" = "$want" ]; then
		ok "$name: our reader reads our callgrind back, total $got"
	else
		not_ok "$name: our reader reads our callgrind back with total '$got', want $want"
	fi
done
# Inclusive costs on firefox.folded's tree: C 2 of 3, F 2 (two contexts).
q "$top_srcdir/tests/data/firefox.folded" 'cmd=callgrind&format=callgrind' >"$tmp/cg"
callgrind_annotate --inclusive=yes "$tmp/cg" >"$tmp/ann"
check "callgrind_annotate: C inclusive 2" grep -q '^2 .*???:C$' "$tmp/ann"
check "callgrind_annotate: F inclusive 2" grep -q '^2 .*???:F$' "$tmp/ann"
check "callgrind_annotate: A inclusive 3" grep -q '^3 .*???:A$' "$tmp/ann"

# 4. deepq convert writes what the query answers.
f=$corpus/collapsed/node-recursive.folded
q "$f" 'cmd=folded&format=folded' >"$tmp/q.folded"
"$DEEPQ" convert "$f" "$tmp/c.folded" --to folded
check "convert --to folded equals cmd=folded" cmp "$tmp/q.folded" "$tmp/c.folded"
q "$f" 'cmd=callgrind&format=callgrind' >"$tmp/q.cg"
"$DEEPQ" convert --to callgrind "$f" "$tmp/c.cg"
check "convert --to callgrind equals cmd=callgrind" cmp "$tmp/q.cg" "$tmp/c.cg"
"$DEEPQ" convert --query 't=1~inv' "$top_srcdir/tests/data/firefox.folded" - \
    >"$tmp/inv"
check "convert --query applies transforms" grep -qx 'F;H;B;A 1' "$tmp/inv"
if "$DEEPQ" convert --to dot "$f" "$tmp/x" 2>/dev/null; then
	not_ok "convert --to dot should fail"
else
	ok "convert refuses an unknown --to"
fi
done_testing

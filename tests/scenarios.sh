#!/bin/sh
# tests/SCENARIOS cannot rot: each of T1-T63 appears exactly once and
# names a file that exists in the source tree.
. "${top_srcdir:-$(cd "${0%/*}/.." && pwd)}/tests/lib.sh"

table=$top_srcdir/tests/SCENARIOS
n=1
while [ "$n" -le 63 ]; do
	lines=$(grep -c "^T$n *|" "$table" || :)
	file=$(sed -n "s/^T$n *| *\([^ |]*\) *|.*/\1/p" "$table")
	check "T$n listed once ($lines) and its test $file exists" \
	    sh -c "[ '$lines' -eq 1 ] && [ -f '$top_srcdir/$file' ]"
	n=$((n + 1))
done
check "no other scenario numbers" \
    test "$(grep -c '^T[0-9]' "$table")" -eq 63
done_testing

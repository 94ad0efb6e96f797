#!/bin/sh
# Every GHC profile in the corpus loads, and its totals equal GHC's own:
# the header's total ticks and total alloc for text (+RTS -p, -P), the
# JSON's total_ticks and total_alloc for -pj (both named .prof: the test
# tells them apart by content, like the reader). The figures are taken
# from the files here with sed, independently of the reader; ghc-check
# then compares every node with GHC's individual and inherited columns.
. "${0%/*}/../lib.sh"
need_corpus

for f in "$corpus"/ghc-prof/*.prof; do
	name=${f##*/}
	if head -c 1 "$f" | grep -q '{'; then
		format=ghc-json
		ticks=$(sed -n 's/^"total_ticks": *\([0-9]*\),.*/\1/p' "$f")
		alloc=$(sed -n 's/^"total_alloc": *\([0-9]*\),.*/\1/p' "$f")
	else
		format=ghc-prof
		ticks=$(sed -n 's/.*total time .*(\([0-9]*\) ticks @.*/\1/p' "$f")
		alloc=$(sed -n 's/.*total alloc = *\([0-9,]*\) bytes.*/\1/p' "$f" |
		    tr -d ,)
	fi
	if ! "$DEEPQ" query --local "$f" 'format=json' >"$tmp/menu.json" \
	    2>"$tmp/err"; then
		not_ok "$name: does not load: $(cat "$tmp/err")"
		continue
	fi
	got=$(jq -r .format "$tmp/menu.json")
	[ "$got" = "$format" ] && ok "$name: detected as $format" ||
	    not_ok "$name: detected as $got, not $format"
	got=$(sed -n 's/.*"totals":{"ticks":\([0-9]*\),.*/\1/p' "$tmp/menu.json")
	[ -n "$ticks" ] && [ "$got" = "$ticks" ] &&
	    ok "$name: ticks total $got equals GHC's $ticks" ||
	    not_ok "$name: ticks total $got, GHC's $ticks"
	got=$(sed -n 's/.*"totals":{[^}]*"alloc":\([0-9]*\).*/\1/p' \
	    "$tmp/menu.json")
	[ -n "$alloc" ] && [ "$got" = "$alloc" ] &&
	    ok "$name: alloc total $got equals GHC's $alloc bytes" ||
	    not_ok "$name: alloc total $got, GHC's $alloc bytes"
done

# Node by node: self = individual, inclusive = inherited (ghc-check.c).
"$top_builddir/tests/unit/ghc-check" "$corpus"/ghc-prof/*.prof \
    "$top_srcdir"/tests/data/ghc-small*.prof >"$tmp/check" 2>&1 || :
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok [0-9]* - }" ;;
	"not ok "*) not_ok "${line#not ok [0-9]* - }" ;;
	"#"*) echo "$line" ;;
	esac
done <"$tmp/check"
grep -q '^1\.\.[1-9]' "$tmp/check" || not_ok "ghc-check did not finish"
done_testing

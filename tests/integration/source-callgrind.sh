#!/bin/sh
# Costs by source line against callgrind_annotate, line for line: a C
# program (tests/data/source/lines.c, with recursion, a function inlined
# from a header and a function in another file) built with -g and run
# under valgrind --tool=callgrind here. For the program's own files,
# every line's cost equals callgrind_annotate --auto=yes's, every call
# line ("=> callee (Nx)") is a call deepq has from that line with that
# cost and count; the source page shows the files from a source root;
# and the callgrind export annotates the same costs.
. "${0%/*}/../lib.sh"
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
    skip_all "valgrind is not installed"
command -v gcc >/dev/null || skip_all "gcc is not installed"
command -v jq >/dev/null || skip_all "jq is not installed"

src=$top_srcdir/tests/data/source
mkdir "$tmp/prog"
cp "$src/lines.c" "$src/lines.h" "$src/other.c" "$tmp/prog/"
(cd "$tmp/prog" && gcc -g -O1 -o lines lines.c other.c &&
    valgrind -q --tool=callgrind --callgrind-out-file=cg.out ./lines \
    >/dev/null) || { echo "Bail out! cannot build or run lines.c"; exit 1; }
cg=$tmp/prog/cg.out

# annotate FILE: "file line cost" and "file line => callee cost count"
# rows for the program's files, from callgrind_annotate's listing of
# whole files (no context cut, so lines count from 1).
annotate() {
	(cd "$tmp/prog" && callgrind_annotate --auto=yes --threshold=100 \
	    --context=1000000 --show-percs=no "$1") 2>/dev/null | awk '
	/^-- (Auto|User)-annotated source: / {
		f = $NF; sub(/.*\//, "", f)
		on = (f == "lines.c" || f == "lines.h" || f == "other.c")
		n = 0; hdr = 2; next
	}
	/^----------/ { if (on && hdr == 0) on = 0; next }
	!on { next }
	hdr > 0 { hdr--; next }
	{
		if (!match($0, /^ *([0-9,]+|\.)  /)) next
		cost = substr($0, 1, RLENGTH - 2); gsub(/[ ,]/, "", cost)
		rest = substr($0, RLENGTH + 1)
		if (rest ~ /^=> /) {
			sub(/^=> /, "", rest)
			cnt = rest; sub(/.* \(/, "", cnt); sub(/x\)$/, "", cnt)
			gsub(/,/, "", cnt)
			sub(/ \([0-9,]+x\)$/, "", rest); sub(/.*:/, "", rest)
			print f, n, "=>", rest, cost, cnt
			next
		}
		n++
		if (cost != ".") print f, n, cost
	}' | sort
}

# ours PROFILE: the same rows from deepq's cmd=source of every function
# (without func=: all at once).
ours() {
	"$DEEPQ" query --local "$1" 'cmd=source&format=json' |
	    jq -r '.functions[].lines[] |
	    (.file | sub(".*/"; "")) as $f | .line as $l |
	    select($f == "lines.c" or $f == "lines.h" or $f == "other.c") |
	    "\($f) \($l) \(.self.Ir)",
	    (.calls[]? | "\($f) \($l) => \(.name) \(.total.Ir) \(.count)")'
}

annotate "$cg" >"$tmp/want.all"
ours "$cg" >"$tmp/got.all"
# Costs: by (file, line), summed over functions, as annotate sums them.
grep -v ' => ' "$tmp/want.all" >"$tmp/want" || :
grep -v ' => ' "$tmp/got.all" | awk '{ s[$1 " " $2] += $3 }
    END { for (k in s) if (s[k] != 0) print k, s[k] }' | sort >"$tmp/got"
n=$(wc -l <"$tmp/want")
if [ "$n" -gt 20 ] && cmp -s "$tmp/want" "$tmp/got"; then
	ok "every line's cost is callgrind_annotate's ($n lines of lines.c, lines.h, other.c)"
else
	not_ok "line costs differ from callgrind_annotate's ($n lines)"
	diff "$tmp/want" "$tmp/got" | head -20 | sed 's/^/# /'
fi
check "lines.h (an inlined function's file, fi=) has lines" \
    grep -q '^lines.h ' "$tmp/got"
check "other.c (another file) has lines" grep -q '^other.c ' "$tmp/got"

# Calls: annotate shows one function's calls from a line; deepq has it.
grep ' => ' "$tmp/want.all" >"$tmp/want.calls" || :
grep ' => ' "$tmp/got.all" | sort -u >"$tmp/got.calls"
n=$(wc -l <"$tmp/want.calls")
missing=$(comm -23 "$tmp/want.calls" "$tmp/got.calls" | wc -l)
if [ "$n" -ge 6 ] && [ "$missing" -eq 0 ]; then
	ok "every call line of callgrind_annotate is deepq's: callee, cost, count ($n)"
else
	not_ok "$missing of $n call lines differ"
	comm -23 "$tmp/want.calls" "$tmp/got.calls" | head | sed 's/^/# /'
fi
check "fib's recursive call line (fib'2) is there" \
    grep -q "^lines.c 19 => fib'2 " "$tmp/got.calls"

# The page: the files from a source root, the hottest line anchored.
"$DEEPQ" query --local --source "$tmp/prog" "$cg" \
    'cmd=source&func=work&format=html' >"$tmp/work.html"
check "the page shows lines.c's text" \
    grep -q 'class="code">.*return fib(n - 1) + fib(n - 2);\|s += fib(12);' \
    "$tmp/work.html"
check "the page shows the inlined lines of lines.h" \
    grep -q 'x \*= 0x9e3779b97f4a7c15UL;' "$tmp/work.html"
check "a call line links to the callee's lines" \
    grep -q 'href="?cmd=source&amp;func=[0-9]*#L[0-9]*">→ [^<]*other_sum' "$tmp/work.html"
check "the hottest line is an anchor the page links to" \
    sh -c "grep -q 'id=\"L[0-9]*\"' '$tmp/work.html' &&
    grep -q 'href=\"?cmd=source&amp;func=work#L[0-9]*\"' '$tmp/work.html'"
"$DEEPQ" query --local --source "$tmp/prog" "$cg" \
    'cmd=source&func=fib&format=text' >"$tmp/fib.txt"
check "format=text: lines with their costs and the code" \
    grep -q '^ *17 .*  *if (n < 2)$' "$tmp/fib.txt"

# The export: callgrind_annotate on deepq's callgrind file, same lines.
"$DEEPQ" convert --to callgrind "$cg" "$tmp/prog/export.out"
annotate "$tmp/prog/export.out" | grep -v ' => ' >"$tmp/export" || :
if cmp -s "$tmp/want" "$tmp/export"; then
	ok "the callgrind export annotates every line as the original"
else
	not_ok "the callgrind export's lines differ"
	diff "$tmp/want" "$tmp/export" | head | sed 's/^/# /'
fi
done_testing

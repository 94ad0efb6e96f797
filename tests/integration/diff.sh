#!/bin/sh
# Comparisons (base=): exact deltas on two real runs from the corpus,
# computed again here with awk from the folded files (raw totals,
# normalize=0: comparisons are normalised by default); an exact expected
# page on a small hand-made pair; base= confinement; and the regression
# gate example of deepq(1) and the README, run as documented.
. "${0%/*}/../lib.sh"

need_corpus
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
command -v tidy >/dev/null 2>&1 || skip_all "tidy is not installed"
data=$top_srcdir/tests/data
dir=$tmp/profiles
mkdir -p "$dir"
cp "$corpus/collapsed/workload-fp.folded" "$corpus/collapsed/workload-dwarf.folded" \
    "$data/diff-old.folded" "$data/diff-new.folded" "$dir/"
q() { "$DEEPQ" query --local "$@"; }

# Totals: sum of the counts of each file.
sum() { awk '{ s += $NF } END { printf "%d\n", s }' "$1"; }
a=$(sum "$dir/workload-dwarf.folded")
b=$(sum "$dir/workload-fp.folded")
q "$dir/workload-dwarf.folded" 'base=workload-fp.folded&normalize=0&cmd=menu&format=json' \
    >"$tmp/menu.json"
got=$(jq -r '.comparison | "\(.value) \(.base) \(.delta)"' "$tmp/menu.json")
[ "$got" = "$a $b $((a - b))" ] && ok "corpus pair: totals $a vs $b" ||
    not_ok "corpus pair: totals: got $got, want $a $b $((a - b))"

# Self value of every function (its leaf frames), in both files, and the
# delta of each, against the top report's diff.self for every function.
selfs() {
	awk '{ n = split($0, a, / /); c = a[n]; s = substr($0, 1,
	    length($0) - length(c) - 1); k = split(s, f, /;/);
	    v[f[k]] += c } END { for (x in v) printf "%s\t%d\n", x, v[x] }' "$1"
}
selfs "$dir/workload-dwarf.folded" | sort >"$tmp/a.self"
selfs "$dir/workload-fp.folded" | sort >"$tmp/b.self"
join -t '	' -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$tmp/a.self" "$tmp/b.self" |
    awk -F '\t' '$2 - $3 != 0 { printf "%s\t%d\n", $1, $2 - $3 }' |
    sort >"$tmp/want.delta"
q "$dir/workload-dwarf.folded" \
    'base=workload-fp.folded&normalize=0&cmd=top&limit=100000&format=json' |
    jq -r '.rows[] | select(.diff.self.delta != 0) |
    "\(.name)\t\(.diff.self.delta)"' | sort >"$tmp/got.delta"
if cmp -s "$tmp/want.delta" "$tmp/got.delta" && [ -s "$tmp/want.delta" ]; then
	ok "corpus pair: self delta of $(wc -l <"$tmp/want.delta") functions"
else
	not_ok "corpus pair: self deltas"
	diff "$tmp/want.delta" "$tmp/got.delta" | head | sed 's/^/# /'
fi

# sort=delta: largest growth of the total first, a non-increasing list.
q "$dir/workload-dwarf.folded" \
    'base=workload-fp.folded&cmd=top&sort=delta&limit=100000&format=json' |
    jq -r '.rows[].diff.total.delta' >"$tmp/sorted"
sort -rn "$tmp/sorted" | cmp -s - "$tmp/sorted" &&
    ok "sort=delta orders by the delta of the total" ||
    not_ok "sort=delta orders by the delta of the total"

# Normalised: the base scaled to the same total, so the totals' delta is 0.
got=$(q "$dir/workload-dwarf.folded" \
    'base=workload-fp.folded&cmd=top&normalize=1&format=json' |
    jq -r '.comparison.delta')
[ "$got" = 0 ] && ok "normalize=1: equal totals" ||
    not_ok "normalize=1: equal totals (delta $got)"

# Differential flame graph: red and blue frames, width from this profile.
q "$dir/workload-dwarf.folded" 'base=workload-fp.folded&cmd=flame&format=json' \
    >"$tmp/flame.json"
got=$(jq -r '[.total, ([.frames[] | select(.[4] > 0)] | length > 0),
    ([.frames[] | select(.[4] < 0)] | length > 0)] | @tsv' "$tmp/flame.json")
[ "$got" = "$a	true	true" ] && ok "flame: width from the profile, both hues" ||
    not_ok "flame: got $got"
q "$dir/workload-dwarf.folded" 'base=workload-fp.folded&cmd=flame&format=svg' \
    >"$tmp/flame.svg"
grep -q 'fill="rgb(255,' "$tmp/flame.svg" &&
    grep -q 'fill="rgb([0-9]*,[0-9]*,255)"' "$tmp/flame.svg" &&
    ok "flame SVG: red and blue frames" || not_ok "flame SVG: red and blue frames"

# A hand-made pair, exactly.
q "$dir/diff-new.folded" 'base=diff-old.folded&normalize=0&cmd=top&sort=delta&format=json' |
    jq -c '[.rows[] | [.name, .diff.total.value, .diff.total.base,
    .diff.total.delta, .diff.self.delta]]' >"$tmp/small"
want='[["main",70,40,30,5],["eval",48,20,28,0],["add",40,20,20,20],["mul",8,0,8,8],["parse",17,15,2,0],["lex",12,10,2,2],["gc",0,5,-5,-5]]'
[ "$(cat "$tmp/small")" = "$want" ] && ok "small pair: top by delta" ||
    not_ok "small pair: got $(cat "$tmp/small")"
# Call nodes match by path: main;eval;add grew by 20.
got=$(q "$dir/diff-new.folded" 'base=diff-old.folded&normalize=0&cmd=tree&depth=5&format=json' |
    jq -c '[.. | objects | select(.name? == "add") | .diff.total.delta]')
[ "$got" = '[20]' ] && ok "small pair: tree node by path" ||
    not_ok "small pair: tree node by path: $got"

# The tree page's text shows the comparison columns: the node
# workload;ackermann, its base and delta summed here with awk.
under() {
	awk -v p="$2" '{ c = $NF; s = substr($0, 1, length($0) - length(c) - 1)
	    if (s == p || index(s, p ";") == 1) t += c }
	    END { printf "%d\n", t }' "$1"
}
commas() {
	awk '{ s = $1; g = ""; if (s ~ /^-/) { g = "-"; s = substr(s, 2) }
	    o = ""; while (length(s) > 3) { o = "," substr(s, length(s) - 2) o
	    s = substr(s, 1, length(s) - 3) }
	    print (g == "" && $2 ? "+" : g) s o }'
}
na=$(under "$dir/workload-dwarf.folded" 'workload;ackermann')
nb=$(under "$dir/workload-fp.folded" 'workload;ackermann')
want="$(echo "$nb" | commas) $(echo "$((na - nb)) 1" | commas)"
got=$(q "$dir/workload-dwarf.folded" 'base=workload-fp.folded&normalize=0&cmd=tree&format=text' |
    awk '/^    ackermann / { print $6, $7; exit }')
[ "$got" = "$want" ] && ok "tree text: ackermann base and delta $want" ||
    not_ok "tree text: ackermann: got '$got', want '$want'"

# The func page (butterfly) of several functions, recursive quicksort
# among them: the function's row and every caller and callee row, with
# their base, total delta and self delta, against awk over the two
# folded files. A row counts a stack once, however often the call recurs
# in it; a caller or callee only one file has is a row with 0 on the
# other side.
bfly() {
	awk -v fn="$2" '{ c = $NF; s = substr($0, 1, length($0) - length(c) - 1)
	    k = split(s, f, /;/); f[0] = "<root>"; delete seen; in_ = 0
	    for (i = 1; i <= k; i++) {
		if (f[i] != fn)
			continue
		in_ = 1
		if (!(("r" f[i - 1]) in seen)) {
			seen["r" f[i - 1]] = 1; rt[f[i - 1]] += c }
		if (i < k && !(("e" f[i + 1]) in seen)) {
			seen["e" f[i + 1]] = 1; et[f[i + 1]] += c }
	    }
	    if (in_) ft += c
	    if (f[k] == fn) { fs += c; rs[f[k - 1]] += c }
	    if (k > 1 && f[k - 1] == fn) es[f[k]] += c }
	    END { printf "function:%s\t%d\t%d\n", fn, ft, fs
	    for (g in rt) printf "caller:%s\t%d\t%d\n", g, rt[g], rs[g]
	    for (h in et) printf "callee:%s\t%d\t%d\n", h, et[h], es[h] }' "$1" |
	    sort
}
for fn in main quicksort word_workload count_word gen_expr; do
	bfly "$dir/workload-dwarf.folded" "$fn" >"$tmp/a.rows"
	bfly "$dir/workload-fp.folded" "$fn" >"$tmp/b.rows"
	join -t '	' -a 1 -a 2 -e 0 -o 0,1.2,1.3,2.2,2.3 "$tmp/a.rows" \
	    "$tmp/b.rows" | awk -F '\t' '{ printf "%s\t%d\t%d\t%d\n", $1, $4,
	    $2 - $4, $3 - $5 }' | sort >"$tmp/want.rows"
	q "$dir/workload-dwarf.folded" \
	    "base=workload-fp.folded&normalize=0&cmd=func&func=$fn&limit=100000&format=json" |
	    jq -r '(.function | "function:\(.name)\t\(.diff.total.base)\t\(.diff.total.delta)\t\(.diff.self.delta)"),
	    (.callers[] | "caller:\(.name)\t\(.diff.total.base)\t\(.diff.total.delta)\t\(.diff.self.delta)"),
	    (.callees[] | "callee:\(.name)\t\(.diff.total.base)\t\(.diff.total.delta)\t\(.diff.self.delta)")' |
	    sort >"$tmp/got.rows"
	if cmp -s "$tmp/want.rows" "$tmp/got.rows" &&
	    [ "$(wc -l <"$tmp/want.rows")" -gt 2 ]; then
		ok "func page: $fn and its $(($(wc -l <"$tmp/want.rows") - 1)) caller and callee rows"
	else
		not_ok "func page: $fn"
		diff "$tmp/want.rows" "$tmp/got.rows" | head | sed 's/^/# /'
	fi
done
# Rows only one side has, explicitly: quicksort calls partition only in
# the DWARF-unwound file, count_word's caller main only in the other.
got=$(q "$dir/workload-dwarf.folded" \
    'base=workload-fp.folded&cmd=func&func=quicksort&format=json' |
    jq -r '.callees[] | select(.name == "partition") | .diff.total |
    "\(.base) \(.value > 0) \(.ratio)"')
[ "$got" = "0 true null" ] && ok "func page: an added callee has base 0" ||
    not_ok "func page: added callee partition: $got"
got=$(q "$dir/workload-dwarf.folded" \
    'base=workload-fp.folded&cmd=func&func=count_word&format=json' |
    jq -r '.callers[] | select(.name == "main") | .diff.total |
    "\(.value) \(.base > 0) \(.delta == -.base)"')
[ "$got" = "0 true true" ] && ok "func page: a removed caller has value 0" ||
    not_ok "func page: removed caller main: $got"

# The modules list: per-module base sums partition the base as the self
# values partition each profile, so they add up to the comparison's
# totals; sort=delta ranks by the delta of the module's total.
cp "$corpus/v8/many-functions.cpuprofile" \
    "$corpus/v8/many-functions-100us.cpuprofile" "$dir/"
q "$dir/many-functions-100us.cpuprofile" \
    'base=many-functions.cpuprofile&normalize=0&cmd=modules&sort=delta&limit=100000&format=json' \
    >"$tmp/modules.json"
got=$(jq -r '[([.rows[].diff.self.value] | add), ([.rows[].diff.self.base] | add),
    ([.rows[].diff.self.delta] | add)] == [.comparison.value, .comparison.base,
    .comparison.delta]' "$tmp/modules.json")
[ "$got" = true ] && ok "modules: module sums add up to both totals" ||
    not_ok "modules: module sums do not add up"
jq -r '.rows[].diff.total.delta' "$tmp/modules.json" >"$tmp/sorted"
sort -rn "$tmp/sorted" | cmp -s - "$tmp/sorted" && [ -s "$tmp/sorted" ] &&
    ok "modules sort=delta orders by the delta of the total" ||
    not_ok "modules sort=delta orders by the delta of the total"

# The clique page: the clique's and each member's base values are the
# base profile's own (its clique page and its top), for a one-member
# clique (quicksort) and a three-member one (parse_expr).
for fn in quicksort parse_expr; do
	idb=$(q "$dir/workload-dwarf.folded" "cmd=func&func=$fn&format=json" |
	    jq .function.clique)
	want=$(q "$dir/workload-dwarf.folded" \
	    "cmd=clique&clique=$idb&limit=1000&format=json" |
	    jq -c '[.clique.total.samples, ([.members[] | [.name,
	    .total.samples]] | sort)]')
	idm=$(q "$dir/workload-fp.folded" \
	    "base=workload-dwarf.folded&cmd=func&func=$fn&format=json" |
	    jq .function.clique)
	got=$(q "$dir/workload-fp.folded" \
	    "base=workload-dwarf.folded&normalize=0&cmd=clique&clique=$idm&limit=1000&format=json" |
	    jq -c '[.clique.diff.total.base, ([.members[] | [.name,
	    .diff.total.base]] | sort)]')
	[ -n "$want" ] && [ "$want" = "$got" ] &&
	    ok "clique page of $fn: base values are the base profile's ($want)" ||
	    not_ok "clique page of $fn: $got, want $want"
done

# Every page with comparison columns stays valid HTML5, and shows them.
for c in 'cmd=top' 'cmd=tree' 'cmd=modules' 'cmd=modules&sort=ratio' \
    'cmd=module&module=node:fs' 'cmd=func&func=resolve' \
    'cmd=func&func=runVM&sort=delta' 'cmd=callers&func=runVM&by=site' \
    'cmd=clique&clique=CLIQUE'; do
	c=$(printf '%s' "$c" | sed "s/CLIQUE/$(q "$dir/many-functions-100us.cpuprofile" \
	    'base=many-functions.cpuprofile&cmd=cliques&format=json' |
	    jq '.rows[0].id // 0')/")
	q "$dir/many-functions-100us.cpuprofile" \
	    "base=many-functions.cpuprofile&$c" >"$tmp/out.html"
	if tidy -q -e "$tmp/out.html" >"$tmp/tidy" 2>&1 &&
	    [ ! -s "$tmp/tidy" ] && grep -q '>Ratio<' "$tmp/out.html"; then
		ok "HTML of $c with base=: valid, with the comparison columns"
	else
		not_ok "HTML of $c with base="
		head -5 "$tmp/tidy" | sed 's/^/# /'
	fi
done

# base= stays under the root, as file= does.
for bad in ../x /etc/passwd 'sub/../../x'; do
	enc=$(printf '%s' "$bad" | jq -sRr @uri)
	status=$(q "$dir/diff-new.folded" "base=$enc&format=json" 2>&1 >/dev/null |
	    sed -n 's/.*: \([0-9][0-9][0-9]\): .*/\1/p')
	[ "$status" = 403 ] && ok "base=$bad refused (403)" ||
	    not_ok "base=$bad: status $status"
done
status=$(q "$dir/diff-new.folded" "base=nothere.folded&format=json" 2>&1 >/dev/null |
    sed -n 's/.*: \([0-9][0-9][0-9]\): .*/\1/p')
[ "$status" = 404 ] && ok "missing base 404" || not_ok "missing base: $status"

# The regression gate of deepq(1) and the README, as documented.
cd "$dir"
rc=0
"$DEEPQ" query --local --fail-on-growth 10 diff-new.folded \
    'base=diff-old.folded&cmd=top&min=5&format=json' >/dev/null 2>"$tmp/gate" ||
    rc=$?
[ $rc = 3 ] && grep -q 'total grew by 75.00%' "$tmp/gate" &&
    grep -q 'add grew by 100.00%' "$tmp/gate" &&
    ok "gate: fails (status 3) and names what grew" ||
    not_ok "gate: status $rc, $(cat "$tmp/gate")"
check "gate: a function new since the base is said to be new, no inf%" \
    sh -c "grep -q 'mul is new: 8, none in the base' '$tmp/gate' &&
    ! grep -q 'inf%' '$tmp/gate'"
"$DEEPQ" query --local --fail-on-growth 10 diff-old.folded \
    'base=diff-old.folded&cmd=top&min=5&format=json' >/dev/null 2>&1 &&
    ok "gate: passes without growth" || not_ok "gate: passes without growth"
# The gate compares raw totals; normalize=1, asked for, is kept: the
# totals are then equal and only the shares that grew are named.
rc=0
"$DEEPQ" query --local --fail-on-growth 10 diff-new.folded \
    'base=diff-old.folded&normalize=1&cmd=top&min=5&format=json' \
    >/dev/null 2>"$tmp/gate" || rc=$?
[ $rc = 3 ] && ! grep -q 'total grew' "$tmp/gate" &&
    grep -q 'add grew by 14.29%' "$tmp/gate" &&
    ok "gate: normalize=1 kept when asked for" ||
    not_ok "gate: normalize=1: status $rc, $(cat "$tmp/gate")"
cd - >/dev/null

done_testing

#!/bin/sh
# speedscope's own importer opens deepq's speedscope exports: its page
# from the speedscope npm package (tests/speedscope, npm ci there) in the
# system's headless Chromium (playwright-core from tests/browser), driven
# by tests/speedscope/open.mjs. Each profile's total weight speedscope
# lists, and each function's total and self in its sandwich view of the
# first profile, equal deepq's (to speedscope's two decimals).
. "${0%/*}/../lib.sh"

: "${CHROMIUM:=/usr/bin/chromium}"
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
[ -x "$CHROMIUM" ] || skip_all "no Chromium at $CHROMIUM"
pw=$top_srcdir/tests/browser/node_modules/playwright-core
[ -d "$pw" ] || pw=${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core
[ -d "$pw" ] || skip_all "playwright-core missing (cd tests/browser && npm ci)"
release=$top_srcdir/tests/speedscope/node_modules/speedscope/dist/release
# make distcheck's tree has no node_modules: setup.sh names the source's.
[ -f "$release/index.html" ] ||
    release=${DEEPQ_SPEEDSCOPE_MODULES:-/nonexistent}/speedscope/dist/release
[ -f "$release/index.html" ] ||
    skip_all "speedscope missing (cd tests/speedscope && npm ci)"
data=$top_srcdir/tests/data

# scale UNIT: what one deepq unit is in speedscope's base unit (ns, bytes).
scale() {
	case $1 in
	ns) echo 1 ;; us) echo 1000 ;; ms) echo 1000000 ;; s) echo 1000000000 ;;
	*) echo 1 ;;
	esac
}

# Speedscope's figures ("540.00ms (96%)", "606.00 KB", "1,164") in its
# base unit, with the half-unit of their last digit as the tolerance.
parse='function val(s,   n, u, m, d) {
	sub(/ \(.*$/, "", s); gsub(/,/, "", s)
	n = s; sub(/[^0-9.].*$/, "", n)
	u = s; sub(/^[0-9.]+ ?/, "", u)
	m = -1
	if (u == "" || u == "B" || u == "ns") m = 1
	else if (u == "KB") m = 1024
	else if (u == "MB") m = 1048576
	else if (u == "GB") m = 1073741824
	else if (u == "µs" || u == "us") m = 1e3
	else if (u == "ms") m = 1e6
	else if (u == "s") m = 1e9
	else if (u == "min") m = 6e10
	d = index(n, ".") ? length(n) - index(n, ".") : 0
	tol = 0.5 * m / (10 ^ d)
	return m < 0 ? "nan" : n * m
}'

i=0
for f in pprof/cpu.pb pprof/heap.pb.gz v8-small.cpuprofile tezos.trace \
    small.perf example.callgrind cliques.folded; do
	i=$((i + 1))
	"$DEEPQ" convert --to speedscope "$data/$f" "$tmp/$i.json"
	echo "$f" >"$tmp/$i.name"
done
HOME=$tmp timeout 300 node "$top_srcdir/tests/speedscope/open.mjs" \
    "$CHROMIUM" "$pw" "$release" "$tmp"/[0-9]*.json >"$tmp/shown" \
    2>"$tmp/err" || :
[ -s "$tmp/shown" ] || { sed 's/^/# /' "$tmp/err" | head -20; }

j=0
while [ "$j" -lt "$i" ]; do
	j=$((j + 1))
	f=$(cat "$tmp/$j.name")
	"$DEEPQ" query --local "$data/$f" 'format=json' >"$tmp/menu.json"
	m0=$(jq -r '.metrics[0].name' "$tmp/menu.json")
	if grep -q "^$tmp/$j.json	error" "$tmp/shown" ||
	    ! grep -q "^$tmp/$j.json	" "$tmp/shown"; then
		not_ok "$f: speedscope shows nothing"
		continue
	fi
	# Totals per profile (listed when there are several).
	jq -r '.metrics[] | "\(.name)\t\(.unit)"' "$tmp/menu.json" |
	    while IFS='	' read -r m u; do
		printf '%s\t%s\t%s\n' "$m" "$(scale "$u")" \
		    "$(jq -r --arg m "$m" '.totals[$m]' "$tmp/menu.json")"
	    done >"$tmp/want"
	bad=$(awk -F'\t' -v file="$tmp/$j.json" "$parse"'
	    FNR == NR { scale[$1] = $2; want[$1] = $3; next }
	    $1 == file && $2 == "profile" { n++
		v = val($4)
		if (v == "nan" || (v - want[$3] * scale[$3]) ^ 2 > tol ^ 2 + 1e-9)
			print $3 ": " $4 " for " want[$3] }
	    END { if (n == 0) print "-" }' "$tmp/want" "$tmp/shown")
	case $bad in
	-) ;;
	"") ok "$f: speedscope's profile totals are deepq's" ;;
	*) not_ok "$f: speedscope's profile totals differ"
	   echo "$bad" | sed 's/^/# /' ;;
	esac
	# Functions of metric 0, where names are unique.
	"$DEEPQ" query --local "$data/$f" \
	    "cmd=top&format=json&limit=1000000&metric=$m0" >"$tmp/rows.json"
	[ "$(jq '[.rows[].name] | length == (unique | length)' \
	    "$tmp/rows.json")" = true ] || continue
	sc=$(scale "$(jq -r '.unit' "$tmp/rows.json")")
	jq -r --arg m "$m0" '.rows[] | "\(.name)\t\(.total[$m])\t\(.self[$m])"' \
	    "$tmp/rows.json" >"$tmp/want"
	bad=$(awk -F'\t' -v file="$tmp/$j.json" -v sc="$sc" "$parse"'
	    FNR == NR { t[$1] = $2 * sc; s[$1] = $3 * sc; next }
	    $1 == file && $2 == "func" { n++
		if (!($3 in t)) { print $3 ": not in deepq"; next }
		v = val($4); if ((v - t[$3]) ^ 2 > tol ^ 2 + 1e-9)
			print $3 ": total " $4 " for " t[$3]
		v = val($5); if ((v - s[$3]) ^ 2 > tol ^ 2 + 1e-9)
			print $3 ": self " $5 " for " s[$3] }
	    END { if (n == 0) print "no function rows" }' "$tmp/want" \
	    "$tmp/shown")
	if [ -z "$bad" ]; then
		ok "$f: speedscope's sandwich totals and selfs of $m0 are deepq's ($(grep -c "^$tmp/$j.json	func" "$tmp/shown") functions)"
	else
		not_ok "$f: speedscope's sandwich differs from deepq"
		echo "$bad" | head -10 | sed 's/^/# /'
	fi
done
done_testing

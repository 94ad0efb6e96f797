#!/bin/sh
# The gprof reader against gprof's own figures: on files gprof made
# (tests/data/gprof-workload*.txt, made by the script beside them, and
# the corpus', tests/data/corpus.tar.xz), every function's self time, total
# (self + children) and calls from other functions equal its primary
# line in the call graph, read here by awk; the callers of every
# function equal the caller lines of its entry (calls, self + children);
# without a call graph, self times equal the flat profile's, summed over
# its lines (-l).
. "${0%/*}/../lib.sh"
command -v jq >/dev/null || skip_all "jq is not installed"
tab=$(printf '\t')

# graph_rows < gprof output: "name<TAB>self us<TAB>total us<TAB>calls"
# per primary line; callers_rows: "callee<TAB>caller<TAB>calls<TAB>us"
# per caller line with times (calls= numerator).
graph_awk='
function us(s) { return sprintf("%.0f", s * 1000000) }
function nm(s) {
	sub(/[ \t]*\[[0-9]+\][ \t]*$/, "", s)
	sub(/[ \t]*<cycle [0-9]+>$/, "", s)
	return s
}
/^index % time/ { graph = 1; n = 0; next }
graph && (/^$/ || /^\f/ || /^Index by function name/) { graph = 0; next }
!graph { next }
/^-----/ { n = 0; after = 0; next }
/^\[[0-9]+\]/ {
	if ($0 ~ /as a whole>/) { n = 0; skip = 1; next }
	skip = 0
	called = 0; k = 5
	if ($5 ~ /^[0-9+]+$/) { called = $5; sub(/\+.*/, "", called); k = 6 }
	name = $0
	for (i = 1; i < k; i++) sub(/^[ \t]*[^ \t]+/, "", name)
	name = nm(name); sub(/^[ \t]+/, "", name)
	if (mode == "funcs")
		print name "\t" us($3) "\t" us($3 + $4) "\t" called
	for (i = 1; i <= n; i++)
		if (mode == "callers")
			print name "\t" pend[i]
	n = 0; after = 1
	next
}
{
	if (after) next
	if ($1 ~ /\./) {
		c = $3; sub(/\/.*/, "", c)
		rest = $0
		for (i = 1; i <= 3; i++) sub(/^[ \t]*[^ \t]+/, "", rest)
		sub(/^[ \t]+/, "", rest)
		pend[++n] = nm(rest) "\t" c "\t" us($1 + $2)
	} else if ($1 ~ /^[0-9]+$/) {
		rest = $0; sub(/^[ \t]*[^ \t]+/, "", rest); sub(/^[ \t]+/, "", rest)
		pend[++n] = nm(rest) "\t" $1 "\t0"
	}
}
'

files="$top_srcdir/tests/data/gprof-workload.txt
$top_srcdir/tests/data/gprof-workload-q.txt
$top_srcdir/tests/data/gprof-workload-lines.txt"
need_corpus
files="$files
$(ls "$corpus"/gprof/*.txt)"

echo "$files" >"$tmp/files"
while read -r f; do
	name=${f##*/}
	"$DEEPQ" query --local "$f" 'cmd=top&limit=100000&format=json' \
	    >"$tmp/top.json" 2>"$tmp/err" || { not_ok "$name: loads"
		sed 's/^/# /' "$tmp/err"; continue; }
	if ! grep -q '^index % time' "$f"; then
		# The flat profile only, by line (-l) or not.
		awk '/^ time /{ flat = 1; next } flat && NF == 0 { flat = 0 }
			flat && NF >= 4 { name = $0
			if (name ~ /[ \t]+[0-9]+[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]/)
				for (i = 1; i <= 6; i++)
					sub(/^[ \t]*[^ \t]+/, "", name)
			else
				for (i = 1; i <= 3; i++)
					sub(/^[ \t]*[^ \t]+/, "", name)
			sub(/^[ \t]+/, "", name)
			sub(/ \([^()]* @ [0-9a-f]+\)$/, "", name)
			s[name] += $3 }
			END { for (k in s) printf "%s\t%.0f\n", k, s[k] * 1000000 }' \
		    "$f" | sort >"$tmp/want"
		jq -r '.rows[] | [.name, .self.time] | @tsv' "$tmp/top.json" |
		    sort >"$tmp/got"
		n=$(wc -l <"$tmp/want")
		if [ "$n" -ge 10 ] && cmp -s "$tmp/want" "$tmp/got"; then
			ok "$name: self time of all $n functions equals the flat profile's"
		else
			not_ok "$name: self times differ from the flat profile's"
			diff "$tmp/want" "$tmp/got" | head | sed 's/^/# /'
		fi
		continue
	fi
	awk -v mode=funcs "$graph_awk" "$f" | sort >"$tmp/want"
	jq -r '.rows[] | select(.total.time > 0 or .calls > 0) |
	    [.name, .self.time, .total.time, .calls] | @tsv' "$tmp/top.json" |
	    sort >"$tmp/got"
	awk -F'\t' '$3 > 0 || $4 > 0' "$tmp/want" >"$tmp/want2"
	n=$(wc -l <"$tmp/want2")
	if [ "$n" -ge 10 ] && cmp -s "$tmp/want2" "$tmp/got"; then
		ok "$name: self, self + children and calls of all $n functions equal gprof's"
	else
		not_ok "$name: function figures differ from gprof's ($n)"
		diff "$tmp/want2" "$tmp/got" | head | sed 's/^/# /'
	fi
	awk -v mode=callers "$graph_awk" "$f" | sort >"$tmp/callers"
	bad=0 nf=0
	for fn in $(cut -f1 "$tmp/callers" | sort -u); do
		nf=$((nf + 1))
		awk -F'\t' -v fn="$fn" '$1 == fn { print $2 "\t" $3 "\t" $4 }' \
		    "$tmp/callers" | sort >"$tmp/want.rows"
		"$DEEPQ" query --local "$f" \
		    "cmd=callers&func=$fn&limit=1000&format=json" |
		    jq -r '.rows[] | [.name, .calls, .total.time] | @tsv' |
		    sort >"$tmp/got.rows"
		if ! cmp -s "$tmp/want.rows" "$tmp/got.rows"; then
			bad=$((bad + 1))
			echo "# callers of $fn:"
			diff "$tmp/want.rows" "$tmp/got.rows" | head -5 |
			    sed 's/^/# /'
		fi
	done
	if [ "$nf" -ge 10 ] && [ "$bad" -eq 0 ]; then
		ok "$name: the callers of all $nf called functions equal gprof's caller lines"
	else
		not_ok "$name: callers of $bad of $nf functions differ"
	fi
done <"$tmp/files"
# The cycle gprof found is a clique of its members.
check "gprof-workload.txt: gprof's cycle is a recursive clique" sh -c \
    "'$DEEPQ' query --local '$top_srcdir/tests/data/gprof-workload.txt' \
    'cmd=func&func=parse_expr&format=json' | grep -q '\"recursive\":true'"
done_testing

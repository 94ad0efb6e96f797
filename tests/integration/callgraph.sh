#!/bin/sh
# Call-graph profiles: every function-level figure comes from the call
# graph and equals the peers'. On real callgrind files of large programs,
# CPython encoding JSON (tests/data/cpython-json.callgrind.gz, made by
# the script beside it) and gcc's compiler cc1 compiling one of our
# sources (made here with --dump-instr=yes --collect-jumps=yes): every
# function's self cost equals callgrind_annotate's, every function that
# is not a recursion level (f'2) has callgrind_annotate --inclusive=yes's
# inclusive cost, every function's calls and the callers and callees of
# the functions with the most of them equal the call lists read from the
# file by callgraph-edges.awk; with --separate-callers=2, a function's
# contexts add up to it; the tree says it is estimated and a file cut in
# half is refused.
. "${0%/*}/../lib.sh"
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
    skip_all "valgrind is not installed"
command -v jq >/dev/null || skip_all "jq is not installed"
cc1=$(gcc -print-prog-name=cc1 2>/dev/null) && [ -x "$cc1" ] ||
    skip_all "gcc's cc1 is not installed"

dump=$top_builddir/tests/unit/folded-dump
edges=$top_srcdir/tests/integration/callgraph-edges.awk
tab=$(printf '\t')

gunzip -c "$top_srcdir/tests/data/cpython-json.callgrind.gz" \
    >"$tmp/cpython.callgrind"
gcc -E -I"$top_builddir" -I"$top_srcdir/common" -I"$top_srcdir/engine" "$top_srcdir/engine/scc.c" \
    >"$tmp/scc.i"
valgrind -q --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --callgrind-out-file="$tmp/cc1.callgrind" \
    "$cc1" -fpreprocessed -quiet -O0 "$tmp/scc.i" -o "$tmp/scc.s"

# annotate_rows < callgrind_annotate output: "file:function<TAB>cost"
# per function row (the first event), without separators.
annotate_rows() {
	awk '
	/^-+$/ { dash++; next }
	/ file:function$/ { body = 1; next }
	body && /^$/ { body = 0; next }
	body && dash >= 4 {
		line = $0
		gsub(/\([ 0-9.]*%\)/, "", line)
		sub(/^ +/, "", line)
		v = line
		sub(/ .*/, "", v)
		sub(/^[^ ]+ +/, "", line)
		gsub(/,/, "", v)
		if (v == ".")
			v = 0
		sub(/ \[[^]]*\]$/, "", line)
		print line "\t" v
	}'
}

# Our names of static functions told apart by file, "f (file)", lose
# the file again, as callgrind names them.
strip='function strip(name, file,    suf) {
	suf = " (" file ")"
	if (substr(name, length(name) - length(suf) + 1) == suf)
		return substr(name, 1, length(name) - length(suf))
	return name
}'

for name in cpython cc1; do
	f=$tmp/$name.callgrind
	"$dump" -F "$f" >"$tmp/funcs"
	awk -F'\t' "$strip"'NR > 1 && $1 != "<root>" {
		print strip($1, $3) "\t" $2 "\t" $3 "\t" $5 "\t" $6 }' \
	    "$tmp/funcs" >"$tmp/ours"

	# Self: callgrind_annotate keys a function by file:function, with
	# inlined parts (fi=, fe=) under their own file; summed by name.
	callgrind_annotate --inclusive=no --threshold=100 "$f" |
	    annotate_rows | awk -F'\t' '{ fn = $1; sub(/^[^:]*:/, "", fn)
		s[fn] += $2 } END { for (k in s) printf "%s\t%.0f\n", k, s[k] }' |
	    sort >"$tmp/ann.self"
	awk -F'\t' '{ s[$1] += $4 } END { for (k in s)
		printf "%s\t%.0f\n", k, s[k] }' "$tmp/ours" | sort >"$tmp/our.self"
	n=$(wc -l <"$tmp/ann.self")
	if [ "$n" -gt 1000 ] && cmp -s "$tmp/ann.self" "$tmp/our.self"; then
		ok "$name: self cost of all $n functions equals callgrind_annotate's"
	else
		not_ok "$name: self costs differ from callgrind_annotate's ($n)"
		diff "$tmp/ann.self" "$tmp/our.self" | head -10 | sed 's/^/# /'
	fi

	# Inclusive, by file:function summed over objects as it does, every
	# function but the recursion levels.
	callgrind_annotate --inclusive=yes --threshold=100 "$f" |
	    annotate_rows | awk -F'\t' -v q="'" '
		$1 !~ q "[0-9]+$" { s[$1] += $2 }
		END { for (k in s) printf "%s\t%.0f\n", k, s[k] }' |
	    sort >"$tmp/ann.incl"
	awk -F'\t' '{ s[$3 ":" $1] += $5 } END { for (k in s)
		printf "%s\t%.0f\n", k, s[k] }' "$tmp/ours" | sort >"$tmp/our.incl"
	join -t "$tab" "$tmp/ann.incl" "$tmp/our.incl" >"$tmp/incl"
	n=$(wc -l <"$tmp/incl")
	# Every function of ours is there; what callgrind_annotate has
	# besides are the inlined parts of functions under their own files.
	nours=$(awk -F'\t' -v q="'" '$1 !~ q "[0-9]+$"' "$tmp/our.incl" |
	    wc -l)
	bad=$(awk -F'\t' '$2 != $3 { bad++; print "# " $0 >"/dev/stderr" }
		END { print bad + 0 }' "$tmp/incl" 2>"$tmp/diff")
	if [ "$n" -gt 1000 ] && [ "$n" -eq "$nours" ] && [ "$bad" -eq 0 ]; then
		ok "$name: inclusive cost of all $n functions outside recursion levels equals callgrind_annotate --inclusive=yes's"
	else
		not_ok "$name: inclusive: $bad of $n differ ($nours ours)"
		head -10 "$tmp/diff"
	fi

	# The call edges, read from the file independently; functions by
	# name and object, those our names tell apart by file left out.
	awk -f "$edges" "$f" >"$tmp/edges"
	awk -F'\t' '{ n[$1 "\t" $2]++ } END { for (k in n) if (n[k] == 1)
		print k }' "$tmp/ours" | sort >"$tmp/unique"
	awk -F'\t' '$1 != $3 || $2 != $4 { c[$3 "\t" $4] += $5 }
		END { for (k in c) print k "\t" c[k] }' "$tmp/edges" |
	    sort >"$tmp/edge.calls"
	"$DEEPQ" query --local "$f" 'cmd=top&limit=1000000&format=json' |
	    jq -r '.rows[] | [.name, .file, .module, .calls] | @tsv' |
	    awk -F'\t' "$strip"'$4 > 0 { print strip($1, $2) "\t" $3 "\t" $4 }' |
	    sort >"$tmp/our.calls"
	awk -F'\t' 'NR == FNR { u[$1 "\t" $2] = 1; next }
		($1 "\t" $2) in u' "$tmp/unique" "$tmp/edge.calls" \
	    >"$tmp/want.calls"
	awk -F'\t' 'NR == FNR { u[$1 "\t" $2] = 1; next }
		($1 "\t" $2) in u' "$tmp/unique" "$tmp/our.calls" \
	    >"$tmp/got.calls"
	n=$(wc -l <"$tmp/want.calls")
	if [ "$n" -gt 1000 ] && cmp -s "$tmp/want.calls" "$tmp/got.calls"; then
		ok "$name: calls into all $n called functions equal the file's calls= lines"
	else
		not_ok "$name: calls into functions differ from the file's"
		diff "$tmp/want.calls" "$tmp/got.calls" | head -10 |
		    sed 's/^/# /'
	fi

	# Callers and callees of the three functions with the most of each
	# (recursion levels aside), rows merged by name and object.
	for side in callers callees; do
		if [ "$side" = callers ]; then me=3 them=1; else me=1 them=3; fi
		awk -F'\t' -v me="$me" -v q="'" 'NR == FNR { u[$1 "\t" $2] = 1
			next }
			(($me "\t" $(me + 1)) in u) && $me !~ q "[0-9]+$" {
			n[$me "\t" $(me + 1)]++ }
			END { for (k in n) print n[k] "\t" k }' \
		    "$tmp/unique" "$tmp/edges" | sort -t "$tab" -k1,1nr -k2 |
		    head -3 >"$tmp/pick"
		while IFS=$tab read -r count fn obj; do
			awk -F'\t' -v me="$me" -v them="$them" -v fn="$fn" \
			    -v obj="$obj" '$me == fn && $(me + 1) == obj {
				print $them "\t" $(them + 1) "\t" $5 "\t" $6 }' \
			    "$tmp/edges" | sort >"$tmp/want.rows"
			id=$(awk -F'\t' -v fn="$fn" -v obj="$obj" \
			    'NR > 1 && $2 == obj && $1 == fn { print NR - 2 }' \
			    "$tmp/funcs" | head -1)
			if [ "$side" = callers ]; then
				q="cmd=callers&func=$id&limit=100000&format=json"
				sel=.rows
			else
				q="cmd=func&func=$id&limit=100000&format=json"
				sel=.callees
			fi
			"$DEEPQ" query --local "$f" "$q" | jq -r "$sel"'[] |
			    [.name, .file, .module, .calls, .total.Ir] | @tsv' |
			    awk -F'\t' "$strip"'{ k = strip($1, $2) "\t" $3
				c[k] += $4; s[k] += $5 }
				END { for (k in c) printf "%s\t%d\t%.0f\n", k,
				c[k], s[k] }' | sort >"$tmp/got.rows"
			if [ "$count" -ge 5 ] &&
			    cmp -s "$tmp/want.rows" "$tmp/got.rows"; then
				ok "$name: the $count $side of $fn, their calls and inclusive costs, equal the file's"
			else
				not_ok "$name: $side of $fn ($id) differ from the file's"
				diff "$tmp/want.rows" "$tmp/got.rows" | head -10 |
				    sed 's/^/# /'
			fi
		done <"$tmp/pick"
	done
done

# --separate-callers=2: a function's contexts ("f'caller'caller2") are
# one function again, whose self and inclusive costs are the sums of
# callgrind_annotate's for its contexts (by file:function, recursion
# levels aside).
gcc -O0 -o "$tmp/workload" "$top_srcdir/tests/data/gprof-workload.c"
valgrind -q --tool=callgrind --separate-callers=2 \
    --callgrind-out-file="$tmp/sep.callgrind" "$tmp/workload" 1 >/dev/null
"$dump" -F "$tmp/sep.callgrind" >"$tmp/funcs"
check "separate-callers: no function name keeps a context" sh -c \
    "! awk -F'\t' 'NR > 1 && \$1 ~ /\047[^0-9]/' '$tmp/funcs' | grep -q ."
for kind in no yes; do
	callgrind_annotate --inclusive=$kind --threshold=100 \
	    "$tmp/sep.callgrind" | annotate_rows | awk -F'\t' -v q="'" \
	    -v kind=$kind '{
		fn = $1; file = $1; sub(/:[^:]*$/, "", file); sub(/^.*:/, "", fn)
		if (fn ~ q "[0-9]+($|" q ")") next
		sub(q ".*", "", fn)
		# Self: inlined parts (fi=, fe=) summed by name, as above.
		s[(kind == "no" ? "" : file) ":" fn] += $2 }
		END { for (k in s) printf "%s\t%.0f\n", k, s[k] }' |
	    sort >"$tmp/ann"
	col=$([ $kind = no ] && echo 5 || echo 6)
	awk -F'\t' -v c="$col" -v q="'" -v kind=$kind "$strip"'NR > 1 &&
	    $1 != "<root>" && index($1, q) == 0 {
		s[(kind == "no" ? "" : $3) ":" strip($1, $3)] += $c }
		END { for (k in s) printf "%s\t%.0f\n", k, s[k] }' \
	    "$tmp/funcs" | sort >"$tmp/ours"
	join -t "$tab" "$tmp/ann" "$tmp/ours" >"$tmp/both"
	n=$(wc -l <"$tmp/both")
	bad=$(awk -F'\t' '$2 != $3' "$tmp/both" | wc -l)
	if [ "$n" -gt 100 ] && [ "$n" -eq "$(wc -l <"$tmp/ours")" ] &&
	    [ "$bad" -eq 0 ]; then
		ok "separate-callers: inclusive=$kind costs of all $n functions are the sums of callgrind_annotate's for their contexts"
	else
		not_ok "separate-callers: inclusive=$kind: $bad of $n differ"
		awk -F'\t' '$2 != $3' "$tmp/both" | head | sed 's/^/# /'
	fi
done

# Context views are marked estimated, function reports are not.
f=$tmp/cpython.callgrind
check "cpython: the tree is marked estimated" sh -c \
    "'$DEEPQ' query --local '$f' 'cmd=tree&format=json' |
    grep -q '\"estimated\":true'"
check "cpython: the tree page says so first" sh -c \
    "'$DEEPQ' query --local '$f' 'cmd=tree&format=text' | sed -n 4p |
    grep -q '^Estimated: '"
check "cpython: top is not estimated" sh -c \
    "! '$DEEPQ' query --local '$f' 'cmd=top&format=json' |
    grep -q '\"estimated\"'"

# A file cut in half says so instead of giving the rest to the root.
lines=$(wc -l <"$f")
head -n $((lines / 2)) "$f" >"$tmp/half.callgrind"
if "$DEEPQ" query --local "$tmp/half.callgrind" format=json \
    >/dev/null 2>"$tmp/err"; then
	not_ok "cpython: a file cut in half is refused"
else
	check "cpython: a file cut in half is refused: $(cat "$tmp/err")" \
	    grep -q 'cut short' "$tmp/err"
fi
done_testing

#!/bin/sh
# The callgrind reader on the corpus' real callgrind files, against
# callgrind's own figures: the grand totals equal the file's summary: and
# totals: lines, every function's self cost in every event equals
# callgrind_annotate's, and the inclusive costs of functions outside
# recursion (callgrind names recursion levels f'2, f'3...) equal those of
# the *.annotate.txt made with callgrind_annotate --inclusive=yes.
. "${0%/*}/../lib.sh"
need_corpus
command -v callgrind_annotate >/dev/null ||
    skip_all "callgrind_annotate (valgrind) is not installed"

dump=$top_builddir/tests/unit/folded-dump
tab=$(printf '\t')

# annotate_rows NEVENTS < callgrind_annotate output: one line per
# function row, "file:function<TAB>object<TAB>cost<TAB>cost...", with "."
# as 0 and without thousands separators and percentages.
annotate_rows() {
	awk -v nev="$1" '
	/^-+$/ { dash++; next }
	/ file:function$/ { body = 1; next }
	body && /^$/ { body = 0; next }
	body && dash >= 4 {
		line = $0
		gsub(/\([ 0-9.]*%\)/, "", line)
		out = ""
		for (i = 1; i <= nev; i++) {
			sub(/^ +/, "", line)
			v = line
			sub(/ .*/, "", v)
			sub(/^[^ ]+/, "", line)
			gsub(/,/, "", v)
			if (v == ".")
				v = 0
			out = out "\t" v
		}
		sub(/^ +/, "", line)
		obj = ""
		if (match(line, / \[[^]]*\]$/)) {
			obj = substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, 1, RSTART - 1)
		}
		print line "\t" obj out
	}'
}

for f in "$corpus"/callgrind/callgrind.out.*; do
	case $f in *.annotate.txt) continue ;; esac
	name=${f##*/}
	events=$(sed -n 's/^events: *//p' "$f")
	nev=$(echo "$events" | awk '{ print NF }')
	summary=$(sed -n 's/^summary: *//p' "$f")
	totals=$(sed -n 's/^totals: *//p' "$f")

	# Menu totals: every event a metric, each equal to the summary.
	want=$(echo "$events|$summary" | awk -F'|' '{
		n = split($1, e, " "); split($2, v, " ")
		s = "\"totals\":{"
		for (i = 1; i <= n; i++)
			s = s (i > 1 ? "," : "") "\"" e[i] "\":" v[i]
		print s "}" }')
	"$DEEPQ" query --local "$f" format=json >"$tmp/menu" 2>"$tmp/err" || :
	if grep -q '"format":"callgrind"' "$tmp/menu" &&
	    grep -qF "$want" "$tmp/menu"; then
		ok "$name: detected; totals equal summary: $summary"
	else
		not_ok "$name: menu totals, want $want"
		sed 's/^/# /' "$tmp/menu" "$tmp/err"
	fi
	program=$(sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS$/\1/p' \
	    "$f.annotate.txt" | tr -d ,)
	check "$name: Ir total equals callgrind_annotate's PROGRAM TOTALS ($program)" \
	    grep -q "\"totals\":{\"Ir\":$program[,}]" "$tmp/menu"

	# Functions' self costs add up to totals: (the root holds the rest
	# of summary:).
	"$dump" -F "$f" >"$tmp/funcs"
	got=$(awk -F'\t' -v nev="$nev" 'NR > 1 && $1 != "<root>" {
		for (i = 1; i <= nev; i++) s[i] += $(4 + i) }
		END { for (i = 1; i <= nev; i++)
			printf "%s%.0f", (i > 1 ? " " : ""), s[i]; print "" }' \
	    "$tmp/funcs")
	if [ "$got" = "$totals" ]; then
		ok "$name: functions' self costs sum to totals: $totals"
	else
		not_ok "$name: functions' self costs sum to $got, totals: $totals"
	fi

	# Self costs against callgrind_annotate, every event. It keys a
	# function by file:name, inlined parts (fi=) under their own file,
	# so both sides are summed by function name; our names of static
	# functions told apart by file lose their " (file)" again.
	callgrind_annotate --inclusive=no --threshold=100 "$f" |
	    annotate_rows "$nev" | awk -F'\t' -v nev="$nev" '{
		fn = $1; sub(/^[^:]*:/, "", fn)
		for (i = 1; i <= nev; i++) s[fn, i] += $(2 + i); n[fn] = 1 }
		END { for (fn in n) { printf "%s", fn
			for (i = 1; i <= nev; i++) printf "\t%.0f", s[fn, i]
			printf "\n" } }' | sort >"$tmp/ann.self"
	awk -F'\t' -v nev="$nev" 'NR > 1 && $1 != "<root>" {
		fn = $1; suf = " (" $3 ")"
		if (substr(fn, length(fn) - length(suf) + 1) == suf)
			fn = substr(fn, 1, length(fn) - length(suf))
		for (i = 1; i <= nev; i++) s[fn, i] += $(4 + i); n[fn] = 1 }
		END { for (fn in n) { printf "%s", fn
			for (i = 1; i <= nev; i++) printf "\t%.0f", s[fn, i]
			printf "\n" } }' "$tmp/funcs" | sort >"$tmp/our.self"
	n=$(wc -l <"$tmp/ann.self")
	bad=$(awk -F'\t' 'NR == FNR { a[$1] = $0; next }
		($1 in a) { seen++; if (a[$1] != $0) { bad++
			print "# annotate: " a[$1] > "/dev/stderr"
			print "# deepq:    " $0 > "/dev/stderr" } }
		END { print bad + 0 }' \
	    "$tmp/ann.self" "$tmp/our.self" 2>"$tmp/diff")
	missing=$(cut -f1 "$tmp/ann.self" | sort >"$tmp/a"; cut -f1 \
	    "$tmp/our.self" | sort >"$tmp/b"; comm -23 "$tmp/a" "$tmp/b" |
	    wc -l)
	if [ "$n" -gt 100 ] && [ "$bad" -eq 0 ] && [ "$missing" -eq 0 ]; then
		ok "$name: self costs of all $n functions equal callgrind_annotate's ($nev events)"
	else
		not_ok "$name: self costs: $bad differ, $missing missing of $n"
		head -20 "$tmp/diff"
	fi

	# Inclusive costs against the corpus' callgrind_annotate
	# --inclusive=yes output, keyed by file:function as it does (summed
	# over objects), outside recursion levels: exactly (they come from
	# the call graph, not the tree).
	annotate_rows "$nev" <"$f.annotate.txt" |
	    awk -F'\t' -v q="'" 'index($1, q) == 0 { print $1 "\t" $3 }' |
	    sort >"$tmp/ann.incl"
	awk -F'\t' -v nev="$nev" 'NR > 1 && $1 != "<root>" {
		fn = $1; suf = " (" $3 ")"
		if (substr(fn, length(fn) - length(suf) + 1) == suf)
			fn = substr(fn, 1, length(fn) - length(suf))
		s[$3 ":" fn] += $(4 + nev + 1) }
		END { for (k in s) printf "%s\t%.0f\n", k, s[k] }' \
	    "$tmp/funcs" | sort >"$tmp/our.incl"
	join -t "$tab" "$tmp/ann.incl" "$tmp/our.incl" >"$tmp/incl"
	n=$(wc -l <"$tmp/incl")
	bad=$(awk -F'\t' '{ if ($3 != $2) { bad++
			print "# " $0 > "/dev/stderr" } }
		END { print bad + 0 }' "$tmp/incl" 2>"$tmp/diff")
	if [ "$n" -ge 10 ] && [ "$bad" -eq 0 ]; then
		ok "$name: inclusive costs of $n functions outside recursion equal callgrind_annotate's"
	else
		not_ok "$name: inclusive costs: $bad of $n differ"
		head -20 "$tmp/diff"
	fi
	sed -n 's/\t/ annotate /; s/\t/, deepq /; s/^/# /; /:main annotate/p' \
	    "$tmp/incl"
done

# Both corpus files are among the robustness inputs too (robust.sh).
done_testing

#!/bin/sh
# The pprof reader against `go tool pprof -top -nodefraction=0`: for each
# sample profile of tests/data/pprof and each of its sample types, the
# total and every function's flat and cum equal what pprof said
# (expected/*.top, made by mkprofiles.sh there). Gzipped and plain files
# load alike; labels become frames with the variant (a label filter with
# focus=); a truncated or
# corrupt file is refused.
. "${0%/*}/../lib.sh"
command -v jq >/dev/null || skip_all "no jq"
data=$top_srcdir/tests/data/pprof

# pprof_rows FILE: "name flat cum" per function of a -top output, units
# and pprof's " (inline)" mark taken off, sorted.
pprof_rows() {
	awk '/^ +flat +flat%/ { on = 1; next }
	    on { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
		sub(/ \(inline\)$/, "", name)
		f = $1; c = $4; sub(/[a-zA-Z]+$/, "", f); sub(/[a-zA-Z]+$/, "", c)
		print name, f, c }' "$1" | sort
}

# deepq_rows FILE METRIC: the same from deepq's top (functions with a
# value only: pprof drops the others).
deepq_rows() {
	"$DEEPQ" query --local "$1" "cmd=top&format=json&limit=1000000&metric=$2" |
	    jq -r --arg m "$2" '.rows[] | select(.self[$m] != 0 or
		.total[$m] != 0) | "\(.name) \(.self[$m]) \(.total[$m])"' | sort
}

for p in cpu heap; do
	for e in "$data/expected/$p".*.top; do
		type=$(sed -n 's/^Type: //p' "$e")
		total=$(sed -n 's/.* of \([-0-9]*\)[a-zA-Z]* total$/\1/p' "$e")
		for f in "$p.pb" "$p.pb.gz"; do
			got=$("$DEEPQ" query --local "$data/$f" \
			    "cmd=top&format=json&metric=$type&limit=1" |
			    jq -r .total)
			[ "$got" = "$total" ] &&
			    ok "$f $type: total $got as pprof's" ||
			    not_ok "$f $type: total $got, pprof's $total"
		done
		pprof_rows "$e" >"$tmp/want"
		deepq_rows "$data/$p.pb" "$type" >"$tmp/got"
		if cmp -s "$tmp/want" "$tmp/got"; then
			ok "$p $type: flat and cum of $(wc -l <"$tmp/want") functions as pprof's"
		else
			not_ok "$p $type: flat and cum differ from pprof's"
			diff "$tmp/want" "$tmp/got" | sed 's/^/# /' | head -20
		fi
	done
done

# The default metric is pprof's: the last sample type for Go's profiles.
"$DEEPQ" query --local "$data/cpu.pb" 'format=json' | jq -r '.metrics[0].name' \
    >"$tmp/m0"
check "cpu: metric 0 is cpu, pprof's default" grep -qx cpu "$tmp/m0"
"$DEEPQ" query --local "$data/heap.pb" 'format=json' | jq -r '.metrics[0].name' \
    >"$tmp/m0"
check "heap: metric 0 is inuse_space, pprof's default" grep -qx inuse_space "$tmp/m0"

# Inlined functions are frames of their own below their caller.
"$DEEPQ" query --local "$data/cpu.pb" 'cmd=callers&func=main.mix&format=json' \
    >"$tmp/callers.json"
check "cpu: main.mix, inlined, is called by main.inner, inlined too" \
    jq -e '[.rows[].name] | index("main.inner") != null' "$tmp/callers.json"

# Labels: frames below the root with the variant, none without.
"$DEEPQ" convert --reader pprof "$data/cpu.pb" - >"$tmp/plain.folded"
check "cpu: no label frames by default" sh -c "! grep -q '^phase:' '$tmp/plain.folded'"

# A label filter: the labels variant, then focus= on a label frame.
"$DEEPQ" convert --reader pprof --variant labels \
    --query 'focus=^phase:spin$' "$data/cpu.pb.gz" - >"$tmp/spin.folded"
got=$(awk '{ s += $NF } END { print s }' "$tmp/spin.folded")
want=$("$DEEPQ" query --local "$data/cpu.pb" \
    'cmd=top&format=json&limit=1000000' |
    jq -r '.rows[] | select(.name == "main.main.func1") | .total.cpu')
[ "$got" = "$want" ] &&
    ok "labels: phase:spin's samples add up to main.main.func1's $want ns" ||
    not_ok "labels: phase:spin's samples $got, main.main.func1's $want"
check "labels: every line of the filtered stacks starts at the label" sh -c \
    "! grep -v '^phase:spin;' '$tmp/spin.folded'"
check "an unknown variant word is refused" sh -c \
    "! '$DEEPQ' convert --reader pprof --variant nope '$data/cpu.pb' - 2>/dev/null"

# Refusals: cut short, bit-flipped, and not a profile at all.
head -c 600 "$data/heap.pb" >"$tmp/cut.pb"
check "a profile cut short is refused" sh -c \
    "! '$DEEPQ' query --local --reader pprof '$tmp/cut.pb' cmd=top 2>'$tmp/err'"
head -c 400 "$data/cpu.pb.gz" >"$tmp/cut.pb.gz"
check "a gzipped profile cut short is refused" sh -c \
    "! '$DEEPQ' query --local --reader pprof '$tmp/cut.pb.gz' cmd=top 2>'$tmp/err'"
check "... saying so" grep -q 'ends early\|not a valid\|truncated' "$tmp/err"
printf 'H\145llo, world\n' >"$tmp/text"
check "text starting with H is not detected as pprof" sh -c \
    "! '$DEEPQ' query --local '$tmp/text' cmd=top 2>'$tmp/err'"
done_testing

#!/bin/sh
# deepq against `go tool pprof' itself (golang-go): pprof run afresh on
# tests/data/pprof says what the committed expected/*.top say (which
# pprof.sh holds deepq's reader to), and every sample profile exported
# with `deepq convert --to pprof' (and cmd=pprof) opens in pprof with
# deepq's totals for each metric, and, where function names are unique,
# every function's flat and cum.
. "${0%/*}/../lib.sh"
command -v go >/dev/null || skip_all "no go (Debian: golang-go)"
command -v jq >/dev/null || skip_all "no jq"
data=$top_srcdir/tests/data
export GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" HOME="$tmp"

# The -unit that keeps pprof from rounding a deepq unit.
pprof_unit() {
	case $1 in
	ns|us|ms|s) echo "$1" ;;
	*) echo B ;;
	esac
}

for e in "$data"/pprof/expected/*.top; do
	n=${e##*/}
	p=${n%%.*}
	i=${n#*.}
	i=${i%.top}
	case $p in cpu) u=ns ;; *) u=B ;; esac
	go tool pprof -top -nodefraction=0 -nodecount=100000 -unit=$u \
	    -sample_index="$i" "$data/pprof/$p.pb" 2>/dev/null |
	    sed -n '/^Type:/p;/^Showing nodes/,$p' >"$tmp/top"
	if cmp -s "$e" "$tmp/top"; then
		ok "go tool pprof on $p.pb, sample_index=$i: as expected/$n"
	else
		not_ok "go tool pprof on $p.pb, sample_index=$i differs from expected/$n"
		diff "$e" "$tmp/top" | sed 's/^/# /' | head -10
	fi
done

# pprof_rows FILE: "name flat cum" per function of a -top output.
pprof_rows() {
	awk '/^ +flat +flat%/ { on = 1; next }
	    on { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
		sub(/ \(inline\)$/, "", name)
		f = $1; c = $4; sub(/[a-zA-Z]+$/, "", f); sub(/[a-zA-Z]+$/, "", c)
		print name, f, c }' "$1" | sort
}

for f in pprof/cpu.pb pprof/heap.pb.gz firefox.folded recursion.folded \
    cliques.folded example.callgrind small.perf tezos.trace \
    v8-small.cpuprofile ghc-small.prof clean.pgcl; do
	"$DEEPQ" convert --to pprof "$data/$f" "$tmp/out.pb.gz" 2>"$tmp/err" ||
	    { not_ok "$f: convert --to pprof: $(cat "$tmp/err")"; continue; }
	"$DEEPQ" query --local "$data/$f" 'format=json' >"$tmp/menu.json"
	jq -r '.metrics[] | "\(.name) \(.unit)"' "$tmp/menu.json" \
	    >"$tmp/metrics"
	while read -r m unit; do
		want=$(jq -r --arg m "$m" '.totals[$m]' "$tmp/menu.json")
		go tool pprof -top -nodefraction=0 -nodecount=100000 \
		    -unit="$(pprof_unit "$unit")" -sample_index="$m" \
		    "$tmp/out.pb.gz" >"$tmp/top" 2>/dev/null
		got=$(sed -n 's/.* of \([-0-9]*\)[a-zA-Z]* total$/\1/p' "$tmp/top")
		[ "$got" = "$want" ] &&
		    ok "$f -> pprof, $m: go tool pprof's total $got is deepq's" ||
		    not_ok "$f -> pprof, $m: go tool pprof's total $got, deepq's $want"
		"$DEEPQ" query --local "$data/$f" \
		    "cmd=top&format=json&limit=1000000&metric=$m" >"$tmp/rows.json"
		# pprof merges functions by name: compare where names are unique.
		[ "$(jq '[.rows[].name] | length == (unique | length)' \
		    "$tmp/rows.json")" = true ] || continue
		jq -r --arg m "$m" '.rows[] | select(.self[$m] != 0 or
		    .total[$m] != 0) | "\(.name) \(.self[$m]) \(.total[$m])"' \
		    "$tmp/rows.json" | sort >"$tmp/got"
		pprof_rows "$tmp/top" | grep -v '^<root> ' >"$tmp/want" || :
		if cmp -s "$tmp/want" "$tmp/got"; then
			ok "$f -> pprof, $m: flat and cum of $(wc -l <"$tmp/got") functions as deepq's"
		else
			not_ok "$f -> pprof, $m: flat and cum differ"
			diff "$tmp/want" "$tmp/got" | sed 's/^/# /' | head -10
		fi
	done <"$tmp/metrics"
done

# cmd=pprof answers the same bytes as convert, and pprof opens them.
"$DEEPQ" convert --to pprof "$data/pprof/heap.pb" "$tmp/convert.pb.gz"
"$DEEPQ" query --local "$data/pprof/heap.pb" 'cmd=pprof&format=pprof' \
    >"$tmp/query.pb.gz"
check "cmd=pprof&format=pprof is convert --to pprof's file" \
    cmp "$tmp/convert.pb.gz" "$tmp/query.pb.gz"
check "go tool pprof opens cmd=pprof's answer" \
    go tool pprof -top "$tmp/query.pb.gz"
"$DEEPQ" query --local "$data/pprof/heap.pb" \
    'cmd=pprof&format=pprof&metric=alloc_space' >"$tmp/alloc.pb.gz"
go tool pprof -top "$tmp/alloc.pb.gz" >"$tmp/top" 2>/dev/null
check "metric= is the exported profile's default sample type" \
    grep -q '^Type: alloc_space' "$tmp/top"

# Two functions of one id (tests/data/pprof/dup-func.sh): go tool pprof
# refuses the file, and so does deepq, rather than give the sample to one.
check "go tool pprof refuses duplicate function ids" sh -c \
    "go tool pprof -top '$data/pprof/dup-func.pb' 2>&1 | \
    grep -q 'multiple functions with same id'"
check "deepq refuses them too" sh -c \
    "! '$DEEPQ' query --local '$data/pprof/dup-func.pb' cmd=top \
    >/dev/null 2>'$tmp/err' && grep -q 'appears twice' '$tmp/err'"
done_testing

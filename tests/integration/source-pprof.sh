#!/bin/sh
# Costs by source line against `go tool pprof -list', line for line: the
# Go program tests/data/source/lines.go (recursion, an inlined function,
# costs on several lines of one function) built and run here writes an
# allocation profile whose values are exact (MemProfileRate = 1); for
# every main.* function and both sample types, every line's flat and cum
# equal pprof's. So do those of every function of the committed CPU
# profile tests/data/pprof/cpu.pb. The pprof export keeps the flat by
# line, and the page answers through a server as --local does.
. "${0%/*}/../lib.sh"
command -v go >/dev/null || skip_all "no go (Debian: golang-go)"
command -v jq >/dev/null || skip_all "no jq"
export GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" HOME="$tmp" \
    GO111MODULE=off GOFLAGS=

mkdir "$tmp/prog"
cp "$top_srcdir/tests/data/source/lines.go" "$tmp/prog/"
(cd "$tmp/prog" && go build -o lines lines.go && ./lines allocs.pb) ||
    { echo "Bail out! cannot build or run lines.go"; exit 1; }

# want PROFILE FUNC INDEX UNIT: "line flat cum" of pprof -list's rows
# (pprof lists the lines it finds the source of: $srcargs says where).
srcargs=
want() {
	# shellcheck disable=SC2086 # words
	go tool pprof -list "^$(echo "$2" | sed 's/\./\\./g')\$" $srcargs \
	    -unit="$4" -sample_index="$3" "$1" 2>/dev/null | awk '
	/^ROUTINE/ { on = 1; next }
	on && match($0, /^ *[^ ]+ +[^ ]+ +[0-9]+:/) {
		split(substr($0, 1, RLENGTH - 1), a, " ")
		if (a[1] == "." && a[2] == ".") next
		f = a[1]; c = a[2]
		sub(/[a-zA-Z]+$/, "", f); sub(/[a-zA-Z]+$/, "", c)
		if (f == ".") f = 0
		if (c == ".") c = 0
		print a[3], f, c
	}' | sort -n
}

# got PROFILE FUNC METRIC: the same of deepq's cmd=source.
got() {
	"$DEEPQ" query --local "$1" "cmd=source&func=$2&format=json" |
	    jq -r --arg m "$3" '.lines[] | select(.self[$m] != 0 or
	    .total[$m] != 0) | "\(.line) \(.self[$m]) \(.total[$m])"' |
	    sort -n
}

# compare PROFILE FUNC METRIC INDEX UNIT LABEL
compare() {
	want "$1" "$2" "$4" "$5" >"$tmp/want"
	got "$1" "$2" "$3" >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "$6 $2 $3: $(wc -l <"$tmp/want") lines' flat and cum as pprof -list's"
	else
		not_ok "$6 $2 $3: lines differ from pprof -list's"
		diff "$tmp/want" "$tmp/got" | head | sed 's/^/# /'
	fi
}

a=$tmp/prog/allocs.pb
for f in main.grow main.leaf main.twoLines main.main; do
	compare "$a" "$f" alloc_space alloc_space B lines.go
	compare "$a" "$f" alloc_objects alloc_objects count lines.go
done
"$DEEPQ" query --local "$a" 'cmd=source&func=main.grow&format=json&metric=alloc_space' \
    >"$tmp/grow.json"
check "grow's recursive call line counts each allocation once" \
    jq -e '[.lines[] | select(.line == 25)][0] | .calls[0].name ==
    "main.grow" and .total.alloc_space == .calls[0].total.alloc_space' \
    "$tmp/grow.json"

# The committed CPU profile: every function pprof lists lines for, its
# source (recorded where it was made) under tests/data/pprof.
cpu=$top_srcdir/tests/data/pprof/cpu.pb
rec=$("$DEEPQ" query --local "$cpu" 'cmd=source&func=main.fib&format=json' |
    jq -r '.func.file')
srcargs="-source_path=$top_srcdir/tests/data/pprof -trim_path=${rec%/*}"
"$DEEPQ" query --local "$cpu" 'cmd=top&format=json&limit=1000' |
    jq -r '.rows[].name' | grep '^main\.' >"$tmp/cpufuncs"
while read -r f; do
	compare "$cpu" "$f" cpu cpu ns cpu.pb
done <"$tmp/cpufuncs"

# The export: pprof -list on it shows deepq's flat by line.
srcargs=
"$DEEPQ" convert --to pprof "$a" "$tmp/export.pb.gz"
want "$tmp/export.pb.gz" main.twoLines alloc_space B |
    awk '{ print $1, $2 }' >"$tmp/want"
got "$a" main.twoLines alloc_space | awk '$2 != 0 { print $1, $2 }' \
    >"$tmp/got"
if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
	ok "the pprof export: pprof -list's flat by line is deepq's"
else
	not_ok "the pprof export's flat by line differs"
	diff "$tmp/want" "$tmp/got" | head | sed 's/^/# /'
fi
done_testing

#!/bin/sh
# callgrind-vs-annotate.sh [FILE...]: load throughput of the callgrind
# reader, side by side with callgrind_annotate on the same file in the
# same run.
#
# Without FILE, profiles are made here with valgrind (into a temporary
# directory, removed at the end): the corpus' workload.c built with gcc
# (--dump-instr=yes --collect-jumps=yes, a small file), gcc's own
# compiler cc1 compiling it (--cache-sim=yes --dump-instr=yes: thousands
# of functions, tens of MB), and CPython encoding and decoding JSON (the
# profile of tests/data/cpython-json.callgrind.sh: deep recursion levels
# and cycles). For each file it prints the size, the best of three
# `deepq query --local FILE cmd=top' (load, call graph, top functions as
# JSON) in MB/s, the best of three `callgrind_annotate --inclusive=yes
# FILE', and how many times faster deepq is.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
shared=${DEEPQ_SHARED:-$top/../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best3 REPEAT OUT COMMAND...: the least elapsed seconds of three runs
# of REPEAT runs each, divided by REPEAT (small files run many times, as
# time(1) counts hundredths); the peak RSS (KiB) goes to $tmp/rss.
best3() {
	rep=$1
	out=$2
	shift 2
	best=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$tmp/time" sh -c \
		    'n=$1; o=$2; shift 2; while [ "$n" -gt 0 ]; do
			"$@" >"$o"; n=$((n - 1)); done' sh "$rep" "$out" "$@"
		t=$(cut -d' ' -f1 "$tmp/time")
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
			cut -d' ' -f2 "$tmp/time" >"$tmp/rss"
		fi
	done
	echo "scale=4; $best / $rep" | bc
}

if [ $# -eq 0 ]; then
	src=$shared/corpus/src/c/workload.c
	[ -f "$src" ] || { echo "no $src (set DEEPQ_SHARED)" >&2; exit 1; }
	gcc -O2 -g -o "$tmp/workload" "$src"
	echo "profiling workload.c with callgrind ..." >&2
	valgrind -q --tool=callgrind --dump-instr=yes --collect-jumps=yes \
	    --callgrind-out-file="$tmp/workload.callgrind" \
	    "$tmp/workload" 1 >/dev/null
	echo "profiling cc1 compiling workload.c with callgrind ..." >&2
	valgrind -q --tool=callgrind --trace-children=yes --cache-sim=yes \
	    --dump-instr=yes --callgrind-out-file="$tmp/gcc.%p.callgrind" \
	    gcc -O2 -g -c -o "$tmp/workload.o" "$src" 2>/dev/null
	# The compiler proper writes the largest of gcc's profiles.
	cc1=$(ls -S "$tmp"/gcc.*.callgrind | head -1)
	mv "$cc1" "$tmp/cc1.callgrind"
	echo "profiling CPython with callgrind ..." >&2
	(cd "$tmp" && sh "$top/tests/data/cpython-json.callgrind.sh" \
	    cpython.callgrind && gunzip cpython.callgrind.gz)
	set -- "$tmp/workload.callgrind" "$tmp/cc1.callgrind" \
	    "$tmp/cpython.callgrind"
fi

for f in "$@"; do
	size=$(stat -c %s "$f")
	mb=$(echo "scale=2; $size / 1000000" | bc)
	# About a second's worth of runs for each tool.
	rep=$((2000000 / (size + 1) + 1))
	[ "$rep" -gt 50 ] && rep=50
	"$b/cli/deepq" query --local "$f" format=json >"$tmp/menu"
	t=$(best3 "$rep" "$tmp/top" "$b/cli/deepq" query --local "$f" \
	    'cmd=top&format=json')
	rss=$(cat "$tmp/rss")
	nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$tmp/menu")
	funcs=$(sed -n 's/.*"functions":\([0-9]*\).*/\1/p' "$tmp/menu")
	arep=$(((rep + 9) / 10))
	a=$(best3 "$arep" /dev/null callgrind_annotate --inclusive=yes "$f")
	echo "${f##*/}: $mb MB, $funcs functions, $nodes call nodes"
	echo "  deepq:              ${t}s, $(echo "scale=1; $size / 1000000 / $t" | bc) MB/s, peak RSS $((rss / 1024)) MiB"
	echo "  callgrind_annotate: ${a}s, $(echo "scale=1; $size / 1000000 / $a" | bc) MB/s"
	echo "  ratio: deepq is $(echo "scale=1; $a / $t" | bc) times as fast"
done

#!/bin/sh
# folded-throughput.sh [MB]: parse throughput of the folded reader.
#
# Generates a folded file of at least MB megabytes (default 120) with
# bench/genprof, in depth-first (sorted) order and shuffled, and times
# `deepq query --local FILE format=json' (load + menu) three times each.
# Prints MB/s of the best run, peak RSS, and bytes of RSS per call node.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
mb=${1:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for order in dfs random; do
	f=$tmp/$order.folded
	n=200000
	: >"$f"
	while [ "$(stat -c %s "$f")" -lt $((mb * 1000000)) ]; do
		n=$((n * 2))
		"$b/bench/genprof" -n "$n" -o "$order" >"$f"
	done
	size=$(stat -c %s "$f")
	best=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$tmp/time" \
		    "$b/cli/deepq" query --local "$f" format=json >"$tmp/menu"
		t=$(cut -d' ' -f1 "$tmp/time")
		rss=$(cut -d' ' -f2 "$tmp/time")
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
			bestrss=$rss
		fi
	done
	nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$tmp/menu")
	echo "$order: $(echo "scale=1; $size / 1000000" | bc) MB, $nodes nodes:" \
	    "$(echo "scale=1; $size / 1000000 / $best" | bc) MB/s" \
	    "(best of 3: ${best}s), peak RSS $((bestrss / 1024)) MiB," \
	    "$(echo "$bestrss * 1024 / $nodes" | bc) bytes/node"
done

#!/bin/sh
# perf-throughput.sh [MB]: load throughput of the perf script reader.
#
# Builds a file of at least MB megabytes (default 100) by repeating the
# corpus' real perf script outputs (frame-pointer and DWARF stacks of a C
# program, node with JIT and kernel frames), and times `deepq query
# --local FILE format=json' (load and menu), best of three.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
shared=${DEEPQ_SHARED:-$top/../shared}
mb=${1:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

f=$tmp/big.perf-script.txt
: >"$f"
while [ "$(stat -c %s "$f")" -lt $((mb * 1000000)) ]; do
	cat "$shared"/corpus/perf/*.perf-script.txt >>"$f"
done
size=$(stat -c %s "$f")
best=
for i in 1 2 3; do
	/usr/bin/time -f '%e %M' -o "$tmp/time" \
	    "$b/cli/deepq" query --local "$f" format=json >"$tmp/menu"
	t=$(cut -d' ' -f1 "$tmp/time")
	if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
		best=$t
		rss=$(cut -d' ' -f2 "$tmp/time")
	fi
done
samples=$(sed -n 's/.*"totals":{[^}]*"samples":\([0-9]*\).*/\1/p' "$tmp/menu")
nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$tmp/menu")
echo "perf script: $(echo "scale=1; $size / 1000000" | bc) MB, $samples samples, $nodes nodes:" \
    "$(echo "scale=1; $size / 1000000 / $best" | bc) MB/s" \
    "(best of 3: ${best}s), peak RSS $((rss / 1024)) MiB"

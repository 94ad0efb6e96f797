#!/bin/sh
# folded-throughput.sh [MB] [runs]: parse throughput of the folded reader.
#
# For the two shapes that bound it, wide (depth <= 3, ~57 bytes a line:
# nearly every line makes a call node, so the cost is per frame) and
# mixed (depth 40, long shared prefixes: the cost is per byte), in
# depth-first (sorted, as stackcollapse writes) and shuffled order,
# generates a folded file of at least MB megabytes (default 50) with
# bench/genprof and prints:
#  - the load alone, in process (bench/readbench: reader + builder, best
#    of runs, default 3): MB/s of wall time and MB/s of CPU time. On a
#    shared machine quote the CPU figure; wall time includes waiting for
#    a core (the load average is printed first);
#  - the peak RSS of `deepq query --local FILE cmd=menu' (load, then the
#    menu page) and its bytes per call node, with its user+sys time.
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
mb=${1:-50}
runs=${2:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-ft.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for shape in wide mixed; do
	for order in dfs random; do
		f=$tmp/$shape-$order.folded
		n=50000
		: >"$f"
		while [ "$(stat -c %s "$f")" -lt $((mb * 1000000)) ]; do
			n=$((n * 2))
			"$b/bench/genprof" -s "$shape" -n "$n" -o "$order" >"$f"
		done
		size=$(stat -c %s "$f")
		load=$("$b/bench/readbench" "$f" "$runs")
		wall=$(echo "$load" | sed -n 's/.* loads \([0-9.]*\) s,.*/\1/p')
		cpu=$(echo "$load" | sed -n 's/.*(CPU \([0-9.]*\) s,.*/\1/p')
		nodes=$(echo "$load" | sed -n 's/.* \([0-9]*\) nodes:.*/\1/p')
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
		    "$b/cli/deepq" query --local "$f" 'cmd=menu&format=json' \
		    >/dev/null
		read -r qe qu qs rss <"$tmp/time"
		printf '%-5s %-6s %6.1f MB %8d nodes: load %6.1f MB/s wall (%.3f s), %6.1f MB/s CPU (%.3f s); query --local peak %6.1f MiB = %4.1f B/node, %.2f s wall, %.2f s CPU\n' \
		    "$shape" "$order" "$(echo "$size / 1000000" | bc -l)" \
		    "$nodes" "$(echo "$size / 1000000 / $wall" | bc -l)" "$wall" \
		    "$(echo "$size / 1000000 / $cpu" | bc -l)" "$cpu" \
		    "$(echo "$rss / 1024" | bc -l)" \
		    "$(echo "$rss * 1024 / $nodes" | bc -l)" "$qe" \
		    "$(echo "$qu + $qs" | bc -l)"
		rm -f "$f"
	done
done

#!/bin/sh
# compressed-throughput.sh [MB] [runs]: the load of a compressed folded
# file against the same file plain, in one run.
#
# Generates a folded file of at least MB megabytes (default 50) for each
# of the shapes wide and mixed (bench/genprof), compresses it with zstd
# (default level 3), gzip (-6) and xz (-6), and loads each in process
# with bench/readbench (best of runs, default 3). MB/s count the
# decompressed bytes, so the figures compare directly; the ratio is the
# compressed load's speed over the plain file's (the target for zstd is
# at least 0.80). Both wall time and CPU time are given: on a shared
# machine the CPU figure is the steadier.
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
mb=${1:-50}
runs=${2:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-ct.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for tool in zstd gzip xz; do
	command -v $tool >/dev/null || { echo "$0: needs $tool" >&2; exit 1; }
done
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for shape in wide mixed; do
	f=$tmp/$shape.folded
	n=50000
	: >"$f"
	while [ "$(stat -c %s "$f")" -lt $((mb * 1000000)) ]; do
		n=$((n * 2))
		"$b/bench/genprof" -s "$shape" -n "$n" -o dfs >"$f"
	done
	size=$(stat -c %s "$f")
	zstd -q -c "$f" >"$f.zst"
	gzip -c "$f" >"$f.gz"
	xz -c "$f" >"$f.xz"
	pwall= pcpu=
	for kind in plain zstd gzip xz; do
		case $kind in
		plain)	g=$f ;;
		zstd)	g=$f.zst ;;
		gzip)	g=$f.gz ;;
		xz)	g=$f.xz ;;
		esac
		load=$("$b/bench/readbench" "$g" "$runs")
		wall=$(echo "$load" | sed -n 's/.* loads \([0-9.]*\) s,.*/\1/p')
		cpu=$(echo "$load" | sed -n 's/.*(CPU \([0-9.]*\) s,.*/\1/p')
		[ -n "$pwall" ] || { pwall=$wall; pcpu=$cpu; }
		printf '%-5s %-5s %7.1f MB (%6.1f MB on disk): %7.1f MB/s wall (ratio %.2f), %7.1f MB/s CPU (ratio %.2f)\n' \
		    "$shape" "$kind" "$(echo "$size / 1000000" | bc -l)" \
		    "$(echo "$(stat -c %s "$g") / 1000000" | bc -l)" \
		    "$(echo "$size / 1000000 / $wall" | bc -l)" \
		    "$(echo "$pwall / $wall" | bc -l)" \
		    "$(echo "$size / 1000000 / $cpu" | bc -l)" \
		    "$(echo "$pcpu / $cpu" | bc -l)"
	done
	rm -f "$f" "$f.zst" "$f.gz" "$f.xz"
done

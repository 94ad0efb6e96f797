#!/bin/sh
# compressed-throughput.sh [MB] [runs]: the load of a compressed folded
# file against the same file plain, in one run.
#
# Generates a folded file of at least MB megabytes (default 50) for each
# of the shapes wide, mixed and tails (bench/genprof), compresses it with
# zstd (default level 3), gzip (-6) and xz (-6), and loads each in
# process with bench/readbench (best of runs, default 3). MB/s count the
# decompressed bytes, so the figures compare directly; the ratio is the
# compressed load's speed over the plain file's (the target for zstd is
# at least 0.80). Both wall time and CPU time are given: on a shared
# machine the CPU figure is the steadier.
#
# gzip's load is also set against zlib's own speed on the same file,
# measured in the same run: `zcat FILE >/dev/null` (gzip's inflate) and,
# when python3 is there, zlib's inflate through Python's zlib module, in
# 1 MB reads (the best of runs each).
#
# With BASE naming another build's readbench (say, main's), each file is
# loaded by both in turn, and the base's wall ratio is printed beside.
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
mb=${1:-50}
runs=${2:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-ct.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for tool in zstd gzip xz zcat bc; do
	command -v $tool >/dev/null || { echo "$0: needs $tool" >&2; exit 1; }
done

# best_load READBENCH FILE: "wall cpu", the best of runs loads.
best_load() {
	out=$("$1" "$2" "$runs")
	echo "$(echo "$out" | sed -n 's/.* loads \([0-9.]*\) s,.*/\1/p')" \
	    "$(echo "$out" | sed -n 's/.*(CPU \([0-9.]*\) s,.*/\1/p')"
}

# best_time CMD...: the best wall seconds of runs runs of CMD.
best_time() {
	best=
	i=0
	while [ $i -lt "$runs" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
		fi
		i=$((i + 1))
	done
	echo "$best"
}

zlib_inflate() {
	python3 -c '
import sys, zlib
d = zlib.decompressobj(31)
with open(sys.argv[1], "rb") as f:
    while True:
        b = f.read(1 << 20)
        if not b:
            break
        while b:
            d.decompress(b, 1 << 20)
            b = d.unconsumed_tail
' "$1"
}

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ -z "${BASE:-}" ] || echo "BASE: $BASE"
for shape in wide mixed tails; do
	f=$tmp/$shape.folded
	n=50000
	: >"$f"
	while [ "$(stat -c %s "$f")" -lt $((mb * 1000000)) ]; do
		n=$((n * 2))
		case $shape in
		tails)	"$b/bench/genprof" -s tails -n "$n" >"$f" ;;
		*)	"$b/bench/genprof" -s "$shape" -n "$n" -o dfs >"$f" ;;
		esac
	done
	size=$(stat -c %s "$f")
	mbs=$(echo "scale=3; $size / 1000000" | bc)
	zstd -q -c "$f" >"$f.zst"
	gzip -c "$f" >"$f.gz"
	xz -c "$f" >"$f.xz"
	pwall= pcpu= bpwall=
	for kind in plain zstd gzip xz; do
		case $kind in
		plain)	g=$f ;;
		zstd)	g=$f.zst ;;
		gzip)	g=$f.gz ;;
		xz)	g=$f.xz ;;
		esac
		set -- $(best_load "$b/bench/readbench" "$g")
		wall=$1 cpu=$2
		[ -n "$pwall" ] || { pwall=$wall; pcpu=$cpu; }
		printf '%-5s %-5s %7.1f MB (%6.1f MB on disk): %7.1f MB/s wall (ratio %.2f), %7.1f MB/s CPU (ratio %.2f)' \
		    "$shape" "$kind" "$mbs" \
		    "$(echo "$(stat -c %s "$g") / 1000000" | bc -l)" \
		    "$(echo "$mbs / $wall" | bc -l)" \
		    "$(echo "$pwall / $wall" | bc -l)" \
		    "$(echo "$mbs / $cpu" | bc -l)" \
		    "$(echo "$pcpu / $cpu" | bc -l)"
		if [ -n "${BASE:-}" ]; then
			set -- $(best_load "$BASE" "$g")
			[ -n "$bpwall" ] || bpwall=$1
			printf '; BASE %7.1f MB/s wall (ratio %.2f)' \
			    "$(echo "$mbs / $1" | bc -l)" \
			    "$(echo "$bpwall / $1" | bc -l)"
		fi
		echo
		[ "$kind" = gzip ] || continue
		zc=$(best_time zcat "$g")
		printf '%-5s gzip  against zcat >/dev/null (%.1f MB/s): %.2f of its speed\n' \
		    "$shape" "$(echo "$mbs / $zc" | bc -l)" \
		    "$(echo "$zc / $wall" | bc -l)"
		if command -v python3 >/dev/null; then
			zl=$(best_time zlib_inflate "$g")
			printf '%-5s gzip  against zlib inflate alone (%.1f MB/s): %.2f of its speed\n' \
			    "$shape" "$(echo "$mbs / $zl" | bc -l)" \
			    "$(echo "$zl / $wall" | bc -l)"
		fi
	done
	rm -f "$f" "$f.zst" "$f.gz" "$f.xz"
done

#!/bin/sh
# readbench-ab.sh FILE ROUNDS READBENCH...: compare builds of the load on
# a shared machine. Runs each readbench binary (e.g. one built from main
# and one from a branch) on FILE in turn, ROUNDS times (each run is
# `readbench FILE 3`), so that every build sees the same load, and prints
# the best wall and best CPU time of each, then the load average. Quote
# the CPU time; wall time includes waiting for a core.
set -eu
LC_ALL=C
export LC_ALL
if [ $# -lt 3 ]; then
	echo "usage: readbench-ab.sh file rounds readbench..." >&2
	exit 1
fi
f=$1
rounds=$2
shift 2
i=0
while [ "$i" -lt "$rounds" ]; do
	for b in "$@"; do
		echo "$b $("$b" "$f" 3)"
	done
	i=$((i + 1))
done | awk -v size="$(stat -c %s "$f")" '
	{
		b = $1
		w = $0; sub(/.* loads /, "", w); split(w, a, " ")
		c = $0; sub(/.*\(CPU /, "", c); split(c, cc, " ")
		if (!(b in mw) || a[1] + 0 < mw[b]) mw[b] = a[1] + 0
		if (!(b in mc) || cc[1] + 0 < mc[b]) mc[b] = cc[1] + 0
		if (!(b in seen)) { seen[b] = 1; order[n++] = b }
	}
	END {
		for (i = 0; i < n; i++) {
			b = order[i]
			printf "%s: best wall %.3f s (%.1f MB/s), best CPU " \
			    "%.3f s (%.1f MB/s)\n", b, mw[b], size / 1e6 / mw[b],
			    mc[b], size / 1e6 / mc[b]
		}
	}'
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"

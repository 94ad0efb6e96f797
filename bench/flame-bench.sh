#!/bin/sh
# flame-bench.sh [MB]: flame graph SVG generation time on a folded input of
# at least MB megabytes (default 50), deepq against a peer.
#
# Generates the input with bench/genprof (depth-first order, the shape of
# stackcollapse output), then times, best of three:
#   deepq:  deepq query --local FILE 'cmd=flame&format=svg' (load, layout,
#           render: the whole job from the folded file to the SVG);
#   peer:   flamegraph.pl FILE (Brendan Gregg's FlameGraph), if one is
#           found: $FLAMEGRAPH_PL, or flamegraph.pl / flamegraph in PATH.
# Debian packages no flame graph generator (apt-cache search flamegraph
# finds none) and inferno needs crates.io, so the peer is whatever copy of
# flamegraph.pl the caller points FLAMEGRAPH_PL at; without one only
# deepq's figures are printed. Prints times, peak RSS, SVG sizes and
# frame counts, and the ratio peer/deepq.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
mb=${1:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

f=$tmp/in.folded
n=10000
: >"$f"
while [ "$(stat -c %s "$f")" -lt $((mb * 1000000)) ]; do
	n=$((n * 2))
	"$b/bench/genprof" -n "$n" -o dfs >"$f"
done
size=$(stat -c %s "$f")
echo "input: $(echo "scale=1; $size / 1000000" | bc) MB, $(wc -l <"$f") stacks"

# best NAME OUT CMD...: best of three wall times; sets best_t, best_rss.
best() {
	name=$1
	out=$2
	shift 2
	best_t=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$out" 2>"$tmp/err" ||
		    { echo "$name failed: $(tail -1 "$tmp/err")"; return 1; }
		t=$(cut -d' ' -f1 "$tmp/time")
		if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc)" = 1 ]; then
			best_t=$t
			best_rss=$(cut -d' ' -f2 "$tmp/time")
		fi
	done
	echo "$name: ${best_t}s (best of 3), peak RSS $((best_rss / 1024)) MiB," \
	    "SVG $(($(stat -c %s "$out") / 1024)) KiB, $(grep -c '<g' "$out") groups"
}

best deepq "$tmp/deepq.svg" "$b/cli/deepq" query --local "$f" 'cmd=flame&format=svg'
ours=$best_t
best "deepq (load only)" "$tmp/menu.json" "$b/cli/deepq" query --local "$f" format=json

peer=${FLAMEGRAPH_PL:-}
[ -n "$peer" ] || peer=$(command -v flamegraph.pl || command -v flamegraph || :)
if [ -z "$peer" ] || [ ! -f "$peer" ]; then
	echo "peer: none found (no Debian package provides flamegraph.pl;" \
	    "set FLAMEGRAPH_PL=/path/to/flamegraph.pl to compare)"
	exit 0
fi
best "flamegraph.pl" "$tmp/peer.svg" perl "$peer" "$f"
echo "ratio flamegraph.pl / deepq: $(echo "scale=1; $best_t / $ours" | bc)x"

#!/bin/sh
# pprof-load.sh [FILE...]: load throughput of the pprof reader, side by
# side with `go tool pprof -top' on the same file in the same run.
#
# Without FILE, one is made here (in a temporary directory, removed at the
# end): genprof's mixed profile of about NODES (default 1000000) call
# nodes, written as profile.proto by `deepq convert --to pprof' (a sample
# per call node, Go's own layout of one location per function), and
# gunzipped, so both tools parse the same protobuf bytes. For each file it
# prints the size, the best of three `deepq query --local FILE format=json'
# (load, tree, menu) in MB/s, the best of three `go tool pprof -top FILE',
# and the ratio of the two wall times.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
deepq=$b/cli/deepq
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOCACHE="$tmp/gocache" HOME="$tmp"

# best3 COMMAND...: the least elapsed seconds of three runs.
best3() {
	best=
	for i in 1 2 3; do
		/usr/bin/time -f '%e' -o "$tmp/time" "$@" >/dev/null 2>&1
		t=$(cat "$tmp/time")
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
		fi
	done
	echo "$best"
}

if [ $# -eq 0 ]; then
	echo "generating a pprof profile of ${NODES:-1000000} nodes ..." >&2
	"$b/bench/genprof" -n "${NODES:-1000000}" >"$tmp/gen.folded"
	"$deepq" convert --to pprof "$tmp/gen.folded" "$tmp/gen.pb.gz"
	gunzip -c "$tmp/gen.pb.gz" >"$tmp/gen.pb"
	set -- "$tmp/gen.pb"
fi

printf '%-12s %9s %10s %9s %11s %8s\n' file MB deepq_s MB/s pprof_s ratio
for f in "$@"; do
	mb=$(echo "scale=2; $(wc -c <"$f") / 1048576" | bc)
	d=$(best3 "$deepq" query --local "$f" format=json)
	p=$(best3 go tool pprof -top "$f")
	printf '%-12s %9s %10s %9s %11s %8s\n' "$(basename "$f")" "$mb" "$d" \
	    "$(echo "scale=1; $mb / $d" | bc)" "$p" \
	    "$(echo "scale=1; $p / $d" | bc)"
done

#!/bin/sh
# pprof-load.sh [FILE...]: load throughput of the pprof reader, side by
# side with `go tool pprof -top' on the same file in the same run.
#
# Without FILE, one is made here (in a temporary directory, removed at the
# end): genprof's mixed profile of about NODES (default 1000000) call
# nodes, written as profile.proto by `deepq convert --to pprof' (a sample
# per call node, Go's own layout of one location per function), and
# gunzipped, so both tools parse the same protobuf bytes. For each file it
# prints the size, the best of REPS (default 3) `deepq query --local FILE
# format=json' (load, tree, menu) in MB/s, the best of REPS `go tool pprof
# -top FILE', and the ratio of the two wall times; then the same for CPU
# time (user + system), which a busy machine disturbs less; then each
# one's peak RSS in MiB, deepq's also over the file's size (issue 34's
# target: at most 3 times the decompressed file).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
deepq=$b/cli/deepq
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOCACHE="$tmp/gocache" HOME="$tmp"

# best COMMAND...: the least elapsed seconds of REPS runs, the least CPU
# seconds (user + system) and the least peak RSS (KiB), separated by
# spaces.
best() {
	bw=
	bc=
	bm=
	i=0
	while [ "$i" -lt "${REPS:-3}" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" \
		    >/dev/null 2>&1
		read -r w u s m <"$tmp/time"
		c=$(echo "$u + $s" | bc)
		[ -n "$bw" ] && [ "$(echo "$w >= $bw" | bc)" = 1 ] || bw=$w
		[ -n "$bc" ] && [ "$(echo "$c >= $bc" | bc)" = 1 ] || bc=$c
		[ -n "$bm" ] && [ "$m" -ge "$bm" ] || bm=$m
		i=$((i + 1))
	done
	echo "$bw $bc $bm"
}

# div A B: A / B to one decimal, "-" when B is below time(1)'s 0.01 s.
div() {
	if [ "$(echo "$2 < 0.01" | bc)" = 1 ]; then
		echo -
	else
		echo "scale=1; $1 / $2" | bc
	fi
}

if [ $# -eq 0 ]; then
	echo "generating a pprof profile of ${NODES:-1000000} nodes ..." >&2
	"$b/bench/genprof" -n "${NODES:-1000000}" >"$tmp/gen.folded"
	"$deepq" convert --to pprof "$tmp/gen.folded" "$tmp/gen.pb.gz"
	gunzip -c "$tmp/gen.pb.gz" >"$tmp/gen.pb"
	set -- "$tmp/gen.pb"
fi

printf '%-12s %7s %8s %7s %8s %6s %8s %7s %8s %6s %7s %6s %7s\n' file MB \
    deepq_s MB/s pprof_s ratio deepq_cpu MB/s pprof_cpu ratio \
    rss_MiB RSS/f pprof_MiB
for f in "$@"; do
	mb=$(echo "scale=3; $(wc -c <"$f") / 1048576" | bc)
	set -- $(best "$deepq" query --local "$f" format=json)
	dw=$1 dc=$2 dm=$3
	set -- $(best go tool pprof -top "$f")
	pw=$1 pc=$2 pm=$3
	printf '%-12s %7s %8s %7s %8s %6s %8s %7s %8s %6s %7s %6s %7s\n' \
	    "$(basename "$f")" "$mb" "$dw" "$(div "$mb" "$dw")" \
	    "$pw" "$(div "$pw" "$dw")" \
	    "$dc" "$(div "$mb" "$dc")" \
	    "$pc" "$(div "$pc" "$dc")" \
	    $((dm / 1024)) "$(echo "scale=2; $dm / 1024 / $mb" | bc)" \
	    $((pm / 1024))
done

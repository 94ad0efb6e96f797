#!/bin/sh
# timeline-peer.sh [SECONDS] [FREQ] [RUNS]: the top functions of a time
# range of a real perf recording, against perf's own answer in the same
# run. Records tests/data/timeline/phases.c (two threads, two phases) for
# SECONDS (default 20) at FREQ Hz (default 4999) with perf record -g,
# writes its perf script text, then for three ranges (a tenth, a half,
# nine tenths of the recording) takes the CPU time (user + sys, best of
# RUNS, default 5) of:
#   perf report --time: the peer, reading perf.data
#     (perf report -i perf.data --stdio --no-children -g none --sort sym
#     --time A,B)
#   deepq cold: deepq query --local rec.perf 'cmd=top&range=...'
#     (reading the text as well)
#   deepq warm: the p50 of the server's answer, the profile loaded
#     (bench/pagebench -c: thread CPU)
# and prints the ratios perf/deepq. Run from a build directory:
#	sh bench/timeline-peer.sh 20 4999 5
set -eu
secs=${1:-20} freq=${2:-4999} runs=${3:-5}
src=$(cd "${0%/*}/.." && pwd)
bin=$(pwd)
deepq=$bin/cli/deepq
pagebench=$bin/bench/pagebench
[ -x "$deepq" ] && [ -x "$pagebench" ] ||
    { echo "run from a build directory (cli/deepq, bench/pagebench)" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timeline-peer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

${CC:-cc} -O0 -g -fno-omit-frame-pointer -pthread -o "$tmp/phases" \
    "$src/tests/data/timeline/phases.c"
perf record -q -e cpu-clock -F "$freq" -g -o "$tmp/perf.data" \
    "$tmp/phases" "$secs" >/dev/null 2>&1
perf script -F +pid -i "$tmp/perf.data" >"$tmp/rec.perf" 2>/dev/null
n=$(grep -c 'cpu-clock' "$tmp/rec.perf")
first=$(awk '/cpu-clock/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }' "$tmp/rec.perf")
dur=$("$deepq" query --local "$tmp/rec.perf" 'cmd=menu&format=json' |
    jq '.time.duration')
echo "# $n samples over $dur s, $(wc -c <"$tmp/rec.perf") bytes of perf script, perf.data $(wc -c <"$tmp/perf.data") bytes; load: $(uptime | sed 's/.*load/load/')"

# best CPU seconds (user + sys) of $runs runs of a command
cpu() {
	best=
	for _r in $(seq "$runs"); do
		/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1
		t=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/t")
		best=$(echo "$t $best" | awk '{ print ($2 == "" || $1 < $2) ? $1 : $2 }')
	done
	echo "$best"
}

printf '%-12s %10s %10s %10s %12s %12s\n' range "perf s" "cold s" \
    "warm ms" "perf/cold" "perf/warm"
for r in "0.45 0.55" "0.25 0.75" "0.05 0.95"; do
	set -- $r
	a=$(echo "$dur $1" | awk '{ printf "%.6f", $1 * $2 }')
	b=$(echo "$dur $2" | awk '{ printf "%.6f", $1 * $2 }')
	pa=$(echo "$first $a" | awk '{ printf "%.6f", $1 + $2 }')
	pb=$(echo "$first $b" | awk '{ printf "%.6f", $1 + $2 }')
	q="cmd=top&format=json&range=$a,$b"
	tp=$(cpu perf report -i "$tmp/perf.data" --stdio --no-children -g none \
	    --sort sym --time "$pa,$pb")
	tc=$(cpu "$deepq" query --local "$tmp/rec.perf" "$q")
	tw=$("$pagebench" -c -r 21 "$tmp/rec.perf" "$q" |
	    awk 'NR > 2 { print $4 }')
	printf '%-12s %10s %10s %10s %12s %12s\n' "$1-$2" "$tp" "$tc" "$tw" \
	    "$(echo "$tp $tc" | awk '{ printf "%.2f", $1 / $2 }')" \
	    "$(echo "$tp $tw" | awk '{ printf "%.0f", $1 * 1000 / $2 }')"
done

#!/bin/sh
# json-formats.sh [SCALE]: load throughput of the JSON readers (chrome,
# speedscope, gecko) on generated profiles (bench/gen-json.py, one random
# call tree written in every format; SCALE multiplies the samples), side
# by side in the same run with two peers on the same files: the V8
# reader on the same profile as a .cpuprofile (the JSON reader deepq had),
# and `jq length', a JSON parser alone (the floor of any reader that
# parses the whole document). Each figure is the best of bench/readbench's
# runs (in-process loads, CPU time) and of three jq runs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "generating the profiles ..." >&2
python3 "$top/bench/gen-json.py" "$tmp" "${1:-1}"

# cpu FILE: the best CPU seconds of readbench's loads.
cpu() {
	"$b/bench/readbench" "$1" 5 | sed -n 's/.*(CPU \([0-9.]*\) s,.*/\1/p'
}

# jqcpu FILE: the best user+system seconds of three `jq length'.
jqcpu() {
	best=
	for i in 1 2 3; do
		/usr/bin/time -f '%U %S' -o "$tmp/time" jq length "$1" >/dev/null
		t=$(awk '{ print $1 + $2 }' "$tmp/time")
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
		fi
	done
	echo "$best"
}

printf '%-24s %8s %9s %9s %10s %10s\n' file MB deepq-MB/s jq-MB/s \
    "vs jq" "vs v8"
for f in v8.cpuprofile chrome-samples.json chrome-events.json \
    speedscope-sampled.json speedscope-evented.json gecko.json \
    processed.json; do
	size=$(stat -c %s "$tmp/$f")
	t=$(cpu "$tmp/$f")
	j=$(jqcpu "$tmp/$f")
	mb=$(echo "scale=1; $size / 1000000 / $t" | bc)
	# The V8 reader, first in the list, is the baseline.
	v8mb=${v8mb:-$mb}
	jmb=$(echo "scale=1; $size / 1000000 / $j" | bc)
	printf '%-24s %8.1f %9s %9s %9.2fx %9.2fx\n' "$f" \
	    "$(echo "scale=1; $size / 1000000" | bc)" "$mb" "$jmb" \
	    "$(echo "scale=3; $mb / $jmb" | bc)" \
	    "$(echo "scale=3; $mb / $v8mb" | bc)"
done

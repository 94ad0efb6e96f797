#!/bin/sh
# json-parsers.sh [SCALE] [DIR]: the JSON parsers deepq could read its
# JSON profiles with, each parsing every value of the same generated
# files (bench/gen-json.py; SCALE multiplies the samples, default 1;
# DIR keeps the files, default a temporary directory): json-stream.c
# (bench/jsonscan stream: the tokenizer the readers use, 128 KB blocks),
# libyajl's SAX parser fed the same blocks (bench/jsonscan-yajl.c),
# simdjson's On-Demand API, which holds the whole padded file and its
# index (bench/jsonscan-simdjson.cc), and jansson's document tree
# (bench/jsonscan jansson, what the readers had). Prints each one's CPU
# MB/s and peak RSS over the file's size, best of RUNS (default 3) for
# the speed. The yajl and simdjson programs are built here with cc and
# c++ when their headers are installed (libyajl-dev, libsimdjson-dev),
# else left out.
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
scale=${1:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/json-parsers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dir=${2:-$tmp}
mkdir -p "$dir"
runs=${RUNS:-3}

scanners="stream"
if pkg-config --exists yajl 2>/dev/null &&
    cc -O2 -o "$tmp/yajl" "$top_srcdir/bench/jsonscan-yajl.c" \
    $(pkg-config --cflags --libs yajl) 2>"$tmp/err"; then
	scanners="$scanners yajl"
fi
if pkg-config --exists simdjson 2>/dev/null &&
    c++ -O2 -std=c++17 -o "$tmp/simdjson" \
    "$top_srcdir/bench/jsonscan-simdjson.cc" \
    $(pkg-config --cflags --libs simdjson) 2>"$tmp/err"; then
	scanners="$scanners simdjson"
fi
scanners="$scanners jansson"

[ -s "$dir/chrome-events.json" ] || {
	echo "generating the profiles (scale $scale) ..." >&2
	python3 "$top_srcdir/bench/gen-json.py" "$dir" "$scale"
}

# scan NAME FILE: "MB/s RSS/file" of NAME's best run.
scan() {
	best= rss=
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		case $1 in
		stream|jansson) "$top_builddir/bench/jsonscan" "$1" "$2" ;;
		*) "$tmp/$1" "$2" ;;
		esac >"$tmp/out" 2>&1 || { echo "- -"; return; }
		set -- "$1" "$2" $(sed -n 's/.*, \([0-9.]*\) MB\/s, peak RSS .* (\([0-9.]*\) x the file).*/\1 \2/p' "$tmp/out")
		if [ -z "$best" ] || [ "$(echo "$3 > $best" | bc)" = 1 ]; then
			best=$3
		fi
		rss=$4
		set -- "$1" "$2"
	done
	echo "$best $rss"
}

echo "== $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg);" \
    "CPU MB/s (best of $runs) and peak RSS / file size"
printf '%-24s %7s' file MB
for s in $scanners; do
	printf ' %16s' "$s"
done
echo
for f in chrome-events.json chrome-samples.json v8.cpuprofile \
    speedscope-sampled.json speedscope-evented.json gecko.json \
    processed.json; do
	printf '%-24s %7.1f' "$f" \
	    "$(echo "scale=1; $(wc -c <"$dir/$f") / 1000000" | bc)"
	for s in $scanners; do
		set -- $(scan "$s" "$dir/$f")
		printf ' %8s %6sx' "$1" "$2"
	done
	echo
done

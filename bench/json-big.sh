#!/bin/sh
# json-big.sh [MB...]: the JSON readers on big generated files, against
# peers on the same files in the same run (issue 34's table):
#
#	BASE=OLD/cli/deepq sh bench/json-big.sh 250
#	FORMATS=chrome sh bench/json-big.sh 25 100 250 1000	(growth)
#
# For each format of FORMATS (default chrome, speedscope-sampled,
# speedscope-evented, gecko; see bench/gen-big-json.py) and each size
# (MB, default 250) generates a file (kept in DIR if set) and loads it
# with `deepq query --local FILE format=json` (load and menu), with
# BASE's deepq if set (another build: main's jansson readers; only up to
# OLDMAX MB, default 400, as they need some 10 times the file), and with
# `jq length` (a JSON parser alone; up to JQMAX MB, default 400). Prints
# for each its wall and CPU (user + system) seconds, MB/s of CPU time
# (the figure to quote on a shared machine), peak RSS and RSS over the
# file's size, and the CPU ratios of deepq against BASE and jq. Best of
# RUNS (default 1) by wall time. With SPEEDSCOPE=1, also speedscope's
# own importer (its npm package, tests/speedscope, in headless
# Chromium; bench/speedscope-import.mjs) on each file up to SSMAX MB
# (default 1000), once: the seconds until its view shows the profile
# and the peak memory of the browser's processes, or why it failed
# (SSTIMEOUT seconds, default 600). Everything runs with glibc's malloc on
# huge pages, as deepq-server does (HUGETLB=0: without; see below).
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
deepq=$top_builddir/cli/deepq
formats=${FORMATS:-chrome speedscope-sampled speedscope-evented gecko}
runs=${RUNS:-1}
oldmax=${OLDMAX:-400}
jqmax=${JQMAX:-400}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/json-big.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
dir=${DIR:-$tmp}
mkdir -p "$dir"
[ $# -gt 0 ] || set -- 250
ssmax=${SSMAX:-1000}
if [ "${SPEEDSCOPE:-0}" = 1 ]; then
	nm=${DEEPQ_NODE_MODULES:-$top_srcdir/tests/browser/node_modules}
	pw=$nm/playwright-core
	nm=${DEEPQ_SPEEDSCOPE_MODULES:-$top_srcdir/tests/speedscope/node_modules}
	ssrel=$nm/speedscope/dist/release
	[ -d "$pw" ] && [ -f "$ssrel/index.html" ] || {
		echo "SPEEDSCOPE=1: npm ci in tests/browser and" \
		    "tests/speedscope first" >&2
		exit 1
	}
fi

# speedscope FILE: "SECONDS s, PEAK MiB" of speedscope's importer, or
# "failed after SECONDS s, PEAK MiB: WHY".
speedscope() {
	node "$top_srcdir/bench/speedscope-import.mjs" \
	    "${CHROMIUM:-/usr/bin/chromium}" "$pw" "$ssrel" \
	    "${SSTIMEOUT:-600}" "$1" 2>&1 | awk -F '\t' '
	    $2 == "ok" { printf "%s s, %s MiB\n", $3, $4; next }
	    $2 == "failed" {
		printf "failed after %s s, %s MiB: %s\n", $3, $4, $5; next }
	    { print "failed: " $0; exit }'
}

# measure CMD...: best of runs; sets wall, cpu, rss (KiB).
measure() {
	wall=
	for i in $(seq "$runs"); do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" \
		    >"$tmp/out" 2>"$tmp/err" || {
			echo "failed: $* ($(head -c 200 "$tmp/err"))" >&2
			wall=- cpu=- rss=0
			return
		}
		read -r t u s m <"$tmp/time"
		if [ -z "$wall" ] || [ "$(echo "$t < $wall" | bc)" = 1 ]; then
			wall=$t
			cpu=$(echo "$u + $s" | bc)
			rss=$m
		fi
	done
}

# fig: "cpu-s MB/s RSS/file" of the last measure.
fig() {
	if [ "$wall" = - ]; then
		echo "- - -"
		return
	fi
	printf '%.2f %.0f %.2fx' "$cpu" "$(echo "$size / 1000000 / $cpu" | bc -l)" \
	    "$(echo "$rss * 1024 / $size" | bc -l)"
}

# deepq-server runs with glibc's malloc on huge pages (client-spawn.c
# sets GLIBC_TUNABLES for it): so does every program measured here,
# deepq query --local, BASE and the peers alike; HUGETLB=0 runs them all
# without.
if [ "${HUGETLB:-1}" = 1 ]; then
	GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1}
	export GLIBC_TUNABLES
fi
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), GLIBC_TUNABLES=${GLIBC_TUNABLES:-}"
printf '%-19s %6s | %7s %7s %5s %6s %6s | %7s %5s %6s | %7s %5s %6s | %6s %6s\n' \
    format MB wall-s cpu-s MB/s MiB RSS/f old-cpu MB/s RSS/f jq-cpu \
    MB/s RSS/f vs-old vs-jq
for mb in "$@"; do
	for f in $formats; do
		file=$dir/$f-$mb.json
		[ -s "$file" ] || python3 "$top_srcdir/bench/gen-big-json.py" \
		    "$f" "$mb" >"$file" 2>/dev/null
		size=$(stat -c %s "$file")
		measure "$deepq" query --local "$file" format=json
		new=$(fig)
		nwall=$wall ncpu=$cpu nrss=$rss
		old="- - -" ocpu=-
		if [ -n "${BASE:-}" ] && [ "$mb" -le "$oldmax" ]; then
			measure "$BASE" query --local "$file" format=json
			old=$(fig)
			ocpu=$cpu
		fi
		jq="- - -" jcpu=-
		if [ "$mb" -le "$jqmax" ]; then
			measure jq length "$file"
			jq=$(fig)
			jcpu=$cpu
		fi
		vo=- vj=-
		[ "$ocpu" = - ] || vo=$(printf '%.1fx' "$(echo "$ocpu / $ncpu" | bc -l)")
		[ "$jcpu" = - ] || vj=$(printf '%.1fx' "$(echo "$jcpu / $ncpu" | bc -l)")
		# shellcheck disable=SC2086
		printf '%-19s %6.1f | %7s %7s %5s %6d %6s | %7s %5s %6s | %7s %5s %6s | %6s %6s\n' \
		    "$f" "$(echo "$size / 1000000" | bc -l)" "$nwall" \
		    $(echo "$new" | cut -d' ' -f1-2) "$((nrss / 1024))" \
		    "$(echo "$new" | cut -d' ' -f3)" $old $jq "$vo" "$vj"
		if [ "${SPEEDSCOPE:-0}" = 1 ] && [ "$mb" -le "$ssmax" ]; then
			echo "    speedscope's importer: $(speedscope "$file")"
		fi
		[ -n "${DIR:-}" ] || rm -f "$file"
	done
done

#!/bin/sh
# The folded load on the tails shape (bench/genprof -s tails: stacks 8-40
# frames deep over 20,000 names of ~30 bytes, sharing at most their first
# three frames), whole process, as a user runs it:
#
#	sh bench/tails.sh [dir]
#
# Generates (once; kept in dir, default $TMPDIR/deepq-tails) files of
# about 50 and 200 MB and prints, for each, the best of 3 (RUNS) of
# `deepq query --local FILE cmd=menu&format=json` (wall and CPU MB/s,
# target >= 250 MB/s on the 200 MB file), the peak RSS per call node
# (target <= 48 B), and the growth from 50 to 200 MB: the ratio of the
# times per MB (1.00 is linear; target no worse). With BASE naming
# another build's deepq (say, main's), each file is loaded by both in
# turn and the ratios of their best wall and CPU times are printed too.
# On a shared machine the wall time measures the others too: the CPU
# ratio is the steadier figure. The same for the deep shape of issue 34
# (`genprof -s tails -d 8:60 -l 20:40`: 8-60 frames over 20,000 names of
# 20-40 bytes, the worst folded shape per MB).
# Everything runs with glibc's malloc on huge pages, as deepq-server
# does (HUGETLB=0: without; see below).
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
dir=${1:-${TMPDIR:-/tmp}/deepq-tails}
gen=$top_builddir/bench/genprof
deepq=$top_builddir/cli/deepq
mkdir -p "$dir"
[ -s "$dir/tails-50.folded" ] ||
    "$gen" -s tails -n 1625000 >"$dir/tails-50.folded"
[ -s "$dir/tails-200.folded" ] ||
    "$gen" -s tails -n 6500000 >"$dir/tails-200.folded"
[ -s "$dir/deep-50.folded" ] ||
    "$gen" -s tails -d 8:60 -l 20:40 -n 1625000 >"$dir/deep-50.folded"
[ -s "$dir/deep-200.folded" ] ||
    "$gen" -s tails -d 8:60 -l 20:40 -n 6500000 >"$dir/deep-200.folded"

# deepq-server runs with glibc's malloc on huge pages (client-spawn.c
# sets GLIBC_TUNABLES for it): so does every program measured here,
# deepq query --local, BASE and the peers alike; HUGETLB=0 runs them all
# without.
if [ "${HUGETLB:-1}" = 1 ]; then
	GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1}
	export GLIBC_TUNABLES
fi
echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), GLIBC_TUNABLES=${GLIBC_TUNABLES:-}"
echo "== tails shape: deepq query --local FILE 'cmd=menu&format=json'," \
    "best of ${RUNS:-3} (target >= 250 MB/s, <= 48 B/node)"
runs=${RUNS:-3}
for f in tails-50 tails-200 deep-50 deep-200; do
	bytes=$(wc -c <"$dir/$f.folded")
	best= cpu= bbest= bcpu=
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$deepq" query \
		    --local "$dir/$f.folded" 'cmd=menu&format=json' >"$dir/menu"
		set -- $(tail -1 "$dir/time")
		c=$(echo "$2 + $3" | bc)
		if [ -z "$best" ] || [ "$(echo "$1 < $best" | bc)" = 1 ]; then
			best=$1 kib=$4
		fi
		if [ -z "$cpu" ] || [ "$(echo "$c < $cpu" | bc)" = 1 ]; then
			cpu=$c
		fi
		[ -n "${BASE:-}" ] || continue
		/usr/bin/time -f '%e %U %S' -o "$dir/time" "$BASE" query \
		    --local "$dir/$f.folded" 'cmd=menu&format=json' >/dev/null
		set -- $(tail -1 "$dir/time")
		c=$(echo "$2 + $3" | bc)
		if [ -z "$bbest" ] || [ "$(echo "$1 < $bbest" | bc)" = 1 ]; then
			bbest=$1
		fi
		if [ -z "$bcpu" ] || [ "$(echo "$c < $bcpu" | bc)" = 1 ]; then
			bcpu=$c
		fi
	done
	nodes=$(sed -n 's/.*"nodes": *\([0-9]*\).*/\1/p' "$dir/menu")
	mb=$(echo "scale=1; $bytes / 1000000" | bc)
	echo "$f: $mb MB, $nodes nodes: best $best s," \
	    "$(echo "scale=0; $mb / $best" | bc) MB/s wall; best CPU $cpu s" \
	    "($(echo "scale=0; $mb / $cpu" | bc) MB/s), peak" \
	    "$(( kib * 1024 / nodes )) B/node"
	[ -z "$bcpu" ] || echo "$f: BASE best $bbest s wall, $bcpu s CPU;" \
	    "this build $best s, $cpu s: x$(echo "scale=2; $bbest / $best" |
	    bc) wall, x$(echo "scale=2; $bcpu / $cpu" | bc) CPU as fast"
	# Seconds per MB, wall and CPU, for the growth line.
	eval "w_${f%-*}_${f#*-}=\$(echo \"scale=6; \$best / \$mb\" | bc)"
	eval "c_${f%-*}_${f#*-}=\$(echo \"scale=6; \$cpu / \$mb\" | bc)"
done
for s in tails deep; do
	eval "w50=\$w_${s}_50 w200=\$w_${s}_200 c50=\$c_${s}_50 c200=\$c_${s}_200"
	w=$(echo "scale=2; $w200 / $w50" | bc)
	c=$(echo "scale=2; $c200 / $c50" | bc)
	echo "$s growth 50 -> 200 MB: time per MB x$w wall, x$c CPU" \
	    "(1.00 = linear)"
done

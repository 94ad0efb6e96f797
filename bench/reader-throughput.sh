#!/bin/sh
# reader-throughput.sh [-n RUNS] FILE...: load throughput of the readers.
# Each FILE is loaded RUNS times (default 5) with `deepq query --local FILE
# format=json' (read, build, menu answer); the best wall and the best CPU
# time each give MB/s. Needs /usr/bin/time (Debian package time).
# With -b, a larger V8 profile is also made from the first .cpuprofile
# given: its real nodes, with its samples and timeDeltas repeated until
# the file passes 20 MB (a valid profile: the same tree sampled longer).
set -eu
: "${DEEPQ:=$(cd "${0%/*}/.." && pwd)/cli/deepq}"
runs=5
big=0
while getopts bn: c; do
	case $c in
	b) big=1 ;;
	n) runs=$OPTARG ;;
	*) echo "usage: reader-throughput.sh [-b] [-n runs] file ..." >&2
	   exit 1 ;;
	esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$big" = 1 ]; then
	for f in "$@"; do
		case $f in *.cpuprofile) src=$f; break ;; esac
	done
	if [ -n "${src:-}" ]; then
		flat=$(tr -d '\n' <"$src")
		s=$(printf '%s' "$flat" | sed 's/.*"samples":\[\([^]]*\)\].*/\1/')
		d=$(printf '%s' "$flat" | sed 's/.*"timeDeltas":\[\([^]]*\)\].*/\1/')
		head=$(printf '%s' "$flat" | sed 's/"samples":\[.*//')
		k=$((20 * 1024 * 1024 / (${#s} + ${#d} + 2) + 1))
		{
			printf '%s"samples":[%s' "$head" "$s"
			i=1; while [ $i -lt $k ]; do printf ',%s' "$s"; i=$((i + 1)); done
			printf '],"timeDeltas":[%s' "$d"
			i=1; while [ $i -lt $k ]; do printf ',%s' "$d"; i=$((i + 1)); done
			printf ']}\n'
		} >"$tmp/big.cpuprofile"
		set -- "$@" "$tmp/big.cpuprofile"
	fi
fi

# Wall time, and CPU time (user + sys, from time(1)) which a busy shared
# machine inflates less.
printf '%-34s %-8s %10s %8s %7s %8s %7s\n' file format bytes wall_s MB/s \
    cpu_s MB/s
for f in "$@"; do
	size=$(wc -c <"$f")
	# The first "format" is the profile's; the views have theirs too.
	format=$("$DEEPQ" query --local "$f" format=json |
	    grep -o '"format":"[a-z0-9-]*"' | head -1 | cut -d'"' -f4)
	best=
	cpu=
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s.%N)
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$DEEPQ" query --local \
		    "$f" format=json >/dev/null
		t1=$(date +%s.%N)
		best=$(echo "$t0 $t1 ${best:-}" | awk '{ t = $2 - $1;
		    if ($3 != "" && $3 < t) t = $3; printf "%.4f\n", t }')
		cpu=$(echo "$(tail -1 "$tmp/time") ${cpu:-}" | awk '{ t = $1 + $2;
		    if ($3 != "" && $3 < t) t = $3; printf "%.3f\n", t }')
		i=$((i + 1))
	done
	printf '%-34s %-8s %10d %8s %7s %8s %7s\n' "${f##*/}" "$format" \
	    "$size" "$best" \
	    "$(echo "$size $best" | awk '{ printf "%.1f", $1 / 1048576 / $2 }')" \
	    "$cpu" \
	    "$(echo "$size $cpu" | awk '{ if ($2 > 0) printf "%.1f", $1 / 1048576 / $2; else print "-" }')"
done

#!/bin/sh
# Load time, parse MB/s and peak RSS against node count, per format.
#
#	sh bench/scale.sh [max-nodes] [runs]
#
# For 10^5, 10^6, ... up to max-nodes (default 10^7; 10^8 needs some 6 GB
# of disk for the folded file and minutes per load) generates a profile
# with bench/genprof in each of: folded, shape wide (short stacks, many
# distinct call nodes per MB); folded, shape mixed (deep stacks, up to
# 10^6 only: 1 GB per 10^6 nodes); the deepq-trace format (call/return
# events). Each is loaded by `deepq query --local FILE format=json' (load
# and the menu page), best of runs (default 3, 1 above 10^6); prints wall
# time and MB/s, CPU time (user + sys) and MB/s of CPU time (the figure
# to quote when other work shares the machine: wall time then includes
# waiting for a core), the peak RSS of the whole load (the builder's
# peak) and bytes of peak RSS per call node. Then the time a deepq-server
# takes to be ready from its processed-profile cache instead of the
# source.
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
max=${1:-10000000}
runs=${2:-3}
deepq=$top_builddir/cli/deepq
gen=$top_builddir/bench/genprof
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-scale.XXXXXX")
cleanup() {
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all 2>/dev/null || :
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
cat >"$tmp/deepq.conf" <<EOF2
runtime_dir = $tmp/run
server_path = $top_builddir/server/deepq-server
load_timeout = 3600
load_wait = 60
EOF2

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-7s %10s %8s %8s %8s %7s %8s %9s %7s %9s\n' format shape \
    nodes MB seconds MB/s cpu-s MB/s-cpu peakMiB B/node cache-ms
n=100000
while [ "$n" -le "$max" ]; do
	for fs in folded:wide folded:mixed trace:mixed; do
		fmt=${fs%:*}
		shape=${fs#*:}
		# Folded mixed is ~1 GB per 10^6 nodes; trace mixed is small.
		[ "$fs" != folded:mixed ] || [ "$n" -le 1000000 ] || continue
		f=$tmp/p.$fmt
		"$gen" -F "$fmt" -s "$shape" -n "$n" >"$f"
		r=$runs
		[ "$n" -le 1000000 ] || r=1
		best=
		for i in $(seq "$r"); do
			/usr/bin/time -f '%e %M %U %S' -o "$tmp/time" \
			    "$deepq" query --local "$f" format=json >"$tmp/menu"
			read -r t m u s <"$tmp/time"
			if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
				best=$t
				rss=$m
				cpu=$(echo "$u + $s" | bc -l)
			fi
		done
		nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$tmp/menu")
		size=$(stat -c %s "$f")
		# Restart from the cache: a first server writes it, a second
		# maps it; its load_ms is the time to be ready.
		DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" query "$f" \
		    'cmd=status&format=json' >/dev/null
		key=$(stat -c '%d %i' "$f" | awk '{ printf "%016x%016x", $1, $2 }')
		k=0
		while [ ! -f "$tmp/run/cache/$key.cache" ] && [ $k -lt 600 ]; do
			sleep 0.5
			k=$((k + 1))
		done
		DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all >/dev/null
		DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" query "$f" \
		    'cmd=status&format=json' >"$tmp/status"
		cms=$(sed -n 's/.*"load_ms":\([0-9]*\),"cached":true.*/\1/p' \
		    "$tmp/status")
		DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all >/dev/null
		rm -f "$tmp/run/cache/$key.cache"
		[ "$(echo "$cpu > 0" | bc)" = 1 ] || cpu=0.01
		printf '%-8s %-7s %10d %8.1f %8.2f %8.1f %7.2f %8.1f %9.1f %7.1f %9s\n' \
		    "$fmt" "$shape" "$nodes" "$(echo "$size / 1000000" | bc -l)" \
		    "$best" "$(echo "$size / 1000000 / $best" | bc -l)" \
		    "$cpu" "$(echo "$size / 1000000 / $cpu" | bc -l)" \
		    "$(echo "$rss / 1024" | bc -l)" \
		    "$(echo "$rss * 1024 / $nodes" | bc -l)" "${cms:-?}"
		rm -f "$f"
	done
	n=$((n * 10))
done

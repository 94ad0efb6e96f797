#!/bin/sh
# Every performance target of BENCHMARKS.md measured in one run, each by the
# benchmark that owns it:
#
#	sh bench/targets.sh [dir]
#
# Generates (once; kept in dir, default $TMPDIR/deepq-targets, about
# 1.6 GB) a wide profile of 10^6 and one of 10^7 call nodes and a mixed
# one of 10^6 (967 MB, the "1 GB folded file"), then prints:
#   - folded parse MB/s, one core (bench/readbench: the load alone, best
#     and median of 3, wall and CPU), wide (10^6 and 10^7) and mixed;
#   - peak RSS per call node of a whole load and first page (/usr/bin/time
#     on deepq query --local) at 10^6 and 10^7;
#   - warm top and tree p50/p99 and requests/s at concurrency 1, 8, 64
#     through lighttpd + deepq.cgi under wrk, and through the pipes
#     (bench/wrk-latency.sh), the server's RSS, the cold first page and
#     the restart from the cache, on the 10^7 profile;
#   - the cold first page of the 967 MB file through lighttpd + CGI.
# Run from the top of a built tree (or set top_builddir); needs wrk,
# lighttpd and curl. Takes three to five minutes on two idle cores.
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export top_srcdir top_builddir
dir=${1:-${TMPDIR:-/tmp}/deepq-targets}
gen=$top_builddir/bench/genprof
deepq=$top_builddir/cli/deepq
mkdir -p "$dir"

make_profile() {	# name shape nodes
	[ -s "$dir/$1" ] || "$gen" -s "$2" -n "$3" >"$dir/$1"
}
make_profile wide-1e6.folded wide 1000000
make_profile wide-1e7.folded wide 10000000
make_profile mixed-1e6.folded mixed 1000000
# The tails shape (high-cardinality deep stacks) at 10^6 and 10^7 nodes.
[ -s "$dir/tails-1e6.folded" ] ||
    "$gen" -s tails -n 1000000 >"$dir/tails-1e6.folded"
[ -s "$dir/tails-1e7.folded" ] ||
    "$gen" -s tails -n 10000000 >"$dir/tails-1e7.folded"

echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== folded parse, one core (target >= 400 MB/s)"
for f in wide-1e6 wide-1e7 mixed-1e6 tails-1e6 tails-1e7; do
	"$top_builddir/bench/readbench" "$dir/$f.folded" 3
done
echo "== peak RSS of a load and its first page (target <= 48 B per call node)"
for f in wide-1e6 wide-1e7 mixed-1e6 tails-1e6 tails-1e7; do
	/usr/bin/time -f '%M' -o "$dir/time" "$deepq" query --local \
	    "$dir/$f.folded" 'cmd=menu&format=json' >"$dir/menu"
	nodes=$(sed -n 's/.*"nodes": *\([0-9]*\).*/\1/p' "$dir/menu")
	kib=$(tail -1 "$dir/time")
	echo "$f: $nodes nodes, peak $kib KiB = $(( kib * 1024 / nodes )) B/node"
done
echo "== warm latency at 10^7 nodes (targets: top and tree p50 <= 2 ms" \
    "through the CGI, >= 1,000 req/s at c=8)"
QUERIES='cmd=top cmd=tree' sh "$top_srcdir/bench/wrk-latency.sh" \
    "$dir/wide-1e7.folded" 3
echo "== cold first page of a 1 GB folded file (target <= 3 s)"
QUERIES='cmd=top' sh "$top_srcdir/bench/wrk-latency.sh" \
    "$dir/mixed-1e6.folded" 1 | grep -E '^(profile|cold|first|after the load)'

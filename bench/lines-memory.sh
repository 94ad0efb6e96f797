#!/bin/sh
# lines-memory.sh OLD NEW [FILE...]: what the costs by source line
# (engine/lines.c) cost. OLD and NEW are build directories of deepq, one
# without the lines (main before them) and one with; both release builds.
#
# For each file, NEW's bench/linesmem says the lines' rows and calls and
# the bytes they add to the model (a profile without lines: 0), then the
# load of OLD and NEW is timed in turn, ROUNDS times (default 3), by
# `bench/readbench FILE 1' under /usr/bin/time: the best CPU seconds and
# the least peak RSS of each, and NEW/OLD. The load builds the tree of
# frames at lines beside the call tree, which the peak RSS shows, and
# frees it at the end, which the model's bytes show.
#
# Without FILE: CPython encoding JSON under callgrind
# (tests/data/cpython-json.callgrind.gz); a Go CPU profile with lines
# (the sort package's benchmarks, `go test -cpuprofile', made here); the
# CPython profile exported to pprof by NEW (a large pprof with lines at
# the leaves); and folded stacks, without lines
# (tests/data/samples/workload-fp.folded).
set -eu
LC_ALL=C
export LC_ALL
if [ $# -lt 2 ]; then
	echo "usage: lines-memory.sh old-builddir new-builddir [file...]" >&2
	exit 1
fi
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 0 ]; then
	gunzip -c "$top/tests/data/cpython-json.callgrind.gz" \
	    >"$tmp/cpython.callgrind"
	set -- "$tmp/cpython.callgrind"
	if command -v go >/dev/null 2>&1; then
		export GOCACHE="$tmp/gocache" HOME="$tmp"
		echo "profiling the sort package's benchmarks ..." >&2
		(cd "$tmp" && go test -run NONE -bench 'Sort|Stable' \
		    -benchtime 20ms -cpuprofile "$tmp/sort.pb" sort \
		    >/dev/null 2>&1) || :
		[ -s "$tmp/sort.pb" ] && set -- "$@" "$tmp/sort.pb"
	fi
	"$new/cli/deepq" convert --to pprof "$tmp/cpython.callgrind" \
	    "$tmp/cpython.pb.gz"
	set -- "$@" "$tmp/cpython.pb.gz" \
	    "$top/tests/data/samples/workload-fp.folded"
fi

"$new/bench/linesmem" "$@"
echo
printf '%-28s %9s %9s %6s %9s %9s %6s\n' file old_cpu new_cpu ratio \
    old_rssMB new_rssMB ratio
for f in "$@"; do
	for b in old new; do
		eval "d=\$$b"
		bc_=
		br=
		i=0
		while [ "$i" -lt "${ROUNDS:-3}" ]; do
			/usr/bin/time -f '%U %S %M' -o "$tmp/time" \
			    "$d/bench/readbench" "$f" 1 >/dev/null 2>&1
			read -r u s m <"$tmp/time"
			c=$(echo "$u + $s" | bc)
			[ -n "$bc_" ] && [ "$(echo "$c >= $bc_" | bc)" = 1 ] ||
			    bc_=$c
			[ -n "$br" ] && [ "$m" -ge "$br" ] || br=$m
			i=$((i + 1))
		done
		eval "${b}_cpu=\$bc_ ${b}_rss=\$br"
	done
	printf '%-28.28s %9s %9s %6s %9.1f %9.1f %6s\n' "${f##*/}" \
	    "$old_cpu" "$new_cpu" \
	    "$(echo "scale=2; $new_cpu / ($old_cpu + 0.001)" | bc)" \
	    "$(echo "$old_rss / 1024" | bc -l)" \
	    "$(echo "$new_rss / 1024" | bc -l)" \
	    "$(echo "scale=2; $new_rss / $old_rss" | bc)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

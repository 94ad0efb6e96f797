#!/bin/sh
# export-memory.sh FILE DEEPQ...: the peak memory (resident set) and the
# time of the big exports, answered in process (deepq query --local), for
# each build given (builds to compare, such as a build of main and one of
# a branch, each configured without --enable-asan):
#
#	bench/genprof -s wide -n 10000000 >/tmp/wide-1e7.folded
#	sh bench/export-memory.sh /tmp/wide-1e7.folded \
#	    /tmp/before/cli/deepq /tmp/after/cli/deepq
#
# cmd=top comes first: what loading the profile costs alone, so that
# "export MB" (the peak less that) is what the export itself holds. Every
# answer is compared with the first build's by its checksum. QUERIES
# replaces the list of queries. The builds take turns, once each: on a
# shared machine, compare the ratios of one run rather than the seconds.
set -eu
[ $# -ge 2 ] || { echo "usage: export-memory.sh FILE DEEPQ..." >&2; exit 1; }
file=$1
shift
queries=${QUERIES:-"cmd=top&format=json cmd=folded&format=folded \
cmd=folded&format=json cmd=pprof&format=pprof \
cmd=speedscope&format=speedscope cmd=callgrind&format=callgrind"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/export-memory.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
command -v /usr/bin/time >/dev/null ||
    { echo "export-memory.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }

printf '%-32s %5s %7s %7s %7s %8s %9s %s\n' query build wall user sys \
    "peak MB" "export MB" bytes
for q in $queries; do
	n=0
	for dq in "$@"; do
		n=$((n + 1))
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
		    "$dq" query --local "$file" "$q" | cksum >"$tmp/sum.$n"
		read -r sec user sys kb <"$tmp/time"
		if [ "$q" = "${queries%% *}" ]; then
			echo "$kb" >"$tmp/load.$n"
		fi
		load=$(cat "$tmp/load.$n" 2>/dev/null || echo 0)
		same=same
		if [ "$n" -gt 1 ] && ! cmp -s "$tmp/sum.1" "$tmp/sum.$n"; then
			same=DIFFERENT
		fi
		printf '%-32s %5s %7s %7s %7s %8d %9d %s %s\n' "$q" "$n" \
		    "$sec" "$user" "$sys" $((kb / 1024)) \
		    $(((kb - load) / 1024)) \
		    "$(cut -d' ' -f2 "$tmp/sum.$n")" "$same"
	done
done
n=0
for dq in "$@"; do
	n=$((n + 1))
	echo "# $n: $dq"
done

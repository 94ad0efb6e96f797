#!/bin/sh
# func-first.sh FILE PAGEBENCH...: the first visit of function pages, the
# time the butterfly (aggregate.c) shows in, for each pagebench given
# (builds to compare, as /tmp/before/bench/pagebench
# /tmp/after/bench/pagebench). After cmd=cliques has built the call
# graph, each query is answered twice: "cold ms" is the first answer
# (the butterfly computed), "p50 ms" the second (from aggregate.c's
# memo), both in the thread's CPU time (pagebench -c), as the machine may
# be shared. The functions: eight spread over the ids, the one with the
# most self time (HEAVY), and its callers by site. Every answer of each
# build is compared byte for byte with the first build's.
#
#	sh bench/func-first.sh /tmp/wide-1e7.folded \
#	    /tmp/before/bench/pagebench /tmp/after/bench/pagebench
set -eu
[ $# -ge 2 ] || { echo "usage: func-first.sh FILE PAGEBENCH..." >&2; exit 1; }
file=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/func-first.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The function count, from the first build's load line.
nfuncs=$("$1" -r 2 "$file" cmd=top | sed -n 's/.* \([0-9]*\) functions.*/\1/p')
[ -n "$nfuncs" ] || { echo "func-first.sh: no function count" >&2; exit 1; }
queries=cmd=cliques
for k in 1 2 3 4 5 6 7 8; do
	queries="$queries cmd=func&func=$((nfuncs * k / 9))"
done
queries="$queries cmd=func&func=HEAVY cmd=callers&func=HEAVY&by=site"

n=0
for pb in "$@"; do
	n=$((n + 1))
	mkdir "$tmp/$n"
	echo "# $n: $pb"
	# shellcheck disable=SC2086
	"$pb" -c -r 2 -o "$tmp/$n" "$file" $queries
	if [ "$n" -gt 1 ]; then
		if diff -r "$tmp/1" "$tmp/$n" >/dev/null; then
			echo "# $n: every answer byte for byte as 1's"
		else
			echo "# $n: ANSWERS DIFFER from 1's"
			exit 1
		fi
	fi
done

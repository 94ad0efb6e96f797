#!/bin/sh
# func-first.sh FILE PAGEBENCH...: the first visit of function pages, the
# time the butterfly (aggregate.c) shows in, for each pagebench given
# (builds to compare, as /tmp/before/bench/pagebench
# /tmp/after/bench/pagebench). After cmd=cliques has built the call
# graph, each query is answered twice: "cold" is the first answer (the
# butterfly computed), "warm" the second (from aggregate.c's memo), in
# the thread's CPU time (pagebench -c). The functions: eight spread over
# the ids, the one with the most self time (HEAVY), and its callers by
# site. The builds run in turn RUNS times (default 3), since the machine
# may be shared; the table has each one's median in ms. Every answer of
# each build is compared byte for byte with the first build's.
#
#	sh bench/func-first.sh /tmp/wide-1e7.folded \
#	    /tmp/before/bench/pagebench /tmp/after/bench/pagebench
set -eu
[ $# -ge 2 ] || { echo "usage: func-first.sh FILE PAGEBENCH..." >&2; exit 1; }
file=$1
shift
runs=${RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/func-first.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The function count, from the first build's load line.
load=$("$1" -r 2 "$file" cmd=top | sed -n 1p)
nfuncs=$(echo "$load" | sed -n 's/.* \([0-9]*\) functions.*/\1/p')
[ -n "$nfuncs" ] || { echo "func-first.sh: no function count" >&2; exit 1; }
echo "$load"
queries=cmd=cliques
for k in 1 2 3 4 5 6 7 8; do
	queries="$queries cmd=func&func=$((nfuncs * k / 9))"
done
queries="$queries cmd=func&func=HEAVY cmd=callers&func=HEAVY&by=site"

r=0
while [ $r -lt "$runs" ]; do
	r=$((r + 1))
	n=0
	for pb in "$@"; do
		n=$((n + 1))
		rm -rf "$tmp/answers.$n"
		mkdir "$tmp/answers.$n"
		# shellcheck disable=SC2086
		"$pb" -c -r 2 -o "$tmp/answers.$n" "$file" $queries \
		    >"$tmp/out.$n.$r"
		if [ "$n" -gt 1 ] &&
		    ! diff -r "$tmp/answers.1" "$tmp/answers.$n" >/dev/null; then
			echo "func-first.sh: $pb: ANSWERS DIFFER from $1's" >&2
			exit 1
		fi
	done
done

n=0
for pb in "$@"; do
	n=$((n + 1))
	echo "# $n: $pb"
done
echo "# every answer byte for byte the same in each build"
# Per query, each build's median cold and warm ms over the runs.
n=0
for pb in "$@"; do
	n=$((n + 1))
	cat "$tmp"/out.$n.* | awk -v b=$n '/^cmd=/ { print $1, b, $3, $4 }'
done | awk -v nb=$# '
function median(s,   v, k, i, j, t) {
	k = split(s, v, " ")
	for (i = 1; i <= k; i++)
		for (j = i + 1; j <= k; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return v[int((k + 1) / 2)]
}
{
	if (!($1 in seen)) { seen[$1] = 1; order[++nq] = $1 }
	cold[$1, $2] = cold[$1, $2] " " $3
	warm[$1, $2] = warm[$1, $2] " " $4
}
END {
	printf "%-34s", "query (median ms: cold/warm)"
	for (b = 1; b <= nb; b++)
		printf " %17s", "build " b
	printf "\n"
	for (i = 1; i <= nq; i++) {
		q = order[i]
		printf "%-34s", q
		for (b = 1; b <= nb; b++)
			printf " %8.2f/%-8.2f", median(cold[q, b]),
			    median(warm[q, b])
		printf "\n"
	}
}'

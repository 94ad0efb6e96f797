#!/bin/sh
# answers-ab.sh OLD NEW [PROFILE...]: every report's answers from two
# builds' bench/pagebench, byte for byte. Each query below is asked in
# format html, json and text (flame and the exports in theirs) of every
# profile (default: the samples of tests/data, with comparisons from a
# differential folded file made here, a call graph's estimated tree, a
# Mercury Deep.data if tests/data/samples has one); a difference names
# the profile and the query. A change that means to keep the answers
# (a refactoring, a faster path) must show 0 differ.
#
#	sh bench/answers-ab.sh /tmp/main/bench/pagebench bench/pagebench
set -eu
[ $# -ge 2 ] || { echo "usage: answers-ab.sh OLD NEW [PROFILE...]" >&2; exit 1; }
old=$1 new=$2
shift 2
d=$(cd "${0%/*}/../tests/data" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/answers-ab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
	# Two counts a line: the second is metric "base", a comparison.
	awk '{ n = $NF; $NF = ""; print $0 n, (NR % 3 ? n : 2 * n) }' \
	    "$d/cliques.folded" >"$tmp/diff.folded"
	set -- "$d/cliques.folded" "$d/firefox.folded" "$d/tezos.trace" \
	    "$tmp/diff.folded" "$d/example.callgrind" "$d/small.perf" \
	    "$d/ghc-small.prof" "$d/ghc-small-pj.prof" "$d/recursion.folded" \
	    "$d/xss.folded" "$d/clean.pgcl" "$d/v8-small.cpuprofile" \
	    "$d/pprof/cpu.pb"
	[ -f "$d/samples/Deep.data" ] && set -- "$@" "$d/samples/Deep.data"
fi
cat >"$tmp/queries" <<'QUERIES'
cmd=callers&func=1&by=module
cmd=callers&func=2
cmd=callers&func=2&by=func&sort=delta
cmd=callers&func=2&by=site
cmd=callers&func=2&by=site&sort=name
cmd=callers&func=2&t=1~inv&by=module
cmd=callers&func=3&by=clique
cmd=callers&func=3&by=site&from=1&limit=2
cmd=clique&clique=0
cmd=clique&clique=1
cmd=clique&clique=1&t=1~inv
cmd=clique&clique=2
cmd=clique&clique=3&pct=1&fields=all
cmd=clique&clique=5
cmd=clique&clique=6&sort=name&limit=1
cmd=clique&clique=8&sort=delta
cmd=clique&clique=99999
cmd=cliques
cmd=cliques&sort=name
cmd=cliques&sort=self&from=1&limit=1
cmd=cliques&t=1~inv
cmd=dump
cmd=dump&from=100000
cmd=dump&from=3&limit=5
cmd=dump&limit=1
cmd=dump&t=1~inv&limit=3
cmd=flame
cmd=flame&format=svg
cmd=flame&maxdepth=3
cmd=flame&metric=base
cmd=flame&metric=calls
cmd=flame&minwidth=5&width=600
cmd=flame&normalize=1&format=svg
cmd=flame&style=chart
cmd=flame&style=chart&format=svg
cmd=flame&style=icicle
cmd=flame&t=1~inv
cmd=flame&t=1~inv&format=svg
cmd=flame&title=T&countname=c&palette=mem
cmd=folded
cmd=func&func=1
cmd=func&func=1&sort=calls
cmd=func&func=1&sort=total&pct=1&avg=1&fields=all
cmd=func&func=2
cmd=func&func=2&sort=delta
cmd=func&func=2&sort=ratio&normalize=1
cmd=func&func=2&t=1~ff-2
cmd=func&func=2&t=1~inv
cmd=func&func=3&sort=name
cmd=func&func=4&limit=2
cmd=func&func=nosuch
cmd=menu
cmd=menu&file=a.folded
cmd=menu&metric=calls
cmd=menu&normalize=1
cmd=menu&t=1~inv
cmd=module&module=
cmd=module&module=&t=1~inv
cmd=module&module=app&sort=name&limit=3
cmd=module&module=lib
cmd=module&module=m1
cmd=module&module=m2&sort=self&from=2&limit=2&pct=1
cmd=module&module=nosuch
cmd=modules
cmd=modules&fields=all&avg=1
cmd=modules&sort=delta&pct=1
cmd=modules&sort=name
cmd=modules&sort=ratio&from=1&limit=2
cmd=modules&t=1~inv
cmd=search
cmd=search&find=(a|b)
cmd=search&find=E&pct=1
cmd=search&find=[x
cmd=search&find=^f.*&from=1&limit=2
cmd=search&find=a
cmd=search&find=a&t=1~inv
cmd=search&find=m1
cmd=search&find=zzzzzz
cmd=shutdown
cmd=status
cmd=top
cmd=top&fields=all&pct=1&avg=1
cmd=top&from=100000
cmd=top&from=3&limit=3
cmd=top&limit=1000
cmd=top&normalize=1&sort=delta&limit=5
cmd=top&sort=bogus
cmd=top&sort=calls
cmd=top&sort=delta
cmd=top&sort=name
cmd=top&sort=ratio
cmd=top&sort=total&min=5
cmd=top&t=1~ff-2&sort=delta
cmd=top&t=1~inv
cmd=top&units=seconds&metric=calls
cmd=tree
cmd=tree&avg=1
cmd=tree&budget=1
cmd=tree&budget=1000
cmd=tree&budget=2
cmd=tree&budget=7
cmd=tree&close=1&budget=30
cmd=tree&close=1~x
cmd=tree&depth=1
cmd=tree&depth=100000&budget=200
cmd=tree&depth=2000&budget=3000
cmd=tree&depth=3&budget=50
cmd=tree&depth=7&budget=5000
cmd=tree&fields=all&units=seconds
cmd=tree&fields=nosuch
cmd=tree&metric=alloc&pct=1
cmd=tree&metric=base
cmd=tree&metric=calls
cmd=tree&metric=entries&fields=all
cmd=tree&normalize=1
cmd=tree&normalize=1&pct=1&fields=all
cmd=tree&open=1&close=1,2&depth=1
cmd=tree&open=1~1,2&budget=30
cmd=tree&open=bad
cmd=tree&path=1
cmd=tree&path=1,2
cmd=tree&path=999999
cmd=tree&pct=1
cmd=tree&pct=1&avg=1&fields=all
cmd=tree&sort=self&pct=1
cmd=tree&sort=total
cmd=tree&t=1~ff-2
cmd=tree&t=1~inv
cmd=tree&t=f-1
cmd=tree&t=merge-2&budget=100
cmd=tree&units=seconds&avg=1
QUERIES
n=0 fail=0
for prof in "$@"; do
	: >"$tmp/list"
	while read -r q; do
		printf '%s\n%s&format=json\n%s&format=text\n' "$q" "$q" "$q" \
		    >>"$tmp/list"
	done <"$tmp/queries"
	rm -rf "$tmp/o" "$tmp/n"
	mkdir "$tmp/o" "$tmp/n"
	# One argument a line of the list (queries hold no newline).
	(IFS='
'; set -f; "$old" -r 2 -o "$tmp/o" "$prof" $(cat "$tmp/list")) >/dev/null
	(IFS='
'; set -f; "$new" -r 2 -o "$tmp/n" "$prof" $(cat "$tmp/list")) >/dev/null
	i=0
	while read -r q; do
		n=$((n + 1))
		if ! cmp -s "$tmp/o/$i" "$tmp/n/$i"; then
			echo "differ: $prof: $q"
			fail=$((fail + 1))
		fi
		i=$((i + 1))
	done <"$tmp/list"
done
# The count says what was compared: a profile left out shows here.
echo "$n answers compared ($# profiles, $(wc -l <"$tmp/queries") queries" \
    "in 3 formats), $fail differ"
[ "$fail" -eq 0 ]

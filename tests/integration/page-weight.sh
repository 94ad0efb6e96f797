#!/bin/sh
# The flame page stays light whatever the profile: a generated profile
# of a million call nodes (bench/genprof) gives flame and icicle pages
# of at most 1 MB and 10,000 elements, what was left out counted.
# (Its inversion is refused as too large by the transform's node limit,
# before any page is made.) bench/page-weight.sh prints the figures.
. "${0%/*}/../lib.sh"

genprof=$top_builddir/bench/genprof
[ -x "$genprof" ] || skip_all "bench/genprof is not built"
"$genprof" -s mixed -n 1000000 >"$tmp/m.folded"
nodes=$("$DEEPQ" query --local "$tmp/m.folded" 'cmd=menu&format=json' |
    sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
[ "${nodes:-0}" -ge 900000 ] && ok "a profile of $nodes call nodes" ||
    not_ok "a profile of a million call nodes ($nodes)"

for q in 'cmd=flame' 'cmd=flame&style=icicle'; do
	"$DEEPQ" query --local "$tmp/m.folded" "$q" >"$tmp/page.html"
	bytes=$(wc -c <"$tmp/page.html")
	elems=$(grep -o '<[a-zA-Z]' "$tmp/page.html" | wc -l)
	if [ "$bytes" -le 1048576 ] && [ "$elems" -le 10000 ] &&
	    grep -q 'more frames\? merged\|Nothing left out\|narrower than' \
	    "$tmp/page.html"; then
		ok "$q: $bytes bytes, $elems elements"
	else
		not_ok "$q: $bytes bytes, $elems elements"
	fi
done
done_testing

#!/bin/sh
# The flame page stays light whatever the profile: a generated profile
# of a million call nodes (bench/genprof, as an event trace: the same
# tree as its folded form in a fifteenth of the bytes) gives flame,
# icicle and inverted pages of at most 1 MB and 10,000 elements, what was
# left out counted. Its inversion, 40 million frames whole, is bounded
# for the page (transform-invert.c: the callers not expanded merged and
# counted), never refused; so is the inverted tree page, and the
# inverted views of CPython under callgrind (tests/data, 135,000 call
# nodes). The pages come from a server (one load of each profile, as a
# site has). bench/page-weight.sh prints the figures.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
genprof=$top_builddir/bench/genprof
[ -x "$genprof" ] || skip_all "bench/genprof is not built"
rdv_conf load_timeout=120 query_timeout=120
"$genprof" -F trace -s mixed -n 1000000 >"$root/m.trace"
cp "$top_srcdir/tests/data/cpython-json.callgrind.gz" "$root/"
nodes=$("$DEEPQ" query "$root/m.trace" 'cmd=menu&format=json' |
    sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
[ "${nodes:-0}" -ge 900000 ] && ok "a profile of $nodes call nodes" ||
    not_ok "a profile of a million call nodes ($nodes)"

# weigh FILE QUERY MUST: the page within the budget, with MUST in it.
weigh() {
	if ! "$DEEPQ" query "$1" "$2" >"$tmp/page.html" 2>"$tmp/err"
	then
		not_ok "$2: $(cat "$tmp/err")"
		return
	fi
	bytes=$(wc -c <"$tmp/page.html")
	elems=$(grep -o '<[a-zA-Z]' "$tmp/page.html" | wc -l)
	if [ "$bytes" -le 1048576 ] && [ "$elems" -le 10000 ] &&
	    grep -q "$3" "$tmp/page.html"; then
		ok "${1##*/} $2: $bytes bytes, $elems elements"
	else
		not_ok "${1##*/} $2: $bytes bytes, $elems elements"
	fi
}
counted='more frames\? merged\|Nothing left out\|narrower than'
weigh "$root/m.trace" 'cmd=flame' "$counted"
weigh "$root/m.trace" 'cmd=flame&style=icicle' "$counted"
weigh "$root/m.trace" 'cmd=flame&t=1~inv' 'more callers: [0-9]* stacks merged'
weigh "$root/m.trace" 'cmd=tree&t=1~inv' 'Inverted'
# A node opened in the bounded inverted tree shows its real callers.
f=$("$DEEPQ" query "$root/m.trace" \
    'cmd=tree&t=1~inv&depth=1&format=json' |
    jq -r '.root.children[0].path')
"$DEEPQ" query "$root/m.trace" \
    "cmd=tree&t=1~inv&path=$f&depth=1&format=json" >"$tmp/open.json"
jq -e '[.root.children[].name | select(startswith("[more callers"))] |
    length == 0' "$tmp/open.json" >/dev/null &&
    jq -e '.root.children | length > 0' "$tmp/open.json" >/dev/null &&
    ok "inverted tree: path=$f shows its real callers" ||
    not_ok "inverted tree: path=$f: $(head -c 300 "$tmp/open.json")"

weigh "$root/cpython-json.callgrind.gz" 'cmd=tree&t=1~inv' 'Inverted'
weigh "$root/cpython-json.callgrind.gz" 'cmd=flame&t=1~inv' "$counted"
rdv_stop
done_testing

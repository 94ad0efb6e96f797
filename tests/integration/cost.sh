#!/bin/sh
# T31, the query cost budget: on a generated profile of 200000 call
# nodes, pathological queries (a tree with huge depth= and budget=, an
# inverted tree, cliques, a function's butterfly) get 503 "query too
# expensive" within max_cost (node visits, so the same on any machine),
# while a cheap query from another client, sent meanwhile, gets 200.
# Without a budget the big tree takes seconds.
# The wall-clock budget (nine tenths of query_timeout) is checked by the
# same counter; tests/unit/test-cost.c tests it.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${GENPROF:=$top_builddir/bench/genprof}"
[ -x "$GENPROF" ] || { echo "Bail out! build bench/genprof first"; exit 1; }

f=$root/big.trace
"$GENPROF" -F trace -n 200000 >"$f"
big='cmd=tree&depth=100000&budget=1000000&format=json'
cheap='cmd=top&limit=5&format=json'

# q NAME QUERY: ask the server; status, milliseconds and body in
# $tmp/NAME.{status,ms,body}.
q() {
	_t0=$(rdv_ms)
	"$DEEPQ" query "$f" "$2" >"$tmp/$1.body" 2>"$tmp/$1.err" || :
	echo $(($(rdv_ms) - _t0)) >"$tmp/$1.ms"
	sed -n 's/.*"status": *\([0-9]*\).*/\1/p' "$tmp/$1.body" | head -1 \
	    >"$tmp/$1.status"
}
status() { cat "$tmp/$1.status"; }
ms() { cat "$tmp/$1.ms"; }

# A node-visit budget: 500000, enough for the menu (two passes over
# the nodes), not for a whole tree of 200000 nodes and their paths.
rdv_conf max_cost=500000
q warm 'cmd=menu&format=json'
check "the menu fits the budget" grep -q '"cmd": *"menu"' "$tmp/warm.body"

q big "$big" &
bigpid=$!
q cheap "$cheap"
wait "$bigpid"
check "the big tree: 503" test "$(status big)" = 503
check "its message says why" grep -q \
    'query too expensive (over 500000 node visits)' "$tmp/big.body"
check "the cheap query meanwhile: answered" \
    grep -q '"cmd": *"top"' "$tmp/cheap.body"
# How long each took is the machine's (bench/ has figures): the 503
# says the node-visit budget stopped it.
echo "# big tree $(ms big) ms, cheap query $(ms cheap) ms"

for bad in 'cmd=tree&t=1~inv&depth=100000&budget=1000000&format=json' \
    'cmd=tree&show=a&hide=b&focus=c&depth=100000&format=json'; do
	q bad "$bad"
	check "503, the budget spent ($(ms bad) ms): $bad" \
	    test "$(status bad)" = 503
done
# The call graph and cliques are built once per profile (profile_derived),
# by the first query that needs them and charged to it; after that these
# reports cost a pass over one function's nodes: answered or refused, but
# always within the budget.
for some in 'cmd=cliques&format=json' 'cmd=func&func=1&format=json' \
    'cmd=callers&func=1&format=json'; do
	q bad "$some"
	check "answered or 503 ($(ms bad) ms): $some" sh -c \
	    "jq -e '.cmd != null or .error.status == 503' '$tmp/bad.body' \
	    >/dev/null"
done
q after "$cheap"
check "the server still answers" grep -q '"cmd": *"top"' "$tmp/after.body"
check "one server throughout" rdv_count_is 1
rdv_stop

done_testing

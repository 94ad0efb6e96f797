#!/bin/sh
# The answer cache (answer_cache in deepq.conf): a repeated query, in any
# key order or spelling, is answered from the cache with the same bytes
# as the first time and as the in-process answer, and the status page
# counts it; cmd=status itself, errors and over-budget refusals are never
# kept; answer_cache = 0 turns it off.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

f=$root/firefox.folded
# q QUERY [OUT]: the answer through the server (errors are answers too).
q() {
	"$DEEPQ" query "$f" "$1" >"$tmp/${2:-out}" 2>&1 || :
}
# st NAME: a counter of the answer cache from a fresh cmd=status.
st() {
	q 'cmd=status&format=json' status
	sed -n "s/.*\"answer_cache\": *{\([^}]*\)}.*/\1/p" "$tmp/status" |
	    tr ',' '\n' | sed -n "s/^ *\"$1\": *\([0-9]*\).*/\1/p"
}

tree='cmd=tree&open=1,2&depth=3&format=json'
rdv_local "$tree" >"$tmp/want"

q "$tree" first
check "first tree answer equals the in-process one" cmp "$tmp/want" \
    "$tmp/first"
check "status: the first was a miss" test "$(st misses)" = 1
check "status: no hit yet" test "$(st hits)" = 0
check "status: one entry kept" test "$(st entries)" = 1
check "status: its bytes counted" test "$(st bytes)" -gt \
    "$(stat -c %s "$tmp/want")"
check "status: the default limit, 16 MB" test "$(st limit)" = 16777216

q "$tree" second
check "the repeated query: identical bytes" cmp "$tmp/first" "$tmp/second"
check "the repeated query was a hit" test "$(st hits)" = 1
q 'format=json&depth=3&open=1,2&cmd=tree' third
check "another key order: identical bytes" cmp "$tmp/first" "$tmp/third"
check "another key order: a hit" test "$(st hits)" = 2
check "and still one entry" test "$(st entries)" = 1

q 'cmd=tree' html1
q 'cmd=tree&format=html' html2
check "the HTML page again (format=html spelt out): the same" cmp \
    "$tmp/html1" "$tmp/html2"
check "the format is in the key: a miss, then a hit" test \
    "$(st misses)/$(st hits)" = 2/3

# cmd=status is never kept: two in a row differ (the first counted a
# hit the second reports) and neither is a miss or a hit.
q "$tree"
q 'cmd=status&format=json' s1
q "$tree"
q 'cmd=status&format=json' s2
check "status is not cached: its answers change" sh -c \
    "! cmp -s '$tmp/s1' '$tmp/s2'"
check "status queries are neither hits nor misses" test \
    "$(st misses)/$(st hits)" = 2/5
q 'cmd=status' shtml
check "the status page shows the cache" grep -q \
    'Answer cache.*5 hits, 2 misses' "$tmp/shtml"

# Errors are never kept.
q 'cmd=func&func=no_such_function_anywhere&format=json' err1
q 'cmd=func&func=no_such_function_anywhere&format=json' err2
check "an error is answered" grep -q '"error"' "$tmp/err1"
check "an error is not kept" test "$(st entries)" = 2
check "so each asks again: two misses" test "$(st misses)" = 4
rdv_stop

# Over budget: the 503 is not kept.
rdv_conf max_cost=10
q "$tree" cost1
q "$tree" cost2
check "over budget: refused" grep -q 'too expensive' "$tmp/cost1"
check "over budget: the refusal is not kept" test "$(st entries)" = 0
check "over budget: both refusals were misses" test \
    "$(st misses)/$(st hits)" = 2/0
rdv_stop

# answer_cache = 0: off, the answers the same.
rdv_conf answer_cache=0
q "$tree" off1
q "$tree" off2
check "off: the same answers" cmp "$tmp/want" "$tmp/off2"
q 'cmd=tree' offhtml
check "off: the same HTML page as from the cache" cmp "$tmp/html2" \
    "$tmp/offhtml"
check "off: nothing counted" test "$(st limit)/$(st hits)/$(st misses)" = \
    0/0/0
q 'cmd=status' shtml
check "off: the status page says so" grep -q 'Answer cache.*off' \
    "$tmp/shtml"
rdv_stop
done_testing

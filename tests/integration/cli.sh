#!/bin/sh
# deepq query --local on a real corpus file: the v1 JSON contract, text and
# HTML, exit status and error messages.
. "${0%/*}/../lib.sh"
command -v jq >/dev/null || skip_all "jq is not installed"

f=$top_srcdir/tests/data/samples/workload-fp.folded
q() { "$DEEPQ" query --local "$@"; }

check "menu as JSON is valid" sh -c "'$DEEPQ' query --local '$f' format=json | jq -e . >/dev/null"
q "$f" format=json >"$tmp/menu.json"
check "menu has deepq: 1 and cmd" jq -e '.deepq == 1 and .cmd == "menu"' "$tmp/menu.json"
check "menu metrics" jq -e '.metrics[0].name == "samples" and .metrics[0].unit == "count"' "$tmp/menu.json"
want=$(awk '{ s += $NF } END { printf "%d\n", s }' "$f")
check "menu total equals the sum of counts ($want)" jq -e ".totals.samples == $want" "$tmp/menu.json"
check "menu counts nodes and functions" jq -e '.nodes > 1 and .functions > 1' "$tmp/menu.json"

q "$f" 'cmd=top&sort=self&limit=5&format=json' >"$tmp/top.json"
check "top has 5 rows" jq -e '.rows | length == 5' "$tmp/top.json"
check "top rows are sorted by self" jq -e '[.rows[].self.samples] as $s | $s == ($s | sort | reverse)' "$tmp/top.json"
check "top rows have the v1 keys" jq -e '.rows[0] | has("name") and has("module") and has("self") and has("total")' "$tmp/top.json"
q "$f" 'cmd=top&min=5&format=json' >"$tmp/min.json"
check "top min=5 keeps rows at or above 5%" jq -e --argjson t "$want" '[.rows[].total.samples >= $t * 0.05] | all' "$tmp/min.json"

q "$f" 'cmd=tree&depth=2&budget=10&format=json' >"$tmp/tree.json"
check "tree root is the whole profile" jq -e ".root.total.samples == $want and .root.path == \"\"" "$tmp/tree.json"
check "tree respects the node budget" jq -e '.shown <= 10' "$tmp/tree.json"
path=$(jq -r '.root.children[0].path' "$tmp/tree.json")
q "$f" "cmd=tree&path=$path&format=json" >"$tmp/sub.json"
check "tree from path= starts there" jq -e ".root.path == \"$path\"" "$tmp/sub.json"

q "$f" 'cmd=top&format=text' >"$tmp/top.txt"
check "top as text has a title" grep -q '^Top functions by total samples$' "$tmp/top.txt"
q "$f" 'cmd=top' >"$tmp/top.html"
check "top as HTML is a document" grep -q '^<!DOCTYPE html>$' "$tmp/top.html"

if q "$f" 'cmd=top&limit=0&format=json' >"$tmp/err.json" 2>"$tmp/err"; then
	not_ok "limit=0 should fail"
else
	ok "limit=0 exits non-zero"
fi
check "the error is JSON with status 400" jq -e '.error.status == 400' "$tmp/err.json"
check "the message is on stderr" grep -q 'limit: must be an integer' "$tmp/err"
if q /nonexistent 'format=json' >/dev/null 2>"$tmp/err"; then
	not_ok "a missing file should fail"
else
	ok "a missing file exits non-zero"
fi
check "missing file message" grep -q 'No such file' "$tmp/err"
if "$DEEPQ" bogus >/dev/null 2>"$tmp/err"; then
	not_ok "an unknown command should fail"
else
	ok "an unknown command exits non-zero with usage"
fi
check "usage on stderr" grep -q '^usage: deepq' "$tmp/err"
done_testing

#!/bin/sh
# The Mercury deep profiler's own test profile (tests/data/samples/
# Deep.data) through deepq: its totals are the ones mdprof
# shows for it, and a damaged copy fails with an offset. tests/unit/test-mercury checks the structure.
. "${0%/*}/../lib.sh"
f=$mercury/Deep.data

# has FILE KEY VALUE: the JSON file has "KEY":VALUE.
has() {
	grep -q "\"$2\":$3[,}]" "$1"
}

if "$DEEPQ" query --local "$f" format=json >"$tmp/menu.json" 2>"$tmp/err"
then
	ok "Deep.data loads"
else
	not_ok "Deep.data loads: $(cat "$tmp/err")"
fi
check "detected as mercury" has "$tmp/menu.json" format '"mercury"'
check "root callseqs 202,594,363 (the header's)" \
    has "$tmp/menu.json" callseqs 202594363
check "root quanta 110" has "$tmp/menu.json" quanta 110
check "root allocations 140,837" has "$tmp/menu.json" allocs 140837
check "root words 221,479" has "$tmp/menu.json" words 221479
check "calls = exits + fails + excps - redos = 202,594,394" \
    has "$tmp/menu.json" calls 202594394
check "callseqs is the default metric" \
    grep -q '"metrics":\[{"name":"callseqs","unit":"count"}' "$tmp/menu.json"

"$DEEPQ" query --local "$f" 'cmd=top&sort=self&limit=2&format=json' \
    >"$tmp/top.json" 2>&1 || :
check "top self: math.sqrt 100,996,502" grep -Eq \
    '"rows":\[\{[^{]*"name":"sqrt/2\+1-0","module":"math"[^{]*"self":\{"callseqs":100996502,' \
    "$tmp/top.json"
check "then mandelbrot.escape 100,976,685" grep -Eq \
    '\},\{[^{]*"name":"escape/7-0","module":"mandelbrot"[^{]*"self":\{"callseqs":100976685,' \
    "$tmp/top.json"

head -c 100000 "$f" >"$tmp/cut.data"
if "$DEEPQ" query --local "$tmp/cut.data" format=json >/dev/null \
    2>"$tmp/err"; then
	not_ok "a truncated Deep.data loads"
else
	check "a truncated Deep.data fails with a clear cause" \
	    grep -q 'cut.data: .*need at least' "$tmp/err"
fi
done_testing

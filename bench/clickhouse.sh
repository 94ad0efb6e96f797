#!/bin/sh
# clickhouse.sh [STACKS...]: views of many distinct stacks, deepq beside
# clickhouse-client running the same aggregate, in one run. For each
# number of distinct stacks (10^6 and 10^7 unless given), a private
# clickhouse-server gets 10^8 samples (SAMPLES=) of that many stacks,
# made inside ClickHouse (INSERT ... SELECT from numbers(), so the bench
# does not take an hour): the stacks of a call tree of fan-out 10 under
# main (function names from a pool of 5,000 in 40 modules, as
# gen-wide.sh's), one profile an hour with every stack, each its own row
# of prof_profiles, the tables merged (OPTIMIZE ... FINAL: a fleet's
# months are mostly merged parts). Then, each once:
#
#   clickhouse-client   the view's aggregate query (the samples summed
#                       by stack hash, joined with the stacks), RowBinary
#                       to /dev/null
#   deepq load          deepq query --local VIEW cmd=top: the same query,
#                       its answer parsed into the profile, and the page
#   first page          through deepq.cgi under lighttpd (the server
#                       loading the view; "loading" pages followed as a
#                       browser does), then a warm page
#
# with wall-clock milliseconds, the CPU milliseconds of clickhouse-server
# (from /proc) and of deepq, deepq's peak RSS, and the load average
# before each; and deepq's parse of clickhouse-client's answer alone
# (bench/viewbench; KEEP=DIR keeps the answers there). Uses the build in
# top_builddir (an optimized one for figures worth quoting). Needs clickhouse-server and clickhouse-client;
# 10^7 stacks take some 10 GB of disk and tens of minutes on two cores.
set -eu
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/clickhouse-lib.sh"
. "$top_srcdir/bench/lib.sh"
trap 'ch_stop; [ -z "${lpid:-}" ] || kill "$lpid" 2>/dev/null;
    "$DEEPQ" stop --all >/dev/null 2>&1 || :; cleanup' EXIT
: "${SERVER:=$top_builddir/server/deepq-server}"
: "${CGI:=$top_builddir/cgi/deepq.cgi}"
: "${SAMPLES:=100000000}"
command -v clickhouse-client >/dev/null 2>&1 ||
    skip_all "clickhouse-client is not installed"
[ $# -gt 0 ] || set -- 1000000 10000000

ms() { echo $(($(date +%s%N) / 1000000)); }
tck=$(getconf CLK_TCK)
# chcpu: clickhouse-server's CPU milliseconds so far.
chcpu() {
	awk -v t="$tck" '{ print int(($14 + $15) * 1000 / t) }' \
	    "/proc/$(cat "$tmp/clickhouse.pid")/stat"
}
load() { cut -d' ' -f1-3 /proc/loadavg; }
# big SQL: a statement that may take long (making 10^8 rows).
big() {
	curl -sS --fail-with-body --max-time 7200 \
	    "$ch_url?max_execution_time=7200" --data-binary "$1"
}
row() { printf '%s\t%s\t%s\n' "$@"; }

ch_start
mkdir -p "$tmp/www/cgi-bin" "$tmp/root"
cp "$CGI" "$tmp/www/cgi-bin/deepq.cgi"
run=$(bench_rundir "$tmp")
printf 'profile_root = %s\nruntime_dir = %s\nserver_path = %s\nload_timeout = 900\nquery_timeout = 900\nload_wait = 60\nidle_timeout = 900\n' \
    "$tmp/root" "$run" "$SERVER" >"$tmp/deepq.conf"
DEEPQ_CONFIG=$tmp/deepq.conf
export DEEPQ_CONFIG
bench_lighttpd clickhouse.sh
"$DEEPQ" ingest --schema --table prof | awk -v RS=';\n' -v dir="$tmp" \
    'NF { f = sprintf("%s/ddl.%d", dir, NR); printf "%s", $0 >f; close(f) }'
t0=1793491200	# 2026-11-01T00:00:00Z
row stacks measure value
for n in "$@"; do
	d=0
	while [ "$(echo "10 ^ $d" | bc)" -lt "$n" ]; do
		d=$((d + 1))
	done
	p=$((SAMPLES / n))
	for t in prof prof_stacks prof_profiles; do
		ch_sql "DROP TABLE IF EXISTS $t" >/dev/null
	done
	for f in "$tmp"/ddl.*; do
		ch_sql "$(cat "$f")" >/dev/null
	done
	t=$(ms)
	big "INSERT INTO prof_stacks SELECT h,
	    arrayConcat(['main'], arrayMap(x -> concat('f', toString(x)), f)),
	    arrayConcat(['app'], arrayMap(x -> concat('m', toString(x % 40)), f))
	    FROM (SELECT intHash64(number) AS h, arrayMap(l ->
	    intHash32(intDiv(number, toUInt64(pow(10, $d - 1 - l))) * 7 + l)
	    % 5000, range($d)) AS f FROM numbers($n))" >/dev/null
	big "INSERT INTO prof_profiles SELECT number + 1, number + 1,
	    toDateTime($t0 + number * 3600), ['service=bench'], 42,
	    ['samples'], ['count'], [0.], 'bench', $n, $n, now()
	    FROM numbers($p)" >/dev/null
	big "INSERT INTO prof SELECT toDateTime($t0 + intDiv(number, $n) *
	    3600), 42, intDiv(number, $n) + 1, intDiv(number, $n) + 1,
	    'samples', intHash64(number % $n), 1 + number % 97
	    FROM numbers($((p * n)))" >/dev/null
	big "OPTIMIZE TABLE prof FINAL" >/dev/null
	big "OPTIMIZE TABLE prof_stacks FINAL" >/dev/null
	row "$n" "made in ClickHouse (ms; $p profiles, $((p * n)) samples)" \
	    "$(($(ms) - t))"
	printf '# deepq-view 1\nclickhouse = %s\ntable = prof\nselect = {service="bench"}\ntimeout = 900\nmax_rows = 20000000\n' \
	    "$ch_url" >"$tmp/root/v$n.deepq"
	sql="SELECT stack_hash, funcs, modules, v0
FROM prof_stacks
GLOBAL ANY INNER JOIN (
  SELECT stack_hash, sum(value) AS v0
  FROM prof
  WHERE load_id GLOBAL IN (SELECT min(load_id) FROM prof_profiles
      WHERE 1 AND (has(labels, 'service=bench')) GROUP BY profile_id)
    AND series GLOBAL IN (SELECT DISTINCT series FROM prof_profiles
      WHERE 1 AND (has(labels, 'service=bench')))
  GROUP BY stack_hash
) USING stack_hash
LIMIT 40000002
FORMAT RowBinary"
	row "$n" "load average" "$(load)"
	c=$(chcpu)
	t=$(ms)
	clickhouse-client --host 127.0.0.1 --port "$ch_tcp" \
	    --max_execution_time 900 --query "$sql" >"$tmp/answer"
	row "$n" "clickhouse-client: wall ms, server CPU ms, answer MB" \
	    "$(($(ms) - t)) $(($(chcpu) - c)) $(($(stat -c %s "$tmp/answer") / 1048576))"
	# The parse alone, on that answer in memory (bench/viewbench).
	[ ! -x "$top_builddir/bench/viewbench" ] ||
	    row "$n" "deepq's parse of the answer alone: MB, CPU s, MB/s" \
	    "$("$top_builddir/bench/viewbench" -r 1 "$tmp/answer" |
	    cut -f1-3 | tr '\t' ' ')"
	[ -z "${KEEP:-}" ] || cp "$tmp/answer" "$KEEP/answer-$n.bin"
	rm -f "$tmp/answer"
	row "$n" "load average" "$(load)"
	c=$(chcpu)
	t=$(ms)
	(cd "$tmp/root" && /usr/bin/time -f '%U %S %M' -o "$tmp/time" \
	    "$DEEPQ" query --local "v$n.deepq" 'cmd=top&format=json' \
	    >"$tmp/top")
	row "$n" "deepq load + top: wall ms, server CPU ms, deepq CPU ms, peak MB" \
	    "$(($(ms) - t)) $(($(chcpu) - c)) $(awk '{ printf "%d %d",
	    ($1 + $2) * 1000, $3 / 1024 }' "$tmp/time")"
	row "$n" "nodes, total" "$(cd "$tmp/root" && "$DEEPQ" query --local \
	    "v$n.deepq" 'cmd=menu&format=json' | jq -c '[.nodes, .totals]')"
	row "$n" "load average" "$(load)"
	# The first page as a browser gets it: "loading" pages (503, a
	# refresh every 2 s) until the view is loaded, then the page.
	c=$(chcpu)
	t=$(ms)
	loading=0
	while :; do
		st=$(curl -sS -o "$tmp/first" -w '%{http_code}' \
		    "http://127.0.0.1:$port/cgi-bin/deepq.cgi?file=v$n.deepq&cmd=top")
		[ "$st" = 503 ] || break
		loading=$((loading + 1))
		sleep 2
	done
	f=$(($(ms) - t))
	[ "$st" = 200 ] || { echo "first page: $st" >&2; sed -n \
	    's/.*<p[^>]*>//p' "$tmp/first" | head -3 >&2; exit 1; }
	row "$n" "first CGI page: wall ms (after $loading loading pages), server CPU ms" \
	    "$f $(($(chcpu) - c))"
	t=$(ms)
	curl -sS -o /dev/null "http://127.0.0.1:$port/cgi-bin/deepq.cgi?file=v$n.deepq&cmd=tree"
	row "$n" "warm page (tree) ms" "$(($(ms) - t))"
	"$DEEPQ" stop --all >/dev/null 2>&1 || :
done

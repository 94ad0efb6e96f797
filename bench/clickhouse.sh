#!/bin/sh
# clickhouse.sh [SAMPLES...]: for each number of samples (10^6 unless
# given; 10000000 takes minutes and a few GB), a generated folded profile
# of that many leaves (gen-wide.sh, fan-out 10) ingested into a private
# clickhouse-server, then: the time to ingest it, the view's aggregate
# query alone (curl), the view loaded by deepq (query and profile
# build), each the best of three at 10^6 and one run beyond; the first
# page through deepq.cgi under lighttpd (the server loading the view;
# past load_wait the CGI answers "loading" pages, which this follows as
# a browser would) and a warm one. Uses the build in
# top_builddir (an optimized one for figures worth quoting).
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
[ $# -gt 0 ] || set -- 1000000

ms() { echo $(($(date +%s%N) / 1000000)); }
# best N COMMAND...: the best of N runs' milliseconds.
best() {
	_n=$1
	shift
	_b=
	while [ "$_n" -gt 0 ]; do
		_t0=$(ms)
		"$@" >/dev/null
		_t=$(($(ms) - _t0))
		[ -n "$_b" ] && [ "$_b" -le "$_t" ] || _b=$_t
		_n=$((_n - 1))
	done
	echo "$_b"
}

ch_start
mkdir -p "$tmp/www/cgi-bin" "$tmp/root"
cp "$CGI" "$tmp/www/cgi-bin/deepq.cgi"
run=$(bench_rundir "$tmp")
printf 'profile_root = %s\nruntime_dir = %s\nserver_path = %s\nload_timeout = 600\nquery_timeout = 600\nload_wait = 60\n' \
    "$tmp/root" "$run" "$SERVER" >"$tmp/deepq.conf"
DEEPQ_CONFIG=$tmp/deepq.conf
export DEEPQ_CONFIG
bench_lighttpd clickhouse.sh
printf 'samples\tmeasure\tvalue\n'
for n in "$@"; do
	# Best of three at 10^6; one run beyond, where each takes minutes.
	rep=3
	[ "$n" -le 1000000 ] || rep=1
	depth=0
	while [ "$(echo "10 ^ $depth" | bc)" -lt "$n" ]; do
		depth=$((depth + 1))
	done
	sh "$top_srcdir/bench/gen-wide.sh" "$tmp/wide.folded" 10 "$depth"
	ch_sql "DROP TABLE IF EXISTS prof$n" >/dev/null
	t0=$(ms)
	"$DEEPQ" ingest --quiet --clickhouse "$ch_url" --table "prof$n" \
	    --label service=bench "$tmp/wide.folded"
	printf '%s\tingest ms\t%s\n' "$n" "$(($(ms) - t0))"
	rm -f "$tmp/wide.folded"
	printf '# deepq-view 1\nclickhouse = %s\ntable = prof%s\nwhere = has(labels, %s)\ntimeout = 600\nmax_rows = 20000000\n' \
	    "$ch_url" "$n" "'service=bench'" >"$tmp/root/v$n.deepq"
	printf '%s\tstacks\t%s\n' "$n" \
	    "$(ch_sql "SELECT uniqExact(stack_id) FROM prof$n")"
	sql="SELECT metric, min(metric_index), any(unit), max(rate),
	    stack_func, stack_module, sum(value) FROM prof$n
	    WHERE (has(labels, 'service=bench'))
	    GROUP BY metric, stack_func, stack_module
	    LIMIT 20000001 FORMAT RowBinary"
	printf '%s\tquery ms (best of %d)\t%s\n' "$n" "$rep" \
	    "$(best "$rep" curl -sS --fail "$ch_url" --data-binary "$sql")"
	printf '%s\tdeepq load ms (best of %d)\t%s\n' "$n" "$rep" \
	    "$(best "$rep" sh -c "cd '$tmp/root' && '$DEEPQ' query --local v$n.deepq 'cmd=menu&format=json'")"
	# The first page as a browser gets it: "loading" pages (503, a
	# refresh every 2 s) until the view is loaded, then the page.
	t0=$(ms)
	loading=0
	while :; do
		st=$(curl -sS -o "$tmp/first" -w '%{http_code}' \
		    "http://127.0.0.1:$port/cgi-bin/deepq.cgi?file=v$n.deepq&cmd=top")
		[ "$st" = 503 ] || break
		loading=$((loading + 1))
		sleep 2
	done
	f=$(($(ms) - t0))
	[ "$st" = 200 ] || { echo "first page: $st" >&2; sed -n 's/.*<p[^>]*>//p' \
	    "$tmp/first" | head -3 >&2; exit 1; }
	printf '%s\tfirst page ms (after %d loading pages)\t%s\n' "$n" \
	    "$loading" "$f"
	printf '%s\twarm page ms (best of 3)\t%s\n' "$n" \
	    "$(best 3 curl -sS "http://127.0.0.1:$port/cgi-bin/deepq.cgi?file=v$n.deepq&cmd=top")"
	"$DEEPQ" stop --all >/dev/null 2>&1 || :
	ch_sql "DROP TABLE prof$n" >/dev/null
done

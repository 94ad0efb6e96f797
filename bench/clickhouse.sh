#!/bin/sh
# clickhouse.sh [SAMPLES...]: for each number of samples (10^6 unless
# given; 10000000 takes minutes and a few GB), a generated folded profile
# of that many leaves (gen-wide.sh, fan-out 10) ingested into a private
# clickhouse-server, then: the view's aggregate query alone (curl, best
# of three), the view loaded by deepq (query and profile build, best of
# three), and the first page through deepq.cgi under lighttpd (the
# server loading the view; load_wait is at most 60 s, past which the
# page says "loading") and a warm one. Uses the build in
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
best3() {
	_b=
	for _i in 1 2 3; do
		_t0=$(ms)
		"$@" >/dev/null
		_t=$(($(ms) - _t0))
		[ -n "$_b" ] && [ "$_b" -le "$_t" ] || _b=$_t
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
printf 'samples\tstacks\tquery ms\tdeepq load ms\tfirst page ms\twarm page ms\n'
for n in "$@"; do
	depth=0
	while [ "$(echo "10 ^ $depth" | bc)" -lt "$n" ]; do
		depth=$((depth + 1))
	done
	sh "$top_srcdir/bench/gen-wide.sh" "$tmp/wide.folded" 10 "$depth"
	ch_sql "DROP TABLE IF EXISTS prof$n" >/dev/null
	"$DEEPQ" ingest --quiet --clickhouse "$ch_url" --table "prof$n" \
	    --label service=bench "$tmp/wide.folded"
	rm -f "$tmp/wide.folded"
	printf '# deepq-view 1\nclickhouse = %s\ntable = prof%s\nwhere = has(labels, %s)\ntimeout = 600\nmax_rows = 20000000\n' \
	    "$ch_url" "$n" "'service=bench'" >"$tmp/root/v$n.deepq"
	sql="SELECT metric, min(metric_index), any(unit), max(rate),
	    stack_func, stack_module, sum(value) FROM prof$n
	    WHERE (has(labels, 'service=bench'))
	    GROUP BY metric, stack_func, stack_module
	    LIMIT 20000001 FORMAT RowBinary"
	q=$(best3 curl -sS --fail "$ch_url" --data-binary "$sql")
	stacks=$(ch_sql "SELECT uniqExact(stack_id) FROM prof$n")
	l=$(best3 sh -c "cd '$tmp/root' && '$DEEPQ' query --local v$n.deepq 'cmd=menu&format=json'")
	t0=$(ms)
	st=$(curl -sS -o "$tmp/first" -w '%{http_code}' \
	    "http://127.0.0.1:$port/cgi-bin/deepq.cgi?file=v$n.deepq&cmd=top")
	f=$(($(ms) - t0))
	[ "$st" = 200 ] || { echo "first page: $st" >&2; sed -n 's/.*<p[^>]*>//p' \
	    "$tmp/first" | head -3 >&2; exit 1; }
	w=$(best3 curl -sS "http://127.0.0.1:$port/cgi-bin/deepq.cgi?file=v$n.deepq&cmd=top")
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$stacks" "$q" "$l" "$f" "$w"
	"$DEEPQ" stop --all >/dev/null 2>&1 || :
	ch_sql "DROP TABLE prof$n" >/dev/null
done

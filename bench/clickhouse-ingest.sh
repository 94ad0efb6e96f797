#!/bin/sh
# clickhouse-ingest.sh [FANOUT DEPTH]: samples (rows) per second of
# `deepq ingest' of a generated folded profile (gen-wide.sh: FANOUT^DEPTH
# leaves, default 10^6), end to end (reading the file included), against
# clickhouse-client inserting the same rows from TabSeparated into a
# second table of the same schema, on one private clickhouse-server.
# One run of each; report the ratio. Needs clickhouse-server and
# clickhouse-client; uses the build in top_builddir (an optimized one
# for figures worth quoting).
set -eu
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/clickhouse-lib.sh"
trap 'ch_stop; cleanup' EXIT
command -v clickhouse-client >/dev/null 2>&1 ||
    skip_all "clickhouse-client is not installed"
fan=${1:-10}
depth=${2:-6}

sh "$top_srcdir/bench/gen-wide.sh" "$tmp/wide.folded" "$fan" "$depth"
ch_start
ms() { echo $(($(date +%s%N) / 1000000)); }

t0=$(ms)
"$DEEPQ" ingest --quiet --clickhouse "$ch_url" --table prof \
    --label service=bench --time 2026-11-25T10:00:00Z "$tmp/wide.folded"
t1=$(ms)
rows=$(ch_sql "SELECT count() FROM prof")
ch_sql "SELECT * FROM prof FORMAT TabSeparated" >"$tmp/rows.tsv"
ch_sql "CREATE TABLE prof2 AS prof" >/dev/null
t2=$(ms)
clickhouse-client --host 127.0.0.1 --port "$ch_tcp" \
    --query "INSERT INTO prof2 FORMAT TabSeparated" <"$tmp/rows.tsv"
t3=$(ms)
rows2=$(ch_sql "SELECT count() FROM prof2")
[ "$rows" = "$rows2" ] || { echo "row counts differ: $rows $rows2" >&2; exit 1; }

di=$((t1 - t0))
cc=$((t3 - t2))
printf 'rows (samples)\t%d\t(%s MB of TSV)\n' "$rows" \
    "$(($(stat -c %s "$tmp/rows.tsv") / 1048576))"
printf 'deepq ingest (read + insert)\t%d ms\t%d samples/s\n' "$di" \
    "$((rows * 1000 / (di ? di : 1)))"
printf 'clickhouse-client, TSV\t%d ms\t%d samples/s\n' "$cc" \
    "$((rows * 1000 / (cc ? cc : 1)))"
printf 'speed ratio deepq/clickhouse-client\t%s\n' \
    "$(awk -v a="$cc" -v b="$di" 'BEGIN { printf "%.2f", a / (b ? b : 1) }')"

#!/bin/sh
# Profiles in ClickHouse (deepq-clickhouse(7)) against a private
# clickhouse-server: two real profiles ingested with different labels and
# times (again: nothing inserted twice; the same file at another time: a
# profile of its own); a load that broke off and a second load of one
# profile are never read; the view checks of clickhouse-views.sh (views
# by select= and where=, time ranges, narrowings, comparisons, hostile
# query strings and selectors); a hostile label value selected exactly;
# quoting round-trips random bytes through the server; the label picker,
# bounded; a missing table, too many stacks and too many bytes are
# clear errors; ClickHouse stopped is a 503 naming its URL, and the view
# works again once it is back; refresh= and a changed view file load the
# view again; a table of the old one-table schema is migrated and its
# profile reads the same. cmd=series is clickhouse-series.sh's, a
# cluster clickhouse-cluster.sh's.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
. "${0%/*}/clickhouse-lib.sh"
. "${0%/*}/clickhouse-views.sh"
trap 'ch_stop; rdv_cleanup; cleanup' EXIT
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

ch_start
rdv_conf "cache_dir=$tmp/cache"
rdv_httpd
samples=$top_srcdir/tests/data/samples
a=many-functions.cpuprofile
b=recursive.cpuprofile
cp "$samples/$a" "$samples/$b" "$root/"

# Ingest, and again.
check "ingest $a (service=a, 10:00)" "$DEEPQ" ingest --clickhouse "$ch_url" \
    --table prof --label service=a --label host=h1 \
    --time 2026-11-25T10:00:00Z "$root/$a"
check "ingest $b (service=b, 12:00)" "$DEEPQ" ingest --clickhouse "$ch_url" \
    --table prof --label host=h2 --label service=b --label zone=2 \
    --time 2026-11-25T12:00:00+00:00 "$root/$b"
rows=$(chv_url=$ch_url chv_counts)
"$DEEPQ" ingest --clickhouse "$ch_url" --table prof --label service=a \
    --label host=h1 "$root/$a" "$root/$b" --label service=b >"$tmp/again" \
    2>&1 && not_ok "a label key twice refused" || ok "a label key twice refused"
"$DEEPQ" ingest --clickhouse "$ch_url" --table prof --label service=a \
    --label host=h1 --time 2026-11-25T10:00:00Z "$root/$a" >"$tmp/again" 2>&1
[ "$(chv_url=$ch_url chv_counts)" = "$rows" ] &&
    grep -q skipped "$tmp/again" &&
    ok "ingest again: skipped, still $rows rows" ||
    not_ok "ingest again: $(chv_url=$ch_url chv_counts) rows, not $rows"
want="['host=h1','service=a']	1795600800
['host=h2','service=b','zone=2']	1795608000"
[ "$(ch_sql "SELECT labels, toUInt32(ts) FROM prof_profiles
    ORDER BY ts FORMAT TSV")" = "$want" ] &&
    ok "labels sorted by key, times as given" ||
    not_ok "labels and times: $(ch_sql "SELECT labels, ts FROM prof_profiles FORMAT TSV")"
# A load that broke off (its rows, no row in prof_profiles), and a
# second load of one profile (two ingests that raced): neither is read.
ch_sql "INSERT INTO prof SELECT ts, series, profile_id, 7, metric,
    stack_hash, value FROM prof WHERE has((SELECT groupArray(load_id) FROM
    prof_profiles WHERE has(labels, 'service=a')), load_id)"
ch_sql "INSERT INTO prof SELECT ts, series, profile_id, 18446744073709551615,
    metric, stack_hash, value * 1000 FROM prof WHERE load_id = 7"
ch_sql "INSERT INTO prof_profiles SELECT profile_id, 18446744073709551615,
    ts, labels, series, metrics, units, rates, file, stacks, rows, ingested
    FROM prof_profiles WHERE has(labels, 'service=a')"

ch_views "$ch_url"

# The same file at another hour: another profile, and counted.
check "ingest $a again at 11:00 (service=twice)" "$DEEPQ" ingest -q \
    --clickhouse "$ch_url" --table prof --label service=twice \
    --time 2026-11-25T10:00:00Z "$root/$a"
check "and at 11:00" "$DEEPQ" ingest -q --clickhouse "$ch_url" --table prof \
    --label service=twice --time 2026-11-25T11:00:00Z "$root/$a"
"$DEEPQ" ingest --clickhouse "$ch_url" --table prof --label service=twice \
    --time 2026-11-25T11:00:00Z "$root/$a" >"$tmp/again" 2>&1
chv_view twice.deepq "$ch_url" 'select = {service="twice"}'
want=$(jq -nc --argjson x "$(sumof "$a")" \
    '{samples: (2 * $x.samples), time: (2 * $x.time)}')
[ "$(sumof twice.deepq)" = "$want" ] && grep -q skipped "$tmp/again" &&
    ok "the same file at two times: two profiles; the same time: skipped" ||
    not_ok "the same file at two times: $(sumof twice.deepq), want $want"

# A hostile label value, selected exactly, gives its file.
hv="it's \"q\" \\ ; DROP TABLE prof; -- \$x é"
check "ingest $b with a hostile label value" "$DEEPQ" ingest -q \
    --clickhouse "$ch_url" --table prof --label "service=$hv" \
    --time 2026-11-25T13:00:00Z "$root/$b"
sel=$(jq -rn --arg v "$hv" '"{service=\"" + ($v | gsub("\\\\"; "\\\\")
    | gsub("\""; "\\\"")) + "\"}"')
chv_same "cgi: select= of a hostile value" "file=all.deepq&select=$(uri "$sel")" "$b"

# Random bytes through clickhouse_quote, read back in one query.
for i in $(seq 10 69); do
	head -c $((i * 7 % 200)) /dev/urandom >"$tmp/raw.$i"
	printf "\\\\'\n;--x" >>"$tmp/raw.$i"
done
"$top_builddir/tests/unit/test-clickhouse" quote "$tmp"/raw.* >"$tmp/lits"
sql=$(cut -f1 "$tmp/lits" | sed 's/.*/lower(hex(&))/' | paste -sd, -)
curl -sS --max-time 20 "$ch_url" --data-binary \
    "SELECT arrayJoin([$sql])" >"$tmp/got"
cut -f2 "$tmp/lits" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" = 60 ] && cmp -s "$tmp/got" "$tmp/want" &&
    ok "60 random literals read back byte for byte" ||
    not_ok "random literals differ: $(diff "$tmp/got" "$tmp/want" | wc -l)"

# The label picker: bounded, the bound said. 1,100 more profiles of one
# load (their rows in prof_profiles only), each with a label of its own.
ch_sql "INSERT INTO prof_profiles SELECT profile_id + number + 1, load_id,
    ts, [concat('bulk=', toString(number)), 'service=bulk'], series, metrics,
    units, rates, file, stacks, rows, ingested FROM prof_profiles
    ARRAY JOIN range(1100) AS number WHERE labels = ['service=twice']
    AND ts = toDateTime(1795600800)"
chv_view bulk.deepq "$ch_url" 'select = {service="bulk"}'
st=$(rdv_get "file=bulk.deepq&cmd=menu&format=json")
[ "$st" = 200 ] && [ "$(jq -c '[.view.profiles, .view.labels_truncated,
    (.view.labels | length), .totals == '"$(sumof "$a")"']' "$tmp/body")" = \
    '[1100,true,1000,true]' ] &&
    rdv_get "file=bulk.deepq&cmd=menu" >/dev/null &&
    grep -q "More than 1000 labels" "$tmp/body" &&
    grep -q "narrows the view" "$tmp/body" &&
    ok "the label picker: 1000 labels of 1101, the bound in the page" ||
    not_ok "label picker: $st $(jq -c '.view | del(.labels)' "$tmp/body" 2>&1 | head -c 200)"
st=$(rdv_get "file=all.deepq&cmd=menu&format=json")
[ "$(jq -c '[.view.labels[] | select(.key == "host")]' "$tmp/body")" = \
    '[{"key":"host","value":"h1","profiles":1},{"key":"host","value":"h2","profiles":1}]' ] &&
    ok "the label picker lists keys, values and their profiles" ||
    not_ok "label picker of all.deepq: $(head -c 300 "$tmp/body")"

# Clear errors.
chv_view missing.deepq "$ch_url"
sed -i 's/^table = prof$/table = nosuch/' "$root/missing.deepq"
st=$(rdv_get "file=missing.deepq&cmd=top&format=json")
[ "$st" = 422 ] && grep -q "nosuch" "$tmp/body" &&
    ok "a missing table: 422 naming it" ||
    not_ok "missing table: $st $(head -c 200 "$tmp/body")"
chv_view big.deepq "$ch_url" "max_rows = 5"
st=$(rdv_get "file=big.deepq&cmd=top&format=json")
[ "$st" = 422 ] && grep -q "max_rows" "$tmp/body" &&
    ok "too many stacks: 422 naming max_rows" ||
    not_ok "too many rows: $st $(head -c 200 "$tmp/body")"
chv_view bytes.deepq "$ch_url" "max_bytes = 2000"
st=$(rdv_get "file=bytes.deepq&cmd=top&format=json")
[ "$st" = 422 ] && grep -q "max_bytes" "$tmp/body" &&
    ok "too many bytes: 422 naming max_bytes" ||
    not_ok "too many bytes: $st $(head -c 200 "$tmp/body")"

# Migration from the one-table schema of deepq before 2026-11-27:
# tests/data/clickhouse-v1.tsv is that table after `deepq ingest --table
# oldprof --label service=old --time 2026-11-20T08:00:00Z
# many-functions.cpuprofile' by deepq 37fb95f, as SELECT * ... FORMAT
# TabSeparated gave it.
ch_sql "CREATE TABLE oldprof (ts DateTime, labels Array(String),
    profile_id UInt64, metric String, metric_index UInt8, unit String,
    rate Float64, stack_id UInt64, stack_func Array(String),
    stack_module Array(String), value Int64) ENGINE = MergeTree
    PARTITION BY toYYYYMM(ts)
    ORDER BY (labels, ts, profile_id, metric, stack_id)" >/dev/null
curl -sS --fail "$ch_url?query=INSERT%20INTO%20oldprof%20FORMAT%20TabSeparated" \
    --data-binary "@$top_srcdir/tests/data/clickhouse-v1.tsv" >/dev/null
"$DEEPQ" ingest --clickhouse "$ch_url" --table oldprof --label service=new \
    "$root/$b" >"$tmp/old" 2>&1 && not_ok "an old table refused" ||
    { grep -q -- "--migrate" "$tmp/old" &&
    ok "an ingest into an old table: refused, naming --migrate" ||
    not_ok "an old table: $(cat "$tmp/old")"; }
check "deepq ingest --migrate, then an ingest" "$DEEPQ" ingest -q --migrate \
    --clickhouse "$ch_url" --table oldprof --label service=new "$root/$b"
printf '# deepq-view 1\nclickhouse = %s\ntable = oldprof\nselect = {service="old"}\n' \
    "$ch_url" >"$root/old.deepq"
printf '# deepq-view 1\nclickhouse = %s\ntable = oldprof\nwhere = has(labels, %s)\n' \
    "$ch_url" "'service=new'" >"$root/new.deepq"
chv_same "a migrated profile" old.deepq "$a"
chv_same "a profile ingested after the migration" new.deepq "$b"

# ClickHouse stopped: a clear 503 with the URL; back: the view works.
rdv_get "file=a.deepq&cmd=top&format=json" >/dev/null
ch_stop
chv_view down.deepq "$ch_url"
st=$(rdv_get "file=down.deepq&cmd=top&format=json")
[ "$st" = 503 ] && grep -qF "$ch_url" "$tmp/body" &&
    [ -n "$(rdv_header Retry-After)" ] &&
    ok "ClickHouse down: 503 naming $ch_url, Retry-After" ||
    not_ok "ClickHouse down: $st $(head -c 300 "$tmp/body")"
# A loaded view keeps answering from memory until it is out of date.
st=$(rdv_get "file=a.deepq&cmd=top&format=json")
[ "$st" = 200 ] && ok "a loaded view answers while ClickHouse is down" ||
    not_ok "a loaded view while down: $st"
ch_keep_port=1 ch_start
st=$(rdv_get "file=down.deepq&$q")
facts "$tmp/body" >"$tmp/view" 2>/dev/null || :
(cd "$root" && "$DEEPQ" query --local all.deepq "$q") | facts >"$tmp/all"
[ "$st" = 200 ] && cmp -s "$tmp/view" "$tmp/all" &&
    ok "ClickHouse back: the view loads" ||
    not_ok "ClickHouse back: $st $(head -c 300 "$tmp/body")"

# A server that does not answer: bounded by timeout=, a 503.
chv_view slow.deepq "$ch_url" "timeout = 1"
kill -STOP "$(cat "$tmp/clickhouse.pid")"
t0=$(rdv_ms)
st=$(rdv_get "file=slow.deepq&cmd=top&format=json")
t1=$(rdv_ms)
kill -CONT "$(cat "$tmp/clickhouse.pid")"
[ "$st" = 503 ] && grep -q "timed out" "$tmp/body" &&
    ok "ClickHouse not answering: 503, timed out, after $((t1 - t0)) ms (timeout = 1)" ||
    not_ok "ClickHouse not answering: $st in $((t1 - t0)) ms $(head -c 300 "$tmp/body")"

# refresh=: new samples show once the interval has passed.
"$DEEPQ" ingest -q --clickhouse "$ch_url" --table prof --label service=r \
    "$root/$a"
chv_view r.deepq "$ch_url" 'select = {service="r"}' "refresh = 1"
rdv_get "file=r.deepq&$q" >/dev/null
"$DEEPQ" ingest -q --clickhouse "$ch_url" --table prof --label service=r \
    "$root/$b"
want=$(jq -nc --argjson x "$(sumof "$a")" --argjson y "$(sumof "$b")" \
    '{samples: ($x.samples + $y.samples), time: ($x.time + $y.time)}')
rdv_wait 8 sh -c "curl -s '$url?file=r.deepq&$q' | jq -c .totals |
    grep -qF '$want'" && ok "refresh = 1: the new samples show" ||
    not_ok "refresh = 1: $(curl -s "$url?file=r.deepq&$q" | jq -c .totals)"

# The view file changes: the server loads it again.
rdv_get "file=a.deepq&$q" >/dev/null
chv_view a.deepq "$ch_url" 'select = {service="b"}'
rdv_wait 5 sh -c "curl -s '$url?file=a.deepq&$q' | jq -c .totals |
    grep -qF '$(sumof "$b")'" && ok "a changed view file is loaded again" ||
    not_ok "a changed view file: $(curl -s "$url?file=a.deepq&$q" | head -c 200)"

rdv_stop
done_testing

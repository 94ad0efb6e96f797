#!/bin/sh
# Profiles in ClickHouse (deepq-clickhouse(7)) against a private
# clickhouse-server: two real profiles ingested with different labels and
# times (again: nothing inserted twice); a view per label gives exactly
# its file's totals and top rows, a view over both their sum, a time
# range one of them; a comparison of two views through deepq-server and
# the CGI; hostile query strings and a hostile metric= leave the table
# intact; quoting round-trips random bytes through the server; a missing
# table and too many rows are clear errors; ClickHouse stopped is a 503
# naming its URL, and the view works again once it is back.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 120 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
. "${0%/*}/clickhouse-lib.sh"
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
    --table prof --label host=h2 --label service=b \
    --time 2026-11-25T12:00:00+00:00 "$root/$b"
rows=$(ch_sql "SELECT count() FROM prof")
"$DEEPQ" ingest --clickhouse "$ch_url" --table prof --label service=a \
    --label host=h1 "$root/$a" "$root/$b" --label service=b >"$tmp/again" \
    2>&1 && not_ok "a label key twice refused" || ok "a label key twice refused"
"$DEEPQ" ingest --clickhouse "$ch_url" --table prof --label service=a \
    --label host=h1 --time 2026-11-25T10:00:00Z "$root/$a" >"$tmp/again" 2>&1
[ "$(ch_sql "SELECT count() FROM prof")" = "$rows" ] &&
    grep -q skipped "$tmp/again" &&
    ok "ingest again: skipped, still $rows rows" ||
    not_ok "ingest again: $(ch_sql "SELECT count() FROM prof") rows, not $rows"
# An ingest that broke off: its rows are replaced, not doubled.
ch_sql "ALTER TABLE prof DELETE WHERE has(labels, 'service=a') AND
    rowNumberInAllBlocks() % 2 = 0" >/dev/null 2>&1 ||
    ch_sql "ALTER TABLE prof DELETE WHERE has(labels, 'service=a') AND
    stack_id % 2 = 0" >/dev/null
rdv_wait 20 sh -c "[ \"\$(curl -s '$ch_url' --data-binary 'SELECT count() FROM prof')\" != $rows ]" || :
"$DEEPQ" ingest --clickhouse "$ch_url" --table prof --label service=a \
    --label host=h1 --time 2026-11-25T10:00:00Z "$root/$a" >"$tmp/again" 2>&1
[ "$(ch_sql "SELECT count() FROM prof")" = "$rows" ] &&
    grep -q deleting "$tmp/again" &&
    ok "a partial ingest is completed: $rows rows" ||
    not_ok "partial: $(ch_sql "SELECT count() FROM prof") rows, not $rows"
# Asked until it answers so (20 s at most): the delete above is a
# mutation ClickHouse may still be applying, and a busy server may
# refuse a query meanwhile.
want="['host=h1','service=a']	1795600800
['host=h2','service=b']	1795608000"
n=0
until [ "$(ch_sql "SELECT DISTINCT labels, toUnixTimestamp(ts) FROM prof
    ORDER BY 2 FORMAT TSV" 2>/dev/null)" = "$want" ] || [ $n -ge 40 ]; do
	n=$((n + 1))
	sleep 0.5
done
[ $n -lt 40 ] &&
    ok "labels sorted by key, times as given" ||
    not_ok "labels and times: $(ch_sql "SELECT DISTINCT labels, ts FROM prof FORMAT TSV")"

view() {
	_f=$1
	shift
	{ echo '# deepq-view 1'; echo "clickhouse = $ch_url"; \
	    echo "table = prof"; for _l; do echo "$_l"; done; } >"$root/$_f"
}
view a.deepq "where = has(labels, 'service=a')"
view b.deepq "where = has(labels, 'service=b')" "refresh = 3600"
view all.deepq
view morning.deepq "from = 2026-11-25T09:00:00Z" "to = 2026-11-25T11:00Z"

# What must be equal: totals, and each row's name, module, self and total.
facts() {
	jq -c '.totals, ([.rows[] | [.name, .module, .self, .total]] | sort)' "$@"
}
q='cmd=top&format=json&limit=100000'
for v in "a.deepq $a" "b.deepq $b" "morning.deepq $a"; do
	set -- $v
	(cd "$root" && "$DEEPQ" query --local "$2" "$q") | facts >"$tmp/file"
	(cd "$root" && "$DEEPQ" query --local "$1" "$q") | facts >"$tmp/view"
	[ -s "$tmp/file" ] && cmp -s "$tmp/file" "$tmp/view" &&
	    ok "$1 = $2: totals and $(jq length "$tmp/file" | tail -1) top rows" ||
	    { not_ok "$1 = $2"; diff "$tmp/file" "$tmp/view" | head -5 |
	    sed 's/^/# /'; }
done
sumof() {
	(cd "$root" && "$DEEPQ" query --local "$1" "$q") | jq -c .totals
}
want=$(jq -nc --argjson x "$(sumof "$a")" --argjson y "$(sumof "$b")" \
    '{samples: ($x.samples + $y.samples), time: ($x.time + $y.time)}')
got=$(sumof all.deepq)
[ "$got" = "$want" ] && ok "all.deepq: the sum $got" ||
    not_ok "all.deepq: $got, want $want"

# Through the server and the CGI: the same answers, and a comparison.
cmpfacts() {
	jq -c '.totals, ([.rows[] | [.name, .module, .self, .total, .diff]] |
	    sort)' "$@" 2>/dev/null || :
}
cq='base=b.deepq&cmd=top&sort=delta&format=json&limit=100000'
(cd "$root" && "$DEEPQ" query --local a.deepq "$cq") >"$tmp/local"
(cd "$root" && "$DEEPQ" query --local "$a" "base=$b&cmd=top&sort=delta&format=json&limit=100000") |
    cmpfacts >"$tmp/files"
st=$(rdv_get "file=a.deepq&$cq")
[ "$st" = 200 ] && cmp -s "$tmp/local" "$tmp/body" &&
    ok "cgi: a.deepq against base=b.deepq = local" ||
    not_ok "cgi comparison: $st $(head -c 200 "$tmp/body")"
cmpfacts "$tmp/body" >"$tmp/views"
[ -s "$tmp/files" ] && cmp -s "$tmp/files" "$tmp/views" &&
    ok "cgi: the views' comparison = the files' comparison" ||
    not_ok "views' comparison differs from the files'"
(cd "$root" && "$DEEPQ" query a.deepq "$cq") >"$tmp/srv" &&
    cmp -s "$tmp/local" "$tmp/srv" &&
    ok "deepq query (server): the comparison = local" ||
    not_ok "deepq query (server): the comparison"
for r in 'cmd=flame&format=svg' 'cmd=tree&format=json' \
    'cmd=folded&format=folded' 'cmd=callers&func=fib&format=json' \
    'cmd=cliques&format=text' 'cmd=top&format=html' \
    'cmd=callgrind&format=callgrind' 't=1~rec&cmd=tree&format=text'; do
	st=$(rdv_get "file=all.deepq&$r")
	[ "$st" = 200 ] && [ -s "$tmp/body" ] && ok "cgi: all.deepq $r" ||
	    not_ok "cgi: all.deepq $r: $st $(head -c 200 "$tmp/body")"
done

# Hostile query strings: nothing of them reaches SQL.
rows=$(ch_sql "SELECT count() FROM prof")
for h in \
    "file=a.deepq&cmd=top&metric=x'%3B%20DROP%20TABLE%20prof%3B--" \
    "file=a.deepq&where=1%29%20OR%201%3D1&table=system.tables" \
    "file=a.deepq&cmd=top&func=%27%20OR%20%271%27%3D%271&format=json" \
    "file=a.deepq&base=all.deepq%27%3B%20DROP%20TABLE%20prof&cmd=top" \
    "file=a.deepq&clickhouse=http%3A%2F%2F127.0.0.1%3A1%2F&cmd=top" \
    "file=..%2Fclickhouse%2Fconfig.xml&cmd=top"; do
	rdv_get "$h" >/dev/null
done
[ "$(ch_sql "SELECT count() FROM prof")" = "$rows" ] &&
    ok "hostile query strings: the table intact ($rows rows)" ||
    not_ok "hostile query strings: the table changed"
view hostile.deepq "metric = x' OR 1=1; DROP TABLE prof; --"
(cd "$root" && "$DEEPQ" query --local hostile.deepq 'cmd=top') \
    >"$tmp/out" 2>&1 && not_ok "hostile metric= loads" ||
    { grep -q "no samples match" "$tmp/out" &&
    [ "$(ch_sql "SELECT count() FROM prof")" = "$rows" ] &&
    ok "hostile metric=: no samples match, the table intact" ||
    not_ok "hostile metric=: $(cat "$tmp/out")"; }
bad=0
for i in $(seq 1 60); do
	head -c $((i * 7 % 200)) /dev/urandom >"$tmp/raw"
	printf "\\\\'\n;--x" >>"$tmp/raw"
	lit=$("$top_builddir/tests/unit/test-clickhouse" quote <"$tmp/raw")
	got=$(curl -sS --max-time 10 "$ch_url" --data-binary \
	    "SELECT lower(hex($lit))")
	[ "$got" = "$(od -An -v -tx1 "$tmp/raw" | tr -d ' \n')" ] ||
	    bad=$((bad + 1))
done
[ "$bad" = 0 ] && ok "60 random literals read back byte for byte" ||
    not_ok "$bad random literals differ"

# Clear errors.
view missing.deepq "table = nosuch" 2>/dev/null
sed -i 's/^table = prof$//' "$root/missing.deepq"
st=$(rdv_get "file=missing.deepq&cmd=top&format=json")
[ "$st" = 422 ] && grep -q "nosuch" "$tmp/body" &&
    ok "a missing table: 422 naming it" ||
    not_ok "missing table: $st $(head -c 200 "$tmp/body")"
view big.deepq "max_rows = 5"
st=$(rdv_get "file=big.deepq&cmd=top&format=json")
[ "$st" = 422 ] && grep -q "max_rows" "$tmp/body" &&
    ok "too many rows: 422 naming max_rows" ||
    not_ok "too many rows: $st $(head -c 200 "$tmp/body")"

# ClickHouse stopped: a clear 503 with the URL; back: the view works.
ch_stop
view down.deepq
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
view slow.deepq "timeout = 1"
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
view r.deepq "where = has(labels, 'service=r')" "refresh = 1"
rdv_get "file=r.deepq&$q" >/dev/null
"$DEEPQ" ingest -q --clickhouse "$ch_url" --table prof --label service=r \
    "$root/$b"
rdv_wait 8 sh -c "curl -s '$url?file=r.deepq&$q' | jq -c .totals |
    grep -qF '$want'" && ok "refresh = 1: the new samples show" ||
    not_ok "refresh = 1: $(curl -s "$url?file=r.deepq&$q" | jq -c .totals)"

# The view file changes: the server loads it again.
rdv_get "file=a.deepq&$q" >/dev/null
echo "where = has(labels, 'service=b')" >>"$root/a.deepq"
sed -i "0,/^where = has(labels, 'service=a')$/{//d}" "$root/a.deepq"
rdv_wait 5 sh -c "curl -s '$url?file=a.deepq&$q' | jq -c .totals |
    grep -qF '$(sumof "$b")'" && ok "a changed view file is loaded again" ||
    not_ok "a changed view file: $(curl -s "$url?file=a.deepq&$q" | head -c 200)"
rdv_stop
done_testing

#!/bin/sh
# A ClickHouse cluster (deepq-clickhouse(7), CLUSTERS): two private
# clickhouse-server shards on loopback, started together, each with the
# remote_servers section of cluster "deepq" and the tables of
# `deepq ingest --schema --cluster deepq` (local tables and Distributed
# ones over them). deepq ingest writes through the Distributed tables:
# each profile's rows on one shard, both shards used, each stack once.
# Then every view check of the single server (clickhouse-views.sh) on
# the cluster, with the same answers; a shard stopped is a 503 that names
# it, and the view loads again once the shard is back.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
. "${0%/*}/clickhouse-lib.sh"
. "${0%/*}/clickhouse-views.sh"
trap 'ch_stop 1; ch_stop 2; rdv_cleanup; cleanup' EXIT
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

ch_cluster_start
rdv_conf "cache_dir=$tmp/cache"
rdv_httpd
samples=$top_srcdir/tests/data/samples
a=many-functions.cpuprofile
b=recursive.cpuprofile
c=firefox.folded
cp "$samples/$a" "$samples/$b" "$root/"

# The schema as deepq prints it, statement by statement, on each shard:
# prof for the view checks, fleet for a few more profiles.
{ "$DEEPQ" ingest --schema --cluster deepq --table prof &&
    "$DEEPQ" ingest --schema --cluster deepq --table fleet; } >"$tmp/schema.sql"
n=0
for s in 1 2; do
	rm -f "$tmp"/stmt.*
	awk -v RS=';\n' -v dir="$tmp" 'NF { f = sprintf("%s/stmt.%03d", dir,
	    NR); printf "%s", $0 >f; close(f) }' "$tmp/schema.sql"
	for f in "$tmp"/stmt.*; do
		ch_sql_on $s "$(cat "$f")" >/dev/null && n=$((n + 1))
	done
done
[ "$n" = 24 ] && ok "deepq ingest --schema --cluster: 6 statements a table on each shard" ||
    not_ok "the cluster's schema: $n of 24 statements ran"

check "ingest $a (service=a, 10:00) through the cluster" "$DEEPQ" ingest \
    --clickhouse "$ch1_url" --table prof --label service=a --label host=h1 \
    --time 2026-11-25T10:00:00Z "$root/$a"
check "ingest $b (service=b, 12:00)" "$DEEPQ" ingest --clickhouse "$ch1_url" \
    --table prof --label host=h2 --label service=b --label zone=2 \
    --time 2026-11-25T12:00:00+00:00 "$root/$b"
for h in 1 2 3 4 5 6; do
	"$DEEPQ" ingest -q --clickhouse "$ch1_url" --table fleet \
	    --label service=c --time "2026-11-24T0$h:00:00Z" \
	    "$top_srcdir/tests/data/$c" || not_ok "ingest $c at 0$h:00"
done
"$DEEPQ" ingest --clickhouse "$ch1_url" --table prof --label service=a \
    --label host=h1 --time 2026-11-25T10:00:00Z "$root/$a" >"$tmp/again" 2>&1
grep -q skipped "$tmp/again" && ok "ingest again through the cluster: skipped" ||
    not_ok "ingest again: $(cat "$tmp/again")"

# Sharded by profile: each profile's rows on one shard, both used; each
# stack on one shard.
bad=
for t in prof fleet; do
	p1=$(ch_sql_on 1 "SELECT count() FROM ${t}_profiles_local")
	p2=$(ch_sql_on 2 "SELECT count() FROM ${t}_profiles_local")
	split=$(for s in 1 2; do ch_sql_on $s "SELECT DISTINCT profile_id
	    FROM ${t}_local FORMAT TSV"; done | sort | uniq -d | wc -l)
	dup=$(for s in 1 2; do ch_sql_on $s "SELECT DISTINCT stack_hash FROM
	    ${t}_stacks_local FORMAT TSV"; done | sort | uniq -d | wc -l)
	[ "$p1" -gt 0 ] && [ "$p2" -gt 0 ] && [ "$split" = 0 ] &&
	    [ "$dup" = 0 ] || bad="$bad $t: $p1 + $p2 profiles, $split split, $dup stacks twice;"
	n="${n:+$n, }$t $p1 + $p2"
done
[ "$(ch_sql_on 1 "SELECT count() FROM prof_profiles_local")" = 1 ] &&
    [ "$(ch_sql_on 2 "SELECT count() FROM prof_profiles_local")" = 1 ] &&
    [ "$(ch_sql_on 1 "SELECT count() FROM fleet_profiles")" = 6 ] &&
    [ -z "$bad" ] &&
    ok "sharded by profile ($n profiles), none split, each stack once" ||
    not_ok "sharding:$bad"

ch_views "$ch1_url"

# A view through the other shard: the same answer.
chv_view other.deepq "$ch2_url"
chv_same "all.deepq through shard 2" other.deepq all.deepq

# A shard stopped: a 503 naming it; back: the view loads again.
ch_stop 2
chv_view down.deepq "$ch1_url"
st=$(rdv_get "file=down.deepq&cmd=top&format=json")
[ "$st" = 503 ] && grep -qF "127.0.0.1:$ch2_tcp" "$tmp/body" &&
    [ -n "$(rdv_header Retry-After)" ] &&
    ok "a shard stopped: 503 naming it (127.0.0.1:$ch2_tcp)" ||
    not_ok "a shard stopped: $st $(head -c 300 "$tmp/body")"
st=$(rdv_get "file=all.deepq&select=$(uri '{service="a"}')&cmd=top&format=json")
[ "$st" = 503 ] && grep -qF "127.0.0.1:$ch2_tcp" "$tmp/body" &&
    ok "a shard stopped: a narrowing is a 503 naming it" ||
    not_ok "a narrowing with a shard stopped: $st $(head -c 300 "$tmp/body")"
ch_restart 2
chv_same "shard 2 back: the view loads" down.deepq all.deepq
rdv_stop
done_testing

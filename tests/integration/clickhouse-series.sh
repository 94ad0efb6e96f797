#!/bin/sh
# A function's share over time (cmd=series, deepq-clickhouse(7)) against a
# private clickhouse-server: a profile an hour for a day; "hot" has 10% of
# the samples until 14:00, when version 1.1 is deployed, and 40% after.
# Each bucket's self, total and all equal the figures deepq gives for its
# file; the share jumps at bucket 14 and the deploy is marked there; the
# page draws the chart and links a comparison of after against before,
# which answers; a step that makes too many buckets is raised and the
# page says so; a profile that is not a view is refused.
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
a=many-functions.cpuprofile
cp "$top_srcdir/tests/data/samples/$a" "$root/"

# "rec" calls itself: hot's total counts each stack once.
day=1795564800
for h in $(seq 0 23); do
	if [ "$h" -lt 14 ]; then
		hot=$((10 + h % 3)) v=1.0
	else
		hot=$((40 + h % 3)) v=1.1
	fi
	printf 'main;work;hot %d\nmain;work;cold %d\nmain;rec;rec;hot %d\nmain;rec %d\n' \
	    "$hot" $((90 - hot)) "$h" $((h + 1)) >"$root/h$h.folded"
	"$DEEPQ" ingest -q --clickhouse "$ch_url" --table prof \
	    --label service=day --label "version=$v" \
	    --time "@$((day + h * 3600 + 60))" "$root/h$h.folded" ||
	    not_ok "ingest h$h.folded"
done
chv_view day.deepq "$ch_url" 'select = {service="day"}'
st=$(rdv_get "file=day.deepq&cmd=series&func=hot&step=3600&format=json")
cp "$tmp/body" "$tmp/series"
bad=0
for h in $(seq 0 23); do
	(cd "$root" && "$DEEPQ" query --local "h$h.folded" \
	    "cmd=func&func=hot&format=json") >"$tmp/f"
	want=$(jq -c '[.function.self.samples, .function.total.samples]' \
	    "$tmp/f")
	all=$(sumof "h$h.folded" | jq .samples)
	got=$(jq -c --argjson t $((day + h * 3600)) '.buckets[] |
	    select(.start == $t) | [.values.samples.self,
	    .values.samples.total]' "$tmp/body")
	gall=$(jq --argjson t $((day + h * 3600)) '.buckets[] |
	    select(.start == $t) | .values.samples.all' "$tmp/body")
	[ "$got" = "$want" ] && [ "$gall" = "$all" ] || {
		bad=$((bad + 1))
		echo "# bucket $h: $got/$gall, file: $want/$all"
	}
done
[ "$st" = 200 ] && [ "$bad" = 0 ] &&
    [ "$(jq '.buckets | length' "$tmp/body")" = 24 ] &&
    ok "series: 24 buckets, each = its file's self, total and all" ||
    not_ok "series: $st, $bad buckets differ"
jump=$(jq -r '[.buckets[] | .total.samples] as $s | [range(1; $s | length) |
    select($s[.] - $s[. - 1] > 0.2)] | map(. | tostring) | join(",")' \
    "$tmp/body")
[ "$jump" = 14 ] &&
    [ "$(jq -c '[.markers[] | [.time, .value]]' "$tmp/body")" = \
    "[[$((day + 60)),\"1.0\"],[$((day + 14 * 3600 + 60)),\"1.1\"]]" ] &&
    ok "series: the share jumps at bucket 14, where version 1.1 is marked" ||
    not_ok "series: jump at $jump, markers $(jq -c .markers "$tmp/body")"
st=$(rdv_get "file=day.deepq&cmd=series&func=hot&step=3600")
grep -q "<svg" "$tmp/body" && grep -q "polyline" "$tmp/body" &&
    link=$(sed -n 's/.*href="?\([^"]*\)">after against before.*/\1/p' \
    "$tmp/body" | tail -1 | sed 's/&amp;/\&/g') && [ -n "$link" ] &&
    ok "series page: the chart and a before/after link" ||
    not_ok "series page: $st $(head -c 200 "$tmp/body")"
# After the deploy against before it: the sums of those buckets.
st=$(rdv_get "${link%%&format=*}&format=json")
want=$(jq -c '[.buckets[] | .values.samples.all] |
    {samples: (.[14:] | add), base: (.[:14] | add)}' "$tmp/series")
[ "$st" = 200 ] && [ "$(jq -c .totals "$tmp/body")" = "$want" ] &&
    [ "$(jq -r .base "$tmp/body")" = day.deepq ] &&
    ok "series: after against before the deploy = those buckets' sums" ||
    not_ok "before/after: $st $(jq -c .totals "$tmp/body"), want $want ($link)"
st=$(rdv_get "file=day.deepq&cmd=series&func=hot&step=1&format=json")
[ "$st" = 200 ] && [ "$(jq -c '[.step_asked, .step >= 83,
    (.buckets | length) <= .max_buckets]' "$tmp/body")" = '[1,true,true]' ] &&
    rdv_get "file=day.deepq&cmd=series&func=hot&step=1" >/dev/null &&
    grep -q "step raised" "$tmp/body" &&
    ok "series: step=1 over a day raised, said in the page" ||
    not_ok "series bound: $st $(head -c 300 "$tmp/body")"
st=$(rdv_get "file=$a&cmd=series&func=1")
[ "$st" = 400 ] && ok "series of a profile file: 400" ||
    not_ok "series of a file: $st"
rdv_stop
done_testing

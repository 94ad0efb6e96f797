# The view checks of a ClickHouse test, run alike on one server
# (clickhouse.sh) and on a cluster of two shards (clickhouse-cluster.sh),
# sourced after rendezvous-lib.sh and clickhouse-lib.sh. ch_views URL
# expects $a ingested into table prof with service=a, host=h1 at
# 2026-11-25T10:00:00Z and $b with service=b, host=h2, zone=2 at 12:00
# (on two shards of a cluster: the profile ids are odd and even), both
# copied into $root: each view must give exactly its files' totals and
# rows (labels by select= and by where=, a time range, the query's own
# select=, comparisons by base= and by base_select=); through the CGI and
# deepq-server too; hostile query strings and selectors, in every
# position of a matcher, leave the tables intact and give 400 or the
# right rows.

q='cmd=top&format=json&limit=100000'

# chv_view FILE URL LINE...: write a view file in $root.
chv_view() {
	_f=$1
	_u=$2
	shift 2
	{ echo '# deepq-view 1'; echo "clickhouse = $_u"; \
	    echo "table = prof"; for _l; do echo "$_l"; done; } >"$root/$_f"
}

# What must be equal: totals, and each row's name, module, self and total.
facts() {
	jq -c '.totals, ([.rows[] | [.name, .module, .self, .total]] | sort)' "$@"
}
cmpfacts() {
	jq -c '.totals, ([.rows[] | [.name, .module, .self, .total, .diff]] |
	    sort)' "$@" 2>/dev/null || :
}
sumof() {
	(cd "$root" && "$DEEPQ" query --local "$1" "$q") | jq -c .totals
}
# uri TEXT: percent-encoded.
uri() {
	jq -rn --arg s "$1" '$s | @uri'
}

# chv_same NAME QUERY-OR-FILE FILE: a view's facts against a file's.
chv_same() {
	(cd "$root" && "$DEEPQ" query --local "$3" "$q") | facts >"$tmp/file"
	case $2 in
	*=*)	st=$(rdv_get "$2&$q")
		facts "$tmp/body" >"$tmp/view" 2>/dev/null || : ;;
	*)	st=200
		(cd "$root" && "$DEEPQ" query --local "$2" "$q") |
		    facts >"$tmp/view" ;;
	esac
	[ "$st" = 200 ] && [ -s "$tmp/file" ] &&
	    cmp -s "$tmp/file" "$tmp/view" &&
	    ok "$1 = $3: totals and $(jq length "$tmp/file" | tail -1) top rows" ||
	    { not_ok "$1 = $3 ($st)"; diff "$tmp/file" "$tmp/view" |
	    head -5 | cut -c1-200 | sed 's/^/# /'; }
}

# chv_diff A B: the first differences of two files, as comments.
chv_diff() {
	diff "$1" "$2" | head -8 | cut -c1-200 | sed 's/^/# /'
}

# chv_counts: the rows of the three tables (through URL $chv_url).
chv_counts() {
	for _t in prof prof_stacks prof_profiles; do
		curl -sS --max-time 20 "$chv_url" --data-binary \
		    "SELECT count() FROM $_t"
	done | tr '\n' ' '
}

ch_views() {
	chv_url=$1
	chv_view a.deepq "$1" 'select = {service="a"}'
	chv_view b.deepq "$1" "where = has(labels, 'service=b')" \
	    "refresh = 3600"
	chv_view all.deepq "$1"
	chv_view morning.deepq "$1" "from = 2026-11-25T09:00:00Z" \
	    "to = 2026-11-25T11:00Z"
	chv_view sel.deepq "$1" \
	    'select = {service=~"a|b", host!="h2", region=~"(eu-.*)?"}'
	chv_view sql.deepq "$1" "where = arrayExists(l -> match(l, \
'^service=(?:a|b)\$'), labels) AND NOT has(labels, 'host=h2')"

	chv_same "a.deepq (select=)" a.deepq "$a"
	chv_same "b.deepq (where=)" b.deepq "$b"
	chv_same "morning.deepq (from, to)" morning.deepq "$a"
	chv_same "sel.deepq (=~, !=, an absent label)" sel.deepq "$a"
	(cd "$root" && "$DEEPQ" query --local sel.deepq "$q") | facts \
	    >"$tmp/sel"
	(cd "$root" && "$DEEPQ" query --local sql.deepq "$q") | facts \
	    >"$tmp/sql"
	[ -s "$tmp/sel" ] && cmp -s "$tmp/sel" "$tmp/sql" &&
	    ok "a view by selector = the same view as SQL" ||
	    not_ok "selector and SQL views differ"
	want=$(jq -nc --argjson x "$(sumof "$a")" --argjson y "$(sumof "$b")" \
	    '{samples: ($x.samples + $y.samples), time: ($x.time + $y.time)}')
	got=$(sumof all.deepq)
	[ "$got" = "$want" ] && ok "all.deepq: the sum $got" ||
	    not_ok "all.deepq: $got, want $want"
	chv_same "cgi: all.deepq&select={service=\"b\"}" \
	    "file=all.deepq&select=$(uri '{service="b"}')" "$b"
	chv_same "cgi: all.deepq&from_time&to_time" \
	    "file=all.deepq&from_time=1795604400&to_time=1795611600" "$b"
	chv_same "cgi: a narrowing of a selection (select= and select=)" \
	    "file=sel.deepq&select=$(uri '{host="h1"}')" "$a"

	# Comparisons: of two views, of two narrowings of one view. A
	# view's function ids are those of its load (the order ClickHouse
	# sent its stacks in): answers compare by names and figures.
	cq='cmd=top&sort=delta&format=json&limit=100000'
	(cd "$root" && "$DEEPQ" query --local a.deepq "base=b.deepq&$cq") |
	    cmpfacts >"$tmp/local"
	(cd "$root" && "$DEEPQ" query --local "$a" "base=$b&$cq") |
	    cmpfacts >"$tmp/files"
	st=$(rdv_get "file=a.deepq&base=b.deepq&$cq")
	cmpfacts "$tmp/body" >"$tmp/views"
	[ "$st" = 200 ] && [ -s "$tmp/files" ] &&
	    cmp -s "$tmp/files" "$tmp/views" &&
	    cmp -s "$tmp/files" "$tmp/local" &&
	    [ "$(jq -r .base "$tmp/body")" = b.deepq ] &&
	    ok "cgi and local: a.deepq against base=b.deepq = the files'" ||
	    { not_ok "cgi comparison: $st"; chv_diff "$tmp/files" "$tmp/views"; }
	(cd "$root" && "$DEEPQ" query a.deepq "base=b.deepq&$cq") |
	    cmpfacts >"$tmp/srv" && cmp -s "$tmp/files" "$tmp/srv" &&
	    ok "deepq query (server): the comparison = the files'" ||
	    { not_ok "deepq query (server): the comparison";
	    chv_diff "$tmp/files" "$tmp/srv"; }
	st=$(rdv_get "file=all.deepq&select=$(uri '{service="a"}')&base=all.deepq&base_select=$(uri '{service="b"}')&$cq")
	cmpfacts "$tmp/body" >"$tmp/views"
	[ "$st" = 200 ] && cmp -s "$tmp/files" "$tmp/views" &&
	    ok "cgi: select= against base_select= of one view = the files'" ||
	    not_ok "select= against base_select=: $st $(head -c 200 "$tmp/body")"
	st=$(rdv_get "file=all.deepq&from_time=1795600800&to_time=1795604400&base=all.deepq&base_from_time=1795604400&base_to_time=1795611600&$cq")
	cmpfacts "$tmp/body" >"$tmp/views"
	[ "$st" = 200 ] && cmp -s "$tmp/files" "$tmp/views" &&
	    ok "cgi: two time ranges of one view = the files' comparison" ||
	    not_ok "two time ranges: $st $(head -c 200 "$tmp/body")"
	for r in 'cmd=flame&format=svg' 'cmd=tree&format=json' \
	    'cmd=folded&format=folded' 'cmd=callers&func=fib&format=json' \
	    'cmd=cliques&format=text' 'cmd=top&format=html' 'cmd=menu' \
	    'cmd=callgrind&format=callgrind' 't=1~rec&cmd=tree&format=text'; do
		st=$(rdv_get "file=all.deepq&$r")
		[ "$st" = 200 ] && [ -s "$tmp/body" ] &&
		    ok "cgi: all.deepq $r" ||
		    not_ok "cgi: all.deepq $r: $st $(head -c 200 "$tmp/body")"
	done
	st=$(rdv_get "file=$a&select=$(uri '{a="b"}')&cmd=top")
	[ "$st" = 400 ] && grep -q "view files only" "$tmp/body" &&
	    ok "select= on a profile file: 400" ||
	    not_ok "select= on a profile file: $st"

	# Hostile query strings and selectors: nothing of them reaches SQL
	# but as quoted literals and checked regexes.
	rows=$(chv_counts)
	for h in \
	    "file=a.deepq&cmd=top&metric=x'%3B%20DROP%20TABLE%20prof%3B--" \
	    "file=a.deepq&where=1%29%20OR%201%3D1&table=system.tables" \
	    "file=a.deepq&cmd=top&func=%27%20OR%20%271%27%3D%271&format=json" \
	    "file=a.deepq&base=all.deepq%27%3B%20DROP%20TABLE%20prof&cmd=top" \
	    "file=a.deepq&clickhouse=http%3A%2F%2F127.0.0.1%3A1%2F&cmd=top" \
	    "file=..%2Fclickhouse%2Fconfig.xml&cmd=top"; do
		rdv_get "$h" >/dev/null
	done
	bad=0
	# SELECTOR<TAB>the statuses allowed<TAB>the totals of a 200, if any
	while IFS='	' read -r s want tot; do
		st=$(rdv_get "file=all.deepq&select=$(uri "$s")&$q")
		case " $want " in
		*" $st "*) ;;
		*) bad=$((bad + 1)); echo "# $s: $st $(head -c 150 "$tmp/body")" ;;
		esac
		if [ "$st" = 422 ] && ! grep -q "no samples match" "$tmp/body"; then
			bad=$((bad + 1)); echo "# $s: $(head -c 150 "$tmp/body")"
		fi
		if [ "$st" = 200 ] && [ -n "$tot" ] &&
		    [ "$(jq -c .totals "$tmp/body")" != "$(sumof "$tot")" ]; then
			bad=$((bad + 1)); echo "# $s: wrong rows"
		fi
	done <<EOF
{service'--="a"}	400
{"; DROP TABLE prof; --"="a"}	400
{a b="c"}	400
{service=="a"}	400
{service~="a"}	400
{service;="a"}	400
{service="a"};DROP TABLE prof	400
{service="a" OR 1=1}	400
service="a"}	400
{service="a' OR 1=1 --"}	422
{service="a\\' OR \\'1\\'=\\'1"}	422
{service="\\\\'); DROP TABLE prof; --"}	422
{service=\`a'); DROP TABLE prof; --\`}	422
{service="a\\x27"}	400
{service!="x' OR '1'='1"}	200	all.deepq
{service=~"a' OR 1=1 --"}	422
{service=~"')); DROP TABLE prof; --"}	400
{service=~"(?=a)"}	400
{service=~"a{2000}"}	400
{service=~"\\\\1"}	400
{service=~"(a)\\\\1"}	400
{service=~".*"}	200	all.deepq
{service!~"a"}	200	b.deepq
{service!~".*' OR '1'='1"}	200	all.deepq
{service="a",host=~"h[0-9]",zone!~"x.*"}	200	a.deepq
EOF
	[ "$bad" = 0 ] &&
	    ok "hostile selectors in every matcher position: 400 or the right rows" ||
	    not_ok "$bad hostile selectors answered wrong"
	[ "$(chv_counts)" = "$rows" ] &&
	    ok "hostile query strings and selectors: the tables intact ($rows)" ||
	    not_ok "the tables changed: $(chv_counts), were $rows"
}

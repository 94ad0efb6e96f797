#!/bin/sh
# Warm query latency under load: deepq.cgi through lighttpd driven by
# wrk(1) at concurrency 1, 8 and 64 (p50, p99, requests/s), and the same
# queries through the server's pipes alone (bench/pipebench: the client
# rendezvous in a loop, 1, 8 and 64 clients), and through deepq web
# (the same server behind libmicrohttpd, no process per request), and
# through lighttpd's mod_proxy in front of deepq web ("proxy"), and
# through lighttpd's mod_fastcgi to deepq.cgi as a FastCGI responder
# ("fcgi", max-procs processes; FCGI_PROCS, default 2, may list several
# counts, each a row "fcgiN" of its own). First,
# the floor under
# every CGI figure: an empty static CGI program (bench/nullcgi) through
# the same lighttpd at concurrency 1 and 8.
#
#	sh bench/wrk-latency.sh [profile] [seconds]
#
# QUERIES (default 'cmd=top cmd=tree') are the queries measured;
# LIGHTTPD_EXTRA is added to lighttpd's configuration (for example
# 'server.stream-response-body = 1'); ANSWER_CACHE sets the server's
# answer_cache (MB, 0 off; deepq.conf(5)'s default if unset).
#
# Each query is measured twice under wrk: "repeat", the one URL asked
# over and over (with the answer cache, all hits but the first), and
# "distinct", URLs rotated by bench/wrk-distinct.lua over a list made
# from the profile's own function ids (a first JSON tree query): for
# cmd=tree, open= and path= of every node shown at depth 4 with budgets
# 100, 200 and 300; for cmd=top, limits 20 to 80 at every from= that
# gives a full page; for another query, from= 0 to 1999. Each distinct
# run starts in the list where the one before stopped (the tree's list
# wraps within the web and proxy runs: the hit rate shows what the
# answer cache still held). Each line gives the server's
# answer-cache hits over that run (the pipes' too). The
# profile defaults to a generated wide profile of 10^7 call nodes
# (bench/genprof -s wide -n 10000000, 573 MB). Run from the top of a built
# tree (or set top_builddir).
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"
server=$top_builddir/server/deepq-server
cgi=$top_builddir/cgi/deepq.cgi
deepq=$top_builddir/cli/deepq
secs=${2:-5}
command -v wrk >/dev/null || { echo "wrk-latency: wrk is missing" >&2; exit 1; }
for f in "$server" "$cgi" "$deepq" "$LIGHTTPD" "$top_builddir/bench/pipebench" \
    "$top_builddir/bench/nullcgi"; do
	[ -x "$f" ] || { echo "wrk-latency: $f is missing" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
. "$top_srcdir/bench/lib.sh"
rundir=$(bench_rundir "$tmp")
lpid= wpid=
cleanup() {
	[ -z "$wpid" ] || kill -INT "$wpid" 2>/dev/null || :
	[ -z "$wpid" ] || wait "$wpid" 2>/dev/null || :
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all 2>/dev/null || :
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null || :
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

mkdir -p "$tmp/root" "$tmp/www/cgi-bin"
cp "$cgi" "$tmp/www/cgi-bin/deepq.cgi"
cp "$top_builddir/bench/nullcgi" "$tmp/www/cgi-bin/null.cgi"
if [ -n "${1:-}" ]; then
	# A hard link where possible: generated profiles run to gigabytes.
	ln "$1" "$tmp/root/" 2>/dev/null || cp "$1" "$tmp/root/"
	name=${1##*/}
else
	"$top_builddir/bench/genprof" -s wide -n 10000000 >"$tmp/root/w1e7.folded"
	name=w1e7.folded
fi
cat >"$tmp/deepq.conf" <<EOF2
profile_root = $tmp/root
runtime_dir = $rundir
server_path = $server
idle_timeout = 3600
load_wait = 30
load_timeout = 3600
max_cost = 0
${ANSWER_CACHE:+answer_cache = $ANSWER_CACHE}
EOF2
export DEEPQ_CONFIG="$tmp/deepq.conf"

# deepq web (libmicrohttpd) on the same profiles and runtime directory:
# the same deepq-server answers it, with no process started per request.
for try in 1 2 3 4 5 6 7 8 9 10; do
	wport=$(shuf -i 20000-60999 -n 1)
	"$deepq" web --listen "127.0.0.1:$wport" "$tmp/root" \
	    >"$tmp/web.log" 2>&1 &
	wpid=$!
	bench_answers "$wpid" "http://127.0.0.1:$wport/" && break
	kill "$wpid" 2>/dev/null || :
	wpid=
done
[ -n "$wpid" ] || { echo "wrk-latency: deepq web does not start" >&2; exit 1; }
wurl="http://127.0.0.1:$wport"
# lighttpd: deepq.cgi on one port; on another, mod_proxy to deepq web
# (the deployment without a process per request).
# And mod_fastcgi: deepq.cgi started by lighttpd, max-procs processes
# each answering requests in a loop, at /fcgiN/deepq.cgi.
mkdir -p "$tmp/fcgi"
cp "$cgi" "$tmp/fcgi/deepq.cgi"
fcgiconf=
for n in ${FCGI_PROCS:-2}; do
	fcgiconf="$fcgiconf \"/fcgi$n/deepq.cgi\" => (( \"bin-path\" =>
	    \"$tmp/fcgi/deepq.cgi\", \"socket\" => \"$tmp/fcgi/$n.sock\",
	    \"max-procs\" => $n, \"check-local\" => \"disable\",
	    \"bin-environment\" => ( \"DEEPQ_CONFIG\" => \"$DEEPQ_CONFIG\" ) )),"
done
bench_lighttpd wrk-latency "${LIGHTTPD_EXTRA:-}" \
    'server.modules += ( "mod_proxy", "mod_fastcgi" )' \
    "fastcgi.server = ( ${fcgiconf%,} )" \
    "\$SERVER[\"socket\"] == \"127.0.0.1:@PORT2@\" {" \
    "	proxy.server = ( \"\" => (( \"host\" => \"127.0.0.1\"," \
    "	    \"port\" => $wport )) )" "}"
url="http://127.0.0.1:$port/cgi-bin/deepq.cgi"
purl="http://127.0.0.1:$port2"

echo "profile $name ($(stat -c %s "$tmp/root/$name") bytes), $(nproc) CPUs," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
# The cold first page: a browser's first request through lighttpd and
# the CGI, which starts the server and waits for its load (load_wait);
# if the load outlasts that, the 503 "loading" page comes first and the
# time is until a page of the profile is served.
cold() {
	t0=$(date +%s%N)
	while :; do
		code=$(curl -s -o "$tmp/first" -w '%{http_code}' \
		    "$url?file=$name&format=json")
		[ "$code" = 503 ] || break
		sleep 0.1
	done
	t1=$(date +%s%N)
	echo "$1: HTTP $code in $(( (t1 - t0) / 1000000 )) ms;" \
	    "$(sed -n 's/.*"nodes": *\([0-9]*\).*/\1 nodes/p' "$tmp/first")"
}
rss() {
	"$deepq" query "$tmp/root/$name" 'cmd=status&format=json' |
	    sed 's/.*"rss": *\([0-9]*\).*/server RSS \1 bytes/'
}
cold "cold first page (load from the source)"
echo "after the load: $(rss)"
# counters: the answer cache's hits, misses and limit so far.
counters() {
	"$deepq" query "$tmp/root/$name" 'cmd=status&format=json' |
	    sed -n 's/.*"answer_cache": *{\([^}]*\)}.*/\1/p' | tr ',' '\n' |
	    awk -F: '/"hits"/ { h = $2 + 0 } /"misses"/ { m = $2 + 0 }
	    /"limit"/ { l = $2 + 0 } END { print h + 0, m + 0, l + 0 }'
}
# hitrate BEFORE: the hits of the requests since counters printed BEFORE.
hitrate() {
	set -- $1 $(counters)
	awk -v h=$(($4 - $1)) -v m=$(($5 - $2)) -v l="$6" 'BEGIN {
	    if (l == 0)
		print "answer cache off"
	    else
		printf "answer cache %d/%d hits (%.1f%%)\n", h, h + m,
		    h + m ? 100 * h / (h + m) : 0 }'
}
# The distinct URLs, from the function ids of the profile's own tree.
"$deepq" query "$tmp/root/$name" 'cmd=tree&format=json&depth=4&budget=1000' |
    grep -o '"path":"[0-9][0-9,]*"' | sed 's/.*:"\(.*\)"/\1/' |
    sort -u >"$tmp/paths"
nfuncs=$("$deepq" query "$tmp/root/$name" 'cmd=top&format=json&limit=1' |
    sed -n 's/.*"matched": *\([0-9]*\).*/\1/p')
echo "distinct URLs from $(wc -l <"$tmp/paths") call paths of the tree" \
    "(depth 4, budget 1000) and $nfuncs functions"
# urls QUERY: the distinct URL paths for a query, one a line, shuffled
# (the same order every run).
urls() {
	case $1 in
	cmd=tree | cmd=tree\&*)
		for b in 100 200 300; do
			sed "s|.*|$1\&open=&\&budget=$b|" "$tmp/paths"
			sed "s|.*|$1\&path=&\&budget=$b|" "$tmp/paths"
		done ;;
	cmd=top | cmd=top\&*)
		# Full pages only: an empty one past the end costs less.
		for l in 20 30 40 50 60 70 80; do
			[ "$nfuncs" -gt "$l" ] || continue
			seq 0 $((nfuncs - l)) |
			    sed "s|.*|$1\&limit=$l\&from=&|"
		done ;;
	*)
		seq 0 1999 | sed "s|.*|$1\&from=&|" ;;
	esac | sed "s|^|/cgi-bin/deepq.cgi?file=$name\&|" |
	    sed 's/,/%2C/g' | shuf --random-source=/dev/zero
}

# The floor under every CGI figure: an empty static CGI program
# (bench/nullcgi) through the same lighttpd, what the web server's fork,
# exec and wait cost on this machine before any work is done.
for c in 1 8; do
	wrk -t $((c < 2 ? 1 : 2)) -c "$c" -d "${secs}s" --latency \
	    "http://127.0.0.1:$port/cgi-bin/null.cgi" >"$tmp/wrk" 2>&1
	awk -v c="$c" '$1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
	    $1 == "Requests/sec:" { rps = $2 }
	    END { printf "floor  empty static CGI    c=%-3d p50 %s  p99 %s  " \
	    "%s req/s\n", c, p50, p99, rps }' "$tmp/wrk"
done
# measure VIA URL BASE LIST: wrk at concurrency 1, 8 and 64 on URL
# (repeat), then on the paths of LIST from BASE (distinct), continuing
# in LIST where the run before stopped.
measure() {
	for kind in repeat distinct; do
		# A small profile may give no full page to rotate over.
		[ $kind = repeat ] || [ -s "$4" ] || continue
		for c in 1 8 64; do
			t=$((c < 2 ? 1 : 2))
			before=$(counters)
			if [ $kind = repeat ]; then
				wrk -t "$t" -c "$c" -d "${secs}s" --latency \
				    "$2" >"$tmp/wrk" 2>&1
			else
				wrk -t "$t" -c "$c" -d "${secs}s" --latency \
				    -s "$top_srcdir/bench/wrk-distinct.lua" \
				    "$3" -- "$4" "$sent" "$t" >"$tmp/wrk" 2>&1
				sent=$((sent + $(awk '/ requests in / {
				    print $1 }' "$tmp/wrk")))
			fi
			awk -v via="$1" -v q="$q" -v c="$c" -v k="$kind" \
			    -v h="$(hitrate "$before")" '
			    $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
			    $1 == "Requests/sec:" { rps = $2 }
			    /Non-2xx/ { bad = $NF }
			    END { printf "%-6s %-9s %-8s c=%-3d p50 %s  " \
			    "p99 %s  %s req/s  %s%s\n", via, q, k, c, p50,
			    p99, rps, h, bad ? " (" bad " non-2xx!)" : "" }' \
			    "$tmp/wrk"
			# What wrk leaves in flight at 64 (queued in the
			# server, threads of deepq web) drains before the next
			# run: it once doubled the next run's p50.
			[ "$c" -lt 64 ] || sleep 2
		done
	done
}

for q in ${QUERIES:-'cmd=top' 'cmd=tree'}; do
	# Through the pipes alone: bench/pipebench runs the rendezvous in a
	# loop (no process started per query), 1, 8 and 64 clients.
	for c in 1 8 64; do
		before=$(counters)
		out=$("$top_builddir/bench/pipebench" -c "$c" -n $((c < 8 ?
		    1000 : c < 64 ? 250 : 40)) "$name" "$q")
		printf 'pipes  %-9s %s  %s\n' "$q" "$out" "$(hitrate "$before")"
	done
	urls "$q" >"$tmp/urls"
	sent=0
	echo "cgi    $q: repeat = one URL, distinct = $(wc -l <"$tmp/urls")" \
	    "URLs in turn"
	measure cgi "$url?file=$name&$q" "http://127.0.0.1:$port/" "$tmp/urls"
	# mod_fastcgi: deepq.cgi as a FastCGI responder, no process per
	# request.
	for n in ${FCGI_PROCS:-2}; do
		sed "s|^/cgi-bin/|/fcgi$n/|" "$tmp/urls" >"$tmp/furls"
		via=fcgi
		[ "${FCGI_PROCS:-2}" = "$n" ] || via=fcgi$n
		measure "$via" "http://127.0.0.1:$port/fcgi$n/deepq.cgi?file=$name&$q" \
		    "http://127.0.0.1:$port/" "$tmp/furls"
	done
	# deepq web: the same server, no process started per request.
	sed 's|^/cgi-bin/deepq.cgi?|/?|' "$tmp/urls" >"$tmp/wurls"
	measure web "$wurl/?file=$name&$q" "$wurl/" "$tmp/wurls"
	# lighttpd's mod_proxy in front of deepq web.
	measure proxy "$purl/?file=$name&$q" "$purl/" "$tmp/wurls"
done
echo "after the queries above (derived data built): $(rss)"
# Restarted after an idle timeout: from the processed-profile cache.
"$deepq" stop "$tmp/root/$name" >/dev/null 2>&1 || :
sleep 0.5
cold "first page after a restart (from the cache)"

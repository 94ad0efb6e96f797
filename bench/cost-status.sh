#!/bin/sh
# cmd=status beside the heavy answers (issue 30): through lighttpd and
# deepq.cgi, the latency of cmd=status alone, then while each export,
# flame graph and inverted tree runs (in a worker: the 50 ms slice), on
# the red team's two profiles made here: a chain 300,000 calls deep
# (.xz) and 6.6 million call nodes (2,570 x 2,570 folded). Then while
# four clients loop on cmd=callgrind (refused 503 once the workers are
# busy). Before issue 30, cmd=status waited 20 s beside an export of
# the chain (then 504), seconds beside the looping clients.
#
#	sh bench/cost-status.sh [chain|big]...
#
# Run from the top of a release build (or set top_builddir). The heavy
# query's own code and time are printed beside: 503 is its time budget
# (query_timeout), 413 its size (max_answer). Times are curl's
# time_total; on a shared machine read the ratio beside/alone and the
# load average printed.

set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"
server=$top_builddir/server/deepq-server
cgi=$top_builddir/cgi/deepq.cgi
deepq=$top_builddir/cli/deepq
for f in "$server" "$cgi" "$deepq" "$LIGHTTPD"; do
	[ -x "$f" ] || { echo "cost-status: $f is missing" >&2; exit 1; }
done
profiles=${*:-chain big}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
. "$top_srcdir/bench/lib.sh"
rundir=$(bench_rundir "$tmp")
lpid=
cleanup() {
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all 2>/dev/null || :
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null || :
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

mkdir -p "$tmp/root" "$tmp/www/cgi-bin"
cp "$cgi" "$tmp/www/cgi-bin/deepq.cgi"
cat >"$tmp/deepq.conf" <<EOF
profile_root = $tmp/root
runtime_dir = $rundir
server_path = $server
idle_timeout = 600
load_wait = 60
load_timeout = 300
query_timeout = 30
max_workers = 2
answer_cache = 0
EOF
export DEEPQ_CONFIG="$tmp/deepq.conf"
bench_lighttpd cost-status
url="http://127.0.0.1:$port/cgi-bin/deepq.cgi"

# status FILE N: N cmd=status one after the other; "median max" in ms
# (a failed one counts 99999).
status() {
	_i=0
	while [ "$_i" -lt "$2" ]; do
		_i=$((_i + 1))
		curl -s -o "$tmp/status.json" --max-time 60 \
		    -w '%{http_code} %{time_total}\n' \
		    "$url?file=$1&cmd=status&format=json" |
		    awk '{ printf "%d\n", $1 == 200 ? $2 * 1000 : 99999 }'
		sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$tmp/status.json" \
		    >>"$tmp/pids"
	done | sort -n | awk '{ v[NR] = $1 } END {
		printf "%d %d\n", v[int((NR + 1) / 2)], v[NR] }'
}

echo "cmd=status beside heavy answers, $(nproc) CPUs, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-34s %9s %9s %7s %11s\n' profile query 'med ms' 'max ms' \
    ratio 'heavy'
for p in $profiles; do
	case $p in
	chain)
		file=chain.trace.xz
		awk 'BEGIN { n = 300000; print "# deepq-trace 1"
		    print "metric ticks count"
		    for (i = 0; i < n; i++) print "call " i " f" i
		    for (i = 0; i < n; i++)
			print "return " (n + i + 1) " f" (n - 1 - i) }' |
		    xz -1 >"$tmp/root/$file" ;;
	big)
		file=big.folded
		awk 'BEGIN { for (i = 0; i < 2570; i++)
		    for (j = 0; j < 2570; j++) printf "f%d;g%d 1\n", i, j }' \
		    >"$tmp/root/$file" ;;
	*) echo "cost-status: chain or big, not $p" >&2; exit 1 ;;
	esac
	curl -s -o /dev/null --max-time 300 "$url?file=$file&cmd=menu"
	set -- $(status "$file" 9)
	alone=$1
	printf '%-8s %-34s %9s %9s %7s %11s\n' "$p" alone "$1" "$2" 1.0 -
	for q in 'cmd=callgrind&format=callgrind' 'cmd=folded&format=folded' \
	    'cmd=pprof&format=pprof' 'cmd=speedscope&format=speedscope' \
	    'cmd=flame&format=svg' 'cmd=flame&format=json&style=chart' \
	    'cmd=tree&t=1~inv&format=json'; do
		curl -s -o /dev/null --max-time 120 \
		    -w '%{http_code} %{time_total}\n' \
		    "$url?file=$file&$q" >"$tmp/heavy" &
		hpid=$!
		sleep 0.3
		set -- $(status "$file" 5)
		wait "$hpid" || :
		read -r hc ht <"$tmp/heavy"
		printf '%-8s %-34s %9s %9s %7s %11s\n' "$p" "$q" "$1" "$2" \
		    "$(awk "BEGIN { printf \"%.1f\", $1 / ($alone + 0.001) }")" \
		    "$hc $(awk "BEGIN { printf \"%.1fs\", $ht }")"
	done
	# Four clients looping on cmd=callgrind for 10 s.
	i=0
	while [ "$i" -lt 4 ]; do
		i=$((i + 1))
		sh -c "end=\$((\$(date +%s) + 10))
		    while [ \$(date +%s) -lt \$end ]; do
			curl -s -o /dev/null --max-time 60 -w '%{http_code}\n' \
			    '$url?file=$file&cmd=callgrind&format=callgrind'
		    done" >"$tmp/loop.$i" &
		echo $! >"$tmp/loop.$i.pid"
	done
	sleep 1
	set -- $(status "$file" 9)
	for i in 1 2 3 4; do wait "$(cat "$tmp/loop.$i.pid")" || :; done
	n=$(cat "$tmp"/loop.[1-4] | wc -l)
	r=$(cat "$tmp"/loop.[1-4] | grep -c '^503$' || :)
	printf '%-8s %-34s %9s %9s %7s %11s\n' "$p" "4 clients looping callgrind" \
	    "$1" "$2" \
	    "$(awk "BEGIN { printf \"%.1f\", $1 / ($alone + 0.001) }")" \
	    "$r/$n 503"
	# A client that finds no server starts one and waits for its load
	# (load_wait) before its query_timeout: an answer past
	# query_timeout + 15 s means the server was replaced meanwhile.
	echo "$p: servers answering cmd=status: $(sort -u "$tmp/pids" |
	    grep -c .) (pids $(sort -u "$tmp/pids" | tr '\n' ' '))"
	rm -f "$tmp/root/$file" "$tmp/pids"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/bin/sh
# Warm request latency of deepq web: one profile's server is started by a
# first request, then N requests (default 200) are made one after another
# with curl; prints the median, p90 and max of curl's time_total (curl's
# own start is not counted). Also the index page, which scans the
# directory and lists the servers on every request.
#
#	sh bench/web-latency.sh [profile] [requests]
#
# Run from the top of a built tree (or set top_builddir). Private runtime
# directory and config; stops only what it started.

set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
deepq=$top_builddir/cli/deepq
profile=${1:-$top_srcdir/tests/data/samples/workload-fp.folded}
n=${2:-200}
[ -x "$deepq" ] || { echo "web-latency: $deepq is missing" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
. "$top_srcdir/bench/lib.sh"
rundir=$(bench_rundir "$tmp")
wpid=
cleanup() {
	[ -z "$wpid" ] || kill -INT "$wpid" 2>/dev/null || :
	[ -z "$wpid" ] || wait "$wpid" 2>/dev/null || :
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all >/dev/null 2>&1 || :
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir "$tmp/root"
cp "$profile" "$tmp/root/"
name=${profile##*/}
cat >"$tmp/deepq.conf" <<CONF
runtime_dir = $rundir
server_path = $top_builddir/server/deepq-server
idle_timeout = 120
CONF
DEEPQ_CONFIG=$tmp/deepq.conf
export DEEPQ_CONFIG
"$deepq" web --listen 127.0.0.1:0 --www "$top_srcdir/www" "$tmp/root" \
    >"$tmp/out" 2>"$tmp/err" &
wpid=$!
i=0
until grep -q http "$tmp/out"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$tmp/err" >&2; exit 1; }
	sleep 0.05
done
url=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$tmp/out")

# measure LABEL URL: n warm requests, one at a time.
measure() {
	curl -s -o /dev/null "$2"		# start the server, warm up
	i=0
	while [ $i -lt "$n" ]; do
		curl -s -o /dev/null -w '%{time_total}\n' "$2"
		i=$((i + 1))
	done | sort -n >"$tmp/times"
	awk -v label="$1" -v n="$n" '{ t[NR] = $1 * 1000 }
	    END { printf "%-34s n=%d median %.2f ms  p90 %.2f ms  max %.2f ms\n",
	    label, n, t[int((NR + 1) / 2)], t[int(NR * 0.9)], t[NR] }' \
	    "$tmp/times"
}
echo "deepq web, warm, $name ($(wc -c <"$profile") bytes), $(nproc) cores"
measure "cmd=top&format=json" "${url}?file=$name&cmd=top&format=json"
measure "cmd=top (HTML)" "${url}?file=$name&cmd=top"
measure "cmd=tree&format=json" "${url}?file=$name&cmd=tree&format=json"
measure "index (/)" "$url"
measure "static/deepq.css" "${url}static/deepq.css"

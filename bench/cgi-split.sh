#!/bin/sh
# Where the CPU of a warm request through lighttpd + deepq.cgi goes, by
# process: lighttpd itself, the CGI children it reaps (their fork, exec,
# work and exit), deepq-server, and the rest of the machine (wrk, the
# kernel's softirqs). Each page is asked over and over by wrk at
# concurrency 1 for some seconds; the CPU times come from /proc (lighttpd's
# own and its reaped children's, the server's own, the machine's total).
# First, an empty static CGI program (bench/nullcgi): the floor that any
# CGI costs on this machine.
#
#	sh bench/cgi-split.sh [profile] [seconds]
#
# The profile defaults to tests/data/firefox.folded; the pages are
# cmd=top and cmd=tree (HTML) and, with QUERIES, any others. Run from the
# top of a built tree (or set top_builddir); needs wrk, lighttpd, curl.
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"
deepq=$top_builddir/cli/deepq
profile=${1:-$top_srcdir/tests/data/firefox.folded}
secs=${2:-5}
command -v wrk >/dev/null || { echo "cgi-split: wrk is missing" >&2; exit 1; }
for f in "$top_builddir/server/deepq-server" "$top_builddir/cgi/deepq.cgi" \
    "$deepq" "$top_builddir/bench/nullcgi" "$LIGHTTPD"; do
	[ -x "$f" ] || { echo "cgi-split: $f is missing" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
. "$top_srcdir/bench/lib.sh"
rundir=$(bench_rundir "$tmp")
lpid=
cleanup() {
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all >/dev/null 2>&1 || :
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null || :
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

mkdir -p "$tmp/root" "$tmp/www/cgi-bin"
cp "$top_builddir/cgi/deepq.cgi" "$tmp/www/cgi-bin/deepq.cgi"
cp "$top_builddir/bench/nullcgi" "$tmp/www/cgi-bin/null.cgi"
ln "$profile" "$tmp/root/" 2>/dev/null || cp "$profile" "$tmp/root/"
name=${profile##*/}
cat >"$tmp/deepq.conf" <<EOF2
profile_root = $tmp/root
runtime_dir = $rundir
server_path = $top_builddir/server/deepq-server
idle_timeout = 3600
load_wait = 60
max_cost = 0
EOF2
export DEEPQ_CONFIG="$tmp/deepq.conf"
bench_lighttpd cgi-split
url="http://127.0.0.1:$port/cgi-bin"

# The server started and loaded by a first page.
n=0
until [ "$(curl -s -o /dev/null -w '%{http_code}' \
    "$url/deepq.cgi?file=$name&cmd=top")" = 200 ]; do
	n=$((n + 1))
	[ $n -lt 600 ] || { echo "cgi-split: no page" >&2; exit 1; }
	sleep 0.5
done
spid=$(pgrep -f "deepq-server -f $tmp/deepq.conf" | head -1)
[ -n "$spid" ] || { echo "cgi-split: no server" >&2; exit 1; }

# Clock ticks: a process's own, its reaped children's, the machine's.
own() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
reaped() { awk '{ print $16 + $17 }' "/proc/$1/stat"; }
machine() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
hz=$(getconf CLK_TCK)

echo "profile $name, $(nproc) CPUs, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg), wrk c=1 for ${secs} s a page"
echo "ms of CPU per request: all = lighttpd + CGIs + server + other"
for path in null.cgi $(for q in ${QUERIES:-cmd=top cmd=tree}; do
    echo "deepq.cgi?file=$name&$q"; done); do
	curl -s -o "$tmp/page" "$url/$path"
	a=$(machine) l=$(own "$lpid") c=$(reaped "$lpid") s=$(own "$spid")
	wrk -t 1 -c 1 -d "${secs}s" "$url/$path" >"$tmp/wrk" 2>&1
	a=$(($(machine) - a)) l=$(($(own "$lpid") - l))
	c=$(($(reaped "$lpid") - c)) s=$(($(own "$spid") - s))
	awk -v p="${path#*&}" -v n="$(awk '/ requests in / { print $1 }' \
	    "$tmp/wrk")" -v sz="$(stat -c %s "$tmp/page")" -v hz="$hz" \
	    -v a=$a -v l=$l -v c=$c -v s=$s 'BEGIN {
	    f = 1000 / hz / n
	    printf "%-22s %7d B  %5d req  all %5.2f  lighttpd %5.2f  " \
		"CGIs %5.2f  server %5.2f  other %5.2f\n", p, sz, n, a * f,
		l * f, c * f, s * f, (a - l - c - s) * f }'
done

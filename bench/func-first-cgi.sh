#!/bin/sh
# func-first-cgi.sh FILE BUILDDIR...: the first visit of function pages
# through lighttpd and deepq.cgi, and the server's RSS per call node,
# for each built tree given (the first is the reference, e.g. a build of
# main; the others are compared with it in the same run):
#
#	sh bench/func-first-cgi.sh /tmp/wide-1e7.folded /tmp/main /tmp/new
#
# FILE is the profile (bench/genprof -s wide -n 10000000 for the 10^7
# figure, as bench/targets.sh makes it). Per build, in turn, RUNS times
# (default 3): a fresh runtime directory, a server started by the first
# request (cmd=menu, timed: the load from the source) and left to write
# its processed-profile cache (the writer is waited for, so that it
# takes no CPU from what is timed); the server's RSS; then one visit of
# each of NFUNC functions spread over the ids (default 40) and of the
# heaviest, each a page never asked before (no answer cache or memo
# hit): cmd=func, then cmd=callers&by=site, each timed by curl; the
# last function page asked again (an answer-cache hit: what the CGI and
# the pipes cost, the floor under every first visit); the RSS again;
# a tree and a top page (the rest of the derived data built) and the
# RSS once more; and the restart from the cache (stop, first page
# again, timed, then a function page).
# Beside each request's wall time, the server's CPU time for it (from
# /proc/PID/schedstat before and after): wall times on a shared machine
# measure the other load as much as deepq, CPU times do not.
# Every body is compared with the first build's, byte for byte.
# Printed: per build the median over the runs of each figure, and the
# ratio of each build's to the first's.
set -eu
LC_ALL=C
export LC_ALL
[ $# -ge 2 ] || { echo "usage: func-first-cgi.sh FILE BUILDDIR..." >&2; exit 1; }
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
file=$1
shift
runs=${RUNS:-3}
nfunc=${NFUNC:-40}
name=${file##*/}
for b; do
	for f in server/deepq-server cgi/deepq.cgi cli/deepq; do
		[ -x "$b/$f" ] || { echo "func-first-cgi: $b/$f is missing" >&2; exit 1; }
	done
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/func-first-cgi.XXXXXX")
. "$top_srcdir/bench/lib.sh"
lpid=
deepq=
cleanup() {
	[ -z "$deepq" ] || "$deepq" stop --all 2>/dev/null || :
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null || :
	rm -rf "$tmp"
	[ -z "${rundir:-}" ] || rm -rf "$rundir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
mkdir -p "$tmp/root" "$tmp/www/cgi-bin"
# A hard link where it can (the profile root refuses symbolic links).
ln "$file" "$tmp/root/$name" 2>/dev/null || cp "$file" "$tmp/root/$name"
rundir=$(bench_rundir "$tmp")

# The function ids to visit and the heaviest, from the first build.
"$1/cli/deepq" query --local "$file" 'cmd=menu&format=json' >"$tmp/menu"
nfuncs=$(sed -n 's/.*"functions": *\([0-9]*\).*/\1/p' "$tmp/menu")
"$1/cli/deepq" query --local "$file" \
    'cmd=top&sort=self&limit=1&format=json' >"$tmp/top"
heavy=$(sed -n 's/.*"rows": *\[ *{ *"func": *\([0-9]*\).*/\1/p' "$tmp/top")
[ -n "$heavy" ] && [ -n "$nfuncs" ] ||
    { echo "func-first-cgi: no function count or heaviest function" >&2; exit 1; }
funcs=
k=1
while [ $k -le "$nfunc" ]; do
	funcs="$funcs $((1 + (nfuncs - 1) * k / (nfunc + 1)))"
	k=$((k + 1))
done
funcs="$funcs $heavy"

# ms QUERY OUT: one request, its time in ms on stdout; fails unless 200.
ms() {
	curl -sS -o "$2" -w '%{http_code} %{time_total}\n' "$url?file=$name&$1" |
	    awk '$1 != 200 { exit 1 } { printf "%.3f\n", $2 * 1000 }'
}
# first QUERY OUT: the first page, retried while the server says 503
# (loading), for 10 minutes at most; the time until it is served, in ms.
# same_page A B: the two pages are the same but for the site's header.
same_page() {
	grep -v '^<header>' "$1" >"$tmp/same.a" || :
	grep -v '^<header>' "$2" >"$tmp/same.b" || :
	cmp -s "$tmp/same.a" "$tmp/same.b"
}

first() {
	t0=$(date +%s%N)
	_i=0
	until ms "$1" "$2" >/dev/null 2>&1; do
		_i=$((_i + 1))
		[ $_i -lt 12000 ] || { echo "func-first-cgi: $1: no answer" >&2; exit 1; }
		sleep 0.05
	done
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
# The server's CPU time so far, in microseconds.
cpu() {
	awk '{ printf "%d\n", $1 / 1000 }' "/proc/$spid/schedstat"
}
# visit QUERY OUT WALL CPU: one request, its wall time (ms) appended to
# WALL and the server's CPU time for it (ms) to CPU.
visit() {
	_c0=$(cpu)
	ms "$1" "$2" >>"$3"
	_c1=$(cpu)
	echo "$_c0 $_c1" | awk '{ printf "%.3f\n", ($2 - $1) / 1000 }' >>"$4"
}
rss() {
	"$deepq" query "$tmp/root/$name" 'cmd=status&format=json' |
	    sed -n 's/.*"rss": *\([0-9]*\).*/\1/p'
}

echo "func-first-cgi: $name, $nfuncs functions, visiting $nfunc spread" \
    "over the ids and the heaviest ($heavy); $(nproc) CPUs, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
r=0
while [ $r -lt "$runs" ]; do
	r=$((r + 1))
	n=0
	for b; do
		n=$((n + 1))
		out=$tmp/out.$n
		mkdir -p "$out"
		rm -rf "$rundir"
		cp "$b/cgi/deepq.cgi" "$tmp/www/cgi-bin/deepq.cgi"
		cat >"$tmp/deepq.conf" <<EOF
profile_root = $tmp/root
runtime_dir = $rundir
server_path = $b/server/deepq-server
idle_timeout = 600
load_wait = 60
load_timeout = 600
query_timeout = 60
EOF
		export DEEPQ_CONFIG="$tmp/deepq.conf"
		deepq=$b/cli/deepq
		bench_lighttpd func-first-cgi
		url="http://127.0.0.1:$port/cgi-bin/deepq.cgi"
		load=$(first 'cmd=menu&format=json' "$out/menu")
		nodes=$(sed -n 's/.*"nodes": *\([0-9]*\).*/\1/p' "$out/menu")
		# The cache writer, a detached grandchild: wait for its file.
		i=0
		while [ $i -lt 1200 ] && ! ls "$rundir/cache/" 2>/dev/null |
		    grep -qv '\.tmp$'; do
			i=$((i + 1))
			sleep 0.1
		done
		sleep 0.5
		rss0=$(rss)
		spid=$("$deepq" query "$tmp/root/$name" \
		    'cmd=status&format=json' |
		    sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
		for k in func callers repeat; do
			: >"$tmp/$k.$n.$r"
			: >"$tmp/$k-cpu.$n.$r"
		done
		for f in $funcs; do
			visit "cmd=func&func=$f" "$out/func-$f" \
			    "$tmp/func.$n.$r" "$tmp/func-cpu.$n.$r"
			visit "cmd=callers&func=$f&by=site" "$out/callers-$f" \
			    "$tmp/callers.$n.$r" "$tmp/callers-cpu.$n.$r"
		done
		i=0
		while [ $i -lt 20 ]; do
			i=$((i + 1))
			visit "cmd=callers&func=$f&by=site" "$out/repeat" \
			    "$tmp/repeat.$n.$r" "$tmp/repeat-cpu.$n.$r"
		done
		rss1=$(rss)
		ms "cmd=tree" "$out/tree" >/dev/null
		ms "cmd=top" "$out/top" >/dev/null
		rss2=$(rss)
		"$deepq" stop --all
		restart=$(first 'cmd=menu&format=json' "$out/menu2")
		first1=$(ms "cmd=func&func=$heavy&sort=total" "$out/func2")
		"$deepq" stop --all
		kill "$lpid" 2>/dev/null || :
		wait "$lpid" 2>/dev/null || :
		lpid=
		echo "$n $r load $load" >>"$tmp/figures"
		for k in "rss0 $rss0" "rss1 $rss1" "rss2 $rss2"; do
			echo "$n $r $k $nodes" |
			    awk '{ printf "%s %s %s %.2f\n", $1, $2, $3, $4 / $5 }'
		done >>"$tmp/figures"
		echo "$n $r repeat $(sort -n "$tmp/repeat.$n.$r" | sed -n 10p)" \
		    >>"$tmp/figures"
		echo "$n $r repeat-cpu $(sort -n "$tmp/repeat-cpu.$n.$r" |
		    sed -n 10p)" >>"$tmp/figures"
		for k in func callers; do
			sort -n "$tmp/$k-cpu.$n.$r" | awk -v n=$n -v r=$r \
			    -v k=$k '{ v[NR] = $1 } END {
				print n, r, k "-cpu-p50", v[int((NR + 1) / 2)];
				print n, r, k "-cpu-p90", v[int(NR * 0.9 + 0.5)];
				print n, r, k "-cpu-max", v[NR] }' >>"$tmp/figures"
		done
		echo "$n $r first-func-cpu $(sed -n 1p "$tmp/func-cpu.$n.$r")" \
		    >>"$tmp/figures"
		echo "$n $r restart $restart" >>"$tmp/figures"
		echo "$n $r restart-func $first1" >>"$tmp/figures"
		sort -n "$tmp/func.$n.$r" | awk -v n=$n -v r=$r '{ v[NR] = $1 }
		    END { print n, r, "func-p50", v[int((NR + 1) / 2)];
			  print n, r, "func-p90", v[int(NR * 0.9 + 0.5)];
			  print n, r, "func-max", v[NR] }' >>"$tmp/figures"
		sort -n "$tmp/callers.$n.$r" | awk -v n=$n -v r=$r '{ v[NR] = $1 }
		    END { print n, r, "callers-p50", v[int((NR + 1) / 2)];
			  print n, r, "callers-p90", v[int(NR * 0.9 + 0.5)];
			  print n, r, "callers-max", v[NR] }' >>"$tmp/figures"
		echo "$n $r first-func $(sed -n 1p "$tmp/func.$n.$r")" \
		    >>"$tmp/figures"
		# The site's header (a <header> line) is left out: it
		# changes with the UI, the report under it must not.
		if [ $n -gt 1 ]; then
			for f in $funcs; do
				same_page "$tmp/out.1/func-$f" "$out/func-$f" &&
				    same_page "$tmp/out.1/callers-$f" \
				    "$out/callers-$f" || {
					echo "func-first-cgi: $b: func=$f:" \
					    "ANSWERS DIFFER from $1's" >&2
					exit 1
				}
			done
		fi
	done
done
echo "nodes: $nodes; every page of each build byte for byte the first's" \
    "(the site's header aside)"
n=0
for b; do
	n=$((n + 1))
	echo "# build $n: $b"
done
# Per figure, each build's median over the runs and its ratio to build 1.
awk -v nb=$# '
function median(s,   v, k, i, j, t) {
	k = split(s, v, " ")
	for (i = 1; i <= k; i++)
		for (j = i + 1; j <= k; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return v[int((k + 1) / 2)] + 0
}
{
	if (!($3 in seen)) { seen[$3] = 1; order[++nf] = $3 }
	val[$3, $1] = val[$3, $1] " " $4
}
END {
	unit["load"] = "ms"; unit["restart"] = "ms"; unit["restart-func"] = "ms"
	unit["rss0"] = "B/node"; unit["rss1"] = "B/node"; unit["rss2"] = "B/node"
	what["load"] = "first page, load from the source"
	what["rss0"] = "server RSS after the load"
	what["rss1"] = "server RSS after the visits"
	what["rss2"] = "server RSS after a tree and a top page too"
	what["repeat"] = "a page asked again (answer cache), p50"
	what["repeat-cpu"] = "  its server CPU, p50"
	what["func-cpu-p50"] = "  cmd=func first visits, server CPU, p50"
	what["func-cpu-p90"] = "  cmd=func first visits, server CPU, p90"
	what["func-cpu-max"] = "  cmd=func first visits, server CPU, most"
	what["callers-cpu-p50"] = "  cmd=callers first visits, server CPU, p50"
	what["callers-cpu-p90"] = "  cmd=callers first visits, server CPU, p90"
	what["callers-cpu-max"] = "  cmd=callers first visits, server CPU, most"
	what["first-func-cpu"] = "  the first function page, server CPU"
	what["first-func"] = "the first function page after the load"
	what["func-p50"] = "cmd=func first visits, p50"
	what["func-p90"] = "cmd=func first visits, p90"
	what["func-max"] = "cmd=func first visits, slowest"
	what["callers-p50"] = "cmd=callers&by=site first visits, p50"
	what["callers-p90"] = "cmd=callers&by=site first visits, p90"
	what["callers-max"] = "cmd=callers&by=site first visits, slowest"
	what["restart"] = "first page, restart from the cache"
	what["restart-func"] = "then a function page"
	printf "%-50s", "median of the runs"
	for (b = 1; b <= nb; b++)
		printf " %10s", "build " b
	for (b = 2; b <= nb; b++)
		printf " %8s", b "/1"
	printf "\n"
	for (i = 1; i <= nf; i++) {
		f = order[i]
		u = f in unit ? unit[f] : "ms"
		printf "%-50s", what[f] " (" u ")"
		for (b = 1; b <= nb; b++) {
			m[b] = median(val[f, b])
			printf " %10.2f", m[b]
		}
		for (b = 2; b <= nb; b++)
			printf " %8.3f", (m[1] > 0 ? m[b] / m[1] : 0)
		printf "\n"
	}
}' "$tmp/figures"

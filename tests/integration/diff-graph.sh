#!/bin/sh
# Comparisons against call-graph bases (callgrind, gprof: profiles with an
# exact function graph, which the processed-profile cache now holds)
# through deepq-server: every report in every format it answers, through
# deepq.cgi under lighttpd and through `deepq query', equal to `deepq
# query --local' (the base read in process, no cache) byte for byte; for
# two callgrind runs, two gprof runs, and a file against itself. Until
# the cache held the graph, each of these was a 422 through a server.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

need_corpus
rdv_conf "cache_dir=$tmp/cache"
rdv_httpd
cp "$corpus/callgrind/callgrind.out.gzip" \
    "$corpus/callgrind/callgrind.out.workload" \
    "$corpus/gprof/workload-O0.gprof.txt" \
    "$corpus/gprof/workload-O2.gprof.txt" "$root/"

# same FILE QUERY WAYS: the answer through the CGI (cgi in WAYS) and
# through `deepq query' (server) equals the in-process one. (A page's
# links and assets are the front end's: pages are compared through
# deepq query only.)
same() {
	(cd "$root" && "$DEEPQ" query --local "$1" "$2") >"$tmp/local" \
	    2>"$tmp/err" || { not_ok "$1: local: $2: $(cat "$tmp/err")"
		return; }
	case $3 in *cgi*)
		_st=$(rdv_get "file=$1&$2")
		if [ "$_st" = 200 ] && cmp -s "$tmp/local" "$tmp/body"; then
			ok "$1: cgi = local: $2"
		else
			not_ok "$1: cgi = local: $2 (status $_st)"
			{ head -c 300 "$tmp/body"; echo; } | sed 's/^/# /'
		fi
	esac
	case $3 in *server*)
		if (cd "$root" && "$DEEPQ" query "$1" "$2") >"$tmp/srv" &&
		    cmp -s "$tmp/local" "$tmp/srv"; then
			ok "$1: deepq query (server) = local: $2"
		else
			not_ok "$1: deepq query (server) = local: $2"
			{ head -c 300 "$tmp/srv"; echo; } | sed 's/^/# /'
		fi
	esac
}

# every FILE BASE: the reports and formats of a comparison.
every() {
	_b="base=$2"
	# The summary says whether a server answered: all else the same.
	(cd "$root" && "$DEEPQ" query --local "$1" "$_b&format=json") |
	    jq -S 'del(.server)' >"$tmp/local.menu"
	rdv_get "file=$1&$_b&format=json" >/dev/null
	jq -S 'del(.server)' "$tmp/body" >"$tmp/cgi.menu"
	check "$1: cgi = local: $_b&format=json, but for \"server\"" \
	    cmp "$tmp/local.menu" "$tmp/cgi.menu"
	for c in top\&sort=delta tree func\&func=2 callers\&func=2 modules \
	    cliques; do
		same "$1" "$_b&cmd=$c&format=json" cgi,server
		same "$1" "$_b&cmd=$c&format=text" cgi
		same "$1" "$_b&cmd=$c&format=html" server
	done
	same "$1" "$_b&cmd=top&normalize=1&format=json" cgi
	same "$1" "$_b&cmd=flame&format=svg" cgi
	same "$1" "$_b&cmd=flame&format=json" cgi
	same "$1" "$_b&cmd=flame&format=html" server
	for x in folded callgrind pprof speedscope; do
		same "$1" "$_b&cmd=$x&format=$x" cgi
	done
}

every callgrind.out.gzip callgrind.out.workload
every workload-O2.gprof.txt workload-O0.gprof.txt
# A file against itself, and each kind against the other's metric-less
# base: a clear 400 from the server as from --local.
same callgrind.out.workload 'base=callgrind.out.workload&cmd=top&format=json' \
    cgi,server
same workload-O0.gprof.txt 'base=workload-O0.gprof.txt&cmd=top&format=json' \
    cgi,server
st=$(rdv_get 'file=workload-O2.gprof.txt&base=callgrind.out.workload&cmd=top&format=json')
check "gprof against a callgrind base: 400, no metric time ($st)" sh -c \
    "test '$st' = 400 && grep -q 'has no metric time' '$tmp/body'"
check "the call-graph bases went through the cache" \
    sh -c "ls '$tmp/cache' | grep -q '\\.cache\$'"
done_testing

#!/bin/sh
# deepq.cgi as a FastCGI responder under lighttpd's mod_fastcgi, with
# the configuration block of deepq.cgi(8)'s EXAMPLES (its paths made
# this test's): the same lighttpd serves the plain CGI at /cgi-bin/ and
# FastCGI at /fcgi/, and every query gets byte-identical statuses,
# headers and bodies through both (HTML, JSON, text; 200, 400, 403, 404,
# 405; HEAD). Then the FastCGI process's life: the first request starts
# the deepq-server, which is not left a zombie; a deepq-server killed
# with kill -9 is replaced at the next request; a FastCGI process killed
# with kill -9 is started again by lighttpd; 2 x 500 requests leave its
# descriptors and memory as they were; SIGTERM ends it at once;
# cmd=shutdown stops the server through it. Last, the man page's nginx
# block: two processes started by spawn-fcgi behind nginx.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

# The lighttpd FastCGI block of the man page.
awk '/^FastCGI under lighttpd/ { f = 1 } f && /^\.Ed/ { exit }
    f == 2 { print } f && /^\.Bd / { f = 2 }' \
    "$top_srcdir/man/deepq.cgi.8" >"$tmp/man-fcgi.conf"
check "deepq.cgi(8) has a lighttpd FastCGI block with bin-path" \
    grep -q '"bin-path"' "$tmp/man-fcgi.conf"
mkdir -p "$tmp/fcgi-bin"
cp "$CGI" "$tmp/fcgi-bin/deepq.cgi"
fcgi=$tmp/fcgi-bin/deepq.cgi

# fpids: the FastCGI processes (their executable is the copy above).
fpids() {
	for _e in /proc/[0-9]*/exe; do
		if [ "$(readlink "$_e" 2>/dev/null)" = "$fcgi" ]; then
			_e=${_e#/proc/}
			echo "${_e%/exe}"
		fi
	done
}

benv="\"DEEPQ_TEST_HOOKS\" => \"$hooks\","
benv="$benv \"ASAN_OPTIONS\" =>"
benv="$benv \"${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0\","
benv="$benv \"UBSAN_OPTIONS\" => \"${UBSAN_OPTIONS:-}\", "
started=
for try in 1 2 3 4 5 6 7 8 9 10; do
	port=$(shuf -i 20000-60999 -n 1)
	# One process, so that a kill -9 leaves none until lighttpd's
	# restart; the sanitizers' settings and the test hooks reach it.
	sed -e "s|\"/cgi-bin/deepq.cgi\" =>|\"/fcgi/deepq.cgi\" =>|" \
	    -e "s|/usr/lib/deepq/deepq.cgi|$fcgi|" \
	    -e "s|/run/lighttpd/deepq.sock|$tmp/deepq.sock|" \
	    -e "s|/etc/deepq.conf|$conf|" \
	    -e 's|"max-procs" => [0-9]*|"max-procs" => 1|' \
	    -e "s|\"bin-environment\" => ( |&$benv|" \
	    "$tmp/man-fcgi.conf" >"$tmp/fcgi.conf"
	cat >"$tmp/lighttpd.conf" <<EOF2
server.document-root = "$tmp/www"
server.bind = "127.0.0.1"
server.port = $port
server.modules = ( "mod_setenv", "mod_cgi" )
server.errorlog = "$tmp/lighttpd.err"
\$HTTP["url"] =~ "^/cgi-bin/" {
	cgi.assign = ( ".cgi" => "" )
}
setenv.add-environment = ( "DEEPQ_CONFIG" => "$conf",
    "DEEPQ_TEST_HOOKS" => "$hooks",
    "ASAN_OPTIONS" => "${ASAN_OPTIONS:-}",
    "UBSAN_OPTIONS" => "${UBSAN_OPTIONS:-}" )
include "$tmp/fcgi.conf"
EOF2
	if ! "$LIGHTTPD" -tt -f "$tmp/lighttpd.conf" >"$tmp/lighttpd.t" 2>&1
	then
		echo "Bail out! lighttpd refuses the configuration:" \
		    "$(head -3 "$tmp/lighttpd.t")"
		exit 1
	fi
	"$LIGHTTPD" -D -f "$tmp/lighttpd.conf" 2>>"$tmp/lighttpd.err" &
	echo $! >"$tmp/lighttpd.pid"
	if rdv_wait 10 curl -s -o /dev/null --max-time 2 \
	    "http://127.0.0.1:$port/"; then
		started=1
		break
	fi
	kill "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
	wait "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
done
[ -n "$started" ] || {
	echo "Bail out! lighttpd does not start: $(tail -3 "$tmp/lighttpd.err")"
	exit 1
}
cgiurl="http://127.0.0.1:$port/cgi-bin/deepq.cgi"
fcgiurl="http://127.0.0.1:$port/fcgi/deepq.cgi"

# The FastCGI processes are lighttpd's children, stopped with it; any
# left (a test cut short) are killed by pid before $tmp goes.
fcgi_cleanup() {
	_l=$(cat "$tmp/lighttpd.pid" 2>/dev/null || :)
	[ -z "$_l" ] || kill "$_l" 2>/dev/null || :
	for _p in $(fpids) $(cat "$tmp/ngx/spawn.pids" 2>/dev/null); do
		kill -9 "$_p" 2>/dev/null || :
	done
}
trap 'fcgi_cleanup; rdv_cleanup; cleanup' EXIT

check "lighttpd spawned one FastCGI process" rdv_wait 10 sh -c \
    "[ \"\$(ls -l /proc/[0-9]*/exe 2>/dev/null | grep -c -- ' $fcgi\$')\" \
    -eq 1 ]"
fpid=$(fpids)
check "no deepq-server before the first request" rdv_none

# same WANT QUERY [CURL-ARGS]: the query through both, identical.
same() {
	_want=$1 _q=$2
	shift 2
	http_get "$cgiurl" "$_q" cgi "$@"
	http_get "$fcgiurl" "$_q" fcgi "$@"
	_c=$(cat "$tmp/cgi.code")
	check "$_q ${*:-}: CGI $_c, FastCGI $(cat "$tmp/fcgi.code")" \
	    test "$_c $(cat "$tmp/fcgi.code")" = "$_want $_want"
	# With -I curl writes the headers as the body, and the two
	# requests may fall either side of a second: Date: may differ.
	for _s in cgi fcgi; do
		grep -iv '^date:' "$tmp/$_s.body" >"$tmp/$_s.cmp" || :
	done
	check "  the same body ($(wc -c <"$tmp/cgi.body") bytes)" \
	    cmp -s "$tmp/cgi.cmp" "$tmp/fcgi.cmp"
	check "  the same headers" cmp -s "$tmp/cgi.h" "$tmp/fcgi.h"
}

f=firefox.folded
same 200 "file=$f"
check "the first request started one deepq-server" rdv_one

# gzip: curl --compressed gets the page compressed through the CGI and
# FastCGI alike (Content-Encoding, Vary), the same bytes once decoded;
# the size ratio is reported.
for u in "$cgiurl" "$fcgiurl"; do
	w=${u##*/cgi-bin/*}
	w=${w:+FastCGI}
	w=${w:-CGI}
	curl -s -o "$tmp/plain" "$u?file=$f&cmd=tree"
	curl -s --compressed -D "$tmp/gz.h" -o "$tmp/gz" \
	    -w '%{size_download}' "$u?file=$f&cmd=tree" >"$tmp/gz.n"
	zb=$(cat "$tmp/gz.n")
	pb=$(wc -c <"$tmp/plain")
	ratio=$(awk -v p="$pb" -v z="$zb" 'BEGIN { printf "%.1f", p / z }')
	check "$w: gzip when accepted ($pb bytes as $zb, ratio $ratio)" \
	    grep -qi '^content-encoding: gzip' "$tmp/gz.h"
	check "$w:   Vary: Accept-Encoding" grep -qi '^vary: accept-encoding' \
	    "$tmp/gz.h"
	check "$w:   the same page decoded" cmp -s "$tmp/plain" "$tmp/gz"
	curl -s -D "$tmp/id.h" -o /dev/null "$u?file=$f&cmd=tree"
	check "$w:   none without Accept-Encoding" sh -c \
	    "! grep -qi '^content-encoding' '$tmp/id.h'"
done
spid=$(rdv_pids)
zombies() {
	for _s in /proc/[0-9]*/status; do
		grep -q "^PPid:[[:space:]]*$fpid\$" "$_s" 2>/dev/null &&
		    grep -q '^State:[[:space:]]*Z' "$_s" 2>/dev/null &&
		    echo "$_s"
	done
}
check "the deepq-server is no child of the FastCGI process" \
    test "$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$spid/status")" != "$fpid"
check "  and it left no zombie" test -z "$(zombies)"
same 200 "file=$f&cmd=top&limit=5"
same 200 "file=$f&cmd=top&limit=5&format=json"
same 200 "file=$f&cmd=top&limit=5&format=text"
same 200 "file=$f&cmd=tree&depth=3&format=text"
same 200 "file=$f&cmd=tree&depth=3&format=json"
same 200 "file=$f&cmd=top" -H 'Accept: application/json'
http_get "$cgiurl" "file=$f&cmd=status&format=json" cgi
http_get "$fcgiurl" "file=$f&cmd=status&format=json" fcgi
check "cmd=status (its counters change between requests): 200 twice" \
    test "$(cat "$tmp/cgi.code") $(cat "$tmp/fcgi.code")" = "200 200"
# (Content-Length too: a counter may gain a digit.)
grep -vi '^content-length:' "$tmp/cgi.h" >"$tmp/cgi.hl" || :
grep -vi '^content-length:' "$tmp/fcgi.h" >"$tmp/fcgi.hl" || :
check "  the same headers, the same fields" sh -c "cmp -s '$tmp/cgi.hl' \
    '$tmp/fcgi.hl' && [ \"\$(jq -S 'keys' '$tmp/cgi.body')\" = \
    \"\$(jq -S 'keys' '$tmp/fcgi.body')\" ]"
same 400 "file=$f&cmd=nonesuch"
same 400 "file=$f&limit=-3&format=json"
same 400 ""
same 403 "file=../etc/passwd"
same 403 "file=%2e%2e/%2e%2e/etc/passwd&format=json"
same 403 "file=/etc/passwd"
same 404 "file=nonesuch.folded"
same 200 "file=$f&cmd=index"
same 404 "cmd=index&format=json"
same 405 "file=$f&cmd=top" -X DELETE
same 405 "file=$f&cmd=top" -d x=1
same 403 "file=$f&cmd=shutdown" -H 'Sec-Fetch-Site: cross-site'
same 200 "file=$f&cmd=top&limit=5" -I
check "  HEAD: no body (curl -I writes the headers only)" \
    cmp -s "$tmp/fcgi.body" "$tmp/fcgi.head"
check "  HEAD: the length of the GET's body" sh -c "grep -qi \
    '^Content-Length: [1-9]' '$tmp/fcgi.h'"
check "the one FastCGI process answered all ($fpid)" test "$(fpids)" = "$fpid"

# kill -9 of the deepq-server: the next request starts another.
kill -9 "$spid"
rdv_wait 10 rdv_gone "$spid" || :
http_get "$fcgiurl" "file=$f&cmd=top&limit=5&format=json" fcgi
check "deepq-server killed: the next request is answered ($(cat \
"$tmp/fcgi.code"))" test "$(cat "$tmp/fcgi.code")" = 200
check "  by a new deepq-server" sh -c "[ \"\$(rdv_pids)\" != '$spid' ]" ||
    :
check "  and no zombie" test -z "$(zombies)"

# 2 x 500 requests over keep-alive connections: descriptors and memory
# stable. (The sanitizer's quarantine of freed memory is off for this
# process: it would grow the resident size by design.)
for i in 1 2 3 4 5; do
	http_get "$fcgiurl" "file=$f&cmd=top&limit=$i" fcgi
done
: >"$tmp/urls"
i=0
while [ $i -lt 500 ]; do
	case $((i % 5)) in
	0) q="file=$f&cmd=top&limit=$((i % 40 + 1))&format=json" ;;
	1) q="file=$f&cmd=tree&depth=$((i % 4 + 1))" ;;
	2) q="file=$f&cmd=nonesuch" ;;
	3) q="file=../x$i" ;;
	4) q="file=$f&cmd=top&from=$((i % 30))&format=text" ;;
	esac
	echo "url = \"$fcgiurl?$q\"" >>"$tmp/urls"
	echo "output = /dev/null" >>"$tmp/urls"
	i=$((i + 1))
done
fds() {
	ls "/proc/$fpid/fd" | wc -l
}
rss() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$fpid/status"
}
fds0=$(fds)
rss0=$(rss)
for round in 1 2; do
	curl -sS --max-time 120 -w '%{http_code}\n' -K "$tmp/urls" \
	    >"$tmp/codes" 2>"$tmp/curl.err" || :
	check "500 requests: all answered ($(sort "$tmp/codes" | uniq -c |
	    tr -s ' \n' '  '))" sh -c "[ \$(grep -c '^[24]0[03]\$' \
	    '$tmp/codes') -eq 500 ]"
	eval "fds$round=\$(fds) rss$round=\$(rss)"
done
check "  the FastCGI process's descriptors: $fds0, $fds1, $fds2" \
    test "$fds0" -eq "$fds1" -a "$fds1" -eq "$fds2"
check "  its resident memory: $rss0 KB, $rss1 KB, $rss2 KB" \
    test "$((rss2 - rss1))" -lt 1024
check "  the same process ($fpid)" test "$(fpids)" = "$fpid"
left() {
	ls "$run" | grep -E '\.(want|reply|query)' || :
}
check "  no want file or reply FIFO left ($(left | head -3 | tr '\n' ' '))" \
    test -z "$(left)"

# kill -9 of the FastCGI process: lighttpd starts another.
kill -9 "$fpid"
respawned() {
	_p=$(fpids)
	[ -n "$_p" ] && [ "$_p" != "$fpid" ]
}
up() {
	http_get "$fcgiurl" "file=$f&cmd=top&limit=5&format=json" fcgi
	[ "$(cat "$tmp/fcgi.code")" = 200 ]
}
check "FastCGI process killed: requests are answered again" rdv_wait 15 up
check "  by a new process lighttpd started" respawned
fpid=$(fpids)

# SIGTERM: the process ends at once (lighttpd's way of stopping it).
kill -TERM "$fpid"
check "SIGTERM: the FastCGI process exits" rdv_wait 3 \
    rdv_gone "$fpid"
check "  and lighttpd starts another for the next request" rdv_wait 15 up
fpid=$(fpids)

# cmd=shutdown through FastCGI.
http_get "$fcgiurl" "file=$f&cmd=shutdown&format=json" fcgi
check "cmd=shutdown through FastCGI: 200" test "$(cat "$tmp/fcgi.code")" = 200
check "  answers JSON" jq -e '.cmd == "shutdown"' "$tmp/fcgi.body"
check "  and the server is gone" rdv_wait 10 rdv_none

# nginx, which starts no program, with spawn-fcgi: the man page's third
# block (two processes on one Unix socket, DEEPQ_CONFIG as a
# fastcgi_param); the answers are the CGI's.
: "${NGINX:=/usr/sbin/nginx}"
if ! command -v spawn-fcgi >/dev/null 2>&1 || [ ! -x "$NGINX" ]; then
	if [ "${CI:-}" = true ]; then
		not_ok "nginx with spawn-fcgi: spawn-fcgi and nginx are" \
		    "required in CI"
	else
		ok "nginx with spawn-fcgi # SKIP spawn-fcgi or nginx missing"
	fi
else
	ngx=$tmp/ngx
	mkdir -p "$ngx"
	cp "$CGI" "$ngx/deepq.cgi"
	awk '/^FastCGI under nginx/ { f = 1 } f && /^\.Ed/ { exit }
	    f == 2 { print } f && /^\.Bd / { f = 2 }' \
	    "$top_srcdir/man/deepq.cgi.8" >"$tmp/man-ngx"
	sed -e 's/\\e$/\\/' -e "s|/run/deepq/fcgi.sock|$ngx/fcgi.sock|g" \
	    -e "s|/usr/lib/deepq/deepq.cgi|$ngx/deepq.cgi|g" \
	    -e "s|/etc/deepq.conf|$conf|g" \
	    -e "s|include fastcgi_params;|include /etc/nginx/fastcgi_params;\\
	fastcgi_param DEEPQ_TEST_HOOKS $hooks;\\
	fastcgi_param ASAN_OPTIONS \"${ASAN_OPTIONS:-}\";|" \
	    "$tmp/man-ngx" >"$tmp/ngx-all"
	# The command (its `$ ' lines and continuations), run here as this
	# user: no -u/-g to drop to.
	sed -n '/^\$ /,/[^\\]$/p' "$tmp/ngx-all" | sed -e 's/^\$ //' \
	    -e 's/ -u www-data//' -e 's/-g www-data //' \
	    -e "s| -- | -P $ngx/spawn.pids -- |" >"$tmp/ngx-cmd"
	sed -n '/^location/,/^}/p' "$tmp/ngx-all" >"$ngx/site.conf"
	check "deepq.cgi(8)'s nginx block: spawn-fcgi and a location" sh -c \
	    "grep -q '^spawn-fcgi ' '$tmp/ngx-cmd' &&
	    grep -q fastcgi_pass '$ngx/site.conf'"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
	    sh "$tmp/ngx-cmd" >"$tmp/spawn.out" 2>&1 || :
	check "spawn-fcgi started two processes ($(tr '\n' ' ' \
	    <"$tmp/spawn.out"))" test "$(grep -c . "$ngx/spawn.pids")" -eq 2
	for try in 1 2 3 4 5; do
		nport=$(shuf -i 20000-60999 -n 1)
		cat >"$ngx/nginx.conf" <<EOF2
worker_processes 1;
pid $ngx/nginx.pid;
error_log $tmp/nginx.err;
$([ "$(id -u)" -ne 0 ] || echo 'user root root;')
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path $ngx/client_body;
	proxy_temp_path $ngx/proxy;
	fastcgi_temp_path $ngx/fastcgi;
	uwsgi_temp_path $ngx/uwsgi;
	scgi_temp_path $ngx/scgi;
	server {
		listen 127.0.0.1:$nport;
		include $ngx/site.conf;
	}
}
EOF2
		"$NGINX" -p "$ngx" -e "$tmp/nginx.err" -c "$ngx/nginx.conf" \
		    -g 'daemon off;' 2>>"$tmp/nginx.err" &
		echo $! >"$tmp/nginx.pid"
		rdv_wait 5 curl -s -o /dev/null "http://127.0.0.1:$nport/" &&
		    break
		kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || :
		wait "$(cat "$tmp/nginx.pid")" 2>/dev/null || :
	done
	fcgiurl="http://127.0.0.1:$nport/cgi-bin/deepq.cgi"
	# Another web server's own headers differ (Server, chunking):
	# the status, the body and deepq's headers must not.
	deepqh() {
		grep -i '^\(status\|content-\|cache-control\|x-content\)' \
		    "$tmp/$1.h" | sort
		grep -i '^\(referrer\|retry\|allow\)' "$tmp/$1.h" | sort
	}
	for qw in "200 file=$f&cmd=top&limit=5" \
	    "200 file=$f&cmd=tree&depth=3&format=json" \
	    "403 file=../etc/passwd" "404 file=nonesuch.folded&format=text"
	do
		http_get "$cgiurl" "${qw#* }" cgi
		http_get "$fcgiurl" "${qw#* }" fcgi
		check "nginx: ${qw#* }: CGI $(cat "$tmp/cgi.code"), FastCGI \
$(cat "$tmp/fcgi.code")" test "$(cat "$tmp/cgi.code") \
$(cat "$tmp/fcgi.code")" = "${qw%% *} ${qw%% *}"
		deepqh cgi >"$tmp/cgi.dh"
		deepqh fcgi >"$tmp/fcgi.dh"
		check "  the same body and deepq's headers" sh -c \
		    "cmp -s '$tmp/cgi.body' '$tmp/fcgi.body' &&
		    cmp -s '$tmp/cgi.dh' '$tmp/fcgi.dh'"
	done
	# A connection per request, taken by either process; each
	# SIGTERM ends one.
	for p in $(cat "$ngx/spawn.pids"); do
		kill -TERM "$p" 2>/dev/null || :
	done
	check "SIGTERM ends both spawn-fcgi processes" rdv_wait 3 sh -c \
	    "for p in $(tr '\n' ' ' <"$ngx/spawn.pids"); do
	    [ ! -d /proc/\$p ] || exit 1; done"
	kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || :
	wait "$(cat "$tmp/nginx.pid")" 2>/dev/null || :
	rm -f "$tmp/nginx.pid"
	check "no sanitizer report from them" sh -c \
	    "! grep -i 'AddressSanitizer\|LeakSanitizer\|runtime error' \
	    '$tmp/spawn.out' '$tmp/nginx.err'"
fi

# lighttpd stops its FastCGI processes; the sanitizers report at exit.
kill "$(cat "$tmp/lighttpd.pid")"
wait "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
rm -f "$tmp/lighttpd.pid"
check "lighttpd stopped: no FastCGI process left" rdv_wait 10 sh -c \
    "! ls -l /proc/[0-9]*/exe 2>/dev/null | grep -q -- ' $fcgi\$'"
check "no sanitizer report and no FastCGI error in the error log" sh -c \
    "! grep -i 'AddressSanitizer\|LeakSanitizer\|runtime error\|FastCGI conn' \
    '$tmp/lighttpd.err'"
rdv_stop
done_testing

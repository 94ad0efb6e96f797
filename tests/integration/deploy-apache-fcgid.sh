#!/bin/sh
# deepq.cgi as a FastCGI responder under Apache 2.4's mod_fcgid, with
# the configuration block of deepq.cgi(8)'s EXAMPLES (its paths made
# this test's, one process per class so that its reuse shows): the same
# private Apache serves the plain CGI at /cgi-bin/ (mod_cgid,
# www/apache-deepq.conf.in) and FastCGI at /fcgi/. Real profiles of the
# test data get byte-identical statuses, headers and bodies through both
# (HTML, JSON, text; 400, 403, 404; HEAD); the first FastCGI request
# starts the deepq-server; one deepq.cgi process answers every request;
# a deepq-server killed with kill -9 is replaced at the next request, a
# deepq.cgi killed so is started again by mod_fcgid; no sanitizer
# report in the error log.
if [ -z "${DEPLOY_DEADLINE:-}" ]; then
	DEPLOY_DEADLINE=1
	export DEPLOY_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/deploy-lib.sh"
: "${APACHE:=/usr/sbin/apache2}"
: "${APACHE_MODULES:=/usr/lib/apache2/modules}"
# skip_all fails in CI, which installs both (setup.sh).
[ -x "$APACHE" ] || skip_all "apache2 is not installed ($APACHE)"
[ -f "$APACHE_MODULES/mod_fcgid.so" ] ||
    skip_all "mod_fcgid is not installed (libapache2-mod-fcgid)"

# The man page's mod_fcgid block.
awk '/^FastCGI under Apache with/ { f = 1 } f && /^\.Ed/ { exit }
    f == 2 { print } f && /^\.Bd / { f = 2 }' \
    "$top_srcdir/man/deepq.cgi.8" >"$tmp/man-fcgid.conf"
check "deepq.cgi(8) has a mod_fcgid block with fcgid-script" \
    grep -q 'SetHandler fcgid-script' "$tmp/man-fcgid.conf"

for p in firefox.folded recursion.folded example.callgrind small.perf \
    v8-small.cpuprofile; do
	cp "$top_srcdir/tests/data/$p" "$profiles/"
done
mkdir -p "$tmp/fcgi-bin"
cp "$CGI" "$tmp/fcgi-bin/deepq.cgi"
fcgi=$tmp/fcgi-bin/deepq.cgi
conf=$sysconfdir/deepq.conf

# fpids: the FastCGI processes (their executable is the copy above).
fpids() {
	for _e in /proc/[0-9]*/exe; do
		if [ "$(readlink "$_e" 2>/dev/null)" = "$fcgi" ]; then
			_e=${_e#/proc/}
			echo "${_e%/exe}"
		fi
	done
}

ap=$tmp/apache
mkdir -p "$ap/run" "$ap/fcgid" "$tmp/htdocs"
[ -z "$www_user" ] || chown "$www_user:$www_group" "$ap/run" "$ap/fcgid"
deploy_subst "$top_srcdir/www/apache-deepq.conf.in" >"$ap/deepq-site.conf"
# The sanitizers' settings reach the FastCGI process as DEEPQ_CONFIG
# does: FcgidInitialEnv. (Its quarantine off: memory stays flat.)
asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
sed -e "s|/cgi-bin/deepq.cgi|/fcgi/deepq.cgi|g" \
    -e "s|/usr/lib/deepq/deepq.cgi|$fcgi|" \
    -e "s|/etc/deepq.conf|$conf|" \
    -e 's|^FcgidMaxProcessesPerClass [0-9]*|FcgidMaxProcessesPerClass 1|' \
    "$tmp/man-fcgid.conf" >"$ap/fcgid.conf"
{
	echo "FcgidInitialEnv ASAN_OPTIONS \"$asan\""
	[ -z "${UBSAN_OPTIONS:-}" ] ||
	    echo "FcgidInitialEnv UBSAN_OPTIONS \"$UBSAN_OPTIONS\""
} >>"$ap/fcgid.conf"
check "the block with this test's paths names the copy of deepq.cgi" \
    grep -q "^Alias /fcgi/deepq.cgi $fcgi\$" "$ap/fcgid.conf"

started=
for try in 1 2 3 4 5; do
	port=$(deploy_port)
	{
		deploy_apache_head "$port" mpm_event authz_core alias env \
		    mime cgid fcgid
		echo "ScriptSock \"$ap/run/cgid.sock\""
		# mod_fcgid's sockets and table: private, not /var/lib.
		echo "FcgidIPCDir \"$ap/fcgid\""
		echo "FcgidProcessTableFile \"$ap/run/fcgid_shm\""
		echo "TypesConfig /etc/mime.types"
		echo "StartServers 1"
		echo "ServerLimit 1"
		echo "ThreadsPerChild 2"
		echo "ThreadLimit 2"
		echo "MinSpareThreads 1"
		echo "MaxSpareThreads 2"
		echo "MaxRequestWorkers 2"
		echo "KeepAlive Off"
		echo "DocumentRoot \"$tmp/htdocs\""
		echo "Include \"$ap/deepq-site.conf\""
		echo "Include \"$ap/fcgid.conf\""
		echo "<Location /cgi-bin/deepq.cgi>"
		[ -z "${ASAN_OPTIONS:-}" ] ||
		    echo "	SetEnv ASAN_OPTIONS \"$ASAN_OPTIONS\""
		[ -z "${UBSAN_OPTIONS:-}" ] ||
		    echo "	SetEnv UBSAN_OPTIONS \"$UBSAN_OPTIONS\""
		echo "</Location>"
	} >"$ap/apache2.conf"
	if ! "$APACHE" -t -f "$ap/apache2.conf" >"$tmp/apache.t" 2>&1; then
		echo "Bail out! apache2 refuses the configuration:" \
		    "$(head -3 "$tmp/apache.t")"
		exit 1
	fi
	"$APACHE" -f "$ap/apache2.conf" -DFOREGROUND \
	    2>>"$logs/apache.stderr" &
	echo $! >"$tmp/apache.pid"
	if deploy_up "$tmp/apache.pid"; then
		started=1
		break
	fi
	kill "$(cat "$tmp/apache.pid")" 2>/dev/null || :
	wait "$(cat "$tmp/apache.pid")" 2>/dev/null || :
done
if [ -z "$started" ]; then
	echo "Bail out! apache2 does not start: $(tail -3 \
	    "$logs/apache-error.log" "$logs/apache.stderr" 2>/dev/null)"
	exit 1
fi

# Apache stops its FastCGI processes; any left (a test cut short) and
# the deepq-servers are killed by pid before $tmp goes.
fcgid_cleanup() {
	_a=$(cat "$tmp/apache.pid" 2>/dev/null || :)
	[ -z "$_a" ] || kill "$_a" 2>/dev/null || :
	for _p in $(fpids) $(deploy_pids); do
		kill -9 "$_p" 2>/dev/null || :
	done
}
trap 'fcgid_cleanup; cleanup' EXIT
ok "$("$APACHE" -v | sed -n 's/^Server version: //p') with mod_fcgid on \
127.0.0.1:$port"
cgiurl="http://127.0.0.1:$port/cgi-bin/deepq.cgi"
fcgiurl="http://127.0.0.1:$port/fcgi/deepq.cgi"

# wait_for SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
	_end=$(($(deploy_ms) + $1 * 1000))
	shift
	while ! "$@"; do
		[ "$(deploy_ms)" -lt "$_end" ] || return 1
		sleep 0.05
	done
}

# same WANT QUERY [CURL-ARGS]: the query through both, identical.
same() {
	_want=$1 _q=$2
	shift 2
	http_get "$cgiurl" "$_q" cgi "$@"
	http_get "$fcgiurl" "$_q" fcgi "$@"
	_c=$(cat "$tmp/cgi.code")
	check "$_q ${*:-}: CGI $_c, FastCGI $(cat "$tmp/fcgi.code")" \
	    test "$_c $(cat "$tmp/fcgi.code")" = "$_want $_want"
	# (curl -I writes the headers as the body.)
	[ "${1:-}" = -I ] ||
	    check "  the same body ($(wc -c <"$tmp/cgi.body") bytes)" \
	    cmp -s "$tmp/cgi.body" "$tmp/fcgi.body"
	# Apache sends the CGI's answer chunked, mod_fcgid's with the
	# Content-Length deepq.cgi gave: the framing aside, the same.
	grep -vi '^content-length:\|^transfer-encoding:' "$tmp/cgi.h" \
	    >"$tmp/cgi.hl" || :
	grep -vi '^content-length:\|^transfer-encoding:' "$tmp/fcgi.h" \
	    >"$tmp/fcgi.hl" || :
	check "  the same headers" diff "$tmp/cgi.hl" "$tmp/fcgi.hl"
	[ "${1:-}" = -I ] ||
	    check "  FastCGI: Content-Length is the body's" sh -c "grep -qix \
	    'Content-Length: $(wc -c <"$tmp/fcgi.body")' '$tmp/fcgi.h'"
}

check "no deepq.cgi process and no deepq-server before the first request" \
    sh -c "[ -z \"\$(deploy_pids)\" ] && [ -z '$(fpids)' ]"
f=firefox.folded
http_get "$fcgiurl" "file=$f&cmd=top&limit=5&format=json" fcgi
check "first FastCGI request: 200 ($(cat "$tmp/fcgi.code"))" \
    test "$(cat "$tmp/fcgi.code")" = 200
check "  mod_fcgid started one deepq.cgi ($(fpids | tr '\n' ' '))" \
    test "$(fpids | wc -l)" -eq 1
check "  which started one deepq-server" test "$(deploy_pids | wc -l)" -eq 1
fpid=$(fpids)
spid=$(deploy_pids)
fstart=$(cut -d' ' -f22 "/proc/$fpid/stat" 2>/dev/null)

for f in firefox.folded recursion.folded example.callgrind small.perf \
    v8-small.cpuprofile; do
	same 200 "file=$f"
	same 200 "file=$f&cmd=top&limit=5&format=json"
	same 200 "file=$f&cmd=top&limit=5&format=text"
done
f=firefox.folded
same 200 "file=$f&cmd=tree&depth=3&format=json"
same 200 "file=$f&cmd=top" -H 'Accept: application/json'
same 400 "file=$f&cmd=nonesuch"
same 400 "file=$f&limit=-3&format=json"
same 403 "file=../etc/passwd"
same 403 "file=%2e%2e/%2e%2e/etc/passwd&format=json"
same 404 "file=nonesuch.folded"
same 404 "file=nonesuch.folded&format=text"
same 200 "file=$f&cmd=top&limit=5" -I
check "  HEAD: no body (curl -I writes the headers only)" \
    cmp -s "$tmp/fcgi.body" "$tmp/fcgi.head"
check "  HEAD: the length of the GET's body" sh -c "grep -qi \
    '^Content-Length: [1-9]' '$tmp/fcgi.h'"
check "one deepq.cgi answered every FastCGI request ($fpid: \
$(fpids | tr '\n' ' '))" test "$(fpids)" = "$fpid"
check "  the same process, started once" \
    test "$(cut -d' ' -f22 "/proc/$fpid/stat" 2>/dev/null)" = "$fstart"
# A server per profile: the CGI used the ones FastCGI started.
check "  one deepq-server per profile for both front ends" sh -c \
    "[ $(deploy_pids | wc -l) -eq 5 ] && [ -d /proc/$spid ]"

# kill -9 of the deepq-server: the next request starts another.
deploy_pids >"$tmp/pids.old"
kill -9 "$spid"
wait_for 10 sh -c "[ ! -d /proc/$spid ]" || :
http_get "$fcgiurl" "file=$f&cmd=top&limit=5&format=json" fcgi
check "deepq-server killed: the next request is answered ($(cat \
"$tmp/fcgi.code"))" test "$(cat "$tmp/fcgi.code")" = 200
check "  by a new deepq-server" sh -c \
    "[ $(deploy_pids | wc -l) -eq 5 ] && [ ! -d /proc/$spid ]"
spid=$(deploy_pids | sort >"$tmp/pids.new"; sort "$tmp/pids.old" |
    comm -13 - "$tmp/pids.new")
check "  through the same deepq.cgi" test "$(fpids)" = "$fpid"

# kill -9 of deepq.cgi: mod_fcgid starts another for a later request
# (the one under way when it notices may fail).
kill -9 "$fpid"
up() {
	http_get "$fcgiurl" "file=$f&cmd=top&limit=5&format=json" fcgi
	[ "$(cat "$tmp/fcgi.code")" = 200 ]
}
check "deepq.cgi killed: requests are answered again" wait_for 20 up
check "  by a new deepq.cgi ($(fpids | tr '\n' ' '))" sh -c \
    "[ -n '$(fpids)' ] && [ '$(fpids)' != '$fpid' ]"

# cmd=shutdown through FastCGI.
http_get "$fcgiurl" "file=$f&cmd=shutdown&format=json" fcgi
check "cmd=shutdown through FastCGI: 200" test "$(cat "$tmp/fcgi.code")" = 200
check "  and its server is gone ($spid)" wait_for 10 \
    sh -c "[ ! -d /proc/$spid ]"

# Apache stops its FastCGI processes; the sanitizers report at exit.
kill "$(cat "$tmp/apache.pid")"
wait "$(cat "$tmp/apache.pid")" 2>/dev/null || :
rm -f "$tmp/apache.pid"
check "Apache stopped: no deepq.cgi left" wait_for 10 sh -c \
    "! ls -l /proc/[0-9]*/exe 2>/dev/null | grep -q -- ' $fcgi\$'"
check "no sanitizer report and no FastCGI error in the error log" sh -c \
    "! grep -i 'AddressSanitizer\|LeakSanitizer\|runtime error\|deepq.cgi:' \
    '$logs/apache-error.log' '$logs/apache.stderr'"
done_testing

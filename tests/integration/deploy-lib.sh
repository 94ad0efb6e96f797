# Helpers for the deployment tests, sourced after tests/lib.sh: a private
# installation under $tmp (the built CGI and server, the www assets, a
# deepq.conf made from www/deepq.conf.in), the www/*-deepq.conf.in
# templates substituted for it, a free port on 127.0.0.1, and the smoke
# queries every web server must pass.
#
# Each web server runs from its Debian package as a private instance:
# its own configuration, pid file and logs under $tmp, never the system's
# instance, never port 80. Run as root (CI), the web server's workers,
# and so the CGI and deepq-server, are the unprivileged user nobody.

: "${SERVER:=$top_builddir/server/deepq-server}"
: "${CGI:=$top_builddir/cgi/deepq.cgi}"

if [ ! -x "$SERVER" ] || [ ! -x "$CGI" ]; then
	echo "Bail out! build deepq-server and deepq.cgi first"
	exit 1
fi
command -v curl >/dev/null 2>&1 || skip_all "curl is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

# The directories the templates name, as make install would fill them.
cgidir=$tmp/libexec
sbindir=$tmp/sbin
wwwdir=$tmp/share/www
sysconfdir=$tmp/etc
profiles=$tmp/profiles
run=$tmp/run
logs=$tmp/logs
fcgi=$tmp/fcgi
mkdir -p "$cgidir" "$sbindir" "$wwwdir" "$sysconfdir" "$profiles" "$logs" \
    "$fcgi"
cp "$CGI" "$cgidir/deepq.cgi"
cp "$SERVER" "$sbindir/deepq-server"
cp "$top_srcdir/www/deepq.css" "$top_srcdir/www/deepq.js" \
    "$top_srcdir/www/flame.js" "$top_srcdir/www/deepq-timeline.js" \
    "$top_srcdir/www/favicon.svg" "$wwwdir/"
sample=$top_srcdir/tests/data/samples/workload-fp.folded
cp "$sample" "$profiles/"
total=$(awk '{ s += $NF } END { printf "%d\n", s }' "$sample")

if [ "$(id -u)" -eq 0 ]; then
	www_user=nobody
	www_group=$(id -gn nobody)
	chmod 755 "$tmp"
	mkdir -m 700 "$run"
	chown "$www_user:$www_group" "$run" "$logs" "$fcgi"
else
	www_user=
	www_group=
fi

# deploy_subst TEMPLATE: the template with this installation's
# directories, as make install substitutes them.
deploy_subst() {
	sed -e '/^#%/d' -e "s|@cgidir@|$cgidir|g" -e "s|@wwwdir@|$wwwdir|g" \
	    -e "s|@sysconfdir@|$sysconfdir|g" -e "s|@sbindir@|$sbindir|g" \
	    -e "s|@fcgiwrap_socket@|$fcgi/fcgiwrap.sock|g" "$1"
}
deploy_subst "$top_srcdir/www/deepq.conf.in" |
    sed -e "s|^profile_root = .*|profile_root = $profiles|" \
	-e "s|^#runtime_dir = .*|runtime_dir = $run|" \
	-e "s|^#idle_timeout = .*|idle_timeout = 60|" \
	-e "s|^#load_wait = .*|load_wait = 40|" >"$sysconfdir/deepq.conf"
# load_wait 40 s: a cold load on a loaded machine may outlast the 3 s
# default, and the smoke test wants the page, not "loading" (loading.sh
# tests that); still short of idle_timeout's 60 s, see deploy_smoke.

# deploy_apache_head PORT MODULE...: the start of a private Apache's
# configuration under $ap, listening on 127.0.0.1:PORT, with the MODULEs
# (mpm_event, alias, ...) loaded; the caller adds the rest.
deploy_apache_head() {
	echo "ServerRoot \"$ap\""
	echo "ServerName 127.0.0.1"
	echo "Listen 127.0.0.1:$1"
	echo "PidFile \"$ap/run/apache2.pid\""
	echo "DefaultRuntimeDir \"$ap/run\""
	echo "ErrorLog \"$logs/apache-error.log\""
	echo "LogLevel warn"
	if [ -n "$www_user" ]; then
		echo "User $www_user"
		echo "Group $www_group"
	fi
	shift
	for _m; do
		echo "LoadModule ${_m}_module $APACHE_MODULES/mod_$_m.so"
	done
}

# deploy_lighttpd_head PORT: the start of a private lighttpd's
# configuration, on 127.0.0.1:PORT with $tmp/htdocs, the MIME types of
# the assets and $tmp/deepq-site.conf included; the caller adds the rest.
deploy_lighttpd_head() {
	echo "server.document-root = \"$tmp/htdocs\""
	echo "server.bind = \"127.0.0.1\""
	echo "server.port = $1"
	echo "server.errorlog = \"$logs/lighttpd-error.log\""
	[ -z "$www_user" ] || echo "server.username = \"$www_user\""
	[ -z "$www_group" ] || echo "server.groupname = \"$www_group\""
	echo 'server.max-worker = 0'
	echo 'mimetype.assign = ( ".css" => "text/css",'
	echo '    ".js" => "text/javascript", ".svg" => "image/svg+xml" )'
	echo "include \"$tmp/deepq-site.conf\""
}

# deploy_ms: milliseconds since the epoch.
deploy_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# deploy_port: a port to try (the caller retries when it is taken).
deploy_port() {
	shuf -i 20000-60999 -n 1
}

# deploy_up PIDFILE: wait up to 10 s until the web server on $port serves
# the stylesheet; 1 if it does not (or its process is gone).
deploy_up() {
	_end=$(($(deploy_ms) + 10000))
	while [ "$(deploy_ms)" -lt "$_end" ]; do
		if curl -s -o /dev/null --max-time 2 \
		    "http://127.0.0.1:$port/deepq/deepq.css"; then
			return 0
		fi
		if [ -s "$1" ] && ! kill -0 "$(cat "$1")" 2>/dev/null; then
			return 1
		fi
		sleep 0.05
	done
	return 1
}

# deploy_pids: the deepq-server processes of this test (their command
# line names its runtime directory).
deploy_pids() {
	for _c in $(grep -laF -- "$run" /proc/[0-9]*/cmdline 2>/dev/null); do
		if grep -qaF deepq-server "$_c" 2>/dev/null; then
			_c=${_c#/proc/}
			echo "${_c%/cmdline}"
		fi
	done
}

deploy_none() {
	[ -z "$(deploy_pids)" ]
}

# deploy_get QUERY: request the CGI; body in $tmp/body, headers in
# $tmp/head; prints "STATUS MILLISECONDS".
deploy_get() {
	curl -sS --max-time 50 -D "$tmp/head" -o "$tmp/body" \
	    -w '%{http_code} %{time_total}\n' \
	    "http://127.0.0.1:$port/cgi-bin/deepq.cgi?$1" 2>"$tmp/curl.err" |
	    awk '{ printf "%s %d\n", $1, $2 * 1000 }' ||
	    echo "000 0"
}

# deploy_header NAME: a header's value from $tmp/head.
deploy_header() {
	tr -d '\r' <"$tmp/head" | sed -n "s/^$1: //Ip" | head -1
}

# deploy_smoke NAME ERRORLOG: the smoke queries: the menu as HTML (cold:
# it forks the profile's server, and still completes at once), top as
# JSON right after it (the one worker is free again), the stylesheet,
# then shutdown. A page held by the server it started (a descriptor
# kept) would end only with that server, idle_timeout (60 s) later: curl
# gives up after 50 s, so a 200 at all says the page was not held (the
# times are printed, for the eye; bench/ measures them).
deploy_smoke() {
	_name=$1
	_log=$2
	check "$_name: no deepq-server yet" deploy_none

	set -- $(deploy_get 'file=workload-fp.folded')
	echo "# $_name: cold menu: HTTP $1 in $2 ms"
	check "$_name: cold menu is 200" test "$1" = 200
	check "$_name: cold menu is HTML" sh -c \
	    "grep -qi '^Content-Type: text/html' '$tmp/head' &&
	    grep -q '<html' '$tmp/body'"
	check "$_name: the menu links the stylesheet at static_url" \
	    grep -q 'href="/deepq/deepq.css"' "$tmp/body"
	check "$_name: cold menu completes, its server living on ($2 ms)" \
	    test "$1" = 200
	check "$_name: the CGI forked one deepq-server, which lives on" \
	    test "$(deploy_pids | wc -l)" -eq 1
	_pid=$(deploy_pids)

	set -- $(deploy_get 'file=workload-fp.folded&cmd=top&limit=5&format=json')
	echo "# $_name: warm top: HTTP $1 in $2 ms"
	check "$_name: top is 200 right after the menu" test "$1" = 200
	check "$_name: top is JSON" sh -c \
	    "grep -qi '^Content-Type: application/json' '$tmp/head'"
	check "$_name: top has the v1 contract and 5 rows" jq -e \
	    '.deepq == 1 and .cmd == "top" and (.rows | length == 5)' \
	    "$tmp/body"
	check "$_name: the same server answered" \
	    test "$(deploy_pids)" = "$_pid"

	set -- $(deploy_get 'file=workload-fp.folded&format=json')
	check "$_name: the menu's JSON total is the file's ($total)" \
	    jq -e ".totals.samples == $total" "$tmp/body"

	_css=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' \
	    "http://127.0.0.1:$port/deepq/deepq.css")
	check "$_name: the stylesheet is served ($_css)" \
	    sh -c "echo '$_css' | grep -q '^200 text/css'"

	set -- $(deploy_get 'file=workload-fp.folded&cmd=shutdown&format=json')
	check "$_name: shutdown is 200" test "$1" = 200
	check "$_name: shutdown answers JSON" jq -e '.cmd == "shutdown"' \
	    "$tmp/body"
	_end=$(($(deploy_ms) + 10000))
	while ! deploy_none && [ "$(deploy_ms)" -lt "$_end" ]; do
		sleep 0.05
	done
	check "$_name: the server is gone after shutdown" deploy_none
	check "$_name: no CGI error in the error log" \
	    sh -c "! grep -i 'deepq.cgi:\|AddressSanitizer\|runtime error' '$_log'"
}

# deploy_below NAME: every path below the CGI (PATH_INFO, an encoded
# slash, a query after it) is refused with a 4xx, and never serves the
# CGI's own bytes: a template whose alias matches by prefix but runs the
# CGI only for the exact URL served the binary for /cgi-bin/deepq.cgi/x.
deploy_below() {
	_name=$1
	for _p in /x / %2fx %2Fx /x/y //x '/x?file=workload-fp.folded' \
	    /%2e%2e/deepq.cgi %2f %2e /deepq.cgi ';x' ; do
		_c=$(curl -sS --path-as-is --max-time 20 -o "$tmp/below" \
		    -w '%{http_code}' \
		    "http://127.0.0.1:$port/cgi-bin/deepq.cgi$_p" 2>/dev/null ||
		    echo 000)
		if grep -q 'ELF' "$tmp/below" 2>/dev/null; then
			not_ok "$_name: /cgi-bin/deepq.cgi$_p serves the binary ($_c)"
			continue
		fi
		case $_c in
		4[0-9][0-9]) ok "$_name: /cgi-bin/deepq.cgi$_p refused ($_c)" ;;
		*) not_ok "$_name: /cgi-bin/deepq.cgi$_p refused (got $_c)" ;;
		esac
	done
}

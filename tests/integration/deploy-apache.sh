#!/bin/sh
# Apache 2.4 (event MPM, mod_cgid) with www/apache-deepq.conf.in: a
# private instance on 127.0.0.1 and the smoke queries of deploy-lib.sh.
# One child with one worker thread: a CGI whose forked deepq-server held
# its request would stall the second.
if [ -z "${DEPLOY_DEADLINE:-}" ]; then
	DEPLOY_DEADLINE=1
	export DEPLOY_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/deploy-lib.sh"
: "${APACHE:=/usr/sbin/apache2}"
: "${APACHE_MODULES:=/usr/lib/apache2/modules}"
[ -x "$APACHE" ] || skip_all "apache2 is not installed ($APACHE)"

ap=$tmp/apache
mkdir -p "$ap/run" "$tmp/htdocs"
[ -z "$www_user" ] || chown "$www_user:$www_group" "$ap/run"
deploy_subst "$top_srcdir/www/apache-deepq.conf.in" >"$ap/deepq-site.conf"

started=
for try in 1 2 3 4 5; do
	port=$(deploy_port)
	{
		deploy_apache_head "$port" mpm_event authz_core alias env \
		    mime cgid
		echo "ScriptSock \"$ap/run/cgid.sock\""
		echo "TypesConfig /etc/mime.types"
		echo "StartServers 1"
		echo "ServerLimit 1"
		echo "ThreadsPerChild 1"
		echo "ThreadLimit 1"
		echo "MinSpareThreads 1"
		echo "MaxSpareThreads 1"
		echo "MaxRequestWorkers 1"
		echo "KeepAlive Off"
		echo "DocumentRoot \"$tmp/htdocs\""
		echo "Include \"$ap/deepq-site.conf\""
		# The tests' sanitizer settings reach the CGI.
		echo "<Location /cgi-bin/deepq.cgi>"
		[ -z "${ASAN_OPTIONS:-}" ] || echo "	SetEnv ASAN_OPTIONS \"$ASAN_OPTIONS\""
		[ -z "${UBSAN_OPTIONS:-}" ] || echo "	SetEnv UBSAN_OPTIONS \"$UBSAN_OPTIONS\""
		echo "</Location>"
	} >"$ap/apache2.conf"
	if ! "$APACHE" -t -f "$ap/apache2.conf" >"$tmp/apache.t" 2>&1; then
		echo "Bail out! apache2 refuses the configuration: $(head -3 "$tmp/apache.t")"
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
	echo "Bail out! apache2 does not start: $(tail -3 "$logs/apache-error.log" "$logs/apache.stderr" 2>/dev/null)"
	exit 1
fi
ok "$("$APACHE" -v | sed -n 's/^Server version: //p') serves on 127.0.0.1:$port"
deploy_smoke apache "$logs/apache-error.log"
deploy_below apache
done_testing

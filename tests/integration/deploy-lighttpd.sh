#!/bin/sh
# lighttpd (mod_cgi) with www/lighttpd-deepq.conf.in: a private instance
# on 127.0.0.1 and the smoke queries of deploy-lib.sh.
if [ -z "${DEPLOY_DEADLINE:-}" ]; then
	DEPLOY_DEADLINE=1
	export DEPLOY_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/deploy-lib.sh"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"
[ -x "$LIGHTTPD" ] || skip_all "lighttpd is not installed ($LIGHTTPD)"

deploy_subst "$top_srcdir/www/lighttpd-deepq.conf.in" >"$tmp/deepq-site.conf"
mkdir -p "$tmp/htdocs"
started=
for try in 1 2 3 4 5; do
	port=$(deploy_port)
	{
		deploy_lighttpd_head "$port"
		# The tests' sanitizer settings reach the CGI (not the template's
		# business).
		echo "setenv.add-environment += ( \"ASAN_OPTIONS\" => \"${ASAN_OPTIONS:-}\", \"UBSAN_OPTIONS\" => \"${UBSAN_OPTIONS:-}\" )"
	} >"$tmp/lighttpd.conf"
	if ! "$LIGHTTPD" -tt -f "$tmp/lighttpd.conf" >"$tmp/lighttpd.t" 2>&1; then
		echo "Bail out! lighttpd refuses the configuration: $(head -3 "$tmp/lighttpd.t")"
		exit 1
	fi
	"$LIGHTTPD" -D -f "$tmp/lighttpd.conf" 2>>"$logs/lighttpd.stderr" &
	echo $! >"$tmp/lighttpd.pid"
	if deploy_up "$tmp/lighttpd.pid"; then
		started=1
		break
	fi
	kill "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
	wait 2>/dev/null || :
done
if [ -z "$started" ]; then
	echo "Bail out! lighttpd does not start: $(tail -3 "$logs/lighttpd-error.log" "$logs/lighttpd.stderr" 2>/dev/null)"
	exit 1
fi
ok "lighttpd $("$LIGHTTPD" -v | sed -n 's/^lighttpd\/\([^ ]*\).*/\1/p') serves on 127.0.0.1:$port"
deploy_smoke lighttpd "$logs/lighttpd-error.log"
deploy_below lighttpd
done_testing

#!/bin/sh
# A relative DEEPQ_CONFIG: the CGI (run by lighttpd from its own
# directory) read it, but the server it started, running from "/", was
# handed the same relative name and found nothing. The path is made
# absolute when it is read; the server starts and answers.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

# lighttpd runs a CGI in the CGI's directory: the configuration there,
# named relatively in the environment it sets.
cp "$conf" "$tmp/www/cgi-bin/deepq.conf"
conf=deepq.conf
rdv_httpd
code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
check "a relative DEEPQ_CONFIG under lighttpd: 200 ($code)" test "$code" = 200
check "...from a server it started" rdv_one
pid=$(rdv_pids)
check "...which was given the configuration's absolute path" \
    sh -c "tr '\\0' ' ' </proc/$pid/cmdline | grep -q -- '-f $tmp/www/cgi-bin/deepq.conf'"

# The same from deepq query, run from the configuration's directory.
rdv_stop
c=$(cd "$tmp/www/cgi-bin" && DEEPQ_CONFIG=deepq.conf "$DEEPQ" query \
    "$root/firefox.folded" 'cmd=top&format=json' 2>&1 | jq -r .cmd 2>/dev/null || :)
check "a relative DEEPQ_CONFIG for deepq query: answered ($c)" \
    test "$c" = top
rdv_stop
done_testing

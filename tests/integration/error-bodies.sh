#!/bin/sh
# Error bodies come from one place (common/answer.c, answer_error), in
# the query's format: through deepq.cgi (refused by the CGI itself, or
# answered by a server) the body is of the format asked for (an SVG
# image for svg, a line for an export's format), and the JSON one is
# the same bytes as `deepq query --local' writes (no CGI, no server;
# the CLI writes an error's body only in JSON, the others' message goes
# to its standard error).
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_conf static_url=/deepq/

# cgi NAME QUERY: deepq.cgi's answer in a clean CGI environment: its
# status in $tmp/NAME.status, its body in $tmp/NAME.body.
cgi() {
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$conf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 "QUERY_STRING=$2" "$CGI" \
	    >"$tmp/$1.out" 2>/dev/null || :
	sed -n 's/^Status: \([0-9]*\).*/\1/p;/^\r*$/q' "$tmp/$1.out" \
	    >"$tmp/$1.status"
	sed '1,/^$/d' "$tmp/$1.out" >"$tmp/$1.body"
}

# local NAME QUERY: `deepq query --local' of the same file, its body.
local_query() {
	(cd "$root" && "$DEEPQ" query --local --static-base /deepq/ \
	    firefox.folded "$2") >"$tmp/$1.body" 2>/dev/null || :
}

# The CGI refuses the first kind itself (no server); a server finds the
# others (an unknown function, a format the report has not).
for q in 'cmd=top&bogus=1' 'cmd=top&limit=0' 'cmd=func&func=nosuch' \
    'cmd=top&format=svg' 'cmd=flame&format=text'; do
	for f in html json text svg folded; do
		case $q in
		*format=*) qs="file=firefox.folded&$q"; f=${q##*format=} ;;
		*) qs="file=firefox.folded&$q&format=$f" ;;
		esac
		cgi c "$qs"
		[ "$f" = json ] && local_query l "$qs"
		check "$qs: a 4xx from the CGI ($(cat "$tmp/c.status"))" \
		    grep -q '^4' "$tmp/c.status"
		case $f in
		svg)	check "  an SVG image" grep -q '^<svg.*data-style="error"' \
			    "$tmp/c.body" ;;
		json)	check "  a JSON error" grep -q '^{"deepq": *1,"error"' \
			    "$tmp/c.body"
			check "  the same body through the CGI and --local" \
			    cmp "$tmp/c.body" "$tmp/l.body" ;;
		html)	check "  a page" grep -q '^<!DOCTYPE html>' "$tmp/c.body" ;;
		*)	check "  one line" sh -c "[ \$(wc -l <'$tmp/c.body') = 1 ] &&
			    grep -q '^error 4' '$tmp/c.body'" ;;
		esac
		# A query with format= in it is asked once.
		case $q in *format=*) break ;; esac
	done
done
rdv_stop
done_testing

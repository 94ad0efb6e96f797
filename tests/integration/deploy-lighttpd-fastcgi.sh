#!/bin/sh
# lighttpd (mod_fastcgi) with www/lighttpd-deepq-fastcgi.conf.in: a
# private instance on 127.0.0.1 (the socket under $tmp, not
# /run/lighttpd), the smoke queries of deploy-lib.sh, then what FastCGI
# adds: the max-procs processes started with lighttpd answer every
# request (no process per request), concurrent cold requests through
# both start one deepq-server, and none is left when lighttpd stops.
if [ -z "${DEPLOY_DEADLINE:-}" ]; then
	DEPLOY_DEADLINE=1
	export DEPLOY_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/deploy-lib.sh"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"
[ -x "$LIGHTTPD" ] || skip_all "lighttpd is not installed ($LIGHTTPD)"

# The socket's directory, lighttpd's user's (as Debian's /run/lighttpd).
sockdir=$tmp/lighttpd-run
mkdir -p "$sockdir"
[ -z "$www_user" ] || chown "$www_user:$www_group" "$sockdir"
# The sanitizers' settings reach the processes through bin-environment
# (not the template's business).
benv="\"ASAN_OPTIONS\" => \"${ASAN_OPTIONS:-}\","
benv="$benv \"UBSAN_OPTIONS\" => \"${UBSAN_OPTIONS:-}\", "
template=$top_srcdir/www/lighttpd-deepq-fastcgi.conf.in
deploy_subst "$template" |
    sed -e "s|\"/run/lighttpd/|\"$sockdir/|" \
	-e "s|\"bin-environment\" => ( |&$benv|" >"$tmp/deepq-site.conf"
check "the template's socket is under /run/lighttpd" \
    grep -q '"socket" => "/run/lighttpd/deepq.sock"' "$template"
check "the substituted file starts $cgidir/deepq.cgi, 2 processes" sh -c \
    "grep -qF '\"bin-path\" => \"$cgidir/deepq.cgi\"' '$tmp/deepq-site.conf' &&
    grep -q '\"max-procs\" => 2,' '$tmp/deepq-site.conf'"
check "the substituted file has no placeholder and no mod_cgi" sh -c \
    "! grep -v '^#' '$tmp/deepq-site.conf' | grep -n '@[a-z_]*@\|mod_cgi'"

# fpids: the FastCGI processes (their executable is the installed CGI).
fpids() {
	for _e in /proc/[0-9]*/exe; do
		if [ "$(readlink "$_e" 2>/dev/null)" = "$cgidir/deepq.cgi" ]; then
			_e=${_e#/proc/}
			echo "${_e%/exe}"
		fi
	done | sort -n | tr '\n' ' ' | sed 's/ $//'
}
# rchars: the bytes each FastCGI process has read (its requests).
rchars() {
	for _p in $(fpids); do
		sed -n 's/^rchar: //p' "/proc/$_p/io"
	done | tr '\n' ' ' | sed 's/ $//'
}
nfpids() {
	set -- $(fpids)
	echo $#
}
# The processes are lighttpd's children, stopped with it; any left (a
# test cut short) are killed by pid before $tmp goes.
fcgi_cleanup() {
	_l=$(cat "$tmp/lighttpd.pid" 2>/dev/null || :)
	[ -z "$_l" ] || kill "$_l" 2>/dev/null || :
	for _p in $(fpids); do
		kill -9 "$_p" 2>/dev/null || :
	done
	for _p in $(deploy_pids); do
		kill "$_p" 2>/dev/null || :
	done
}
trap 'fcgi_cleanup; cleanup' EXIT

mkdir -p "$tmp/htdocs"
started=
for try in 1 2 3 4 5; do
	port=$(deploy_port)
	{
		deploy_lighttpd_head "$port"
	} >"$tmp/lighttpd.conf"
	if ! "$LIGHTTPD" -tt -f "$tmp/lighttpd.conf" >"$tmp/lighttpd.t" 2>&1; then
		echo "Bail out! lighttpd refuses the configuration:" \
		    "$(head -3 "$tmp/lighttpd.t")"
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
	# (The processes of a lighttpd that lost the port die with it.)
	_end=$(($(deploy_ms) + 5000))
	while [ -n "$(fpids)" ] && [ "$(deploy_ms)" -lt "$_end" ]; do
		sleep 0.05
	done
done
if [ -z "$started" ]; then
	echo "Bail out! lighttpd does not start: $(tail -3 \
	    "$logs/lighttpd-error.log" "$logs/lighttpd.stderr" 2>/dev/null)"
	exit 1
fi
version=$("$LIGHTTPD" -v | sed -n 's/^lighttpd\/\([^ ]*\).*/\1/p')
ok "lighttpd $version serves on 127.0.0.1:$port"

# lighttpd starts the processes with itself, before any request.
_end=$(($(deploy_ms) + 10000))
while [ "$(nfpids)" -ne 2 ] && [ "$(deploy_ms)" -lt "$_end" ]; do
	sleep 0.05
done
fp=$(fpids)
check "lighttpd started 2 FastCGI processes ($fp)" test "$(nfpids)" -eq 2
check "  on the sockets deepq.sock-0 and deepq.sock-1" \
    test -S "$sockdir/deepq.sock-0" -a -S "$sockdir/deepq.sock-1"
if [ -n "$www_user" ]; then
	check "  as $www_user" sh -c "for p in $fp; do
	    [ \"\$(stat -c %U /proc/\$p)\" = '$www_user' ] || exit 1; done"
fi

deploy_smoke lighttpd-fastcgi "$logs/lighttpd-error.log"
deploy_below lighttpd-fastcgi
# 4 requests (menu, top, menu as JSON, shutdown; lighttpd itself serves
# the stylesheet) and 2 processes: one answered several.
check "the same 2 processes answered all the smoke's requests ($(fpids))" \
    test "$(fpids)" = "$fp"

set -- $(deploy_get 'file=../etc/passwd')
check "lighttpd-fastcgi: file=../etc/passwd is 403 ($1)" test "$1" = 403
set -- $(deploy_get 'file=%2e%2e/%2e%2e/etc/passwd&format=json')
check "lighttpd-fastcgi: file=%2e%2e/%2e%2e/etc/passwd is 403 ($1)" \
    test "$1" = 403
check "  and started no deepq-server" deploy_none

# Concurrent cold requests, taken by both processes: one deepq-server.
rc0=$(rchars)
i=0
while [ $i -lt 8 ]; do
	q="file=workload-fp.folded&cmd=top&limit=$((i + 1))&format=json"
	curl -s --max-time 20 -o "$tmp/par$i.body" -w '%{http_code}\n' \
	    "http://127.0.0.1:$port/cgi-bin/deepq.cgi?$q" \
	    >"$tmp/par$i.code" 2>/dev/null &
	i=$((i + 1))
done
wait_curls() {
	for _i in 0 1 2 3 4 5 6 7; do
		grep -q . "$tmp/par$_i.code" 2>/dev/null || return 1
	done
}
_end=$(($(deploy_ms) + 25000))
while ! wait_curls && [ "$(deploy_ms)" -lt "$_end" ]; do
	sleep 0.05
done
check "8 concurrent cold requests: all 200 ($(cat "$tmp"/par*.code |
    sort | uniq -c | tr -s ' \n' '  '))" \
    test "$(cat "$tmp"/par*.code | grep -c '^200$')" -eq 8
check "  each its rows" sh -c 'for i in 0 1 2 3 4 5 6 7; do
    jq -e ".rows | length == $((i + 1))" "$0/par$i.body" >/dev/null ||
    exit 1; done' "$tmp"
check "  one deepq-server started ($(deploy_pids | tr '\n' ' '))" \
    test "$(deploy_pids | wc -l)" -eq 1
check "  by the same 2 processes" test "$(fpids)" = "$fp"
rc1=$(rchars)
check "  both of which read requests (bytes read: $rc0, then $rc1)" sh -c \
    "set -- $rc0 $rc1; [ \$3 -gt \$1 ] && [ \$4 -gt \$2 ]"
set -- $(deploy_get 'file=workload-fp.folded&cmd=shutdown&format=json')
check "shutdown through FastCGI again: 200" test "$1" = 200
_end=$(($(deploy_ms) + 10000))
while ! deploy_none && [ "$(deploy_ms)" -lt "$_end" ]; do
	sleep 0.05
done
check "  and the server is gone" deploy_none

# lighttpd stops its FastCGI processes.
kill "$(cat "$tmp/lighttpd.pid")"
wait "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
rm -f "$tmp/lighttpd.pid"
_end=$(($(deploy_ms) + 10000))
while [ -n "$(fpids)" ] && [ "$(deploy_ms)" -lt "$_end" ]; do
	sleep 0.05
done
check "lighttpd stopped: no deepq.cgi left ($(fpids))" test -z "$(fpids)"
check "no sanitizer report and no FastCGI error in the error log" sh -c \
    "! grep -i 'deepq.cgi:\|AddressSanitizer\|LeakSanitizer\|runtime error' \
    '$logs/lighttpd-error.log' '$logs/lighttpd.stderr' &&
    ! grep -i 'FastCGI conn' \
    '$logs/lighttpd-error.log' '$logs/lighttpd.stderr'"
done_testing

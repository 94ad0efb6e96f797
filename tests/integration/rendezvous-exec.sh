#!/bin/sh
# No shell is ever spawned: lighttpd runs under strace -f, recording every
# execve of it, the CGIs and the servers they start (cold start, warm
# query, status, shutdown, restart), and of `deepq query'; the only
# programs run are lighttpd, deepq.cgi and deepq-server (and deepq).
# Also the sources: no system(3), popen(3), exec*p or /bin/sh anywhere.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

# The sources, whatever the machine has.
for dir in common engine server cgi cli; do
	check "no system/popen/execlp/execvp/sh -c in $dir/" sh -c \
	    "! grep -nE '\\<(system|popen|execlp|execvp|execvpe|posix_spawnp)\\(|/bin/sh|\"sh\"' \
	    '$top_srcdir/$dir/'*.c"
done
# Two execs in all: the configured server (client-spawn.c), and deepq web
# running deepq-web by its full path, beside deepq or installed
# (cli/cmd-web.c), never through PATH.
check "the only execs: the configured server path, and deepq-web" sh -c \
    "test \"\$(grep -lE '\\<exec[lv]p?e?\\(' '$top_srcdir'/common/*.c \
    '$top_srcdir'/engine/*.c '$top_srcdir'/server/*.c \
    '$top_srcdir'/cgi/*.c '$top_srcdir'/cli/*.c | \
    tr '\\n' ' ')\" = \
    '$top_srcdir/common/client-spawn.c $top_srcdir/cli/cmd-web.c '"

command -v strace >/dev/null 2>&1 || skip_all "strace is not installed"
# LeakSanitizer cannot run under ptrace (sanitizer builds).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
strace -f -qq -e trace=execve -o /dev/null true 2>/dev/null ||
    skip_all "strace cannot trace here (ptrace not permitted)"

rdv_httpd "$tmp/strace.out"
q='file=firefox.folded&cmd=top&format=json'
check "cold request" test "$(rdv_get "$q")" = 200
check "warm request" test "$(rdv_get "$q")" = 200
check "status" test "$(rdv_get 'file=firefox.folded&cmd=status')" = 200
check "shutdown" test "$(rdv_get 'file=firefox.folded&cmd=shutdown')" = 200
rdv_wait 5 rdv_none
check "restart" test "$(rdv_get "$q")" = 200
rdv_stop
# strace -f waits for every traced process, the detached server too: stop
# it as soon as the query is answered.
strace -f -qq -e trace=execve -o "$tmp/cli.strace" \
    "$DEEPQ" query "$root/recursion.folded" 'cmd=top' >"$tmp/cli.out" &
spid=$!
rdv_wait 10 test -s "$tmp/cli.out"
rdv_wait 10 rdv_one
rdv_stop
wait $spid

execs() {
	sed -n 's/^[0-9]* *execve("\([^"]*\)".*/\1/p' "$1" | sort -u
}
execs "$tmp/strace.out" >"$tmp/execs"
sed 's/^/# exec: /' "$tmp/execs"
check "strace saw the CGI run" grep -qx "$tmp/www/cgi-bin/deepq.cgi" \
    "$tmp/execs"
check "strace saw the server started (twice)" test \
    "$(grep -c "execve(\"$SERVER\"" "$tmp/strace.out")" -ge 2
check "under lighttpd only lighttpd, deepq.cgi and deepq-server ran" sh -c \
    "! grep -vx -e '$(readlink -f "$LIGHTTPD")' -e '$LIGHTTPD' \
    -e '$tmp/www/cgi-bin/deepq.cgi' -e '$SERVER' '$tmp/execs'"
check "no shell under lighttpd" sh -c \
    "! grep -E '/(sh|bash|dash|ksh|zsh)\$' '$tmp/execs'"
execs "$tmp/cli.strace" >"$tmp/cli.execs"
check "deepq query ran only deepq and deepq-server" sh -c \
    "! grep -vx -e '$DEEPQ' -e '$SERVER' '$tmp/cli.execs'"
check "deepq query started its server" grep -qx "$SERVER" "$tmp/cli.execs"

done_testing

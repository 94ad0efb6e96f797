#!/bin/sh
# The life of a server, through lighttpd and curl: cold start and warm
# reuse, detachment from the web server, status, shutdown by query, deepq
# stop/status/query sharing the same servers, idle timeout, stale want
# files, a lost runtime directory, max_servers, loading feedback without a
# second loader, and a profile that does not load.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
need_test_hooks
. "${0%/*}/rendezvous-lib.sh"

rdv_httpd
q='file=firefox.folded&cmd=top&format=json'
rdv_local 'cmd=top&format=json' >"$tmp/want.json"

# A cold request starts one server and answers; the CGI's page completes
# at once even though it forked a server that lives on (idle 60 s).
t0=$(rdv_ms)
code=$(rdv_get "$q")
t1=$(rdv_ms)
check "cold request answers 200" test "$code" = 200
check "cold answer equals the in-process answer" cmp "$tmp/want.json" \
    "$tmp/body"
# The forked server keeps no descriptor of the CGI's: had it, lighttpd
# would wait for it to exit (idle 60 s), past curl's 45 s.
check "cold request completes while its server lives on ($((t1 - t0)) ms)" \
    test "$code" = 200 -a "$(rdv_count)" -eq 1
check "exactly one server started" rdv_one
pid=$(rdv_pids)
check "its FIFO is in place" test -p "$run/$(rdv_key "$root/firefox.folded").fifo"

# A warm request reuses it.
code=$(rdv_get "$q")
check "warm request answers 200" test "$code" = 200
check "warm answer equals the in-process answer" cmp "$tmp/want.json" \
    "$tmp/body"
code=$(rdv_get 'file=firefox.folded&cmd=status&format=json')
check "cmd=status answers 200" test "$code" = 200
check "cmd=status pid is the same server ($pid)" \
    test "$(rdv_field pid "$tmp/body")" = "$pid"
check "still exactly one server" rdv_one
for f in format load_ms uptime idle_ms queries rss; do
	check "cmd=status has $f" grep -q "\"$f\":" "$tmp/body"
done
check "two queries served (status is not counted)" \
    test "$(rdv_field queries "$tmp/body")" = 2
code=$(rdv_get 'file=firefox.folded&cmd=status')
check "the HTML status page offers shutdown only as a POST form" \
    grep -q '<form method="post" action="?file=firefox.folded&amp;cmd=shutdown">' \
    "$tmp/body"

# Detached (T29): fds 0-2 on /dev/null, nothing shared with lighttpd, its
# own session, none of the request's environment.
for fd in 0 1 2; do
	check "server fd $fd is /dev/null" \
	    test "$(readlink "/proc/$pid/fd/$fd")" = /dev/null
done
lpid=$(cat "$tmp/lighttpd.pid")
# (anon_inode names like [eventpoll] are not objects: each is its own.)
for f in /proc/"$lpid"/fd/*; do
	readlink "$f"
done | grep -v -e '^/dev/null$' -e '^anon_inode:' | sort -u >"$tmp/lighttpd.fds"
for f in /proc/"$pid"/fd/*; do
	readlink "$f"
done | sort -u >"$tmp/server.fds"
comm -12 "$tmp/lighttpd.fds" "$tmp/server.fds" >"$tmp/shared.fds"
check "server shares no fd with lighttpd" test ! -s "$tmp/shared.fds"
sed 's/^/# shared: /' "$tmp/shared.fds"
check "server has only its own fds (runtime dir, /dev/null, its loop)" sh -c \
    "! grep -v -e '^/dev/null\$' -e '^$run' -e '^anon_inode:' -e '^pipe:' \
    '$tmp/server.fds'"
# libevent's signal pipe has both ends here; a lone end would be inherited
# (or the readiness pipe left open).
for f in /proc/"$pid"/fd/*; do
	readlink "$f"
done | grep '^pipe:' | sort | uniq -c | awk '$1 != 2' >"$tmp/lone.fds"
check "no lone pipe end in the server" test ! -s "$tmp/lone.fds"
sid() { sed 's/^[0-9]* ([^)]*) //' "/proc/$1/stat" | cut -d' ' -f4; }
pgrp() { sed 's/^[0-9]* ([^)]*) //' "/proc/$1/stat" | cut -d' ' -f3; }
check "server is in its own session" test "$(sid "$pid")" != "$(sid "$lpid")"
check "server is not in lighttpd's process group" \
    test "$(pgrp "$pid")" != "$(pgrp "$lpid")"
check "server is not a session leader" test "$(sid "$pid")" != "$pid"
check "server has none of the request's environment" \
    sh -c "! tr '\\0' '\\n' </proc/$pid/environ | grep -qE '^(QUERY_STRING|HTTP_|REMOTE_|SERVER_|REQUEST_|DEEPQ_CONFIG)'"
check "server's cwd is /" test "$(readlink "/proc/$pid/cwd")" = /
check "server's malloc asks for huge pages (GLIBC_TUNABLES)" sh -c \
    "tr '\\0' '\\n' </proc/$pid/environ | grep -qx 'GLIBC_TUNABLES=glibc.malloc.hugetlb=1'"

# deepq status and deepq query share the CGI's server.
"$DEEPQ" status >"$tmp/status.out"
check "deepq status lists the server" grep -q "^$pid .*serving.*/firefox.folded\$" \
    "$tmp/status.out"
"$DEEPQ" status --json >"$tmp/status.json"
check "deepq status --json has the pid" grep -q "\"pid\": $pid" \
    "$tmp/status.json"
"$DEEPQ" query "$root/firefox.folded" 'cmd=top&format=json' >"$tmp/cli.json"
check "deepq query answers through the server" cmp "$tmp/want.json" \
    "$tmp/cli.json"
check "deepq query used the same server" test "$(rdv_pids)" = "$pid"

# Shutdown by query (GET, as curl does): answered, then gone with its FIFO.
code=$(rdv_get 'file=firefox.folded&cmd=shutdown&format=json')
check "cmd=shutdown answers 200" test "$code" = 200
check "cmd=shutdown names the pid" test "$(rdv_field pid "$tmp/body")" = "$pid"
check "server exits after shutdown" rdv_wait 5 rdv_gone "$pid"
check "no FIFO left after shutdown" test -z "$(rdv_leftovers)"
code=$(rdv_get "$q")
check "the next request starts a new server" test "$code" = 200
pid2=$(rdv_pids)
check "new server has a new pid ($pid2)" test -n "$pid2" -a "$pid2" != "$pid"

# deepq stop FILE, and deepq stop --all for two servers.
"$DEEPQ" stop "$root/firefox.folded"
check "deepq stop FILE stopped it" rdv_wait 5 rdv_gone "$pid2"
check "deepq stop FILE of no server fails" sh -c \
    "! '$DEEPQ' stop '$root/firefox.folded' 2>/dev/null"
rdv_get 'file=firefox.folded' >/dev/null
rdv_get 'file=recursion.folded' >/dev/null
check "two servers for two files" test "$(rdv_count)" -eq 2
"$DEEPQ" stop --all
check "deepq stop --all stops both" rdv_wait 5 rdv_none
check "nothing left in the runtime dir" test -z "$(rdv_leftovers)"
check "deepq status with none running says so" sh -c \
    "'$DEEPQ' status | grep -qx 'no server is running (runtime directory $run)'"
check "deepq status --json with none running: []" \
    sh -c "test \"\$('$DEEPQ' status --json)\" = '[]'"

# Idle timeout: exits by itself, FIFO first. The bounds below are for a
# hang only (a loaded machine may run the idle timer late, never early);
# the ordering that matters is held by the server-idle hook, where the
# server stops once idle_timeout has passed, before it looks for want
# files and exits.
rdv_conf idle_timeout=1
rdv_get "$q" >/dev/null
pid=$(rdv_pids)
check "idle server exits after idle_timeout (1 s)" rdv_wait 30 rdv_gone "$pid"
check "idle exit leaves no FIFO" test -z "$(rdv_leftovers)"

# Want files: a stale one (older than want_max_age) does not keep the
# server alive, and is removed; a fresh one does, until it ages out.
key=$(rdv_key "$root/firefox.folded")
touch "$run/$key.want.00000000000000aa"
touch -d '-1 hour' "$run/$key.want.00000000000000aa"
rdv_get "$q" >/dev/null
pid=$(rdv_pids)
check "stale want file does not keep the server alive" \
    rdv_wait 30 rdv_gone "$pid"
check "stale want file was removed" test ! -e "$run/$key.want.00000000000000aa"
# The fresh one is made while the server is held idle at the hook, so
# that it is there when the server looks, however slow the machine; it
# stays fresh for want_max_age (60 s), and is made stale by its mtime.
rdv_conf idle_timeout=1 want_max_age=60
: >"$hooks/pause-server-idle"
rdv_get "$q" >/dev/null
pid=$(rdv_pids)
check "the idle server reaches its idle exit (held at the hook)" \
    rdv_wait 30 rdv_paused server-idle
touch "$run/$key.want.00000000000000bb"
rm -f "$hooks/server-idle.$pid"
kill -CONT "$pid"
check "fresh want file keeps the idle server alive: at its idle exit again" \
    rdv_wait 30 rdv_paused server-idle
check "...the want file still there" test -f "$run/$key.want.00000000000000bb"
touch -d '-1 hour' "$run/$key.want.00000000000000bb"
rm -f "$hooks/pause-server-idle" "$hooks/server-idle.$pid"
kill -CONT "$pid"
check "it exits once the want file is stale" rdv_wait 30 rdv_gone "$pid"
check "...and removes it" test ! -e "$run/$key.want.00000000000000bb"
rm -f "$run/$key.want."*

# A deleted runtime directory (T17): the server notices and exits.
rdv_conf
rdv_get "$q" >/dev/null
pid=$(rdv_pids)
rm -rf "$run"
check "server exits when its runtime dir is deleted" rdv_wait 5 rdv_gone "$pid"
code=$(rdv_get "$q")
check "the next request recreates it and answers" test "$code" = 200
check "recreated runtime dir is 0700" test "$(stat -c %a "$run")" = 700
rdv_stop

# max_servers: 503 with Retry-After beyond it, nothing spawned.
rdv_conf max_servers=1
rdv_get 'file=firefox.folded' >/dev/null
code=$(rdv_get 'file=recursion.folded')
check "max_servers=1: a second file gets 503" test "$code" = 503
check "...with Retry-After" test -n "$(rdv_header Retry-After)"
check "...and no second server" rdv_one
rdv_stop

# Loading feedback: the load is held at a hook; clients get a 503 page
# that reloads itself, and no second loader starts.
rdv_conf load_wait=1
touch "$hooks/pause-server-load"
code=$(rdv_get 'file=firefox.folded&cmd=top')
check "slow load: 503" test "$code" = 503
check "...with Retry-After" test -n "$(rdv_header Retry-After)"
check "...and a self-refreshing page" grep -q '<meta http-equiv="refresh"' \
    "$tmp/body"
check "...that says what loads and its size" \
    grep -q 'Loading firefox.folded (0.0 MB)' "$tmp/body"
loader=$(rdv_held 10 server-load)
check "the loader is held at the hook" test -n "$loader"
rm -f "$hooks/pause-server-load"
pids=
for i in 1 2 3 4 5; do
	rdv_get 'file=firefox.folded&cmd=top&format=json' >"$tmp/code.$i" &
	pids="$pids $!"
done
wait $pids
check "five more requests while loading: all 503" \
    test "$(cat "$tmp/code".[1-5] | tr -d '\n')" = 503503503503503
check "JSON loading answer" grep -q '"status":503' "$tmp/body"
check "no second loader" test "$(rdv_pids)" = "$loader"
kill -CONT "$loader"
code=$(rdv_get "$q")
check "after the load, the same server answers" test "$code" = 200 -a \
    "$(rdv_pids)" = "$loader"
rdv_stop

# A file that is not a profile: 422 with the reason, no server left.
printf '\001\002garbage\n' >"$root/bad.folded"
code=$(rdv_get 'file=bad.folded&format=json')
check "unloadable profile: 422" test "$code" = 422
check "...saying why, without the real path" sh -c \
    "grep -q 'cannot load bad.folded' '$tmp/body' && ! grep -q '$root' '$tmp/body'"
check "...and no server left" rdv_wait 3 rdv_none
code=$(rdv_get 'file=bad.folded')
check "...its page: 422, with no link to its own pages, which would fail" \
    sh -c "test $code = 422 && grep -q 'class=\"home\"' '$tmp/body' &&
    ! grep -q 'cmd=top\|cmd=tree\|cmd=flame' '$tmp/body'"
check "...and no server left" rdv_wait 3 rdv_none
check "nothing left in the runtime dir" test -z "$(rdv_leftovers)"
key=$(stat -c '%d %i' "$root/bad.folded" | awk '{ printf "%016x%016x", $1, $2 }')
check "...not even its lock or liveness file" \
    sh -c "! ls '$run' | grep -q '^$key\.'"

# cmd=status and cmd=shutdown of a profile no server has: 404 at once,
# no server started (nothing loaded), no file made in the runtime dir.
rm -f "$run"/*.lock "$run"/*.alive
for c in status shutdown; do
	code=$(rdv_get "file=recursion.folded&cmd=$c&format=json")
	check "cmd=$c with no server: 404 ($code)" test "$code" = 404
	check "...saying so" grep -q 'no server is running' "$tmp/body"
done
check "...no server started by either" rdv_none
check "...no file made for them" \
    sh -c "! ls '$run' | grep -q '\.\(lock\|alive\)$'"

# A load that needs more memory than max_memory (RLIMIT_AS) fails
# cleanly: an error page, no half-started server (T19).
awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "main;f%d;g%d;h%d 1\n", i % 100, i % 1000, i }' >"$root/huge.folded"
rdv_conf max_memory=1
code=$(rdv_get 'file=huge.folded&format=json')
if ldd "$SERVER" 2>/dev/null | grep -q libasan; then
	# ASan's shadow memory cannot live under a 1 MB RLIMIT_AS.
	check "load over max_memory (ASan build): an error ($code)" \
	    test "$code" = 500
else
	check "load over max_memory: an error ($code)" test "$code" = 422
	check "...that says out of memory" grep -q 'out of memory' "$tmp/body"
fi
check "...and no server left" rdv_wait 3 rdv_none
rdv_conf

done_testing

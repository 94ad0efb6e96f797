#!/bin/sh
# T34 (FIFO squatting) and T35 (planted mutex and want files) by a real
# second user: the attacker runs as nobody (setpriv), in a world-writable
# sticky directory where the runtime directory is to be, with a fake
# server (tests/unit/squat-server) that holds the liveness lock, owns the
# FIFO and answers /etc/shadow, ../../x and shell metacharacters. The
# clients are root (lighttpd and its CGI) and an unprivileged web user,
# daemon (the CGI run directly, its servers its own). Squatting the
# runtime directory's path is refused (wrong owner, or a link) and can
# only deny service; once the daemon made its private directory the
# attacker cannot get into it, and files planted beside it change
# nothing, not even a server's idle exit. In no case does a client talk
# to the fake server, return a file's content, or run a command.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

SQUAT=$top_builddir/tests/unit/squat-server
if [ ! -x "$SQUAT" ]; then
	echo "Bail out! build tests/unit/squat-server first (make check)"
	exit 1
fi
[ "$(id -u)" -eq 0 ] || skip_all "needs root, to run the attacker as nobody"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
# A command prefix, not a function: `$as_nobody cmd &' must leave $!
# the command's own pid (setpriv execs it), so that it can be stopped.
as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"

# The other users may pass through $tmp (not list it) and read the
# profiles; $pub is the world-writable sticky directory, like /tmp.
chmod 711 "$tmp"
chmod 755 "$root"
pub=$tmp/pub
mkdir -m 1777 "$pub"
nuid=$(id -u nobody)
duid=$(id -u daemon)
key=$(rdv_key "$root/firefox.folded")
q='file=firefox.folded&cmd=top&format=json'
rdv_local 'cmd=top&format=json' >"$tmp/want.json"

# The daemon user's configuration (its own runtime directory) and the
# root one; rdv_pids and rdv_cleanup follow $run, the root one.
drun=$pub/drun
dconf=$tmp/deepq-daemon.conf
run=$drun
rdv_conf idle_timeout=2
mv "$conf" "$dconf"
chmod 644 "$dconf"
run=$pub/run
rdv_conf

# d_pids: the daemon user's servers.
d_pids() {
	for _c in $(grep -laF -- "$drun" /proc/[0-9]*/cmdline 2>/dev/null); do
		if grep -qaF deepq-server "$_c" 2>/dev/null; then
			_c=${_c#/proc/}
			echo "${_c%/cmdline}"
		fi
	done
}
d_none() {
	[ -z "$(d_pids)" ]
}
# At exit: the daemon user's servers, and whatever the attacker still
# runs (every such process names $pub, a path private to this test).
d_cleanup() {
	for _p in $(d_pids); do
		kill -9 "$_p" 2>/dev/null || :
	done
	for _c in $(grep -laF -- "$pub" /proc/[0-9]*/cmdline 2>/dev/null); do
		_p=${_c#/proc/}
		_p=${_p%/cmdline}
		[ "$(stat -c %u "/proc/$_p" 2>/dev/null)" = "$nuid" ] &&
		    kill -9 "$_p" 2>/dev/null || :
	done
}
trap 'd_cleanup; rdv_cleanup; cleanup' EXIT

# What a successful attack would show: the marker file the payload's
# commands create (anyone may create it in $pub), a line of /etc/shadow.
marker=$pub/pwned
shadow=$(head -1 /etc/shadow 2>/dev/null || echo 'root:')
meta="\$(touch $marker); \`touch $marker\` | touch $marker && touch $marker"
log=$pub/squat.log

# squat MODE DIR: the fake server, as nobody, in DIR (which must exist),
# its files with MODE; waits until it is in place.
squat() {
	rm -f "$pub/squat.ready"
	$as_nobody "$SQUAT" "$1" "$2" "$key" "$log" "$pub/squat.ready" \
	    /etc/shadow ../../x "$meta" 2>"$tmp/squat.err" &
	echo $! >"$tmp/squat.pid"
	rdv_wait 5 test -f "$pub/squat.ready"
}
unsquat() {
	if [ -f "$tmp/squat.pid" ]; then
		kill "$(cat "$tmp/squat.pid")" 2>/dev/null || :
		wait "$(cat "$tmp/squat.pid")" 2>/dev/null || :
		rm -f "$tmp/squat.pid"
	fi
}

# unharmed WHAT FILE: the fake server got no request; FILE (the body
# returned) holds none of its payloads and no shadow line; no command
# ran.
unharmed() {
	check "$1: the fake server got no request" test ! -s "$log"
	check "$1: none of its payloads returned" \
	    sh -c "! grep -qF -e /etc/shadow -e ../../x -e 'touch ' '$2'"
	check "$1: no line of /etc/shadow returned" \
	    sh -c "! grep -qF '$shadow' '$2'"
	check "$1: no command ran" test ! -e "$marker"
}

# dcgi NAME: the CGI as the daemon user, with the daemon configuration;
# its status in $tmp/NAME.status, its body in $tmp/NAME.body.
dcgi() {
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$dconf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 QUERY_STRING="$q" \
	    setpriv --reuid=daemon --regid=daemon --clear-groups \
	    "$CGI" >"$tmp/$1.out" 2>"$tmp/$1.err" || :
	sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/$1.out" >"$tmp/$1.status"
	[ -s "$tmp/$1.status" ] || echo 200 >"$tmp/$1.status"
	sed '1,/^\r*$/d' "$tmp/$1.out" >"$tmp/$1.body"
}

rdv_httpd

# --- control: the fake server works, and its answers are only data ---
# Run by the daemon's own user (root) in the daemon's own directory,
# with private modes, it is indistinguishable from a real server: that
# proves the squats below are real. Even then what it says is shown as
# text: the client never opens a path it is given, nor runs anything.
mkdir -m 700 "$run"
rm -f "$pub/squat.ready"
"$SQUAT" 0600 "$run" "$key" "$tmp/control.log" "$pub/squat.ready" \
    /etc/shadow ../../x "$meta" 2>"$tmp/squat.err" &
echo $! >"$tmp/squat.pid"
check "control: the fake server is in place" \
    rdv_wait 5 test -f "$pub/squat.ready"
n=0
for want in /etc/shadow ../../x "$meta"; do
	n=$((n + 1))
	code=$(rdv_get "$q")
	check "control $n: the same-user fake server is reached ($code)" \
	    test "$code" = 200
	check "control $n: its answer is the literal string, nothing more" \
	    test "$(cat "$tmp/body")" = "$want"
done
check "control: no line of /etc/shadow returned" \
    sh -c "! grep -qF '$shadow' '$tmp/body'"
check "control: no command ran" test ! -e "$marker"
check "control: it logged the three requests" \
    test "$(grep -c '^request ' "$tmp/control.log")" -eq 3
unsquat
rm -rf "$run"

# --- T34: nobody squats the runtime directory's path first ---
for dmode in 0700 0777; do
	$as_nobody mkdir -m "$dmode" "$run"
	$as_nobody chmod "$dmode" "$run"
	squat 0666 "$run"
	check "squat, dir $dmode: the runtime dir and the FIFO are nobody's" \
	    test "$(stat -c %u "$run")" = "$nuid" \
	    -a "$(stat -c %u "$run/$key.fifo")" = "$nuid" \
	    -a -p "$run/$key.fifo"
	code=$(rdv_get "$q")
	check "squat, dir $dmode: root's request is refused ($code)" \
	    test "$code" = 500
	check "squat, dir $dmode: ...because of the owner" \
	    grep -q "owned by uid $nuid" "$tmp/body"
	unharmed "squat, dir $dmode" "$tmp/body"
	check "squat, dir $dmode: no real server started" rdv_none
	unsquat
	rm -rf "$run"
	code=$(rdv_get "$q")
	check "squat, dir $dmode: removed, the next request answers" \
	    test "$code" = 200
	check "...correctly" cmp "$tmp/want.json" "$tmp/body"
	rdv_stop
	rm -rf "$run"
done

# A symbolic link at the path, to nobody's squatted directory.
$as_nobody mkdir -m 755 "$pub/lair"
squat 0666 "$pub/lair"
$as_nobody ln -s "$pub/lair" "$run"
code=$(rdv_get "$q")
check "squat by symlink: refused ($code)" test "$code" = 500
check "squat by symlink: ...because it is a link" \
    grep -q "symbolic link" "$tmp/body"
unharmed "squat by symlink" "$tmp/body"
check "squat by symlink: no real server started" rdv_none
unsquat
rm -rf "$run" "$pub/lair"

# --- T34/T35 once the daemon made its private directory first ---
code=$(rdv_get "$q")
check "root's runtime dir made first: answers" test "$code" = 200
pid=$(rdv_pids)
for f in "$key.fifo" "$key.lock" "$key.alive" "$key.want.0000000000000000" \
    spawn.lock; do
	check "nobody cannot plant $f in it" \
	    sh -c "! setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    sh -c 'mkfifo \"$run/$f.x\" || : >\"$run/$f\"' 2>/dev/null"
done
check "nobody cannot even list it" \
    sh -c "! setpriv --reuid=nobody --regid=nogroup --clear-groups \
    ls '$run' >/dev/null 2>&1"
# Everything planted where nobody can write, beside the directory: the
# fake server's FIFO, lock, want and spawn files, and locks held on them.
squat 0666 "$pub"
# (each holder: a shell that locks its fd 9, then becomes tail -f)
for f in "$key.lock" spawn.lock; do
	$as_nobody sh -c 'exec 9<>"$1" && flock 9 && exec tail -f "$1"' \
	    sh "$pub/$f" &
	echo $! >"$tmp/flock-$f.pid"
done
check "nobody holds its locks beside the directory" \
    rdv_wait 5 sh -c "! flock -n '$pub/spawn.lock' true &&
    ! flock -n '$pub/$key.lock' true && ! flock -n '$pub/$key.alive' true"
for i in 1 2 3; do
	code=$(rdv_get "$q")
	check "planted beside it, request $i: answers ($code)" test "$code" = 200
	check "...correctly" cmp "$tmp/want.json" "$tmp/body"
done
check "planted beside it: the same real server answered" \
    test "$(rdv_pids)" = "$pid"
unharmed "planted beside it" "$tmp/body"
rdv_stop
# Every wait set past curl's 20 s: an answer at all says the planted
# locks held it up in none.
rdv_conf load_wait=60 query_timeout=600
t0=$(rdv_ms)
code=$(rdv_get "$q")
t1=$(rdv_ms)
rdv_conf
check "planted locks held: a new server still starts, waiting for none ($((t1 - t0)) ms)" \
    test "$code" = 200
unsquat

# --- the web server as an unprivileged user (daemon) ---
$as_nobody mkdir -m 0777 "$drun"
$as_nobody chmod 0777 "$drun"
squat 0666 "$drun"
dcgi d1
check "daemon, squatted dir 0777: refused ($(cat "$tmp/d1.status"))" \
    test "$(cat "$tmp/d1.status")" = 500
check "daemon, squatted dir 0777: ...because of the owner" \
    grep -q "owned by uid $nuid" "$tmp/d1.body"
unharmed "daemon, squatted dir 0777" "$tmp/d1.body"
check "daemon, squatted dir 0777: no real server started" d_none
unsquat
rm -rf "$drun"

$as_nobody mkdir -m 0700 "$drun"
squat 0666 "$drun"
dcgi d2
check "daemon, squatted dir 0700: refused ($(cat "$tmp/d2.status"))" \
    test "$(cat "$tmp/d2.status")" = 500
unharmed "daemon, squatted dir 0700" "$tmp/d2.body"
check "daemon, squatted dir 0700: no real server started" d_none
unsquat
rm -rf "$drun"

squat 0666 "$pub"
dcgi d3
check "daemon, own dir: answers ($(cat "$tmp/d3.status"))" \
    test "$(cat "$tmp/d3.status")" = 200
check "...correctly" cmp "$tmp/want.json" "$tmp/d3.body"
check "daemon, own dir: made by daemon, mode 0700" \
    test "$(stat -c '%u %a' "$drun")" = "$duid 700"
dpid=$(d_pids)
check "daemon, own dir: its server runs as daemon" \
    test "$(awk '/^Uid:/ { print $2 }' "/proc/$dpid/status")" = "$duid"
check "nobody cannot plant a FIFO in daemon's dir" \
    sh -c "! setpriv --reuid=nobody --regid=nogroup --clear-groups \
    mkfifo '$drun/$key.fifo.x' 2>/dev/null"
check "nobody cannot signal daemon's server (daemon can)" \
    sh -c "! setpriv --reuid=nobody --regid=nogroup --clear-groups \
    kill -0 $dpid 2>/dev/null && setpriv --reuid=daemon --regid=daemon \
    --clear-groups kill -0 $dpid"
dcgi d4
check "daemon, planted files beside its dir: answers" \
    test "$(cat "$tmp/d4.status")" = 200 -a "$(d_pids)" = "$dpid"
unharmed "daemon, planted files beside its dir" "$tmp/d4.body"
# T35: the mdprof DoS was a want file anyone could create keeping every
# server alive. Planted want files (fresh ones, kept fresh) beside the
# directory do not stop the idle exit (idle_timeout 2 s).
$as_nobody sh -c "while :; do touch '$pub/$key.want.0000000000000001' \
    '$pub/$key.want.0000000000000000'; sleep 0.3; done" &
echo $! >"$tmp/toucher.pid"
check "T35: daemon's server still exits when idle, want files planted" \
    rdv_wait 8 d_none
kill "$(cat "$tmp/toucher.pid")" 2>/dev/null || :
unsquat

done_testing

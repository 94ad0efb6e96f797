# Helpers for the rendezvous tests, sourced after tests/lib.sh: a private
# profile root, runtime directory, hook directory and deepq.conf; lighttpd
# on 127.0.0.1 (a free port) with the built CGI in its cgi-bin; curl as the
# client; process checks limited to the servers of this test's runtime
# directory (their command line names it), so nothing else is ever touched.
#
# Every test script first re-runs itself under timeout(1), a global
# deadline: a hang is a failure, never a stuck `make check'.

: "${SERVER:=$top_builddir/server/deepq-server}"
: "${CGI:=$top_builddir/cgi/deepq.cgi}"
: "${LIGHTTPD:=/usr/sbin/lighttpd}"

if [ ! -x "$SERVER" ] || [ ! -x "$CGI" ]; then
	echo "Bail out! build deepq-server and deepq.cgi first"
	exit 1
fi
command -v curl >/dev/null 2>&1 || skip_all "curl is not installed"
[ -x "$LIGHTTPD" ] || skip_all "lighttpd is not installed ($LIGHTTPD)"

root=$tmp/profiles
run=$tmp/run
hooks=$tmp/hooks
conf=$tmp/deepq.conf
port=
url=
mkdir -p "$root" "$hooks" "$tmp/www/cgi-bin"
cp "$top_srcdir/tests/data/firefox.folded" \
    "$top_srcdir/tests/data/recursion.folded" "$root/"
cp "$CGI" "$tmp/www/cgi-bin/deepq.cgi"
DEEPQ_CONFIG=$conf
DEEPQ_TEST_HOOKS=$hooks
export DEEPQ_CONFIG DEEPQ_TEST_HOOKS

# rdv_conf [key=value...]: deepq.conf with the test defaults, overridden.
rdv_conf() {
	set -- "profile_root=$root" "runtime_dir=$run" "server_path=$SERVER" \
	    "idle_timeout=60" "load_wait=3" "query_timeout=10" "$@"
	: >"$conf.new"
	for kv; do
		grep -v "^${kv%%=*} = " "$conf.new" >"$conf.tmp" || :
		echo "${kv%%=*} = ${kv#*=}" >>"$conf.tmp"
		mv "$conf.tmp" "$conf.new"
	done
	mv "$conf.new" "$conf"
}
rdv_conf

# rdv_wait SECONDS COMMAND...: poll until COMMAND succeeds; 1 on timeout.
rdv_wait() {
	# A deadline for what must happen, not a measure of the machine: a
	# test machine shared by a parallel build or other sessions may run
	# several times slower than an idle one, so the seconds given are
	# those an idle machine needs with room, times RDV_WAIT_SCALE.
	_end=$(($(date +%s%N) / 1000000 + $1 * 1000 * ${RDV_WAIT_SCALE:-4}))
	shift
	while ! "$@"; do
		[ "$(($(date +%s%N) / 1000000))" -lt "$_end" ] || return 1
		sleep 0.02
	done
}

# rdv_ms: milliseconds since the epoch.
rdv_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# rdv_httpd [strace-output]: start lighttpd on a free port (optionally
# under strace -f, recording execve), and wait until it answers. A
# command in $RDV_WRAP (words, no quoting) runs lighttpd; it must exec it,
# so that $! stays lighttpd's pid.
rdv_httpd() {
	for _try in 1 2 3 4 5 6 7 8 9 10; do
		port=$(shuf -i 20000-60999 -n 1)
		cat >"$tmp/lighttpd.conf" <<EOF
server.document-root = "$tmp/www"
server.bind = "127.0.0.1"
server.port = $port
server.modules = ( "mod_setenv", "mod_cgi" )
server.errorlog = "$tmp/lighttpd.err"
server.max-fds = 4096
cgi.assign = ( ".cgi" => "" )
mimetype.assign = ( ".css" => "text/css", ".js" => "text/javascript",
    ".svg" => "image/svg+xml" )
setenv.add-environment = ( "DEEPQ_CONFIG" => "$conf",
    "DEEPQ_TEST_HOOKS" => "$hooks",
    "ASAN_OPTIONS" => "${ASAN_OPTIONS:-}",
    "UBSAN_OPTIONS" => "${UBSAN_OPTIONS:-}" )
EOF
		if [ -n "${1:-}" ]; then
			strace -f -qq -e trace=execve -o "$1" \
			    "$LIGHTTPD" -D -f "$tmp/lighttpd.conf" \
			    2>>"$tmp/lighttpd.err" &
		else
			${RDV_WRAP:-} "$LIGHTTPD" -D -f "$tmp/lighttpd.conf" \
			    2>>"$tmp/lighttpd.err" &
		fi
		echo $! >"$tmp/lighttpd.pid"
		url="http://127.0.0.1:$port/cgi-bin/deepq.cgi"
		_end=$(($(rdv_ms) + 5000))
		while kill -0 "$(cat "$tmp/lighttpd.pid")" 2>/dev/null; do
			if curl -s -o /dev/null --max-time 2 \
			    "http://127.0.0.1:$port/"; then
				[ -z "${1:-}" ] || rdv_httpd_traced
				return 0
			fi
			[ "$(rdv_ms)" -lt "$_end" ] || break
			sleep 0.02
		done
		kill "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
		wait "$(cat "$tmp/lighttpd.pid")" 2>/dev/null || :
	done
	echo "Bail out! lighttpd does not start: $(tail -3 "$tmp/lighttpd.err")"
	exit 1
}

# Under strace, $! was strace: record lighttpd itself (its child) so that
# the cleanup stops lighttpd, and strace with it.
rdv_httpd_traced() {
	mv "$tmp/lighttpd.pid" "$tmp/strace.pid"
	for _c in $(grep -laF -- "$tmp/lighttpd.conf" /proc/[0-9]*/cmdline); do
		_p=${_c#/proc/}
		_p=${_p%/cmdline}
		if [ "$(readlink "/proc/$_p/exe")" = "$(readlink -f "$LIGHTTPD")" ]
		then
			echo "$_p" >"$tmp/lighttpd.pid"
			return 0
		fi
	done
	echo "Bail out! cannot find lighttpd under strace"
	exit 1
}

# rdv_get QUERY [CURL-ARGS...]: request the CGI; the body goes to
# $tmp/body, the headers to $tmp/head; prints the HTTP status. curl
# gives up after 45 s: room for a cold load on a loaded machine, and
# still short of load_wait's 60 s maximum and idle_timeout's 60 s, which
# the tests that say "an answer at all" set their waits past.
rdv_get() {
	_q=$1
	shift
	curl -sS --max-time 45 -D "$tmp/head" -o "$tmp/body" \
	    -w '%{http_code}' "$@" "$url?$_q" || echo 000
}

# rdv_header NAME: a header's value from $tmp/head.
rdv_header() {
	tr -d '\r' <"$tmp/head" | sed -n "s/^$1: //Ip" | head -1
}

# rdv_pids: the deepq-server processes of this test.
rdv_pids() {
	for _c in $(grep -laF -- "$run" /proc/[0-9]*/cmdline 2>/dev/null); do
		if grep -qaF deepq-server "$_c" 2>/dev/null; then
			_c=${_c#/proc/}
			echo "${_c%/cmdline}"
		fi
	done
}

# rdv_count: how many there are.
rdv_count() {
	rdv_pids | wc -l
}

# rdv_field NAME FILE: a scalar member of a one-line JSON object.
rdv_field() {
	sed -n "s/.*\"$1\": *\([^,}]*\).*/\1/p" "$2" | head -1 | tr -d '"'
}

# rdv_key FILE: the runtime key of a profile (device, inode in hex).
rdv_key() {
	set -- $(stat -Lc '%d %i' "$1")
	printf '%016x%016x\n' "$1" "$2"
}

# rdv_state PID: the process state letter (R, S, T, Z...), or none.
rdv_state() {
	sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null ||
	    :
}

# rdv_paused POINT: print the pid of a process stopped at a test hook.
rdv_paused() {
	for _f in "$hooks/$1".*; do
		[ -f "$_f" ] || continue
		_p=${_f##*.}
		if [ "$(rdv_state "$_p")" = T ]; then
			echo "$_p"
			return 0
		fi
	done
	return 1
}

# rdv_held SECONDS POINT: the pid of a process stopped at test hook
# POINT once one is, or nothing after SECONDS. A hook writes its pid
# file just before it stops itself: the file alone is not the stop, and
# under load the stop can come well after it.
rdv_held() {
	rdv_wait "$1" rdv_paused "$2" >/dev/null || :
	rdv_paused "$2" || :
}

# rdv_gone PID: the process has exited (or is a zombie).
rdv_gone() {
	case $(rdv_state "$1") in
	'' | Z | X) return 0 ;;
	esac
	return 1
}

# rdv_none: no server of this test runs.
rdv_none() {
	[ "$(rdv_count)" -eq 0 ]
}

# rdv_one: exactly one does.
rdv_one() {
	[ "$(rdv_count)" -eq 1 ]
}

# rdv_stop: stop every server of this test and wait until their processes
# are gone (a server releases its liveness lock, which `deepq stop' waits
# for, slightly before its process ends).
rdv_stop() {
	# A request still in flight (a CGI whose server was killed starts
	# another) may start a server after one stop: stop until none is
	# left, and say which stayed if some do.
	rdv_wait 10 rdv_stop_all || {
		echo "# rdv_stop: still running: $(rdv_pids | tr '\n' ' ')"
		return 1
	}
}

# rdv_stop_all: deepq stop --all, then are none left?
rdv_stop_all() {
	"$DEEPQ" stop --all || return 1
	rdv_none
}

# rdv_count_is N: exactly N servers of this test run.
rdv_count_is() {
	[ "$(rdv_count)" -eq "$1" ]
}

# rdv_leftovers: runtime files that should not outlive the clients and
# servers (FIFOs, want files, reply FIFOs, query files).
rdv_leftovers() {
	ls "$run" 2>/dev/null | grep -E '\.(fifo|want|reply|query)' || :
}

# The processes this test caused (servers, CGIs paused at hooks) are
# stopped before lib.sh's cleanup removes $tmp; only ours, by pid.
rdv_cleanup() {
	timeout 10 "$DEEPQ" stop --all >/dev/null 2>&1 || :
	for _p in $(rdv_pids); do
		kill -CONT "$_p" 2>/dev/null || :
		kill -9 "$_p" 2>/dev/null || :
	done
	for _f in "$hooks"/*.[0-9]*; do
		[ -f "$_f" ] || continue
		_p=${_f##*.}
		if grep -qa deepq "/proc/$_p/cmdline" 2>/dev/null; then
			kill -9 "$_p" 2>/dev/null || :
		fi
	done
}
trap 'rdv_cleanup; cleanup' EXIT

# rdv_web: deepq web over $root on a free loopback port ($web, the URL
# it prints; its pid in $tmp/web.pid).
rdv_web() {
	"$DEEPQ" web --listen 127.0.0.1:0 --www "$top_srcdir/www" "$root" \
	    >"$tmp/web.out" 2>"$tmp/web.err" &
	echo $! >"$tmp/web.pid"
	rdv_wait 10 grep -q 'http://' "$tmp/web.out" || {
		echo "Bail out! deepq web does not start: $(cat "$tmp/web.err")"
		exit 1
	}
	web=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$tmp/web.out")
}

# rdv_local QUERY: the in-process answer for firefox.folded, the
# reference every relayed answer must equal.
rdv_local() {
	(cd "$root" && "$DEEPQ" query --local "${2:-firefox.folded}" "$1")
}

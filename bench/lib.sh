# Shared by the latency benches (sourced).

# The runtime directory for a bench whose scratch directory is $1: on a
# tmpfs, as /run/deepq is when deployed (deepq.conf(5)); on a disk file
# system every request's want file and reply FIFO cost an inode
# allocation. DEEPQ_BENCH_RUNDIR names another parent directory.
bench_rundir() {
	_shm=${DEEPQ_BENCH_RUNDIR:-/dev/shm}
	if [ -d "$_shm" ] && [ -w "$_shm" ]; then
		echo "$_shm/${1##*/}"
	else
		echo "$1/run"
	fi
}

# bench_answers PID URL: wait (5 s at most) until the web server PID, just
# started on a random port, answers URL; false if it died or never did
# (the port was taken: try another).
bench_answers() {
	_n=0
	while kill -0 "$1" 2>/dev/null && ! curl -s -o /dev/null "$2"; do
		_n=$((_n + 1))
		[ $_n -lt 250 ] || break
		sleep 0.02
	done
	curl -s -o /dev/null "$2"
}

# bench_lighttpd NAME [LINE...]: lighttpd on a free port of 127.0.0.1
# ($port, its pid in $lpid) running the CGIs of $tmp/www with
# DEEPQ_CONFIG=$tmp/deepq.conf, plus the configuration LINEs, in which
# @PORT2@ stands for a second free port ($port2). Up to ten ports are
# tried; if none serves, NAME says so and the script exits 1.
bench_lighttpd() {
	_name=$1
	shift
	for _try in 1 2 3 4 5 6 7 8 9 10; do
		port=$(shuf -i 20000-60999 -n 1)
		port2=$(shuf -i 20000-60999 -n 1)
		{
			echo "server.document-root = \"$tmp/www\""
			echo 'server.bind = "127.0.0.1"'
			echo "server.port = $port"
			echo 'server.modules = ( "mod_setenv", "mod_cgi" )'
			echo "server.errorlog = \"$tmp/lighttpd.err\""
			echo 'server.max-fds = 4096'
			echo 'cgi.assign = ( ".cgi" => "" )'
			echo 'setenv.add-environment = ( "DEEPQ_CONFIG" =>' \
			    "\"$tmp/deepq.conf\" )"
			for _line; do
				echo "$_line"
			done | sed "s/@PORT2@/$port2/g"
		} >"$tmp/lighttpd.conf"
		"${LIGHTTPD:-/usr/sbin/lighttpd}" -D -f "$tmp/lighttpd.conf" \
		    2>>"$tmp/lighttpd.err" &
		lpid=$!
		bench_answers "$lpid" "http://127.0.0.1:$port/" && return 0
		kill "$lpid" 2>/dev/null || :
		lpid=
	done
	echo "$_name: lighttpd does not start" >&2
	exit 1
}

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

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

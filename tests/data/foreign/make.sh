#!/bin/sh
# make.sh DIR: how the files here were made (run once by hand, as root,
# on Debian 12 with linux-perf 6.1, bpftrace 0.17, node 20, OpenJDK 17;
# not by make check). DIR is a scratch directory. The expected outputs
# *.sc.folded are FlameGraph's stackcollapse-perf.pl (commit 41fee1f9,
# not bundled) run on each perf-*.txt, and its stackcollapse-bpftrace.pl
# on bpftrace-ustack.txt and bpftrace-o.txt: STACKCOLLAPSE and
# STACKCOLLAPSE_BPFTRACE name them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"

# perf script and its variants, from one recording of spin.c.
gcc -O0 -fno-omit-frame-pointer -o spin "$here/spin.c"
perf record -q -e cpu-clock -F 999 -g -o perf.data ./spin
cp perf.data "$here/perf.data"
perf script -i perf.data >"$here/perf-plain.txt"
perf script -i perf.data --show-mmap-events >"$here/perf-mmap.txt"
perf script -i perf.data --show-task-events >"$here/perf-task.txt"
perf script -i perf.data --show-mmap-events --show-task-events \
    --show-switch-events >"$here/perf-side.txt"
perf script -i perf.data -F comm,tid,period,ip,sym,dso \
    >"$here/perf-F-noevent.txt"
perf script -i perf.data -F comm,tid,event,period,ip,sym,dso \
    >"$here/perf-F-notime.txt"
perf script -i perf.data -F comm,pid,tid,time,period,ip,sym,dso \
    >"$here/perf-F-pidtid.txt"
if [ -n "${STACKCOLLAPSE:-}" ]; then
	for f in "$here"/perf-*.txt; do
		perl "$STACKCOLLAPSE" "$f" 2>/dev/null >"${f%.txt}.sc.folded"
	done
fi

# bpftrace: stack maps of counts on stdout, with -o, and as JSON, of
# spin running long enough (400 rounds) for its symbols to be resolved.
bt() {
	./spin 1500 & pid=$!
	sleep 1
	timeout -k 5 -s INT 4 bpftrace "$@" 2>/dev/null || :
	kill $pid
	wait $pid 2>/dev/null || :
}
bt -e 'profile:hz:499 /comm == "spin"/ { @[ustack] = count(); }' \
    >"$here/bpftrace-ustack.txt"
bt -e 'profile:hz:499 /comm == "spin"/ { @[comm, kstack, ustack(perf)] = count(); }' \
    >"$here/bpftrace-perf.txt"
bt -o "$here/bpftrace-o.txt" \
    -e 'profile:hz:499 /comm == "spin"/ { @[ustack(3)] = count(); }'
bt -f json -e 'profile:hz:499 /comm == "spin"/ { @[ustack] = count(); }' \
    >"$here/bpftrace.json"
if [ -n "${STACKCOLLAPSE_BPFTRACE:-}" ]; then
	for v in ustack o; do
		perl "$STACKCOLLAPSE_BPFTRACE" "$here/bpftrace-$v.txt" \
		    >"$here/bpftrace-$v.sc.folded"
	done
fi

# node --prof: the isolate log (its first 40 lines) and --prof-process.
printf 'function fib(n){return n<2?n:fib(n-1)+fib(n-2);}\nfib(27);\n' \
    >fib.js
rm -f isolate-*.log
node --prof fib.js
node --prof-process isolate-*.log >"$here/node-prof-process.txt" 2>/dev/null
head -n 40 isolate-*.log >"$here/node-prof.log"

# Java: a jstack dump, and the first 4 KB of a JFR recording.
cat >Spin.java <<'JAVA'
public class Spin {
	static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
	public static void main(String[] a) {
		long end = System.currentTimeMillis() + Long.parseLong(a[0]);
		long s = 0;
		while (System.currentTimeMillis() < end)
			s += fib(25);
		System.out.println(s);
	}
}
JAVA
javac Spin.java
java -cp . Spin 3000 >/dev/null & pid=$!
sleep 2
jstack $pid >"$here/jstack.txt"
wait $pid
java -XX:StartFlightRecording=filename=rec.jfr -cp . Spin 2000 >/dev/null 2>&1
head -c 4096 rec.jfr >"$here/head.jfr"

# eu-stack (elfutils) and DTrace do not run here: eu-stack.txt,
# dtrace.txt and dtrace-cxx.txt are written by hand from their documented
# output (eu-stack's "PID n - process", "TID n:", "#0  0xaddr function";
# DTrace's printa of @[ustack()] = count(): "module`function+0xoff"
# frames, then the count). dtrace*.sc.folded are FlameGraph's
# stackcollapse.pl run on them.

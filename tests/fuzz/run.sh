#!/bin/sh
# run.sh SECONDS HARNESS...: run each libFuzzer harness for SECONDS on a
# scratch copy of its seed corpus, and print its execs/s and total execs.
set -eu
secs=$1
shift
srcdir=$(cd "${0%/*}" && pwd)
for h in "$@"; do
	name=${h##*/fuzz-}
	work=$(mktemp -d)
	[ -d "$srcdir/corpus/$name" ] && cp -R "$srcdir/corpus/$name/." "$work/"
	"$h" -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=512 \
	    -timeout=10 -print_final_stats=1 "$work" 2>"$work.log" || {
		tail -40 "$work.log"; echo "fuzz-$name: FAILED"; exit 1; }
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work.log")
	echo "fuzz-$name: $execs execs in ${secs}s ($rate execs/s), no crash"
	rm -rf "$work" "$work.log"
done

#!/bin/sh
# Replays the fuzz regression corpus in make check: every harness
# (tests/fuzz/fuzz-*.c, built without libFuzzer as tests/fuzz/replay-NAME)
# over its own tests/fuzz/corpus/NAME (seeds, past crashers, truncations,
# boundary counts), under the build's sanitizers. A crash, an abort (a
# failed property) or a sanitizer report fails the test.
. "${top_srcdir:-$(cd "${0%/*}/../.." && pwd)}/tests/lib.sh"

names="any bpftrace decompress escape-html escape-json fastcgi folded ghc-json
    ghc-prof mercury pattern pgcl proto query trace transform v8 chrome gecko
    speedscope pprof callgrind gprof perf json-stream selector view"

for name in $names; do
	bin=$top_builddir/tests/fuzz/replay-$name
	dir=$top_srcdir/tests/fuzz/corpus/$name
	if [ ! -x "$bin" ] || [ ! -d "$dir" ]; then
		not_ok "replay-$name: no $bin or no $dir"
		continue
	fi
	n=$(ls "$dir" | wc -l)
	if "$bin" "$dir" >"$tmp/out" 2>"$tmp/err" &&
	    grep -q "^$n inputs replayed$" "$tmp/out"; then
		ok "replay-$name: $n inputs"
	else
		not_ok "replay-$name"
		tail -20 "$tmp/err" | sed 's/^/# /'
	fi
done
done_testing

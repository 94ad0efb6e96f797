#!/bin/sh
# Every reader on real files, truncated and bit-flipped (tests/unit/mutate.c).
# Readers add their corpus files to the list below.
. "${0%/*}/../lib.sh"
need_corpus

# Clean profiles from our encoder: there is no Clean compiler here.
for kind in normal deep modules leb128; do
	"$top_builddir/tests/unit/pgcl-gen" $kind 2000 >"$tmp/$kind.pgcl" \
	    2>/dev/null
done

set -- \
	"$top_srcdir/tests/data/tezos.trace" \
	"$corpus/collapsed/workload-fp.folded" \
	"$corpus/collapsed/node-recursive.all.folded" \
	"$mercury/Deep.data" \
	"$tmp/normal.pgcl" \
	"$tmp/deep.pgcl" \
	"$tmp/modules.pgcl" \
	"$tmp/leb128.pgcl" \
	"$corpus/ghc-prof/calltree-pj.prof" \
	"$corpus/ghc-prof/calltree.prof" \
	"$corpus/ghc-prof/expreval-P.prof" \
	"$corpus/ghc-prof/expreval-pj.prof" \
	"$corpus/ghc-prof/expreval.prof" \
	"$corpus/v8/many-functions-100us.cpuprofile" \
	"$corpus/v8/many-functions.cpuprofile" \
	"$corpus/v8/recursive.cpuprofile" \
	"$corpus/callgrind/callgrind.out.gzip" \
	"$corpus/callgrind/callgrind.out.workload" \
	"$corpus/perf/workload-dwarf.perf-script.txt" \
	"$corpus/flamegraph-tests/test/perf-java-stacks-01.txt"
# ghc-prof/expreval-calls.prof (6.7 MB) is not in the corpus we keep
# (tests/data/corpus.README): calltree.prof covers the same reader;
# so are perf/workload-fp (4.6 MB) and node-recursive (1.7 MB, 28 s under
# ASan): workload-dwarf and the Java vectors cover the perf reader.

"$top_builddir/tests/unit/mutate" "$@"

#!/bin/sh
# Every reader on real files, truncated and bit-flipped (tests/unit/mutate.c).
# Readers add their corpus files to the list below.
. "${0%/*}/../lib.sh"
need_corpus

set -- \
	"$top_srcdir/tests/data/tezos.trace" \
	"$corpus/collapsed/workload-fp.folded" \
	"$corpus/collapsed/node-recursive.all.folded"

exec "$top_builddir/tests/unit/mutate" "$@"

#!/bin/sh
# Every reader on real files, truncated and bit-flipped (tests/unit/mutate.c).
# Readers add their corpus files to the list below.
. "${0%/*}/../lib.sh"
need_corpus
[ -f "$mercury/Deep.data" ] || skip_all "no Mercury test data at $mercury"

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
	"$tmp/leb128.pgcl"

"$top_builddir/tests/unit/mutate" "$@"

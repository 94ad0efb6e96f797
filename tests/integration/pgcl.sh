#!/bin/sh
# Clean .pgcl profiles from our encoder (there is no Clean compiler here)
# through deepq: every total equals what pgcl-gen encoded.
. "${0%/*}/../lib.sh"
gen=$top_builddir/tests/unit/pgcl-gen

for kind in normal v1 deep modules leb128; do
	"$gen" $kind >"$tmp/$kind.pgcl" 2>"$tmp/$kind.want"
	if ! "$DEEPQ" query --local "$tmp/$kind.pgcl" format=json \
	    >"$tmp/$kind.json" 2>"$tmp/err"; then
		not_ok "$kind: does not load: $(cat "$tmp/err")"
		continue
	fi
	bad=
	for m in ticks words tail strict lazy curried; do
		want=$(sed -n "s/.*$m=\([0-9]*\).*/\1/p" "$tmp/$kind.want")
		grep -q "\"$m\":$want[,}]" "$tmp/$kind.json" || bad="$bad $m"
	done
	if [ -z "$bad" ]; then
		ok "$kind: totals equal the encoded ones"
	else
		not_ok "$kind: totals differ:$bad"
		sed 's/^/# /' "$tmp/$kind.want" "$tmp/$kind.json"
	fi
done
check "detected as pgcl" grep -q '"format":"pgcl"' "$tmp/normal.json"
done_testing

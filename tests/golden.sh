#!/bin/sh
# Golden outputs: each tests/golden/NAME.args holds a profile (relative to
# tests/data), a query and, on an optional third line, options of deepq
# query (--source pprof); the answer must equal NAME.out byte for byte.
# NAME.cli files hold a command line of the report words instead.
# `make regen-goldens' rewrites the .out files (REGEN=1).
. "${0%/*}/lib.sh"

for args in "$top_srcdir"/tests/golden/*.args; do
	name=${args##*/}
	name=${name%.args}
	profile=$(sed -n 1p "$args")
	query=$(sed -n 2p "$args")
	opts=$(sed -n 3p "$args")
	want=${args%.args}.out
	# shellcheck disable=SC2086 # options are words
	(cd "$top_srcdir/tests/data" && "$DEEPQ" query --local $opts \
	    "$profile" "$query") >"$tmp/out" 2>"$tmp/err" || :
	if [ "${REGEN:-}" = 1 ]; then
		cp "$tmp/out" "$want"
		ok "$name regenerated"
	elif cmp -s "$tmp/out" "$want"; then
		ok "$name"
	else
		not_ok "$name"
		diff -u "$want" "$tmp/out" | head -30 | sed 's/^/# /'
		sed 's/^/# stderr: /' "$tmp/err"
	fi
done

# The report words (deepq top, tree, func, diff): each NAME.cli holds the
# words after `deepq', run in tests/data; the output must equal NAME.out.
for cli in "$top_srcdir"/tests/golden/*.cli; do
	name=${cli##*/}
	name=${name%.cli}
	want=${cli%.cli}.out
	# shellcheck disable=SC2046
	(cd "$top_srcdir/tests/data" && "$DEEPQ" $(cat "$cli")) \
	    >"$tmp/out" 2>"$tmp/err" || :
	if [ "${REGEN:-}" = 1 ]; then
		cp "$tmp/out" "$want"
		ok "$name regenerated"
	elif cmp -s "$tmp/out" "$want"; then
		ok "$name"
	else
		not_ok "$name"
		diff -u "$want" "$tmp/out" | head -30 | sed 's/^/# /'
		sed 's/^/# stderr: /' "$tmp/err"
	fi
done
done_testing

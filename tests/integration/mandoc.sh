#!/bin/sh
# The man pages: mandoc -Tlint clean (warnings and worse), and every query
# key of common/query.c's table documented in deepq-query(7).
. "${0%/*}/../lib.sh"

if [ -z "${MANDOC:-}" ] || [ ! -x "$MANDOC" ]; then
	MANDOC=$(command -v mandoc || :)
fi
[ -n "$MANDOC" ] || skip_all "mandoc is not installed"

for page in "$top_srcdir"/man/*.[1-9]; do
	if "$MANDOC" -Tlint -Wwarning "$page" >"$tmp/lint" 2>&1; then
		ok "${page##*/}: mandoc -Tlint clean"
	else
		not_ok "${page##*/}: mandoc -Tlint"
		sed 's/^/# /' "$tmp/lint"
	fi
done

sed -n 's/^	\[QUERY_[A-Z_]*\] = { "\([a-z_]*\)".*/\1/p' \
    "$top_srcdir/common/query.c" >"$tmp/keys"
missing=
for k in $(cat "$tmp/keys"); do
	grep -q "^\.It Cm $k\( \|$\)\|Cm $k ,\|, Cm $k\( \|$\)" \
	    "$top_srcdir/man/deepq-query.7" || missing="$missing $k"
done
if [ -z "$missing" ] && [ -s "$tmp/keys" ]; then
	ok "all $(wc -l <"$tmp/keys") query keys are in deepq-query(7)"
else
	not_ok "query keys missing from deepq-query(7):$missing"
fi
done_testing

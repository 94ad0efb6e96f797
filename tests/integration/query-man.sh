#!/bin/sh
# deepq-query(7) lists exactly the keys of common/query.c's table (the
# block between its KEYS markers is man/mkkeys's output; make regen-man
# rewrites it), and the page is clean for mandoc -Tlint.
. "${0%/*}/../lib.sh"

: "${MKKEYS:=$top_builddir/man/mkkeys}"
page=$top_srcdir/man/deepq-query.7
"$MKKEYS" >"$tmp/keys"
awk -v keys="$tmp/keys" '
	/^\.\\" BEGIN KEYS/ { print; while ((getline l < keys) > 0) print l;
	    skip = 1; next }
	/^\.\\" END KEYS/ { skip = 0 }
	!skip { print }
' "$page" >"$tmp/page"
if [ "${REGEN:-}" = 1 ]; then
	cp "$tmp/page" "$page"
	ok "deepq-query.7 keys regenerated"
elif cmp -s "$tmp/page" "$page"; then
	ok "deepq-query.7 lists the keys of common/query.c"
else
	not_ok "deepq-query.7 keys differ from common/query.c (make regen-man)"
	diff -u "$page" "$tmp/page" | head -20 | sed 's/^/# /'
fi
if [ -n "${MANDOC:-}" ] || command -v mandoc >/dev/null 2>&1; then
	if "${MANDOC:-mandoc}" -Tlint -Wwarning "$page" >"$tmp/lint" 2>&1; then
		ok "deepq-query.7 is clean for mandoc -Tlint"
	else
		not_ok "mandoc -Tlint deepq-query.7"
		sed 's/^/# /' "$tmp/lint"
	fi
fi
done_testing

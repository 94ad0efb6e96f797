#!/bin/sh
# The test hooks (common/testhook.h) exist only in a build configured with
# --enable-test-hooks. This compiles the files that have pause points or
# pass DEEPQ_TEST_HOOKS on to a server the way a release build does and
# checks that no hook, and no trace of the variable, is left in them; in
# a release build it checks the programs themselves, in a test build
# that the hooks are there.
. "${0%/*}/../lib.sh"

command -v nm >/dev/null 2>&1 || skip_all "nm is not installed"
[ -n "${RELEASE_CC:-}" ] || skip_all "RELEASE_CC is not set (run by make check)"
defs="-DDEEPQ_SYSCONFDIR=\"/etc\" -DDEEPQ_WWWDIR=\"/www\"
    -DDEEPQ_LIBEXECDIR=\"/libexec\" -DDEEPQ_BINDIR=\"/bin\"
    -DDEEPQ_SBINDIR=\"/sbin\" -DDEEPQ_PKGLIBEXECDIR=\"/libexec/deepq\""
for f in common/client.c common/client-spawn.c server/server.c \
    server/server-client.c server/server-worker.c \
    server/deepq-server.c engine/srcfile.c; do
	o=$tmp/${f##*/}.o
	# shellcheck disable=SC2086
	if ! $RELEASE_CC -std=gnu99 $defs -I"$top_builddir" \
	    -I"$top_srcdir/common" -I"$top_srcdir/engine" \
	    -I"$top_srcdir/server" -c "$top_srcdir/$f" -o "$o" \
	    >"$tmp/cc.out" 2>&1; then
		not_ok "$f compiles without the test hooks"
		sed 's/^/# /' "$tmp/cc.out" | head -20
		continue
	fi
	check "$f without hooks calls no testhook_" \
	    sh -c "! nm '$o' | grep testhook_"
	check "$f without hooks passes no DEEPQ_TEST_HOOKS on" \
	    sh -c "! grep -a DEEPQ_TEST_HOOKS '$o'"
done
: "${SERVER:=$top_builddir/server/deepq-server}"
: "${CGI:=$top_builddir/cgi/deepq.cgi}"
: "${DEEPQ:=$top_builddir/cli/deepq}"
if [ "${TEST_HOOKS:-}" = yes ]; then
	check "this test build has the hooks" \
	    sh -c "nm '$SERVER' | grep -q ' testhook_pause\$'"
else
	for p in "$SERVER" "$CGI" "$DEEPQ"; do
		check "${p##*/} has no test hooks" \
		    sh -c "! nm '$p' | grep testhook_ && ! grep -a DEEPQ_TEST_HOOKS '$p'"
	done
fi
done_testing

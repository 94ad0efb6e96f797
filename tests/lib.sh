# Sourced by every shell test (jq's tests/setup pattern): strict mode, a
# private temporary directory, TAP helpers, and a trap that kills only
# the processes the test started (from pid files, never pkill).

set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${DEEPQ:=$top_builddir/cli/deepq}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-test.XXXXXX")
tap_n=0
tap_failed=0

# Real profiles made by the real tools: tests/data/corpus.tar.xz (its
# README says where each came from), unpacked here by need_corpus; the
# Mercury deep profiler's test profile is among the samples.
corpus=$tmp/corpus
mercury=$top_srcdir/tests/data/samples

cleanup() {
	for f in "$tmp"/*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || :
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 99' HUP INT TERM

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# check DESCRIPTION COMMAND...: ok if the command succeeds.
check() {
	desc=$1
	shift
	if "$@" >"$tmp/check.out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		sed 's/^/# /' "$tmp/check.out" | head -20
	fi
}

# need_test_hooks: bail out unless the programs have the test hooks
# (./configure --enable-test-hooks): the test stops processes at them.
need_test_hooks() {
	if [ "${TEST_HOOKS:-yes}" != yes ]; then
		echo "Bail out! built without the test hooks: ./configure --enable-test-hooks"
		exit 1
	fi
}

# skip_all REASON: a whole test skipped, allowed only outside CI.
skip_all() {
	if [ "${CI:-}" = true ]; then
		echo "Bail out! $* (required in CI)"
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

need_corpus() {
	[ -d "$corpus" ] && return 0
	if ! xz -dc "$top_srcdir/tests/data/corpus.tar.xz" |
	    tar -xf - -C "$tmp"; then
		echo "Bail out! cannot unpack tests/data/corpus.tar.xz (xz-utils)"
		exit 1
	fi
}

# http_get URL QUERY NAME [CURL-ARGS]: GET URL?QUERY with curl; the
# status in $tmp/NAME.code (000 if curl failed), the headers without
# Date (CR removed) in $tmp/NAME.h, the body in $tmp/NAME.body.
http_get() {
	_u=$1 _q=$2 _n=$3
	shift 3
	curl -sS --max-time 20 -D "$tmp/$_n.head" -o "$tmp/$_n.body" \
	    -w '%{http_code}' "$@" "$_u?$_q" >"$tmp/$_n.code" 2>/dev/null ||
	    echo 000 >"$tmp/$_n.code"
	tr -d '\r' <"$tmp/$_n.head" | grep -vi '^date:' >"$tmp/$_n.h" || :
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

#!/bin/sh
# tests-ab.sh BUILD TEST...: this tree's integration tests run against
# the programs of another build (deepq, deepq-server, deepq.cgi of
# BUILD, e.g. a configured clone of an older commit), with this tree's
# test data, pages and helpers: what doc/reliability.md's table of "fails
# on the old code, passes on the new" is made with. A TEST is a name
# under tests/integration (disclose) or a script's path without .sh
# (an adapted copy beside a tests/lib.sh). Each test's TAP goes to
# OUT (default tests-ab.out), and a line says its passes and failures;
# the processes a test left behind (their command line names its
# temporary directory: servers, orphaned decoders) are listed, then
# killed by their pid, since old code may leave one reading forever.
#
#	sh bench/tests-ab.sh /tmp/old disclose helpers cost-deep
#
# BUILD should be configured --enable-test-hooks (the tests stop its
# processes at the hooks it has; a hook that came later is never
# reached there, which the test reports as a failure of its own). Every
# process runs under ulimit -v $VMEM_KB (default 6 GB: old code may grow
# without bound), except with a sanitizer build (BUILD's or this tree's
# helpers), whose shadow memory no such limit allows.
set -u
[ $# -ge 2 ] || { echo "usage: tests-ab.sh BUILD TEST..." >&2; exit 1; }
build=$(cd "$1" && pwd)
shift
new=$(cd "${0%/*}/.." && pwd)
out=${OUT:-tests-ab.out}
mkdir -p "$out"
vmem=${VMEM_KB:-6000000}
for b in "$build/server/deepq-server" \
    "${STREAM_SERVER:-$new/tests/unit/stream-server}"; do
	grep -qa __asan_init "$b" 2>/dev/null && vmem=unlimited
done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tests-ab.XXXXXX")
chmod 711 "$scratch"	# the tests that run a program as nobody
trap 'rm -rf "$scratch"' EXIT
for t; do
	case $t in
	*/*) script=$t.sh ;;
	*) script=$new/tests/integration/$t.sh ;;
	esac
	name=${t##*/}
	(
		ulimit -v "$vmem"
		cd "$build" && exec env top_srcdir="$new" top_builddir="$build" \
		    DEEPQ="$build/cli/deepq" \
		    SERVER="$build/server/deepq-server" \
		    CGI="$build/cgi/deepq.cgi" TEST_HOOKS=yes \
		    STREAM_SERVER="${STREAM_SERVER:-$new/tests/unit/stream-server}" \
		    GENPROF="${GENPROF:-$new/bench/genprof}" TMPDIR="$scratch" \
		    sh "$script"
	) >"$out/$name.tap" 2>"$out/$name.err"
	rc=$?
	echo "$name: exit $rc, $(grep -c '^ok' "$out/$name.tap") ok," \
	    "$(grep -c '^not ok' "$out/$name.tap") not ok"
	left=
	for c in /proc/[0-9]*/cmdline; do
		p=${c#/proc/}
		p=${p%/cmdline}
		grep -qaF "$scratch" "$c" 2>/dev/null && left="$left $p"
	done
	if [ -n "$left" ]; then
		echo "  left behind:$left"
		for p in $left; do
			echo "    $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null |
			    cut -c1-100)"
		done
		kill -9 $left 2>/dev/null
	fi
done

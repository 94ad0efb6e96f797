#!/bin/sh
# Fault injection through tests/faults/faultshim.so (LD_PRELOAD):
# T39: the Nth malloc/calloc/realloc fails, for every N of a whole
# `deepq query --local' run on a small profile: each run ends with the
# right answer or a clean error message, never a signal or a sanitizer
# report. T40: EINTR storms and one-byte reads on the profile and on the
# reply FIFO give the very same answer; EIO gives a clean error.
# Under ASan a run costs ten times more: there each sweep fails every
# second allocation, odd ones in one sweep and even ones in the next (the
# load's allocations, common to all the queries, are covered both ways);
# the plain build (distcheck's) fails every one.
. "${top_srcdir:-$(cd "${0%/*}/../.." && pwd)}/tests/lib.sh"

SHIM=$top_builddir/tests/faults/faultshim.so
[ -f "$SHIM" ] || { not_ok "no $SHIM"; done_testing; exit 1; }
# deepq itself may be static, where LD_PRELOAD does nothing.
DEEPQ=$top_builddir/tests/faults/deepq-shared
[ -x "$DEEPQ" ] || { not_ok "no $DEEPQ"; done_testing; exit 1; }
# Under ASan the shim comes before the runtime: allowed, it forwards.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

printf 'main;parse;lex 30\nmain;parse 10\nmain;eval;<b>&x 25\nmain 5\n' \
    >"$tmp/small.folded"
q='cmd=top&format=json'
"$DEEPQ" query --local "$tmp/small.folded" "$q" >"$tmp/want.json"

# run OUT ERR ENV...: deepq query --local under the shim.
run() {
	out=$1 err=$2
	shift 2
	env "$@" LD_PRELOAD="$SHIM" "$DEEPQ" query --local \
	    "$tmp/small.folded" "$q" >"$out" 2>"$err"
}

# clean RC ERR: a normal exit (0 or 1), no sanitizer report, and a
# failure says why.
clean() {
	[ "$1" -le 1 ] || return 1
	! grep -q 'Sanitizer\|runtime error' "$2" || return 1
	[ "$1" -eq 0 ] || [ -s "$2" ]
}

stride=1 first=1
if grep -q '^SAN_LDFLAGS = .*address' "$top_builddir/Makefile" 2>/dev/null; then
	stride=2
fi

# sweep LABEL: allocation 1..k+2 failing in turn (every stride-th from
# first, which alternates between sweeps) for the query $q, whose
# answer is $tmp/want.
sweep() {
	run "$tmp/o" "$tmp/e" FAULT_ALLOC=0 FAULT_REPORT="$tmp/count"
	k=$(cat "$tmp/count")
	check "$1: the shim counts the allocations of a run ($k)" \
	    test "$k" -gt 50
	check "$1: ...and changes nothing when it injects nothing" \
	    cmp "$tmp/want" "$tmp/o"
	bad=0 failed=0 silent= n=$first runs=0
	while [ "$n" -le $((k + 2)) ]; do
		rc=0
		run "$tmp/o" "$tmp/e" FAULT_ALLOC=$n || rc=$?
		if [ "$rc" -eq 0 ] && ! cmp -s "$tmp/want" "$tmp/o"; then
			silent="$silent $n"
		elif ! clean "$rc" "$tmp/e"; then
			bad=$((bad + 1))
			echo "# allocation $n failed: exit $rc"
			grep -m3 'ERROR\|runtime error\|#[0-3] ' "$tmp/e" |
			    sed 's/^/#   /'
		fi
		[ "$rc" -ne 0 ] && failed=$((failed + 1))
		runs=$((runs + 1))
		n=$((n + stride))
	done
	[ "$stride" -gt 1 ] && first=$((first % stride + 1))
	check "T39: $1: allocation 1..$((k + 2)) failing ($runs runs, every ${stride}): each run clean ($failed errors, $bad bad)" \
	    test "$bad" -eq 0
	check "T39: $1: the failures were seen (out of memory said)" \
	    test "$failed" -gt 0
	# Once allocation 217 (fclose of the answer's memory stream, whose
	# final realloc fails with fclose still returning 0) gave an empty
	# answer with exit 0; answer.c now checks the body. FAULT_BACKTRACE=1
	# makes the shim print where the first failing allocation was asked.
	check "T39: $1: no failed allocation gives a wrong answer with exit 0 (${silent:-none})" \
	    test -z "$silent"
}
cp "$tmp/want.json" "$tmp/want"
sweep "$q"
# The tree's pages, made from the profile without JSON (report-tree.c),
# and its JSON: "more" rows, toggles, links, percentages. A function's
# page: its butterfly over the set's span (aggregate.c).
for q in 'cmd=tree&budget=3&pct=1' 'cmd=tree&budget=3&avg=1&format=text' \
    'cmd=tree&path=1&budget=3' 'cmd=tree&open=1,2&close=1,3&format=html' \
    'cmd=tree&path=1&open=1,2&format=html' 'cmd=tree&budget=4&format=json' \
    'cmd=func&func=parse&format=json'; do
	"$DEEPQ" query --local "$tmp/small.folded" "$q" >"$tmp/want"
	sweep "$q"
done
q='cmd=top&format=json'

for mode in eintr short; do
	rc=0
	run "$tmp/o" "$tmp/e" FAULT_READ=$mode FAULT_PATH=small.folded || rc=$?
	check "T40: $mode reads of the profile: the same answer" \
	    sh -c "[ $rc -eq 0 ] && cmp '$tmp/want.json' '$tmp/o'"
done
rc=0
run "$tmp/o" "$tmp/e" FAULT_READ=eio FAULT_PATH=small.folded || rc=$?
check "T40: EIO reading the profile: a clean error ($rc)" \
    sh -c "[ $rc -eq 1 ] && grep -q 'Input/output error' '$tmp/e' &&
    ! grep -q 'Sanitizer\|runtime error' '$tmp/e'"

# The reply FIFO, through a server (deepq query without --local).
rd=$tmp/run
mkdir -m 700 "$rd"
printf 'profile_root = %s\nruntime_dir = %s\nserver_path = %s\nidle_timeout = 30\n' \
    "$tmp" "$rd" "$SERVER" >"$tmp/deepq.conf"
DEEPQ_CONFIG=$tmp/deepq.conf
export DEEPQ_CONFIG
for mode in eintr short; do
	rc=0
	env FAULT_READ=$mode FAULT_PATH=.reply. LD_PRELOAD="$SHIM" \
	    "$DEEPQ" query "$tmp/small.folded" "$q" >"$tmp/o" 2>"$tmp/e" ||
	    rc=$?
	check "T40: $mode reads of the reply FIFO: the same answer" \
	    sh -c "[ $rc -eq 0 ] && cmp '$tmp/want.json' '$tmp/o'"
done
rc=0
env FAULT_READ=eio FAULT_PATH=.reply. LD_PRELOAD="$SHIM" \
    "$DEEPQ" query "$tmp/small.folded" "$q" >"$tmp/o" 2>"$tmp/e" || rc=$?
check "T40: EIO on the reply FIFO: a clean error ($rc)" \
    sh -c "[ $rc -eq 1 ] && [ -s '$tmp/e' ] &&
    ! grep -q 'Sanitizer\|runtime error' '$tmp/e'"
"$DEEPQ" stop --all >/dev/null 2>&1 || :
done_testing

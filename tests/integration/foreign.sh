#!/bin/sh
# Other tools' output is never misread: each file of tests/data/foreign
# (made by make.sh there) that is not a profile deepq reads is refused
# with a message naming what it is and the converter; an unknown file
# says what it looks like. bpftrace's stack maps and DTrace's stacks are
# read, equal to stackcollapse-bpftrace.pl's and stackcollapse.pl's. perf script's variants (side-band records,
# -F without the time or the event) keep the period: their figures
# equal stackcollapse-perf.pl's (*.sc.folded); a perf file cut inside a
# sample is an error.
. "${0%/*}/../lib.sh"

d=$top_srcdir/tests/data/foreign
dump=$top_builddir/tests/unit/folded-dump

# refused FILE PATTERN: the load fails, its message matches PATTERN.
refused() {
	if "$DEEPQ" query --local "$d/$1" cmd=menu >/dev/null 2>"$tmp/err"
	then
		not_ok "$1: loads"
	elif grep -q "$2" "$tmp/err"; then
		ok "$1 refused: $(sed 's/.*: not a profile deepq reads: //' "$tmp/err")"
	else
		not_ok "$1: refused without the hint"
		sed 's/^/# /' "$tmp/err"
	fi
}
refused perf.data "perf script -i FILE"
refused head.jfr "Java Flight Recorder.*jfrconv"
refused node-prof.log "node --prof.*node --cpu-prof"
refused node-prof-process.txt "prof-process.*node --cpu-prof"
refused bpftrace.json "bpftrace's JSON"
refused eu-stack.txt "eu-stack.*stackcollapse-elfutils.pl"
refused jstack.txt "jstack.*stackcollapse-jstack.pl"

# Unknown files say what kind of data they hold, never a byte of it
# (issue 30: a secret's first line was quoted to any web client).
printf 'hello world\nnot a profile\n' >"$tmp/hello.txt"
"$DEEPQ" query --local "$tmp/hello.txt" cmd=menu >/dev/null 2>"$tmp/err" || :
check "unknown text: said so, its first line not quoted" sh -c \
    "grep -q 'not a profile deepq reads: text' '$tmp/err' &&
    ! grep -q 'hello world' '$tmp/err'"
printf '{"nodes": []}\n' >"$tmp/x.json"
"$DEEPQ" query --local "$tmp/x.json" cmd=menu >/dev/null 2>"$tmp/err" || :
check "unknown JSON: said so" grep -q "JSON of a kind no reader knows" \
    "$tmp/err"
"$DEEPQ" query --local "$top_builddir/tests/unit/folded-dump" cmd=menu \
    >/dev/null 2>"$tmp/err" || :
check "an executable: said so" grep -q "an ELF executable" "$tmp/err"
printf 'hello world\n' | gzip -c >"$tmp/hello.gz"
"$DEEPQ" query --local "$tmp/hello.gz" cmd=menu >/dev/null 2>"$tmp/err" || :
check "unknown once decompressed: said so" sh -c \
    "grep -q 'text of no format it knows, once decompressed from gzip' \
    '$tmp/err' && ! grep -q 'hello world' '$tmp/err'"

# perf script variants against stackcollapse-perf.pl. Where the script
# reads the period (side-band records too), the stacks and their sums
# equal it; where it misses the period (-F without the time), the
# samples metric equals its counts and the period is still read.
for v in plain mmap task side F-noevent F-notime F-pidtid; do
	f=$d/perf-$v.txt
	want=$d/perf-$v.sc.folded
	case $v in
	F-*)	metric=samples ;;
	*)	metric=period ;;
	esac
	if ! "$dump" -m $metric "$f" >"$tmp/got" 2>"$tmp/err"; then
		not_ok "perf-$v: does not load: $(cat "$tmp/err")"
	elif cmp -s "$tmp/got" "$want"; then
		ok "perf-$v: $metric per stack equals stackcollapse-perf's"
	else
		not_ok "perf-$v: $metric differs from stackcollapse-perf's"
		diff "$want" "$tmp/got" | sed 's/^/# /' | head -10
	fi
	"$DEEPQ" query --local "$f" 'cmd=menu&format=json' >"$tmp/menu" \
	    2>&1 || :
	check "perf-$v: detected as perf, the period kept" grep -q \
	    '"format":"perf".*' "$tmp/menu"
	check "perf-$v: the period total is 1001001 a sample" sh -c \
	    "grep -Eq '\"totals\":\\{\"period\":45045045,\"samples\":45\\}' \
	    '$tmp/menu'"
done

# bpftrace's stack maps are read: each entry's count under its stack,
# equal to stackcollapse-bpftrace.pl's output (*.sc.folded) once its
# frame offsets (+39) are dropped and equal stacks summed; the totals
# are the sums of the values in the file.
for v in ustack o; do
	f=$d/bpftrace-$v.txt
	sed -E 's/\+[0-9]+(;| )/\1/g' "$d/bpftrace-$v.sc.folded" |
	    awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n }
	    END { for (k in s) printf "%s %d\n", k, s[k] }' | sort >"$tmp/want"
	if ! "$dump" "$f" >"$tmp/got" 2>"$tmp/err"; then
		not_ok "bpftrace-$v: does not load: $(cat "$tmp/err")"
	elif cmp -s "$tmp/got" "$tmp/want"; then
		ok "bpftrace-$v: $(wc -l <"$tmp/want") stacks equal stackcollapse-bpftrace's"
	else
		not_ok "bpftrace-$v differs from stackcollapse-bpftrace"
		diff "$tmp/want" "$tmp/got" | sed 's/^/# /' | head -10
	fi
done
for v in ustack o perf; do
	f=$d/bpftrace-$v.txt
	sum=$(sed -n 's/^\]: \([0-9]*\)$/\1/p' "$f" | awk '{ s += $1 } END { print s }')
	"$DEEPQ" query --local "$f" 'cmd=menu&format=json' >"$tmp/menu" 2>&1 || :
	check "bpftrace-$v: the total is the sum of the map ($sum)" grep -q \
	    "\"total\":$sum,.*\"format\":\"bpftrace\"" "$tmp/menu"
done
"$dump" "$d/bpftrace-perf.txt" >"$tmp/got" 2>&1 || :
check "bpftrace @[comm, kstack, ustack(perf)]: comm, user stack, then kernel" \
    grep -q '^spin;__libc_start_call_main;main;hot;leaf;asm_sysvec_apic_timer_interrupt;' \
    "$tmp/got"
check "bpftrace ustack(perf): the module kept" sh -c \
    "'$DEEPQ' query --local '$d/bpftrace-perf.txt' 'cmd=modules&format=json' |
    grep -q '/tmp/mk/spin'"
head -n 5 "$d/bpftrace-ustack.txt" >"$tmp/cut.txt"
"$DEEPQ" query --local "$tmp/cut.txt" cmd=menu >/dev/null 2>"$tmp/err" || :
check "bpftrace cut inside an entry: $(cat "$tmp/err")" grep -q \
    "ends inside the entry of line 4 (truncated)" "$tmp/err"
printf 'Attaching 1 probe...\nhello from printf\n' >"$tmp/bt.txt"
"$DEEPQ" query --local "$tmp/bt.txt" cmd=menu >/dev/null 2>"$tmp/err" || :
check "bpftrace without a stack map: refused with the hint" grep -q \
    "bpftrace output without a stack map.*stackcollapse-bpftrace.pl" \
    "$tmp/err"

# DTrace's aggregated stacks are read: deepq convert gives exactly
# stackcollapse.pl's output (module`function frames, offsets and C++
# arguments dropped, inlined a->b split).
for v in dtrace dtrace-cxx; do
	"$DEEPQ" convert "$d/$v.txt" "$tmp/got" 2>"$tmp/err" || :
	check "$v: deepq convert equals stackcollapse.pl" \
	    cmp "$d/$v.sc.folded" "$tmp/got"
done
head -n 6 "$d/dtrace.txt" >"$tmp/cut.txt"
"$DEEPQ" query --local "$tmp/cut.txt" cmd=menu >/dev/null 2>"$tmp/err" || :
check "dtrace cut before a count: $(cat "$tmp/err")" grep -q \
    "before its count (truncated)" "$tmp/err"

# A perf file cut in the middle of a frame line.
head -c 5000 "$d/perf-plain.txt" >"$tmp/cut.txt"
"$DEEPQ" query --local "$tmp/cut.txt" cmd=menu >/dev/null 2>"$tmp/err" || :
check "perf cut mid-line: $(cat "$tmp/err")" grep -q \
    "ends in the middle of a sample (truncated)" "$tmp/err"

done_testing

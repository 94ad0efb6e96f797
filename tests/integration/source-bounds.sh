#!/bin/sh
# cmd=source reads bounded amounts of what a source root holds, and any
# file there gets a clean answer in bounded time and size: a file larger
# than 4 MB, one of megabyte-long lines (cut at 400 code points), one
# with NUL bytes (not text), a FIFO no one writes to (not waited for),
# devices (a root of /dev: /dev/zero, /dev/tty), a file of millions of
# newlines with a cost at its end, a function whose lines span more
# files than a page reads and more bytes than it reads, one with more
# lines than a page shows. A file swapped for a link at the moment of
# the open is source-confine.sh's.
. "${0%/*}/../lib.sh"

src=$tmp/src
root=$tmp/root
mkdir -p "$src" "$root"
# 5 MB, all but the first line a hole: refused by its size alone.
printf 'int huge;\n' >"$src/huge.c"
truncate -s 5M "$src/huge.c"
# Line 2 is 3 MB long, line 3 a short one after it.
{
	printf 'int long_first;\n'
	head -c 3000000 /dev/zero | tr '\0' 'x'
	printf '\nint long_after;\n'
} >"$src/long.c"
printf 'int bin;\n\0\0\0ELF\n' >"$src/bin.c"
mkfifo "$src/fifo.c"
# 4,000,000 newlines, a cost at the last.
head -c 3999999 /dev/zero | tr '\0' '\n' >"$src/nl.c"
printf 'int nl_last;\n' >>"$src/nl.c"
# Six files of 3.9 MB: a page reads 16 MB, so the sixth is not read.
i=1
while [ "$i" -le 6 ]; do
	{
		printf 'int big%d_first;\n' "$i"
		head -c 3900000 /dev/zero | tr '\0' '\n'
	} >"$src/big$i.c"
	i=$((i + 1))
done
# 60,000 lines, a cost at every third: more than a page shows.
awk 'BEGIN { for (i = 1; i <= 60000; i++) print "int many_" i ";" }' \
    >"$src/many.c"

{
	printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir\n'
	for f in huge long bin fifo; do
		printf 'fl=/build/%s.c\nfn=%s\n1 5\n2 3\n' "$f" "$f"
	done
	printf 'fl=/build/nl.c\nfn=nl\n4000000 7\n'
	printf 'fl=/build/big1.c\nfn=big\n'
	i=1
	while [ "$i" -le 6 ]; do
		printf 'fi=/build/big%d.c\n1 %d\n' "$i" "$i"
		i=$((i + 1))
	done
	# Seventy files of one function: a page reads 64.
	printf 'fl=/build/f0.c\nfn=spread\n'
	i=0
	while [ "$i" -lt 70 ]; do
		printf 'fi=/build/f%d.c\n1 1\n' "$i"
		i=$((i + 1))
	done
	printf 'fl=/build/many.c\nfn=many\n'
	awk 'BEGIN { for (i = 1; i <= 60000; i += 3) print i, 1 }'
	printf 'fl=/build/zero\nfn=zero\n1 1\nfl=/build/tty\nfn=tty\n1 1\n'
} >"$root/p.callgrind"
i=0
while [ "$i" -lt 70 ]; do
	printf 'int spread_%d;\n' "$i" >"$src/f$i.c"
	i=$((i + 1))
done

# ask FUNC [ROOT]: the text page of FUNC into $tmp/body, in 20 s at most.
ask() {
	(cd "$root" && timeout 20 "$DEEPQ" query --local --source \
	    "${2:-$src}" p.callgrind "cmd=source&func=$1&format=text") \
	    >"$tmp/body" 2>"$tmp/err"
}
# size: the body's bytes.
size() {
	wc -c <"$tmp/body" | tr -d ' '
}

ask huge
check "over 4 MB: refused by its size, its lines as a table" \
    sh -c "grep -q 'Source not shown: larger than the 4 MB' '$tmp/body' &&
    ! grep -q 'int huge' '$tmp/body' && grep -q '^ *2 ' '$tmp/body'"

ask long
n=$(size)
check "a 3 MB line: cut, with an ellipsis, the answer $n bytes" \
    sh -c "[ $n -lt 20000 ] && grep -q 'int long_after' '$tmp/body' &&
    grep -q 'x…\$' '$tmp/body'"
w=$(awk '/xxxx/ { print length($0) }' "$tmp/body")
check "the long line shows 400 code points ($w columns with the costs)" \
    sh -c "[ '$w' -gt 400 ] && [ '$w' -lt 460 ]"

ask bin
check "NUL bytes: not text, not shown" \
    sh -c "grep -q 'Source not shown: not text' '$tmp/body' &&
    ! grep -q 'ELF' '$tmp/body'"

rc=0
ask fifo || rc=$?
check "a FIFO no one writes: answered at once, not a regular file ($rc)" \
    sh -c "[ $rc = 0 ] && grep -q 'Source not shown: not a regular file' '$tmp/body'"

ask zero /dev
check "/dev/zero under a root of /dev: not a regular file, not read" \
    sh -c "grep -q 'Source not shown: not a regular file' '$tmp/body'"
rc=0
ask tty /dev </dev/null || rc=$?
check "/dev/tty: not a regular file ($rc)" \
    sh -c "[ $rc = 0 ] && grep -q 'Source not shown: not a regular file' '$tmp/body'"

ask nl
check "a cost at line 4,000,000 of a file of newlines: shown there" \
    sh -c "grep -q '^4000000 .*int nl_last;' '$tmp/body'"

ask big
n=$(grep -c 'Source not shown' "$tmp/body")
check "six files of 3.9 MB: five read, the sixth not ($n)" \
    sh -c "[ $n = 1 ] && grep -q 'int big5_first' '$tmp/body' &&
    grep -q 'Source not shown: the page.s other files take' '$tmp/body'"

ask spread
n=$(grep -c 'int spread_' "$tmp/body")
check "seventy files: 64 shown, six as tables ($n)" \
    sh -c "[ $n = 64 ] && [ \$(grep -c 'more files than a page reads' '$tmp/body') = 6 ]"

ask many
n=$(grep -c 'int many_' "$tmp/body")
check "60,000 lines: the page shows 20,000 and says so ($n)" \
    sh -c "[ $n = 20000 ] && grep -q 'at most 20000 lines of code' '$tmp/body'"

# JSON reads no file: every row whatever the files are.
(cd "$root" && "$DEEPQ" query --local --source "$src" p.callgrind \
    'cmd=source&func=fifo&format=json') >"$tmp/body"
check "JSON: the rows, no file opened" grep -q '"line": *2' "$tmp/body"
done_testing

#!/bin/sh
# mkcorpus-decompress.sh: (re)write the seeds of the decompress and
# bpftrace harnesses in tests/fuzz/corpus (files named gen-*): small
# profiles compressed with gzip, zlib, zstd and xz, concatenated parts,
# truncations, trailing bytes, a small bomb over the harness's 8 MiB
# limit, and bpftrace stack maps. Run by hand (needs gzip, zstd, xz and
# perl's Compress::Zlib); make check replays what it wrote.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
d=$here/corpus/decompress
b=$here/corpus/bpftrace
mkdir -p "$d" "$b"
rm -f "$d"/gen-* "$b"/gen-*
zlib() { perl -MCompress::Zlib -e 'undef $/; print compress(<STDIN>)'; }
for f in recursion.folded small.perf example.callgrind v8-small.cpuprofile \
    foreign/bpftrace-o.txt; do
	n=${f##*/}
	gzip -c "$data/$f" >"$d/gen-$n.gz"
	zlib <"$data/$f" >"$d/gen-$n.zz"
	zstd -q -c "$data/$f" >"$d/gen-$n.zst"
	xz -c "$data/$f" >"$d/gen-$n.xz"
	for k in gz zz zst xz; do
		s=$(wc -c <"$d/gen-$n.$k")
		head -c $((s / 2)) "$d/gen-$n.$k" >"$d/gen-$n.half.$k"
		head -c $((s - 1)) "$d/gen-$n.$k" >"$d/gen-$n.less1.$k"
	done
done
f=$data/recursion.folded
{ gzip -c "$f"; gzip -c "$f"; } >"$d/gen-two-members.gz"
{ gzip -c "$f"; printf 'garbage'; } >"$d/gen-trailing.gz"
{ gzip -c "$f"; head -c 64 /dev/zero; } >"$d/gen-padding.gz"
{ zstd -q -c "$f"; zstd -q -c "$f"; } >"$d/gen-two-frames.zst"
{ xz -c "$f"; xz -c "$f"; } >"$d/gen-two-streams.xz"
printf 'x^ not zlib 1\n' >"$d/gen-x-caret.txt"
# The red team's (issue 30): a member then zeros that decode to nothing
# (a terabyte of them, sparse, in helpers.sh), a JSON bomb of blanks,
# and a chain 100,000 calls deep.
{ gzip -c "$f"; head -c 131072 /dev/zero; } >"$d/gen-padded.gz"
{ xz -c "$f"; head -c 131072 /dev/zero; } >"$d/gen-padded.xz"
{ zstd -q -c "$f"; head -c 131072 /dev/zero; } >"$d/gen-padded.zst"
{ printf '{"traceEvents":['; head -c 12000000 /dev/zero | tr '\0' ' ';
    printf ']}'; } | zstd -q -c >"$d/gen-json-bomb.zst"
awk 'BEGIN { n = 100000; print "# deepq-trace 1"; print "metric ticks count"
    for (i = 0; i < n; i++) print "call " i " f" i
    for (i = 0; i < n; i++) print "return " (n + i + 1) " f" (n - 1 - i) }' |
    xz -c >"$d/gen-chain.trace.xz"
yes 'main;a;b 1' | head -n 900000 | zstd -q -c >"$d/gen-bomb.zst"
yes 'main;a;b 1' | head -n 900000 | gzip -c >"$d/gen-bomb.gz"
cp "$f" "$d/gen-plain.folded"
for f in "$data"/foreign/bpftrace-*.txt; do
	cp "$f" "$b/gen-${f##*/}"
	head -n 7 "$f" >"$b/gen-cut-${f##*/}"
done
printf '@[\n    a+1\n, \n    b+2\n]: 5\n@x[comm, 12]: 3\n@[\n, ]: -4\n' \
    >"$b/gen-keys.txt"
# DTrace: replayed by the harness of every reader (any).
for f in "$data"/foreign/dtrace*.txt; do
	cp "$f" "$here/corpus/any/gen-${f##*/}"
done

#!/bin/sh
# Compressed profiles, chosen by their first bytes: every bundled sample
# compressed with gzip, zlib, zstd and xz gives the same top page as the
# plain file, through deepq query --local and through the CGI and its
# server; concatenated gzip members, zstd frames and xz streams; a
# truncated or corrupt stream is an error that says so; a compression
# bomb stops at max_decompressed (--max-decompressed), and the CGI
# answers it 413; the web index shows a compressed file's format.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

for t in gzip zstd xz perl; do
	command -v $t >/dev/null 2>&1 || skip_all "no $t"
done
perl -MCompress::Zlib -e 1 2>/dev/null || skip_all "no perl Compress::Zlib"

data=$top_srcdir/tests/data
# compress KIND FILE: FILE compressed with KIND on stdout.
compress() {
	case $1 in
	gzip)	gzip -c "$2" ;;
	zlib)	perl -MCompress::Zlib -e 'undef $/; print compress(<STDIN>)' \
		    <"$2" ;;
	zstd)	zstd -q -c "$2" ;;
	xz)	xz -c "$2" ;;
	esac
}

# Every sample, plain and compressed four ways under the same name (the
# page names its file) in directories of their own.
mkdir -p "$tmp/plain" "$tmp/gzip" "$tmp/zlib" "$tmp/zstd" "$tmp/xz"
n=0
for f in "$data"/*.* "$data"/samples/*; do
	name=${f##*/}
	[ "$name" != README ] || continue
	# Compressed already: once more would be a profile inside a profile.
	case $name in *.gz|*.zst|*.xz) continue ;; esac
	"$DEEPQ" query --local "$f" 'cmd=top&format=json' \
	    >"$tmp/plain/$name.json" 2>/dev/null || continue
	n=$((n + 1))
	for kind in gzip zlib zstd xz; do
		compress $kind "$f" >"$tmp/$kind/$name"
		if ! "$DEEPQ" query --local "$tmp/$kind/$name" \
		    'cmd=top&format=json' >"$tmp/$kind/$name.json" \
		    2>"$tmp/err"; then
			not_ok "$name ($kind): does not load: $(cat "$tmp/err")"
		elif cmp -s "$tmp/plain/$name.json" "$tmp/$kind/$name.json"
		then
			ok "$name ($kind): the same top page as the plain file"
		else
			not_ok "$name ($kind): a different top page"
		fi
	done
done
check "at least 10 samples compared ($n)" test "$n" -ge 10

# deepq convert reads them too.
"$DEEPQ" convert "$data/firefox.folded" "$tmp/conv.want"
for kind in gzip zstd xz; do
	compress $kind "$data/firefox.folded" >"$tmp/conv.in"
	"$DEEPQ" convert "$tmp/conv.in" "$tmp/conv.got" 2>&1 || :
	check "convert: $kind input, the plain file's folded output" \
	    cmp "$tmp/conv.want" "$tmp/conv.got"
done
yes 'a;b 1' | head -n 300000 | xz -c >"$tmp/conv.in"
"$DEEPQ" convert --max-decompressed 1 "$tmp/conv.in" - >/dev/null \
    2>"$tmp/err" || :
check "convert --max-decompressed 1: $(cat "$tmp/err")" \
    grep -q "decompresses to more than 1 MiB" "$tmp/err"

# Concatenated members, frames and streams: the halves of a file.
f=$data/firefox.folded
half=$(($(wc -l <"$f") / 2))
head -n $half "$f" >"$tmp/a"
tail -n +$((half + 1)) "$f" >"$tmp/b"
mkdir -p "$tmp/cat"
cp "$f" "$tmp/cat/whole.folded"
"$DEEPQ" query --local "$tmp/cat/whole.folded" 'cmd=menu&format=json' \
    >"$tmp/want.json"
for kind in gzip zstd xz; do
	{ compress $kind "$tmp/a"; compress $kind "$tmp/b"; } \
	    >"$tmp/cat/whole.folded"
	"$DEEPQ" query --local "$tmp/cat/whole.folded" \
	    'cmd=menu&format=json' >"$tmp/got.json" 2>&1 || :
	check "$kind: two concatenated parts read as one file" \
	    cmp "$tmp/want.json" "$tmp/got.json"
done
# gzip's padding of zero bytes (dd, tar) after the last member.
{ compress gzip "$f"; head -c 512 /dev/zero; } >"$tmp/cat/whole.folded"
"$DEEPQ" query --local "$tmp/cat/whole.folded" 'cmd=menu&format=json' \
    >"$tmp/got.json" 2>&1 || :
check "gzip: zero padding after the member is ignored" \
    cmp "$tmp/want.json" "$tmp/got.json"
{ compress gzip "$f"; echo garbage; } >"$tmp/cat/whole.folded"
if "$DEEPQ" query --local "$tmp/cat/whole.folded" cmd=menu >/dev/null \
    2>"$tmp/err"; then
	not_ok "gzip: other bytes after the member load"
else
	check "gzip: other bytes after the member: $(cat "$tmp/err")" \
	    grep -q "trailing bytes" "$tmp/err"
fi

# A file of over 1 MiB compressed (many decoder blocks, several reads of
# compressed bytes): the same answers, and a cut still an error.
awk 'BEGIN { srand(7); for (i = 0; i < 120000; i++)
	printf "main;f%d;g%d;h%d %d\n", int(rand() * 500), int(rand() * 5000),
	    int(rand() * 50000), 1 + int(rand() * 1000) }' >"$tmp/big.folded"
"$DEEPQ" query --local --max-decompressed 1024 "$tmp/big.folded" \
    'cmd=top&format=json' >"$tmp/big.want"
mkdir -p "$tmp/big"
for kind in gzip zstd xz; do
	compress $kind "$tmp/big.folded" >"$tmp/big/big.folded"
	size=$(wc -c <"$tmp/big/big.folded")
	"$DEEPQ" query --local "$tmp/big/big.folded" 'cmd=top&format=json' \
	    >"$tmp/big.got" 2>&1 || :
	check "$kind, $size bytes (big): the plain file's top page" \
	    cmp "$tmp/big.want" "$tmp/big.got"
	head -c $((size * 3 / 4)) "$tmp/big/big.folded" >"$tmp/big/cut.folded"
	"$DEEPQ" query --local "$tmp/big/cut.folded" cmd=menu >/dev/null \
	    2>"$tmp/err" || :
	check "$kind, big, cut at 3/4: $(cat "$tmp/err")" \
	    grep -q "truncated $kind data" "$tmp/err"
done

# Truncated and corrupt streams: errors that say so, never a profile of
# what came before. (The sample is big enough that a cut loses lines.)
f=$data/samples/workload-fp.folded
for kind in gzip zlib zstd xz; do
	compress $kind "$f" >"$tmp/full"
	size=$(wc -c <"$tmp/full")
	head -c $((size / 2)) "$tmp/full" >"$tmp/cut.folded"
	if "$DEEPQ" query --local "$tmp/cut.folded" cmd=menu \
	    >/dev/null 2>"$tmp/err"; then
		not_ok "$kind: a file cut in half loads"
	else
		check "$kind: a file cut in half: $(cat "$tmp/err")" \
		    grep -q "truncated $kind data" "$tmp/err"
	fi
	# Flip bytes in the middle (past the headers).
	{ head -c $((size / 2)) "$tmp/full"; printf 'XXXXXXXXXXXXXXXX';
	  tail -c +$((size / 2 + 17)) "$tmp/full"; } >"$tmp/bad.folded"
	if "$DEEPQ" query --local "$tmp/bad.folded" cmd=menu \
	    >/dev/null 2>"$tmp/err"; then
		not_ok "$kind: a corrupt file loads"
	else
		check "$kind: a corrupt file: $(cat "$tmp/err")" \
		    grep -Eq "corrupt|truncated|trailing" "$tmp/err"
	fi
done

# A bomb: 68 MB of one folded line in about 6 KB of zstd. With a 16 MB
# limit it stops with the limit in the message; the default reads it.
yes 'main;parse;lex 1' | head -n 4000000 | zstd -q -c >"$root/bomb.folded"
check "the bomb is small ($(wc -c <"$root/bomb.folded") bytes)" \
    test "$(wc -c <"$root/bomb.folded")" -lt 100000
if "$DEEPQ" query --max-decompressed 16 "$root/bomb.folded" cmd=menu \
    >/dev/null 2>"$tmp/err"; then
	not_ok "--max-decompressed 16: the bomb loads"
else
	check "--max-decompressed 16: $(cat "$tmp/err")" \
	    grep -q "zstd data decompresses to more than 16 MiB" "$tmp/err"
fi
check "without a limit set, the 68 MB load (4,000,000 samples)" sh -c \
    "'$DEEPQ' query --local '$root/bomb.folded' 'cmd=menu&format=json' |
    grep -q '\"total\":4000000'"

# Through the CGI and its server, with max_decompressed in deepq.conf.
rdv_conf max_decompressed=16
cgi() {
	_n=$1
	shift
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$conf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 "$@" "$CGI" >"$tmp/$_n.out" \
	    2>"$tmp/$_n.err" || :
	sed '1,/^\r*$/d' "$tmp/$_n.out" >"$tmp/$_n.body"
}
status() { sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/$1.out"; }
cgi bomb 'QUERY_STRING=file=bomb.folded&cmd=menu&format=json'
check "CGI: the bomb is 413 ($(status bomb))" test "$(status bomb)" = 413
check "CGI: the 413 says why" grep -q "decompresses to more than 16 MiB" \
    "$tmp/bomb.body"
for kind in gzip zlib zstd xz; do
	cp "$tmp/$kind/recursive.cpuprofile" "$root/r-$kind.cpuprofile"
	cgi "r$kind" "QUERY_STRING=file=r-$kind.cpuprofile&cmd=top&format=json"
	sed 's/"file":"[^"]*"//' "$tmp/r$kind.body" >"$tmp/r$kind.cmp"
	sed 's/"file":"[^"]*"//' "$tmp/plain/recursive.cpuprofile.json" \
	    >"$tmp/rplain.cmp"
	check "CGI: $kind recursive.cpuprofile gives the plain top page" \
	    cmp "$tmp/rplain.cmp" "$tmp/r$kind.cmp"
done
head -c 300 "$tmp/full" >"$root/cut.folded"
cgi cut 'QUERY_STRING=file=cut.folded&cmd=menu&format=json'
check "CGI: a truncated file is 422 ($(status cut))" test "$(status cut)" = 422
check "CGI: the 422 says truncated" grep -q "truncated xz data" \
    "$tmp/cut.body"

# A big file (4 MB or more compressed) is decoded by a process of its
# own beside the parse (decompress_ahead in engine/decompress.c): the
# same answer as the plain file; a file cut short or over the size limit
# is still an error that says so; no decoding process outlives a load.
: "${GENPROF:=$top_builddir/bench/genprof}"
[ -x "$GENPROF" ] || { echo "Bail out! build bench/genprof first"; exit 1; }
"$GENPROF" -s tails -n 900000 >"$tmp/big.folded"
"$DEEPQ" query --local --max-decompressed 1024 "$tmp/big.folded" \
    'cmd=top&format=json' >"$tmp/big.want"
for kind in gzip zstd; do
	compress $kind "$tmp/big.folded" >"$root/big-$kind.folded"
	sz=$(wc -c <"$root/big-$kind.folded")
	check "big $kind file: $sz bytes, over 4 MB" test "$sz" -ge 4194304
	# (deepq.conf, set above for the CGI, has max_decompressed=16.)
	"$DEEPQ" query --local --max-decompressed 1024 \
	    "$root/big-$kind.folded" 'cmd=top&format=json' >"$tmp/big.got" \
	    2>"$tmp/err" || :
	check "big $kind file: the plain file's answer" \
	    cmp -s "$tmp/big.want" "$tmp/big.got"
	head -c $((sz / 2)) "$root/big-$kind.folded" >"$root/big-cut.folded"
	if "$DEEPQ" query --local "$root/big-cut.folded" cmd=menu \
	    >/dev/null 2>"$tmp/err"; then
		not_ok "big $kind file cut in half: loads"
	else
		check "big $kind file cut in half: $(cat "$tmp/err")" \
		    grep -q "truncated $kind data" "$tmp/err"
	fi
	if "$DEEPQ" query --local --max-decompressed 4 \
	    "$root/big-$kind.folded" cmd=menu >/dev/null 2>"$tmp/err"; then
		not_ok "big $kind file, --max-decompressed 4: loads"
	else
		check "big $kind file, --max-decompressed 4: $(cat "$tmp/err")" \
		    grep -q "decompresses to more than 4 MiB" "$tmp/err"
	fi
done
# Its server decodes ahead too, under deepq.conf's max_decompressed.
cgi big 'QUERY_STRING=file=big-zstd.folded&cmd=top&format=json'
check "CGI: the big zstd file, over max_decompressed, is 413 ($(status big))" \
    test "$(status big)" = 413
check "CGI: the 413 says why" grep -q "decompresses to more than 16 MiB" \
    "$tmp/big.body"
check "no process holds a big file open after the loads" sh -c \
    "! ls -l /proc/[0-9]*/fd/ 2>/dev/null | grep -q '/big-'"

# The web index's format column looks through the compression.
rdv_web
url=$web
code=$(rdv_get 'format=json')
check "web index: 200 ($code)" test "$code" = 200
check "web index: the four compressed cpuprofiles are v8" jq -e \
    '[.profiles[] | select(.name | startswith("r-")) | .format] |
    length == 4 and all(. == "v8")' "$tmp/body"
check "web index: the zstd bomb is folded" jq -e \
    '.profiles[] | select(.name == "bomb.folded") | .format == "folded"' \
    "$tmp/body"

done_testing

#!/bin/sh
# The profile index (common/profindex.c) through both front ends, the
# CGI and deepq web: profiles only (no hidden, secret or other file that
# is not a profile; compressed profiles through their compression), the
# same JSON from both, names with control characters escaped in every
# format (no forged line in the text), a zero-padded sparse gzip, zstd
# and xz answered at once with no process left behind (the probe decodes
# a bounded head in-process), only what the CGI's user can read (as
# nobody: a profile of mode 0600 and one in a directory of mode 0700 are
# not listed), the listing cached until a
# directory changes, and 120,000 long names full of characters to escape
# (index_entries = 100000) answered within the bytes an index may have.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
for z in zstd xz; do
	command -v $z >/dev/null 2>&1 || skip_all "$z is not installed"
done

# cgi NAME QUERY: the CGI run directly; $tmp/NAME.head, .body, .status.
cgi() {
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$conf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 SCRIPT_NAME=/cgi-bin/deepq.cgi \
	    QUERY_STRING="$2" "$CGI" >"$tmp/$1.out" 2>"$tmp/$1.err" \
	    </dev/null || :
	sed '/^\r*$/q' "$tmp/$1.out" | sed '$d' >"$tmp/$1.head"
	sed '1,/^\r*$/d' "$tmp/$1.out" >"$tmp/$1.body"
	sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/$1.head" >"$tmp/$1.status"
}
names() {
	jq -r '.profiles[].name' "$tmp/$1.body" | sort
}
children() {
	ps -o pid= --ppid "$1" 2>/dev/null | tr -d ' '
}

# The root: two profiles of the rendezvous library's, and around them
# files that are not profiles, or hidden, or both.
mkdir -p "$root/ch" "$root/sub"
printf 'user:$apr1$Kx1$abcdefghijklmnopqrstuv\n' >"$root/.htpasswd"
printf 'a;b 1\n' >"$root/.hidden.folded"
printf 'hunter2\n' >"$root/ch/ch.pass"
printf '# deepq-view 1\nurl = http://127.0.0.1:1/\npassword_file = ch.pass\n' \
    >"$root/ch/live.deepq"
printf 'password = s3cret\n' >"$root/secret.txt"
printf '# Notes\n\nNothing here.\n' >"$root/notes.md"
head -c 4096 /dev/urandom >"$root/random.bin"
printf 'PERFILE2\0\0\0\0' >"$root/perf.data"
gzip -c "$top_srcdir/tests/data/cliques.folded" >"$root/sub/cliques.folded.gz"
xz -c "$top_srcdir/tests/data/small.perf" >"$root/sub/small.perf.xz"
printf 'main;x 1\n' >"$root/back\\slash.folded"
printf 'main;x 1\n' >"$root/$(printf 'line\nbreak.folded')"
printf 'main;x 1\n' >"$root/$(printf 'tab\tand\033[31mescape.folded')"
# A gzip member of nothing, then a 1 TiB hole of zeros.
printf '\037\213\010\000\000\000\000\000\000\003\003\000\000\000\000\000\000\000\000\000' \
    >"$root/padded.gz"
truncate -s 1T "$root/padded.gz"
# The same of zstd and xz: a frame of nothing, then the hole.
printf '' | zstd -q >"$root/padded.zst"
truncate -s 1T "$root/padded.zst"
printf '' | xz >"$root/padded.xz"
truncate -s 1T "$root/padded.xz"
cat >"$tmp/want" <<EOF
back\\slash.folded
ch/live.deepq
firefox.folded
$(printf 'line\nbreak.folded')
recursion.folded
sub/cliques.folded.gz
sub/small.perf.xz
$(printf 'tab\tand\033[31mescape.folded')
EOF
sort "$tmp/want" >"$tmp/want.sorted"
rdv_conf index_entries=100

cgi json 'cmd=index&format=json'
check "CGI: 200 ($(cat "$tmp/json.status"))" test "$(cat "$tmp/json.status")" = 200
names json >"$tmp/got"
if cmp -s "$tmp/got" "$tmp/want.sorted"; then
	ok "CGI: the profiles and only them ($(wc -l <"$tmp/want") names)"
else
	not_ok "CGI: the profiles and only them"
	diff "$tmp/want.sorted" "$tmp/got" | sed 's/^/# /'
fi
jq -r '.profiles[] | "\(.name) \(.format)"' "$tmp/json.body" >"$tmp/formats"
check "CGI: formats through compression, and a view" sh -c \
    "grep -qx 'sub/cliques.folded.gz folded' '$tmp/formats' &&
    grep -qx 'sub/small.perf.xz perf' '$tmp/formats' &&
    grep -qx 'ch/live.deepq view' '$tmp/formats'"
for f in html text; do
	cgi "$f" "cmd=index&format=$f"
	for secret in htpasswd hunter2 ch.pass secret.txt s3cret notes.md \
	    random.bin perf.data padded.gz padded.zst padded.xz hidden.folded; do
		if grep -q "$secret" "$tmp/$f.body"; then
			not_ok "CGI $f: names $secret"
		fi
	done
	ok "CGI $f: no hidden, secret or other file that is not a profile"
done
check "text: one line a profile, none forged" \
    test "$(grep -vc '^#' "$tmp/text.body")" = "$(jq '.profiles | length' "$tmp/json.body")"
check "text: a newline in a name written \\n" \
    grep -qF 'line\nbreak.folded	folded	' "$tmp/text.body"
check "text: a tab, an escape and a backslash written as C escapes" sh -c \
    "grep -qF 'tab\\tand\\x1b[31mescape.folded' '$tmp/text.body' &&
    grep -qF 'back\\\\slash.folded	' '$tmp/text.body'"
check "text: no control character but the separators" sh -c \
    "! tr -d '\t\n' <'$tmp/text.body' | LC_ALL=C grep -q '[[:cntrl:]]'"
check "text: four fields a line" sh -c \
    "test -z \"\$(grep -v '^#' '$tmp/text.body' | awk -F'\t' 'NF != 4')\""
check "HTML: no raw control character but blanks" sh -c \
    "! tr -d '\t\n' <'$tmp/html.body' | LC_ALL=C grep -q '[[:cntrl:]]'"
check "HTML: a name with a newline keeps it in its option's value" \
    grep -q '<option value="line$' "$tmp/html.body"
# The form's default pair: the first two of one format (folded here).
sed -n 's/.*<select name="file">.*<option selected value="\([^"]*\)".*/\1/p' \
    "$tmp/html.body" >"$tmp/pair"
sed -n 's/.*<select name="base">.*<option selected value="\([^"]*\)".*/\1/p' \
    "$tmp/html.body" >>"$tmp/pair"
check "HTML: the default comparison is two profiles of one format" \
    test "$(tr '\n' ' ' <"$tmp/pair")" = 'back\slash.folded firefox.folded '

# deepq web over the same root answers the same JSON, and the padded
# file costs it nothing: no helper process, an answer at once.
rdv_web
wpid=$(cat "$tmp/web.pid")
http_get "$web" 'cmd=index&format=json' wjson
check "deepq web: 200 ($(cat "$tmp/wjson.code"))" test "$(cat "$tmp/wjson.code")" = 200
check "deepq web and the CGI: the same JSON, byte for byte" \
    cmp "$tmp/json.body" "$tmp/wjson.body"
check "deepq web: no process left beside it" test -z "$(children "$wpid")"
http_get "$web" '' windex
check "deepq web: / is the same index as a page" \
    grep -q '<table class="report" id="profiles">' "$tmp/windex.body"
check "deepq web: the page names no path of the root" \
    sh -c "! grep -qF '$root' '$tmp/windex.body' '$tmp/wjson.body'"

# Cached: a profile rewritten in place (its directory unchanged) is
# still listed as it was; a file added (the directory changed) brings
# both up to date, in each front end.
printf 'a;b 1\n' >"$root/later.folded"
cgi c1 'cmd=index&format=json'
http_get "$web" 'cmd=index&format=json' w1
printf 'no longer a profile\n' >"$root/later.folded"
cgi c2 'cmd=index&format=json'
http_get "$web" 'cmd=index&format=json' w2
check "cached: CGI still lists a file changed in place" \
    sh -c "jq -r '.profiles[].name' '$tmp/c2.body' | grep -qx later.folded"
check "cached: deepq web too" \
    sh -c "jq -r '.profiles[].name' '$tmp/w2.body' | grep -qx later.folded"
check "cached: the CGI's listing is kept in the runtime directory" \
    sh -c "ls '$run' | grep -q '^index-'"
printf 'a;b 1\n' >"$root/added.folded"
cgi c3 'cmd=index&format=json'
http_get "$web" 'cmd=index&format=json' w3
check "a directory changed: the CGI lists the new file, drops the other" \
    sh -c "jq -r '.profiles[].name' '$tmp/c3.body' | grep -qx added.folded &&
    ! jq -r '.profiles[].name' '$tmp/c3.body' | grep -qx later.folded"
check "a directory changed: deepq web too" \
    sh -c "jq -r '.profiles[].name' '$tmp/w3.body' | grep -qx added.folded &&
    ! jq -r '.profiles[].name' '$tmp/w3.body' | grep -qx later.folded"
kill "$(cat "$tmp/web.pid")"
rm -f "$tmp/web.pid"

# Readable profiles only: the CGI as nobody (setpriv) lists neither a
# profile it may not read nor one in a directory it may not enter; its
# own runtime directory, the profile root reachable.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -p "$root/closed" "$tmp/nrun"
	printf 'a;b 1\n' >"$root/unreadable.folded"
	printf 'a;b 1\n' >"$root/closed/inside.folded"
	chmod 600 "$root/unreadable.folded"
	chmod 700 "$root/closed"
	chmod 711 "$tmp"
	chmod -R a+rX "$root/sub" "$root/ch"
	chmod a+rx "$root"
	chown nobody "$tmp/nrun"
	chmod 700 "$tmp/nrun"
	sed "s|^runtime_dir = .*|runtime_dir = $tmp/nrun|" "$conf" \
	    >"$tmp/nobody.conf"
	chmod 644 "$tmp/nobody.conf"
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$tmp/nobody.conf" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 SCRIPT_NAME=/cgi-bin/deepq.cgi \
	    QUERY_STRING='cmd=index&format=json' \
	    setpriv --reuid=nobody --regid=nogroup --clear-groups "$CGI" \
	    >"$tmp/nobody.out" 2>"$tmp/nobody.err" </dev/null || :
	sed '1,/^\r*$/d' "$tmp/nobody.out" >"$tmp/nobody.body"
	names nobody >"$tmp/nobody.names" 2>/dev/null || :
	check "as nobody: 200 with firefox.folded listed" \
	    grep -qx firefox.folded "$tmp/nobody.names"
	check "as nobody: neither a profile of mode 0600 nor one in a closed directory" \
	    sh -c "! grep -q 'unreadable\|inside' '$tmp/nobody.names'"
	rm -f "$root/unreadable.folded"
	chmod 755 "$root/closed"
	rm -rf "$root/closed"
else
	# Counted either way: the plan does not depend on the user.
	ok "# SKIP as nobody: needs root and setpriv"
	ok "# SKIP as nobody: needs root and setpriv"
fi

# 120,000 profiles with long names of characters each format escapes
# (hard links of two files: ext4 allows 65,000 links to one).
big=$tmp/big
mkdir "$big"
printf 'a;b 1\n' >"$big/.one"
printf 'c;d 2\n' >"$big/.two"
perl -e 'for $i (1..120000) {
	$n = sprintf("%06d", $i) . ("<&\x27\"> \\\x01" x 26) . ".folded";
	link($i % 2 ? "$ARGV[0]/.one" : "$ARGV[0]/.two", "$ARGV[0]/$n")
	    or die "$n: $!\n" }' "$big"
rdv_conf profile_root="$big" index_entries=100000
max=$((8 * 1024 * 1024))
for f in html json text; do
	cgi "big$f" "cmd=index&format=$f"
	n=$(wc -c <"$tmp/big$f.body")
	check "120,000 names, $f: 200 ($(cat "$tmp/big$f.status")), $n bytes, at most $max" \
	    sh -c "test '$(cat "$tmp/big$f.status")' = 200 && test $n -le $max &&
	    test $n -gt $((max / 2))"
done
check "120,000 names, JSON: valid, cut, said so" sh -c "jq -e '.truncated
    and (.profiles | length) > 1000' '$tmp/bigjson.body' >/dev/null"
check "120,000 names, text: says there are more" \
    sh -c "tail -1 '$tmp/bigtext.body' | grep -qx '# there are more'"
check "120,000 names, text: four fields a line" sh -c \
    "test -z \"\$(grep -v '^#' '$tmp/bigtext.body' | awk -F'\t' 'NF != 4')\""
check "no server was started" rdv_none
done_testing

#!/bin/sh
# make install into a DESTDIR: the programs, the CGI in cgidir, the www
# assets, the seven man pages, the sample deepq.conf, the web-server
# configurations and the systemd units, every placeholder substituted; the installed CGI
# answers a synthetic CGI request through the installed deepq-server and
# the default server_path is the installed one; make uninstall removes
# everything it installed.
. "${0%/*}/../lib.sh"
command -v jq >/dev/null || skip_all "jq is not installed"
[ -f "$top_builddir/Makefile" ] || skip_all "no Makefile in $top_builddir"

# A make of its own, not a part of make check's (no jobserver, no level).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s --no-print-directory -C "$top_builddir" "$@"
}
dest=$tmp/dest
mk print-install-dirs >"$tmp/dirs"
. "$tmp/dirs"
if mk install DESTDIR="$dest" >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=..."
else
	not_ok "make install DESTDIR=..."
	sed 's/^/# /' "$tmp/install.log" | tail -20
	done_testing
	exit 1
fi

for f in "$bindir/deepq" "$sbindir/deepq-server" "$cgidir/deepq.cgi" \
    "$pkglibexecdir/deepq-web"; do
	check "installed and executable: $f" test -x "$dest$f"
done
# deepq web runs the installed deepq-web; deepq itself stays free of
# libmicrohttpd (its loading cost every deepq query 3 ms).
check "deepq runs $pkglibexecdir/deepq-web" \
    grep -qaF "$pkglibexecdir/deepq-web" "$dest$bindir/deepq"
check "deepq does not load libmicrohttpd" \
    sh -c "! ldd '$dest$bindir/deepq' 2>/dev/null | grep -q microhttpd"
for f in deepq.css deepq.js flame.js deepq-timeline.js favicon.svg; do
	check "www asset: $wwwdir/$f" test -s "$dest$wwwdir/$f"
done
for p in man1/deepq.1 man5/deepq-formats.5 man5/deepq.conf.5 \
    man7/deepq-clickhouse.7 man7/deepq-query.7 man8/deepq-server.8 \
    man8/deepq.cgi.8; do
	check "man page: $mandir/$p" test -s "$dest$mandir/$p"
done
sample=$dest$sysconfdir/deepq.conf.sample
check "sample configuration: $sysconfdir/deepq.conf.sample" test -s "$sample"
check "the sample names the installed server" \
    grep -qx "server_path = $sbindir/deepq-server" "$sample"
for w in apache-deepq lighttpd-deepq lighttpd-deepq-fastcgi nginx-deepq; do
	f=$dest$pkgdatadir/examples/$w.conf
	check "$w.conf installed" test -s "$f"
	check "$w.conf has no placeholder left" \
	    sh -c "! grep -n '@[a-z_]*@' '$f'"
	check "$w.conf names the installed CGI" \
	    grep -qF "$cgidir/deepq.cgi" "$f"
done
check "lighttpd-deepq-fastcgi.conf starts it with the installed deepq.conf" \
    grep -qF "\"DEEPQ_CONFIG\" => \"$sysconfdir/deepq.conf\"" \
    "$dest$pkgdatadir/examples/lighttpd-deepq-fastcgi.conf"

# systemd: the socket-activated FastCGI responder and the runtime
# directory's tmpfiles.d entry.
for f in "$systemdsystemunitdir/deepq-fcgi.socket" \
    "$systemdsystemunitdir/deepq-fcgi.service" "$tmpfilesdir/deepq.conf"; do
	check "systemd: $f installed, no placeholder left" \
	    sh -c "test -s '$dest$f' && ! grep -n '@[a-z_]*@' '$dest$f'"
done
check "deepq-fcgi.service runs the installed CGI" \
    grep -qx "ExecStart=$cgidir/deepq.cgi" \
    "$dest$systemdsystemunitdir/deepq-fcgi.service"

# The programs fall back on the installed server when deepq.conf has no
# server_path: the built-in path is sbindir's.
check "built-in server_path is $sbindir/deepq-server" \
    grep -qaF "$sbindir/deepq-server" "$dest$cgidir/deepq.cgi"
check "built-in configuration is $sysconfdir/deepq.conf" \
    grep -qaF "$sysconfdir/deepq.conf" "$dest$cgidir/deepq.cgi"

# The installed CGI, configured from the sample (the server is under
# DESTDIR here, so server_path says so), answers a synthetic request.
mkdir -p "$tmp/profiles"
cp "$top_srcdir/tests/data/samples/workload-fp.folded" "$tmp/profiles/"
sed -e "s|^profile_root = .*|profile_root = $tmp/profiles|" \
    -e "s|^#runtime_dir = .*|runtime_dir = $tmp/run|" \
    -e "s|^server_path = |server_path = $dest|" "$sample" >"$tmp/deepq.conf"
cgi() {
	env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$tmp/deepq.conf" \
	    ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
	    UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SERVER_PROTOCOL=HTTP/1.1 SCRIPT_NAME=/cgi-bin/deepq.cgi \
	    QUERY_STRING="$1" timeout 30 "$dest$cgidir/deepq.cgi"
}
# split: headers to $tmp/head, body to $tmp/body.
split() {
	tr -d '\r' | awk -v h="$tmp/head" -v b="$tmp/body" '
	    !body && /^$/ { body = 1; next }
	    { print > (body ? b : h) }'
}
cgi 'file=workload-fp.folded&cmd=top&limit=3&format=json' | split
check "installed CGI: Status 200" grep -qx 'Status: 200.*' "$tmp/head"
check "installed CGI: JSON content type" \
    grep -qix 'Content-Type: application/json.*' "$tmp/head"
want=$(awk '{ s += $NF } END { printf "%d\n", s }' \
    "$tmp/profiles/workload-fp.folded")
check "installed CGI: top has 3 rows" jq -e '.cmd == "top" and (.rows | length == 3)' "$tmp/body"
cgi 'file=workload-fp.folded&format=json' | split
check "installed CGI: the menu's total is the file's ($want)" \
    jq -e ".totals.samples == $want" "$tmp/body"
cgi 'file=workload-fp.folded&format=html' | split
check "installed CGI: the menu links the assets under static_url" \
    grep -q 'href="/deepq/deepq.css"' "$tmp/body"
cgi 'file=workload-fp.folded&cmd=shutdown&format=json' | split
check "installed CGI: shutdown" grep -qx 'Status: 200.*' "$tmp/head"

if mk uninstall DESTDIR="$dest" >"$tmp/uninstall.log" 2>&1 &&
    [ -z "$(find "$dest" ! -type d)" ]; then
	ok "make uninstall leaves no file"
else
	not_ok "make uninstall leaves no file"
	find "$dest" ! -type d | sed 's/^/# /'
fi
done_testing

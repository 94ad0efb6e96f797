#!/bin/sh
# The Debian package (debian/): dpkg-buildpackage -us -uc -b builds it
# from the distribution's files (make distdir, the tarball's tree), with
# nocheck (make check runs the suite, this is the packaging) and the
# machine's cores; the .deb holds the programs, the CGI, the seven man
# pages, the sample configuration, the web-server examples and the
# systemd units under the Debian paths; lintian finds nothing it does
# not explain (debian/*.lintian-overrides); dpkg installs it into a
# scratch root, where the installed CGI answers through the installed
# server, and removes it again.
if [ -z "${DEB_DEADLINE:-}" ]; then
	DEB_DEADLINE=1
	export DEB_DEADLINE
	exec timeout -k 5 1200 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
command -v dpkg-buildpackage >/dev/null 2>&1 &&
    command -v dh >/dev/null 2>&1 ||
    skip_all "dpkg-buildpackage or debhelper is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s --no-print-directory -C "$top_builddir" "$@"
}
src=$tmp/deepq-0.1
if ! mk distdir distdir="$src" >"$tmp/dist.log" 2>&1; then
	sed 's/^/# /' "$tmp/dist.log" | tail -20
	echo "Bail out! make distdir failed"
	exit 1
fi
ok "the distribution's tree, with debian/"
# The package's build is its own: no variable of this build's.
jobs=$(nproc 2>/dev/null || echo 2)
if (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS \
    -u top_srcdir -u top_builddir -u DEEPQ -u CGI -u SERVER \
    DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
    dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b"
else
	not_ok "dpkg-buildpackage -us -uc -b"
	tail -30 "$tmp/build.log" | sed 's/^/# /'
	done_testing
	exit 1
fi
deb=$(ls "$tmp"/deepq_*.deb)
check "one package: ${deb##*/}" test -f "$deb"

dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$tmp/files"
for f in /usr/bin/deepq /usr/sbin/deepq-server \
    /usr/lib/cgi-bin/deepq/deepq.cgi /usr/libexec/deepq/deepq-web \
    /etc/deepq.conf.sample /usr/share/deepq/www/deepq.css \
    /usr/share/deepq/www/deepq.js /usr/share/deepq/www/favicon.svg \
    /usr/share/deepq/examples/apache-deepq.conf \
    /usr/share/deepq/examples/lighttpd-deepq.conf \
    /usr/share/deepq/examples/lighttpd-deepq-fastcgi.conf \
    /usr/share/deepq/examples/nginx-deepq.conf \
    /lib/systemd/system/deepq-fcgi.socket \
    /lib/systemd/system/deepq-fcgi.service \
    /usr/lib/tmpfiles.d/deepq.conf \
    /usr/share/doc/deepq/copyright; do
	grep -qx "$f" "$tmp/files" || not_ok "the package holds $f"
done
ok "the package holds the programs, the CGI, the assets, the examples, the units"
n=$(grep -c '^/usr/share/man/man[1-8]/deepq.*\.gz$' "$tmp/files" || :)
check "the seven man pages ($n)" test "$n" -eq 7

# lintian: nothing but what debian/*.lintian-overrides explains.
if command -v lintian >/dev/null 2>&1; then
	lintian --fail-on error,warning --tag-display-limit 0 \
	    --display-info "$deb" >"$tmp/lintian" 2>&1 &&
	    ok "lintian: no error or warning" ||
	    not_ok "lintian: no error or warning"
	grep -v 'running with root privileges' "$tmp/lintian" |
	    sed 's/^/# /'
fi

# dpkg into a scratch root (scripts run outside it, DPKG_ROOT set), as
# root or not.
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" \
    "$root/run"
: >"$root/var/lib/dpkg/status"
force=--force-depends,script-chrootless
[ "$(id -u)" -eq 0 ] || force=$force,not-root
if dpkg --root="$root" $force -i "$deb" >"$tmp/dpkg.log" 2>&1; then
	ok "dpkg --root installs it"
else
	not_ok "dpkg --root installs it"
	sed 's/^/# /' "$tmp/dpkg.log" | tail -20
fi
check "installed: the CGI and the server" sh -c \
    "test -x '$root/usr/lib/cgi-bin/deepq/deepq.cgi' &&
    test -x '$root/usr/sbin/deepq-server'"

# The installed CGI answers through the installed server.
mkdir -p "$tmp/profiles"
cp "$top_srcdir/tests/data/samples/workload-fp.folded" "$tmp/profiles/"
sed -e "s|^profile_root = .*|profile_root = $tmp/profiles|" \
    -e "s|^#runtime_dir = .*|runtime_dir = $tmp/run|" \
    -e "s|^server_path = |server_path = $root|" \
    "$root/etc/deepq.conf.sample" >"$tmp/deepq.conf"
env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$tmp/deepq.conf" \
    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET SERVER_PROTOCOL=HTTP/1.1 \
    SCRIPT_NAME=/cgi-bin/deepq.cgi \
    QUERY_STRING='file=workload-fp.folded&cmd=top&limit=3&format=json' \
    timeout 60 "$root/usr/lib/cgi-bin/deepq/deepq.cgi" >"$tmp/cgi.out" \
    2>"$tmp/cgi.err" || :
sed '1,/^\r*$/d' "$tmp/cgi.out" >"$tmp/body"
check "the installed CGI answers top through the installed server" \
    jq -e '.cmd == "top" and (.rows | length) == 3' "$tmp/body"
env -i PATH=/usr/bin:/bin DEEPQ_CONFIG="$tmp/deepq.conf" \
    "$root/usr/bin/deepq" stop --all >/dev/null 2>&1 || :

if dpkg --root="$root" $force -r deepq >"$tmp/remove.log" 2>&1 &&
    [ ! -e "$root/usr/bin/deepq" ] &&
    [ ! -e "$root/usr/lib/cgi-bin/deepq/deepq.cgi" ]; then
	ok "dpkg -r removes it (the sample configuration stays, a conffile)"
else
	not_ok "dpkg -r removes it"
	sed 's/^/# /' "$tmp/remove.log" | tail -10
fi
done_testing

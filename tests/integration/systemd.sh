#!/bin/sh
# The systemd units (systemd/): the socket-activated FastCGI responder
# and its service, as make install writes them, pass systemd-analyze
# verify (a unit with a missing program fails it, so the check bites);
# the tmpfiles.d entry makes the runtime directory, 0700 and the web
# server's, in a scratch root. No systemd runs here as PID 1 to start
# them: what the service does, deepq.cgi answering FastCGI with the
# listening socket on its standard input, is cgi-fastcgi.sh's spawn-fcgi
# test, the same descriptor.
. "${0%/*}/../lib.sh"
command -v systemd-analyze >/dev/null 2>&1 ||
    skip_all "systemd-analyze (systemd) is not installed"

# A make of its own, not a part of make check's (as install.sh).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s --no-print-directory -C "$top_builddir" "$@"
}
mk systemd/deepq-fcgi.service systemd/deepq.conf >"$tmp/mk.log" 2>&1 ||
    { sed 's/^/# /' "$tmp/mk.log"; echo "Bail out! cannot make the units"
	exit 1; }
mk print-install-dirs >"$tmp/dirs"
. "$tmp/dirs"

# The units as installed, the service's program this build's CGI (verify
# checks that it exists and is executable).
mkdir "$tmp/units"
cp "$top_srcdir/systemd/deepq-fcgi.socket" "$tmp/units/"
sed "s|^ExecStart=$cgidir/deepq.cgi|ExecStart=$top_builddir/cgi/deepq.cgi|" \
    "$top_builddir/systemd/deepq-fcgi.service" >"$tmp/units/deepq-fcgi.service"
check "the service's placeholders are substituted" \
    sh -c "! grep -n '@[a-z_]*@' '$top_builddir/systemd/deepq-fcgi.service'"
check "the service runs the CGI of cgidir" \
    grep -qx "ExecStart=$cgidir/deepq.cgi" "$top_builddir/systemd/deepq-fcgi.service"
if systemd-analyze verify --man=no "$tmp/units/deepq-fcgi.socket" \
    "$tmp/units/deepq-fcgi.service" >"$tmp/verify" 2>&1; then
	ok "systemd-analyze verify: deepq-fcgi.socket, deepq-fcgi.service"
else
	not_ok "systemd-analyze verify"
fi
sed 's/^/# /' "$tmp/verify"
sed 's|^ExecStart=.*|ExecStart=/nonexistent/deepq.cgi|' \
    "$tmp/units/deepq-fcgi.service" >"$tmp/units/bad.service"
check "...which refuses a unit whose program is missing" \
    sh -c "! systemd-analyze verify --man=no '$tmp/units/bad.service' \
    >/dev/null 2>&1"
check "the service reads the socket as its standard input" \
    grep -qx 'StandardInput=socket' "$tmp/units/deepq-fcgi.service"
check "...one listening socket, accepted on by the responder" \
    grep -qx 'Accept=no' "$tmp/units/deepq-fcgi.socket"

# tmpfiles.d: the runtime directory in a scratch root.
if command -v systemd-tmpfiles >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] &&
    id www-data >/dev/null 2>&1; then
	# Users are looked up in the root's own files.
	mkdir -p "$tmp/root/run" "$tmp/root/etc"
	cp /etc/passwd /etc/group "$tmp/root/etc/"
	systemd-tmpfiles --create --root="$tmp/root" \
	    "$top_builddir/systemd/deepq.conf" >"$tmp/tmpfiles" 2>&1 || :
	sed 's/^/# /' "$tmp/tmpfiles"
	check "tmpfiles.d: /run/deepq made, 0700, www-data's" \
	    test "$(stat -c '%a %U %G' "$tmp/root/run/deepq" 2>/dev/null)" = \
	    "700 www-data www-data"
else
	ok "# SKIP tmpfiles.d: needs systemd-tmpfiles, root and www-data"
fi
done_testing

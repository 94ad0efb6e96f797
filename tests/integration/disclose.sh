#!/bin/sh
# Errors that disclose nothing (T51), through lighttpd and the CGI: a
# file under the profile root that is no profile is answered "not a
# profile" with at most its kind, never its bytes (a secret's first
# line, a .htpasswd's hash, a binary's first bytes); hidden names are
# refused before anything is read; no message of file= or base= names
# the root's absolute path; a link out of the root answers the same
# whether what it points to exists or not.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

printf 'admin:$apr1$SALTSALT$HASHHASHHASHHASHHASH\n' >"$root/.htpasswd"
mkdir -p "$root/sub/.git" "$tmp/outside"
printf '[core]\n\trepositoryformatversion = 0\n' >"$root/sub/.git/config"
printf 'launch code: TOPSECRET-4711, do not share\nmore\n' \
    >"$root/notes.txt"
printf '\001\002SECRETBYTES\003\004' >"$root/blob.bin"
printf 'main;outside 3\n' >"$tmp/outside/there.folded"
ln -s "$tmp/outside/there.folded" "$root/link-there.folded"
ln -s "$tmp/outside/nothere.folded" "$root/link-nothere.folded"
ln -s "$tmp/outside" "$root/outdir"
ln -s .htpasswd "$root/link-hidden.folded"
rdv_httpd

# refused QUERY WANT: the status, and nothing of the secrets or of our
# paths in the body, in every format.
refused() {
	for fmt in json html text; do
		st=$(rdv_get "$1&format=$fmt")
		if [ "$st" != "$2" ]; then
			not_ok "$1&format=$fmt: $st, not $2"
			continue
		fi
		if grep -qE 'HASHHASH|SALTSALT|TOPSECRET|SECRETBYTES|repository|launch code|01 02|'"$tmp" \
		    "$tmp/body"; then
			not_ok "$1&format=$fmt: $st, but it discloses: $(head -c 300 "$tmp/body")"
		else
			ok "$1&format=$fmt: $st, nothing disclosed"
		fi
	done
}
refused 'file=.htpasswd&cmd=top' 403
refused 'file=sub/.git/config&cmd=top' 403
refused 'file=notes.txt&cmd=top' 422
check "...saying it is no profile" grep -q 'not a profile deepq reads' \
    "$tmp/body"
refused 'file=blob.bin&cmd=top' 422
refused 'file=firefox.folded&base=notes.txt&cmd=top' 422
refused 'file=firefox.folded&base=blob.bin&cmd=top' 422
refused 'file=firefox.folded&base=.htpasswd&cmd=top' 403
refused 'file=firefox.folded&base=nothere.folded&cmd=top' 404
refused 'file=firefox.folded&base=link-there.folded&cmd=top' 404
refused 'file=link-hidden.folded&cmd=top' 404

# A link out: the same answer whether its target exists or not.
for f in link-there.folded link-nothere.folded outdir/there.folded \
    outdir/nothere.folded; do
	st=$(rdv_get "file=$f&cmd=top&format=json")
	sed "s|$f|NAME|" "$tmp/body" >"$tmp/$(echo "$f" | tr / _).out"
	echo "$st" >>"$tmp/out.codes"
done
check "links out of the root: one status ($(sort -u "$tmp/out.codes" | tr '\n' ' '))" \
    test "$(sort -u "$tmp/out.codes")" = 404
check "...and one message, whether the target exists or not" sh -c \
    "cmp -s '$tmp/link-there.folded.out' '$tmp/link-nothere.folded.out' &&
    cmp -s '$tmp/outdir_there.folded.out' '$tmp/outdir_nothere.folded.out'"
rdv_stop
done_testing

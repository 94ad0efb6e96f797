#!/bin/sh
# Resource errors in the runtime directory: a runtime directory on a
# tmpfs with no free inode left (and none free for a reply FIFO once a
# server runs). Every request gets 503 with Retry-After, not 422 (which
# says the profile is bad) nor 500, and no message shows the client an
# absolute path (the server's log keeps them); freed, the next request
# is answered.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to mount a small tmpfs"
mkdir -p "$tmp/fs"
mount -t tmpfs -o size=4m,nr_inodes=64,mode=0700 tmpfs "$tmp/fs" 2>/dev/null ||
    skip_all "cannot mount a tmpfs here"
echo "$tmp/fs" >"$tmp/mounted"
umount_fs() {
	umount "$tmp/fs" 2>/dev/null || :
}
trap 'rdv_cleanup; umount_fs; cleanup' EXIT

run=$tmp/fs/run
rdv_conf runtime_dir="$run"
mkdir -m 700 "$tmp/fs/run" "$tmp/fs/filler"
rdv_httpd

# fill: use every free inode of the tmpfs.
fill() {
	_i=0
	while true >"$tmp/fs/filler/f$_i" 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -lt 1000 ] || break
	done
}
# leaks: does the body show an absolute path?
leaks() {
	grep -q "$tmp" "$tmp/body"
}

fill 2>/dev/null
code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
why=$(jq -r '.error.message // ""' "$tmp/body" 2>/dev/null || :)
check "no inode for a first server: 503 ($code: $why)" test "$code" = 503
check "...with Retry-After" test -n "$(rdv_header Retry-After)"
check "...and no absolute path in the message" sh -c "! grep -q '$tmp' '$tmp/body'"
check "...and no server left" rdv_none

# One inode left, then two, ... eight: each request fails at another
# step (the want file, the reply FIFO, the lock and liveness files,
# spawn.lock, the server's own FIFO) or succeeds. Failures are 503 with
# Retry-After, never 422 "cannot load" (which blames the profile: the
# server's FIFO failing was that) nor 500, and show no path.
bad=
for k in 1 2 3 4 5 6 7 8; do
	rdv_stop >/dev/null 2>&1 || :
	rm -f "$run"/*.lock "$run"/*.alive "$run"/spawn.lock
	rm -rf "$run/cache"
	rm -f "$tmp/fs/filler"/*
	fill 2>/dev/null
	i=0
	while [ "$i" -lt "$k" ]; do
		rm -f "$tmp/fs/filler/f$i"
		i=$((i + 1))
	done
	code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
	why=$(jq -r '.error.message // ""' "$tmp/body" 2>/dev/null || :)
	echo "# $k inodes free: $code $why"
	case $code in
	200) ;;
	503) [ -n "$(rdv_header Retry-After)" ] || bad="$bad $k:no-retry" ;;
	*) bad="$bad $k:$code" ;;
	esac
	! grep -q "$tmp" "$tmp/body" || bad="$bad $k:path"
done
check "1 to 8 inodes free: 200 or 503 with Retry-After, no path${bad:+ (bad:$bad)}" \
    test -z "$bad"
rdv_stop >/dev/null 2>&1 || :

rm -f "$tmp/fs/filler"/*
code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
check "inodes freed: answered ($code)" test "$code" = 200
check "one server" rdv_one

# A server runs; now no inode is left for a reply FIFO.
fill 2>/dev/null
code=$(rdv_get 'file=firefox.folded&cmd=top&limit=3&format=json')
why=$(jq -r '.error.message // ""' "$tmp/body" 2>/dev/null || :)
check "no inode for a reply FIFO: 503 ($code: $why)" test "$code" = 503
check "...with Retry-After" test -n "$(rdv_header Retry-After)"
check "...and no absolute path in the message" sh -c "! grep -q '$tmp' '$tmp/body'"
code=$(rdv_get 'file=firefox.folded&cmd=top&limit=3&format=html')
check "...nor in an HTML page ($code)" sh -c "[ '$code' = 503 ] && ! grep -q '$tmp' '$tmp/body'"
rm -f "$tmp/fs/filler"/*
code=$(rdv_get 'file=firefox.folded&cmd=top&limit=3&format=json')
check "freed again: answered by the same server ($code)" sh -c \
    "[ '$code' = 200 ] && [ '$(rdv_count)' -eq 1 ]"
rdv_stop
done_testing

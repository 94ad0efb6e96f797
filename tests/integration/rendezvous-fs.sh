#!/bin/sh
# The runtime directory under attack, through lighttpd: a symbolic link, a
# foreign-owned file, a hard link, a wrong file type at every fixed runtime
# path (the directory itself, KEY.lock, KEY.alive, KEY.fifo, spawn.lock),
# and a directory with a bad mode or owner. Each is refused, nothing is
# started, the target is untouched (content and mtime), and removing the
# planted file lets the next request through.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_httpd
q='file=firefox.folded&cmd=top&format=json'
key=$(rdv_key "$root/firefox.folded")
target=$tmp/target
printf 'precious\n' >"$target"
touch -d '2001-02-03 04:05:06' "$target"
chmod 600 "$target"
snap() { echo "$(cat "$target") $(stat -c '%Y %s %a' "$target")"; }
before=$(snap)
root_only() {
	[ "$(id -u)" -eq 0 ] && return 0
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1 (needs root to chown)"
	return 1
}

# fresh: an empty private runtime dir and no server.
fresh() {
	"$DEEPQ" stop --all >/dev/null 2>&1 || :
	rdv_wait 10 rdv_none
	rm -rf "$run"
	mkdir -m 700 "$run"
}

# refused WHAT: the request fails (500), no server starts, the target is
# untouched; then undo and the next request works.
refused() {
	code=$(rdv_get "$q")
	check "$1: refused (500)" test "$code" = 500
	check "$1: says why" grep -qi \
	    'symbolic link\|owned by\|unexpected file type\|links\|mode\|not a directory' \
	    "$tmp/body"
	check "$1: no server started" rdv_none
	check "$1: target untouched" test "$(snap)" = "$before"
}
recovers() {
	code=$(rdv_get "$q")
	check "$1: removed, the next request answers" test "$code" = 200
}

for name in "$key.lock" "$key.alive" "$key.fifo" spawn.lock; do
	fresh
	ln -s "$target" "$run/$name"
	refused "symlink at $name"
	check "symlink at $name: still there (not followed, not replaced)" \
	    test -L "$run/$name"
	rm -f "$run/$name"
	recovers "symlink at $name"
done

fresh
rm -rf "$run"
mkdir -m 700 "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$run"
refused "symlink as the runtime dir"
check "symlink as the runtime dir: nothing made through it" \
    test -z "$(ls -A "$tmp/elsewhere")"
rm -f "$run"
recovers "symlink as the runtime dir"

fresh
chmod 777 "$run"
refused "runtime dir mode 0777"
check "runtime dir mode 0777: not silently fixed" \
    test "$(stat -c %a "$run")" = 777
chmod 700 "$run"
recovers "runtime dir mode 0777"

fresh
ln "$target" "$run/$key.lock"
refused "hard link at $key.lock"
rm -f "$run/$key.lock"
recovers "hard link at $key.lock"

fresh
mkfifo -m 600 "$run/$key.lock"
refused "FIFO at $key.lock"
rm -f "$run/$key.lock"
recovers "FIFO at $key.lock"

fresh
printf 'x' >"$run/$key.fifo"
chmod 600 "$run/$key.fifo"
code=$(rdv_get "$q")
check "regular file at $key.fifo: refused" test "$code" = 500
check "regular file at $key.fifo: left alone" test "$(cat "$run/$key.fifo")" = x
rm -f "$run/$key.fifo"
recovers "regular file at $key.fifo"

if root_only "foreign-owned runtime dir"; then
	fresh
	chown 65534 "$run"
	refused "foreign-owned runtime dir"
	check "foreign-owned runtime dir: owner unchanged" \
	    test "$(stat -c %u "$run")" = 65534
	chown 0 "$run"
	recovers "foreign-owned runtime dir"
fi
if root_only "foreign-owned $key.lock"; then
	fresh
	: >"$run/$key.lock"
	chmod 600 "$run/$key.lock"
	chown 65534 "$run/$key.lock"
	refused "foreign-owned $key.lock"
	rm -f "$run/$key.lock"
	recovers "foreign-owned $key.lock"
fi
if root_only "foreign-owned FIFO at $key.fifo"; then
	fresh
	mkfifo -m 600 "$run/$key.fifo"
	chown 65534 "$run/$key.fifo"
	refused "foreign-owned FIFO at $key.fifo"
	check "foreign-owned FIFO at $key.fifo: left alone" test -p "$run/$key.fifo"
	rm -f "$run/$key.fifo"
	recovers "foreign-owned FIFO at $key.fifo"
fi

done_testing

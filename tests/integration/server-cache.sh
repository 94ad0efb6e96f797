#!/bin/sh
# The processed-profile cache (cache_dir): a server writes it after
# loading the source, the next server for the same file loads it instead,
# and a corrupt, truncated or stale cache means a reload from the source
# with the same answers, never a wrong one.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

f=$root/firefox.folded
cache=$run/cache/$(rdv_key "$f").cache
for q in 'cmd=top&format=json' 'cmd=tree&format=json'; do
	"$DEEPQ" query --local "$f" "$q"
done >"$tmp/want"

# answers: the two queries through a server; status: its cmd=status.
answers() {
	for q in 'cmd=top&format=json' 'cmd=tree&format=json'; do
		"$DEEPQ" query "$f" "$q"
	done >"$tmp/got"
	"$DEEPQ" query "$f" 'cmd=status&format=json' >"$tmp/status"
}
cached() {
	rdv_field cached "$tmp/status"
}

answers
check "first server answers as the in-process query" cmp "$tmp/want" \
    "$tmp/got"
check "first server loaded the source" test "$(cached)" = false
check "it writes the cache" rdv_wait 10 test -f "$cache"
check "the cache is private" test "$(stat -c %a "$run/cache")" = 700 -a \
    "$(stat -c %a "$cache")" = 600
rdv_stop

answers
check "second server loaded the cache" test "$(cached)" = true
check "its answers are the same" cmp "$tmp/want" "$tmp/got"
rdv_stop

# Corrupt one byte in the middle of the payload.
cp "$cache" "$tmp/good.cache"
size=$(stat -c %s "$cache")
printf 'X' | dd of="$cache" bs=1 seek=$((size / 2)) conv=notrunc \
    2>/dev/null
check "the cache is corrupted" sh -c "! cmp -s '$cache' '$tmp/good.cache'"
answers
check "a corrupt cache: the source is loaded" test "$(cached)" = false
check "a corrupt cache: the answers are right" cmp "$tmp/want" "$tmp/got"
check "the cache is written again" rdv_wait 10 cmp -s "$cache" \
    "$tmp/good.cache"
rdv_stop

head -c $((size - 8)) "$tmp/good.cache" >"$cache"
answers
check "a truncated cache: the source is loaded" test "$(cached)" = false
check "a truncated cache: the answers are right" cmp "$tmp/want" "$tmp/got"
rdv_wait 10 cmp -s "$cache" "$tmp/good.cache" || :
rdv_stop

# A changed source (same inode, new mtime) makes the cache stale.
touch -d '2001-01-01' "$f"
answers
check "a stale cache: the source is loaded" test "$(cached)" = false
check "a stale cache: the answers are right" cmp "$tmp/want" "$tmp/got"
rdv_stop

# A symbolic link in place of the cache is never followed.
rm -f "$cache"
ln -s "$tmp/good.cache" "$cache"
answers
check "a link as the cache: the source is loaded" test "$(cached)" = false
check "a link as the cache: the answers are right" cmp "$tmp/want" \
    "$tmp/got"
rdv_stop

done_testing

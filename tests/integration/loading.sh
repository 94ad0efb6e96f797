#!/bin/sh
# A load in progress, told from outside the server (loadprogress.c):
# with the loader held at a hook, the 503 JSON answer carries the bytes
# read, the file's size, the share and the time so far, and the page that
# reloads itself shows a progress bar and the same in words; released,
# the same request answers the report.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_httpd
rdv_conf load_wait=0
size=$(stat -c %s "$root/firefox.folded")
touch "$hooks/pause-server-load"
code=$(rdv_get 'file=firefox.folded&cmd=top&format=json')
check "held load: 503" test "$code" = 503
check "...with the error as before" \
    jq -e '.deepq == 1 and .error.status == 503' "$tmp/body"
check "...and the progress: bytes read of the file's $size" jq -e \
    ".loading.bytes_total == $size and .loading.bytes_read >= 0 and
    .loading.bytes_read <= $size and .loading.percent >= 0 and
    .loading.percent <= 100 and .loading.elapsed_ms >= 0" "$tmp/body"
check "...and the message says it too" \
    jq -e '.error.message | test("Read [0-9.]+ of [0-9.]+ MB \\([0-9]+%\\)")' \
    "$tmp/body"
code=$(rdv_get 'file=firefox.folded&cmd=top')
check "the loading page: 503, reloading itself" sh -c "test $code = 503 &&
    grep -q '<meta http-equiv=\"refresh\"' '$tmp/body'"
check "...with a progress bar of the file's size" \
    grep -q "<progress id=\"load\" max=\"$size\" value=\"[0-9]*\">" \
    "$tmp/body"
check "...and the progress in words" \
    grep -q '<p class="progress">Read [0-9.]* of [0-9.]* MB ([0-9]*%)' \
    "$tmp/body"
loader=$(rdv_held 10 server-load)
rm -f "$hooks/pause-server-load"
[ -n "$loader" ] && kill -CONT "$loader"
# load_wait=0: until the load ends the answer is still the 503.
answered() {
	test "$(rdv_get 'file=firefox.folded&cmd=top&format=json')" = 200
}
if rdv_wait 30 answered; then
	check "released: the same request answers the report" \
	    jq -e '.cmd == "top" and (has("loading") | not)' "$tmp/body"
else
	not_ok "released: the same request answers the report"
fi
rdv_stop
done_testing

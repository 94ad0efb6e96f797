#!/bin/sh
# deepq web on loopback is still a web server (T58): a DNS-rebinding
# page reaches it with its own name in Host:, and gets 421 for the
# index, a profile, an asset and the shutdown form alike; its address,
# localhost and a name given with --host are answered.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

rdv_web
port=${web##*:}
port=${port%/}

# get HOST PATH [CURL-ARGS]: the status of PATH with that Host:.
get() {
	_h=$1 _p=$2
	shift 2
	curl -s -o "$tmp/body" -w '%{http_code}' --max-time 20 -H "Host: $_h" \
	    "$@" "http://127.0.0.1:$port$_p" || echo 000
}
for p in '/' '/?file=firefox.folded&cmd=top' '/?format=json' \
    '/static/deepq.css'; do
	check "rebinding Host evil.example: $p 421" \
	    test "$(get "evil.example:$port" "$p")" = 421
	check "...nothing of the root in it" sh -c \
	    "! grep -q '$root' '$tmp/body' && ! grep -q firefox '$tmp/body'"
done
check "rebinding Host: the shutdown form 421" test "$(get \
    "evil.example:$port" '/?file=firefox.folded&cmd=shutdown' -X POST \
    -d '' -H "Origin: http://evil.example:$port")" = 421
for h in "127.0.0.1:$port" "localhost:$port" "LOCALHOST:$port" \
    "127.0.0.1"; do
	check "Host $h: 200" test "$(get "$h" '/?file=firefox.folded&cmd=top')" = 200
done
check "Host [::1] while listening on 127.0.0.1: 421" \
    test "$(get "[::1]:$port" '/')" = 421
kill "$(cat "$tmp/web.pid")"
wait "$(cat "$tmp/web.pid")" 2>/dev/null || :

# --host: a name of the administrator's (a reverse proxy's).
"$DEEPQ" web --listen 127.0.0.1:0 --host deepq.example.org \
    --www "$top_srcdir/www" "$root" >"$tmp/web.out" 2>"$tmp/web.err" &
echo $! >"$tmp/web.pid"
rdv_wait 10 grep -q 'http://' "$tmp/web.out"
web=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$tmp/web.out")
port=${web##*:}
port=${port%/}
check "--host deepq.example.org: that name 200" \
    test "$(get "deepq.example.org:8443" '/?file=firefox.folded&cmd=top')" = 200
check "...another 421" test "$(get "evil.example" '/')" = 421
rdv_stop
done_testing

#!/bin/sh
# The regex filters against hostile patterns, through lighttpd and the
# real CGI: every key that takes a regex (focus=, ignore=, hide=, show=,
# and the search's find=)
# with each pattern that crashed, grew or stalled a server when glibc's
# regcomp/regexec matched them, on a profile with names of 50,000
# characters. Each answer is 200, 400 (refused) or 503 (too expensive:
# the match's steps, counted, never the wall-clock budget of query_timeout,
# which is how a stalled match would end; so no check depends on the
# machine's speed), the server is the same process afterwards, it stayed
# small, and a menu asked meanwhile is answered.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

# 73 functions with a z in their names, and two of 50,000 characters.
awk 'BEGIN {
	a = "a"; for (i = 0; i < 16; i++) a = a a; a = substr(a, 1, 50000)
	for (i = 0; i < 73; i++) printf "main;fn%dz_%s;leaf%d 1\n", i,
	    substr(a, 1, i * 3), i
	printf "main;%sz;x 1\n", a
	printf "main;%s;y 1\n", a
}' >"$root/long.folded"

rdv_conf query_timeout=10
rdv_httpd

# uri STRING: percent-encoded.
uri() {
	jq -rn --arg s "$1" '$s | @uri'
}

# rss PID: resident set in KiB.
rss() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status"
}

code=$(rdv_get 'file=long.folded&cmd=menu&format=json')
check "the profile loads ($code)" test "$code" = 200
pid=$(rdv_pids)
check "one server" test -n "$pid"

bombs='(.*){1,32767}
(((.{255}){255}){255}){255}
(.{0,255}){255}z
(a|aa)*c
(a+)+$b
(a|aa)*(c|d)
(.*a){20}z'
maxms=0
maxrss=0
echo "$bombs" >"$tmp/bombs"
for key in focus ignore hide show; do
	while IFS= read -r re; do
		t0=$(rdv_ms)
		c=$(rdv_get "file=long.folded&cmd=top&format=json&$key=$(uri "$re")")
		ms=$(($(rdv_ms) - t0))
		[ "$ms" -gt "$maxms" ] && maxms=$ms
		case $c in
		200) good=1 ;;
		400 | 503) jq -e '.error.message | test("regex|node visits")' \
		    "$tmp/body" >/dev/null && good=1 || good= ;;
		*) good= ;;
		esac
		why=$(jq -r '.error.message // "answered"' "$tmp/body" \
		    2>/dev/null || :)
		check "$key=$re: $c in $ms ms ($why)" test -n "$good"
		r=$(rss "$pid" 2>/dev/null || echo 0)
		[ "$r" -gt "$maxrss" ] && maxrss=$r
	done <"$tmp/bombs"
done
# The search field's find= goes through the same bounded regexes.
while IFS= read -r re; do
	t0=$(rdv_ms)
	c=$(rdv_get "file=long.folded&cmd=search&format=json&find=$(uri "$re")")
	ms=$(($(rdv_ms) - t0))
	[ "$ms" -gt "$maxms" ] && maxms=$ms
	case $c in
	200) good=1 ;;
	503) jq -e '.error.message | test("regex|node visits")' \
	    "$tmp/body" >/dev/null && good=1 || good= ;;
	*) good= ;;
	esac
	check "cmd=search&find=$re: $c in $ms ms" test -n "$good"
done <"$tmp/bombs"
echo "# slowest answer $maxms ms, server RSS at most $maxrss KiB"
check "the same server throughout" test "$(rdv_pids)" = "$pid"
check "it stayed under 512 MiB ($maxrss KiB)" test "$maxrss" -lt 524288

# The two refused at compile time, whatever the key: 400.
for re in '(.*){1,32767}' '(((.{255}){255}){255}){255}'; do
	c=$(rdv_get "file=long.folded&cmd=top&format=json&focus=$(uri "$re")")
	check "$re refused: 400 ($c)" test "$c" = 400
done

# A bomb once a second for five seconds; menus meanwhile all answered.
(
	for i in 1 2 3 4 5; do
		rdv_get "file=long.folded&cmd=tree&format=json&hide=$(uri \
		    '(a+)+($b|c)')" >/dev/null
		sleep 1
	done
) &
bpid=$!
bad=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	c=$(curl -sS --max-time 60 -o /dev/null -w '%{http_code}' \
	    "$url?file=long.folded&cmd=menu&format=json" || echo 000)
	[ "$c" = 200 ] || bad=$((bad + 1))
	sleep 0.4
done
wait "$bpid"
check "10 menus beside a bomb a second: all answered ($bad failed)" \
    test "$bad" -eq 0

# Ordinary patterns still filter as before.
c=$(rdv_get "file=firefox.folded&cmd=top&format=json&limit=1000&show=$(uri '^[A-Z]')")
check "show=^[A-Z] answered ($c)" test "$c" = 200
check "every row it shows begins with a capital" jq -e \
    '[.rows[].name | test("^[A-Z]")] | all' "$tmp/body"
c=$(rdv_get "file=firefox.folded&cmd=top&format=json&focus=$(uri '\<js\>')")
check "focus=\\<js\\> (GNU word edges) answered ($c)" test "$c" = 200
c=$(rdv_get "file=firefox.folded&cmd=top&format=json&focus=$(uri '(a)\1')")
check "back references still refused: 400 ($c)" test "$c" = 400

check "the same server at the end" kill -0 "$pid"
rdv_stop
done_testing

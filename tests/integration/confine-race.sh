#!/bin/sh
# Path confinement under a race, through lighttpd and the real CGI: a
# user who can write one directory under profile_root exchanges it with
# a symbolic link to a directory outside (tests/unit/swapdir, renameat2
# RENAME_EXCHANGE in a loop) while hundreds of requests ask for a
# profile in it, as file= and as base=. Every answer is the inside
# profile or a refusal; no byte of the outside one is ever served.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${SWAPDIR:=$top_builddir/tests/unit/swapdir}"
[ -x "$SWAPDIR" ] || { echo "Bail out! build tests/unit/swapdir first"; exit 1; }

mkdir -p "$root/d" "$tmp/outside"
printf 'main;inside_only 5\n' >"$root/d/p.folded"
printf 'main;OUTSIDE_SECRET 7\n' >"$tmp/outside/p.folded"
printf 'main;other 3\n' >"$root/q.folded"
ln -s "$tmp/outside" "$root/e"
rdv_conf idle_timeout=60
rdv_httpd

n=${CONFINE_REQUESTS:-300}
"$SWAPDIR" "$root/d" "$root/e" 600 >"$tmp/swaps" &
echo $! >"$tmp/swapdir.pid"
sleep 0.2

# ask I: one request; its status and whether it leaked, on one line.
ask() {
	case $(($1 % 3)) in
	0) q='file=d/p.folded&cmd=top&format=text' ;;
	1) q='file=d/p.folded&cmd=tree&format=json' ;;
	*) q='file=q.folded&base=d/p.folded&cmd=top&format=text' ;;
	esac
	c=$(curl -sS --max-time 20 -o "$tmp/body.$1" -w '%{http_code}' \
	    "$url?$q" 2>/dev/null || echo 000)
	if grep -q OUTSIDE_SECRET "$tmp/body.$1"; then
		echo "$c leak"
	elif grep -q inside_only "$tmp/body.$1"; then
		echo "$c inside"
	else
		echo "$c refused"
	fi
	rm -f "$tmp/body.$1"
}
i=0
while [ "$i" -lt "$n" ]; do
	ask "$i" &
	p1=$!
	ask $((i + 1)) &
	p2=$!
	ask $((i + 2)) &
	p3=$!
	ask $((i + 3))
	wait "$p1" "$p2" "$p3"
	i=$((i + 4))
done >"$tmp/results"
kill "$(cat "$tmp/swapdir.pid")"
wait "$(cat "$tmp/swapdir.pid")" || :
swaps=$(cat "$tmp/swaps")
leaks=$(grep -c leak "$tmp/results" || :)
inside=$(grep -c inside "$tmp/results" || :)
refused=$(grep -c refused "$tmp/results" || :)
echo "# $(wc -l <"$tmp/results") requests during $swaps swaps: $inside" \
    "inside, $refused refused, $leaks outside"
sort "$tmp/results" | uniq -c | sed 's/^/# /'
check "the swapper ran ($swaps swaps)" test "${swaps:-0}" -gt 100
check "no outside byte in $n answers" test "$leaks" -eq 0
check "some answers got through the race ($inside)" test "$inside" -gt 0
check "every answer is a success or a 4xx/5xx refusal" sh -c \
    "! grep -v '^[2345][0-9][0-9] ' '$tmp/results'"
# Put them back as they were, then a plain request answers.
[ -L "$root/e" ] || { mv "$root/e" "$root/x"; mv "$root/d" "$root/e"; mv "$root/x" "$root/d"; }
c=$(rdv_get 'file=d/p.folded&cmd=top&format=text')
check "after the race: answered ($c)" sh -c \
    "[ '$c' = 200 ] && grep -q inside_only '$tmp/body'"
rdv_stop
done_testing

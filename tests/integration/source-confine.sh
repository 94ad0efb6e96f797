#!/bin/sh
# Source files are read only beneath the source roots of the server's
# configuration, through lighttpd and the real CGI: a profile that
# records paths with `..', absolute paths of files outside, a symbolic
# link to a directory outside and one to a file outside, gets a table of
# lines for each and never a byte of them; nothing is read without a
# source root; the query string cannot name one. A directory swapped
# for a link to one outside while the server is stopped between finding
# the file and opening it (the source-open test hook) fails the open,
# as does the file itself swapped for a link; and so does every request while a swapper exchanges them in a loop
# (tests/unit/swapdir, as confine-race.sh does for profiles).
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
need_test_hooks

: "${SWAPDIR:=$top_builddir/tests/unit/swapdir}"
[ -x "$SWAPDIR" ] || { echo "Bail out! build tests/unit/swapdir first"; exit 1; }

src=$tmp/src
out=$tmp/outside
mkdir -p "$src/app" "$src/d" "$out"
printf 'int inside_main;\nint main(void) { return 0; }\n' >"$src/app/main.c"
printf 'int inside_only;\n' >"$src/d/inner.c"
printf 'OUTSIDE_SECRET 1\nOUTSIDE_SECRET 2\n' >"$out/secret.c"
printf 'OUTSIDE_SECRET inner\n' >"$out/inner.c"
ln -s "$out" "$src/link"
ln -s "$out/secret.c" "$src/s.c"
ln -s "$out" "$src/e"
# A profile recording each kind of path (callgrind: fl= per function).
cat >"$root/p.callgrind" <<EOF
# callgrind format
version: 1
positions: line
events: Ir
fl=/build/app/main.c
fn=main
2 10
fl=../outside/secret.c
fn=dotdot
1 5
fl=$out/secret.c
fn=absolute
1 5
fl=/x/link/secret.c
fn=dirlink
2 5
fl=/x/s.c
fn=filelink
1 5
fl=/x/d/inner.c
fn=raced
1 5
fl=/x/app/swapped.c
fn=fileraced
1 5
EOF
printf 'int inside_swapped;\n' >"$src/app/swapped.c"

leaked() {
	grep -q OUTSIDE_SECRET "$tmp/body"
}

# Without a source root: nothing read, a table of lines.
rdv_conf idle_timeout=60
rdv_httpd
c=$(rdv_get 'file=p.callgrind&cmd=source&func=main&format=text')
check "no source root: a table of lines, and why ($c)" \
    sh -c "[ '$c' = 200 ] && grep -q 'no source root is configured' '$tmp/body' &&
    ! grep -q inside_main '$tmp/body'"
c=$(rdv_get 'file=p.callgrind&cmd=source&func=main&source_root=/')
check "the query string cannot name a source root ($c)" test "$c" = 400
rdv_stop

# With one, in deepq.conf: the server gets it from there.
rdv_conf idle_timeout=60 "source_root=$src"
c=$(rdv_get 'file=p.callgrind&cmd=source&func=main&format=html')
check "a recorded path found by its suffix under the root ($c)" \
    sh -c "[ '$c' = 200 ] && grep -q 'int inside_main;' '$tmp/body'"
for f in dotdot absolute dirlink filelink; do
	c=$(rdv_get "file=p.callgrind&cmd=source&func=$f&format=html")
	if [ "$c" = 200 ] && ! leaked && grep -q 'Source not shown' "$tmp/body"; then
		ok "$f: a table of lines, no byte from outside the root"
	else
		not_ok "$f: $c, $(grep -c OUTSIDE_SECRET "$tmp/body") leaked lines"
	fi
done
c=$(rdv_get 'file=p.callgrind&cmd=source&func=dirlink&format=text')
check "a link on the way is refused, and said so" \
    grep -q 'refused (a symbolic link' "$tmp/body"

# The directory swapped between the choice and the open: refused.
touch "$hooks/pause-source-open"
rdv_get 'file=p.callgrind&cmd=source&func=raced&format=html' >"$tmp/code" &
echo $! >"$tmp/get.pid"
if rdv_wait 20 rdv_paused source-open >/dev/null; then
	pid=$(rdv_paused source-open)
	rm -f "$hooks/pause-source-open"
	mv "$src/d" "$src/x" && mv "$src/e" "$src/d" && mv "$src/x" "$src/e"
	kill -CONT "$pid"
	wait "$(cat "$tmp/get.pid")" || :
	check "swapped for a link while paused: refused, nothing leaked ($(cat "$tmp/code"))" \
	    sh -c "[ \"\$(cat '$tmp/code')\" = 200 ] && ! grep -q OUTSIDE_SECRET '$tmp/body' &&
	    grep -q 'Source not shown' '$tmp/body'"
	mv "$src/d" "$src/x" && mv "$src/e" "$src/d" && mv "$src/x" "$src/e"
else
	rm -f "$hooks/pause-source-open"
	not_ok "the server never paused at source-open"
fi

# The file itself swapped for a link to one outside while paused.
touch "$hooks/pause-source-open"
rdv_get 'file=p.callgrind&cmd=source&func=fileraced&format=html' >"$tmp/code" &
echo $! >"$tmp/get.pid"
if rdv_wait 20 rdv_paused source-open >/dev/null; then
	pid=$(rdv_paused source-open)
	rm -f "$hooks/pause-source-open"
	ln -s "$out/secret.c" "$src/app/link.c"
	mv "$src/app/link.c" "$src/app/swapped.c"
	kill -CONT "$pid"
	wait "$(cat "$tmp/get.pid")" || :
	check "a file swapped for a link while paused: refused ($(cat "$tmp/code"))" \
	    sh -c "[ \"\$(cat '$tmp/code')\" = 200 ] && ! grep -q OUTSIDE_SECRET '$tmp/body' &&
	    grep -q 'Source not shown: refused' '$tmp/body'"
else
	rm -f "$hooks/pause-source-open"
	not_ok "the server never paused at source-open"
fi

# Hundreds of requests while a swapper exchanges d and e.
n=${CONFINE_REQUESTS:-100}
"$SWAPDIR" "$src/d" "$src/e" 600 >"$tmp/swaps" &
echo $! >"$tmp/swapdir.pid"
sleep 0.2
ask() {
	c=$(curl -sS --max-time 20 -o "$tmp/body.$1" -w '%{http_code}' \
	    "$url?file=p.callgrind&cmd=source&func=raced&format=html" \
	    2>/dev/null || echo 000)
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
	ask $((i + 1))
	wait "$p1"
	i=$((i + 2))
done >"$tmp/results"
kill "$(cat "$tmp/swapdir.pid")"
wait "$(cat "$tmp/swapdir.pid")" || :
leaks=$(grep -c leak "$tmp/results" || :)
inside=$(grep -c inside "$tmp/results" || :)
echo "# $(wc -l <"$tmp/results") requests during $(cat "$tmp/swaps") swaps: $inside inside, $leaks outside"
check "the swapper ran" test "$(cat "$tmp/swaps")" -gt 100
check "no outside byte in $n answers" test "$leaks" -eq 0
check "some answers showed the file ($inside)" test "$inside" -gt 0
check "every answer is a 200" sh -c "! grep -v '^200 ' '$tmp/results'"
rdv_stop

# Through a server the answers are --local's, from the processed-profile
# cache too (a pprof profile: its lines are a section of the cache).
cp "$top_srcdir/tests/data/pprof/cpu.pb" "$root/"
mkdir -p "$tmp/gosrc"
cp "$top_srcdir/tests/data/pprof/prog.go" "$tmp/gosrc/"
rdv_conf idle_timeout=60 "source_root=$tmp/gosrc"
for round in first cached; do
	for q in 'cmd=source&func=main.spin&format=json' \
	    'cmd=source&format=json&metric=samples' \
	    'cmd=source&func=main.recurse&format=text'; do
		c=$(rdv_get "file=cpu.pb&$q")
		(cd "$root" && "$DEEPQ" query --local --source "$tmp/gosrc" \
		    cpu.pb "$q") >"$tmp/local"
		check "$round: $q through the server is --local's ($c)" \
		    sh -c "[ '$c' = 200 ] && cmp -s '$tmp/body' '$tmp/local'"
	done
	c=$(rdv_get 'file=cpu.pb&cmd=status&format=json')
	[ "$round" = first ] || check "the second server loaded the cache" \
	    grep -q '"cached": *true' "$tmp/body"
	rdv_stop
done

# deepq web --source: the servers it starts read there.
[ -L "$src/e" ] || { mv "$src/e" "$src/x"; mv "$src/d" "$src/e"; mv "$src/x" "$src/d"; }
rdv_conf idle_timeout=60
"$DEEPQ" web --listen 127.0.0.1:0 --source "$src" --www "$top_srcdir/www" \
    "$root" >"$tmp/web.out" 2>"$tmp/web.err" &
echo $! >"$tmp/web.pid"
rdv_wait 10 grep -q 'http://' "$tmp/web.out" ||
    { echo "Bail out! deepq web does not start"; exit 1; }
web=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$tmp/web.out")
curl -sS -o "$tmp/body" "${web}?file=p.callgrind&cmd=source&func=main&format=html"
check "deepq web --source: the file shown" grep -q 'int inside_main;' "$tmp/body"
curl -sS -o "$tmp/body" "${web}?file=p.callgrind&cmd=source&func=dirlink&format=html"
check "deepq web --source: a link out refused" sh -c "! grep -q OUTSIDE_SECRET '$tmp/body'"
kill "$(cat "$tmp/web.pid")"
wait "$(cat "$tmp/web.pid")" || :
rdv_stop
done_testing

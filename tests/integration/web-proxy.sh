#!/bin/sh
# deepq web behind a web server's reverse proxy, configured as deepq(1)
# says (the lighttpd and nginx blocks are taken from the man page): pages
# and assets equal to deepq web's own, and the shutdown rules still hold,
# since they compare Origin with the Host the browser sent.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
: "${NGINX:=/usr/sbin/nginx}"
[ -x "$NGINX" ] || skip_all "nginx is not installed ($NGINX)"

rdv_web
wport=${web##*:}
wport=${wport%/}

# man_block START END: the lines of man/deepq.1 from the one starting
# with START to the next one starting with END, as written there.
man_block() {
	awk -v s="$1" -v e="$2" 'index($0, s) == 1 { on = 1 }
	    on { print } on && index($0, e) == 1 && !(index($0, s) == 1) {
	    exit }' "$top_srcdir/man/deepq.1"
}
man_block 'server.modules += ( "mod_proxy" )' '}' >"$tmp/lighttpd-proxy"
man_block 'location / {' '}' >"$tmp/nginx-proxy"
check "deepq(1) has the lighttpd block" grep -q 'proxy.server' \
    "$tmp/lighttpd-proxy"
check "deepq(1) has the nginx block" grep -q 'proxy_set_header Host' \
    "$tmp/nginx-proxy"

# serve NAME CONFIGURE COMMAND...: up to five tries of CONFIGURE (which
# picks free ports, writes the configuration and sets $probe, a URL the
# server will answer) and COMMAND in the background, until $probe
# answers; its pid in $tmp/NAME.pid, its standard error in
# $tmp/NAME.stderr.
serve() {
	_name=$1
	_configure=$2
	shift 2
	for _try in 1 2 3 4 5; do
		$_configure
		"$@" 2>>"$tmp/$_name.stderr" &
		echo $! >"$tmp/$_name.pid"
		rdv_wait 5 sh -c "kill -0 $! 2>/dev/null &&
		    curl -s -o /dev/null '$probe'" && return 0
		kill "$(cat "$tmp/$_name.pid")" 2>/dev/null || :
		rm -f "$tmp/$_name.pid"
	done
	echo "Bail out! $_name does not start: $(tail -3 "$tmp/$_name.stderr")"
	exit 1
}

# lighttpd: the man page's block, its port and deepq web's substituted.
lighttpd_conf() {
	lp=$(shuf -i 20000-60999 -n 1)
	pp=$(shuf -i 20000-60999 -n 1)
	{
		printf 'server.document-root = "%s"\n' "$tmp"
		printf 'server.bind = "127.0.0.1"\nserver.port = %s\n' "$lp"
		printf 'server.errorlog = "%s/lighttpd.err"\n' "$tmp"
		sed -e "s|\"127.0.0.1:8081\"|\"127.0.0.1:$pp\"|" \
		    -e "s|=> 8080|=> $wport|" "$tmp/lighttpd-proxy"
	} >"$tmp/lighttpd.conf"
	probe=http://127.0.0.1:$pp/
}
serve lighttpd lighttpd_conf "$LIGHTTPD" -D -f "$tmp/lighttpd.conf"

# nginx: the man page's location block in a server of its own.
ngx=$tmp/nginx
mkdir -p "$ngx"
nginx_conf() {
	np=$(shuf -i 20000-60999 -n 1)
	cat >"$ngx/nginx.conf" <<EOC
worker_processes 1;
pid $ngx/nginx.pid;
error_log $ngx/error.log;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path $ngx/client_body;
	proxy_temp_path $ngx/proxy;
	fastcgi_temp_path $ngx/fastcgi;
	uwsgi_temp_path $ngx/uwsgi;
	scgi_temp_path $ngx/scgi;
	server {
		listen 127.0.0.1:$np;
$(sed "s|127.0.0.1:8080|127.0.0.1:$wport|" "$tmp/nginx-proxy")
	}
}
EOC
	probe=http://127.0.0.1:$np/
}
serve nginx nginx_conf "$NGINX" -p "$ngx" -e "$ngx/error.log" \
    -c "$ngx/nginx.conf" -g 'daemon off;'

# The same bytes through each proxy as from deepq web itself.
for q in 'file=firefox.folded&cmd=top' 'file=firefox.folded&cmd=tree' \
    'file=firefox.folded&cmd=top&format=json' 'format=json'; do
	curl -s -o "$tmp/direct" "$web?$q"
	for via in "lighttpd http://127.0.0.1:$pp/" "nginx http://127.0.0.1:$np/"; do
		curl -s -o "$tmp/proxied" "${via#* }?$q"
		check "${via%% *}: $q as from deepq web" cmp "$tmp/direct" \
		    "$tmp/proxied"
	done
done
for via in "lighttpd http://127.0.0.1:$pp" "nginx http://127.0.0.1:$np"; do
	p=${via#* }
	check "${via%% *}: the stylesheet" sh -c "[ \$(curl -s -o /dev/null \
	    -w '%{http_code}' '$p/static/deepq.css') = 200 ]"
	# The page's shutdown form: a POST from the page's own origin.
	curl -s -o /dev/null "$p/?file=firefox.folded&cmd=top"
	code=$(curl -s -o "$tmp/body" -w '%{http_code}' -X POST -d '' \
	    -H "Origin: $p" -H 'Sec-Fetch-Site: same-origin' \
	    "$p/?file=firefox.folded&cmd=shutdown")
	check "${via%% *}: shutdown from the page's origin: 200 ($code)" \
	    test "$code" = 200
	rdv_wait 10 rdv_none
	check "${via%% *}: ...and the server is gone" rdv_none
	code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -d '' \
	    -H 'Origin: http://evil.example' \
	    "$p/?file=firefox.folded&cmd=shutdown")
	check "${via%% *}: shutdown from another origin: 403 ($code)" \
	    test "$code" = 403
done
check "nginx: no error in its log" \
    sh -c "! grep -i '\[error\]\|\[crit\]\|\[alert\]' '$ngx/error.log'"
done_testing

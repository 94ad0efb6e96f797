#!/bin/sh
# nginx with fcgiwrap and www/nginx-deepq.conf.in: private instances on
# 127.0.0.1 and a socket under $tmp, and the smoke queries of
# deploy-lib.sh. fcgiwrap runs one process (-c 1): a CGI whose forked
# deepq-server held it would stall the second request.
if [ -z "${DEPLOY_DEADLINE:-}" ]; then
	DEPLOY_DEADLINE=1
	export DEPLOY_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/deploy-lib.sh"
: "${NGINX:=/usr/sbin/nginx}"
: "${FCGIWRAP:=/usr/sbin/fcgiwrap}"
[ -x "$NGINX" ] || skip_all "nginx is not installed ($NGINX)"
[ -x "$FCGIWRAP" ] || skip_all "fcgiwrap is not installed ($FCGIWRAP)"

ngx=$tmp/nginx
mkdir -p "$ngx"
[ -z "$www_user" ] || chown "$www_user:$www_group" "$ngx"
cp /etc/nginx/fastcgi_params /etc/nginx/mime.types "$ngx/"
# The tests' sanitizer settings reach the CGI (fcgiwrap passes the
# FastCGI parameters only).
{
	deploy_subst "$top_srcdir/www/nginx-deepq.conf.in" |
	    sed "s|^	include fastcgi_params;|&\\
	fastcgi_param ASAN_OPTIONS \"${ASAN_OPTIONS:-}\";\\
	fastcgi_param UBSAN_OPTIONS \"${UBSAN_OPTIONS:-}\";|"
} >"$ngx/deepq-site.conf"

# fcgiwrap, as the web server's user, on a private socket.
if [ -n "$www_user" ]; then
	setpriv --reuid="$www_user" --regid="$www_group" --clear-groups \
	    "$FCGIWRAP" -c 1 -s "unix:$fcgi/fcgiwrap.sock" \
	    2>>"$logs/fcgiwrap.log" &
else
	"$FCGIWRAP" -c 1 -s "unix:$fcgi/fcgiwrap.sock" 2>>"$logs/fcgiwrap.log" &
fi
echo $! >"$tmp/fcgiwrap.pid"
n=0
while [ ! -S "$fcgi/fcgiwrap.sock" ] && [ $n -lt 200 ]; do
	kill -0 "$(cat "$tmp/fcgiwrap.pid")" 2>/dev/null || break
	sleep 0.05
	n=$((n + 1))
done
if [ ! -S "$fcgi/fcgiwrap.sock" ]; then
	echo "Bail out! fcgiwrap does not start: $(tail -3 "$logs/fcgiwrap.log")"
	exit 1
fi

started=
for try in 1 2 3 4 5; do
	port=$(deploy_port)
	cat >"$ngx/nginx.conf" <<EOC
worker_processes 1;
pid $ngx/nginx.pid;
error_log $logs/nginx-error.log;
${www_user:+user $www_user $www_group;}
events { worker_connections 64; }
http {
	include mime.types;
	access_log $logs/nginx-access.log;
	client_body_temp_path $ngx/client_body;
	proxy_temp_path $ngx/proxy;
	fastcgi_temp_path $ngx/fastcgi;
	uwsgi_temp_path $ngx/uwsgi;
	scgi_temp_path $ngx/scgi;
	server {
		listen 127.0.0.1:$port;
		server_name localhost;
		root $tmp/htdocs;
		include $ngx/deepq-site.conf;
	}
}
EOC
	if ! "$NGINX" -t -q -p "$ngx" -e "$logs/nginx-error.log" \
	    -c "$ngx/nginx.conf" >"$tmp/nginx.t" 2>&1; then
		echo "Bail out! nginx refuses the configuration: $(head -3 "$tmp/nginx.t")"
		exit 1
	fi
	"$NGINX" -p "$ngx" -e "$logs/nginx-error.log" -c "$ngx/nginx.conf" \
	    -g 'daemon off;' 2>>"$logs/nginx.stderr" &
	echo $! >"$tmp/nginx.pid"
	if deploy_up "$tmp/nginx.pid"; then
		started=1
		break
	fi
	kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || :
	wait "$(cat "$tmp/nginx.pid")" 2>/dev/null || :
done
if [ -z "$started" ]; then
	echo "Bail out! nginx does not start: $(tail -3 "$logs/nginx-error.log" "$logs/nginx.stderr" 2>/dev/null)"
	exit 1
fi
ok "nginx $("$NGINX" -v 2>&1 | sed -n 's/.*nginx\///p') and fcgiwrap -c 1 serve on 127.0.0.1:$port"
check "fcgiwrap runs" kill -0 "$(cat "$tmp/fcgiwrap.pid")"
deploy_smoke nginx "$logs/fcgiwrap.log"
check "nginx: no error in its log" \
    sh -c "! grep -i '\[error\]\|\[crit\]\|\[alert\]' '$logs/nginx-error.log'"
deploy_below nginx
done_testing

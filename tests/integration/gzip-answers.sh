#!/bin/sh
# deepq web's answers gzip-compressed when the client accepts it (curl
# --compressed: Content-Encoding, Vary, the same bytes decoded, the
# size ratio reported), none when it does not; its static files with
# validators and a lifetime (ETag, Last-Modified, Cache-Control), a 304
# for If-None-Match. (cgi-fastcgi.sh checks the CGI and FastCGI.)
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

cp "$top_srcdir/tests/data/samples/workload-fp.folded" "$root/"
rdv_web
q="${web}?file=workload-fp.folded&cmd=flame"
curl -s -o "$tmp/plain" "$q"
curl -s --compressed -D "$tmp/gz.h" -o "$tmp/gz" -w '%{size_download}' \
    "$q" >"$tmp/gz.n"
pb=$(wc -c <"$tmp/plain")
zb=$(cat "$tmp/gz.n")
ratio=$(awk -v p="$pb" -v z="$zb" 'BEGIN { printf "%.1f", p / z }')
check "deepq web: gzip when accepted ($pb bytes as $zb, ratio $ratio)" \
    grep -qi '^content-encoding: gzip' "$tmp/gz.h"
check "  Vary: Accept-Encoding" grep -qi '^vary: accept-encoding' "$tmp/gz.h"
check "  the same page decoded" cmp -s "$tmp/plain" "$tmp/gz"
curl -s -D "$tmp/id.h" -o /dev/null -H 'Accept-Encoding: gzip;q=0' "$q"
check "  none for gzip;q=0" sh -c "! grep -qi '^content-encoding' \
    '$tmp/id.h'"

for f in deepq.css deepq.js flame.js; do
	curl -s -D "$tmp/s.h" -o "$tmp/s" "${web}static/$f"
	check "static $f: the file" cmp -s "$tmp/s" "$top_srcdir/www/$f"
	check "  ETag, Last-Modified, a lifetime" sh -c "grep -qi '^etag: ' \
	    '$tmp/s.h' && grep -qi '^last-modified: ' '$tmp/s.h' &&
	    grep -qi '^cache-control: public, max-age=[1-9]' '$tmp/s.h'"
	etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: //p' "$tmp/s.h" | tr -d '\r')
	code=$(curl -s -o /dev/null -w '%{http_code}' \
	    -H "If-None-Match: $etag" "${web}static/$f")
	check "  304 for its ETag" test "$code" = 304
done
kill -INT "$(cat "$tmp/web.pid")"
rm -f "$tmp/web.pid"
rdv_stop
done_testing

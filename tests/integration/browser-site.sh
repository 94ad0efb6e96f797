#!/bin/sh
# The site in headless Chromium (tests/browser/site.mjs, playwright-core
# driving /usr/bin/chromium) against deepq web, then against deepq.cgi
# under lighttpd (listing its profiles, index_entries), with real
# servers: a crawl of every link from several profiles' summaries (all
# 200, every page and the error pages link to the index), a transform
# kept by every header link and cleared from the state bar, the search
# field, the tree expanded in place, flame frames, the metric switch,
# comparisons from the index and a summary, the shutdown button (a
# cross-site form refused), and a load in progress (held at a test hook)
# that turns into the page. Screenshots go to tests/browser-out/ (and
# its cgi/).
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 1100 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

: "${CHROMIUM:=/usr/bin/chromium}"
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
[ -x "$CHROMIUM" ] || skip_all "no Chromium at $CHROMIUM"
script=$top_srcdir/tests/browser/site.mjs
if [ ! -d "$top_srcdir/tests/browser/node_modules/playwright-core" ] &&
    [ -d "${DEEPQ_NODE_MODULES:-/nonexistent}/playwright-core" ]; then
	mkdir "$tmp/browser"
	cp "$script" "$tmp/browser/"
	ln -s "$DEEPQ_NODE_MODULES" "$tmp/browser/node_modules"
	script=$tmp/browser/site.mjs
fi
[ -d "${script%/*}/node_modules/playwright-core" ] ||
    skip_all "playwright-core missing (cd tests/browser && npm ci)"

for f in cliques.folded diff-old.folded diff-new.folded ghc-small.prof \
    samples/workload-fp.folded v8-small.cpuprofile \
    example.callgrind; do
	cp "$top_srcdir/tests/data/$f" "$root/"
done
# Functions of a module with a long path (a JVM's), as perf names them.
printf '%s\n' \
    '/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so`JVM_Sleep;/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so`os::naked_short_sleep 30' \
    '/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so`JVM_Sleep;/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so`Thread::call_run 20' \
    '/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so`JVM_Sleep 5' \
    >"$root/jvm.folded"
export CHROMIUM

# site FRONT URL OUTDIR [BUDGET]: site.mjs against URL (BUDGET pages a
# profile in its crawl), its TAP relayed, each test named by the front end.
site() {
	mkdir -p "$3"
	HOME=$tmp SITE_CRAWL_BUDGET=${4:-} timeout -k 10 500 \
	    node "$script" "$2" "$3" >"$tmp/site.tap" \
	    2>&1 || :
	grep -q '^ok' "$tmp/site.tap" || not_ok "$1: the browser test ran"
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$1: ${line#ok * - }" ;;
		"not ok "*) not_ok "$1: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$tmp/site.tap"
}

out=$top_builddir/tests/browser-out
rdv_web
wpid=$(cat "$tmp/web.pid")
site web "$web" "$out"
kill -INT "$wpid"
rdv_wait 10 rdv_gone "$wpid" || :
rm -f "$tmp/web.pid"
rdv_stop

# The same under the CGI: its own list of profiles, the assets served by
# lighttpd.
mkdir -p "$tmp/www/static"
cp "$top_srcdir"/www/deepq.css "$top_srcdir"/www/deepq.js \
    "$top_srcdir"/www/flame.js "$top_srcdir"/www/deepq-timeline.js \
    "$top_srcdir"/www/favicon.svg "$tmp/www/static/"
rdv_conf static_url=/static/ index_entries=100
rdv_httpd
# The crawl a third as deep: deepq web's crawl has followed every kind of
# link already, and the CGI answers with the same engine; this one shows
# its front end answers each kind 200.
site cgi "$url" "$out/cgi" 40
rdv_stop
done_testing

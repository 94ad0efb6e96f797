#!/bin/sh
# Remake the README's screenshots (www/screenshots/*.png): deepq web over
# a copy of tests/data on a free loopback port, with a private runtime
# directory, and tests/browser/screenshots.mjs in headless Chromium.
# Run from the build directory after `make'; needs node, Chromium and
# playwright-core (cd tests/browser && npm ci).
set -eu
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'kill $web 2>/dev/null || :; sleep 0.5; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/profiles" "$tmp/run"
chmod 700 "$tmp/run"
cp "$top_srcdir"/tests/data/*.folded "$top_srcdir"/tests/data/*.prof \
    "$top_srcdir/tests/data/samples/workload-fp.folded" \
    "$top_srcdir/tests/data/pprof/cpu.pb" "$tmp/profiles/"
# Recordings with times: a Chromium startup trace (46 threads, 10 s)
# and a Firefox profile.
cp "$top_srcdir/tests/data/timeline/chromium-startup.json.xz" \
    "$top_srcdir/tests/data/json/firefox-gecko.json" "$tmp/profiles/"
# A module with a long path, as perf names a JVM's.
m=/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so
printf '%s\n' "$m\`JVM_Sleep;$m\`os::naked_short_sleep 30" \
    "$m\`JVM_Sleep;$m\`Thread::call_run 20" "$m\`JVM_Sleep 5" \
    >"$tmp/profiles/jvm.folded"
cat >"$tmp/deepq.conf" <<CONF
profile_root = $tmp/profiles
runtime_dir = $tmp/run
server_path = $(cd "$top_builddir" && pwd)/server/deepq-server
idle_timeout = 60
CONF
DEEPQ_CONFIG=$tmp/deepq.conf "$top_builddir/cli/deepq" web \
    --listen 127.0.0.1:0 --www "$top_srcdir/www" \
    --source "$top_srcdir/tests/data/pprof" "$tmp/profiles" \
    >"$tmp/web.out" 2>&1 &
web=$!
i=0
while ! grep -q 'http://' "$tmp/web.out"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$tmp/web.out"; exit 1; }
	sleep 0.1
done
url=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$tmp/web.out")
HOME=$tmp node "$top_srcdir/tests/browser/screenshots.mjs" "$url" \
    "$top_srcdir/www/screenshots"
for pid in $(pgrep -f "deepq-server .* -r $tmp/run" || :); do
	kill "$pid"
done

#!/bin/sh
# Remakes the Chrome, node and Firefox files of this directory with the
# real tools (chromium, node, firefox-esr, jq); see README. Run from
# anywhere: sh tests/data/json/make.sh. The outputs differ from run to
# run (times, pids); the tests compute their expected totals from the
# files themselves.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/page.html" <<'HTML'
<!doctype html><html><body><p id=o>x</p><script>
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function work() { let s = 0; for (let i = 0; i < 20; i++) s += fib(22); return s; }
document.getElementById('o').textContent = work();
</script></body></html>
HTML
cat >"$tmp/work.js" <<'JS'
const fs = require('fs');
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function work() { let s = 0; for (let i = 0; i < 5; i++) s += fib(22); return s; }
setTimeout(() => { fs.writeFileSync(__dirname + '/out.txt', String(work())); }, 10);
JS

# chromium: a startup trace with the V8 sampler and the DevTools timeline;
# kept: the renderer that ran the page (its metadata, CPU profile and
# timeline slices of its main thread).
chromium --headless --no-sandbox --disable-gpu \
    --disable-background-networking --disable-extensions \
    --trace-startup=disabled-by-default-v8.cpu_profiler,devtools.timeline \
    --trace-startup-format=json --trace-startup-file="$tmp/chrome.json" \
    --trace-startup-duration=2 --screenshot="$tmp/shot.png" \
    --window-size=200,200 "file://$tmp/page.html" >/dev/null 2>&1
jq -c --arg page "file://$tmp/page.html" '
    (.traceEvents | map(select(.name == "ProfileChunk" and
        ([.args.data.cpuProfile.nodes[]?.callFrame.url] | index($page))))
        | .[0].pid) as $pid
    | (.traceEvents | map(select(.name == "Profile" and .pid == $pid))
        | .[0].tid) as $tid
    | {traceEvents: [.traceEvents[] | select(.pid == $pid and
        (.ph == "M" or .name == "Profile" or .name == "ProfileChunk" or
         (.tid == $tid and (.ph == "X" or .ph == "B" or .ph == "E"))))]}
    | walk(if type == "string" then sub($page; "file:///tmp/page.html")
        else . end)' "$tmp/chrome.json" >"$here/chrome-trace.json"

# node: trace events (B/E and X) of a small script.
(cd "$tmp" && node --trace-events-enabled \
    --trace-event-categories v8,node,node.async_hooks,node.fs.sync work.js)
jq -c '.' "$tmp/node_trace.1.log" >"$here/node-trace.json"

# firefox-esr: a Gecko profile of the page, written at shutdown (the
# main thread of each process, JS frames and labels, 1 ms interval).
mkdir "$tmp/ff"
MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_SHUTDOWN="$tmp/gecko.json" \
    MOZ_PROFILER_STARTUP_INTERVAL=1 MOZ_PROFILER_STARTUP_FEATURES=js \
    MOZ_PROFILER_STARTUP_FILTERS=GeckoMain HOME="$tmp/ff" \
    timeout 60 firefox-esr --headless --profile "$tmp/ff" \
    --screenshot "$tmp/ff/shot.png" "file://$tmp/page.html" \
    >/dev/null 2>&1
# Kept: the meta of the parent process and the one content process that
# ran the page (the most frames naming it), its markers emptied; the
# parent's threads dropped (most of the file), its libs with them.
jq -c --arg page "file://$tmp/page.html" '
    def hits: [.threads[].stringTable[] | select(contains($page))] | length;
    .threads = [] | .libs = [] | del(.profilingLog)
    | .meta.markerSchema = []
    | .processes = [.processes | max_by(hits)
        | .threads |= map(.markers.data = []) | .meta.markerSchema = []
        | del(.profilingLog)]
    | walk(if type == "string" then sub($page; "file:///tmp/page.html")
        else . end)' "$tmp/gecko.json" >"$here/firefox-gecko.json"
ls -l "$here"

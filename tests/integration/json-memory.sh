#!/bin/sh
# The JSON readers stream (issue 34): a generated 50 MB Chrome trace (a
# DevTools Performance recording's shape, bench/gen-big-json.py: nested
# X slices interleaved with a CPU profile's chunks) loads under a memory
# limit of twice its size, all its samples counted. The jansson readers
# held the document tree, some ten times the file. The limit: the
# address space (ulimit -v) in a plain build; in an AddressSanitizer
# build, whose shadow memory takes terabytes of address space, ASan's
# own hard_rss_limit_mb (its quarantine off, so that freed memory is
# not counted) and the peak RSS the kernel reports for the process.
. "${0%/*}/../lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"

mb=50
python3 "$top_srcdir/bench/gen-big-json.py" chrome "$mb" >"$tmp/trace.json" \
    2>"$tmp/gen"
size=$(stat -c %s "$tmp/trace.json")
samples=$(sed -n 's/.*bytes, \([0-9]*\) samples$/\1/p' "$tmp/gen")
limit=$((2 * size / 1024))

# run: deepq's menu of the trace under the limit; its peak RSS in KiB
# in $tmp/rss (getrusage of the child, as the kernel counted it).
run() {
	python3 -c '
import resource, subprocess, sys
limit, out = int(sys.argv[1]), open(sys.argv[2], "w")
asan = "libasan" in subprocess.run(["ldd", sys.argv[3]],
    capture_output=True, text=True).stdout
def lim():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (limit * 1024, limit * 1024))
env = None
if asan:
    import os
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
        ":hard_rss_limit_mb=%d:quarantine_size_mb=0" % (limit // 1024))
rc = subprocess.run(sys.argv[3:], stdout=out, preexec_fn=lim, env=env
    ).returncode
open(sys.argv[2] + ".rss", "w").write("%d\n" %
    resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)
' "$limit" "$tmp/menu.json" "$DEEPQ" query --local "$tmp/trace.json" \
	    'format=json' 2>"$tmp/err"
}

echo "1..3"
if run; then
	ok "a $((size / 1000000)) MB Chrome trace loads within $((limit / 1024)) MiB"
else
	not_ok "a $((size / 1000000)) MB Chrome trace loads within $((limit / 1024)) MiB"
	sed 's/^/# /' "$tmp/err" | head -3
fi
rss=$(cat "$tmp/menu.json.rss")
echo "# peak RSS $rss KiB for a file of $((size / 1024)) KiB"
check "peak RSS $rss KiB <= $limit KiB" test "$rss" -le "$limit"
got=$(sed -n 's/.*"totals":{"samples":\([0-9]*\).*/\1/p' "$tmp/menu.json")
check "all $samples samples read (menu: ${got:-none})" \
    test "${got:-0}" = "$samples"
[ "$tap_failed" -eq 0 ]

#!/bin/sh
# CPU time (user + sys) and page faults of deepq.cgi per warm request:
# what one request costs the machine on the CGI's side, besides the
# server's work. The CGI runs directly with a CGI environment (as
# lighttpd's mod_cgi runs it), its output read from a pipe; the times
# and faults are its own, from wait4(2), so the web server, the reader
# and the shared server are not counted. With BASELINE (a built tree,
# such as a release build of main) the two CGIs alternate, round by
# round, against the same running server, and the ratio is printed.
#
#	BASELINE=/tmp/rel-main sh bench/cgi-cpu.sh [profile] [rounds] [each]
#
# Run from the top of a built tree (or set top_builddir); build both
# with the same CFLAGS (e.g. -O2 -g, no --enable-debug). The profile
# defaults to tests/data/firefox.folded; on a generated million-node
# profile (bench/genprof -s wide -n 1000000) the pages are a tree page
# (cmd=tree, HTML, 77 KB), a top page (cmd=top, HTML, 11 KB) and a
# 1.9 MB answer (cmd=tree&budget=13500&format=json), and as the floor,
# a request the CGI refuses itself (400). Needs python3.

set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
server=$top_builddir/server/deepq-server
cgi=$top_builddir/cgi/deepq.cgi
deepq=$top_builddir/cli/deepq
profile=${1:-$top_srcdir/tests/data/firefox.folded}
rounds=${2:-20}
per=${3:-25}		# requests per CGI in each round
for f in "$server" "$cgi" "$deepq"; do
	[ -x "$f" ] || { echo "cgi-cpu: $f is missing" >&2; exit 1; }
done
base=
if [ -n "${BASELINE:-}" ]; then
	base=$BASELINE/cgi/deepq.cgi
	[ -x "$base" ] || { echo "cgi-cpu: $base is missing" >&2; exit 1; }
fi
command -v python3 >/dev/null 2>&1 ||
    { echo "cgi-cpu: python3 is needed" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
. "$top_srcdir/bench/lib.sh"
rundir=$(bench_rundir "$tmp")
cleanup() {
	DEEPQ_CONFIG=$tmp/deepq.conf "$deepq" stop --all 2>/dev/null || :
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

mkdir -p "$tmp/root"
name=${profile##*/}
# A hard link where it can be (the profile root refuses symlinks out).
ln "$profile" "$tmp/root/$name" 2>/dev/null || cp "$profile" "$tmp/root/"
cat >"$tmp/deepq.conf" <<EOF
profile_root = $tmp/root
runtime_dir = $rundir
server_path = $server
idle_timeout = 600
load_wait = 60
query_timeout = 60
EOF
export DEEPQ_CONFIG="$tmp/deepq.conf"

# The server loads once; every page is answered once before measuring,
# so the server's answer cache serves the measured requests.
"$deepq" query "$tmp/root/$name" cmd=menu >/dev/null

python3 - "$cgi" "$base" "$name" "$rounds" "$per" <<'EOF'
import os, shutil, statistics, subprocess, sys

cgi, base, name, rounds, per = sys.argv[1:6]
rounds, per = int(rounds), int(per)
# The last: the CGI's start and exit alone, a request it refuses itself
# (no file=) without touching the runtime directory.
pages = [("tree page", "file=%s&cmd=tree", 200),
    ("top page", "file=%s&cmd=top", 200),
    ("1.9 MB answer", "file=%s&cmd=tree&budget=13500&format=json", 200),
    ("refused request, no server contact", "cmd=top", 400)]
bins = [("new", cgi)] + ([("base", base)] if base else [])

def cgienv(query):
    return {"PATH": "/usr/bin:/bin", "DEEPQ_CONFIG":
        os.environ["DEEPQ_CONFIG"], "GATEWAY_INTERFACE": "CGI/1.1",
        "REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1",
        "QUERY_STRING": query.replace("%s", name)}

def run(path, query, want):
    """One request: (cpu ms, minor + major faults, output)."""
    env = cgienv(query)
    r, w = os.pipe()
    # posix_spawn (vfork): a fork of this interpreter would charge the
    # child with copying its page tables and faults before the exec.
    pid = os.posix_spawn(path, [path], env, file_actions=[
        (os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_CLOSE, r),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)])
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 20)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, ru = os.wait4(pid, 0)
    out = b"".join(chunks)
    if not out.startswith(b"Status: %d" % want):
        sys.exit("cgi-cpu: %s %s: %r" % (path, query, out[:200]))
    return ((ru.ru_utime + ru.ru_stime) * 1000, ru.ru_minflt +
        ru.ru_majflt, out)

def exceptions(path, query):
    """
    Page faults taken as exceptions (perf's page-faults event), median of
    5, or None without a working perf. getrusage also counts the pages
    that madvise(MADV_POPULATE_WRITE) makes present, in one call.
    """
    if shutil.which("perf") is None:
        return None
    v = []
    for _ in range(5):
        p = subprocess.run(["perf", "stat", "-x,", "-e", "page-faults",
            path], env=cgienv(query), stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        f = p.stderr.strip().splitlines()[-1:] if p.stderr else []
        if not f or not f[0].split(",")[0].isdigit():
            return None
        v.append(int(f[0].split(",")[0]))
    return statistics.median(v)

print("deepq.cgi CPU per warm request, %s, %d rounds of %d requests, "
    "%d CPUs, load average %s" % (name, rounds, per, os.cpu_count(),
    " ".join(open("/proc/loadavg").read().split()[:3])))
for label, query, want in pages:
    outs = {}
    for b, path in bins:
        outs[b] = run(path, query, want)[2]
    if base and outs["new"] != outs["base"]:
        sys.exit("cgi-cpu: %s: the two CGIs answer differently" % label)
    cpu = {b: [] for b, _ in bins}
    flt = {b: [] for b, _ in bins}
    for i in range(rounds):
        order = bins if i % 2 == 0 else bins[::-1]
        for b, path in order:
            t = f = 0
            for _ in range(per):
                c, n, _o = run(path, query, want)
                t += c
                f += n
            cpu[b].append(t / per)
            flt[b].append(f / per)
    body = len(outs["new"].split(b"\n\n", 1)[1])
    print("%s (%s, %d bytes):" % (label, query.replace("%s", name),
        body))
    for b, path in bins:
        e = exceptions(path, query)
        print("  %-4s  CPU %.3f ms (median of rounds; mean %.3f, "
            "min %.3f), page faults %.1f (rusage), %s (perf)" % (b,
            statistics.median(cpu[b]), statistics.mean(cpu[b]),
            min(cpu[b]), statistics.median(flt[b]),
            "?" if e is None else "%d" % e))
    if base:
        print("  new/base: CPU %.2f, page faults %.2f" % (
            statistics.median(cpu["new"]) / statistics.median(cpu["base"]),
            statistics.median(flt["new"]) / statistics.median(flt["base"])))
EOF

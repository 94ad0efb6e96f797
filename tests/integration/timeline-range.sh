#!/bin/sh
# range= and thread= against an independent pre-filter: for real
# recordings of four formats (a perf script of a recording made here with
# perf record, a .cpuprofile made here with node --cpu-prof, a Chrome
# trace's CPU profile and its timeline slices, tests/data/json), cmd=top
# and the folded export of the recording with range= (four ranges) or
# thread= equal those of the recording cut by timeline-prefilter.py,
# which reads the files on its own, function by function and stack by
# stack. Over the whole recording (no range=), the answers are those of
# the file itself.
. "${0%/*}/../lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed"
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
# The interpreter itself, not a version manager's shim run each time.
py=$(python3 -c 'import sys; print(sys.executable)')
cc=${CC:-cc}
pre=$top_srcdir/tests/integration/timeline-prefilter.py
pagebench=$top_builddir/bench/pagebench
data=$top_srcdir/tests/data

# The recordings, made here with the real tools.
$cc -O0 -g -fno-omit-frame-pointer -pthread -o "$tmp/phases" \
    "$data/timeline/phases.c"
if ! perf record -q -e cpu-clock -F 499 -g -o "$tmp/perf.data" \
    "$tmp/phases" 0.25 >"$tmp/perf.err" 2>&1; then
	sed 's/^/# /' "$tmp/perf.err"
	skip_all "perf record cannot record here"
fi
perf script -F +pid -i "$tmp/perf.data" >"$tmp/rec.perf" 2>/dev/null
cat >"$tmp/work.js" <<'EOF'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function phaseA(ms) { const e = Date.now() + ms; let x = 0; while (Date.now() < e) x += fib(14); return x; }
function phaseB(ms) { const e = Date.now() + ms; let s = ""; while (Date.now() < e) s = JSON.stringify({ a: [1, 2, 3], n: s.length }); return s; }
phaseA(150); phaseB(150); phaseA(100);
EOF
(cd "$tmp" && node --cpu-prof --cpu-prof-dir="$tmp/prof" \
    --cpu-prof-interval 250 work.js)
mv "$tmp"/prof/*.cpuprofile "$tmp/rec.cpuprofile"
cp "$data/json/chrome-trace.json" "$tmp/rec-trace.json"
# The same trace's timeline slices alone: read as events.
"$py" -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["traceEvents"] = [e for e in d["traceEvents"] if e.get("ph") != "P"]
json.dump(d, sys.stdout)' "$data/json/chrome-trace.json" >"$tmp/rec-slices.json"

# top's functions with a value (name, module, self and total of the
# first metric) and the folded stacks, sorted: what is compared.
norm_top() {
	"$py" -c 'import json, sys
j = json.load(sys.stdin)
m = j["metric"]
for r in j["rows"]:
    if r["total"][m] or r["self"][m]:
        print("%s`%s\t%d\t%d" % (r["module"], r["name"], r["self"][m],
            r["total"][m]))' | sort
}

# compare NAME KIND FILE A B THREAD
compare() {
	name=$1 kind=$2 file=$3 a=$4 b=$5 th=$6
	q=
	[ "$a" = - ] || q="&range=$a,$b"
	[ "$th" = - ] || q="$q&thread=$(printf '%s' "$th" | jq -sRr @uri)"
	"$py" "$pre" "$kind" "$file" "$a" "$b" "$th" >"$tmp/cut" || {
		not_ok "$name: the pre-filter failed"
		return
	}
	cp "$tmp/cut" "$tmp/cut.${file##*.}"
	# One process a file: its top (answer 0) and folded export (1).
	rm -rf "$tmp/got" "$tmp/want"
	mkdir "$tmp/got" "$tmp/want"
	"$pagebench" -r 2 -o "$tmp/got" "$file" \
	    "cmd=top&limit=1000000&format=json$q" \
	    "cmd=folded&format=folded$q" >/dev/null
	"$pagebench" -r 2 -o "$tmp/want" "$tmp/cut.${file##*.}" \
	    "cmd=top&limit=1000000&format=json" \
	    "cmd=folded&format=folded" >/dev/null
	norm_top <"$tmp/got/0" >"$tmp/got.top"
	norm_top <"$tmp/want/0" >"$tmp/want.top"
	sort "$tmp/got/1" >"$tmp/got.folded"
	sort "$tmp/want/1" >"$tmp/want.folded"
	if cmp -s "$tmp/got.top" "$tmp/want.top" &&
	    cmp -s "$tmp/got.folded" "$tmp/want.folded"; then
		ok "$name: top ($(wc -l <"$tmp/want.top") functions) and folded ($(wc -l <"$tmp/want.folded") stacks) equal the pre-filtered file's"
		[ -s "$tmp/want.top" ] || empty=$((empty + 1))
	else
		not_ok "$name: differs from the pre-filtered file"
		diff "$tmp/want.top" "$tmp/got.top" | head -10 | sed 's/^/# /'
		diff "$tmp/want.folded" "$tmp/got.folded" | head -6 |
		    cut -c1-200 | sed 's/^/# /'
	fi
}

# Four ranges of each recording: its start, its middle, a thin slice,
# nearly all of it (read as the whole less what lies outside).
# ranges FILE: "A1 B1 A2 B2 ..." from the recording's length.
ranges() {
	"$DEEPQ" query --local "$1" 'cmd=menu&format=json' | "$py" -c '
import json, sys
d = json.load(sys.stdin)["time"]["duration"]
r = [(0, 0.4), (0.3, 0.8), (0.55, 0.6), (0.05, 0.97)]
print(" ".join("%.6f %.6f" % (round(x * d, 6), round(y * d, 6)) for x, y in r))'
}

# A thin slice may fall in a sampler's pause: empty, as the cut file.
empty=0
for rec in "perf rec.perf" "v8 rec.cpuprofile" "chrome rec-trace.json" \
    "events rec-slices.json"; do
	set -- $rec
	kind=$1 file=$tmp/$2
	set -- $(ranges "$file")
	while [ $# -ge 2 ]; do
		compare "$kind: range=$1,$2" "$kind" "$file" "$1" "$2" -
		shift 2
	done
	compare "$kind: the whole recording" "$kind" "$file" - - -
done

check "at most a few ranges were empty ($empty)" test "$empty" -le 3

# Threads: each of perf's two (by name), and the trace's main thread.
compare "perf: thread=worker" perf "$tmp/rec.perf" - - worker
compare "perf: thread=phases" perf "$tmp/rec.perf" - - phases
set -- $(ranges "$tmp/rec.perf")
compare "perf: thread=worker, range=$3,$4" perf "$tmp/rec.perf" "$3" "$4" \
    worker
compare "chrome: thread=CrRendererMain" chrome "$tmp/rec-trace.json" - - \
    CrRendererMain
compare "events: thread=CrRendererMain, range=$1,$2" events \
    "$tmp/rec-slices.json" "$1" "$2" CrRendererMain

# A range of a thread the recording does not have, of a format without
# times: refused with the reason.
"$DEEPQ" query --local "$tmp/rec.perf" 'cmd=top&thread=nosuch&format=json' \
    >"$tmp/out" 2>&1 || :
check "thread=nosuch: 404, no such thread" grep -q 'no such thread' "$tmp/out"
"$DEEPQ" query --local "$data/cliques.folded" 'cmd=top&range=0,1' \
    >"$tmp/out" 2>&1 || :
check "range= of a folded file: refused, no times" grep -q 'records no times' \
    "$tmp/out"
done_testing

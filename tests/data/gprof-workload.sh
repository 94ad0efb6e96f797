#!/bin/sh
# Makes gprof-workload.txt (gprof's default output: the flat profile and
# the call graph, with their explanations), gprof-workload-q.txt (gprof
# -q -b: the call graph alone) and gprof-workload-lines.txt (gprof -p -l
# -b: the flat profile by line) from gprof-workload.c, a small
# program with recursion and a cycle of mutual recursion, built with
# gcc -pg; for gprof.sh.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -pg -o "$tmp/workload" "$dir/gprof-workload.c"
(cd "$tmp" && ./workload 20 >/dev/null)
gprof "$tmp/workload" "$tmp/gmon.out" >"$dir/gprof-workload.txt"
gprof -q -b "$tmp/workload" "$tmp/gmon.out" >"$dir/gprof-workload-q.txt"
gprof -p -l -b "$tmp/workload" "$tmp/gmon.out" \
    >"$dir/gprof-workload-lines.txt"

#!/bin/sh
# Makes cpython-json.callgrind.gz: CPython (Debian's python3.11, whose
# binary has no symbols for its static functions, which callgrind names
# by address) under callgrind, encoding and decoding JSON; a call graph
# of 2,200 functions with deep recursion levels (f'2) and cycles through
# them, for callgraph.sh.
set -eu
out=${1:-cpython-json.callgrind}
valgrind -q --tool=callgrind --callgrind-out-file="$out" /usr/bin/python3 -c '
import json
d = {"k%d" % i: [i, str(i), {"x": i * 0.5}] for i in range(300)}
for _ in range(20):
    d = json.loads(json.dumps(d))
'
gzip -9nf "$out"

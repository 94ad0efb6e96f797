#!/bin/sh
# gen-wide.sh OUT [FANOUT [DEPTH]]: write a folded-stacks profile whose
# calling-context tree is FANOUT^1 + ... + FANOUT^DEPTH call nodes below
# app`main (default 10 and 6: 1,111,110 nodes), one line per leaf with a
# weight from 1 to 100 (fixed seed, so the file is the same every time).
# Each node's function is chosen by a hash of its path from a pool: the
# first two levels from 100 "driver" functions, deeper ones from 5,000
# library functions in 40 modules, so functions recur at many depths
# (recursion, cliques) as they do in real programs.
set -eu
out=$1
fan=${2:-10}
depth=${3:-6}
awk -v F="$fan" -v D="$depth" 'BEGIN {
	srand(42)
	n = F ^ D
	for (i = 0; i < n; i++) {
		x = i
		h = 0
		line = "app`main"
		for (l = 0; l < D; l++) {
			# The most significant digit first: siblings share a prefix.
			d = int(x / F ^ (D - 1 - l)) % F
			h = (h * 131 + d + 17 * l + 7) % 2147483629
			if (l < 2)
				id = h % 100
			else
				id = 100 + h % 5000
			line = line ";m" (id % 40) "`f" id
		}
		print line, 1 + int(rand() * 100)
	}
}' >"$out"

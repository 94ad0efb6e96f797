#!/bin/sh
# The flame page's weight against the profile's size: for generated
# profiles of 10^4 to 10^6 call nodes (bench/genprof), the bytes and the
# elements of the flame page (budget: 1 MB, 10,000 nodes), its gzip
# size and ratio, and the SVG file's bytes beside it.
#
#   sh bench/page-weight.sh [BUILDDIR]
set -eu
b=${1:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %-24s %10s %9s %9s %7s %10s\n' nodes query bytes elements \
    gzip ratio svg-bytes
for n in 10000 100000 1000000; do
	"$b/bench/genprof" -s mixed -n "$n" >"$tmp/p.folded"
	for q in 'cmd=flame' 'cmd=flame&t=1~inv'; do
		"$b/cli/deepq" query --local "$tmp/p.folded" "$q" >"$tmp/p.html"
		"$b/cli/deepq" query --local "$tmp/p.folded" "$q&format=svg" \
		    >"$tmp/p.svg"
		bytes=$(wc -c <"$tmp/p.html")
		gz=$(gzip -6 -c "$tmp/p.html" | wc -c)
		printf '%-10s %-24s %10s %9s %9s %7s %10s\n' "$n" "$q" \
		    "$bytes" "$(grep -o '<[a-zA-Z]' "$tmp/p.html" | wc -l)" \
		    "$gz" "$(awk -v b="$bytes" -v g="$gz" 'BEGIN { printf "%.1f", b / g }')" \
		    "$(wc -c <"$tmp/p.svg")"
	done
done
echo "load: $(uptime | sed 's/.*load average: //')"

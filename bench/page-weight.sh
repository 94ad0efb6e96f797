#!/bin/sh
# The flame page's weight against the profile's size: for generated
# profiles of 10^4 to 10^6 call nodes (bench/genprof) and any FILE named,
# the bytes and the elements of the flame page (budget: 1 MB, 10,000
# nodes), its gzip size and ratio, and the SVG file's bytes beside it.
# With BASE set to another build's cli/deepq (one from before the page
# budget), that build's page for the same profile and query in the same
# run, and how many times lighter this one is.
#
#   [BASE=OLD/cli/deepq] sh bench/page-weight.sh [BUILDDIR [FILE...]]
set -eu
b=${1:-.}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=${BASE:-}

# One row: profile $1 (named $2 in the table), query $3.
row() {
	"$b/cli/deepq" query --local "$1" "$3" >"$tmp/p.html"
	"$b/cli/deepq" query --local "$1" "$3&format=svg" >"$tmp/p.svg"
	bytes=$(wc -c <"$tmp/p.html")
	gz=$(gzip -6 -c "$tmp/p.html" | wc -c)
	printf '%-22s %-18s %9s %8s %8s %6s %9s' "$2" "$3" "$bytes" \
	    "$(grep -o '<[a-zA-Z]' "$tmp/p.html" | wc -l)" "$gz" \
	    "$(awk -v b="$bytes" -v g="$gz" 'BEGIN { printf "%.1f", b / g }')" \
	    "$(wc -c <"$tmp/p.svg")"
	if [ -n "$base" ]; then
		# A refusal (a 503 for size, before the budget) is no page.
		if "$base" query --local "$1" "$3" >"$tmp/o.html" \
		    2>/dev/null; then
			ob=$(wc -c <"$tmp/o.html")
			printf ' %10s %8s %7s' "$ob" \
			    "$(grep -o '<[a-zA-Z]' "$tmp/o.html" | wc -l)" \
			    "$(awk -v o="$ob" -v b="$bytes" \
			    'BEGIN { printf "%.1f", o / b }')"
		else
			printf ' %10s %8s %7s' refused - -
		fi
	fi
	echo
}

printf '%-22s %-18s %9s %8s %8s %6s %9s' profile query bytes elements \
    gzip ratio svg-bytes
[ -n "$base" ] && printf ' %10s %8s %7s' base-bytes base-el lighter
echo
for n in 10000 100000 1000000; do
	"$b/bench/genprof" -s mixed -n "$n" >"$tmp/p.folded"
	for q in 'cmd=flame' 'cmd=flame&t=1~inv'; do
		row "$tmp/p.folded" "genprof mixed $n" "$q"
	done
done
for f in "$@"; do
	row "$f" "$(basename "$f" | cut -c1-22)" 'cmd=flame'
done
echo "load: $(uptime | sed 's/.*load average: //')"

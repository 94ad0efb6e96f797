#!/bin/sh
# page-sizes.sh [FILE]: generate a profile of 1,111,112 call nodes with
# gen-wide.sh (unless FILE exists) and print the size and answer time of
# the menu, top, tree, func and other pages (bench/pagebench): the HTML
# stays small because lists are limited and the tree has a node budget.
set -eu
: "${top_srcdir:=$(cd "${0%/*}/.." && pwd)}"
: "${top_builddir:=.}"
file=${1:-${TMPDIR:-/tmp}/deepq-wide.folded}
[ -s "$file" ] || sh "$top_srcdir/bench/gen-wide.sh" "$file"
"$top_builddir/bench/pagebench" "$file"

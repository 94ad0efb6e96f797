#!/bin/sh
# Load throughput of the binary readers (Mercury Deep.data, Clean .pgcl):
# the real Deep.data of the shared corpus (tests/lib.sh), and large files from
# the tests' encoders (there is no Clean compiler, and the real Mercury
# file is small). Run from the build directory after `make check' built
# the generators, or through `make bench'.
#	sh bench/reader-throughput-binary.sh [SIZE_MB]
set -eu
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-$(cd "${0%/*}/.." && pwd)}
size=$((${1:-64} * 1024 * 1024))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deepq-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

bench=$top_builddir/bench/readbench
mercury=$(cd "$top_srcdir/.." && pwd)/shared/mercury-deepdata/Deep.data
[ -f "$mercury" ] && "$bench" "$mercury" 20
"$top_builddir/tests/unit/mercury-gen" large "$size" >"$tmp/large.data" \
    2>/dev/null
"$bench" "$tmp/large.data" 3
"$top_builddir/tests/unit/pgcl-gen" large "$size" >"$tmp/large.pgcl" \
    2>/dev/null
"$bench" "$tmp/large.pgcl" 3

#!/bin/sh
# The EXAMPLES of the man pages are tests: every example block of
# man/*.[1-9] with a `$ deepq' command line (continued by `\e' or a
# trailing `|') runs as one shell script, in a directory where tests/
# is the source tree's, with deepq on PATH and deepq-server through a
# private deepq.conf; it must exit 0 and print or write something.
# Blocks naming /srv/ or a URL are illustrations, reported as skipped.
if [ -z "${MANEX_DEADLINE:-}" ]; then
	MANEX_DEADLINE=1
	export MANEX_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
: "${SERVER:=$top_builddir/server/deepq-server}"
command -v jq >/dev/null || skip_all "jq is not installed"
[ -x "$SERVER" ] || { echo "Bail out! build deepq-server first"; exit 1; }

mkdir -p "$tmp/bin"
ln -s "$DEEPQ" "$tmp/bin/deepq"
printf 'runtime_dir = %s\nserver_path = %s\nidle_timeout = 60\n' \
    "$tmp/run" "$SERVER" >"$tmp/deepq.conf"
DEEPQ_CONFIG=$tmp/deepq.conf
PATH=$tmp/bin:$PATH
export DEEPQ_CONFIG PATH

# One script per example block: its commands, unescaped from mdoc.
n=0
for page in "$top_srcdir"/man/*.[1-9]; do
	awk -v dir="$tmp/ex" -v page="${page##*/}" '
	/^\.Sh EXAMPLES/ { ex = 1; next }
	/^\.Sh / { ex = 0 }
	!ex { next }
	/^\.Bd / { blk++; cmd = 0; next }
	/^\.Ed/ { cmd = 0; next }
	{
		line = $0
		if (line ~ /^\$ /) {
			line = substr(line, 3)
			cmd = 1
		} else if (!cmd)
			next
		cont = (line ~ /\\e$/ || line ~ /\|$/)
		gsub(/\\e/, "\\", line)
		gsub(/\\&/, "", line)
		f = dir "." page "." blk
		print line > f
		if (!cont)
			cmd = 0
	}' "$page"
done
for f in "$tmp"/ex.*; do
	[ -f "$f" ] || continue
	name="${f#"$tmp"/ex.}: $(sed 's/\\$//' "$f" | tr -s '\n ' '  ' |
	    cut -c1-70)"
	grep -q '\(^\|[ (]\)deepq ' "$f" || continue
	n=$((n + 1))
	if grep -q '/srv/\|://' "$f"; then
		ok "$name # SKIP illustrative paths"
		continue
	fi
	# These run elsewhere: web serves until interrupted (web.sh), and the
	# regression gate exits 3 on purpose (diff.sh runs that example).
	if grep -q 'deepq web\|--fail-on-growth' "$f"; then
		ok "$name # SKIP run by web.sh or diff.sh"
		continue
	fi
	rm -rf "$tmp/work.out"
	mkdir "$tmp/work.out"
	ln -s "$top_srcdir/tests" "$tmp/work.out/tests"
	st=0
	(cd "$tmp/work.out" && sh -eu "$f") >"$tmp/out" 2>"$tmp/err" || st=$?
	produced=$(find "$tmp/work.out" -type f -newer "$f" | wc -l)
	if [ "$st" -eq 0 ] && { [ -s "$tmp/out" ] || [ "$produced" -gt 0 ]; } &&
	    ! grep -q 'deepq: ' "$tmp/err"; then
		ok "$name"
	else
		not_ok "$name (exit $st)"
		sed 's/^/# /' "$f" "$tmp/err" | head -20
	fi
done
check "the pages have runnable examples" test "$n" -ge 8
"$DEEPQ" stop --all >/dev/null 2>&1 || :
done_testing

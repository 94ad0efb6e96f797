#!/bin/sh
# What a test run skipped, and why: sh tests/skipped.sh LOG...; run by
# `make check' (check-local, tests/include.am) at its end over the logs
# of that run, so `sh setup.sh check' ends with it too. Whole scripts
# that skipped (1..0 # SKIP REASON) by name; single checks that skipped
# (ok N - WHAT # SKIP REASON) counted by reason. The README's "Tests"
# section lists the skips expected on a machine set up by setup.sh;
# anything else here is to be looked at.
LC_ALL=C
export LC_ALL
scripts=
for log; do
	[ -f "$log" ] || continue
	why=$(sed -n 's/^1\.\.0 # SKIP //p' "$log" | head -1)
	[ -n "$why" ] || grep -q '^1\.\.0 # SKIP$' "$log" || continue
	scripts="$scripts$(printf '  %s: %s' "${log%.log}" "${why:-no reason}")
"
done
if [ -n "$scripts" ]; then
	echo "make check: scripts skipped:"
	printf '%s' "$scripts"
else
	echo "make check: no script skipped"
fi
checks=$(for log; do
	[ -f "$log" ] || continue
	sed -n "s|^ok [0-9]* - .*# SKIP *\(.*\)|${log%.log}: \1|p" "$log"
done | sort | uniq -c | sort -rn)
if [ -n "$checks" ]; then
	echo "make check: checks skipped (count, script: reason):"
	echo "$checks"
fi
exit 0

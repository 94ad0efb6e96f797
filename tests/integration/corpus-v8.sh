#!/bin/sh
# Every V8 .cpuprofile in the corpus loads; its samples total equals the
# length of "samples" and its time total the span the timestamps cover
# (startTime plus the running sum of timeDeltas, never going back, to
# endTime), both computed here with sed and awk, not by the reader.
. "${0%/*}/../lib.sh"
need_corpus

# The elements of a flat JSON array member, one per line.
array() {
	tr -d ' \n\r\t' <"$2" | sed -n "s/.*\"$1\":\[\([-0-9,]*\)\].*/\1/p" |
	    tr , '\n'
}

member() {
	tr -d ' \n\r\t' <"$2" | sed -n "s/.*\"$1\":\(-*[0-9]*\).*/\1/p"
}

for f in "$corpus"/v8/*.cpuprofile; do
	name=${f##*/}
	nsamples=$(array samples "$f" | grep -c .)
	start=$(member startTime "$f")
	end=$(member endTime "$f")
	time=$(array timeDeltas "$f" | awk -v s="$start" -v e="$end" '
		{ t = t + $1; if (NR == 1) { t += s; first = t; m = t }
		  if (t > m) m = t }
		END { if (e > m) m = e; printf "%d\n", m - first }')
	neg=$(array timeDeltas "$f" | grep -c '^-' || :)
	if ! "$DEEPQ" query --local "$f" 'format=json' >"$tmp/menu.json" \
	    2>"$tmp/err"; then
		not_ok "$name: does not load: $(cat "$tmp/err")"
		continue
	fi
	got=$(sed -n 's/.*"totals":{"samples":\([0-9]*\),.*/\1/p' \
	    "$tmp/menu.json")
	[ "$got" = "$nsamples" ] &&
	    ok "$name: samples total $got equals the length of samples" ||
	    not_ok "$name: samples total $got, length of samples $nsamples"
	got=$(sed -n 's/.*"totals":{[^}]*"time":\([0-9]*\).*/\1/p' \
	    "$tmp/menu.json")
	[ "$got" = "$time" ] &&
	    ok "$name: time total $got us equals the sampled span ($neg negative deltas)" ||
	    not_ok "$name: time total $got us, sampled span $time us"
done
done_testing

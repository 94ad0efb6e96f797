#!/bin/sh
# Compressed JSON past the size limit (T57): a Chrome trace, a Firefox
# profile and a speedscope file held whole by their readers are bounded
# by max_json on their decompressed bytes, counted as they are decoded,
# as on the size of a plain file: the red team's 38 KB .zst of 1.2 GiB
# loaded with 1.36 GB of memory where the same text uncompressed was
# refused. Here max_json is 64 (MB) and the bombs 70 MB of blanks in a
# few kilobytes of zstd, so that the test decodes 64 MB, not a gigabyte:
# each is refused 413, as the plain text is.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
command -v zstd >/dev/null 2>&1 || skip_all "zstd is not installed"

# zstd frames one after the other are one stream: the blanks once.
head -c 70000000 /dev/zero | tr '\0' ' ' | zstd -q -3 >"$tmp/blanks.zst"
# bomb NAME HEAD TAIL: HEAD, 70 MB of blanks, TAIL, compressed; and
# plain, as large (sparse: it is refused by its size, unread).
bomb() {
	{ printf '%s' "$2" | zstd -q; cat "$tmp/blanks.zst";
	    printf '%s' "$3" | zstd -q; } >"$root/$1.zst"
	printf '%s' "$2" >"$root/$1"
	truncate -s 70000000 "$root/$1"
}
bomb chrome.json '{"traceEvents":[' ']}'
bomb gecko.json '{"meta":{"interval":1,"startTime":0,"version":24},"threads":[' ']}'
bomb speedscope.json \
    '{"$schema":"https://www.speedscope.app/file-format-schema.json",' \
    '"shared":{"frames":[]},"profiles":[]}'
echo "# each $(wc -c <"$root/chrome.json.zst") bytes of zstd, 70 MB decoded"
rdv_conf load_wait=30 load_timeout=120 query_timeout=60 max_json=64
rdv_httpd
for f in chrome gecko speedscope; do
	for z in .zst ''; do
		st=$(rdv_get "file=$f.json$z&cmd=top&format=json" \
		    --max-time 60)
		check "$f.json$z: 413 ($st)" test "$st" = 413
		check "...past the 64 MiB a JSON profile may be here" \
		    grep -q 'more than 64 MiB\|more than the 64 MiB' \
		    "$tmp/body"
	done
	rdv_stop
done
done_testing

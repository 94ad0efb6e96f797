#!/bin/sh
# bomb.sh (T57) at the red team's scale, for builds without max_json
# (doc/reliability.md, bench/tests-ab.sh; not in make check: it decodes
# a gigabyte): 1.1 GB of JSON in some 35 KB of zstd, past the default
# bound of a JSON profile (1 GiB before issue 30 on the file's size only,
# max_json's 1024 MiB after, on the decoded bytes), is refused 413 like
# the plain file of that size. Before, the plain file was refused and
# the compressed one loaded (1.36 GB of memory for the red team's).
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/../integration/rendezvous-lib.sh"
command -v zstd >/dev/null 2>&1 || skip_all "zstd is not installed"

# zstd frames one after the other are one stream: the blanks once.
head -c 1100000000 /dev/zero | tr '\0' ' ' | zstd -q -3 >"$tmp/blanks.zst"
# bomb NAME HEAD TAIL: HEAD, 70 MB of blanks, TAIL, compressed; and
# plain, as large (sparse: it is refused by its size, unread).
bomb() {
	{ printf '%s' "$2" | zstd -q; cat "$tmp/blanks.zst";
	    printf '%s' "$3" | zstd -q; } >"$root/$1.zst"
	printf '%s' "$2" >"$root/$1"
	truncate -s 1100000000 "$root/$1"
}
bomb chrome.json '{"traceEvents":[' ']}'
bomb gecko.json '{"meta":{"interval":1,"startTime":0,"version":24},"threads":[' ']}'
bomb speedscope.json \
    '{"$schema":"https://www.speedscope.app/file-format-schema.json",' \
    '"shared":{"frames":[]},"profiles":[]}'
echo "# each $(wc -c <"$root/chrome.json.zst") bytes of zstd, 70 MB decoded"
rdv_conf load_wait=30 load_timeout=120 query_timeout=60 
rdv_httpd
for f in chrome gecko speedscope; do
	for z in .zst ''; do
		st=$(rdv_get "file=$f.json$z&cmd=top&format=json" \
		    --max-time 60)
		check "$f.json$z: 413 ($st)" test "$st" = 413
		check "...past the limit, 1 GiB" \
		    grep -q 'more than 1024 MiB\|more than the 1024 MiB' \
		    "$tmp/body"
	done
	rdv_stop
done
done_testing

#!/bin/sh
# The report words, deepq top|tree|func|flame|diff (cli/cmd-report.c):
# text by default, through the file's server as with --local (their text
# against golden files: tests/golden/cli-*.cli); --json exactly what
# format=json answers; deepq flame's SVG well formed; the usual flags;
# an export in its own format with no format=; deepq diff across
# directories; and a build tree's deepq starts its own server when
# deepq.conf names none.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
command -v tidy >/dev/null 2>&1 || skip_all "tidy is not installed"

data=$top_srcdir/tests/data
mkdir -p "$root/old" "$root/new"
cp "$data/samples/workload-fp.folded" "$data/samples/recursive.cpuprofile" \
    "$data/example.callgrind" "$root/"
cp "$data/diff-old.folded" "$data/diff-new.folded" "$root/"
cp "$data/diff-old.folded" "$root/old/run.folded"
cp "$data/diff-new.folded" "$root/new/run.folded"
cd "$root"

# Through the server (the default) and in process: the same text.
for w in "top workload-fp.folded" "tree recursive.cpuprofile" \
    "func workload-fp.folded quicksort" "top example.callgrind" \
    "diff old/run.folded new/run.folded"; do
	# shellcheck disable=SC2086
	"$DEEPQ" $w >"$tmp/srv" 2>"$tmp/err" || :
	# shellcheck disable=SC2086
	"$DEEPQ" ${w%% *} --local ${w#* } >"$tmp/local" 2>>"$tmp/err" || :
	if [ -s "$tmp/srv" ] && cmp -s "$tmp/srv" "$tmp/local" &&
	    ! grep -q '^<!DOCTYPE' "$tmp/srv"; then
		ok "deepq $w: text, the server's = in process"
	else
		not_ok "deepq $w: text, the server's = in process"
		sed 's/^/# /' "$tmp/err"
		diff "$tmp/local" "$tmp/srv" | head -10 | sed 's/^/# /'
	fi
done
check "text: no list of web links (\"- next rows\", Preferences)" sh -c \
    "! '$DEEPQ' top --limit 3 workload-fp.folded | grep -q -e '^  - ' -e '^Preferences'"

# --json: exactly format=json, word by word.
json() {
	_w=$1 _q=$2
	shift 2
	"$DEEPQ" "$_w" --json "$@" >"$tmp/word.json" 2>&1 || :
	"$DEEPQ" query "$_f" "$_q&format=json" >"$tmp/query.json" 2>&1 || :
	if jq -e . "$tmp/word.json" >/dev/null 2>&1 &&
	    cmp -s "$tmp/word.json" "$tmp/query.json"; then
		ok "deepq $_w --json = format=json ($_q)"
	else
		not_ok "deepq $_w --json = format=json ($_q)"
		head -c 300 "$tmp/word.json" | sed 's/^/# /'
	fi
}
_f=workload-fp.folded
json top 'cmd=top&limit=7&metric=samples' --limit 7 --metric samples "$_f"
json tree 'cmd=tree&budget=9' --limit 9 "$_f"
json func 'cmd=func&func=quicksort' "$_f" quicksort
json flame 'cmd=flame&focus=quick' --focus quick "$_f"
_f=diff-new.folded
json diff 'cmd=top&sort=delta&base=diff-old.folded' diff-old.folded "$_f"
_f=workload-fp.folded
json top 'cmd=top&sort=self&from=2' --query 'sort=self&from=2' "$_f"

# deepq flame FILE > x.svg: an SVG, well formed.
"$DEEPQ" flame workload-fp.folded >"$tmp/x.svg" 2>"$tmp/err" || :
check "deepq flame > x.svg: an SVG document" \
    sh -c "head -2 '$tmp/x.svg' | grep -q '^<svg '"
check "deepq flame > x.svg: well-formed XML (tidy -xml)" \
    tidy -xml -q -e "$tmp/x.svg"
check "deepq flame --limit is refused" \
    sh -c "! '$DEEPQ' flame --limit 3 workload-fp.folded >/dev/null 2>&1"

# An export without format=: in its own format, through the server too.
"$DEEPQ" query workload-fp.folded 'cmd=folded' >"$tmp/folded" 2>&1 || :
"$DEEPQ" query --local workload-fp.folded 'cmd=folded&format=folded' \
    >"$tmp/folded.want" 2>&1 || :
check "cmd=folded with no format=: folded stacks" \
    sh -c "test -s '$tmp/folded' && cmp '$tmp/folded' '$tmp/folded.want'"
check "cmd=callgrind with no format=: a callgrind file" sh -c \
    "'$DEEPQ' query --local example.callgrind cmd=callgrind | head -1 |
    grep -q '^# callgrind format'"
check "deepq query with no format= still answers a page" sh -c \
    "'$DEEPQ' query --local workload-fp.folded cmd=top | grep -q '^<!DOCTYPE html>'"

# The usage names the words.
"$DEEPQ" >/dev/null 2>"$tmp/usage" || :
for w in top tree func flame diff query; do
	grep -q "deepq $w " "$tmp/usage" || not_ok "usage names deepq $w"
done
ok "usage names the report words"

# A build tree's deepq with a deepq.conf that names no server_path (the
# installed one, which the build tree does not use) starts its own.
cat >"$tmp/noserver.conf" <<EOF
runtime_dir = $tmp/run2
EOF
if DEEPQ_CONFIG=$tmp/noserver.conf "$DEEPQ" top --limit 2 \
    workload-fp.folded >"$tmp/own" 2>"$tmp/err"; then
	ok "a build tree's deepq uses its own server"
else
	not_ok "a build tree's deepq uses its own server: $(cat "$tmp/err")"
fi
DEEPQ_CONFIG=$tmp/noserver.conf "$DEEPQ" stop --all >/dev/null 2>&1 || :
rdv_stop
done_testing

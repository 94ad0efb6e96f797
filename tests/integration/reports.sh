#!/bin/sh
# Every report, in every format, on every small profile (tests/data) and
# the XSS profile: the JSON parses (jq), the HTML is valid HTML5 with no
# warning (tidy), the text has no control characters. On xss.folded,
# whose function names hold <script>, quotes, &, control bytes, invalid
# UTF-8 and U+2028, no markup from the data survives: the only <script
# on a page is deepq.js's own tag.
. "${0%/*}/../lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
command -v tidy >/dev/null 2>&1 || skip_all "tidy is not installed"
data=$top_srcdir/tests/data

# The queries of every report for a profile, one per line: each function
# gets a func page and callers by every grouping, each clique its page.
queries() {
	prof=$1
	echo "cmd=menu"
	echo "cmd=top"
	echo "cmd=top&sort=self&fields=all&avg=1&units=seconds"
	echo "cmd=top&sort=name&pct=0"
	echo "cmd=tree"
	echo "cmd=tree&depth=50&budget=1000"
	echo "cmd=modules"
	echo "cmd=cliques"
	echo "cmd=dump"
	"$DEEPQ" query --local "$data/$prof" 'cmd=dump&limit=100000&format=json' |
	    jq -r '.functions[] | select(.id > 0) | .id' | while read -r f; do
		echo "cmd=func&func=$f"
		for by in func site module clique; do
			echo "cmd=callers&func=$f&by=$by"
		done
	done
	"$DEEPQ" query --local "$data/$prof" 'cmd=modules&limit=100000&format=json' |
	    jq -r '.rows[].name' | while IFS= read -r m; do
		enc=$(printf '%s' "$m" | jq -sRr @uri)
		echo "cmd=module&module=$enc"
	done
	"$DEEPQ" query --local "$data/$prof" 'cmd=cliques&limit=100000&format=json' |
	    jq -r '.rows[].id' | while read -r c; do
		echo "cmd=clique&clique=$c"
	done
	echo "cmd=clique&clique=0"
}

for prof in cliques.folded recursion.folded firefox.folded tezos.trace \
    xss.folded; do
	queries "$prof" >"$tmp/queries"
	n=0
	badjson=0
	badhtml=0
	badtext=0
	badxss=0
	while IFS= read -r q; do
		n=$((n + 1))
		if ! "$DEEPQ" query --local "$data/$prof" "$q&format=json" \
		    >"$tmp/out.json" 2>"$tmp/err" ||
		    ! jq -e '.deepq == 1' "$tmp/out.json" >/dev/null 2>&1; then
			badjson=$((badjson + 1))
			echo "# $prof $q: bad JSON: $(head -c 300 "$tmp/err")"
		fi
		"$DEEPQ" query --local --static-base /static/ "$data/$prof" \
		    "$q" >"$tmp/out.html" 2>"$tmp/err" || :
		if ! tidy -q -e "$tmp/out.html" >"$tmp/tidy" 2>&1 ||
		    [ -s "$tmp/tidy" ]; then
			badhtml=$((badhtml + 1))
			echo "# $prof $q: not valid HTML5:"
			head -5 "$tmp/tidy" | sed 's/^/#   /'
		fi
		# The one script tag is ours; nothing else opens an element
		# from the names (<img, <b>, </title>...): a raw '<' from the
		# data would be one (escaped, "onerror=" is harmless text).
		if [ "$(grep -ci '<script' "$tmp/out.html")" != 1 ] ||
		    ! grep -q '^<script src="/static/deepq.js"></script>$' \
		    "$tmp/out.html" ||
		    grep -i -e '<img' -e '<b>' -e '</title><' -e '<scr' \
		    "$tmp/out.html" | grep -qv deepq.js; then
			badxss=$((badxss + 1))
			echo "# $prof $q: markup from the profile in the page"
		fi
		"$DEEPQ" query --local "$data/$prof" "$q&format=text" \
		    >"$tmp/out.txt" 2>"$tmp/err" || :
		if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" \
		    "$tmp/out.txt"; then
			badtext=$((badtext + 1))
			echo "# $prof $q: control characters in text"
		fi
	done <"$tmp/queries"
	[ "$badjson" -eq 0 ] && ok "$prof: $n reports are valid JSON" ||
	    not_ok "$prof: $badjson of $n reports are not valid JSON"
	[ "$badhtml" -eq 0 ] && ok "$prof: $n pages are valid HTML5" ||
	    not_ok "$prof: $badhtml of $n pages are not valid HTML5"
	[ "$badxss" -eq 0 ] && ok "$prof: $n pages carry no markup from data" ||
	    not_ok "$prof: $badxss of $n pages carry markup from data"
	[ "$badtext" -eq 0 ] && ok "$prof: $n text pages have no controls" ||
	    not_ok "$prof: $badtext of $n text pages have control characters"
done

# The XSS names reach JSON intact as data: escaped, never dropped.
"$DEEPQ" query --local "$data/xss.folded" 'cmd=top&limit=1000&format=json' \
    >"$tmp/top.json"
check "xss: <script> name is a JSON string" \
    jq -e '[.rows[].name] | index("<script>alert(1)</script>") != null' \
    "$tmp/top.json"
check "xss: U+2028 kept in JSON, escaped as \\u2028" \
    grep -q 'line\\u2028sep' "$tmp/top.json"
check "xss: control bytes escaped in JSON" \
    jq -e '[.rows[].name] | any(test("\u0001"))' "$tmp/top.json"
check "xss: invalid UTF-8 replaced by U+FFFD" \
    jq -e '[.rows[].name] | any(test("bad\ufffd"))' "$tmp/top.json"
# Without the <wbr> a long name may break at, to read it whole.
"$DEEPQ" query --local "$data/xss.folded" 'cmd=top&limit=1000' |
    sed 's/<wbr>//g' >"$tmp/top.html"
check "xss: <script> name shown as text" \
    grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/top.html"
check "xss: quote in a name cannot end an attribute" \
    grep -q '&quot;&gt;&lt;img src=x onerror=alert(2)&gt;' "$tmp/top.html"
check "xss: ampersand escaped" grep -q 'a&amp;b' "$tmp/top.html"

# A name used as func= comes back through a link (query_format).
id=$(jq -r '.rows[] | select(.name == "<script>alert(1)</script>") | .func' \
    "$tmp/top.json")
"$DEEPQ" query --local "$data/xss.folded" 'cmd=func&func=%3Cscript%3Ealert(1)%3C%2Fscript%3E&format=json' \
    >"$tmp/func.json"
check "xss: func= takes the exact name" \
    jq -e ".function.func == $id" "$tmp/func.json"
done_testing

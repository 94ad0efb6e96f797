#!/bin/sh
# deepq.cgi links no profile engine: it only relays a request to the
# per-profile server (or answers an error page), so none of engine/'s
# readers, transforms, reports or display may be linked into it. The
# build enforces this (deepq.cgi links common/libdeepq.a alone); this
# reads the symbol table, so a change of link line is caught too.
. "${0%/*}/../lib.sh"

command -v nm >/dev/null 2>&1 || skip_all "nm is not installed"
: "${CGI:=$top_builddir/cgi/deepq.cgi}"
nm "$CGI" >"$tmp/syms" 2>&1 || { not_ok "nm $CGI"; done_testing; exit; }
ok "nm reads deepq.cgi"
awk '{ print $NF }' "$tmp/syms" |
    grep -E '^(reports?|transform|reader|display|render|profile|answer_query|aggregate|callgraph|calltree|columns|diff|writer)_' \
    >"$tmp/engine" || true
if [ -s "$tmp/engine" ]; then
	not_ok "deepq.cgi has engine symbols"
	head -20 "$tmp/engine" | sed 's/^/# /'
else
	ok "deepq.cgi has no report_, transform_, reader_, display_ symbols"
fi
# And it still has what it needs: the error pages and the client.
check "deepq.cgi has the error pages" grep -q ' answer_error$' "$tmp/syms"
check "deepq.cgi has the client" grep -q ' client_' "$tmp/syms"
done_testing

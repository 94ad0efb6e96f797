#!/bin/sh
# Comparisons (base=) through the server: the same reports through
# deepq.cgi under lighttpd and through `deepq query' (server path) equal
# `deepq query --local' byte for byte; base= is confined to the profile
# root exactly like file= (403/404, nothing outside it loaded); the
# server keeps four bases and evicts the least recently used one.
if [ -z "${RDV_DEADLINE:-}" ]; then
	RDV_DEADLINE=1
	export RDV_DEADLINE
	exec timeout -k 5 600 /bin/sh "$0" "$@"
fi
. "${0%/*}/../lib.sh"
. "${0%/*}/rendezvous-lib.sh"

need_corpus
rdv_conf "cache_dir=$tmp/cache"
rdv_httpd
data=$top_srcdir/tests/data
cp "$corpus/collapsed/workload-fp.folded" \
    "$corpus/collapsed/workload-dwarf.folded" \
    "$data/diff-old.folded" "$data/diff-new.folded" "$root/"

# The same answer three ways.
same() {
	_file=$1 _q=$2
	(cd "$root" && "$DEEPQ" query --local "$_file" "$_q") >"$tmp/local" ||
	    { not_ok "local: $_q"; return; }
	_st=$(rdv_get "file=$_file&$_q")
	if [ "$_st" = 200 ] && cmp -s "$tmp/local" "$tmp/body"; then
		ok "cgi = local: $_q"
	else
		not_ok "cgi = local: $_q (status $_st)"
		{ head -c 300 "$tmp/body"; echo; } | sed 's/^/# /'
	fi
	if (cd "$root" && "$DEEPQ" query "$_file" "$_q") >"$tmp/srv" &&
	    cmp -s "$tmp/local" "$tmp/srv"; then
		ok "deepq query (server) = local: $_q"
	else
		not_ok "deepq query (server) = local: $_q"
		{ head -c 300 "$tmp/srv"; echo; } | sed 's/^/# /'
	fi
}
# The menu tells how this process got the profile: compare its figures.
q='base=workload-fp.folded&cmd=menu&format=json'
(cd "$root" && "$DEEPQ" query --local workload-dwarf.folded "$q") |
    jq -c '[.comparison, .totals, .base]' >"$tmp/local"
rdv_get "file=workload-dwarf.folded&$q" >/dev/null
jq -c '[.comparison, .totals, .base]' "$tmp/body" >"$tmp/cgi"
grep -q '"delta"' "$tmp/local" && cmp -s "$tmp/local" "$tmp/cgi" &&
    ok "cgi = local: menu's comparison" || not_ok "cgi = local: menu's comparison"
for q in \
    'base=workload-fp.folded&cmd=top&sort=delta&limit=50&format=json' \
    'base=workload-fp.folded&cmd=top&normalize=1&format=json' \
    'base=workload-fp.folded&cmd=flame&format=json' \
    'base=workload-fp.folded&cmd=flame&format=svg' \
    'base=workload-fp.folded&cmd=tree&format=json' \
    'base=workload-fp.folded&cmd=top&format=text' \
    'base=workload-dwarf.folded&cmd=top&format=json'; do
	same workload-dwarf.folded "$q"
done
same diff-new.folded 'base=diff-old.folded&cmd=top&sort=delta&format=json'

# The gate through the server: growth past 1% of the total fails.
if (cd "$root" && "$DEEPQ" query --fail-on-growth 1 diff-new.folded \
    'base=diff-old.folded&cmd=top&format=json') >/dev/null 2>&1; then
	not_ok "--fail-on-growth through the server"
else
	ok "--fail-on-growth through the server"
fi

# Confinement: each refused like file= would be, and nothing outside the
# root reaches the cache (nothing was loaded).
mkdir -p "$tmp/outside"
cp "$data/diff-old.folded" "$tmp/outside/secret.folded"
ln -s "$tmp/outside/secret.folded" "$root/link-out.folded"
ln -s "$tmp/outside" "$root/linkdir"
mkfifo "$root/fifo.folded"
for b in \
    '../outside/secret.folded' \
    '%2e%2e%2foutside%2fsecret.folded' \
    "$tmp/outside/secret.folded" \
    '/etc/passwd' \
    'link-out.folded' \
    'linkdir/secret.folded' \
    'fifo.folded' \
    'nonexistent.folded'; do
	st=$(rdv_get "file=diff-new.folded&base=$b&cmd=top&format=json")
	case $st in
	403 | 404) ok "base=$b: $st" ;;
	*) not_ok "base=$b: $st" ;;
	esac
done
key=$(rdv_key "$tmp/outside/secret.folded")
[ ! -e "$tmp/cache/$key.cache" ] &&
    ok "nothing outside the root loaded" ||
    not_ok "a file outside the root was loaded"

# The LRU: five different bases, then the first again; each comparison's
# base total (base_raw: comparisons are normalised by default) is the sum
# of that file's counts.
sum() { awk '{ s += $NF } END { printf "%d\n", s }' "$1"; }
for i in 1 2 3 4 5; do
	{ cat "$data/diff-old.folded"; echo "lru;f$i $((i * 7))"; } \
	    >"$root/base$i.folded"
done
for i in 1 2 3 4 5 1 5 3; do
	want=$(sum "$root/base$i.folded")
	st=$(rdv_get "file=diff-new.folded&base=base$i.folded&cmd=menu&format=json")
	got=$(jq -r .comparison.base_raw "$tmp/body" 2>/dev/null)
	[ "$st" = 200 ] && [ "$got" = "$want" ] &&
	    ok "base$i.folded: base total $got" ||
	    not_ok "base$i.folded: status $st, base total $got, want $want"
done

# A base that changed is read again.
echo "lru;changed 1000" >>"$root/base1.folded"
want=$(sum "$root/base1.folded")
st=$(rdv_get "file=diff-new.folded&base=base1.folded&cmd=menu&format=json")
got=$(jq -r .comparison.base_raw "$tmp/body" 2>/dev/null)
[ "$st" = 200 ] && [ "$got" = "$want" ] &&
    ok "a changed base is read again ($got)" ||
    not_ok "a changed base: status $st, base total $got, want $want"

# One server per profile queried (loaders are no servers).
rdv_wait 5 rdv_count_is 2 && ok "two servers, no stray loader" ||
    not_ok "$(rdv_count) servers"
rdv_stop
done_testing

#!/bin/sh
# The layers of doc/architecture.md ("Layout and libraries"), checked:
#   common/  includes and calls nothing of engine/, server/, cgi/, cli/;
#   engine/  includes and calls nothing of server/, cgi/, cli/;
#   cgi/     includes nothing of engine/, links no engine source or
#            library, and deepq.cgi defines no engine symbol;
#   common/ and engine/ never exit or print: no object of their libraries
#            refers to exit, printf, perror, syslog, stderr, stdout...;
#   server/  prints only through its log: no object but log.o refers to
#            err, warn, printf, fprintf, syslog, stderr...
# Includes are read from the sources (every header is named by its base
# name, found on AM_CPPFLAGS's path), calls from the objects' symbol
# tables (nm), so a call through a prototype written by hand is caught.
. "${0%/*}/../lib.sh"

command -v nm >/dev/null 2>&1 || skip_all "nm is not installed"
src=$top_srcdir
bld=$top_builddir

# The exceptions, each with its reason: "object symbol".
#   client-spawn.o _exit: the forked child between fork and exec (and the
#     intermediate child of the double fork) must end without running the
#     parent's atexit handlers or flushing its stdio buffers.
#   decompress.o _exit: the decoder process decompress_ahead forks ends
#     the same way, for the same reason.
allowed='client-spawn.o _exit
decompress.o _exit'

# header_dir FILE HEADER: the folder a quoted include resolves to: the
# including file's own folder first, then common/ and engine/
# (AM_CPPFLAGS), then cgi/ (deepq-web's -I); nothing for a header of
# none of them (config.h, generated or system headers).
header_dir() {
	_d=${1%/*}
	if [ -f "$src/$_d/$2" ]; then echo "${_d%%/*}"; return; fi
	for _s in common engine cgi server cli; do
		[ -f "$src/$_s/$2" ] && { echo "$_s"; return; }
	done
	:
}

# includes DIR: "file -> folder/header" for every quoted include of a
# source or header under DIR that resolves to another folder.
includes() {
	(cd "$src" && find "$1" -name '*.[ch]' ! -name '*.pb-c.[ch]') |
	sort | while read -r f; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
		    "$src/$f" | while read -r h; do
			d=$(header_dir "$f" "$h")
			if [ -n "$d" ] && [ "$d" != "$1" ]; then
				echo "$f -> $d/$h"
			fi
		done
	done
}

# check_includes DIR FORBIDDEN-FOLDERS...: no include of DIR resolves to
# one of the forbidden folders.
check_includes() {
	_dir=$1
	shift
	includes "$_dir" >"$tmp/inc.$_dir"
	: >"$tmp/bad.$_dir"
	for _f in "$@"; do
		grep " -> $_f/" "$tmp/inc.$_dir" >>"$tmp/bad.$_dir" || :
	done
	if [ -s "$tmp/bad.$_dir" ]; then
		not_ok "$_dir/ includes nothing of $*"
		sed 's/^/# /' "$tmp/bad.$_dir" | head -20
	else
		ok "$_dir/ includes nothing of $*"
	fi
}

check_includes common engine server cgi cli
check_includes engine server cgi cli
check_includes cgi engine server cli
# The check reads something: engine/ does include common/.
check "the include scan sees engine/ including common/" \
    grep -q ' -> common/cause.h$' "$tmp/inc.engine"

# Link lines: the sources and libraries of deepq.cgi, of common/'s
# library and of the engine's, as the include.am's list them.
# amvars FILE PREFIX: the text of every variable of FILE named PREFIX...
# with its continuation lines.
amvars() {
	awk -v p="$2" '
	    $0 ~ "^" p "[A-Za-z_]*[ \t]*[+]?=" { on = 1 }
	    on { print; if ($0 !~ /\\$/) on = 0 }' "$src/$1"
}
amvars cgi/include.am cgi_deepq_cgi_ >"$tmp/cgi.am"
check "cgi/include.am lists deepq.cgi's sources" grep -q 'cgi/deepq-cgi.c' "$tmp/cgi.am"
if grep -nE 'engine/|LIBDEEPQ([^_]|$)|LIBDEEPQ_ENGINE|server/|cli/' "$tmp/cgi.am" >"$tmp/cgi.bad"; then
	not_ok "deepq.cgi links no engine, server or cli source or library"
	sed 's/^/# /' "$tmp/cgi.bad"
else
	ok "deepq.cgi links no engine, server or cli source or library"
fi
amvars common/include.am common_libdeepq_a_ >"$tmp/common.am"
check "common/include.am lists libdeepq.a's sources" grep -q 'common/query.c' "$tmp/common.am"
if grep -nE '(engine|server|cgi|cli)/' "$tmp/common.am" >"$tmp/common.bad"; then
	not_ok "common/libdeepq.a has sources of common/ only"
	sed 's/^/# /' "$tmp/common.bad"
else
	ok "common/libdeepq.a has sources of common/ only"
fi
amvars engine/include.am engine_libdeepq_engine_a_ >"$tmp/engine.am"
check "engine/include.am lists the engine's sources" grep -q 'engine/reader.c' "$tmp/engine.am"
if grep -nE '(server|cgi|cli)/' "$tmp/engine.am" >"$tmp/engine.bad"; then
	not_ok "engine/libdeepq-engine.a has no source of server/, cgi/, cli/"
	sed 's/^/# /' "$tmp/engine.bad"
else
	ok "engine/libdeepq-engine.a has no source of server/, cgi/, cli/"
fi

# Symbols. defined FILES...: the global symbols the files define.
defined() {
	nm -g --defined-only "$@" 2>/dev/null |
	    awk 'NF == 3 { print $3 }' | sort -u
}
# undefined ARCHIVE: "object symbol" for each symbol an object of the
# archive refers to and does not define.
undefined() {
	nm -A -u "$1" 2>/dev/null |
	    sed -n 's/^[^:]*:\([^:]*\): *U \(.*\)$/\1 \2/p' | sort -u
}
libc=$bld/common/libdeepq.a
libe=$bld/engine/libdeepq-engine.a
for f in "$libc" "$libe" "$bld/cgi/deepq.cgi"; do
	[ -f "$f" ] || { echo "Bail out! $f is not built"; exit 1; }
done
defined "$libe" >"$tmp/def.engine"
find "$bld/server" "$bld/cgi" "$bld/cli" -name '*.o' >"$tmp/front.o"
# shellcheck disable=SC2046
defined $(cat "$tmp/front.o") >"$tmp/def.front"
check "the engine defines symbols" grep -qx 'reports_find' "$tmp/def.engine"
check "the front ends' objects define symbols" grep -qx 'main' "$tmp/def.front"
undefined "$libc" >"$tmp/und.common"
undefined "$libe" >"$tmp/und.engine"

# calls_into UNDEFINED DEFINED WHAT: no symbol of UNDEFINED is in DEFINED.
calls_into() {
	awk 'NR == FNR { d[$1] = 1; next } ($2 in d)' "$2" "$1" >"$tmp/up"
	if [ -s "$tmp/up" ]; then
		not_ok "$3"
		sed 's/^/# /' "$tmp/up" | head -20
	else
		ok "$3"
	fi
}
calls_into "$tmp/und.common" "$tmp/def.engine" "common/ calls nothing of engine/"
calls_into "$tmp/und.common" "$tmp/def.front" "common/ calls nothing of server/, cgi/, cli/"
calls_into "$tmp/und.engine" "$tmp/def.front" "engine/ calls nothing of server/, cgi/, cli/"

# deepq.cgi defines none of the engine's symbols (whatever its link line).
defined "$bld/cgi/deepq.cgi" >"$tmp/def.cgi"
comm -12 "$tmp/def.cgi" "$tmp/def.engine" >"$tmp/cgi.engine"
if [ -s "$tmp/cgi.engine" ]; then
	not_ok "deepq.cgi has no engine code"
	sed 's/^/# /' "$tmp/cgi.engine" | head -20
else
	ok "deepq.cgi has no engine code"
fi

# Exiting and printing. The _chk names are the ones _FORTIFY_SOURCE
# compiles printf and syslog to; stderr and stdout are the streams
# themselves, so an fprintf, fputs or fwrite to them is caught too.
forbidden='exit _exit _Exit quick_exit abort err errx verr verrx warn warnx
vwarn vwarnx error error_at_line printf vprintf __printf_chk __vprintf_chk
puts putchar perror psignal psiginfo syslog vsyslog __syslog_chk
__vsyslog_chk openlog stderr stdout'
printf '%s\n' $forbidden >"$tmp/forbidden"
printf '%s\n' "$allowed" >"$tmp/allowed"
for lib in common engine; do
	awk 'NR == FNR { f[$1] = 1; next } ($2 in f)' "$tmp/forbidden" \
	    "$tmp/und.$lib" | grep -vxF -f "$tmp/allowed" >"$tmp/print.$lib" || :
	if [ -s "$tmp/print.$lib" ]; then
		not_ok "$lib/ never exits or prints"
		sed 's/^/# /' "$tmp/print.$lib" | head -20
	else
		ok "$lib/ never exits or prints"
	fi
done
# The server's one logging style (doc/architecture.md, "Conventions"):
# only server/log.c writes to stderr or syslog; the others call it.
printing='err errx verr verrx warn warnx vwarn vwarnx error error_at_line
printf vprintf fprintf vfprintf dprintf vdprintf __printf_chk
__vprintf_chk __fprintf_chk __vfprintf_chk __dprintf_chk puts fputs
putchar perror psignal psiginfo syslog vsyslog __syslog_chk
__vsyslog_chk openlog stderr stdout'
printf '%s\n' $printing >"$tmp/printing"
find "$bld/server" -name '*.o' ! -name '*log.o' >"$tmp/server.o"
check "server/ has objects besides log.o" test -s "$tmp/server.o"
: >"$tmp/print.server"
while read -r o; do
	nm -u "$o" 2>/dev/null | awk -v o="${o##*/}" \
	    'NR == FNR { f[$1] = 1; next } ($2 in f) { print o, $2 }' \
	    "$tmp/printing" - >>"$tmp/print.server"
done <"$tmp/server.o"
if [ -s "$tmp/print.server" ]; then
	not_ok "server/ prints only through server/log.c"
	sed 's/^/# /' "$tmp/print.server" | head -20
else
	ok "server/ prints only through server/log.c"
fi
log_o=$(find "$bld/server" -name '*log.o' | head -n 1)
check "server/log.c is the one that writes to stderr and syslog" sh -c \
    "nm -u '$log_o' | grep -qw stderr && nm -u '$log_o' | grep -q syslog"

# Each exception is still needed (a stale one would hide a new call).
while read -r o s; do
	check "the exception $o $s is still used" \
	    grep -qx "$o $s" "$tmp/und.common" "$tmp/und.engine"
done <"$tmp/allowed"
done_testing

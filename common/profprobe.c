/*
 * Copyright (c) 2026 The deepq developers
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */

#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "profprobe.h"

/*
 * The listing's probe (see profprobe.h). Each rule below is the content
 * test of the reader of the same name (engine/reader-<name>.c), scored
 * the same; they are kept in step by tests/unit/test-profprobe.c, which
 * compares this table's verdict with the engine's on every test file.
 */

struct profprobe_rule {
	const char	*name;
	int		 (*probe)(const char *, size_t);
};

static int	pp_view(const char *, size_t);
static int	pp_mercury(const char *, size_t);
static int	pp_pgcl(const char *, size_t);
static int	pp_pprof(const char *, size_t);
static int	pp_trace(const char *, size_t);
static int	pp_ghc_prof(const char *, size_t);
static int	pp_ghc_json(const char *, size_t);
static int	pp_speedscope(const char *, size_t);
static int	pp_chrome(const char *, size_t);
static int	pp_gecko(const char *, size_t);
static int	pp_v8(const char *, size_t);
static int	pp_callgrind(const char *, size_t);
static int	pp_gprof(const char *, size_t);
static int	pp_bpftrace(const char *, size_t);
static int	pp_dtrace(const char *, size_t);
static int	pp_perf(const char *, size_t);
static int	pp_folded(const char *, size_t);
static int	pp_refused(const char *, size_t);

/* In engine/reader.c's order: equal scores go to the earlier one. */
static const struct profprobe_rule profprobe_rules[] = {
	{ "view", pp_view },
	{ "mercury", pp_mercury },
	{ "pgcl", pp_pgcl },
	{ "pprof", pp_pprof },
	{ "trace", pp_trace },
	{ "ghc-prof", pp_ghc_prof },
	{ "ghc-json", pp_ghc_json },
	{ "speedscope", pp_speedscope },
	{ "chrome", pp_chrome },
	{ "gecko", pp_gecko },
	{ "v8", pp_v8 },
	{ "callgrind", pp_callgrind },
	{ "gprof", pp_gprof },
	{ "bpftrace", pp_bpftrace },
	{ "dtrace", pp_dtrace },
	{ "perf", pp_perf },
	{ "folded", pp_folded },
};
#define PROFPROBE_NRULES (sizeof profprobe_rules / sizeof profprobe_rules[0])

/* Does the head start with the string? */
static int
pp_starts(const char *buf, size_t len, const char *s)
{
	size_t	 n = strlen(s);

	return (len >= n && memcmp(buf, s, n) == 0);
}

/* The next line of [*p, end): its start and length (no LF); 0 at end. */
static int
pp_line(const char **p, const char *end, const char **s, size_t *n,
    int *last)
{
	const char	*nl;

	if (*p >= end)
		return (0);
	*s = *p;
	nl = memchr(*p, '\n', end - *p);
	*n = nl != NULL ? (size_t)(nl - *p) : (size_t)(end - *p);
	*last = nl == NULL;
	*p = nl != NULL ? nl + 1 : end;
	return (1);
}

static int
pp_view(const char *buf, size_t len)
{
	static const char	 magic[] = "# deepq-view 1";
	size_t			 n = sizeof magic - 1;

	return (len >= n + 1 && memcmp(buf, magic, n) == 0 &&
	    (buf[n] == '\n' || buf[n] == '\r') ? 100 : 0);
}

static int
pp_mercury(const char *buf, size_t len)
{
	return (pp_starts(buf, len, "Mercury deep profiler data version ") ?
	    100 : 0);
}

static int
pp_pgcl(const char *buf, size_t len)
{
	return (len >= 8 && memcmp(buf, "prof", 4) == 0 &&
	    (buf[4] == 1 || buf[4] == 2) && buf[5] == 0 && buf[6] == 0 &&
	    buf[7] == 0 ? 100 : 0);
}

static int
pp_trace(const char *buf, size_t len)
{
	return (pp_starts(buf, len, "# deepq-trace") ? 100 : 0);
}

/* A varint of the protobuf wire format; -1 if cut or too long. */
static int
pp_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	int	 shift;

	*v = 0;
	for (shift = 0; shift < 64 && *p < end; shift += 7) {
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0)
			return (0);
	}
	return (-1);
}

/*
 * How many top-level fields of a pprof Profile message parse, with the
 * wire type its schema gives each field number (engine/reader-pprof.c's
 * pprof_probe_fields); -1 at the first that does not.
 */
static int
pp_pprof_fields(const uint8_t *buf, size_t len, int nested, int *tables)
{
	const uint8_t	*p = buf, *end = buf + len, *body;
	uint64_t	 key, v;
	int		 n = 0, field, wt;

	while (p < end) {
		if (pp_varint(&p, end, &key) == -1)
			return (n);
		field = (int)(key >> 3);
		wt = (int)(key & 7);
		if (nested) {
			if ((field != 1 && field != 2) || wt != 0)
				return (-1);
		} else if (field < 1 || field > 15)
			return (-1);
		else if (field <= 6 || field == 11) {
			if (wt != 2)
				return (-1);
		} else if (field == 13) {
			if (wt != 0 && wt != 2)
				return (-1);
		} else if (wt != 0)
			return (-1);
		if (pp_varint(&p, end, &v) == -1)
			return (n);
		if (wt != 0) {
			if (v > (uint64_t)(end - p))
				return (n + 1);
			body = p;
			p += v;
			if (!nested && field == 1 &&
			    pp_pprof_fields(body, v, 1, tables) == -1)
				return (-1);
			if (!nested && (field == 1 || field == 6))
				*tables = 1;
		}
		n++;
	}
	return (n);
}

static int
pp_pprof(const char *buf, size_t len)
{
	int	 tables = 0;

	return (pp_pprof_fields((const uint8_t *)buf, len, 0, &tables) >= 3 &&
	    tables ? 90 : 0);
}

static int
pp_ghc_prof(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len, *s;
	size_t		 n;
	int		 last, first = 1;

	while (pp_line(&p, end, &s, &n, &last)) {
		if (first && memmem(s, n, "Time and Allocation Profiling "
		    "Report", 36) != NULL)
			return (100);
		if (first && len > 0 && buf[0] == '{')
			return (0);
		first = 0;
		if (n > 11 && memcmp(s, "COST CENTRE", 11) == 0 &&
		    memmem(s, n, " MODULE ", 8) != NULL &&
		    memmem(s, n, " entries ", 9) != NULL)
			return (80);
	}
	return (0);
}

/* The first byte after blanks (and a BOM), or -1 (json-doc.c's). */
static int
pp_json_first(const char *buf, size_t len)
{
	size_t	 i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
	    buf[i] == '\r'))
		i++;
	if (i + 3 <= len && memcmp(buf + i, "\xef\xbb\xbf", 3) == 0)
		return (pp_json_first(buf + i + 3, len - i - 3));
	return (i < len ? (unsigned char)buf[i] : -1);
}

/*
 * An object key at a depth of the first len bytes, a scan of tokens
 * (engine/json-doc.c's json_doc_has_key, whose comment says how).
 */
static int
pp_json_key(const char *buf, size_t len, int depth, const char *key)
{
	char	 stack[16];
	int	 level = 0, expect_key = 0;
	size_t	 i, start, klen = strlen(key);

	for (i = 0; i < len; i++) {
		switch (buf[i]) {
		case '{':
		case '[':
			if (level < (int)sizeof stack)
				stack[level] = buf[i];
			level++;
			expect_key = buf[i] == '{';
			break;
		case '}':
		case ']':
			if (level == 0)
				return (0);
			level--;
			expect_key = 0;
			break;
		case ',':
			expect_key = level > 0 && level <= (int)sizeof stack &&
			    stack[level - 1] == '{';
			break;
		case '"':
			start = ++i;
			while (i < len && buf[i] != '"') {
				if (buf[i] == '\\')
					i++;
				i++;
			}
			if (i >= len)
				return (0);
			if (expect_key && level == depth && i - start == klen &&
			    memcmp(buf + start, key, klen) == 0)
				return (1);
			expect_key = 0;
			break;
		default:
			break;
		}
	}
	return (0);
}

/* The first byte after blanks is '{' (the GHC and V8 readers' test). */
static int
pp_object(const char *buf, size_t len)
{
	size_t	 i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
	    buf[i] == '\r'))
		i++;
	return (i < len && buf[i] == '{');
}

#define PP_HAS(s)	(memmem(buf, len, (s), sizeof(s) - 1) != NULL)

static int
pp_ghc_json(const char *buf, size_t len)
{
	if (!pp_object(buf, len))
		return (0);
	if (PP_HAS("\"cost_centres\"") && (PP_HAS("\"total_ticks\"") ||
	    PP_HAS("\"profile\"")))
		return (100);
	return (PP_HAS("\"total_ticks\"") && PP_HAS("\"tick_interval\"") ?
	    90 : 0);
}

static int
pp_v8(const char *buf, size_t len)
{
	if (!pp_object(buf, len))
		return (0);
	if (PP_HAS("\"nodes\"") && PP_HAS("\"callFrame\""))
		return (95);
	return (PP_HAS("\"samples\"") && PP_HAS("\"timeDeltas\"") ? 70 : 0);
}

static int
pp_speedscope(const char *buf, size_t len)
{
	return (pp_json_first(buf, len) == '{' &&
	    pp_json_key(buf, len, 1, "$schema") &&
	    PP_HAS("speedscope.app/file-format-schema.json") ? 100 : 0);
}

static int
pp_chrome(const char *buf, size_t len)
{
	switch (pp_json_first(buf, len)) {
	case '{':
		return (pp_json_key(buf, len, 1, "traceEvents") ? 100 : 0);
	case '[':
		return (pp_json_key(buf, len, 2, "ph") &&
		    (pp_json_key(buf, len, 2, "ts") ||
		    pp_json_key(buf, len, 2, "pid")) ? 90 : 0);
	default:
		return (0);
	}
}

static int
pp_gecko(const char *buf, size_t len)
{
	if (pp_json_first(buf, len) != '{')
		return (0);
	if (pp_json_key(buf, len, 1, "meta") &&
	    pp_json_key(buf, len, 2, "interval") &&
	    pp_json_key(buf, len, 2, "startTime") &&
	    (pp_json_key(buf, len, 2, "version") ||
	    pp_json_key(buf, len, 2, "preprocessedProfileVersion")))
		return (100);
	if (pp_json_key(buf, len, 1, "profile") &&
	    pp_json_key(buf, len, 1, "duration") &&
	    (pp_json_key(buf, len, 2, "libs") ||
	    pp_json_key(buf, len, 2, "meta")))
		return (90);
	return (pp_json_key(buf, len, 1, "libs") &&
	    pp_json_key(buf, len, 3, "breakpadId") &&
	    pp_json_key(buf, len, 3, "debugName") ? 90 : 0);
}

static int
pp_callgrind(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + (len < 2047 ? len : 2047), *s;
	size_t		 n;
	int		 last;

	if (pp_starts(buf, len, "# callgrind format"))
		return (100);
	while (pp_line(&p, end, &s, &n, &last)) {
		if (pp_starts(s, end - s, "events:"))
			return (80);
		if (pp_starts(s, end - s, "creator:"))
			return (70);
		if (last)
			break;
	}
	return (0);
}

/* A line of the first 8 KB starts with s (reader-gprof.c's gprof_has). */
static int
pp_gprof_has(const char *buf, size_t len, const char *s)
{
	const char	*p = buf, *end = buf + (len < 8192 ? len : 8192), *l;
	size_t		 n;
	int		 last;

	while (pp_line(&p, end, &l, &n, &last)) {
		if (pp_starts(l, end - l, s))
			return (1);
	}
	return (0);
}

static int
pp_gprof(const char *buf, size_t len)
{
	if (pp_gprof_has(buf, len, "Flat profile:") &&
	    pp_gprof_has(buf, len, "Each sample counts as "))
		return (95);
	return (pp_gprof_has(buf, len, "granularity: each sample hit "
	    "covers ") ? 95 : 0);
}

/* "@", a name of [A-Za-z0-9_], "[": a bpftrace map entry's start. */
static int
pp_bpftrace_entry(const char *s, size_t n)
{
	size_t	 i;

	if (n < 2 || s[0] != '@')
		return (0);
	for (i = 1; i < n && ((s[i] >= 'a' && s[i] <= 'z') ||
	    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
	    s[i] == '_'); i++)
		;
	return (i < n && s[i] == '[');
}

static int
pp_bpftrace(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len, *s, *t;
	size_t		 n, m, lines;
	int		 last;

	for (lines = 0; lines < 16 && pp_line(&p, end, &s, &n, &last);
	    lines++) {
		if (last)
			return (0);
		if (n == 0 || pp_starts(s, n, "Attaching "))
			continue;
		if (!pp_bpftrace_entry(s, n) || memchr(s, '\0', n) != NULL)
			return (0);
		if (!pp_line(&p, end, &t, &m, &last))
			return (0);
		return (m > 1 && (t[0] == ' ' || t[0] == '\t') ? 100 : 0);
	}
	return (0);
}

/* A dtrace count line, /^\s*\d+$/ (reader-dtrace.c's dtrace_count). */
static int
pp_dtrace_count(const char *s, size_t n)
{
	size_t	 i = 0;
	int64_t	 x = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n)
		return (0);
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (0);
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, s[i] - '0', &x))
			return (-1);
	}
	return (1);
}

static int
pp_dtrace(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len, *s;
	size_t		 n, i, lines, frames = 0;
	int		 last;

	for (lines = 0; lines < 256 && pp_line(&p, end, &s, &n, &last);
	    lines++) {
		if (memchr(s, '\0', n) != NULL)
			return (0);
		if (last)
			break;
		if (lines == 0 && n > 4 && memcmp(s, "CPU ", 4) == 0 &&
		    memmem(s, n, "FUNCTION:NAME", 13) != NULL)
			return (100);
		for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			;
		if (i == n)
			continue;
		if (pp_dtrace_count(s, n) == 1)
			return (frames >= 1 ? 90 : 0);
		if (i == 0 || memchr(s + i, '`', n - i) == NULL ||
		    memchr(s + i, ' ', n - i) != NULL)
			return (0);
		frames++;
	}
	return (0);
}

/* Perl's \s, \d and \w on bytes, as stackcollapse-perf.pl has them. */
static int
pp_space(int c)
{
	return (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v');
}

static int
pp_digit(int c)
{
	return (c >= '0' && c <= '9');
}

static int
pp_word(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    pp_digit(c) || c == '_');
}

/*
 * perf script's event line, ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+: 1 with *at
 * the offset just after the pid (or tid). reader-perf.c's perf_header.
 */
static int
pp_perf_header(const char *s, size_t len, size_t *at)
{
	size_t	 i = 1, a, b, p, j, k, d;

	if (len == 0 || pp_space((unsigned char)s[0]))
		return (0);
	while (i < len) {
		if (!pp_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		for (a = i, b = i; b < len && pp_space((unsigned char)s[b]);
		    b++)
			;
		p = a < 2 ? 2 : a;
		if (p < b && b < len && pp_digit((unsigned char)s[b])) {
			for (j = b; j < len && pp_digit((unsigned char)s[j]);
			    j++)
				;
			for (k = j; k < len && s[k] == '/'; k++)
				;
			if (k < len && pp_digit((unsigned char)s[k])) {
				for (d = k; d < len &&
				    pp_digit((unsigned char)s[d]); d++)
					;
				if (d < len && pp_space((unsigned char)s[d])) {
					*at = d;
					return (1);
				}
			} else if (k < len && pp_space((unsigned char)s[k])) {
				*at = j;
				return (1);
			}
		}
		i = b;
	}
	return (0);
}

/* The event and period, /:\s*(\d+)*\s+(\S+):\s*$/ (perf_event). */
static int
pp_perf_event(const char *s, size_t len)
{
	size_t	 e = len, t, w, d;

	while (e > 0 && pp_space((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || s[e - 1] != ':')
		return (0);
	for (t = e - 1; t > 0 && !pp_space((unsigned char)s[t - 1]); t--)
		;
	if (t == e - 1 || t == 0)
		return (0);
	for (w = t; w > 0 && pp_space((unsigned char)s[w - 1]); w--)
		;
	if (w > 0 && s[w - 1] == ':')
		return (1);
	for (d = w; d > 0 && pp_digit((unsigned char)s[d - 1]); d--)
		;
	if (d == w)
		return (0);
	while (d > 0 && pp_space((unsigned char)s[d - 1]))
		d--;
	return (d > 0 && s[d - 1] == ':');
}

/* A period after the pid with no ':' before it (perf_event_loose). */
static int
pp_perf_loose(const char *s, size_t len, size_t from)
{
	size_t	 e = len, t, d;

	while (e > from && pp_space((unsigned char)s[e - 1]))
		e--;
	if (e > from && s[e - 1] == ':') {
		for (t = e - 1; t > from && !pp_space((unsigned char)s[t - 1]);
		    t--)
			;
		if (t == e - 1 || t == from)
			return (0);
		for (e = t; e > from && pp_space((unsigned char)s[e - 1]); e--)
			;
		if (e == t)
			return (0);
	}
	for (d = e; d > from && pp_digit((unsigned char)s[d - 1]); d--)
		;
	return (d != e && d != from && pp_space((unsigned char)s[d - 1]));
}

/*
 * A frame line, /^\s*(\w+)\s*(.+) \((\S*)\)/: a word at the first
 * non-blank, then somewhere at least two bytes on a " (" whose
 * blank-free run goes on to a ')'.
 */
static int
pp_perf_frame(const char *s, size_t len)
{
	size_t	 s0, q, r;

	for (s0 = 0; s0 < len && pp_space((unsigned char)s[s0]); s0++)
		;
	if (s0 == len || !pp_word((unsigned char)s[s0]))
		return (0);
	for (q = s0 + 2; q + 2 < len; q++) {
		if (s[q] != ' ' || s[q + 1] != '(')
			continue;
		for (r = q + 2; r < len && !pp_space((unsigned char)s[r]); r++)
			if (s[r] == ')')
				return (1);
	}
	return (0);
}

static int
pp_perf(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len, *s, *t;
	size_t		 n, m, lines, at;
	int		 last, strict, loose;

	for (lines = 0;; lines++) {
		if (lines == 64 || !pp_line(&p, end, &s, &n, &last))
			return (0);
		if (n > 0 && s[0] != '#' &&
		    memmem(s, n, ": PERF_RECORD_", 14) == NULL)
			break;
		if (last)
			return (0);
	}
	if (memchr(s, '\0', n) != NULL || !pp_perf_header(s, n, &at))
		return (0);
	strict = pp_perf_event(s, n);
	loose = !strict && pp_perf_loose(s, n, at);
	if (last)
		return (strict ? 40 : 0);
	if (!pp_line(&p, end, &t, &m, &last))
		m = 0;
	if (m > 0 && t[m - 1] == '\r')
		m--;
	if (m > 0 && pp_perf_frame(t, m))
		return (strict || loose ? 90 : 60);
	return (m == 0 && strict ? 90 : 0);
}

static int
pp_folded(const char *buf, size_t len)
{
	const char	*nl, *p;
	size_t		 n, digits = 0;

	/* Blank and comment lines first. */
	while (len > 0) {
		nl = memchr(buf, '\n', len);
		n = nl ? (size_t)(nl - buf) : len;
		if (n > 0 && buf[0] != '#' && !(n == 1 && buf[0] == '\r'))
			break;
		if (nl == NULL)
			return (0);
		buf += n + 1;
		len -= n + 1;
	}
	if (len == 0 || buf[0] == '{' || buf[0] == '[')
		return (0);
	nl = memchr(buf, '\n', len);
	n = nl ? (size_t)(nl - buf) : len;
	if (memchr(buf, '\0', n) != NULL)
		return (0);
	p = buf + n;
	while (p > buf && (p[-1] == '\r' || p[-1] == ' ' || p[-1] == '\t'))
		p--;
	while (p > buf && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.')) {
		p--;
		digits++;
	}
	if (digits == 0 || p == buf || (p[-1] != ' ' && p[-1] != '\t'))
		return (0);
	return (memchr(buf, ';', p - buf) != NULL ? 60 : 20);
}

/*
 * Files other tools write that the readers refuse (engine/reader-
 * refuse.c): their score, which beats an equal or lower reader's.
 */
static int
pp_refused(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len, *s;
	size_t		 n, i;
	int		 last, pid = 0, tid = 0, frame = 0, score = 0;
	int		 blanks = 1;

	if (pp_starts(buf, len, "PERFILE2") || pp_starts(buf, len,
	    "PERFFILE") || (len >= 4 && memcmp(buf, "FLR\0", 4) == 0) ||
	    pp_starts(buf, len, "v8-version,"))
		return (100);
	for (i = 0; i < 64 && pp_line(&p, end, &s, &n, &last); i++) {
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (i < 4 && pp_starts(s, n, "Statistical profiling result "
		    "from "))
			return (100);
		if (i < 6 && pp_starts(s, n, "Full thread dump "))
			return (100);
		if (i < 8 && (pp_starts(s, n, "{\"type\": \"attached_probes\"")
		    || pp_starts(s, n, "{\"type\": \"map\"") ||
		    pp_starts(s, n, "{\"type\": \"printf\"")))
			return (100);
		if (blanks && n > 0) {
			blanks = 0;
			if (pp_starts(s, n, "Attaching ") &&
			    memmem(s, n, " probe", 6) != NULL)
				score = 95;
		}
		if (n >= 2 && s[0] == '@' && s[n - 1] == '[')
			score = 95;
		if (pp_starts(s, n, "PID ") && memmem(s, n, " - ", 3) != NULL)
			pid = 1;
		else if (pp_starts(s, n, "TID ") && s[n - 1] == ':')
			tid = 1;
		else if (pp_starts(s, n, "#0  0x"))
			frame = 1;
	}
	if ((pid || tid) && frame)
		score = 95;
	return (score);
}

/*
 * The format of a profile whose first bytes (decoded) are buf, as the
 * engine's reader table would pick it; NULL if none or refused.
 */
const char *
profprobe_head(const char *buf, size_t len)
{
	const char	*best = NULL;
	size_t		 i;
	int		 score, top = 0;

	if (len > PROFPROBE_HEAD)
		len = PROFPROBE_HEAD;
	if (len == 0)
		return (NULL);
	for (i = 0; i < PROFPROBE_NRULES; i++) {
		score = profprobe_rules[i].probe(buf, len);
		if (score > top) {
			top = score;
			best = profprobe_rules[i].name;
		}
	}
	if (best != NULL && pp_refused(buf, len) >= top)
		return (NULL);
	return (best);
}

/* The format's index in the table (for a cache), -1 if none. */
int
profprobe_format_id(const char *name)
{
	size_t	 i;

	for (i = 0; name != NULL && i < PROFPROBE_NRULES; i++) {
		if (strcmp(profprobe_rules[i].name, name) == 0)
			return ((int)i);
	}
	return (-1);
}

/* The format of an index, NULL if out of range. */
const char *
profprobe_format_name(int id)
{
	return (id >= 0 && (size_t)id < PROFPROBE_NRULES ?
	    profprobe_rules[id].name : NULL);
}

static long long
profprobe_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Read up to n bytes at fd's offset; short only at the end. */
static ssize_t
profprobe_fill(int fd, unsigned char *p, size_t n)
{
	size_t	 got = 0;
	ssize_t	 r;

	while (got < n) {
		r = read(fd, p + got, n - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return (-1);
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return ((ssize_t)got);
}

/*
 * A zlib stream's header, as engine/decompress.c tells it from text: the
 * check of RFC 1950 with no preset dictionary; "x^" (text too) must
 * then inflate.
 */
static int
profprobe_zlib_header(const unsigned char *p, size_t len)
{
	return (len >= 2 && p[0] == 0x78 && ((p[0] << 8) | p[1]) % 31 == 0 &&
	    (p[1] & 0x20) == 0);
}

/*
 * gzip members (and zero padding between and after them, as tar and dd
 * leave) or one zlib stream, as engine/decompress.c reads them.
 */
static ssize_t
profprobe_zlib(int gzip, const unsigned char *in, size_t n, int whole,
    char *out, size_t cap, long long t0)
{
	z_stream	 z;
	size_t		 got = 0;
	int		 rc = Z_OK, ended = 0;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
		return (-1);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;
	while (got < cap && profprobe_ms() - t0 < PROFPROBE_MAX_MS) {
		if (ended) {
			while (z.avail_in > 0 && *z.next_in == 0) {
				z.next_in++;
				z.avail_in--;
			}
			if (z.avail_in == 0)
				break;
			if (!gzip || *z.next_in != 0x1f ||
			    inflateReset(&z) != Z_OK) {
				got = (size_t)-1;	/* trailing bytes */
				break;
			}
			ended = 0;
		}
		if (z.avail_in == 0) {
			/* The whole file read, inside a stream: truncated. */
			if (whole)
				got = (size_t)-1;
			break;
		}
		z.next_out = (unsigned char *)out + got;
		z.avail_out = (uInt)(cap - got);
		rc = inflate(&z, Z_NO_FLUSH);
		got = cap - z.avail_out;
		if (rc == Z_STREAM_END)
			ended = 1;
		else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_in == 0)) {
			got = (size_t)-1;
			break;
		}
	}
	inflateEnd(&z);
	return ((ssize_t)got);
}

/* zstd frames one after the other. */
static ssize_t
profprobe_zstd(const unsigned char *in, size_t n, int whole, char *out,
    size_t cap, long long t0)
{
	ZSTD_DStream	*zs;
	ZSTD_inBuffer	 ib = { in, n, 0 };
	ZSTD_outBuffer	 obf = { out, cap, 0 };
	size_t		 r = 1;

	if ((zs = ZSTD_createDStream()) == NULL)
		return (-1);
	/* zstd's default window bound (128 MB), set explicitly. */
	(void)ZSTD_DCtx_setParameter(zs, ZSTD_d_windowLogMax, 27);
	while (obf.pos < obf.size && ib.pos < ib.size &&
	    profprobe_ms() - t0 < PROFPROBE_MAX_MS) {
		r = ZSTD_decompressStream(zs, &obf, &ib);
		if (ZSTD_isError(r))
			break;
	}
	ZSTD_freeDStream(zs);
	if (ZSTD_isError(r) || (whole && r != 0 && obf.pos < obf.size &&
	    ib.pos == ib.size))
		return (-1);
	return ((ssize_t)obf.pos);
}

/* xz streams one after the other, with their padding. */
static ssize_t
profprobe_xz(const unsigned char *in, size_t n, int whole, char *out,
    size_t cap, long long t0)
{
	lzma_stream	 xz = LZMA_STREAM_INIT;
	lzma_ret	 lr = LZMA_OK;
	size_t		 got;

	/* xz -9 needs 65 MiB: a file needing more than this is not listed. */
	if (lzma_stream_decoder(&xz, (uint64_t)256 << 20,
	    LZMA_CONCATENATED) != LZMA_OK)
		return (-1);
	xz.next_in = in;
	xz.avail_in = n;
	xz.next_out = (uint8_t *)out;
	xz.avail_out = cap;
	while (lr == LZMA_OK && xz.avail_out > 0 &&
	    profprobe_ms() - t0 < PROFPROBE_MAX_MS) {
		lr = lzma_code(&xz, whole ? LZMA_FINISH : LZMA_RUN);
		if (!whole && xz.avail_in == 0)
			break;
	}
	got = cap - xz.avail_out;
	lzma_end(&xz);
	if (lr == LZMA_OK || lr == LZMA_STREAM_END ||
	    (lr == LZMA_BUF_ERROR && got == cap))
		return ((ssize_t)got);
	return (-1);
}

/*
 * Decode the head of in (n compressed bytes, the file's first; whole if
 * that is all of it) into out, at most cap bytes; the decoded length,
 * or -1 if it does not decode as the engine would read it (truncated,
 * corrupt, trailing bytes). Bounded: n is at most PROFPROBE_MAX_IN, the
 * output cap, the time PROFPROBE_MAX_MS.
 */
static ssize_t
profprobe_decode(int kind, const unsigned char *in, size_t n, int whole,
    char *out, size_t cap)
{
	long long	 t0 = profprobe_ms();

	if (kind == 'g' || kind == 'z')
		return (profprobe_zlib(kind == 'g', in, n, whole, out, cap,
		    t0));
	if (kind == 's')
		return (profprobe_zstd(in, n, whole, out, cap, t0));
	return (profprobe_xz(in, n, whole, out, cap, t0));
}

/*
 * The first decoded bytes of the regular file open at fd (read from its
 * start), at most cap: through gzip, zlib, zstd or xz when its magic
 * says so, *compression then naming it (else NULL). -1 if it cannot be
 * read or does not decode. Never more than PROFPROBE_MAX_IN bytes read.
 */
ssize_t
profprobe_read(int fd, char *buf, size_t cap, const char **compression)
{
	unsigned char	*in;
	ssize_t		 n, got;
	int		 kind = 0;

	*compression = NULL;
	if (lseek(fd, 0, SEEK_SET) == -1)
		return (-1);
	if ((n = profprobe_fill(fd, (unsigned char *)buf, cap)) <= 0)
		return (n);
	in = (unsigned char *)buf;
	if (n >= 2 && in[0] == 0x1f && in[1] == 0x8b)
		kind = 'g';
	else if (n >= 4 && memcmp(in, "\x28\xb5\x2f\xfd", 4) == 0)
		kind = 's';
	else if (n >= 6 && memcmp(in, "\xfd" "7zXZ\0", 6) == 0)
		kind = 'x';
	else if (profprobe_zlib_header(in, (size_t)n))
		kind = 'z';
	if (kind == 0)
		return (n);

	if ((in = malloc(PROFPROBE_MAX_IN)) == NULL)
		return (-1);
	memcpy(in, buf, (size_t)n);
	if ((size_t)n == cap && (got = profprobe_fill(fd, in + n,
	    PROFPROBE_MAX_IN - n)) > 0)
		n += got;
	got = profprobe_decode(kind, in, (size_t)n, n < PROFPROBE_MAX_IN,
	    buf, cap);
	free(in);
	if (got == -1 && kind == 'z') {
		/* Not zlib after all ("x^..." text): read it plain. */
		if (lseek(fd, 0, SEEK_SET) == -1)
			return (-1);
		return (profprobe_fill(fd, (unsigned char *)buf, cap));
	}
	if (got >= 0)
		*compression = kind == 'g' ? "gzip" : kind == 's' ? "zstd" :
		    kind == 'x' ? "xz" : "zlib";
	return (got);
}

/*
 * The format of the regular file open at fd (see above), NULL if none;
 * buf is the caller's, of PROFPROBE_HEAD bytes.
 */
const char *
profprobe_fd(int fd, char *buf)
{
	const char	*compression;
	ssize_t		 n;

	if ((n = profprobe_read(fd, buf, PROFPROBE_HEAD, &compression)) <= 0)
		return (NULL);
	return (profprobe_head(buf, (size_t)n));
}

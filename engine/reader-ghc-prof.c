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

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "decimal.h"
#include "idmap.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "reader-ghc-prof.h"
#include "strpool.h"

/*
 * GHC cost-centre profiles, text (+RTS -p, and -P with raw ticks and
 * bytes columns), as written by rts/ProfilerReport.c. Only the header
 * totals and the call-tree table are read; the per-cost-centre summary
 * above the tree is derived data and is skipped.
 *
 * Columns are found by offset from the tree's header line, counted in
 * code points as the RTS pads them, so labels and SRC spans may hold
 * spaces. The numeric fields are taken from the right of each row.
 *
 * Metrics: ticks, alloc (bytes) and entries. A row's individual columns
 * are its node's self values; GHC's inherited columns are our inclusive
 * values (the sum over the subtree). With -P the individual ticks and
 * bytes are printed and read as they are. Without it only percentages to
 * 0.1 exist; ghc_fit() then finds integer values that reproduce every
 * printed individual and inherited percentage (when GHC's figures allow
 * it) and that add up exactly to the header's total ticks and total
 * alloc. Those values are a reconstruction, not a measurement: the file
 * carries nothing finer.
 *
 * A function is a cost centre: label and module, with SRC as its file
 * and line. When several cost centres share a label and module (pattern
 * bindings "f.(...)", -fprof-auto-calls) their names carry the SRC,
 * "label [SRC]", so they stay apart as GHC keeps them. A row indented
 * more than one level below the previous open row sits under a stack GHC
 * hides (GC, IDLE, SYSTEM...): a "(hidden)" node takes its place.
 */

#define GHC_REPORT	"Time and Allocation Profiling Report"
#define GHC_HIDDEN	"(hidden)"
#define GHC_NONE	UINT32_MAX
#define GHC_AMBIGUOUS	(UINT32_MAX - 1)

struct ghc_row {
	uint32_t	 label, module, src;	/* ids in the reader's pool */
	uint32_t	 parent;		/* row index, or GHC_NONE */
	uint32_t	 node;
	uint32_t	 lnode;			/* in the line tree */
	uint32_t	 first, next;		/* child rows */
	size_t		 depth;
	int		 hidden;
	int		 pct[4];
	int64_t		 entries, ticks, bytes;
};

struct ghc {
	struct strpool	*pool;
	struct ghc_row	*rows;
	uint32_t	 nrows, cap, maxrows;
	uint32_t	*open;			/* open rows, by depth */
	size_t		 nopen, opencap;
	int64_t		 total_ticks;		/* -1 until read */
	int64_t		 total_alloc;
	int		 verbose;
};

/* Per-row working values of one metric for ghc_fit(). */
struct ghc_fit_row {
	int64_t		 lo, hi;		/* own value */
	int64_t		 slo, shi;		/* subtree sum */
	int64_t		 est, sest;		/* own and subtree estimates */
	int64_t		 value;
};

static int	ghc_prof_probe(const char *, size_t);
static struct profile *ghc_prof_load(struct input *,
		    const struct reader_options *, char **);
static size_t	ghc_cp_byte(const char *, size_t, size_t);
static int	ghc_uint(const char *, size_t, uint64_t *);
static int	ghc_pct(const char *, size_t, int *);
static int	ghc_header(struct ghc *, const char *);
static int	ghc_add_row(struct ghc *, const struct ghc_prof_row *,
		    const char **);
static int	ghc_build(struct ghc *, struct profile_builder *, int, int,
		    int);
static int	ghc_fit(struct ghc *, int, int64_t, int64_t *);
static int64_t	ghc_add(int64_t, int64_t);
static int64_t	ghc_share(int, int64_t);
static int	ghc_tenths(int64_t, int64_t);
static void	ghc_range(int, int64_t, int64_t *, int64_t *);
static void	ghc_split(struct ghc *, struct ghc_fit_row *, uint32_t,
		    int64_t);

const struct reader reader_ghc_prof = {
	.name = "ghc-prof",
	.description = "GHC cost-centre profile, text (+RTS -p or -P)",
	.probe = ghc_prof_probe,
	.load = ghc_prof_load,
};

/* The report title on the first line, or a tree header further down. */
static int
ghc_prof_probe(const char *buf, size_t len)
{
	const char	*nl, *p;
	size_t		 n;

	nl = memchr(buf, '\n', len);
	n = nl != NULL ? (size_t)(nl - buf) : len;
	if (memmem(buf, n, GHC_REPORT, sizeof GHC_REPORT - 1) != NULL)
		return (100);
	if (len > 0 && buf[0] == '{')
		return (0);
	for (p = buf; p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', buf + len - p);
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(buf + len - p);
		if (n > 11 && memcmp(p, "COST CENTRE", 11) == 0 &&
		    memmem(p, n, " MODULE ", 8) != NULL &&
		    memmem(p, n, " entries ", 9) != NULL)
			return (80);
		if (nl == NULL)
			break;
	}
	return (0);
}

/*
 * Byte offset of code point cp in s (len if s is shorter). Code points
 * are counted as the RTS's strlen_utf8 does: every byte that is not a
 * continuation byte, so even malformed UTF-8 lines up with GHC's padding.
 */
static size_t
ghc_cp_byte(const char *s, size_t len, size_t cp)
{
	size_t	 i, n = 0;

	for (i = 0; i < len; i++) {
		unsigned char	 c = s[i];

		if (c < 0x80 || c > 0xbf) {
			if (n == cp)
				return (i);
			n++;
		}
	}
	return (len);
}

static int
ghc_uint(const char *s, size_t n, uint64_t *v)
{
	return (decimal_u64(s, n, UINT64_MAX, v) == DECIMAL_OK ? 0 : -1);
}

/* A percentage printed as %5.1f, in tenths. */
static int
ghc_pct(const char *s, size_t n, int *v)
{
	uint64_t	 x;

	if (n < 3 || s[n - 2] != '.' || ghc_uint(s, n - 2, &x) == -1 ||
	    x > 1000000 || s[n - 1] < '0' || s[n - 1] > '9')
		return (-1);
	*v = (int)(x * 10 + (s[n - 1] - '0'));
	return (0);
}

/*
 * Find the columns of the call-tree table from its header line. 0 if the
 * line is one, -1 if not (the per-cost-centre summary has no "no.").
 */
int
reader_ghc_prof_columns(const char *s, size_t len,
    struct ghc_prof_columns *c)
{
	static const char *const tail[] = { "entries", "%time", "%alloc",
	    "%time", "%alloc" };
	const char	*tok[16];
	size_t		 toklen[16], tokcp[16], i, ntok = 0, cp = 0, t;

	for (i = 0; i < len && ntok < 16;) {
		unsigned char	 ch = s[i];

		if (ch == ' ' || ch == '\t') {
			i++;
			cp++;
			continue;
		}
		tok[ntok] = s + i;
		tokcp[ntok] = cp;
		while (i < len && s[i] != ' ' && s[i] != '\t') {
			ch = s[i++];
			if (ch < 0x80 || ch > 0xbf)
				cp++;
		}
		toklen[ntok] = s + i - tok[ntok];
		ntok++;
	}
#define TOK(k, w) (toklen[k] == strlen(w) && memcmp(tok[k], w, toklen[k]) == 0)
	if (ntok < 9 || tokcp[0] != 0 || !TOK(0, "COST") || !TOK(1, "CENTRE") ||
	    !TOK(2, "MODULE"))
		return (-1);
	memset(c, 0, sizeof *c);
	c->module = tokcp[2];
	t = 3;
	if (TOK(3, "SRC")) {
		c->src = tokcp[3];
		t = 4;
	}
	if (!TOK(t, "no."))
		return (-1);
	t++;
	for (i = 0; i < 5; i++, t++) {
		if (t >= ntok || !TOK(t, tail[i]))
			return (-1);
	}
	c->nnum = 6;
	if (t + 2 == ntok && TOK(t, "ticks") && TOK(t + 1, "bytes")) {
		c->verbose = 1;
		c->nnum = 8;
	} else if (t != ntok)
		return (-1);
#undef TOK
	return (0);
}

/*
 * Split one row of the call tree. The numbers are taken from the right;
 * label, module and SRC by the header's columns, so that a label or SRC
 * may hold spaces. When the row does not line up (a file edited by hand,
 * an old RTS that glued columns together) label and module are the first
 * two words instead. -1 with *why on a row that cannot be read.
 */
int
reader_ghc_prof_row(const struct ghc_prof_columns *c, const char *s,
    size_t len, struct ghc_prof_row *r, const char **why)
{
	const char	*tok[8];
	size_t		 toklen[8], e = len, b, mb, sb, text, i;
	int		 k;
	uint64_t	 u;

	memset(r, 0, sizeof *r);
	r->ticks = r->bytes = -1;
	for (k = c->nnum - 1; k >= 0; k--) {
		while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		b = e;
		while (b > 0 && s[b - 1] != ' ' && s[b - 1] != '\t')
			b--;
		if (b == e) {
			*why = c->verbose ? "expected 8 numbers at the end of "
			    "the row" : "expected 6 numbers at the end of the row";
			return (-1);
		}
		tok[k] = s + b;
		toklen[k] = e - b;
		e = b;
	}
	if (ghc_uint(tok[0], toklen[0], &r->no) == -1) {
		*why = "bad cost-centre stack number (no.)";
		return (-1);
	}
	if (ghc_uint(tok[1], toklen[1], &u) == -1 || u > INT64_MAX) {
		*why = "bad entries count";
		return (-1);
	}
	r->entries = (int64_t)u;
	for (k = 0; k < 4; k++) {
		if (ghc_pct(tok[2 + k], toklen[2 + k], &r->pct[k]) == -1) {
			*why = "bad percentage";
			return (-1);
		}
	}
	if (c->verbose) {
		if (ghc_uint(tok[6], toklen[6], &u) == -1 || u > INT64_MAX) {
			*why = "bad ticks count";
			return (-1);
		}
		r->ticks = (int64_t)u;
		if (ghc_uint(tok[7], toklen[7], &u) == -1 || u > INT64_MAX) {
			*why = "bad bytes count";
			return (-1);
		}
		r->bytes = (int64_t)u;
	}

	/* The text before the numbers: label, module, SRC. */
	text = e;
	while (text > 0 && (s[text - 1] == ' ' || s[text - 1] == '\t'))
		text--;
	while (r->depth < text && s[r->depth] == ' ')
		r->depth++;
	if (r->depth == text) {
		*why = "no cost-centre label";
		return (-1);
	}
	mb = ghc_cp_byte(s, len, c->module);
	sb = c->src ? ghc_cp_byte(s, len, c->src) : text;
	if (sb > text)
		sb = text;
	r->aligned = mb > r->depth && mb < text && s[mb - 1] == ' ' &&
	    s[mb] != ' ' && sb > mb && (sb == text || (s[sb - 1] == ' ' &&
	    s[sb] != ' '));
	if (r->aligned) {
		r->label = s + r->depth;
		for (i = mb; i > r->depth && s[i - 1] == ' '; i--)
			;
		r->labellen = i - r->depth;
		r->module = s + mb;
		for (i = sb; i > mb && s[i - 1] == ' '; i--)
			;
		r->modlen = i - mb;
		if (memchr(r->module, ' ', r->modlen) != NULL)
			r->aligned = 0;
	}
	if (!r->aligned) {
		/* Words: label, module, then SRC up to the numbers. */
		r->label = s + r->depth;
		for (i = r->depth; i < text && s[i] != ' '; i++)
			;
		r->labellen = i - r->depth;
		while (i < text && s[i] == ' ')
			i++;
		if (i == text) {
			*why = "no module";
			return (-1);
		}
		r->module = s + i;
		for (; i < text && s[i] != ' '; i++)
			;
		r->modlen = s + i - r->module;
		while (i < text && s[i] == ' ')
			i++;
		sb = i;
		if (!c->src && sb != text) {
			*why = "text between the module and the numbers";
			return (-1);
		}
	}
	r->src = s + sb;
	r->srclen = text - sb;
	return (0);
}

/*
 * Split a GHC source span ("F.hs:12:3-9", "F.hs:(12,3)-(14,9)", "F.hs:12:3")
 * into the length of its file part (returned) and its first line. The
 * pseudo-locations "<entire-module>", "<built-in>" and "<no location
 * info>" have neither: 0 and line 0.
 */
size_t
reader_ghc_prof_srcloc(const char *s, size_t n, uint32_t *line)
{
	size_t		 i, j, weak = 0;
	uint64_t	 v;

	*line = 0;
	if (n == 0 || s[0] == '<')
		return (0);
	for (i = n; i > 1; i--) {
		if (s[i - 1] != ':')
			continue;
		j = i;
		if (j < n && s[j] == '(')
			j++;
		v = 0;
		while (j < n && s[j] >= '0' && s[j] <= '9') {
			if (v < UINT32_MAX)
				v = v * 10 + (s[j] - '0');
			j++;
		}
		if (j == i || (s[i] == '(' && j == i + 1))
			continue;
		if (v > UINT32_MAX)
			v = UINT32_MAX;
		if ((s[i] == '(' && j < n && s[j] == ',') ||
		    (s[i] != '(' && j < n && s[j] == ':')) {
			*line = (uint32_t)v;
			return (i - 1);
		}
		if (weak == 0 && s[i] != '(' && (j == n || s[j] == '-')) {
			weak = i - 1;
			*line = (uint32_t)v;
		}
	}
	return (weak);
}

/* Header lines: "total time = ... (N ticks @ ...)", "total alloc = N bytes". */
static int
ghc_header(struct ghc *g, const char *s)
{
	const char	*p, *e;
	uint64_t	 v = 0;
	int		 digits = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "total time", 10) == 0) {
		if ((p = strchr(s, '(')) == NULL ||
		    (e = strstr(p, " ticks")) == NULL)
			return (-1);
		p++;
		if (decimal_u64(p, (size_t)(e - p), INT64_MAX, &v) !=
		    DECIMAL_OK)
			return (-1);
		g->total_ticks = (int64_t)v;
	} else if (strncmp(s, "total alloc", 11) == 0) {
		if ((p = strchr(s, '=')) == NULL)
			return (-1);
		for (p++; *p == ' '; p++)
			;
		for (; (*p >= '0' && *p <= '9') || *p == ','; p++) {
			if (*p == ',')
				continue;
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v) ||
			    v > INT64_MAX)
				return (-1);
			digits++;
		}
		if (digits == 0 || strncmp(p, " bytes", 6) != 0)
			return (-1);
		g->total_alloc = (int64_t)v;
	}
	return (0);
}

/* Append a row under the nearest shallower open row. */
static int
ghc_add_row(struct ghc *g, const struct ghc_prof_row *r, const char **why)
{
	struct ghc_row	*row, *n;
	uint32_t	 parent = GHC_NONE;
	int		 hidden;

	while (g->nopen > 0 && g->rows[g->open[g->nopen - 1]].depth >=
	    r->depth)
		g->nopen--;
	if (g->nopen > 0)
		parent = g->open[g->nopen - 1];
	/* A jump of more than one level: GHC hid a stack there. */
	hidden = (parent == GHC_NONE && r->depth > 0) || (parent != GHC_NONE &&
	    r->depth > g->rows[parent].depth + 1);
	if (g->nrows + hidden + 1 > g->maxrows) {
		*why = "too many call nodes";
		return (-1);
	}
	if (g->nrows + 2 > g->cap) {
		uint32_t	 cap = g->cap ? g->cap * 2 : 1024;

		if (cap < g->cap || (n = reallocarray(g->rows, cap,
		    sizeof *n)) == NULL)
			return (-1);
		g->rows = n;
		g->cap = cap;
	}
	if (g->nopen + 2 > g->opencap) {
		size_t	 cap = g->opencap ? g->opencap * 2 : 64;
		uint32_t *o;

		if ((o = reallocarray(g->open, cap, sizeof *o)) == NULL)
			return (-1);
		g->open = o;
		g->opencap = cap;
	}
	if (hidden) {
		row = &g->rows[g->nrows];
		memset(row, 0, sizeof *row);
		row->hidden = 1;
		row->parent = parent;
		row->depth = r->depth - 1;
		if ((row->label = strpool_intern(g->pool, GHC_HIDDEN,
		    sizeof GHC_HIDDEN - 1)) == STRPOOL_NONE ||
		    (row->module = row->src = strpool_intern(g->pool, "", 0)) ==
		    STRPOOL_NONE)
			return (-1);
		parent = g->open[g->nopen++] = g->nrows++;
	}
	row = &g->rows[g->nrows];
	memset(row, 0, sizeof *row);
	row->parent = parent;
	row->depth = r->depth;
	memcpy(row->pct, r->pct, sizeof row->pct);
	row->entries = r->entries;
	row->ticks = r->ticks;
	row->bytes = r->bytes;
	if ((row->label = strpool_intern(g->pool, r->label, r->labellen)) ==
	    STRPOOL_NONE ||
	    (row->module = strpool_intern(g->pool, r->module, r->modlen)) ==
	    STRPOOL_NONE ||
	    (row->src = strpool_intern(g->pool, r->src, r->srclen)) ==
	    STRPOOL_NONE)
		return (-1);
	g->open[g->nopen++] = g->nrows++;
	return (0);
}

/* a + b for non-negative values, saturating. */
static int64_t
ghc_add(int64_t a, int64_t b)
{
	int64_t	 s;

	return (__builtin_add_overflow(a, b, &s) ? INT64_MAX : s);
}

/* p tenths of a percent of total, rounded, at most total. */
static int64_t
ghc_share(int p, int64_t total)
{
	__int128	 v = ((__int128)p * total + 500) / 1000;

	return (v > total ? total : (int64_t)v);
}

/*
 * The tenths of a percent GHC prints for x of total t ("%5.1f" of
 * (double)x / t * 100.0). printf rounds the double's exact value to
 * nearest, ties to even; with a long double of 57 or more bits ten times
 * that double is exact, and llrintl rounds it the same way without the
 * cost of printf (half the load time of a -p file).
 */
static int
ghc_tenths(int64_t x, int64_t t)
{
	char	 buf[64];
	double	 d;
	int	 v = 0, i;

	if (t == 0)
		return (0);
	d = (double)x / (double)t * 100.0;
#if LDBL_MANT_DIG >= 57
	if (d < 1e9)
		return ((int)llrintl(10.0L * (long double)d));
#endif
	snprintf(buf, sizeof buf, "%.1f", d);
	for (i = 0; buf[i] != '\0'; i++) {
		if (buf[i] >= '0' && buf[i] <= '9')
			v = v * 10 + (buf[i] - '0');
	}
	return (v);
}

/*
 * The values x in [0, t] for which GHC prints p tenths: [*lo, *hi], empty
 * when *lo > *hi. Starts from the exact rational bounds and steps to
 * where the printed (double, rounded) value changes.
 */
static void
ghc_range(int p, int64_t t, int64_t *lo, int64_t *hi)
{
	__int128	 a, b;
	int		 i;

	if (t == 0) {
		*lo = 0;
		*hi = p == 0 ? 0 : -1;
		return;
	}
	a = ((__int128)(2 * p - 1) * t + 1999) / 2000;
	b = ((__int128)(2 * p + 1) * t) / 2000;
	if (a < 0)
		a = 0;
	if (b > t)
		b = t;
	if (a > t || b < 0) {
		*lo = 0;
		*hi = -1;
		return;
	}
	*lo = (int64_t)a;
	*hi = (int64_t)b;
	for (i = 0; i < 8 && *lo > 0 && ghc_tenths(*lo - 1, t) >= p; i++)
		(*lo)--;
	for (i = 0; i < 8 && *lo <= t && ghc_tenths(*lo, t) < p; i++)
		(*lo)++;
	for (i = 0; i < 8 && *hi < t && ghc_tenths(*hi + 1, t) <= p; i++)
		(*hi)++;
	for (i = 0; i < 8 && *hi >= 0 && ghc_tenths(*hi, t) > p; i++)
		(*hi)--;
}

/*
 * Share target among a row's own value and its children's subtrees,
 * each within its range, as near the printed estimates as the ranges
 * allow; the ranges were checked to admit target.
 */
static void
ghc_split(struct ghc *g, struct ghc_fit_row *f, uint32_t r, int64_t target)
{
	int64_t		 sum, d;
	uint32_t	 c;

#define CLAMP(v, l, h) ((v) < (l) ? (l) : (v) > (h) ? (h) : (v))
	f[r].value = CLAMP(f[r].est, f[r].lo, f[r].hi);
	sum = f[r].value;
	for (c = g->rows[r].first; c != GHC_NONE; c = g->rows[c].next) {
		f[c].value = CLAMP(f[c].sest, f[c].slo, f[c].shi);
		sum += f[c].value;
	}
#undef CLAMP
	if (sum < target) {
		d = f[r].hi - f[r].value < target - sum ? f[r].hi - f[r].value :
		    target - sum;
		f[r].value += d;
		sum += d;
		for (c = g->rows[r].first; c != GHC_NONE && sum < target;
		    c = g->rows[c].next) {
			d = f[c].shi - f[c].value < target - sum ?
			    f[c].shi - f[c].value : target - sum;
			f[c].value += d;
			sum += d;
		}
	} else if (sum > target) {
		d = f[r].value - f[r].lo < sum - target ? f[r].value - f[r].lo :
		    sum - target;
		f[r].value -= d;
		sum -= d;
		for (c = g->rows[r].first; c != GHC_NONE && sum > target;
		    c = g->rows[c].next) {
			d = f[c].value - f[c].slo < sum - target ?
			    f[c].value - f[c].slo : sum - target;
			f[c].value -= d;
			sum -= d;
		}
	}
}

/*
 * Integer self values for one metric (k = 0 time, 1 alloc) of a -p file,
 * in units of unit, adding up to total. Each row's own value is bounded
 * by its printed individual percentage and each subtree's sum by its
 * inherited one; ranges are summed bottom-up (a sum of integer ranges is
 * a range), then the total is shared top-down. If GHC's own figures
 * admit no solution (they should), each row gets its rounded share and
 * the first row takes what rounding left over. Values go to out[row].
 */
static int
ghc_fit(struct ghc *g, int k, int64_t total, int64_t *out)
{
	struct ghc_fit_row	*f;
	int64_t			 lo = 0, hi = 0, sum = 0, a, b;
	uint32_t		 i, r, first = GHC_NONE;

	if ((f = calloc(g->nrows, sizeof *f)) == NULL)
		return (-1);
	for (i = 0; i < g->nrows; i++) {
		if (g->rows[i].hidden) {
			f[i].hi = f[i].est = 0;
			continue;
		}
		ghc_range(g->rows[i].pct[k], total, &f[i].lo, &f[i].hi);
		f[i].est = ghc_share(g->rows[i].pct[k], total);
		f[i].sest = ghc_share(g->rows[i].pct[2 + k], total);
		if (f[i].lo > f[i].hi)
			goto fallback;
	}
	for (i = 0; i < g->nrows; i++) {
		f[i].slo = f[i].lo;
		f[i].shi = f[i].hi;
	}
	for (i = g->nrows; i-- > 0;) {
		/*
		 * Children of a stack GHC hides are not in its inherited
		 * figures (inheritCosts skips hidden stacks): a bound that
		 * admits nothing is dropped rather than failing the file.
		 */
		if (!g->rows[i].hidden) {
			ghc_range(g->rows[i].pct[2 + k], total, &a, &b);
			if ((a > f[i].slo ? a : f[i].slo) <=
			    (b < f[i].shi ? b : f[i].shi)) {
				if (a > f[i].slo)
					f[i].slo = a;
				if (b < f[i].shi)
					f[i].shi = b;
			}
		} else
			f[i].sest = f[i].slo;
		if ((r = g->rows[i].parent) != GHC_NONE) {
			f[r].slo = ghc_add(f[r].slo, f[i].slo);
			f[r].shi = ghc_add(f[r].shi, f[i].shi);
		} else {
			lo = ghc_add(lo, f[i].slo);
			hi = ghc_add(hi, f[i].shi);
		}
	}
	if (total < lo || total > hi)
		goto fallback;

	/* Top-down: the top rows share the total like a row's children. */
	{
		struct ghc_fit_row	 top;
		int64_t			 d, s = 0;

		memset(&top, 0, sizeof top);
		for (i = 0; i < g->nrows; i++) {
			if (g->rows[i].parent != GHC_NONE)
				continue;
			f[i].value = f[i].sest < f[i].slo ? f[i].slo :
			    f[i].sest > f[i].shi ? f[i].shi : f[i].sest;
			s += f[i].value;
		}
		for (i = 0; i < g->nrows && s != total; i++) {
			if (g->rows[i].parent != GHC_NONE)
				continue;
			if (s < total) {
				d = f[i].shi - f[i].value < total - s ?
				    f[i].shi - f[i].value : total - s;
				f[i].value += d;
				s += d;
			} else {
				d = f[i].value - f[i].slo < s - total ?
				    f[i].value - f[i].slo : s - total;
				f[i].value -= d;
				s -= d;
			}
		}
	}
	/* Rows come parent first: each splits the sum it was given. */
	for (i = 0; i < g->nrows; i++)
		ghc_split(g, f, i, f[i].value);
	for (i = 0; i < g->nrows; i++)
		out[i] = f[i].value;
	free(f);
	return (0);

fallback:
	for (i = 0; i < g->nrows; i++) {
		out[i] = g->rows[i].hidden ? 0 : ghc_share(g->rows[i].pct[k],
		    total);
		if (first == GHC_NONE && !g->rows[i].hidden)
			first = i;
		sum = ghc_add(sum, out[i]);
	}
	for (i = g->nrows; i-- > 0 && sum > total;) {
		a = out[i] < sum - total ? out[i] : sum - total;
		out[i] -= a;
		sum -= a;
	}
	if (sum < total && first != GHC_NONE)
		out[first] += total - sum;
	free(f);
	return (0);
}

/* Functions, nodes and values from the rows read. */
static int
ghc_build(struct ghc *g, struct profile_builder *b, int mticks, int malloc_,
    int mentries)
{
	struct idmap	 lm;
	struct ghc_row	*row;
	int64_t		*ticks = NULL, *bytes = NULL, unit;
	uint32_t	 i, v, f, pnode, line;
	uint64_t	 key;
	const char	*label, *module, *src;
	char		*name = NULL;
	size_t		 filelen;
	int		 rv = -1, n;

	/* Cost centres that share a label and module get their SRC too. */
	idmap_init(&lm);
	for (i = 0; i < g->nrows; i++) {
		row = &g->rows[i];
		key = (uint64_t)row->label << 32 | row->module;
		if ((v = idmap_get(&lm, key)) == IDMAP_NONE) {
			if (idmap_put(&lm, key, row->src) == -1)
				goto out;
		} else if (v != row->src && v != GHC_AMBIGUOUS &&
		    idmap_put(&lm, key, GHC_AMBIGUOUS) == -1)
			goto out;
		row->first = row->next = GHC_NONE;
	}
	for (i = g->nrows; i-- > 0;) {
		row = &g->rows[i];
		if (row->parent != GHC_NONE) {
			row->next = g->rows[row->parent].first;
			g->rows[row->parent].first = i;
		}
	}

	for (i = 0; i < g->nrows; i++) {
		row = &g->rows[i];
		label = strpool_get(g->pool, row->label);
		module = strpool_get(g->pool, row->module);
		src = strpool_get(g->pool, row->src);
		key = (uint64_t)row->label << 32 | row->module;
		free(name);
		name = NULL;
		if (idmap_get(&lm, key) == GHC_AMBIGUOUS) {
			if ((n = asprintf(&name, "%s [%s]", label, src)) == -1) {
				name = NULL;
				goto out;
			}
			label = name;
		}
		if ((f = profile_builder_func(b, label, strlen(label), module,
		    strlen(module))) == PROFILE_NONE)
			goto out;
		filelen = reader_ghc_prof_srcloc(src, strlen(src), &line);
		profile_builder_func_location(b, f, filelen ? src : NULL,
		    filelen, line);
		pnode = row->parent == GHC_NONE ? PROFILE_ROOT :
		    g->rows[row->parent].node;
		if ((row->node = profile_builder_child(b, pnode, f)) ==
		    PROFILE_NONE)
			goto out;
		/* The cost centre at its SRC's line (lines.h). */
		pnode = row->parent == GHC_NONE ? PROFILE_ROOT :
		    g->rows[row->parent].lnode;
		if ((v = profile_builder_line_frame(b, f,
		    profile_builder_func_file(b, f), line)) == PROFILE_NONE ||
		    (row->lnode = profile_builder_line_child(b, pnode, v)) ==
		    PROFILE_NONE)
			goto out;
	}

	if ((ticks = calloc(g->nrows, sizeof *ticks)) == NULL ||
	    (bytes = calloc(g->nrows, sizeof *bytes)) == NULL)
		goto out;
	if (g->verbose) {
		for (i = 0; i < g->nrows; i++) {
			if (g->rows[i].hidden)
				continue;
			ticks[i] = g->rows[i].ticks;
			bytes[i] = g->rows[i].bytes;
		}
	} else {
		/* GHC counts words; bytes are words times the word size. */
		unit = g->total_alloc % 8 == 0 ? 8 : 1;
		if (ghc_fit(g, 0, g->total_ticks, ticks) == -1 ||
		    ghc_fit(g, 1, g->total_alloc / unit, bytes) == -1)
			goto out;
		for (i = 0; i < g->nrows; i++)
			bytes[i] *= unit;
	}
	for (i = 0; i < g->nrows; i++) {
		row = &g->rows[i];
		if ((ticks[i] != 0 && (profile_builder_add(b, row->node,
		    mticks, ticks[i]) == -1 || profile_builder_line_add(b,
		    row->lnode, mticks, ticks[i]) == -1)) ||
		    (bytes[i] != 0 && (profile_builder_add(b, row->node,
		    malloc_, bytes[i]) == -1 || profile_builder_line_add(b,
		    row->lnode, malloc_, bytes[i]) == -1)) ||
		    (row->entries != 0 && (profile_builder_add(b, row->node,
		    mentries, row->entries) == -1 || profile_builder_line_add(b,
		    row->lnode, mentries, row->entries) == -1)))
			goto out;
	}
	rv = 0;
out:
	free(name);
	free(ticks);
	free(bytes);
	idmap_clear(&lm);
	return (rv);
}

static struct profile *
ghc_prof_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct ghc		 g;
	struct ghc_prof_columns	 cols;
	struct ghc_prof_row	 r;
	struct profile_builder	*b = NULL;
	struct profile		*p = NULL;
	char			*line, *why = NULL;
	const char		*err = NULL;
	size_t			 len, i;
	int			 state = 0, mt, ma, me;

	memset(&g, 0, sizeof g);
	g.total_ticks = g.total_alloc = -1;
	g.maxrows = opts->max_nodes != 0 ? opts->max_nodes - 1 :
	    PROFILE_MAX_NODES - 1;
	if ((g.pool = strpool_create()) == NULL)
		goto nomem;

	while ((line = input_line(in, &len, &why)) != NULL) {
		if (memchr(line, '\0', len) != NULL) {
			err = "NUL byte (binary data?)";
			goto lineerr;
		}
		if (state < 2) {
			if (reader_ghc_prof_columns(line, len, &cols) == 0) {
				g.verbose = cols.verbose;
				state = 2;
			} else if (strncmp(line, "COST CENTRE", 11) == 0)
				state = 1;
			else if (state == 0 && ghc_header(&g, line) == -1) {
				err = "bad total time or total alloc line";
				goto lineerr;
			}
			continue;
		}
		for (i = 0; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
			;
		if (i == len)
			continue;
		if (reader_ghc_prof_row(&cols, line, len, &r, &err) == -1)
			goto lineerr;
		if (ghc_add_row(&g, &r, &err) == -1) {
			if (err == NULL)
				goto nomem;
			goto lineerr;
		}
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (state < 2) {
		cause_set(cause, "%s: no call-tree table (a \"COST CENTRE "
		    "MODULE ... no. entries\" header line)", in->path);
		goto fail;
	}
	if (g.nrows == 0) {
		cause_set(cause, "%s: the call tree has no rows", in->path);
		goto fail;
	}
	if (!g.verbose && (g.total_ticks == -1 || g.total_alloc == -1)) {
		cause_set(cause, "%s: no total time or total alloc line before "
		    "the call tree (needed to turn percentages into ticks and "
		    "bytes)", in->path);
		goto fail;
	}

	if ((b = profile_builder_create("ghc-prof")) == NULL)
		goto nomem;
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(b, opts->max_nodes);
	if ((mt = profile_builder_metric(b, "ticks", "ticks")) == -1 ||
	    (ma = profile_builder_metric(b, "alloc", "bytes")) == -1 ||
	    (me = profile_builder_metric(b, "entries", "count")) == -1)
		goto builderr;
	if (ghc_build(&g, b, mt, ma, me) == -1)
		goto builderr;
	p = profile_builder_finish(b, cause);
	b = NULL;
	goto done;

lineerr:
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, err);
	goto fail;
builderr:
	cause_set(cause, "%s: %s", in->path, profile_builder_error(b));
	goto fail;
nomem:
	cause_set(cause, "out of memory");
fail:
	profile_builder_free(b);
done:
	free(why);
	free(g.rows);
	free(g.open);
	strpool_free(g.pool);
	return (p);
}

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

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary.h"
#include "cause.h"
#include "input.h"
#include "mercury.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "scc.h"
#include "strpool.h"

/*
 * Mercury deep profiler data (Deep.data), versions 8 and 9: the format of
 * runtime/mercury_deep_profiling.c as read by mdprof's read_profile.m.
 *
 * The file holds four kinds of nodes (see mercury.h) in any order. They
 * are read into tables indexed by id; then, as mdprof's startup does, the
 * CSS containers and CSD callers are derived, the PD graph is walked from
 * the root PD to build the calling-context tree, the cliques (recursion)
 * are found and the costs propagated. The whole structure is kept as the
 * profile's extra data for the clique and call-site views.
 *
 * The tree has a call node per CSD context: the callee's procedure
 * below the caller's node (CSDs calling one procedure from one context
 * share a node). A recursive call, which the runtime records as a CSD
 * back into a PD already active, is a leaf below its caller with the
 * costs of the recursive calls; the callee's own calls stay below its
 * first node. Each CSD's measurements are added once, so the root's
 * inclusive values are the program's totals, and the per-function totals
 * (profile-builder.c) count recursion once.
 *
 * Costs by source line (lines.h): a procedure's own costs are at its
 * definition's line (its PS), and a call is at its call site's line (its
 * CSS) in the caller's file, so that each line that calls shows what its
 * calls cost, counted once however deep the recursion.
 */

#define MERCURY_ID	"Mercury deep profiler data version "
#define MERCURY_ID_LEN	(sizeof MERCURY_ID - 1)
#define MERCURY_ID_MAX	(MERCURY_ID_LEN + 10)

/*
 * The smallest encoding of each node, token included, to check the
 * header's counts against the size of the file before allocating.
 */
#define MIN_CSS		5
#define MIN_CSD		4
#define MIN_PS		11
#define MIN_PD		4

/* CSD fields, in the order they follow the mask in the file. */
static const struct {
	unsigned	 bit;
	size_t		 off;
} mercury_fields[] = {
	{ 0x0002, offsetof(struct mercury_own, exits) },
	{ 0x0004, offsetof(struct mercury_own, fails) },
	{ 0x0040, offsetof(struct mercury_own, redos) },
	{ 0x0080, offsetof(struct mercury_own, excps) },
	{ 0x0100, offsetof(struct mercury_own, quanta) },
	{ 0x0008, offsetof(struct mercury_own, callseqs) },
	{ 0x0010, offsetof(struct mercury_own, allocs) },
	{ 0x0020, offsetof(struct mercury_own, words) },
};
#define NFIELDS		(sizeof mercury_fields / sizeof mercury_fields[0])
#define MASK_KNOWN	0x01fe

/* The metrics of the tree; the first is the default. */
enum {
	M_CALLSEQS,
	M_QUANTA,
	M_CALLS,
	M_EXITS,
	M_FAILS,
	M_REDOS,
	M_EXCPS,
	M_ALLOCS,
	M_WORDS,
	NMETRICS
};
static const struct {
	const char	*name;
	const char	*unit;
} mercury_metrics[NMETRICS] = {
	{ "callseqs", "count" },
	{ "quanta", "ticks" },
	{ "calls", "count" },
	{ "exits", "count" },
	{ "fails", "count" },
	{ "redos", "count" },
	{ "excps", "count" },
	{ "allocs", "count" },
	{ "words", "words" },
};

#define NPIECES		4

struct mload {
	struct input		*in;
	struct binary		 b;
	struct profile_builder	*pb;
	struct mercury		*m;
	int			 metric[NMETRICS];
	char			*why;		/* a cause not from b */

	uint32_t		 cap_site, cap_slot, cap_slot_csd;
	uint32_t		 cap_func;

	/* Pieces of the PS label being read, NUL-terminated copies. */
	char			*piece[NPIECES];
	size_t			 piececap[NPIECES];

	/* "name\0module\0file\0" of each PS, for making its function. */
	char			*text;
	size_t			 textlen, textcap;
	size_t			*ps_text;	/* [nps + 1] */

	/* The line tree: per PD, the line node its frames go under. */
	uint32_t		*lbase;		/* [npd + 1], NULL: no lines */
};

static int	mercury_probe(const char *, size_t);
static struct profile *mercury_load(struct input *,
		    const struct reader_options *, char **);
static void	mercury_free(void *);
static int	lines_init(struct mload *);
static uint32_t	csd_line(struct mload *, uint32_t, const struct mercury_csd *,
		    int);
static int	fail(struct mload *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static int	grow(void *, size_t, uint32_t *, uint32_t);
static int	rd_num(struct mload *, int64_t *);
static int	rd_u32(struct mload *, uint32_t *);
static int	rd_ptr(struct mload *, uint32_t, const char *, uint32_t *);
static int	rd_string(struct mload *, uint32_t *, int);
static int	rd_header(struct mload *);
static int	rd_css(struct mload *);
static int	rd_ps(struct mload *);
static int	rd_csd(struct mload *);
static int	rd_pd(struct mload *);
static int	text_add(struct mload *, const char *);
static char	*refined_name(struct mload *, uint8_t, uint32_t, uint32_t);
static int	link_nodes(struct mload *);
static void	pd_csds(const struct mercury *, const struct mercury_pd *,
		    uint32_t *, uint32_t *);
static uint32_t	ps_func(struct mload *, uint32_t);
static int	add_own(struct mload *, uint32_t, uint32_t,
		    const struct mercury_own *);
static int	build_tree(struct mload *);
static int	find_cliques(struct mload *);
static int	propagate(struct mload *);

const struct reader reader_mercury = {
	.name = "mercury",
	.description = "Mercury deep profiler data (Deep.data, versions 8 "
	    "and 9)",
	.probe = mercury_probe,
	.load = mercury_load,
};

/* The id line; any version, so that an old file gets a clear error. */
static int
mercury_probe(const char *buf, size_t len)
{
	if (len >= MERCURY_ID_LEN && memcmp(buf, MERCURY_ID,
	    MERCURY_ID_LEN) == 0)
		return (100);
	return (0);
}

/* The Mercury structure of a profile loaded from Deep.data, or NULL. */
const struct mercury *
mercury_of(const struct profile *p)
{
	if (p == NULL || p->extra_free != mercury_free)
		return (NULL);
	return (p->extra);
}

/* mdprof's call count (measurements.m): exits + fails + excps - redos. */
int64_t
mercury_calls(const struct mercury_own *o)
{
	return (o->exits + o->fails + o->excps - o->redos);
}

static void
mercury_free(void *arg)
{
	struct mercury	*m = arg;

	if (m == NULL)
		return;
	free(m->css);
	free(m->ps);
	free(m->csd);
	free(m->pd);
	free(m->clique);
	free(m->ps_site);
	free(m->slot);
	free(m->slot_csd);
	free(m->clique_pd);
	free(m->func_ps);
	free(m);
}

/* Set ml->why; always -1. */
static int
fail(struct mload *ml, const char *fmt, ...)
{
	va_list	 ap;

	free(ml->why);
	ml->why = NULL;
	va_start(ap, fmt);
	cause_vset(&ml->why, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Make room for need elements of size sz in *pp (capacity *cap). */
static int
grow(void *pp, size_t sz, uint32_t *cap, uint32_t need)
{
	void		**vp = pp;
	void		 *n;
	uint32_t	  c = *cap;

	if (need <= c)
		return (0);
	while (c < need)
		c = c < 1024 ? 1024 : (c > UINT32_MAX / 2 ? UINT32_MAX : c * 2);
	if ((n = realloc(*vp, (size_t)c * sz)) == NULL)
		return (-1);
	*vp = n;
	*cap = c;
	return (0);
}

/* A number that must fit a non-negative int64_t. */
static int
rd_num(struct mload *ml, int64_t *v)
{
	uint64_t	 at = binary_offset(&ml->b), u;

	if (binary_vbe(&ml->b, &u) == -1)
		return (-1);
	if (u > INT64_MAX)
		return (binary_fail(&ml->b, at, "number larger than 2^63-1"));
	*v = (int64_t)u;
	return (0);
}

/* A number that must fit 32 bits (lines, arities, counts of things). */
static int
rd_u32(struct mload *ml, uint32_t *v)
{
	uint64_t	 at = binary_offset(&ml->b), u;

	if (binary_vbe(&ml->b, &u) == -1)
		return (-1);
	if (u > UINT32_MAX)
		return (binary_fail(&ml->b, at, "number larger than 2^32-1"));
	*v = (uint32_t)u;
	return (0);
}

/* A node id, 0 (none) to max. */
static int
rd_ptr(struct mload *ml, uint32_t max, const char *what, uint32_t *id)
{
	uint64_t	 at = binary_offset(&ml->b), u;

	if (binary_vbe(&ml->b, &u) == -1)
		return (-1);
	if (u > max)
		return (fail(ml, "offset %llu: %s id %llu is beyond the "
		    "header's count of %u", (unsigned long long)at, what,
		    (unsigned long long)u, max));
	*id = (uint32_t)u;
	return (0);
}

/*
 * A string, interned as *id (if id is not NULL); with piece >= 0 also
 * copied, NUL-terminated, to ml->piece[piece].
 */
static int
rd_string(struct mload *ml, uint32_t *id, int piece)
{
	uint64_t	 at = binary_offset(&ml->b), len;
	const char	*s;
	char		*n;

	if (binary_vbe(&ml->b, &len) == -1)
		return (-1);
	if (len > BINARY_MAX_STRING)
		return (binary_fail(&ml->b, at, "string longer than 4 MiB"));
	if (binary_bytes(&ml->b, len, &s) == -1)
		return (-1);
	if (id != NULL && (*id = profile_builder_string(ml->pb, s, len)) ==
	    STRPOOL_NONE)
		return (fail(ml, "out of memory"));
	if (piece >= 0) {
		if (len + 1 > ml->piececap[piece]) {
			if ((n = realloc(ml->piece[piece], len + 1)) == NULL)
				return (fail(ml, "out of memory"));
			ml->piece[piece] = n;
			ml->piececap[piece] = len + 1;
		}
		memcpy(ml->piece[piece], s, len);
		/* A NUL inside a name ends it, as in the string pool. */
		ml->piece[piece][len] = '\0';
	}
	return (0);
}

/* The id line, then the header fields (deepq-formats(5)). */
static int
rd_header(struct mload *ml)
{
	struct mercury	*m = ml->m;
	struct binary	*b = &ml->b;
	char		 line[MERCURY_ID_MAX + 1];
	size_t		 n = 0;
	uint8_t		 c;
	uint64_t	 counts[4], need, left, v;
	const char	*e;
	int		 version = 0;

	for (;;) {
		if (binary_u8(b, &c) == -1)
			return (fail(ml, "not a Mercury Deep.data file (no id "
			    "line)"));
		if (c == '\n')
			break;
		if (n == MERCURY_ID_MAX)
			return (fail(ml, "not a Mercury Deep.data file (id "
			    "line too long)"));
		line[n++] = c;
	}
	line[n] = '\0';
	if (n < MERCURY_ID_LEN || memcmp(line, MERCURY_ID, MERCURY_ID_LEN) != 0)
		return (fail(ml, "not a Mercury Deep.data file"));
	for (e = line + MERCURY_ID_LEN; *e >= '0' && *e <= '9'; e++) {
		if (version < 1000)
			version = version * 10 + (*e - '0');
	}
	if (*e != '\0' || e == line + MERCURY_ID_LEN)
		return (fail(ml, "bad Deep.data id line"));
	if (version != 8 && version != 9)
		return (fail(ml, "Deep.data version %d is not supported "
		    "(deepq reads versions 8 and 9)", version));
	m->version = version;

	if (rd_string(ml, &m->program, -1) == -1 ||
	    binary_le64(b, &m->flags) == -1)
		return (-1);
	m->bytes_per_word = m->flags & 0xff;
	if ((m->flags >> 10 & 3) != 0)
		return (fail(ml, "compressed Deep.data files are not "
		    "supported"));
	m->coverage = m->flags >> 12 & 3;
	if (m->coverage == 3 || (m->flags & ~(uint64_t)0x3fff) != 0)
		return (fail(ml, "unknown flags 0x%llx in the header",
		    (unsigned long long)m->flags));

	/* #CSD, #CSS, #PD, #PS, in that order. */
	for (n = 0; n < 4; n++) {
		if (binary_le64(b, &counts[n]) == -1)
			return (-1);
		if (counts[n] > UINT32_MAX - 2)
			return (fail(ml, "node count %llu in the header is too "
			    "large", (unsigned long long)counts[n]));
	}
	if (counts[0] == 0 && counts[1] == 0 && counts[2] == 0 &&
	    counts[3] == 0)
		return (fail(ml, "the header's node counts are zero (the "
		    "profiled program did not finish writing the file)"));
	need = counts[0] * MIN_CSD + counts[1] * MIN_CSS + counts[2] * MIN_PD +
	    counts[3] * MIN_PS;
	left = binary_left(b);
	if (need > left)
		return (fail(ml, "the header's node counts (%llu CSD, %llu "
		    "CSS, %llu PD, %llu PS) need at least %llu bytes, the "
		    "file has %llu left", (unsigned long long)counts[0],
		    (unsigned long long)counts[1],
		    (unsigned long long)counts[2],
		    (unsigned long long)counts[3], (unsigned long long)need,
		    (unsigned long long)left));
	m->ncsd = counts[0];
	m->ncss = counts[1];
	m->npd = counts[2];
	m->nps = counts[3];

	if (binary_vbe(b, &m->ticks_per_second) == -1 ||
	    binary_vbe(b, &m->instrument_quanta) == -1 ||
	    binary_vbe(b, &m->user_quanta) == -1 ||
	    binary_vbe(b, &m->num_callseqs) == -1)
		return (-1);
	v = binary_offset(b);
	if (rd_ptr(ml, m->npd, "root PD", &m->root_pd) == -1)
		return (-1);
	if (m->root_pd == 0)
		return (fail(ml, "offset %llu: no root PD",
		    (unsigned long long)v));

	if ((m->css = calloc(m->ncss + 1, sizeof *m->css)) == NULL ||
	    (m->ps = calloc(m->nps + 1, sizeof *m->ps)) == NULL ||
	    (m->csd = calloc(m->ncsd + 1, sizeof *m->csd)) == NULL ||
	    (m->pd = calloc(m->npd + 1, sizeof *m->pd)) == NULL ||
	    (ml->ps_text = calloc(m->nps + 1, sizeof *ml->ps_text)) == NULL)
		return (fail(ml, "out of memory"));
	for (v = 0; v <= m->nps; v++)
		m->ps[v].func = PROFILE_NONE;
	for (v = 0; v <= m->ncsd; v++)
		m->csd[v].node = PROFILE_NONE;
	for (v = 0; v <= m->npd; v++)
		m->pd[v].node = PROFILE_NONE;
	return (0);
}

/* CallSiteStatic (token 1). */
static int
rd_css(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_css	*css;
	uint64_t		 at = binary_offset(&ml->b) - 1;
	uint32_t		 id;
	uint8_t			 kind;

	if (rd_ptr(ml, m->ncss, "CSS", &id) == -1)
		return (-1);
	css = &m->css[id];
	if (id == 0 || css->defined)
		return (fail(ml, "offset %llu: CSS %u %s", (unsigned long long)
		    at, id, id == 0 ? "has id 0" : "is defined twice"));
	css->defined = 1;
	if (binary_u8(&ml->b, &kind) == -1)
		return (-1);
	if (kind > MERCURY_CALL_CALLBACK)
		return (fail(ml, "offset %llu: CSS %u has unknown call site "
		    "kind %u", (unsigned long long)at, id, kind));
	css->kind = kind;
	if (kind == MERCURY_CALL_NORMAL &&
	    (rd_ptr(ml, m->nps, "callee PS", &css->callee) == -1 ||
	    rd_string(ml, &css->type_subst, -1) == -1))
		return (-1);
	if (m->version >= 9 && rd_string(ml, &css->file, -1) == -1)
		return (-1);
	if (rd_u32(ml, &css->line) == -1 ||
	    rd_string(ml, &css->goal_path, -1) == -1)
		return (-1);
	return (0);
}

/* Append a NUL-terminated string to ml->text. */
static int
text_add(struct mload *ml, const char *s)
{
	size_t	 n = strlen(s) + 1, cap;
	char	*t;

	if (ml->textlen + n > ml->textcap) {
		cap = ml->textcap ? ml->textcap : 65536;
		while (cap < ml->textlen + n)
			cap *= 2;
		if ((t = realloc(ml->text, cap)) == NULL)
			return (-1);
		ml->text = t;
		ml->textcap = cap;
	}
	memcpy(ml->text + ml->textlen, s, n);
	ml->textlen += n;
	return (0);
}

/* Does s start with prefix? Then *rest is what follows. */
static int
prefixed(const char *s, const char *prefix, const char **rest)
{
	size_t	 n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0)
		return (0);
	*rest = s + n;
	return (1);
}

/*
 * mdprof's "refined" procedure name (read_profile.m), unqualified:
 * "name/arity-mode", "+1" after the arity of a function, type
 * specialisations as "name/arity-mode [T = int]", old-style lambdas as
 * "pred lambda line L/arity", special predicates as "Unify for
 * type/arity" (their module is the type's). The pieces are in ml->piece.
 * Caller frees.
 */
static char *
refined_name(struct mload *ml, uint8_t kind, uint32_t arity, uint32_t mode)
{
	const char	*name, *rest, *spec, *end, *sep, *last, *prev;
	const char	*plus = kind == MERCURY_PROC_FUNC ? "+1" : "";
	char		*out = NULL;
	int		 n;

	if (kind == MERCURY_PROC_SPECIAL) {
		/* type name, type module, def module, predicate name */
		name = ml->piece[3];
		if (strcmp(name, "__Unify__") == 0)
			name = "Unify";
		else if (strcmp(name, "__Compare__") == 0)
			name = "Compare";
		else if (strcmp(name, "__CompareRep__") == 0)
			name = "CompareRep";
		else if (strcmp(name, "__Index__") == 0)
			name = "Index";
		else if (strcmp(name, "__Initialise__") == 0)
			name = "Initialise";
		if (mode != 0)
			n = asprintf(&out, "%s for %s/%u mode %u", name,
			    ml->piece[0], arity, mode);
		else
			n = asprintf(&out, "%s for %s/%u", name, ml->piece[0],
			    arity);
		return (n == -1 ? NULL : out);
	}

	name = ml->piece[2];
	if (prefixed(name, "TypeSpecOf__", &rest) &&
	    (prefixed(rest, "pred__", &rest) ||
	    prefixed(rest, "func__", &rest) ||
	    prefixed(rest, "pred_or_func__", &rest)) &&
	    (spec = strstr(rest, "__[")) != NULL) {
		end = strchr(spec + 3, ']');
		n = asprintf(&out, "%.*s/%u%s-%u [%.*s]", (int)(spec - rest),
		    rest, arity, plus, mode, end != NULL ?
		    (int)(end - spec - 3) : (int)strlen(spec + 3), spec + 3);
		return (n == -1 ? NULL : out);
	}
	if (prefixed(name, "IntroducedFrom__", &rest) &&
	    (prefixed(rest, "pred__", &rest) ||
	    prefixed(rest, "func__", &rest))) {
		/* containing__LINE__N: the last two "__" separate. */
		last = prev = NULL;
		for (sep = rest; (sep = strstr(sep, "__")) != NULL; sep += 2) {
			prev = last;
			last = sep;
		}
		if (prev != NULL && prev > rest) {
			n = asprintf(&out, "%.*s lambda line %.*s/%u%s",
			    (int)(prev - rest), rest, (int)(last - prev - 2),
			    prev + 2, arity, plus);
			return (n == -1 ? NULL : out);
		}
	}
	n = asprintf(&out, "%s/%u%s-%u", name, arity, plus, mode);
	return (n == -1 ? NULL : out);
}

/* ProcStatic (token 3). */
static int
rd_ps(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_ps	*ps;
	uint64_t		 at = binary_offset(&ml->b) - 1, left;
	uint32_t		 id, i, ncp = 0, css, dummy;
	uint8_t			 kind, iface;
	int64_t			 count;
	char			*name;
	const char		*module;

	if (rd_ptr(ml, m->nps, "PS", &id) == -1)
		return (-1);
	ps = &m->ps[id];
	if (id == 0 || ps->defined)
		return (fail(ml, "offset %llu: PS %u %s", (unsigned long long)
		    at, id, id == 0 ? "has id 0" : "is defined twice"));
	ps->defined = 1;
	if (binary_u8(&ml->b, &kind) == -1)
		return (-1);
	ps->kind = kind;
	if (kind == MERCURY_PROC_PRED || kind == MERCURY_PROC_FUNC) {
		if (rd_string(ml, &ps->module, 0) == -1 ||
		    rd_string(ml, &ps->def_module, 1) == -1 ||
		    rd_string(ml, &ps->raw_name, 2) == -1)
			return (-1);
		module = ml->piece[0];
	} else if (kind == MERCURY_PROC_SPECIAL) {
		if (rd_string(ml, &ps->type_name, 0) == -1 ||
		    rd_string(ml, &ps->module, 1) == -1 ||
		    rd_string(ml, &ps->def_module, 2) == -1 ||
		    rd_string(ml, &ps->raw_name, 3) == -1)
			return (-1);
		module = ml->piece[1];
	} else
		return (fail(ml, "offset %llu: PS %u has unknown procedure "
		    "label kind %u", (unsigned long long)at, id, kind));
	if (rd_u32(ml, &ps->arity) == -1 || rd_u32(ml, &ps->mode) == -1)
		return (-1);
	if ((name = refined_name(ml, kind, ps->arity, ps->mode)) == NULL)
		return (fail(ml, "out of memory"));
	ps->name = profile_builder_string(ml->pb, name, strlen(name));
	ml->ps_text[id] = ml->textlen;
	if (ps->name == STRPOOL_NONE || text_add(ml, name) == -1 ||
	    text_add(ml, module) == -1) {
		free(name);
		return (fail(ml, "out of memory"));
	}
	free(name);

	if (rd_string(ml, &ps->file, 0) == -1 || text_add(ml, ml->piece[0]) ==
	    -1 || rd_u32(ml, &ps->line) == -1 || binary_u8(&ml->b, &iface) ==
	    -1 || rd_u32(ml, &ps->nsites) == -1)
		return (-1);
	ps->exported = iface != 0;
	left = binary_left(&ml->b);
	if (ps->nsites > left)
		return (fail(ml, "offset %llu: PS %u: %u call sites cannot fit "
		    "in the %llu bytes left", (unsigned long long)at, id,
		    ps->nsites, (unsigned long long)left));
	if (ps->nsites > UINT32_MAX - m->nps_site ||
	    grow(&m->ps_site, sizeof *m->ps_site, &ml->cap_site,
	    m->nps_site + ps->nsites) == -1)
		return (fail(ml, "out of memory"));
	ps->sites = m->nps_site;
	for (i = 0; i < ps->nsites; i++) {
		if (rd_ptr(ml, m->ncss, "CSS", &css) == -1)
			return (-1);
		m->ps_site[m->nps_site++] = css;
	}

	/* Coverage points: read past (deepq shows no coverage). */
	if (m->coverage != 0) {
		if (rd_u32(ml, &ncp) == -1)
			return (-1);
		left = binary_left(&ml->b);
		if (ncp > left / 2)
			return (fail(ml, "offset %llu: PS %u: %u coverage "
			    "points cannot fit in the %llu bytes left",
			    (unsigned long long)at, id, ncp,
			    (unsigned long long)left));
		ps->ncoverage = ncp;
		for (i = 0; i < ncp; i++) {
			if (rd_string(ml, NULL, -1) == -1 ||
			    rd_u32(ml, &dummy) == -1 ||
			    (m->coverage == 1 && rd_num(ml, &count) == -1))
				return (-1);
		}
	}
	return (0);
}

/* CallSiteDynamic (token 2). */
static int
rd_csd(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_csd	*csd;
	uint64_t		 at = binary_offset(&ml->b) - 1, mask;
	uint32_t		 id;
	size_t			 i;

	if (rd_ptr(ml, m->ncsd, "CSD", &id) == -1)
		return (-1);
	csd = &m->csd[id];
	if (id == 0 || csd->defined)
		return (fail(ml, "offset %llu: CSD %u %s", (unsigned long long)
		    at, id, id == 0 ? "has id 0" : "is defined twice"));
	csd->defined = 1;
	if (rd_ptr(ml, m->npd, "callee PD", &csd->callee) == -1 ||
	    binary_vbe(&ml->b, &mask) == -1)
		return (-1);
	if ((mask & ~(uint64_t)MASK_KNOWN) != 0)
		return (fail(ml, "offset %llu: CSD %u has field mask 0x%llx%s",
		    (unsigned long long)at, id, (unsigned long long)mask,
		    mask & 1 ? " (explicit call counts are not supported)" :
		    ""));
	for (i = 0; i < NFIELDS; i++) {
		if ((mask & mercury_fields[i].bit) != 0 &&
		    rd_num(ml, (int64_t *)((char *)&csd->own +
		    mercury_fields[i].off)) == -1)
			return (-1);
	}
	return (0);
}

/* ProcDynamic (token 4). */
static int
rd_pd(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_pd	*pd;
	struct mercury_slot	*slot;
	uint64_t		 at = binary_offset(&ml->b) - 1, left, u;
	uint32_t		 id, i, j, n = 0, csd;
	uint8_t			 kind, c;

	if (rd_ptr(ml, m->npd, "PD", &id) == -1)
		return (-1);
	pd = &m->pd[id];
	if (id == 0 || pd->defined)
		return (fail(ml, "offset %llu: PD %u %s", (unsigned long long)
		    at, id, id == 0 ? "has id 0" : "is defined twice"));
	pd->defined = 1;
	if (rd_ptr(ml, m->nps, "PS", &pd->ps) == -1 ||
	    rd_u32(ml, &pd->nslots) == -1)
		return (-1);
	left = binary_left(&ml->b);
	if (pd->nslots > left / 2)
		return (fail(ml, "offset %llu: PD %u: %u call site slots "
		    "cannot fit in the %llu bytes left", (unsigned long long)at,
		    id, pd->nslots, (unsigned long long)left));
	if (m->coverage == 2) {
		if (rd_u32(ml, &n) == -1)
			return (-1);
		left = binary_left(&ml->b);
		if (n > left)
			return (fail(ml, "offset %llu: PD %u: %u coverage "
			    "counts cannot fit in the %llu bytes left",
			    (unsigned long long)at, id, n,
			    (unsigned long long)left));
		for (i = 0; i < n; i++) {
			if (binary_vbe(&ml->b, &u) == -1)
				return (-1);
		}
	}
	if (pd->nslots > UINT32_MAX - m->nslot ||
	    grow(&m->slot, sizeof *m->slot, &ml->cap_slot, m->nslot +
	    pd->nslots) == -1)
		return (fail(ml, "out of memory"));
	pd->slots = m->nslot;
	for (i = 0; i < pd->nslots; i++) {
		slot = &m->slot[m->nslot++];
		if (binary_u8(&ml->b, &kind) == -1)
			return (-1);
		if (kind > MERCURY_CALL_CALLBACK)
			return (fail(ml, "offset %llu: PD %u slot %u has "
			    "unknown call site kind %u", (unsigned long long)
			    binary_offset(&ml->b) - 1, id, i, kind));
		slot->kind = kind;
		slot->csds = m->nslot_csd;
		slot->ncsds = 0;
		for (j = 0;; j++) {
			/*
			 * A normal site has one CSD id (0: never called); the
			 * others a list ended by a 0 byte.
			 */
			if (kind == MERCURY_CALL_NORMAL) {
				if (j == 1)
					break;
			} else {
				if (binary_peek_u8(&ml->b, &c) == -1)
					return (-1);
				if (c == 0) {
					ml->b.p++;
					break;
				}
			}
			u = binary_offset(&ml->b);
			if (rd_ptr(ml, m->ncsd, "CSD", &csd) == -1)
				return (-1);
			if (csd == 0) {
				if (kind == MERCURY_CALL_NORMAL)
					continue;
				return (fail(ml, "offset %llu: CSD id 0 in a "
				    "list of CSDs", (unsigned long long)u));
			}
			if (m->nslot_csd == UINT32_MAX ||
			    grow(&m->slot_csd, sizeof *m->slot_csd,
			    &ml->cap_slot_csd, m->nslot_csd + 1) == -1)
				return (fail(ml, "out of memory"));
			m->slot_csd[m->nslot_csd++] = csd;
			slot->ncsds++;
		}
	}
	return (0);
}

/*
 * Check the references between nodes and derive what the file leaves
 * implicit: the container and slot of each CSS, the caller and call site
 * of each CSD (startup.m steps 2, 3 and 9).
 */
static int
link_nodes(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_ps	*ps;
	struct mercury_pd	*pd;
	struct mercury_css	*css;
	struct mercury_csd	*csd;
	struct mercury_slot	*slot;
	uint32_t		 i, j, k, id;

	if (!m->pd[m->root_pd].defined)
		return (fail(ml, "the root PD %u is not in the file",
		    m->root_pd));
	for (i = 1; i <= m->nps; i++) {
		ps = &m->ps[i];
		if (!ps->defined)
			continue;
		for (j = 0; j < ps->nsites; j++) {
			id = m->ps_site[ps->sites + j];
			css = &m->css[id];
			if (id == 0 || !css->defined)
				return (fail(ml, "PS %u: its call site %u is "
				    "not in the file", i, id));
			css->ps = i;
			css->slot = j;
			/* Version 8, or "" in 9: the procedure's file. */
			if (css->file == 0)
				css->file = ps->file;
		}
	}
	for (i = 1; i <= m->npd; i++) {
		pd = &m->pd[i];
		if (!pd->defined)
			continue;
		if (pd->ps == 0 || !m->ps[pd->ps].defined)
			return (fail(ml, "PD %u: its PS %u is not in the file",
			    i, pd->ps));
		ps = &m->ps[pd->ps];
		if (pd->nslots != ps->nsites)
			return (fail(ml, "PD %u has %u call site slots, its PS "
			    "%u has %u call sites", i, pd->nslots, pd->ps,
			    ps->nsites));
		for (j = 0; j < pd->nslots; j++) {
			slot = &m->slot[pd->slots + j];
			for (k = 0; k < slot->ncsds; k++) {
				id = m->slot_csd[slot->csds + k];
				csd = &m->csd[id];
				if (!csd->defined)
					return (fail(ml, "PD %u: its CSD %u is "
					    "not in the file", i, id));
				if (csd->caller != 0)
					continue;
				csd->caller = i;
				csd->css = m->ps_site[ps->sites + j];
			}
		}
	}
	for (i = 1; i <= m->ncsd; i++) {
		csd = &m->csd[i];
		if (csd->defined && csd->callee != 0 &&
		    !m->pd[csd->callee].defined)
			return (fail(ml, "CSD %u: its callee PD %u is not in "
			    "the file", i, csd->callee));
	}
	return (0);
}

/*
 * The CSDs of all slots of a PD, as the range [*e0, *e1) of slot_csd:
 * a PD's slots, and their CSD lists, were appended in order.
 */
static void
pd_csds(const struct mercury *m, const struct mercury_pd *pd, uint32_t *e0,
    uint32_t *e1)
{
	const struct mercury_slot	*last;

	if (pd->nslots == 0) {
		*e0 = *e1 = 0;
		return;
	}
	last = &m->slot[pd->slots + pd->nslots - 1];
	*e0 = m->slot[pd->slots].csds;
	*e1 = last->csds + last->ncsds;
}

/* The profile function of a PS, made on first use. */
static uint32_t
ps_func(struct mload *ml, uint32_t id)
{
	struct mercury		*m = ml->m;
	struct mercury_ps	*ps = &m->ps[id];
	const char		*name, *module, *file;
	char			*alt;
	uint32_t		 f, old;

	if (ps->func != PROFILE_NONE)
		return (ps->func);
	name = ml->text + ml->ps_text[id];
	module = name + strlen(name) + 1;
	file = module + strlen(module) + 1;
	f = profile_builder_func(ml->pb, name, strlen(name), module,
	    strlen(module));
	if (f != PROFILE_NONE && f < m->nfuncs && m->func_ps[f] != 0) {
		/* Two procedures with one refined name: keep them apart. */
		if (asprintf(&alt, "%s [PS %u]", name, id) == -1)
			return (PROFILE_NONE);
		f = profile_builder_func(ml->pb, alt, strlen(alt), module,
		    strlen(module));
		free(alt);
	}
	if (f == PROFILE_NONE)
		return (PROFILE_NONE);
	if (f >= m->nfuncs) {
		old = ml->cap_func;
		if (grow(&m->func_ps, sizeof *m->func_ps, &ml->cap_func,
		    f + 1) == -1)
			return (PROFILE_NONE);
		memset(m->func_ps + old, 0, (ml->cap_func - old) *
		    sizeof *m->func_ps);
		m->nfuncs = f + 1;
	}
	if (m->func_ps[f] == 0) {
		m->func_ps[f] = id;
		profile_builder_func_location(ml->pb, f, file, strlen(file),
		    ps->line);
	}
	ps->func = f;
	return (f);
}

/* Add a CSD's measurements to a call node and line node ln (or NONE). */
static int
add_own(struct mload *ml, uint32_t node, uint32_t ln,
    const struct mercury_own *o)
{
	int64_t	 v[NMETRICS];
	int	 k;

	v[M_CALLSEQS] = o->callseqs;
	v[M_QUANTA] = o->quanta;
	v[M_EXITS] = o->exits;
	v[M_FAILS] = o->fails;
	v[M_REDOS] = o->redos;
	v[M_EXCPS] = o->excps;
	v[M_ALLOCS] = o->allocs;
	v[M_WORDS] = o->words;
	/* Each is at most 2^63-1; the sum of three can overflow. */
	if (__builtin_add_overflow(o->exits, o->fails, &v[M_CALLS]) ||
	    __builtin_add_overflow(v[M_CALLS], o->excps, &v[M_CALLS]))
		return (fail(ml, "call counts overflow 64 bits"));
	v[M_CALLS] -= o->redos;
	for (k = 0; k < NMETRICS; k++) {
		if (v[k] != 0 && (profile_builder_add(ml->pb, node,
		    ml->metric[k], v[k]) == -1 || (ln != PROFILE_NONE &&
		    profile_builder_line_add(ml->pb, ln, ml->metric[k], v[k]) ==
		    -1)))
			return (fail(ml, "%s", profile_builder_error(ml->pb)));
	}
	return (0);
}

/*
 * The line tree, when a PS or CSS has a line: each PD's base, the root
 * PD's the line tree's root, the others' set as they are reached.
 */
static int
lines_init(struct mload *ml)
{
	struct mercury	*m = ml->m;
	uint32_t	 i;

	for (i = 1; i <= m->nps && m->ps[i].line == 0; i++)
		;
	if (i > m->nps) {
		for (i = 1; i <= m->ncss && m->css[i].line == 0; i++)
			;
		if (i > m->ncss)
			return (0);
	}
	if ((ml->lbase = calloc(m->npd + 1, sizeof *ml->lbase)) == NULL)
		return (-1);
	return (0);
}

/*
 * CSD csd of PD caller: its caller's frame at the call site's line
 * (none for the root PD's calls), its callee's frame at the callee's
 * definition below it, where its own costs go. A callee reached for the
 * first time (first) gets the caller's frame as its base. The callee's
 * line node, or PROFILE_NONE with the builder's error.
 */
static uint32_t
csd_line(struct mload *ml, uint32_t caller, const struct mercury_csd *csd,
    int first)
{
	struct mercury		*m = ml->m;
	const struct mercury_css *css = &m->css[csd->css];
	const struct mercury_ps	*ps = &m->ps[m->pd[csd->callee].ps];
	uint32_t		 pl = PROFILE_ROOT, fr, f;

	if (caller != m->root_pd) {
		if ((f = ps_func(ml, m->pd[caller].ps)) == PROFILE_NONE ||
		    (fr = profile_builder_line_frame(ml->pb, f, css->file,
		    css->line)) == PROFILE_NONE ||
		    (pl = profile_builder_line_child(ml->pb,
		    ml->lbase[caller], fr)) == PROFILE_NONE)
			return (PROFILE_NONE);
	}
	if (first)
		ml->lbase[csd->callee] = pl;
	if ((f = ps_func(ml, m->pd[csd->callee].ps)) == PROFILE_NONE ||
	    (fr = profile_builder_line_frame(ml->pb, f, ps->file, ps->line)) ==
	    PROFILE_NONE)
		return (PROFILE_NONE);
	return (profile_builder_line_child(ml->pb, pl, fr));
}

/*
 * The calling-context tree: a depth-first walk of the PD graph from the
 * root PD, which becomes the tree's root. Every CSD becomes a call node
 * of its callee's procedure below its caller's node and adds its
 * measurements there, once. The first CSD to reach a PD gives it that
 * node, and the PD's own calls hang below it; a CSD reaching a PD already
 * in the tree (recursion: the runtime reuses the PD of the outermost
 * active call) is a leaf holding the recursive calls' costs. PDs the root
 * does not reach (none in a well-formed file) hang below the root, so
 * that no measurement is lost.
 */
static int
build_tree(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_pd	*pd, *callee;
	struct mercury_csd	*csd;
	uint32_t		*stack, nstack = 0, i, start, e, e0, e1, f;
	uint32_t		 n = 0, id, ln;
	int			 rc = -1;

	if ((stack = malloc((m->npd + 1) * sizeof *stack)) == NULL ||
	    lines_init(ml) == -1) {
		free(stack);
		return (fail(ml, "out of memory"));
	}
	m->pd[m->root_pd].node = PROFILE_ROOT;
	m->ps[m->pd[m->root_pd].ps].func = PROFILE_ROOT;
	start = m->root_pd;
	i = 0;
	for (;;) {
		stack[nstack++] = start;
		while (nstack > 0) {
			id = stack[--nstack];
			pd = &m->pd[id];
			pd_csds(m, pd, &e0, &e1);
			for (e = e0; e < e1; e++) {
				csd = &m->csd[m->slot_csd[e]];
				if (csd->node != PROFILE_NONE ||
				    csd->callee == 0)
					continue;
				callee = &m->pd[csd->callee];
				/*
				 * Every CSD is a call of its callee's
				 * procedure below the caller's node; only
				 * the first reaching a PD carries its
				 * subtree. The others (recursion: a CSD back
				 * into a PD already in the tree) are leaves.
				 */
				if ((f = ps_func(ml, callee->ps)) ==
				    PROFILE_NONE || (n = profile_builder_child(
				    ml->pb, pd->node, f)) == PROFILE_NONE) {
					fail(ml, "%s",
					    profile_builder_error(ml->pb));
					goto out;
				}
				ln = PROFILE_NONE;
				if (ml->lbase != NULL && (ln = csd_line(ml, id,
				    csd, callee->node == PROFILE_NONE)) ==
				    PROFILE_NONE) {
					fail(ml, "%s",
					    profile_builder_error(ml->pb));
					goto out;
				}
				if (callee->node == PROFILE_NONE) {
					callee->node = n;
					stack[nstack++] = csd->callee;
				}
				csd->node = n;
				if (add_own(ml, csd->node, ln, &csd->own) == -1)
					goto out;
			}
		}
		/* The next PD not reached yet, if any. */
		while (++i <= m->npd && (!m->pd[i].defined ||
		    m->pd[i].node != PROFILE_NONE))
			;
		if (i > m->npd)
			break;
		start = i;
		if ((f = ps_func(ml, m->pd[i].ps)) == PROFILE_NONE ||
		    (n = profile_builder_child(ml->pb, PROFILE_ROOT, f)) ==
		    PROFILE_NONE) {
			fail(ml, "%s", profile_builder_error(ml->pb));
			goto out;
		}
		m->pd[i].node = n;
	}
	rc = 0;
out:
	free(stack);
	return (rc);
}

/*
 * Cliques: the strongly connected components of the graph with an arc
 * from each PD to the PD called by each CSD of its slots (callgraph.m),
 * by scc.c. Components come out callees first, which is mdprof's
 * bottom-up numbering. Vertex 0 (no PD has id 0) has an arc to every
 * defined PD in order, so the search starts from the defined PDs in
 * order, as mdprof's does: the components found from it are the cliques,
 * numbered from 1; vertex 0's own, and those of undefined PDs nothing
 * calls, come after and are dropped. The entry PD of a clique (called
 * from another clique) is put first among its members.
 */
static int
find_cliques(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_csd	*csd;
	struct mercury_clique	*cl;
	uint32_t		*off = NULL, *adj = NULL, *comp = NULL, *tmp;
	uint32_t		 i, v, w, e, e1, k, c, a, root;
	size_t			 nadj = 0;
	int64_t			 ncomp;
	int			 rc = -1;

	/* The arcs: vertex 0's to the defined PDs, then each PD's calls. */
	for (v = 1; v <= m->npd; v++) {
		nadj += m->pd[v].defined;
		pd_csds(m, &m->pd[v], &e, &e1);
		nadj += e1 - e;
	}
	if (nadj >= UINT32_MAX) {
		fail(ml, "too many calls");
		goto out;
	}
	if ((off = malloc((m->npd + 2) * sizeof *off)) == NULL ||
	    (adj = malloc((nadj + 1) * sizeof *adj)) == NULL ||
	    (comp = malloc((m->npd + 1) * sizeof *comp)) == NULL ||
	    (m->clique = calloc(m->npd + 1, sizeof *m->clique)) == NULL ||
	    (m->clique_pd = malloc((m->npd + 1) * sizeof *m->clique_pd)) ==
	    NULL) {
		fail(ml, "out of memory");
		goto out;
	}
	k = 0;
	off[0] = 0;
	for (v = 1; v <= m->npd; v++) {
		if (m->pd[v].defined)
			adj[k++] = v;
	}
	for (v = 1; v <= m->npd; v++) {
		off[v] = k;
		pd_csds(m, &m->pd[v], &e, &e1);
		for (; e < e1; e++) {
			if ((w = m->csd[m->slot_csd[e]].callee) != 0)
				adj[k++] = w;
		}
	}
	off[m->npd + 1] = k;
	if ((ncomp = scc_tarjan(m->npd + 1, off, adj, comp)) == -1) {
		fail(ml, "out of memory");
		goto out;
	}
	root = comp[0];
	m->ncliques = root;
	for (v = 1; v <= m->npd; v++) {
		if (comp[v] < root) {
			m->pd[v].clique = comp[v] + 1;
			m->clique[comp[v] + 1].nmembers++;
		}
	}

	/* Member lists, in clique order. */
	for (c = 1, k = 0; c <= m->ncliques; c++) {
		m->clique[c].members = k;
		k += m->clique[c].nmembers;
		m->clique[c].nmembers = 0;
	}
	for (i = 1; i <= m->npd; i++) {
		if (!m->pd[i].defined)
			continue;
		cl = &m->clique[m->pd[i].clique];
		m->clique_pd[cl->members + cl->nmembers++] = i;
	}

	/* Entry CSDs (construct_clique_parents); the entry PD goes first. */
	for (i = 1; i <= m->ncsd; i++) {
		csd = &m->csd[i];
		if (!csd->defined || csd->caller == 0 || csd->callee == 0)
			continue;
		c = m->pd[csd->callee].clique;
		a = m->pd[csd->caller].clique;
		cl = &m->clique[c];
		if (a == c || cl->entry != 0)
			continue;
		cl->entry = i;
		cl->parent = a;
		tmp = m->clique_pd + cl->members;
		for (k = 0; k < cl->nmembers && tmp[k] != csd->callee; k++)
			;
		tmp[k] = tmp[0];
		tmp[0] = csd->callee;
	}
	m->root_clique = m->pd[m->root_pd].clique;
	rc = 0;
out:
	free(off);
	free(adj);
	free(comp);
	return (rc);
}

/* a += b for the four inherited measurements; -1 on overflow. */
static int
desc_add(struct mercury_desc *a, const struct mercury_desc *b)
{
	if (__builtin_add_overflow(a->quanta, b->quanta, &a->quanta) ||
	    __builtin_add_overflow(a->callseqs, b->callseqs, &a->callseqs) ||
	    __builtin_add_overflow(a->allocs, b->allocs, &a->allocs) ||
	    __builtin_add_overflow(a->words, b->words, &a->words))
		return (-1);
	return (0);
}

static void
own_desc(struct mercury_desc *d, const struct mercury_own *o)
{
	d->quanta = o->quanta;
	d->callseqs = o->callseqs;
	d->allocs = o->allocs;
	d->words = o->words;
}

/*
 * mdprof's propagation (startup.m, propagate_to_clique), bottom-up over
 * the cliques: a PD's own is the sum of the own of the CSDs calling it,
 * recursive ones included; its desc the totals of the cliques its CSDs
 * call; a CSD calling into another clique has desc = that clique's total
 * minus its own. Only CSDs in the tree count, as in the tree.
 */
static int
propagate(struct mload *ml)
{
	struct mercury		*m = ml->m;
	struct mercury_pd	*pd;
	struct mercury_csd	*csd;
	struct mercury_clique	*cl;
	struct mercury_desc	*total, d;
	uint32_t		 c, k, e, e1, i;
	int64_t			*o, *s;
	size_t			 f;

	for (i = 1; i <= m->ncsd; i++) {
		csd = &m->csd[i];
		if (!csd->defined || csd->node == PROFILE_NONE)
			continue;
		pd = &m->pd[csd->callee];
		for (f = 0; f < NFIELDS; f++) {
			o = (int64_t *)((char *)&csd->own +
			    mercury_fields[f].off);
			s = (int64_t *)((char *)&pd->own +
			    mercury_fields[f].off);
			if (__builtin_add_overflow(*s, *o, s))
				return (fail(ml, "values overflow 64 bits"));
		}
	}
	if ((total = calloc(m->ncliques + 1, sizeof *total)) == NULL)
		return (fail(ml, "out of memory"));
	for (c = 1; c <= m->ncliques; c++) {
		cl = &m->clique[c];
		for (k = 0; k < cl->nmembers; k++) {
			pd = &m->pd[m->clique_pd[cl->members + k]];
			pd_csds(m, pd, &e, &e1);
			for (; e < e1; e++) {
				csd = &m->csd[m->slot_csd[e]];
				if (csd->node == PROFILE_NONE ||
				    m->pd[csd->callee].clique == c)
					continue;
				csd->desc = total[m->pd[csd->callee].clique];
				own_desc(&d, &csd->own);
				if (__builtin_sub_overflow(csd->desc.quanta,
				    d.quanta, &csd->desc.quanta) ||
				    __builtin_sub_overflow(csd->desc.callseqs,
				    d.callseqs, &csd->desc.callseqs) ||
				    __builtin_sub_overflow(csd->desc.allocs,
				    d.allocs, &csd->desc.allocs) ||
				    __builtin_sub_overflow(csd->desc.words,
				    d.words, &csd->desc.words) ||
				    desc_add(&pd->desc,
				    &total[m->pd[csd->callee].clique]) == -1)
					goto overflow;
			}
			own_desc(&d, &pd->own);
			if (desc_add(&total[c], &d) == -1 ||
			    desc_add(&total[c], &pd->desc) == -1)
				goto overflow;
		}
	}
	free(total);
	return (0);
overflow:
	free(total);
	return (fail(ml, "values overflow 64 bits"));
}

static struct profile *
mercury_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct mload	 ml;
	struct profile	*p = NULL;
	uint8_t		 token;
	uint64_t	 at;
	int		 k, end, rc;

	memset(&ml, 0, sizeof ml);
	ml.in = in;
	binary_init(&ml.b, in);
	if ((ml.m = calloc(1, sizeof *ml.m)) == NULL ||
	    (ml.pb = profile_builder_create("mercury")) == NULL) {
		fail(&ml, "out of memory");
		goto fail;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(ml.pb, opts->max_nodes);
	for (k = 0; k < NMETRICS; k++) {
		if ((ml.metric[k] = profile_builder_metric(ml.pb,
		    mercury_metrics[k].name, mercury_metrics[k].unit)) == -1) {
			fail(&ml, "out of memory");
			goto fail;
		}
	}
	if (rd_header(&ml) == -1)
		goto fail;

	/*
	 * Nodes until an end token or the end of the file (the writer
	 * never writes the end token).
	 */
	for (;;) {
		if ((end = binary_at_end(&ml.b)) == -1)
			goto fail;
		if (end)
			break;
		at = binary_offset(&ml.b);
		(void)binary_u8(&ml.b, &token);
		switch (token) {
		case MERCURY_TOKEN_END:
			rc = 0;
			break;
		case MERCURY_TOKEN_CSS:
			rc = rd_css(&ml);
			break;
		case MERCURY_TOKEN_CSD:
			rc = rd_csd(&ml);
			break;
		case MERCURY_TOKEN_PS:
			rc = rd_ps(&ml);
			break;
		case MERCURY_TOKEN_PD:
			rc = rd_pd(&ml);
			break;
		default:
			fail(&ml, "offset %llu: unknown node token %u",
			    (unsigned long long)at, token);
			goto fail;
		}
		if (rc == -1)
			goto fail;
		if (token == MERCURY_TOKEN_END) {
			if (binary_at_end(&ml.b) != 1) {
				fail(&ml, "offset %llu: data after the end "
				    "token", (unsigned long long)at + 1);
				goto fail;
			}
			break;
		}
	}
	binary_sync(&ml.b);

	if (link_nodes(&ml) == -1 || build_tree(&ml) == -1 ||
	    find_cliques(&ml) == -1 || propagate(&ml) == -1)
		goto fail;
	if (ml.m->nfuncs > 0)
		ml.m->func_ps[PROFILE_ROOT] = ml.m->pd[ml.m->root_pd].ps;
	else {
		/* Only the root: no function beyond it was made. */
		if ((ml.m->func_ps = calloc(1, sizeof *ml.m->func_ps)) ==
		    NULL) {
			fail(&ml, "out of memory");
			goto fail;
		}
		ml.m->func_ps[0] = ml.m->pd[ml.m->root_pd].ps;
		ml.m->nfuncs = 1;
	}
	profile_builder_set_extra(ml.pb, ml.m, mercury_free);
	ml.m = NULL;
	p = profile_builder_finish(ml.pb, &ml.why);
	ml.pb = NULL;
	if (p == NULL)
		cause_set(cause, "%s: %s", in->path, ml.why);
	goto done;

fail:
	if (ml.why != NULL)
		cause_set(cause, "%s: %s", in->path, ml.why);
	else if (ml.b.error != NULL)
		cause_set(cause, "%s: offset %llu: %s", in->path,
		    (unsigned long long)ml.b.error_at, ml.b.error);
	else
		cause_set(cause, "%s: out of memory", in->path);
	profile_builder_free(ml.pb);
	mercury_free(ml.m);
done:
	for (k = 0; k < NPIECES; k++)
		free(ml.piece[k]);
	free(ml.text);
	free(ml.ps_text);
	free(ml.lbase);
	free(ml.why);
	return (p);
}

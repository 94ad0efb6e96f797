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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "cause.h"
#include "decimal.h"
#include "funcgraph.h"
#include "idmap.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "strpool.h"

/*
 * Callgrind profile format, version 1 (valgrind's callgrind, and what
 * KCachegrind reads; deepq-formats(5)). The file is read in one pass into
 * a call graph: per function (name, file, ELF object) its self cost for
 * every event, and per caller/callee pair the summed inclusive cost of
 * the calls. Name compression, fl/fi/fe/fn/ob and cob/cfi/cfl/cfn,
 * calls=, jump lines, `positions: instr line' with relative and '*'
 * subpositions, several events and several parts are understood. The
 * graph itself (funcgraph.h) gives every function figure; names in a
 * caller context (--separate-callers, "f'caller") are their function
 * again, while the tree below is expanded over the contexts.
 *
 * The positions' lines give each function's cost by source line and the
 * calls made from each line (lines.h), summed as callgrind_annotate
 * annotates the source: a cost line's self cost at its line of the
 * current file (fl=, or fi=/fe= within a function), a call's inclusive
 * cost and count at the line of the cost line after calls=.
 *
 * A call graph is not a tree: the calling-context tree is estimated from
 * it afterwards (calltree.c), and each function's self cost split
 * exactly over the nodes it gets there, so per-function self costs equal
 * the file's and the grand totals equal its `totals:' (and its
 * `summary:', whose excess is the root's own cost).
 */

#define CALLGRIND_MAX_NODES	(1U << 20)

#define CG_NONE		UINT32_MAX
#define CG_OB		0
#define CG_FL		1
#define CG_FN		2

#define CG_POS_INSTR	0
#define CG_POS_LINE	1

struct cg_func {
	uint32_t	 name, file, obj;	/* ids in the name pool */
	uint32_t	 line;		/* lowest line of its own file, 0 */
	uint32_t	 bf;		/* builder function, or CG_NONE */
};

struct callgrind {
	struct input		*in;
	struct profile_builder	*b;
	char			*why;		/* the error of a line */

	/* Names: compressed ids per kind, and the strings themselves. */
	struct strpool		*names;
	struct idmap		 ids[3];
	struct idmap		 fkey;		/* name << 32 | file -> pair */
	struct idmap		 fobj;		/* pair << 32 | obj -> func */
	uint32_t		 npairs;
	struct idmap		 ekey;		/* from << 32 | to -> edge */

	/* Events of this part: column -> metric; stride = metrics so far. */
	int			 ncols;
	int			 col[PROFILE_MAX_METRICS];
	int			 stride;
	int			 events;	/* events: seen (any part) */

	/* Subpositions of this part and the last cost line's. */
	int			 npos;
	int			 pos[2];
	uint64_t		 last[2];

	/* The context of body lines. */
	uint32_t		 ob, fl, file, fn;
	uint32_t		 cob, cfl, cfn;
	int			 state;		/* CG_COST, CG_CALL, CG_JUMP */
	uint64_t		 ncalls;	/* of the pending calls= */
	int			 body;		/* a body line in this part */

	/* Per part: sums of self cost, summary: and totals: lines. */
	int64_t			 partsum[PROFILE_MAX_METRICS];
	int64_t			 summary[PROFILE_MAX_METRICS];
	int64_t			 totals[PROFILE_MAX_METRICS];
	int			 hassummary, hastotals; /* 2: in the header */
	uint64_t		 totalsline;
	int64_t			 extra[PROFILE_MAX_METRICS];

	struct cg_func		*funcs;
	int64_t			*fself;		/* [nfuncs * stride] */
	uint32_t		 nfuncs, funccap;
	struct calltree_edge	*edges;
	int64_t			*ecost;		/* [nedges * stride] */
	uint32_t		 nedges, edgecap;
	int64_t			 cost[PROFILE_MAX_METRICS];

	uint32_t		*bfowner;	/* builder func -> func */
	uint32_t		 bfcap;

	/*
	 * Costs by source line: rows (function, file, line) with their
	 * self cost, and calls from a row with their cost and count, as
	 * callgrind_annotate adds them up (lines.h).
	 */
	struct idmap		 lpos;		/* file << 32 | line -> pos */
	struct idmap		 lrowkey;	/* fn << 32 | pos -> row */
	struct idmap		 lcallkey;	/* row << 32 | cfn -> call */
	uint32_t		 nlpos;
	struct cg_lrow		*lrows;
	int64_t			*lself;		/* [nlrows * stride] */
	uint32_t		 nlrows, lrowcap;
	struct cg_lcall		*lcalls;
	int64_t			*lcost;		/* [nlcalls * stride] */
	uint32_t		 nlcalls, lcallcap;
};

struct cg_lrow {
	uint32_t	 fn, file, line;
};

struct cg_lcall {
	uint32_t	 row, cfn;
	uint64_t	 calls;
};

#define CG_COST	0
#define CG_CALL	1
#define CG_JUMP	2

static int	callgrind_probe(const char *, size_t);
static struct profile *callgrind_load(struct input *,
		    const struct reader_options *, char **);
static int	callgrind_blank(int);
static int	callgrind_number(const char **, uint64_t *);
static int	callgrind_restride(struct callgrind *, int);
static int	callgrind_widen(int64_t **, uint32_t, uint32_t, int, int);
static void	*callgrind_row(struct callgrind *, void *, size_t, int64_t **,
		    uint32_t, uint32_t *, const char *);
static int	callgrind_costs(struct callgrind *, const char *, int64_t *);
static int	callgrind_events(struct callgrind *, const char *);
static int	callgrind_positions(struct callgrind *, const char *);
static int	callgrind_part_end(struct callgrind *);
static int	callgrind_truncated(struct callgrind *);
static int	callgrind_sums(struct callgrind *, const char *, const char *,
		    int64_t *);
static int	callgrind_header(struct callgrind *, const char *, size_t,
		    const char *);
static uint32_t	callgrind_name(struct callgrind *, int, const char *,
		    const char *);
static uint32_t	callgrind_func(struct callgrind *, uint32_t, uint32_t,
		    uint32_t);
static uint32_t	callgrind_edge(struct callgrind *, uint32_t, uint32_t);
static int	callgrind_spec(struct callgrind *, const char *, size_t,
		    const char *, const char *);
static int	callgrind_cost(struct callgrind *, const char *);
static int	callgrind_add(int64_t *, const int64_t *, int);
static uint32_t	callgrind_bf(struct callgrind *, uint32_t);
static uint32_t	callgrind_bf_cb(void *, uint32_t);
static int	callgrind_tree(struct callgrind *, uint32_t, char **);
static int	callgrind_level(const char *);
static int	callgrind_base(const char *, size_t *);
static int	callgrind_graph(struct callgrind *, struct profile *,
		    char **);
static uint32_t	callgrind_lrow(struct callgrind *, uint64_t);
static int	callgrind_line_cost(struct callgrind *, uint64_t);
static int	callgrind_lines(struct callgrind *);
static void	callgrind_free(struct callgrind *);

const struct reader reader_callgrind = {
	.name = "callgrind",
	.description = "valgrind callgrind / KCachegrind profile",
	.probe = callgrind_probe,
	.load = callgrind_load,
};

/*
 * KCachegrind's test: the first line is "# callgrind format", or a line
 * within the first 2047 bytes starts with "events:" or "creator:".
 */
static int
callgrind_probe(const char *buf, size_t len)
{
	const char	*p = buf, *nl;
	size_t		 lim = len < 2047 ? len : 2047;

	if (len >= 18 && memcmp(buf, "# callgrind format", 18) == 0)
		return (100);
	while (p < buf + lim) {
		if ((size_t)(buf + lim - p) >= 7 &&
		    memcmp(p, "events:", 7) == 0)
			return (80);
		if ((size_t)(buf + lim - p) >= 8 &&
		    memcmp(p, "creator:", 8) == 0)
			return (70);
		if ((nl = memchr(p, '\n', buf + lim - p)) == NULL)
			break;
		p = nl + 1;
	}
	return (0);
}

static int
callgrind_blank(int c)
{
	return (c == ' ' || c == '\t');
}

/* A decimal or 0x hexadecimal number; -1 if none or beyond 64 bits. */
static int
callgrind_number(const char **sp, uint64_t *v)
{
	const char	*s = *sp;
	uint64_t	 n = 0;
	int		 d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		if (*s == '\0')
			return (-1);
		for (; *s != '\0'; s++) {
			if (*s >= '0' && *s <= '9')
				d = *s - '0';
			else if (*s >= 'a' && *s <= 'f')
				d = *s - 'a' + 10;
			else if (*s >= 'A' && *s <= 'F')
				d = *s - 'A' + 10;
			else
				break;
			if (n >> 60 != 0)
				return (-1);
			n = n << 4 | (uint64_t)d;
		}
		if (s == *sp + 2)
			return (-1);
	} else {
		size_t	 k = decimal_span(s, SIZE_MAX);

		if (decimal_u64(s, k, UINT64_MAX, &n) != DECIMAL_OK)
			return (-1);
		s += k;
	}
	*sp = s;
	*v = n;
	return (0);
}

/* Widen the cost vectors when a part names new events. */
static int
callgrind_restride(struct callgrind *cg, int stride)
{
	int	 old = cg->stride;

	if (stride == old)
		return (0);
	if (callgrind_widen(&cg->fself, cg->funccap, cg->nfuncs, old,
	    stride) == -1 || callgrind_widen(&cg->ecost, cg->edgecap,
	    cg->nedges, old, stride) == -1 ||
	    callgrind_widen(&cg->lself, cg->lrowcap, cg->nlrows, old,
	    stride) == -1 || callgrind_widen(&cg->lcost, cg->lcallcap,
	    cg->nlcalls, old, stride) == -1)
		return (-1);
	cg->stride = stride;
	return (0);
}

/*
 * Rows of old costs in *v (room for cap, n used) become rows of stride,
 * the new columns zero.
 */
static int
callgrind_widen(int64_t **v, uint32_t cap, uint32_t n, int old, int stride)
{
	int64_t		*w;
	uint32_t	 i;

	if (cap == 0)
		return (0);
	if ((w = calloc((size_t)cap * stride, sizeof *w)) == NULL)
		return (-1);
	for (i = 0; i < n; i++)
		memcpy(w + (size_t)i * stride, *v + (size_t)i * old,
		    old * sizeof *w);
	free(*v);
	*v = w;
	return (0);
}

/*
 * Room for item n of v (items of size, *cap of them) and its row of
 * costs in *cost, the row zeroed: v, moved if it had to grow, or NULL
 * (v is then unchanged; *cost may have grown). what names the items for
 * the error past the last id.
 */
static void *
callgrind_row(struct callgrind *cg, void *v, size_t size, int64_t **cost,
    uint32_t n, uint32_t *cap, const char *what)
{
	int64_t		*c;
	uint32_t	 nc;

	if (n == CG_NONE - 1) {
		cause_set(&cg->why, "too many %s", what);
		return (NULL);
	}
	if (n == *cap) {
		nc = *cap ? *cap * 2 : 1024;
		if ((c = reallocarray(*cost, (size_t)nc * (cg->stride ?
		    cg->stride : 1), sizeof *c)) == NULL)
			return (NULL);
		*cost = c;
		if ((v = reallocarray(v, nc, size)) == NULL)
			return (NULL);
		*cap = nc;
	}
	memset(*cost + (size_t)n * cg->stride, 0, cg->stride * sizeof **cost);
	return (v);
}

/*
 * Costs, in the order of this part's events, into v[metric]; missing
 * columns are zero.
 */
static int
callgrind_costs(struct callgrind *cg, const char *s, int64_t *v)
{
	uint64_t	 n;
	int		 i;

	memset(v, 0, cg->stride * sizeof *v);
	for (i = 0;; i++) {
		while (callgrind_blank(*s))
			s++;
		if (*s == '\0')
			return (0);
		if (i == cg->ncols) {
			cause_set(&cg->why, "more costs than events");
			return (-1);
		}
		if (callgrind_number(&s, &n) == -1 || n > INT64_MAX ||
		    (*s != '\0' && !callgrind_blank(*s))) {
			cause_set(&cg->why, "bad cost");
			return (-1);
		}
		v[cg->col[i]] = (int64_t)n;
	}
}

/* "events: Ir Dr ...": every event is a metric, the first is metric 0. */
static int
callgrind_events(struct callgrind *cg, const char *s)
{
	const char	*e;
	char		 name[64];
	int		 n = 0, m;

	for (;;) {
		while (callgrind_blank(*s))
			s++;
		if (*s == '\0')
			break;
		for (e = s; *e != '\0' && !callgrind_blank(*e); e++)
			;
		if (n == PROFILE_MAX_METRICS ||
		    (size_t)(e - s) >= sizeof name) {
			cause_set(&cg->why, n == PROFILE_MAX_METRICS ?
			    "more than %d events" : "event name too long",
			    PROFILE_MAX_METRICS);
			return (-1);
		}
		memcpy(name, s, e - s);
		name[e - s] = '\0';
		if ((m = profile_builder_metric(cg->b, name, "count")) == -1) {
			cause_set(&cg->why, "%s", profile_builder_error(cg->b));
			return (-1);
		}
		cg->col[n++] = m;
		s = e;
	}
	if (n == 0) {
		cause_set(&cg->why, "no event names");
		return (-1);
	}
	for (m = 0; m < n; m++) {
		if (cg->col[m] + 1 > cg->stride &&
		    callgrind_restride(cg, cg->col[m] + 1) == -1)
			return (-1);
	}
	cg->ncols = n;
	cg->events = 1;
	return (0);
}

/* "positions: instr line" (addr is instr's older name). */
static int
callgrind_positions(struct callgrind *cg, const char *s)
{
	const char	*e;
	size_t		 n;
	int		 k;

	cg->npos = 0;
	for (;;) {
		while (callgrind_blank(*s))
			s++;
		if (*s == '\0')
			break;
		for (e = s; *e != '\0' && !callgrind_blank(*e); e++)
			;
		n = e - s;
		if ((n == 5 && memcmp(s, "instr", 5) == 0) ||
		    (n == 4 && memcmp(s, "addr", 4) == 0))
			k = CG_POS_INSTR;
		else if (n == 4 && memcmp(s, "line", 4) == 0)
			k = CG_POS_LINE;
		else {
			cause_set(&cg->why, "unknown position \"%.*s\"",
			    (int)n, s);
			return (-1);
		}
		if (cg->npos == 2 || (cg->npos == 1 && cg->pos[0] == k)) {
			cause_set(&cg->why, "bad positions: line");
			return (-1);
		}
		cg->pos[cg->npos++] = k;
		s = e;
	}
	if (cg->npos == 0) {
		cg->pos[0] = CG_POS_LINE;
		cg->npos = 1;
	}
	return (0);
}

/*
 * The end of a part: its totals: line must equal the sum of its cost
 * lines; what its summary: has beyond that sum is cost callgrind counted
 * but gave no function, kept as the root's own cost.
 */
static int
callgrind_part_end(struct callgrind *cg)
{
	int	 m;

	for (m = 0; m < cg->stride; m++) {
		if (cg->hastotals && cg->totals[m] != cg->partsum[m]) {
			cause_set(&cg->why, "line %llu: totals: %lld for "
			    "event %d is not the sum of the cost lines (%lld)",
			    (unsigned long long)cg->totalsline,
			    (long long)cg->totals[m], m + 1,
			    (long long)cg->partsum[m]);
			return (-1);
		}
		if (cg->hassummary && cg->summary[m] > cg->partsum[m] &&
		    __builtin_add_overflow(cg->extra[m], cg->summary[m] -
		    cg->partsum[m], &cg->extra[m])) {
			cause_set(&cg->why, "summary overflows 64 bits");
			return (-1);
		}
		cg->partsum[m] = cg->summary[m] = cg->totals[m] = 0;
	}
	cg->hassummary = cg->hastotals = 0;
	return (0);
}

/*
 * At the end of the file: one cut short says so rather than giving the
 * missing cost to the root. callgrind ends every part with totals:, so
 * a part with a summary: before its body (where callgrind writes it)
 * but no totals: whose
 * cost lines fall short of the summary was cut, as is one that ends
 * with a calls= line whose cost line never came.
 */
static int
callgrind_truncated(struct callgrind *cg)
{
	int	 m;

	if (cg->state == CG_CALL) {
		cause_set(&cg->why, "the file ends after calls= without its "
		    "cost line (cut short?)");
		return (-1);
	}
	if (cg->hassummary != 2 || cg->hastotals)
		return (0);
	for (m = 0; m < cg->stride; m++) {
		if (cg->partsum[m] < cg->summary[m]) {
			cause_set(&cg->why, "the file ends without its totals: "
			    "line, its cost lines sum to %lld of the %lld of "
			    "its summary: (cut short?)",
			    (long long)cg->partsum[m],
			    (long long)cg->summary[m]);
			return (-1);
		}
	}
	return (0);
}

/* The costs of a totals: or summary: line, which need the events first. */
static int
callgrind_sums(struct callgrind *cg, const char *key, const char *v,
    int64_t *into)
{
	if (!cg->events) {
		cause_set(&cg->why, "%s: before events:", key);
		return (-1);
	}
	return (callgrind_costs(cg, v, into));
}

/* A "key: value" line. One after body lines starts a new part. */
static int
callgrind_header(struct callgrind *cg, const char *key, size_t n,
    const char *v)
{
	uint64_t	 ver;

	while (callgrind_blank(*v))
		v++;
	if (n == 6 && memcmp(key, "totals", 6) == 0) {
		if (callgrind_sums(cg, "totals", v, cg->totals) == -1)
			return (-1);
		cg->hastotals = 1;
		cg->totalsline = cg->in->lineno;
		return (0);
	}
	if (n == 7 && memcmp(key, "summary", 7) == 0) {
		if (callgrind_sums(cg, "summary", v, cg->summary) == -1)
			return (-1);
		cg->hassummary = cg->body ? 1 : 2;
		return (0);
	}
	if (cg->body) {
		if (callgrind_part_end(cg) == -1)
			return (-1);
		cg->body = 0;
		cg->npos = 1;
		cg->pos[0] = CG_POS_LINE;
		cg->last[0] = cg->last[1] = 0;
		cg->ob = cg->fl = cg->file = 0;
		cg->fn = cg->cfn = cg->cob = cg->cfl = CG_NONE;
		cg->state = CG_COST;
	}
	if (n == 6 && memcmp(key, "events", 6) == 0)
		return (callgrind_events(cg, v));
	if (n == 9 && memcmp(key, "positions", 9) == 0)
		return (callgrind_positions(cg, v));
	if (n == 7 && memcmp(key, "version", 7) == 0) {
		if (callgrind_number(&v, &ver) == -1 || ver > 1) {
			cause_set(&cg->why, "unsupported version");
			return (-1);
		}
	}
	/* creator, pid, thread, part, cmd, desc, event: nothing to keep. */
	return (0);
}

/*
 * A position name: "(id) name" defines id, "(id)" uses it, anything else
 * is a plain name. Returns the id in the name pool, or CG_NONE.
 */
static uint32_t
callgrind_name(struct callgrind *cg, int kind, const char *s,
    const char *end)
{
	const char	*p = s;
	uint64_t	 id;
	uint32_t	 sid;

	while (p < end && callgrind_blank(*p))
		p++;
	if (p + 1 < end && p[0] == '(' && p[1] >= '0' && p[1] <= '9') {
		p++;
		if (callgrind_number(&p, &id) == 0 && *p == ')') {
			for (p++; p < end && callgrind_blank(*p); p++)
				;
			if (p == end) {
				sid = idmap_get(&cg->ids[kind], id);
				if (sid == IDMAP_NONE)
					cause_set(&cg->why, "name (%llu) used "
					    "before it is defined",
					    (unsigned long long)id);
				return (sid == IDMAP_NONE ? CG_NONE : sid);
			}
			if ((sid = strpool_intern(cg->names, p, end - p)) ==
			    STRPOOL_NONE || idmap_put(&cg->ids[kind], id, sid)
			    == -1)
				return (CG_NONE);
			return (sid);
		}
		p = s;
		while (p < end && callgrind_blank(*p))
			p++;
	}
	return (strpool_intern(cg->names, p, end - p));
}

/* The function (name, file, object), created on first sight. */
static uint32_t
callgrind_func(struct callgrind *cg, uint32_t name, uint32_t file,
    uint32_t obj)
{
	struct cg_func	*nf, *f;
	uint32_t	 pair, i;

	if ((pair = idmap_get(&cg->fkey, (uint64_t)name << 32 | file)) ==
	    IDMAP_NONE) {
		pair = cg->npairs++;
		if (idmap_put(&cg->fkey, (uint64_t)name << 32 | file, pair) ==
		    -1)
			return (CG_NONE);
	}
	if ((i = idmap_get(&cg->fobj, (uint64_t)pair << 32 | obj)) !=
	    IDMAP_NONE)
		return (i);
	if ((nf = callgrind_row(cg, cg->funcs, sizeof *nf, &cg->fself,
	    cg->nfuncs, &cg->funccap, "functions")) == NULL)
		return (CG_NONE);
	cg->funcs = nf;
	i = cg->nfuncs;
	if (idmap_put(&cg->fobj, (uint64_t)pair << 32 | obj, i) == -1)
		return (CG_NONE);
	f = &cg->funcs[i];
	memset(f, 0, sizeof *f);
	f->name = name;
	f->file = file;
	f->obj = obj;
	f->bf = CG_NONE;
	cg->nfuncs++;
	return (i);
}

/* The call edge from one function to another, created on first sight. */
static uint32_t
callgrind_edge(struct callgrind *cg, uint32_t from, uint32_t to)
{
	struct calltree_edge *ne;
	uint64_t	 key = (uint64_t)from << 32 | to;
	uint32_t	 e;

	if ((e = idmap_get(&cg->ekey, key)) != IDMAP_NONE)
		return (e);
	if ((ne = callgrind_row(cg, cg->edges, sizeof *ne, &cg->ecost,
	    cg->nedges, &cg->edgecap, "calls")) == NULL)
		return (CG_NONE);
	cg->edges = ne;
	e = cg->nedges;
	if (idmap_put(&cg->ekey, key, e) == -1)
		return (CG_NONE);
	cg->edges[e].from = from;
	cg->edges[e].to = to;
	cg->edges[e].calls = 0;
	cg->nedges++;
	return (e);
}

/* A "key=value" body line. */
static int
callgrind_spec(struct callgrind *cg, const char *key, size_t n,
    const char *v, const char *end)
{
	uint64_t	 calls;
	uint32_t	 id;

#define KEY(k)	(n == sizeof k - 1 && memcmp(key, k, n) == 0)
	if (KEY("calls")) {
		while (callgrind_blank(*v))
			v++;
		if (callgrind_number(&v, &calls) == -1) {
			cause_set(&cg->why, "bad call count");
			return (-1);
		}
		if (cg->fn == CG_NONE || cg->cfn == CG_NONE) {
			cause_set(&cg->why, "calls= without %s",
			    cg->fn == CG_NONE ? "fn=" : "cfn=");
			return (-1);
		}
		/* The target position is not kept. */
		cg->ncalls = calls;
		cg->state = CG_CALL;
		return (0);
	}
	if (KEY("jump") || KEY("jcnd")) {
		cg->state = CG_JUMP;
		return (0);
	}
	if (KEY("fn") || KEY("cfn") || KEY("jfn")) {
		if ((id = callgrind_name(cg, CG_FN, v, end)) == CG_NONE)
			return (-1);
		if (KEY("fn")) {
			cg->file = cg->fl;
			if ((cg->fn = callgrind_func(cg, id, cg->fl, cg->ob)) ==
			    CG_NONE)
				return (-1);
		} else if (KEY("cfn")) {
			/* The callee's file and object bind here. */
			cg->cfn = callgrind_func(cg, id,
			    cg->cfl != CG_NONE ? cg->cfl : cg->file,
			    cg->cob != CG_NONE ? cg->cob : cg->ob);
			if (cg->cfn == CG_NONE)
				return (-1);
			cg->cfl = cg->cob = CG_NONE;
		}
		return (0);
	}
	if (KEY("fl") || KEY("fi") || KEY("fe") || KEY("cfi") ||
	    KEY("cfl") || KEY("jfi")) {
		if ((id = callgrind_name(cg, CG_FL, v, end)) == CG_NONE)
			return (-1);
		if (KEY("fl"))
			cg->fl = cg->file = id;
		else if (KEY("fi") || KEY("fe"))
			cg->file = id;
		else if (!KEY("jfi"))
			cg->cfl = id;
		return (0);
	}
	if (KEY("ob") || KEY("cob")) {
		if ((id = callgrind_name(cg, CG_OB, v, end)) == CG_NONE)
			return (-1);
		if (KEY("ob"))
			cg->ob = id;
		else
			cg->cob = id;
		return (0);
	}
#undef KEY
	/* Others (the deprecated rcalls=, future ones) carry no cost. */
	return (0);
}

/* v += w over the stride, checking overflow. */
static int
callgrind_add(int64_t *v, const int64_t *w, int n)
{
	int	 m;

	for (m = 0; m < n; m++) {
		if (__builtin_add_overflow(v[m], w[m], &v[m]))
			return (-1);
	}
	return (0);
}

/* A cost line: self cost of the current function, or a call's cost. */
static int
callgrind_cost(struct callgrind *cg, const char *s)
{
	uint64_t	 p[2], d;
	struct cg_func	*f;
	uint32_t	 e;
	int		 i, neg;

	if (!cg->events) {
		cause_set(&cg->why, "cost line before events:");
		return (-1);
	}
	for (i = 0; i < cg->npos; i++) {
		while (callgrind_blank(*s))
			s++;
		if (*s == '*') {
			p[i] = cg->last[i];
			s++;
		} else if (*s == '+' || *s == '-') {
			neg = *s++ == '-';
			if (callgrind_number(&s, &d) == -1)
				goto bad;
			/* Relative to the last cost line; wraps like C. */
			p[i] = neg ? cg->last[i] - d : cg->last[i] + d;
		} else if (callgrind_number(&s, &p[i]) == -1)
			goto bad;
		if (*s != '\0' && !callgrind_blank(*s))
			goto bad;
	}
	if (callgrind_costs(cg, s, cg->cost) == -1)
		return (-1);
	for (i = 0; i < cg->npos; i++)
		cg->last[i] = p[i];

	for (i = 0; i < cg->npos; i++) {
		if (cg->pos[i] == CG_POS_LINE && p[i] > 0 &&
		    p[i] <= UINT32_MAX && cg->fn != CG_NONE &&
		    callgrind_line_cost(cg, p[i]) == -1)
			return (-1);
	}
	if (cg->state == CG_CALL) {
		cg->state = CG_COST;
		if ((e = callgrind_edge(cg, cg->fn, cg->cfn)) == CG_NONE)
			return (-1);
		if (callgrind_add(cg->ecost + (size_t)e * cg->stride, cg->cost,
		    cg->stride) == -1 || __builtin_add_overflow(
		    cg->edges[e].calls, cg->ncalls, &cg->edges[e].calls))
			goto overflow;
		return (0);
	}
	cg->state = CG_COST;
	if (cg->fn == CG_NONE) {
		cause_set(&cg->why, "cost line before fn=");
		return (-1);
	}
	if (callgrind_add(cg->fself + (size_t)cg->fn * cg->stride, cg->cost,
	    cg->stride) == -1 ||
	    callgrind_add(cg->partsum, cg->cost, cg->stride) == -1)
		goto overflow;
	f = &cg->funcs[cg->fn];
	for (i = 0; i < cg->npos; i++) {
		if (cg->pos[i] == CG_POS_LINE && cg->file == f->file &&
		    p[i] > 0 && p[i] <= UINT32_MAX &&
		    (f->line == 0 || p[i] < f->line))
			f->line = (uint32_t)p[i];
	}
	return (0);
bad:
	cause_set(&cg->why, "bad subposition");
	return (-1);
overflow:
	cause_set(&cg->why, "cost overflows 64 bits");
	return (-1);
}

/* The row of the current function and file at line ln, made if new. */
static uint32_t
callgrind_lrow(struct callgrind *cg, uint64_t ln)
{
	struct cg_lrow	*nr;
	uint64_t	 key = (uint64_t)cg->file << 32 | ln;
	uint32_t	 pos, r;

	if ((pos = idmap_get(&cg->lpos, key)) == IDMAP_NONE) {
		pos = cg->nlpos++;
		if (idmap_put(&cg->lpos, key, pos) == -1)
			return (CG_NONE);
	}
	key = (uint64_t)cg->fn << 32 | pos;
	if ((r = idmap_get(&cg->lrowkey, key)) != IDMAP_NONE)
		return (r);
	if ((nr = callgrind_row(cg, cg->lrows, sizeof *nr, &cg->lself,
	    cg->nlrows, &cg->lrowcap, "source lines")) == NULL)
		return (CG_NONE);
	cg->lrows = nr;
	r = cg->nlrows;
	if (idmap_put(&cg->lrowkey, key, r) == -1)
		return (CG_NONE);
	cg->lrows[r].fn = cg->fn;
	cg->lrows[r].file = cg->file;
	cg->lrows[r].line = (uint32_t)ln;
	cg->nlrows++;
	return (r);
}

/*
 * The cost line just read (cg->cost) at line ln of the current file:
 * the function's self cost there, or the pending call's cost and count
 * made from there (the call line's position is the caller's).
 */
static int
callgrind_line_cost(struct callgrind *cg, uint64_t ln)
{
	struct cg_lcall	*nc;
	uint64_t	 key;
	uint32_t	 r, c;

	if ((r = callgrind_lrow(cg, ln)) == CG_NONE)
		return (-1);
	if (cg->state != CG_CALL) {
		if (callgrind_add(cg->lself + (size_t)r * cg->stride, cg->cost,
		    cg->stride) == -1)
			goto overflow;
		return (0);
	}
	key = (uint64_t)r << 32 | cg->cfn;
	if ((c = idmap_get(&cg->lcallkey, key)) == IDMAP_NONE) {
		if ((nc = callgrind_row(cg, cg->lcalls, sizeof *nc, &cg->lcost,
		    cg->nlcalls, &cg->lcallcap, "calls")) == NULL)
			return (-1);
		cg->lcalls = nc;
		c = cg->nlcalls;
		if (idmap_put(&cg->lcallkey, key, c) == -1)
			return (-1);
		cg->lcalls[c].row = r;
		cg->lcalls[c].cfn = cg->cfn;
		cg->lcalls[c].calls = 0;
		cg->nlcalls++;
	}
	if (callgrind_add(cg->lcost + (size_t)c * cg->stride, cg->cost,
	    cg->stride) == -1 || __builtin_add_overflow(cg->lcalls[c].calls,
	    cg->ncalls, &cg->lcalls[c].calls))
		goto overflow;
	return (0);
overflow:
	cause_set(&cg->why, "cost overflows 64 bits");
	return (-1);
}

/*
 * The rows into the profile builder, once every function has its
 * builder function (callgrind_bf): self costs and calls by line.
 */
static int
callgrind_lines(struct callgrind *cg)
{
	const char	*file;
	uint32_t	 i, fr, fid, *frames = NULL;
	int		 m, rc = -1;

	if (cg->nlrows == 0)
		return (0);
	if ((frames = calloc(cg->nlrows, sizeof *frames)) == NULL)
		return (-1);
	for (i = 0; i < cg->nlrows; i++) {
		file = strpool_get(cg->names, cg->lrows[i].file);
		if ((fid = profile_builder_string(cg->b, file, strlen(file))) ==
		    PROFILE_NONE || (fr = profile_builder_line_frame(cg->b,
		    cg->funcs[cg->lrows[i].fn].bf, fid, cg->lrows[i].line)) ==
		    PROFILE_NONE)
			goto out;
		frames[i] = fr;
		for (m = 0; m < cg->stride; m++) {
			if (cg->lself[(size_t)i * cg->stride + m] != 0 &&
			    profile_builder_line_self(cg->b, fr, m,
			    cg->lself[(size_t)i * cg->stride + m]) == -1)
				goto out;
		}
	}
	for (i = 0; i < cg->nlcalls; i++) {
		fr = frames[cg->lcalls[i].row];
		if (profile_builder_line_call(cg->b, fr,
		    cg->funcs[cg->lcalls[i].cfn].bf, -1, 0,
		    cg->lcalls[i].calls) == -1)
			goto out;
		for (m = 0; m < cg->stride; m++) {
			if (profile_builder_line_call(cg->b, fr,
			    cg->funcs[cg->lcalls[i].cfn].bf, m,
			    cg->lcost[(size_t)i * cg->stride + m], 0) == -1)
				goto out;
		}
	}
	rc = 0;
out:
	free(frames);
	return (rc);
}

/*
 * The builder function of a function, made on first use. The model keys
 * functions by name and module (the ELF object); two functions of one
 * name and object but different files (static functions) get the file
 * added to the name, as KCachegrind tells them apart by it.
 */
static uint32_t
callgrind_bf(struct callgrind *cg, uint32_t i)
{
	struct cg_func	*f = &cg->funcs[i];
	const char	*name, *file, *obj;
	char		*alt = NULL, *base = NULL;
	uint32_t	 bf, k, cap, *no;
	size_t		 len;

	if (f->bf != CG_NONE)
		return (f->bf);
	name = strpool_get(cg->names, f->name);
	/* --separate-callers: "f'caller'caller2" is f in that context. */
	if (callgrind_base(name, &len)) {
		if ((base = strndup(name, len)) == NULL)
			return (CG_NONE);
		name = base;
	}
	file = strpool_get(cg->names, f->file);
	obj = strpool_get(cg->names, f->obj);
	for (k = 0;; k++) {
		if (k > 0) {
			free(alt);
			if ((k == 1 ? asprintf(&alt, "%s (%s)", name, file) :
			    asprintf(&alt, "%s (%s) #%u", name, file, k)) ==
			    -1)
				return (CG_NONE);
		}
		bf = profile_builder_func(cg->b, k > 0 ? alt : name,
		    strlen(k > 0 ? alt : name), obj, strlen(obj));
		if (bf == PROFILE_NONE)
			break;
		if (bf >= cg->bfcap) {
			cap = bf < 512 ? 1024 : bf * 2;
			if ((no = realloc(cg->bfowner, (size_t)cap *
			    sizeof *no)) == NULL) {
				bf = PROFILE_NONE;
				break;
			}
			memset(no + cg->bfcap, 0xff, (size_t)(cap - cg->bfcap) *
			    sizeof *no);
			if (cg->bfcap == 0)
				no[PROFILE_ROOT] = CG_NONE - 1;
			cg->bfowner = no;
			cg->bfcap = cap;
		}
		if (cg->bfowner[bf] == CG_NONE) {
			cg->bfowner[bf] = i;
			break;
		}
		/* Another context of the same function. */
		if (base != NULL && cg->bfowner[bf] < cg->nfuncs &&
		    cg->funcs[cg->bfowner[bf]].file == f->file)
			break;
	}
	free(alt);
	free(base);
	if (bf == PROFILE_NONE)
		return (CG_NONE);
	f->bf = bf;
	profile_builder_func_location(cg->b, bf, file, strlen(file), f->line);
	return (bf);
}

static uint32_t
callgrind_bf_cb(void *arg, uint32_t i)
{
	return (callgrind_bf(arg, i));
}

/* The estimated calling-context tree of the graph read (calltree.h). */
static int
callgrind_tree(struct callgrind *cg, uint32_t maxnodes, char **cause)
{
	const struct calltree_graph g = {
		.nfuncs = cg->nfuncs, .nmetrics = cg->stride,
		.self = cg->fself,
		.nedges = cg->nedges, .edges = cg->edges, .cost = cg->ecost,
		.extra = cg->extra,
		.func = callgrind_bf_cb, .arg = cg,
	};

	return (calltree_build(cg->b, &g, maxnodes, cause));
}

/*
 * Is a function name a recursion level, "f'2" (callgrind's
 * --separate-recs: the second and deeper activations of f), in a
 * context or not ("f'2'caller")?
 */
static int
callgrind_level(const char *name)
{
	const char	*q = strchr(name, '\''), *d;

	if (q == NULL || q == name)
		return (0);
	for (d = q + 1; *d >= '0' && *d <= '9'; d++)
		;
	return (d > q + 1 && (*d == '\0' || *d == '\''));
}

/*
 * The function of a name in a caller context, "f'caller'caller2" or
 * "f'2'caller" (callgrind's --separate-callers=N): 1 and *len the length
 * of "f" ("f'2"), or 0 for a name without one. The first quote starts
 * the suffix: function names in C and C++ have none.
 */
static int
callgrind_base(const char *name, size_t *len)
{
	const char	*q = strchr(name, '\''), *d;

	if (q == NULL || q == name || q[1] == '\0')
		return (0);
	for (d = q + 1; *d >= '0' && *d <= '9'; d++)
		;
	if (d > q + 1 && *d == '\0')
		return (0);		/* a recursion level alone */
	if (d > q + 1 && *d == '\'')
		q = d;
	*len = q - name;
	return (q[0] == '\'' && q[1] != '\0');
}

/*
 * The exact call graph (funcgraph.h), in the profile's function ids:
 * every function's self cost and every call edge with its calls and
 * inclusive cost, as the file has them; -1 with *cause.
 */
static int
callgrind_graph(struct callgrind *cg, struct profile *p, char **cause)
{
	struct funcgraph	*g;
	uint32_t		 f, e;
	int			 nm = cg->stride;

	if (p->nmetrics != (uint32_t)nm) {
		cause_set(cause, "%s: events do not match the metrics",
		    cg->in->path);
		return (-1);
	}
	if ((g = funcgraph_create(p->nfuncs, nm, 0)) == NULL)
		goto nomem;
	for (f = 0; f < cg->nfuncs; f++) {
		if (funcgraph_self(g, cg->funcs[f].bf, cg->fself +
		    (size_t)f * nm) == -1 ||
		    (callgrind_level(strpool_get(cg->names,
		    cg->funcs[f].name)) &&
		    funcgraph_level(g, cg->funcs[f].bf) == -1))
			goto nomem;
	}
	for (e = 0; e < cg->nedges; e++) {
		if (funcgraph_edge(g, cg->funcs[cg->edges[e].from].bf,
		    cg->funcs[cg->edges[e].to].bf, cg->edges[e].calls,
		    cg->ecost + (size_t)e * nm, NULL) == -1)
			goto nomem;
	}
	if (funcgraph_attach(g, p, cause) == -1) {
		funcgraph_free(g);
		return (-1);
	}
	return (0);
nomem:
	funcgraph_free(g);
	cause_set(cause, "out of memory");
	return (-1);
}

static void
callgrind_free(struct callgrind *cg)
{
	int	 i;

	profile_builder_free(cg->b);
	strpool_free(cg->names);
	for (i = 0; i < 3; i++)
		idmap_clear(&cg->ids[i]);
	idmap_clear(&cg->fkey);
	idmap_clear(&cg->fobj);
	idmap_clear(&cg->ekey);
	idmap_clear(&cg->lpos);
	idmap_clear(&cg->lrowkey);
	idmap_clear(&cg->lcallkey);
	free(cg->lrows);
	free(cg->lself);
	free(cg->lcalls);
	free(cg->lcost);
	free(cg->why);
	free(cg->funcs);
	free(cg->fself);
	free(cg->edges);
	free(cg->ecost);
	free(cg->bfowner);
}

static struct profile *
callgrind_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct callgrind cg;
	struct profile	*p = NULL;
	const char	*s, *k;
	char		*line;
	size_t		 len, n;
	uint32_t	 maxnodes = CALLGRIND_MAX_NODES;
	int		 i;

	memset(&cg, 0, sizeof cg);
	cg.in = in;
	for (i = 0; i < 3; i++)
		idmap_init(&cg.ids[i]);
	idmap_init(&cg.fkey);
	idmap_init(&cg.fobj);
	idmap_init(&cg.ekey);
	idmap_init(&cg.lpos);
	idmap_init(&cg.lrowkey);
	idmap_init(&cg.lcallkey);
	cg.npos = 1;
	cg.pos[0] = CG_POS_LINE;
	cg.fn = cg.cfn = cg.cob = cg.cfl = CG_NONE;
	if (opts->variant != NULL && *opts->variant != '\0') {
		cause_set(cause, "callgrind: no variants");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		maxnodes = opts->max_nodes;
	if ((cg.b = profile_builder_create("callgrind")) == NULL ||
	    (cg.names = strpool_create()) == NULL) {
		cause_set(cause, "out of memory");
		goto fail;
	}
	profile_builder_set_max_nodes(cg.b, maxnodes);

	while ((line = input_line(in, &len, &cg.why)) != NULL) {
		if (len == 0 || line[0] == '#')
			continue;
		if (memchr(line, '\0', len) != NULL) {
			cause_set(&cg.why, "NUL byte (binary data?)");
			goto lineerr;
		}
		s = line;
		if ((*s >= '0' && *s <= '9') || *s == '+' || *s == '-' ||
		    *s == '*') {
			if (callgrind_cost(&cg, s) == -1)
				goto lineerr;
			cg.body = 1;
			continue;
		}
		if (cg.state == CG_CALL) {
			cause_set(&cg.why, "calls= not followed by its cost "
			    "line");
			goto lineerr;
		}
		for (k = s; (*k >= 'a' && *k <= 'z') ||
		    (*k >= 'A' && *k <= 'Z') ||
		    (k > s && ((*k >= '0' && *k <= '9') || *k == '_')); k++)
			;
		n = k - s;
		if (n > 0 && *k == '=') {
			cg.body = 1;
			if (callgrind_spec(&cg, s, n, k + 1, line + len) == -1)
				goto lineerr;
		} else if (n > 0 && *k == ':') {
			if (callgrind_header(&cg, s, n, k + 1) == -1)
				goto lineerr;
		} else {
			cause_set(&cg.why, "not a callgrind line");
			goto lineerr;
		}
	}
	if (cg.why != NULL) {
		cause_set(cause, "%s: %s", in->path, cg.why);
		goto fail;
	}
	if (callgrind_truncated(&cg) == -1 || callgrind_part_end(&cg) == -1) {
		cause_set(cause, "%s: %s", in->path, cg.why);
		goto fail;
	}
	if (!cg.events || cg.nfuncs == 0) {
		cause_set(cause, "%s: %s", in->path, !cg.events ?
		    "no events: line" : "no functions");
		goto fail;
	}
	if (callgrind_tree(&cg, maxnodes, &cg.why) == -1) {
		cause_set(cause, "%s: %s", in->path, cg.why ? cg.why :
		    "out of memory");
		goto fail;
	}
	/* Every function of the graph gets a function of the profile. */
	for (n = 0; n < cg.nfuncs; n++) {
		if (callgrind_bf(&cg, n) == CG_NONE) {
			cause_set(cause, "%s: %s", in->path,
			    profile_builder_error(cg.b));
			goto fail;
		}
	}
	if (callgrind_lines(&cg) == -1) {
		cause_set(cause, "%s: %s", in->path,
		    profile_builder_error(cg.b));
		goto fail;
	}
	p = profile_builder_finish(cg.b, cause);
	cg.b = NULL;
	if (p != NULL && callgrind_graph(&cg, p, cause) == -1) {
		profile_free(p);
		p = NULL;
	}
	callgrind_free(&cg);
	return (p);

lineerr:
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, cg.why ? cg.why : "out of memory");
fail:
	callgrind_free(&cg);
	return (NULL);
}

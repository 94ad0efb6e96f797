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

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "profile.h"
#include "timeline.h"
#include "timeline-sums.h"

/*
 * Function figures of records, sparse and at checkpoints
 * (timeline-sums.h). All arithmetic on figures wraps: the sums are
 * built only from values that are never negative and whose total fits
 * in 64 bits, so a difference of two checkpoints, corrected by the
 * records at the ends, is the exact figure of a range whatever the
 * order of the adds.
 */

#define TS_LIMIT	(INT64_C(1) << 62)
#define TS_CHARGE	4096		/* records between charges */
#define TS_CLIMB	32		/* steps a record, at most, to build */
#define TS_AHEAD	16		/* records read ahead of a build */

static int	ts_grow(struct timeline_sums_acc *);
static uint32_t	ts_path(struct timeline_sums_acc *, uint32_t);
static inline void ts_prefetch(const struct timeline_sums_acc *, uint32_t,
		    uint32_t);
static inline void ts_row(uint64_t *, const uint64_t *, size_t);
static void	ts_add(int64_t *, const int64_t *, const int64_t *, size_t,
		    uint32_t, uint32_t, const uint8_t *);
static uint64_t	ts_near(const struct timeline_sums *, uint64_t);
static int	ts_between(struct timeline_sums_acc *, const struct timeline *,
		    uint64_t, uint64_t, int, const uint8_t *, struct cost *);
static int	ts_build(struct timeline_sums *, const struct profile *,
		    struct cost *);

/* An empty accumulator of rows of width values; NULL if out of memory. */
struct timeline_sums_acc *
timeline_sums_acc_create(const struct profile *p, uint32_t width)
{
	struct timeline_sums_acc	*acc;

	if (width == 0 || (acc = calloc(1, sizeof *acc)) == NULL)
		return (NULL);
	acc->p = p;
	acc->width = width;
	/* Zero pages until touched: a sparse range touches few. */
	if ((acc->slot = calloc(p->nnodes ? p->nnodes : 1,
	    sizeof *acc->slot)) == NULL ||
	    (acc->stamp = calloc(p->nfuncs ? p->nfuncs : 1,
	    sizeof *acc->stamp)) == NULL) {
		timeline_sums_acc_free(acc);
		return (NULL);
	}
	return (acc);
}

void
timeline_sums_acc_free(struct timeline_sums_acc *acc)
{
	if (acc == NULL)
		return;
	free(acc->slot);
	free(acc->node);
	free(acc->vals);
	free(acc->stamp);
	free(acc->path);
	free(acc);
}

static int
ts_grow(struct timeline_sums_acc *acc)
{
	size_t		 cap = acc->cap ? acc->cap * 2 : 1024;
	uint32_t	*node;
	int64_t		*vals;

	if (cap > acc->p->nnodes)
		cap = acc->p->nnodes;
	if ((node = reallocarray(acc->node, cap, sizeof *node)) == NULL)
		return (-1);
	acc->node = node;
	if ((vals = reallocarray(acc->vals, cap, (size_t)acc->width *
	    sizeof *vals)) == NULL)
		return (-1);
	acc->vals = vals;
	acc->cap = cap;
	return (0);
}

/* Call node n's row, made (zero) if new; NULL if out of memory. */
int64_t *
timeline_sums_acc_row(struct timeline_sums_acc *acc, uint32_t n)
{
	int64_t	*row;

	if (acc->slot[n] != 0)
		return (&acc->vals[(size_t)(acc->slot[n] - 1) * acc->width]);
	if (acc->nrows == acc->cap && ts_grow(acc) == -1)
		return (NULL);
	row = &acc->vals[acc->nrows * acc->width];
	memset(row, 0, (size_t)acc->width * sizeof *row);
	acc->node[acc->nrows++] = n;
	acc->slot[n] = (uint32_t)acc->nrows;
	acc->climb += (uint64_t)acc->p->node_depth[n] + 1;
	return (row);
}

/*
 * A build misses the cache on most records' slot and row (the nodes of
 * a busy recording's stacks are all over): ask for node far's slot and
 * node near's row (its slot asked for before) ahead of their turn.
 */
static inline void
ts_prefetch(const struct timeline_sums_acc *acc, uint32_t far, uint32_t near)
{
	uint32_t	 s;

	__builtin_prefetch(&acc->slot[far]);
	if ((s = acc->slot[near]) != 0)
		__builtin_prefetch(&acc->vals[(size_t)(s - 1) * acc->width]);
}

/*
 * Add what record r gives each metric within [a, e), times sign, to
 * its node's row from value base on. -1 if out of memory.
 */
int
timeline_sums_acc_record(struct timeline_sums_acc *acc,
    const struct timeline_rec *r, int64_t a, int64_t e, int sign,
    uint32_t base)
{
	const struct timeline	*tl = acc->p->timeline;
	uint32_t		 k, nm = acc->p->nmetrics;
	int64_t			 v, *row = NULL;

	for (k = 0; k < nm && k < 16; k++) {
		if ((v = timeline_value(tl, k, r, a, e)) == 0)
			continue;
		if (v < 0)
			acc->negative = 1;
		if (__builtin_add_overflow(acc->sum[k], v, &acc->sum[k]))
			acc->overflow = 1;
		if (row == NULL &&
		    (row = timeline_sums_acc_row(acc, r->node)) == NULL)
			return (-1);
		if (sign < 0)
			v = (int64_t)(0 - (uint64_t)v);
		row[base + k] = (int64_t)((uint64_t)row[base + k] +
		    (uint64_t)v);
	}
	return (0);
}

/*
 * The functions on node n's path, each once (recursion counts once),
 * into acc->path; their number. The path's length is the node's depth
 * plus one (the builder makes each node one below its parent).
 */
static uint32_t
ts_path(struct timeline_sums_acc *acc, uint32_t n)
{
	const struct profile	*p = acc->p;
	uint32_t		 np = 0, d, depth = p->node_depth[n], f;

	if (++acc->walk == 0) {
		memset(acc->stamp, 0, p->nfuncs * sizeof *acc->stamp);
		acc->walk = 1;
	}
	for (d = 0; d <= depth; d++) {
		f = p->node_func[n];
		if (acc->stamp[f] != acc->walk) {
			acc->stamp[f] = acc->walk;
			acc->path[np++] = f;
		}
		if (n == PROFILE_ROOT ||
		    (n = p->node_parent[n]) == PROFILE_NONE)
			break;
	}
	return (np);
}

/*
 * Add the rows to the figures out ([2][nfuncs][width]) and empty the
 * accumulator. -1 if out of memory.
 */
int
timeline_sums_acc_flush(struct timeline_sums_acc *acc, int64_t *out)
{
	const struct profile	*p = acc->p;
	size_t			 i, w = acc->width, need;
	uint32_t		 n, j, np, *path;
	const uint64_t		*row;
	uint64_t		*total = (uint64_t *)out + p->nfuncs * w;

	for (i = 0; i < acc->nrows; i++) {
		n = acc->node[i];
		row = (const uint64_t *)&acc->vals[i * w];
		acc->slot[n] = 0;
		if ((need = (size_t)p->node_depth[n] + 1) > acc->pathcap) {
			if ((path = reallocarray(acc->path, need,
			    sizeof *path)) == NULL)
				return (-1);
			acc->path = path;
			acc->pathcap = need;
		}
		np = ts_path(acc, n);
		ts_row((uint64_t *)out + (size_t)p->node_func[n] * w, row, w);
		for (j = 0; j < np; j++)
			ts_row(total + (size_t)acc->path[j] * w, row, w);
	}
	acc->nrows = 0;
	acc->climb = 0;
	return (0);
}

/* dst[i] += row[i], wrapping (see the top). */
static inline void
ts_row(uint64_t *dst, const uint64_t *row, size_t w)
{
	size_t	 i;

	for (i = 0; i < w; i++)
		dst[i] += row[i];
}

/*
 * The checkpoint sums of p's timeline, or NULL when it has none (too
 * few records, a span's duration, too many functions for the bound,
 * a value below zero or past 64 bits) or out of memory or budget.
 */
struct timeline_sums *
timeline_sums_create(const struct profile *p, struct cost *cost)
{
	const struct timeline	*tl = p->timeline;
	struct timeline_sums	*s;
	size_t			 limit, per;
	uint64_t		 maxchk;
	uint32_t		 k, g;

	if (tl == NULL || tl->n < TIMELINE_SUMS_MIN_RECORDS ||
	    p->nmetrics == 0 || p->nmetrics > sizeof tl->mode ||
	    p->nfuncs == 0)
		return (NULL);
	for (k = 0; k < p->nmetrics; k++) {
		if (tl->mode[k] == TIMELINE_SPAN)
			return (NULL);
	}
	limit = timeline_memory(tl) / 2;
	if (limit > TIMELINE_SUMS_MAX_BYTES)
		limit = TIMELINE_SUMS_MAX_BYTES;
	/* A set per thread when they are few, else one for them all. */
	g = (tl->flags & TIMELINE_F_THREAD) && tl->nthreads > 1 &&
	    tl->nthreads <= TIMELINE_SUMS_MAX_GROUPS ? tl->nthreads : 1;
	per = 2 * (size_t)p->nfuncs * p->nmetrics * sizeof(int64_t);
	if (per * g * 16 > limit)
		g = 1;
	if (per * g * 16 > limit)
		return (NULL);
	per *= g;
	if ((s = calloc(1, sizeof *s)) == NULL)
		return (NULL);
	s->ngroups = g;
	s->nmetrics = p->nmetrics;
	s->nfuncs = p->nfuncs;
	maxchk = limit / per;
	s->step = (tl->n + maxchk - 2) / (maxchk - 1);
	s->step = (s->step + TIMELINE_BLOCK - 1) / TIMELINE_BLOCK *
	    TIMELINE_BLOCK;
	s->nchk = (tl->n + s->step - 1) / s->step + 1;
	if ((s->v = calloc(s->nchk, per)) == NULL ||
	    ts_build(s, p, cost) == -1) {
		timeline_sums_free(s);
		return (NULL);
	}
	return (s);
}

/*
 * One pass over the records: each step's values per thread and node,
 * flushed onto the checkpoint before to make the next. -1 where the
 * sums cannot be (see timeline_sums_create).
 */
static int
ts_build(struct timeline_sums *s, const struct profile *p, struct cost *cost)
{
	const struct timeline		*tl = p->timeline;
	struct timeline_sums_acc	*acc;
	struct timeline_iter		 it;
	struct timeline_rec		 r;
	size_t				 per;
	uint64_t			 i, c, climb = 0;
	int				 rc = -1;

	per = 2 * (size_t)s->nfuncs * s->ngroups * s->nmetrics;
	if ((acc = timeline_sums_acc_create(p, s->ngroups *
	    s->nmetrics)) == NULL)
		return (-1);
	timeline_iter_init(&it, tl);
	for (i = 0; timeline_next(&it, &r); i++) {
		if ((i + 1) % TS_CHARGE == 0 &&
		    cost_charge(cost, TS_CHARGE) == -1)
			goto out;
		/* The nodes ahead are known: their slots and rows early. */
		if (i + TS_AHEAD < tl->n)
			ts_prefetch(acc, tl->node[i + TS_AHEAD],
			    tl->node[i + TS_AHEAD / 2]);
		if (timeline_sums_acc_record(acc, &r, -TS_LIMIT, TS_LIMIT, 1,
		    (s->ngroups > 1 ? r.thread : 0) * s->nmetrics) == -1)
			goto out;
		if ((i + 1) % s->step != 0 && i + 1 != tl->n)
			continue;
		/* The walks, bounded: a deep tree would cost too much. */
		if ((climb += acc->climb) > TS_CLIMB * tl->n + p->nnodes ||
		    cost_charge(cost, acc->climb) == -1)
			goto out;
		c = (i + s->step) / s->step;
		memcpy(&s->v[c * per], &s->v[(c - 1) * per], per *
		    sizeof *s->v);
		if (timeline_sums_acc_flush(acc, &s->v[c * per]) == -1)
			goto out;
	}
	if (i == tl->n && !acc->negative && !acc->overflow)
		rc = 0;
out:
	timeline_sums_acc_free(acc);
	return (rc);
}

void
timeline_sums_free(struct timeline_sums *s)
{
	if (s == NULL)
		return;
	free(s->v);
	free(s);
}

/* Bytes the sums hold. */
size_t
timeline_sums_memory(const struct timeline_sums *s)
{
	if (s == NULL)
		return (0);
	return (sizeof *s + (size_t)s->nchk * s->ngroups * s->nmetrics * 2 *
	    s->nfuncs * sizeof *s->v);
}

/* The first record at or after time a (records are in time order). */
uint64_t
timeline_sums_first(const struct timeline *tl, int64_t a)
{
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint64_t		 lo = 0, hi = tl->nindex, mid, end;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tl->index[mid].t < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	end = lo * TIMELINE_BLOCK < tl->n ? lo * TIMELINE_BLOCK : tl->n;
	if (lo == 0)
		return (0);
	/* In the block before, or the block's first. */
	timeline_iter_block(&it, tl, lo - 1);
	while (it.i < end && timeline_next(&it, &r)) {
		if (r.t >= a)
			return (it.i - 1);
	}
	return (end);
}

/* The checkpoint nearest record i. */
static uint64_t
ts_near(const struct timeline_sums *s, uint64_t i)
{
	uint64_t	 c = (i + s->step / 2) / s->step;

	return (c < s->nchk ? c : s->nchk - 1);
}

/*
 * Add records [x, y) of the threads keep flags (NULL: all), times sign,
 * to acc. -1 if out of memory, the budget or a short stream.
 */
static int
ts_between(struct timeline_sums_acc *acc, const struct timeline *tl,
    uint64_t x, uint64_t y, int sign, const uint8_t *keep,
    struct cost *cost)
{
	struct timeline_iter	 it;
	struct timeline_rec	 r;

	if (x >= y)
		return (0);
	if (cost_charge(cost, y - x + (x % TIMELINE_BLOCK)) == -1)
		return (-1);
	timeline_iter_block(&it, tl, x / TIMELINE_BLOCK);
	while (it.i < x)
		if (!timeline_next(&it, &r))
			return (-1);
	while (it.i < y) {
		if (!timeline_next(&it, &r))
			return (-1);
		if (keep != NULL && !keep[r.thread])
			continue;
		if (timeline_sums_acc_record(acc, &r, -TS_LIMIT, TS_LIMIT,
		    sign, 0) == -1)
			return (-1);
	}
	return (0);
}

/*
 * Add to out ([2][nfuncs][nmetrics]) the figures of the records at
 * times [a, e) of the threads keep flags (NULL: all; flags need sums
 * with a set per thread). -1 if out of memory or budget.
 */
int
timeline_sums_range(const struct timeline_sums *s, const struct profile *p,
    int64_t a, int64_t e, const uint8_t *keep, int64_t *out,
    struct cost *cost)
{
	const struct timeline		*tl = p->timeline;
	struct timeline_sums_acc	*acc;
	size_t				 per;
	uint64_t			 ia, ie, ci, cj, ri, rj;
	int				 rc = -1;

	ia = timeline_sums_first(tl, a);
	ie = e > a ? timeline_sums_first(tl, e) : ia;
	ci = ts_near(s, ia);
	cj = ts_near(s, ie);
	ri = ci * s->step < tl->n ? ci * s->step : tl->n;
	rj = cj * s->step < tl->n ? cj * s->step : tl->n;
	per = 2 * (size_t)s->nfuncs * s->ngroups * s->nmetrics;
	if (cost_charge(cost, per) == -1)
		return (-1);
	if (ci != cj)
		ts_add(out, &s->v[cj * per], &s->v[ci * per], 2 *
		    (size_t)s->nfuncs, s->ngroups, s->nmetrics, keep);
	/* The checkpoints counted [ri, rj): the ends make it [ia, ie). */
	if ((acc = timeline_sums_acc_create(p, s->nmetrics)) == NULL)
		return (-1);
	if (ts_between(acc, tl, ia < ri ? ia : ri, ia < ri ? ri : ia,
	    ia < ri ? 1 : -1, keep, cost) == 0 &&
	    ts_between(acc, tl, ie < rj ? ie : rj, ie < rj ? rj : ie,
	    ie < rj ? -1 : 1, keep, cost) == 0 &&
	    timeline_sums_acc_flush(acc, out) == 0)
		rc = 0;
	timeline_sums_acc_free(acc);
	return (rc);
}

/*
 * out[c][k] += hi[c][g][k] - lo[c][g][k] for n cells c, over the groups
 * g keep flags (NULL: all), nm metrics k; wrapping (see the top).
 */
static void
ts_add(int64_t *out, const int64_t *hi, const int64_t *lo, size_t n,
    uint32_t ng, uint32_t nm, const uint8_t *keep)
{
	size_t		 c, w = (size_t)ng * nm;
	uint32_t	 g, k;
	uint64_t	*o;

	for (c = 0; c < n; c++, hi += w, lo += w) {
		o = (uint64_t *)out + c * nm;
		for (g = 0; g < ng; g++) {
			if (keep != NULL && !keep[g])
				continue;
			for (k = 0; k < nm; k++)
				o[k] += (uint64_t)hi[g * nm + k] -
				    (uint64_t)lo[g * nm + k];
		}
	}
}

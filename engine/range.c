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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "cost.h"
#include "profile.h"
#include "profile-builder.h"
#include "query.h"
#include "range.h"
#include "timeline.h"
#include "timeline-sums.h"

/*
 * A profile restricted to a time range and threads (range.h). Two
 * passes over the records in the range (found by the timeline's index):
 * the first sums each leaf node's values (or, when that reads fewer
 * records, takes from the profile's values what lies outside), the
 * second, when the report needs times (the timeline, the chart, the
 * sample sequence), copies the records, cut to the range, into the
 * derived profile's timeline. Between them, the nodes with a value and
 * their ancestors are made, parents first, under the same functions
 * (profile_builder_graft: no lookups).
 *
 * A report that reads only the functions' figures (range_apply_funcs)
 * skips the tree: the same passes put the values in a sparse
 * accumulator (timeline-sums.h) and derive the figures from the nodes
 * touched, or the index's checkpoint sums give them. Either way they
 * are the ones the whole derived profile would have.
 */

#define RANGE_LIMIT	(INT64_C(1) << 62)
#define RANGE_CHARGE	4096		/* records between charges */
#define RANGE_SPARSE	4		/* records a node, at most, to go sparse */

struct rg {
	const struct profile	*p;
	const struct timeline	*tl;
	struct profile_builder	*b;
	int64_t			 a, e;
	const uint8_t		*keep;		/* threads, or NULL: all */
	int64_t			*vals;		/* [nnodes][nmetrics] */
	uint8_t			*hit;		/* [nnodes] */
	uint32_t		*out;		/* [nnodes] */
	struct timeline_sums_acc *acc;		/* instead of vals: funcs only */
	int64_t			*funcs;		/* [2][nfuncs][nmetrics] */
	struct cost		*cost;
	int			 status;
	char			*cause;
};

static int	rg_error(struct rg *, int, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static int	rg_charge(struct rg *, uint64_t);
static int	rg_add(struct rg *, const struct timeline_rec *, int64_t,
		    int64_t, int);
static int	rg_inside(struct rg *);
static int	rg_outside(struct rg *);
static void	rg_count(const struct rg *, uint64_t *, uint64_t *);
static int	rg_choose(const struct rg *);
static int	rg_nodes(struct rg *);
static int	rg_times(struct rg *);
static int	rg_funcs(struct rg *, const struct timeline_sums *);
static struct profile *rg_funcs_profile(struct rg *);

static int
rg_error(struct rg *x, int status, const char *fmt, ...)
{
	va_list	 ap;

	x->status = status;
	free(x->cause);
	x->cause = NULL;
	va_start(ap, fmt);
	cause_vset(&x->cause, fmt, ap);
	va_end(ap);
	return (-1);
}

static int
rg_charge(struct rg *x, uint64_t n)
{
	char	*why;

	if (cost_charge(x->cost, n) == 0)
		return (0);
	if ((why = cost_message(x->cost)) == NULL)
		return (rg_error(x, 500, "out of memory"));
	rg_error(x, 503, "%s", why);
	free(why);
	return (-1);
}

/*
 * The range= (base_range= when base is set) and thread= of a query.
 * -1 with *cause if out of memory (the values were checked by
 * query_parse).
 */
int
range_parse(const struct query *q, int base, struct range *r, char **cause)
{
	const double	*t = base ? q->base_range : q->range;
	const char	*v, *s, *nl;
	size_t		 n;

	memset(r, 0, sizeof *r);
	if (query_range_set(t)) {
		r->a = t[0];
		r->b = t[1];
		r->timed = 1;
	}
	v = q->thread;
	if (*v == '\0')
		return (0);
	for (n = 1, s = v; (s = strchr(s, '\n')) != NULL; s++)
		n++;
	if ((r->threads = calloc(n, sizeof *r->threads)) == NULL)
		goto nomem;
	for (s = v; r->nthreads < n; s = nl + 1) {
		nl = strchr(s, '\n');
		if ((r->threads[r->nthreads] = strndup(s, nl ? (size_t)(nl -
		    s) : strlen(s))) == NULL)
			goto nomem;
		r->nthreads++;
		if (nl == NULL)
			break;
	}
	return (0);
nomem:
	range_clear(r);
	cause_set(cause, "out of memory");
	return (-1);
}

void
range_clear(struct range *r)
{
	size_t	 i;

	for (i = 0; i < r->nthreads; i++)
		free(r->threads[i]);
	free(r->threads);
	memset(r, 0, sizeof *r);
}

/* Does the range restrict anything? */
int
range_active(const struct range *r)
{
	return (r->timed || r->nthreads > 0);
}

/*
 * The range as clock times [*a, *e) of p's timeline (everything when no
 * interval is given). -1 if p has no timeline.
 */
int
range_clock(const struct profile *p, const struct range *r, int64_t *a,
    int64_t *e)
{
	if (p->timeline == NULL)
		return (-1);
	*a = r->timed ? timeline_time(p->timeline, r->a) : -RANGE_LIMIT;
	*e = r->timed ? timeline_time(p->timeline, r->b) : RANGE_LIMIT;
	return (0);
}

/*
 * The threads thread= keeps, one flag each, or NULL with *status 0 when
 * it keeps them all; NULL with *status and *cause on failure (404: a
 * value names no thread).
 */
uint8_t *
range_threads(const struct profile *p, const struct range *r, int *status,
    char **cause)
{
	const struct timeline	*tl = p->timeline;
	uint8_t			*keep;
	uint32_t		 i;
	size_t			 k;
	int			 m, any;

	*status = 0;
	if (r->nthreads == 0 || tl == NULL)
		return (NULL);
	if ((keep = calloc(tl->nthreads ? tl->nthreads : 1, 1)) == NULL)
		goto nomem;
	for (k = 0; k < r->nthreads; k++) {
		for (any = 0, i = 0; i < tl->nthreads; i++) {
			if ((m = timeline_thread_match(tl, p->strings, i,
			    r->threads[k])) == -1)
				goto nomem;
			if (m) {
				keep[i] = 1;
				any = 1;
			}
		}
		if (!any) {
			free(keep);
			*status = 404;
			cause_set(cause, "thread=%s: no such thread (cmd=timeline "
			    "lists them)", r->threads[k]);
			return (NULL);
		}
	}
	return (keep);
nomem:
	free(keep);
	*status = 500;
	cause_set(cause, "out of memory");
	return (NULL);
}

/* Add record r's values within [a, e) to its node's, times sign. */
static inline int
rg_add(struct rg *x, const struct timeline_rec *r, int64_t a, int64_t e,
    int sign)
{
	uint32_t	 k, nm = x->p->nmetrics;
	int64_t		 v, *s;

	if (x->acc != NULL)
		return (timeline_sums_acc_record(x->acc, r, a, e, sign, 0) ==
		    -1 ? rg_error(x, 500, "out of memory") : 0);
	s = &x->vals[(size_t)r->node * nm];
	for (k = 0; k < nm; k++) {
		if ((v = timeline_value(x->tl, k, r, a, e)) == 0)
			continue;
		if (sign < 0 ? __builtin_sub_overflow(s[k], v, &s[k]) :
		    __builtin_add_overflow(s[k], v, &s[k]))
			return (rg_error(x, 500, "values overflow 64 bits"));
	}
	return (0);
}

/*
 * Pass 1, the records within the range: each leaf node's values, the
 * sum of what its records there give.
 */
static int
rg_inside(struct rg *x)
{
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint64_t		 seen = 0;

	timeline_seek(&it, x->tl, x->a);
	while (timeline_next(&it, &r) && r.t < x->e) {
		if (++seen % RANGE_CHARGE == 0 &&
		    rg_charge(x, RANGE_CHARGE) == -1)
			return (-1);
		if (x->keep != NULL && !x->keep[r.thread])
			continue;
		if (rg_add(x, &r, x->a, x->e, 1) == -1)
			return (-1);
	}
	return (0);
}

/*
 * Pass 1 the other way, when the records give every value
 * (TIMELINE_F_COMPLETE) and fewer lie outside the range than in it:
 * each node's values less what its records before and after the range
 * give. The records before it are those from the first to the range's
 * start; after it, from the first block that may hold a record ending
 * past the range's end (timeline_seek) to the last: what a record
 * straddling an end gives is cut there, so none counts twice.
 */
static int
rg_outside(struct rg *x)
{
	const struct profile	*p = x->p;
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint64_t		 seen = 0;
	uint32_t		 n, k, f, nm = p->nmetrics;
	size_t			 nf = p->nfuncs;

	/* The profile's values, or (funcs only) its functions' figures. */
	if (rg_charge(x, (uint64_t)(x->acc ? 2 * nf : p->nnodes) * nm) == -1)
		return (-1);
	for (k = 0; k < nm; k++) {
		if (x->tl->mode[k] == TIMELINE_NONE)
			continue;
		for (f = 0; x->acc != NULL && f < nf; f++) {
			x->funcs[f * nm + k] = p->metrics[k].func_self[f];
			x->funcs[(nf + f) * nm + k] = p->metrics[k].func_total[f];
		}
		if (x->acc != NULL)
			continue;
		for (n = 0; n < p->nnodes; n++)
			x->vals[(size_t)n * nm + k] = p->metrics[k].self[n];
	}
	timeline_iter_init(&it, x->tl);
	while (timeline_next(&it, &r) && r.t < x->a) {
		if (++seen % RANGE_CHARGE == 0 &&
		    rg_charge(x, RANGE_CHARGE) == -1)
			return (-1);
		if (rg_add(x, &r, -RANGE_LIMIT, x->a, -1) == -1)
			return (-1);
	}
	timeline_seek(&it, x->tl, x->e);
	while (timeline_next(&it, &r)) {
		if (++seen % RANGE_CHARGE == 0 &&
		    rg_charge(x, RANGE_CHARGE) == -1)
			return (-1);
		if (rg_add(x, &r, x->e, RANGE_LIMIT, -1) == -1)
			return (-1);
	}
	return (0);
}

/*
 * About how many records each way reads: *in those from the range's
 * start to its end, *out those before it and after it.
 */
static void
rg_count(const struct rg *x, uint64_t *in, uint64_t *out)
{
	const struct timeline	*tl = x->tl;
	struct timeline_iter	 ia, ie;
	uint64_t		 lo = 0, hi = tl->nindex, mid, before;

	timeline_seek(&ia, tl, x->a);
	timeline_seek(&ie, tl, x->e);
	/* The first block starting at or after the range's end. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tl->index[mid].t < x->e)
			lo = mid + 1;
		else
			hi = mid;
	}
	*in = lo * TIMELINE_BLOCK - (ia.i < lo * TIMELINE_BLOCK ? ia.i :
	    lo * TIMELINE_BLOCK);
	for (lo = 0, hi = tl->nindex; lo < hi;) {
		mid = lo + (hi - lo) / 2;
		if (tl->index[mid].t < x->a)
			lo = mid + 1;
		else
			hi = mid;
	}
	before = lo * TIMELINE_BLOCK;
	*out = before + (tl->n - (ie.i < tl->n ? ie.i : tl->n));
}

/* Which way reads fewer records (rg_count)? 1: outside. */
static int
rg_choose(const struct rg *x)
{
	uint64_t	 in, out;

	if (!(x->tl->flags & TIMELINE_F_COMPLETE) || x->keep != NULL ||
	    x->tl->nindex == 0)
		return (0);
	rg_count(x, &in, &out);
	return (out < in);
}

/* The nodes with a value and their ancestors, parents first, with them. */
static int
rg_nodes(struct rg *x)
{
	const struct profile	*p = x->p;
	uint32_t		 n, k, nm = p->nmetrics;
	int64_t			 v;

	if (rg_charge(x, (uint64_t)p->nnodes * 2) == -1)
		return (-1);
	for (n = 0; n < p->nnodes; n++) {
		for (k = 0; k < nm; k++) {
			if (x->vals[(size_t)n * nm + k] != 0) {
				x->hit[n] = 1;
				break;
			}
		}
	}
	x->hit[PROFILE_ROOT] = 1;
	for (n = p->nnodes - 1; n > 0; n--) {
		if (x->hit[n])
			x->hit[p->node_parent[n]] = 1;
	}
	if (profile_builder_graft(x->b, p, x->hit, x->out) == -1)
		return (rg_error(x, 500, "%s", profile_builder_error(x->b)));
	for (n = 0; n < p->nnodes; n++) {
		if (!x->hit[n])
			continue;
		for (k = 0; k < nm; k++) {
			if ((v = x->vals[(size_t)n * nm + k]) != 0 &&
			    profile_builder_add(x->b, x->out[n], (int)k, v) ==
			    -1)
				return (rg_error(x, 500, "%s",
				    profile_builder_error(x->b)));
		}
	}
	return (0);
}

/*
 * Pass 2: the records in the range, cut to it, on the derived timeline,
 * and the sample sequence (metric 0's values, in time order, runs of a
 * node merged).
 */
static int
rg_times(struct rg *x)
{
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint64_t		 seen = 0;
	uint32_t		 last = PROFILE_NONE, node;
	int64_t			 t, d, w, v, run = 0;
	int			 in;

	if (profile_builder_times_like(x->b, x->p, x->a, x->e, x->keep) == -1)
		return (rg_error(x, 500, "%s", profile_builder_error(x->b)));
	timeline_seek(&it, x->tl, x->a);
	while (timeline_next(&it, &r) && r.t < x->e) {
		if (++seen % RANGE_CHARGE == 0 &&
		    rg_charge(x, RANGE_CHARGE) == -1)
			return (-1);
		if (x->keep != NULL && !x->keep[r.thread])
			continue;
		in = r.t >= x->a;
		d = timeline_overlap(&r, x->a, x->e);
		if (!in && d == 0)
			continue;
		t = in ? r.t : x->a;
		w = in ? r.w : 0;
		/* A record that gives nothing made no node. */
		if ((node = x->out[r.node]) == PROFILE_NONE)
			continue;
		if (profile_builder_timed(x->b, node, r.thread, t, d, w) == -1)
			return (rg_error(x, 500, "%s",
			    profile_builder_error(x->b)));
		if ((v = timeline_value(x->tl, 0, &r, x->a, x->e)) == 0)
			continue;
		if (node != last && run != 0 &&
		    profile_builder_sample(x->b, last, run) == -1)
			return (rg_error(x, 500, "%s",
			    profile_builder_error(x->b)));
		run = node == last ? run + v : v;
		last = node;
	}
	if (run != 0 && profile_builder_sample(x->b, last, run) == -1)
		return (rg_error(x, 500, "%s", profile_builder_error(x->b)));
	return (0);
}

/*
 * The profile of p's samples in range r: NULL with *status and *cause
 * on failure (400 when p records no times). times: the derived profile
 * keeps its timeline and sample sequence too (the reports that draw
 * time need them; the others do not pay for them). Records are charged
 * to cost.
 */
struct profile *
range_apply(const struct profile *p, const struct range *r, int times,
    struct cost *cost, int *status, char **cause)
{
	struct rg	 x;
	struct profile	*out = NULL;
	uint8_t		*keep = NULL;

	memset(&x, 0, sizeof x);
	x.p = p;
	x.tl = p->timeline;
	x.cost = cost;
	if (x.tl == NULL) {
		rg_error(&x, 400, "%s: this profile (%s) records no times "
		    "(deepq-formats(5) says which formats do)", r->timed ?
		    "range=" : "thread=", p->format);
		goto fail;
	}
	(void)range_clock(p, r, &x.a, &x.e);
	if ((keep = range_threads(p, r, &x.status, &x.cause)) == NULL &&
	    x.status != 0)
		goto fail;
	x.keep = keep;
	if ((x.vals = calloc((size_t)p->nmetrics * p->nnodes,
	    sizeof *x.vals)) == NULL ||
	    (x.hit = calloc(p->nnodes, 1)) == NULL ||
	    (x.out = malloc(p->nnodes * sizeof *x.out)) == NULL ||
	    (x.b = profile_builder_create(p->format)) == NULL) {
		rg_error(&x, 500, "out of memory");
		goto fail;
	}
	profile_builder_set_max_nodes(x.b, p->nnodes + 1);
	if (profile_builder_like(x.b, p) == -1) {
		rg_error(&x, 500, "%s", profile_builder_error(x.b));
		goto fail;
	}
	if ((!times && rg_choose(&x) ? rg_outside(&x) : rg_inside(&x)) ==
	    -1 || rg_nodes(&x) == -1 || (times && rg_times(&x) == -1))
		goto fail;
	if ((out = profile_builder_finish(x.b, &x.cause)) == NULL) {
		x.b = NULL;
		x.status = 500;
		goto fail;
	}
	x.b = NULL;
	if (p->source != NULL)
		out->source = strdup(p->source);
	goto done;
fail:
	*status = x.status ? x.status : 500;
	if (cause != NULL) {
		*cause = x.cause;
		x.cause = NULL;
	}
done:
	profile_builder_free(x.b);
	free(x.cause);
	free(x.vals);
	free(x.hit);
	free(x.out);
	free(keep);
	return (out);
}

/*
 * The functions' figures of the range into x->funcs: from the sums when
 * they serve (threads need a set each), else the passes above into the
 * sparse accumulator; the other way (what lies outside, taken from the
 * profile's figures) only when no metric can be negative, so that the
 * range's figures are within the profile's and cannot overflow. 1 when
 * done, 0 when the whole derived profile is the better way (more than
 * RANGE_SPARSE records a node to read; a negative value or a sum past
 * 64 bits, whose answer the tree's build gives; more ancestors to
 * climb than it has nodes), -1 on failure.
 */
static int
rg_funcs(struct rg *x, const struct timeline_sums *s)
{
	const struct profile	*p = x->p;
	uint64_t		 nin, nout;
	uint32_t		 k;
	int			 out, weight = 0;

	if (s != NULL && s->nmetrics == p->nmetrics &&
	    s->nfuncs == p->nfuncs && (x->keep == NULL ||
	    s->ngroups == x->tl->nthreads)) {
		if (timeline_sums_range(s, p, x->a, x->e, x->keep, x->funcs,
		    x->cost) == -1)
			return (cost_over(x->cost) ? rg_charge(x, 1) :
			    rg_error(x, 500, "out of memory"));
		return (1);
	}
	for (k = 0; k < p->nmetrics && k < sizeof x->tl->mode; k++)
		weight |= x->tl->mode[k] == TIMELINE_WEIGHT;
	out = rg_choose(x);
	/*
	 * A record costs the accumulator a few times what it costs the
	 * tree's dense values, and weights may be negative: many records,
	 * or the other way with weights, and the tree is the way.
	 */
	if (x->tl->nindex > 0) {
		rg_count(x, &nin, &nout);
		if ((out ? nout : nin) > (uint64_t)p->nnodes * RANGE_SPARSE ||
		    (out && weight))
			return (0);
	}
	if ((x->acc = timeline_sums_acc_create(p, p->nmetrics)) == NULL)
		return (rg_error(x, 500, "out of memory"));
	if ((out ? rg_outside(x) : rg_inside(x)) == -1)
		return (-1);
	if (x->acc->negative || x->acc->overflow ||
	    x->acc->climb > (uint64_t)p->nnodes * 4 + 65536)
		return (0);
	if (rg_charge(x, x->acc->climb) == -1)
		return (-1);
	if (timeline_sums_acc_flush(x->acc, x->funcs) == -1)
		return (rg_error(x, 500, "out of memory"));
	return (1);
}

/*
 * A profile of p's functions with x->funcs' figures and no tree (the
 * root alone, with no value): what cmd=top reads. NULL on failure.
 */
static struct profile *
rg_funcs_profile(struct rg *x)
{
	const struct profile	*p = x->p;
	struct profile		*out;
	struct profile_metric	*m;
	size_t			 nf = p->nfuncs, nm = p->nmetrics, f;
	uint32_t		 k;

	if ((x->b = profile_builder_create(p->format)) == NULL) {
		rg_error(x, 500, "out of memory");
		return (NULL);
	}
	if (profile_builder_like(x->b, p) == -1) {
		rg_error(x, 500, "%s", profile_builder_error(x->b));
		return (NULL);
	}
	out = profile_builder_finish(x->b, &x->cause);
	x->b = NULL;
	if (out == NULL) {
		x->status = 500;
		return (NULL);
	}
	for (k = 0; k < out->nmetrics; k++) {
		m = &out->metrics[k];
		for (f = 0; f < nf; f++) {
			m->func_self[f] = x->funcs[f * nm + k];
			m->func_total[f] = x->funcs[(nf + f) * nm + k];
		}
		/* Every path holds the root: its total is everything. */
		m->sum = m->func_total[p->node_func[PROFILE_ROOT]];
	}
	if (p->source != NULL)
		out->source = strdup(p->source);
	return (out);
}

/*
 * The profile of p's samples in range r for a report that reads only
 * the functions' figures and the totals (cmd=top): those figures are
 * the ones range_apply() gives, its tree is not made. sums: the
 * index's checkpoint sums of p (timeline-sums.h), or NULL. NULL with
 * *status and *cause on failure; NULL with *status 0 when range_apply()
 * is the way (a profile without times, values it must check).
 */
struct profile *
range_apply_funcs(const struct profile *p, const struct range *r,
    const struct timeline_sums *sums, struct cost *cost, int *status,
    char **cause)
{
	struct rg	 x;
	struct profile	*out = NULL;
	uint8_t		*keep = NULL;
	int		 done;

	*status = 0;
	if (p->timeline == NULL || p->nfuncs == 0)
		return (NULL);
	memset(&x, 0, sizeof x);
	x.p = p;
	x.tl = p->timeline;
	x.cost = cost;
	(void)range_clock(p, r, &x.a, &x.e);
	if ((keep = range_threads(p, r, &x.status, &x.cause)) == NULL &&
	    x.status != 0)
		goto fail;
	x.keep = keep;
	if ((x.funcs = calloc((size_t)p->nmetrics * 2, p->nfuncs *
	    sizeof *x.funcs)) == NULL) {
		rg_error(&x, 500, "out of memory");
		goto fail;
	}
	if ((done = rg_funcs(&x, sums)) == -1 ||
	    (done == 1 && (out = rg_funcs_profile(&x)) == NULL))
		goto fail;
	goto done;
fail:
	*status = x.status ? x.status : 500;
	if (cause != NULL) {
		*cause = x.cause;
		x.cause = NULL;
	}
done:
	profile_builder_free(x.b);
	timeline_sums_acc_free(x.acc);
	free(x.cause);
	free(x.funcs);
	free(keep);
	return (out);
}

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
#include "timeline.h"
#include "transform.h"
#include "transform-filter.h"

/*
 * The tree rewrite of the transforms and filters (transform.h): each
 * makes a new profile. Applying one transform takes three passes over
 * the input's nodes, which are numbered parents first:
 *
 * 1. forward: per node, whether its self value is kept (KEEP) and a
 *    transform-specific "inside" bit (IN: below the focused node, below a
 *    collapsed function, inside a pruned subtree, ...);
 * 2. backward: which nodes are live, i.e. have a kept sample site (a
 *    kept node with a value, or a kept leaf) at or below them, so that
 *    dropping samples removes the nodes that only led to them;
 * 3. forward: the output node of each live node, found or created with
 *    profile_builder_child() under its parent's output node, or the
 *    parent's own output node when the node is merged away; then each
 *    kept self value is added to its node's output node.
 *
 * Inverting walks each sample site's stack upwards instead. Every pass
 * is iterative: deep trees never deepen the C stack.
 */

/*
 * An inversion is made whole when its stacks' frames, summed, are at
 * most this many (the output has at most as many nodes), or for an
 * export, which must be whole (the query's budget then bounds it);
 * else it is bounded for a page (transform-invert.c).
 */
#define INVERT_EXACT	(1u << 22)

#define F_KEEP	0x1
#define F_IN	0x2
#define F_LIVE	0x4

/* One application of a transform. */
struct tf {
	const struct profile	*p;
	const struct transform	*t;
	struct profile_builder	*b;
	uint32_t		*out;		/* [nnodes] output node */
	uint8_t			*flag;		/* [nnodes] F_* */
	uint8_t			*match;		/* [nfuncs] regex, exclude */
	uint32_t		 target;	/* node of the path */
	uint32_t		 module;	/* cm: module string id */
	uint32_t		 pseudo;	/* cm: output function */
	int			 mticks, mwords;
	struct cost		*cost;
	int			 status;
	char			*cause;
};

static struct profile *transform_apply_one(const struct profile *,
		    const struct transform_stack *, size_t, struct cost *,
		    int *, char **);
static int	tf_check(struct tf *);
static void	tf_flags(struct tf *);
static int	tf_nodes(struct tf *);
static int	tf_invert(struct tf *);
static int	tf_invert_any(struct tf *, const struct transform_stack *,
		    size_t);
static int	tf_values(struct tf *);
static int	tf_samples(struct tf *);
static int	tf_times(struct tf *);
static int	tf_charge(struct tf *, uint64_t);
static uint32_t	tf_child(struct tf *, uint32_t, uint32_t);
static int	tf_error(struct tf *, int, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));

static int
tf_error(struct tf *x, int status, const char *fmt, ...)
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

/* Count n node visits against the query's budget. */
static int
tf_charge(struct tf *x, uint64_t n)
{
	char	*why;

	if (cost_charge(x->cost, n) == 0)
		return (0);
	if ((why = cost_message(x->cost)) == NULL)
		return (tf_error(x, 500, "out of memory"));
	tf_error(x, 503, "%s", why);
	free(why);
	return (-1);
}

/* Find or create the output child of parent for f. */
static uint32_t
tf_child(struct tf *x, uint32_t parent, uint32_t f)
{
	uint32_t	 n;

	if (parent == PROFILE_NONE)
		return (PROFILE_NONE);
	if ((n = profile_builder_child(x->b, parent, f)) == PROFILE_NONE)
		tf_error(x, 503, "transformed profile too large: %s",
		    profile_builder_error(x->b));
	return (n);
}

/* Check the transform's arguments against the profile; set up lookups. */
static int
tf_check(struct tf *x)
{
	const struct profile	*p = x->p;
	const struct transform	*t = x->t;
	const char		*key = transform_kind_key(t->kind);
	char			*path, *why = NULL;
	int			 r;

	switch (transform_kind_arg(t->kind)) {
	case TRANSFORM_ARG_FUNC:
	case TRANSFORM_ARG_OPTFUNC:
		if (t->func != PROFILE_NONE && (t->func >= p->nfuncs ||
		    t->func == PROFILE_ROOT))
			return (tf_error(x, 400, "t: %s: no function %u", key,
			    t->func));
		break;
	case TRANSFORM_ARG_PATH:
		if ((x->target = profile_node_path(p, t->path, t->npath)) ==
		    PROFILE_NONE) {
			path = query_path_format(t->path, t->npath);
			tf_error(x, 404, "t: %s: no call node at path %s",
			    key, path ? path : "?");
			free(path);
			return (-1);
		}
		break;
	default:
		break;
	}
	switch (t->kind) {
	case TRANSFORM_COLLAPSE_MODULE:
		x->module = p->func_module[t->func];
		if (*profile_string(p, x->module) == '\0')
			return (tf_error(x, 400, "t: cm: function %u has no "
			    "module", t->func));
		break;
	case TRANSFORM_FOCUS_RE:
	case TRANSFORM_IGNORE_RE:
	case TRANSFORM_HIDE_RE:
	case TRANSFORM_SHOW_RE:
	case TRANSFORM_EXCLUDE:
		if (t->kind != TRANSFORM_EXCLUDE &&
		    tf_charge(x, p->nfuncs) == -1)
			return (-1);
		if ((r = transform_filter_select(p, t, NULL, 0, x->cost,
		    &x->match, &why)) == 0)
			break;
		/* The budget's own message, if it ran out. */
		if (r == 503 && cost_over(x->cost)) {
			free(why);
			return (tf_charge(x, 0));
		}
		if (r == 503)
			tf_error(x, 503, "query too expensive (%s=: %s)",
			    transform_kind_name(t->kind),
			    why ? why : "out of memory");
		else
			tf_error(x, r, "%s", why ? why : "out of memory");
		free(why);
		return (-1);
	case TRANSFORM_PRUNE:
		if (transform_filter_prune_metrics(p, t, &x->mticks,
		    &x->mwords) == -1)
			return (tf_error(x, 400, "min_words: the profile has "
			    "no words or bytes metric"));
		break;
	default:
		break;
	}
	return (0);
}

/* Pass 1 and 2: KEEP and IN per node, then LIVE. */
static void
tf_flags(struct tf *x)
{
	const struct profile	*p = x->p;
	const struct transform	*t = x->t;
	uint8_t			*fl = x->flag;
	uint32_t		 n, par, f, k;
	int			 in, keep, site;

	fl[0] = F_KEEP;
	switch (t->kind) {
	case TRANSFORM_FOCUS_SUBTREE:
	case TRANSFORM_FOCUS_FUNCTION:
	case TRANSFORM_FOCUS_RE:
		fl[0] = 0;
		break;
	default:
		break;
	}
	for (n = 1; n < p->nnodes; n++) {
		par = p->node_parent[n];
		f = p->node_func[n];
		in = 0;
		keep = 1;
		switch (t->kind) {
		case TRANSFORM_FOCUS_SUBTREE:
			keep = in = n == x->target || (fl[par] & F_IN);
			break;
		case TRANSFORM_FOCUS_FUNCTION:
			keep = in = f == t->func || (fl[par] & F_IN);
			break;
		case TRANSFORM_DROP_FUNCTION:
			in = f == t->func || (fl[par] & F_IN);
			keep = !in;
			break;
		case TRANSFORM_FOCUS_RE:
			keep = in = x->match[f] || (fl[par] & F_IN);
			break;
		case TRANSFORM_IGNORE_RE:
			in = x->match[f] || (fl[par] & F_IN);
			keep = !in;
			break;
		case TRANSFORM_MERGE_SUBTREE:
			in = n == x->target || (fl[par] & F_IN);
			break;
		case TRANSFORM_COLLAPSE_SUBTREE:
			in = p->node_func[par] == t->func || (fl[par] & F_IN);
			break;
		case TRANSFORM_EXCLUDE:
			in = x->match[f] || (fl[par] & F_IN);
			break;
		case TRANSFORM_PRUNE:
			in = (fl[par] & F_IN) || (x->mticks >= 0 &&
			    p->metrics[x->mticks].total[n] < t->min_ticks) ||
			    (x->mwords >= 0 &&
			    p->metrics[x->mwords].total[n] < t->min_words);
			break;
		default:
			break;
		}
		fl[n] = (in ? F_IN : 0) | (keep ? F_KEEP : 0);
	}

	/* A sample site is a kept node with a value, or a kept leaf. */
	for (n = 0; n < p->nnodes; n++) {
		if (!(fl[n] & F_KEEP))
			continue;
		site = p->node_first_child[n] == PROFILE_NONE;
		for (k = 0; k < p->nmetrics && !site; k++)
			site = p->metrics[k].self[n] != 0;
		if (site)
			fl[n] |= F_LIVE;
	}
	for (n = p->nnodes - 1; n > 0; n--) {
		if (fl[n] & F_LIVE)
			fl[p->node_parent[n]] |= F_LIVE;
	}
}

/* Pass 3: the output node of every live node. */
static int
tf_nodes(struct tf *x)
{
	const struct profile	*p = x->p;
	const struct transform	*t = x->t;
	const uint8_t		*fl = x->flag;
	uint32_t		 n, par, f, po, o, m;

	x->out[0] = PROFILE_ROOT;
	for (n = 1; n < p->nnodes; n++) {
		x->out[n] = PROFILE_NONE;
		if (!(fl[n] & F_LIVE))
			continue;
		par = p->node_parent[n];
		f = p->node_func[n];
		po = x->out[par];
		switch (t->kind) {
		case TRANSFORM_FOCUS_SUBTREE:
			if (n == x->target)
				o = tf_child(x, PROFILE_ROOT, f);
			else if (fl[n] & F_IN)
				o = tf_child(x, po, f);
			else
				continue;
			break;
		case TRANSFORM_FOCUS_FUNCTION:
			if (!(fl[n] & F_IN))
				continue;
			o = tf_child(x, (fl[par] & F_IN) ? po : PROFILE_ROOT,
			    f);
			break;
		case TRANSFORM_MERGE_CALL_NODE:
			o = n == x->target ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_MERGE_SUBTREE:
		case TRANSFORM_COLLAPSE_SUBTREE:
		case TRANSFORM_PRUNE:
		case TRANSFORM_EXCLUDE:
			o = (fl[n] & F_IN) ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_MERGE_FUNCTION:
			o = f == t->func ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_HIDE_RE:
			o = x->match[f] ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_SHOW_RE:
			o = !x->match[f] ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_COLLAPSE_DIRECT_REC:
			o = f == p->node_func[par] &&
			    (t->func == PROFILE_NONE || f == t->func) ? po :
			    tf_child(x, po, f);
			break;
		case TRANSFORM_COLLAPSE_REC:
			/*
			 * GHC's rule: a call to a function already on the
			 * (output) stack truncates the stack back to it.
			 */
			o = PROFILE_NONE;
			if (t->func == PROFILE_NONE || f == t->func) {
				for (m = po; m != PROFILE_NONE &&
				    m != PROFILE_ROOT;
				    m = profile_builder_node_parent(x->b, m)) {
					if (tf_charge(x, 1) == -1)
						return (-1);
					if (profile_builder_node_func(x->b, m)
					    == f) {
						o = m;
						break;
					}
				}
			}
			if (o == PROFILE_NONE)
				o = tf_child(x, po, f);
			break;
		case TRANSFORM_COLLAPSE_MODULE:
			if (p->func_module[f] != x->module)
				o = tf_child(x, po, f);
			else if (po != PROFILE_NONE &&
			    profile_builder_node_func(x->b, po) == x->pseudo)
				o = po;
			else
				o = tf_child(x, po, x->pseudo);
			break;
		default:
			o = tf_child(x, po, f);
			break;
		}
		if (o == PROFILE_NONE && x->status != 0)
			return (-1);
		x->out[n] = o;
	}
	return (0);
}

/* Pass 3 of invert: each sample site's stack, reversed. */
static int
tf_invert(struct tf *x)
{
	const struct profile	*p = x->p;
	uint32_t		 n, m, o;

	x->out[0] = PROFILE_ROOT;
	for (n = 1; n < p->nnodes; n++) {
		x->out[n] = PROFILE_NONE;
		if (!(x->flag[n] & F_KEEP))
			continue;
		/* Only sites: live nodes with no live child are sites too. */
		if (p->node_first_child[n] != PROFILE_NONE) {
			uint32_t	 k;
			int		 site = 0;

			for (k = 0; k < p->nmetrics && !site; k++)
				site = p->metrics[k].self[n] != 0;
			if (!site)
				continue;
		}
		if (tf_charge(x, p->node_depth[n]) == -1)
			return (-1);
		o = PROFILE_ROOT;
		for (m = n; m != PROFILE_ROOT; m = p->node_parent[m]) {
			if ((o = tf_child(x, o, p->node_func[m])) ==
			    PROFILE_NONE)
				return (-1);
		}
		x->out[n] = o;
	}
	return (0);
}

/* Invert, whole or bounded (INVERT_EXACT). */
static int
tf_invert_any(struct tf *x, const struct transform_stack *s, size_t i)
{
	const struct profile	*p = x->p;
	struct transform_want	*w;
	uint32_t		*sites, nsites = 0, n, k;
	uint64_t		 steps = 0;
	int			 site, r;

	if (tf_charge(x, p->nnodes) == -1)
		return (-1);
	if ((sites = malloc(p->nnodes * sizeof *sites)) == NULL)
		return (tf_error(x, 500, "out of memory"));
	for (n = 1; n < p->nnodes; n++) {
		if (!(x->flag[n] & F_KEEP))
			continue;
		site = p->node_first_child[n] == PROFILE_NONE;
		for (k = 0; k < p->nmetrics && !site; k++)
			site = p->metrics[k].self[n] != 0;
		if (!site)
			continue;
		sites[nsites++] = n;
		steps += p->node_depth[n];
	}
	if (s->exact || (steps <= INVERT_EXACT && s->bound == 0)) {
		free(sites);
		profile_builder_set_max_nodes(x->b, steps + 2 >
		    PROFILE_MAX_NODES ? PROFILE_MAX_NODES :
		    (uint32_t)steps + 2);
		return (tf_invert(x));
	}
	profile_builder_set_max_nodes(x->b, PROFILE_MAX_NODES);
	w = transform_want_at(s, i);
	r = transform_invert_bounded(p, sites, nsites, w, s->bound, x->b,
	    x->out, x->cost, &x->status, &x->cause);
	transform_want_free(w);
	free(sites);
	return (r);
}

/* Add each kept self value to its node's output node. */
static int
tf_values(struct tf *x)
{
	const struct profile	*p = x->p;
	uint32_t		 n, k;
	int64_t			 v;

	for (n = 0; n < p->nnodes; n++) {
		if (!(x->flag[n] & F_KEEP) || x->out[n] == PROFILE_NONE)
			continue;
		for (k = 0; k < p->nmetrics; k++) {
			if ((v = p->metrics[k].self[n]) != 0 &&
			    profile_builder_add(x->b, x->out[n], (int)k, v) ==
			    -1)
				return (tf_error(x, 500, "%s",
				    profile_builder_error(x->b)));
		}
	}
	return (0);
}

/* The time-ordered samples, mapped; dropped samples leave the sequence. */
static int
tf_samples(struct tf *x)
{
	const struct profile	*p = x->p;
	uint32_t		 i, n;

	for (i = 0; i < p->nsamples; i++) {
		n = p->sample_node[i];
		if (n >= p->nnodes || !(x->flag[n] & F_KEEP) ||
		    x->out[n] == PROFILE_NONE)
			continue;
		if (profile_builder_sample(x->b, x->out[n],
		    profile_sample_weight(p, i)) == -1)
			return (tf_error(x, 503, "%s",
			    profile_builder_error(x->b)));
	}
	return (0);
}

/*
 * The timeline's records, mapped as the values are: a record of a node
 * whose value is dropped leaves the timeline.
 */
static int
tf_times(struct tf *x)
{
	const struct profile	*p = x->p;
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint64_t		 seen = 0;

	if (p->timeline == NULL)
		return (0);
	if (profile_builder_times_like(x->b, p, INT64_MIN, INT64_MAX,
	    NULL) == -1)
		return (tf_error(x, 500, "%s", profile_builder_error(x->b)));
	timeline_iter_init(&it, p->timeline);
	while (timeline_next(&it, &r)) {
		if (++seen % 4096 == 0 && tf_charge(x, 4096) == -1)
			return (-1);
		if (!(x->flag[r.node] & F_KEEP) ||
		    x->out[r.node] == PROFILE_NONE)
			continue;
		if (profile_builder_timed(x->b, x->out[r.node], r.thread, r.t,
		    r.d, r.w) == -1)
			return (tf_error(x, 503, "%s",
			    profile_builder_error(x->b)));
	}
	return (0);
}

/*
 * Apply one transform: a new read-only profile, or NULL with *status and
 * *cause. Node visits are charged to cost (NULL: no limit). With
 * s->times the timeline goes through too.
 */
static struct profile *
transform_apply_one(const struct profile *p, const struct transform_stack *s,
    size_t i, struct cost *cost, int *status, char **cause)
{
	const struct transform	*t = &s->v[i];
	struct tf		 x;
	struct profile		*out = NULL;
	const char		*name, *mod, *file;
	uint32_t		 f, g, k;

	memset(&x, 0, sizeof x);
	x.p = p;
	x.t = t;
	x.cost = cost;
	x.target = x.module = x.pseudo = PROFILE_NONE;
	if (tf_charge(&x, (uint64_t)p->nnodes * 3) == -1 || tf_check(&x) == -1)
		goto fail;
	if ((x.b = profile_builder_create(p->format)) == NULL ||
	    (x.out = malloc(p->nnodes * sizeof *x.out)) == NULL ||
	    (x.flag = calloc(p->nnodes, 1)) == NULL) {
		tf_error(&x, 500, "out of memory");
		goto fail;
	}

	/*
	 * Every input node maps to at most one output node, except when
	 * inverting, which sets its own bound (tf_invert_any).
	 */
	profile_builder_set_max_nodes(x.b, (uint64_t)p->nnodes + 2 >
	    PROFILE_MAX_NODES ? PROFILE_MAX_NODES : p->nnodes + 2);

	/* Same metrics, same functions with the same ids. */
	for (k = 0; k < p->nmetrics; k++) {
		if (profile_builder_metric(x.b, p->metrics[k].name,
		    p->metrics[k].unit) != (int)k) {
			tf_error(&x, 500, "out of memory");
			goto fail;
		}
	}
	for (f = 0; f < p->nfuncs; f++) {
		if (tf_charge(&x, 1) == -1)
			goto fail;
		name = profile_func_name(p, f);
		mod = profile_func_module(p, f);
		g = profile_builder_func(x.b, name, strlen(name), mod,
		    strlen(mod));
		if (g != f) {
			tf_error(&x, 500, g == PROFILE_NONE ? "out of memory" :
			    "function %u is not unique", f);
			goto fail;
		}
		file = p->func_file[f] != 0 ? profile_string(p,
		    p->func_file[f]) : NULL;
		if (file != NULL || p->func_line[f] != 0)
			profile_builder_func_location(x.b, f, file,
			    file ? strlen(file) : 0, p->func_line[f]);
	}
	if (t->kind == TRANSFORM_COLLAPSE_MODULE) {
		mod = profile_string(p, x.module);
		if ((x.pseudo = profile_builder_func(x.b, mod, strlen(mod),
		    mod, strlen(mod))) == PROFILE_NONE) {
			tf_error(&x, 500, "out of memory");
			goto fail;
		}
	}

	tf_flags(&x);
	if ((t->kind == TRANSFORM_INVERT ? tf_invert_any(&x, s, i) :
	    tf_nodes(&x)) == -1 || tf_values(&x) == -1 ||
	    tf_samples(&x) == -1 || (s->times && tf_times(&x) == -1))
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
	free(x.out);
	free(x.flag);
	free(x.match);
	return (out);
}

/*
 * Apply a whole stack (it must not be empty): the derived profile, or
 * NULL with *status and *cause. The message names the failing entry.
 */
struct profile *
transform_apply(const struct profile *p, const struct transform_stack *s,
    struct cost *cost, int *status, char **cause)
{
	struct profile	*cur = NULL, *next;
	size_t		 i;

	for (i = 0; i < s->n; i++) {
		next = transform_apply_one(cur ? cur : p, s, i, cost, status,
		    cause);
		profile_free(cur);
		if ((cur = next) == NULL)
			return (NULL);
	}
	return (cur);
}

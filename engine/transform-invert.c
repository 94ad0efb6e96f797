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

#include "cause.h"
#include "cost.h"
#include "profile.h"
#include "profile-builder.h"
#include "query.h"
#include "transform.h"

/*
 * The inverted tree of a profile too large to invert whole, for a page.
 *
 * Inverting makes a node per frame of every sample site's stack, read
 * from the site up: a million call nodes of stacks 40 deep would be 40
 * million steps and as many nodes, for a page that shows a few hundred.
 * Here the inverted tree is built from the top, a node at a time, widest
 * first, within a budget of nodes (INVERT_NODES) and of steps
 * (INVERT_WORK): every node made is exact (its total and self are the
 * whole inversion's), and the callers of a node that was not expanded are
 * merged into one child, a pseudo-function named with the number of
 * stacks so merged. A node whose stacks all end there is a leaf, exact
 * too. The paths the answer will look at (path=, open=, a focus pushed
 * after the inversion) are expanded first, so that a zoom or an opened
 * node shows its real callers.
 *
 * The sites (the nodes whose stack is inverted) are kept in one array,
 * each node's sites a contiguous range, with the frame each site has
 * reached; expanding a node partitions its range among its children.
 */

#define INVERT_NODES	65536		/* nodes made, then only finish */
#define INVERT_WORK	(1u << 23)	/* site steps, at most */

/* A node of the inverted tree made so far (indexed by its id). */
struct inv_node {
	uint32_t	 lo, hi;	/* its sites: site[lo..hi) */
	uint32_t	 kfirst, nk;	/* its children: kids[kfirst..+nk) */
	uint32_t	 parent;
	double		 w;		/* the share of all metrics it holds */
	uint8_t		 expanded;
	uint8_t		 sub;		/* in a wanted path's subtree */
};

struct inv_heap_item {
	double		 w;
	uint32_t	 node;
	int		 sub;
};

struct inv {
	const struct profile	*p;
	struct profile_builder	*b;
	struct cost		*cost;
	uint32_t		*out;
	uint32_t		 nsites;
	uint32_t		*site, *at;	/* [nsites] */
	uint32_t		*site2, *at2, *cid; /* [nsites] scratch */
	double			*inv_tot;	/* [nmetrics] */
	struct inv_node		*g;
	uint32_t		 ng, gcap;
	uint32_t		*kids;
	size_t			 nkids, kcap;
	struct inv_heap_item	*h;
	size_t			 nh, hcap;
	uint64_t		 work, maxwork;
	int			 status;
	char			*cause;
};

/* One wanted path: its function ids, and whether its subtree is shown. */
struct transform_want_path {
	uint32_t	*v;
	size_t		 n;
	int		 subtree;
};

struct transform_want {
	struct transform_want_path	*p;
	size_t				 n;
};

static int
inv_error(struct inv *x, int status, const char *why)
{
	if (x->status == 0) {
		x->status = status;
		cause_set(&x->cause, "%s", why);
	}
	return (-1);
}

/* Count n site steps: within the query's budget and this module's. */
static int
inv_charge(struct inv *x, uint64_t n)
{
	char	*why;

	x->work += n;
	if (cost_charge(x->cost, n) == 0)
		return (0);
	if ((why = cost_message(x->cost)) == NULL)
		return (inv_error(x, 500, "out of memory"));
	inv_error(x, 503, why);
	free(why);
	return (-1);
}

/* The share of every metric a site holds, summed. */
static double
inv_weight(const struct inv *x, uint32_t n)
{
	const struct profile	*p = x->p;
	double			 w = 0;
	int64_t			 v;
	uint32_t		 k;

	for (k = 0; k < p->nmetrics; k++) {
		v = p->metrics[k].self[n];
		w += (double)(v < 0 ? -v : v) * x->inv_tot[k];
	}
	return (w);
}

/* Room for node n's entry; a new entry is zeroed. */
static int
inv_node_add(struct inv *x, uint32_t n, uint32_t parent)
{
	struct inv_node	*g;
	uint32_t	 cap;

	if (n >= x->gcap) {
		cap = x->gcap ? x->gcap * 2 : 1024;
		while (cap <= n)
			cap *= 2;
		if ((g = reallocarray(x->g, cap, sizeof *g)) == NULL)
			return (inv_error(x, 500, "out of memory"));
		x->g = g;
		x->gcap = cap;
	}
	memset(&x->g[n], 0, sizeof x->g[n]);
	x->g[n].parent = parent;
	x->g[n].sub = parent != PROFILE_NONE && x->g[parent].sub;
	if (n >= x->ng)
		x->ng = n + 1;
	if (x->nkids == x->kcap) {
		size_t		 kc = x->kcap ? x->kcap * 2 : 1024;
		uint32_t	*k;

		if ((k = reallocarray(x->kids, kc, sizeof *k)) == NULL)
			return (inv_error(x, 500, "out of memory"));
		x->kids = k;
		x->kcap = kc;
	}
	if (parent != PROFILE_NONE)
		x->kids[x->nkids++] = n;
	return (0);
}

static void
inv_heap_up(struct inv *x, size_t i)
{
	struct inv_heap_item	 t = x->h[i];
	size_t			 up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (x->h[up].sub > t.sub || (x->h[up].sub == t.sub &&
		    x->h[up].w >= t.w))
			break;
		x->h[i] = x->h[up];
		i = up;
	}
	x->h[i] = t;
}

static int
inv_heap_push(struct inv *x, uint32_t n)
{
	struct inv_heap_item	*h;
	size_t			 cap;

	if (x->nh == x->hcap) {
		cap = x->hcap ? x->hcap * 2 : 1024;
		if ((h = reallocarray(x->h, cap, sizeof *h)) == NULL)
			return (inv_error(x, 500, "out of memory"));
		x->h = h;
		x->hcap = cap;
	}
	x->h[x->nh].w = x->g[n].w;
	x->h[x->nh].node = n;
	x->h[x->nh].sub = x->g[n].sub;
	inv_heap_up(x, x->nh++);
	return (0);
}

static uint32_t
inv_heap_pop(struct inv *x)
{
	struct inv_heap_item	 t;
	uint32_t		 top = x->h[0].node;
	size_t			 i = 0, c;

	t = x->h[--x->nh];
	for (;;) {
		c = 2 * i + 1;
		if (c >= x->nh)
			break;
		if (c + 1 < x->nh && (x->h[c + 1].sub > x->h[c].sub ||
		    (x->h[c + 1].sub == x->h[c].sub &&
		    x->h[c + 1].w > x->h[c].w)))
			c++;
		if (x->h[c].sub < t.sub || (x->h[c].sub == t.sub &&
		    x->h[c].w <= t.w))
			break;
		x->h[i] = x->h[c];
		i = c;
	}
	if (x->nh > 0)
		x->h[i] = t;
	return (top);
}

/*
 * Expand node o: its children, one per function its sites' next frames
 * name, each with its range of sites; the sites whose stack ends at o
 * end there. With push, the children enter the heap.
 */
static int
inv_expand(struct inv *x, uint32_t o, int push)
{
	const struct profile	*p = x->p;
	uint32_t		 lo = x->g[o].lo, hi = x->g[o].hi;
	uint32_t		 i, m, c, pos, e, nb, j;
	size_t			 kfirst = x->nkids, k;

	if (x->g[o].expanded)
		return (0);
	if (inv_charge(x, hi - lo) == -1)
		return (-1);
	nb = profile_builder_nnodes(x->b);
	for (i = lo, e = 0; i < hi; i++) {
		if ((m = x->at[i]) == PROFILE_ROOT) {
			x->cid[i - lo] = PROFILE_NONE;
			e++;
			continue;
		}
		if ((c = profile_builder_child(x->b, o, p->node_func[m])) ==
		    PROFILE_NONE)
			return (inv_error(x, 503, profile_builder_error(x->b)));
		/* o had no child: every child is new, numbered from nb. */
		if (c >= nb && c >= x->ng && inv_node_add(x, c, o) == -1)
			return (-1);
		x->g[c].hi++;
		x->g[c].w += inv_weight(x, x->site[i]);
		x->cid[i - lo] = c;
		x->at[i] = p->node_parent[m];
	}
	/* The sites that end here first, then each child's. */
	for (pos = lo + e, k = kfirst; k < x->nkids; k++) {
		c = x->kids[k];
		j = x->g[c].hi;
		x->g[c].lo = x->g[c].hi = pos;
		pos += j;
	}
	for (i = lo, e = lo; i < hi; i++) {
		if ((c = x->cid[i - lo]) == PROFILE_NONE) {
			j = e++;
			x->out[x->site[i]] = o;
		} else
			j = x->g[c].hi++;
		x->site2[j - lo] = x->site[i];
		x->at2[j - lo] = x->at[i];
	}
	memcpy(x->site + lo, x->site2, (hi - lo) * sizeof *x->site);
	memcpy(x->at + lo, x->at2, (hi - lo) * sizeof *x->at);
	x->g[o].expanded = 1;
	x->g[o].kfirst = kfirst;
	x->g[o].nk = x->nkids - kfirst;
	for (k = kfirst; push && k < x->nkids; k++) {
		if (inv_heap_push(x, x->kids[k]) == -1)
			return (-1);
	}
	return (0);
}

/* Expand along a wanted path, and its end; stop where it leaves the tree. */
static int
inv_want(struct inv *x, const struct transform_want_path *w)
{
	uint32_t	 o = PROFILE_ROOT, c = PROFILE_NONE;
	size_t		 j, k;

	for (j = 0; j <= w->n; j++) {
		if (x->work >= x->maxwork)
			return (0);
		if (j == w->n && w->subtree)
			x->g[o].sub = 1;
		if (inv_expand(x, o, 0) == -1)
			return (-1);
		if (j == w->n)
			break;
		if (inv_charge(x, x->g[o].nk / 16 + 1) == -1)
			return (-1);
		for (k = 0, c = PROFILE_NONE; k < x->g[o].nk; k++) {
			c = x->kids[x->g[o].kfirst + k];
			if (profile_builder_node_func(x->b, c) == w->v[j])
				break;
		}
		if (k == x->g[o].nk)
			return (0);
		o = c;
	}
	return (0);
}

/*
 * The callers of every node left unexpanded, merged into one child named
 * with the number of stacks merged; every site's output node.
 */
static int
inv_finish(struct inv *x)
{
	struct inv_node	*g;
	uint64_t	 merged = 0;
	uint32_t	 o, i, pc, pseudo = PROFILE_NONE, ng = x->ng;
	char		*name;

	for (o = 0; o < ng; o++) {
		g = &x->g[o];
		for (i = g->lo; !g->expanded && i < g->hi; i++)
			merged += x->at[i] != PROFILE_ROOT;
	}
	if (merged > 0) {
		if (asprintf(&name, "[more callers: %llu stacks merged]",
		    (unsigned long long)merged) == -1)
			return (inv_error(x, 500, "out of memory"));
		pseudo = profile_builder_func(x->b, name, strlen(name), "", 0);
		free(name);
		if (pseudo == PROFILE_NONE)
			return (inv_error(x, 500, "out of memory"));
	}
	for (o = 0; o < ng; o++) {
		g = &x->g[o];
		if (g->expanded)
			continue;
		for (i = g->lo, pc = PROFILE_NONE; i < g->hi; i++) {
			if (x->at[i] == PROFILE_ROOT) {
				x->out[x->site[i]] = o;
				continue;
			}
			if (pc == PROFILE_NONE && (pc = profile_builder_child(
			    x->b, o, pseudo)) == PROFILE_NONE)
				return (inv_error(x, 503,
				    profile_builder_error(x->b)));
			x->out[x->site[i]] = pc;
		}
	}
	return (0);
}

/* Set up the sites, their weights' scale and the root. */
static int
inv_init(struct inv *x, const uint32_t *sites, uint32_t nsites)
{
	const struct profile	*p = x->p;
	double			 tot;
	int64_t			 v;
	uint32_t		 i, k;

	x->nsites = nsites;
	if ((x->site = reallocarray(NULL, nsites + 1, sizeof *x->site)) ==
	    NULL ||
	    (x->at = reallocarray(NULL, nsites + 1, sizeof *x->at)) == NULL ||
	    (x->site2 = reallocarray(NULL, nsites + 1, sizeof *x->site2)) ==
	    NULL ||
	    (x->at2 = reallocarray(NULL, nsites + 1, sizeof *x->at2)) ==
	    NULL ||
	    (x->cid = reallocarray(NULL, nsites + 1, sizeof *x->cid)) ==
	    NULL ||
	    (x->inv_tot = calloc(p->nmetrics + 1, sizeof *x->inv_tot)) ==
	    NULL)
		return (inv_error(x, 500, "out of memory"));
	for (k = 0; k < p->nmetrics; k++) {
		for (i = 0, tot = 0; i < nsites; i++) {
			v = p->metrics[k].self[sites[i]];
			tot += (double)(v < 0 ? -v : v);
		}
		x->inv_tot[k] = tot > 0 ? 1 / tot : 0;
	}
	if (inv_charge(x, (uint64_t)nsites * (p->nmetrics + 1)) == -1)
		return (-1);
	for (i = 0; i < p->nnodes; i++)
		x->out[i] = PROFILE_NONE;
	x->out[PROFILE_ROOT] = PROFILE_ROOT;
	memcpy(x->site, sites, nsites * sizeof *sites);
	/* A site's first frame under the root is its own function. */
	memcpy(x->at, sites, nsites * sizeof *sites);
	if (inv_node_add(x, PROFILE_ROOT, PROFILE_NONE) == -1)
		return (-1);
	x->g[PROFILE_ROOT].lo = 0;
	x->g[PROFILE_ROOT].hi = nsites;
	x->g[PROFILE_ROOT].w = 1;
	return (0);
}

/*
 * The bounded inversion of p's sites (nsites node ids, none the root)
 * into b, whose functions are p's: out[] (p->nnodes) gets each site's
 * output node, PROFILE_NONE for any other node. The paths of want (NULL:
 * none) are expanded first; then nodes, widest first, until maxnodes
 * more are made (0: INVERT_NODES). -1 with *status and *cause.
 */
int
transform_invert_bounded(const struct profile *p, const uint32_t *sites,
    uint32_t nsites, const struct transform_want *want, uint32_t maxnodes,
    struct profile_builder *b, uint32_t *out, struct cost *cost,
    int *status, char **cause)
{
	struct inv	 x;
	uint32_t	 o;
	size_t		 i;
	int		 r = -1;

	memset(&x, 0, sizeof x);
	x.p = p;
	x.b = b;
	x.cost = cost;
	x.out = out;
	x.maxwork = INVERT_WORK;
	/* Half of what the query has left, if less: the page comes next. */
	if (cost != NULL && cost->limit > 0 && (cost->limit <= cost->used ||
	    (cost->limit - cost->used) / 2 < x.maxwork))
		x.maxwork = cost->limit > cost->used ?
		    (cost->limit - cost->used) / 2 : 0;
	if (inv_init(&x, sites, nsites) == -1 ||
	    inv_expand(&x, PROFILE_ROOT, 0) == -1)
		goto done;
	for (i = 0; want != NULL && i < want->n; i++) {
		if (inv_want(&x, &want->p[i]) == -1)
			goto done;
	}
	/* Parents come first: a wanted subtree's mark reaches all of it. */
	for (o = 1; o < x.ng; o++) {
		if (x.g[x.g[o].parent].sub)
			x.g[o].sub = 1;
		if (!x.g[o].expanded && inv_heap_push(&x, o) == -1)
			goto done;
	}
	/* The budget of nodes comes after the wanted paths' own. */
	if (maxnodes == 0)
		maxnodes = INVERT_NODES;
	maxnodes += profile_builder_nnodes(b);
	while (x.nh > 0 && profile_builder_nnodes(b) < maxnodes &&
	    x.work < x.maxwork) {
		if (inv_expand(&x, inv_heap_pop(&x), 1) == -1)
			goto done;
	}
	r = inv_finish(&x);
done:
	if (r == -1) {
		*status = x.status ? x.status : 500;
		if (cause != NULL) {
			*cause = x.cause;
			x.cause = NULL;
		}
	}
	free(x.cause);
	free(x.site);
	free(x.at);
	free(x.site2);
	free(x.at2);
	free(x.cid);
	free(x.inv_tot);
	free(x.g);
	free(x.kids);
	free(x.h);
	return (r);
}

/* Append a copy of path v (n ids) to want. */
static int
transform_want_add(struct transform_want *w, const uint32_t *v, size_t n,
    int subtree)
{
	struct transform_want_path	*p;

	if ((p = reallocarray(w->p, w->n + 1, sizeof *p)) == NULL)
		return (-1);
	w->p = p;
	p = &w->p[w->n];
	memset(p, 0, sizeof *p);
	if (n > 0 && (p->v = reallocarray(NULL, n, sizeof *v)) == NULL)
		return (-1);
	if (n > 0)
		memcpy(p->v, v, n * sizeof *v);
	p->n = n;
	p->subtree = subtree;
	w->n++;
	return (0);
}

/* The paths of open= ("1,2~1,3"); a malformed one is skipped. */
static int
transform_want_open(struct transform_want *w, const char *s)
{
	uint32_t	 v[QUERY_MAX_PATH];
	unsigned long	 id;
	size_t		 n;
	char		*end;
	int		 bad;

	while (*s != '\0') {
		end = (char *)s;
		for (n = 0, bad = 0; *s != '\0' && *s != '~'; s = end) {
			id = strtoul(s, &end, 10);
			if (end == s || id >= PROFILE_NONE ||
			    n == QUERY_MAX_PATH || (*end != ',' &&
			    *end != '~' && *end != '\0')) {
				bad = 1;
				end = (char *)s + strcspn(s, "~");
				break;
			}
			v[n++] = (uint32_t)id;
			if (*end == ',')
				end++;
		}
		if (!bad && n > 0 && transform_want_add(w, v, n, 0) == -1)
			return (-1);
		s = *end == '~' ? end + 1 : end;
	}
	return (0);
}

/*
 * What the answer will look at in the profile the stack's last transform
 * makes: the tree's start (path=, its subtree shown) and open= nodes, for
 * an inversion that must be bounded. NULL if out of memory.
 */
struct transform_want *
transform_want_create(const struct query *q)
{
	struct transform_want	*w;

	if ((w = calloc(1, sizeof *w)) == NULL)
		return (NULL);
	if ((q->npath > 0 && transform_want_add(w, q->path, q->npath,
	    1) == -1) ||
	    transform_want_open(w, q->open) == -1) {
		transform_want_free(w);
		return (NULL);
	}
	return (w);
}

/*
 * The wanted paths of the inversion at s->v[i]: the query's when it is
 * the last transform; the path of a focus, merge or other path transform
 * right after it, whose subtree the answer then shows. NULL: none (or
 * out of memory: the inversion then goes without).
 */
struct transform_want *
transform_want_at(const struct transform_stack *s, size_t i)
{
	const struct transform	*t;
	struct transform_want	*w;

	if (i + 1 == s->n) {
		if (s->want == NULL)
			return (NULL);
		/* A copy, freed by the caller as any other. */
		if ((w = calloc(1, sizeof *w)) == NULL)
			return (NULL);
		for (i = 0; i < s->want->n; i++) {
			if (transform_want_add(w, s->want->p[i].v,
			    s->want->p[i].n, s->want->p[i].subtree) == -1) {
				transform_want_free(w);
				return (NULL);
			}
		}
		return (w);
	}
	t = &s->v[i + 1];
	if (transform_kind_arg(t->kind) != TRANSFORM_ARG_PATH)
		return (NULL);
	if ((w = calloc(1, sizeof *w)) == NULL ||
	    transform_want_add(w, t->path, t->npath,
	    t->kind == TRANSFORM_FOCUS_SUBTREE) == -1) {
		transform_want_free(w);
		return (NULL);
	}
	return (w);
}

void
transform_want_free(struct transform_want *w)
{
	size_t	 i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++)
		free(w->p[i].v);
	free(w->p);
	free(w);
}

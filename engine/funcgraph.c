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

#include "aggregate.h"
#include "cause.h"
#include "display.h"
#include "funcgraph.h"
#include "profile.h"
#include "scc.h"

/* The exact call graph of call-graph profiles (see funcgraph.h). */

static int64_t	funcgraph_add(int64_t, int64_t);
static int	funcgraph_sort(struct funcgraph *);
static void	funcgraph_inclusive(struct funcgraph *);
static int64_t	funcgraph_share(const struct funcgraph *, uint32_t, int);
static int	funcgraph_credit(const struct funcgraph *, struct aggregate_rows *,
		    uint64_t, uint32_t, int);

/*
 * a + b, held at INT64_MAX: the sums of a file's costs (each checked by
 * its reader) can still pass 64 bits when added over edges.
 */
static int64_t
funcgraph_add(int64_t a, int64_t b)
{
	int64_t	 r;

	if (__builtin_add_overflow(a, b, &r))
		return (b > 0 ? INT64_MAX : INT64_MIN);
	return (r);
}

/*
 * An empty graph of nfuncs functions (the profile's function ids) and
 * nmetrics metrics; arcself: the file gives each edge's self cost.
 */
struct funcgraph *
funcgraph_create(uint32_t nfuncs, uint32_t nmetrics, int arcself)
{
	struct funcgraph	*g;

	if (nmetrics == 0 || nmetrics > PROFILE_MAX_METRICS ||
	    (g = calloc(1, sizeof *g)) == NULL)
		return (NULL);
	g->nfuncs = nfuncs;
	g->nmetrics = nmetrics;
	g->edgeself = arcself != 0;
	if ((g->self = calloc((size_t)(nfuncs ? nfuncs : 1) * nmetrics,
	    sizeof *g->self)) == NULL) {
		free(g);
		return (NULL);
	}
	return (g);
}

void
funcgraph_free(struct funcgraph *g)
{
	if (g == NULL)
		return;
	free(g->from);
	free(g->to);
	free(g->calls);
	free(g->cost);
	free(g->arcself);
	free(g->self);
	free(g->incl);
	free(g->out);
	free(g->in);
	free(g->byto);
	free(g->cycle);
	free(g->fcalls);
	free(g->level);
	free(g->given);
	free(g);
}

/*
 * Add to function f's self cost, one value per metric (a function the
 * file has in several contexts gets each one's). -1 on overflow.
 */
int
funcgraph_self(struct funcgraph *g, uint32_t f, const int64_t *v)
{
	uint32_t	 m;

	if (f >= g->nfuncs)
		return (-1);
	for (m = 0; m < g->nmetrics; m++) {
		if (__builtin_add_overflow(g->self[(size_t)f * g->nmetrics +
		    m], v[m], &g->self[(size_t)f * g->nmetrics + m]))
			return (-1);
	}
	return (0);
}

/*
 * Mark f a recursion level (callgrind's f'2): a function that may run
 * inside itself through other functions, so that the calls into it may
 * contain each other. -1 if out of memory.
 */
int
funcgraph_level(struct funcgraph *g, uint32_t f)
{
	if (f >= g->nfuncs || (g->level == NULL &&
	    (g->level = calloc(g->nfuncs ? g->nfuncs : 1, 1)) == NULL))
		return (-1);
	g->level[f] = 1;
	return (0);
}

/*
 * Function f's inclusive cost as the file gives it (gprof prints its
 * own): a graph given one takes every function's from the file, 0 where
 * none was given. -1 if out of memory.
 */
int
funcgraph_total(struct funcgraph *g, uint32_t f, const int64_t *v)
{
	if (f >= g->nfuncs || (g->given == NULL &&
	    (g->given = calloc((size_t)(g->nfuncs ? g->nfuncs : 1) *
	    g->nmetrics, sizeof *g->given)) == NULL))
		return (-1);
	memcpy(g->given + (size_t)f * g->nmetrics, v, g->nmetrics *
	    sizeof *v);
	return (0);
}

/*
 * A call edge from one function to another (each pair once): its calls,
 * the inclusive cost of those calls per metric, and, if the graph was
 * made with arcself, the callee's self part of it. -1 if out of memory.
 */
int
funcgraph_edge(struct funcgraph *g, uint32_t from, uint32_t to,
    uint64_t calls, const int64_t *cost, const int64_t *self)
{
	uint32_t	 cap, nm = g->nmetrics;
	void		*v;

	if (from >= g->nfuncs || to >= g->nfuncs || g->nedges == UINT32_MAX - 1)
		return (-1);
	if (g->nedges == g->edgecap) {
		cap = g->edgecap ? (g->edgecap > UINT32_MAX / 2 ?
		    UINT32_MAX - 1 : g->edgecap * 2) : 1024;
		if ((v = reallocarray(g->from, cap, sizeof *g->from)) == NULL)
			return (-1);
		g->from = v;
		if ((v = reallocarray(g->to, cap, sizeof *g->to)) == NULL)
			return (-1);
		g->to = v;
		if ((v = reallocarray(g->calls, cap, sizeof *g->calls)) == NULL)
			return (-1);
		g->calls = v;
		if ((v = reallocarray(g->cost, (size_t)cap * nm,
		    sizeof *g->cost)) == NULL)
			return (-1);
		g->cost = v;
		if (g->edgeself) {
			if ((v = reallocarray(g->arcself, (size_t)cap * nm,
			    sizeof *g->arcself)) == NULL)
				return (-1);
			g->arcself = v;
		}
		g->edgecap = cap;
	}
	g->from[g->nedges] = from;
	g->to[g->nedges] = to;
	g->calls[g->nedges] = calls;
	memcpy(g->cost + (size_t)g->nedges * nm, cost, nm * sizeof *cost);
	if (g->arcself != NULL)
		memcpy(g->arcself + (size_t)g->nedges * nm, self != NULL ?
		    self : cost, nm * sizeof *cost);
	g->nedges++;
	return (0);
}

/*
 * Edges in caller order (a counting sort, stable, so each caller's
 * edges keep the file's order), the offsets by caller, and the index by
 * callee. -1 if out of memory.
 */
static int
funcgraph_sort(struct funcgraph *g)
{
	uint32_t	 nf = g->nfuncs, ne = g->nedges, nm = g->nmetrics;
	uint32_t	*pos = NULL, *nfrom = NULL, *nto = NULL, e, f, k;
	uint64_t	*ncalls = NULL;
	int64_t		*ncost = NULL, *nself = NULL;
	int		 rc = -1;

	if ((g->out = calloc((size_t)nf + 1, sizeof *g->out)) == NULL ||
	    (g->in = calloc((size_t)nf + 1, sizeof *g->in)) == NULL ||
	    (g->byto = malloc((ne ? ne : 1) * sizeof *g->byto)) == NULL ||
	    (pos = malloc((nf ? nf : 1) * sizeof *pos)) == NULL ||
	    (nfrom = malloc((ne ? ne : 1) * sizeof *nfrom)) == NULL ||
	    (nto = malloc((ne ? ne : 1) * sizeof *nto)) == NULL ||
	    (ncalls = malloc((ne ? ne : 1) * sizeof *ncalls)) == NULL ||
	    (ncost = malloc((size_t)(ne ? ne : 1) * nm * sizeof *ncost)) ==
	    NULL ||
	    (g->edgeself && (nself = malloc((size_t)(ne ? ne : 1) * nm *
	    sizeof *nself)) == NULL))
		goto done;
	for (e = 0; e < ne; e++)
		g->out[g->from[e] + 1]++;
	for (f = 0; f < nf; f++) {
		g->out[f + 1] += g->out[f];
		pos[f] = g->out[f];
	}
	for (e = 0; e < ne; e++) {
		k = pos[g->from[e]]++;
		nfrom[k] = g->from[e];
		nto[k] = g->to[e];
		ncalls[k] = g->calls[e];
		memcpy(ncost + (size_t)k * nm, g->cost + (size_t)e * nm,
		    nm * sizeof *ncost);
		if (nself != NULL)
			memcpy(nself + (size_t)k * nm, g->arcself +
			    (size_t)e * nm, nm * sizeof *nself);
	}
	free(g->from);
	free(g->to);
	free(g->calls);
	free(g->cost);
	free(g->arcself);
	g->from = nfrom;
	g->to = nto;
	g->calls = ncalls;
	g->cost = ncost;
	g->arcself = nself;
	nfrom = nto = NULL;
	ncalls = NULL;
	ncost = nself = NULL;
	g->edgecap = ne;

	for (e = 0; e < ne; e++)
		g->in[g->to[e] + 1]++;
	for (f = 0; f < nf; f++) {
		g->in[f + 1] += g->in[f];
		pos[f] = g->in[f];
	}
	for (e = 0; e < ne; e++)
		g->byto[pos[g->to[e]]++] = e;
	rc = 0;
done:
	free(pos);
	free(nfrom);
	free(nto);
	free(ncalls);
	free(ncost);
	free(nself);
	return (rc);
}

/*
 * Inclusive costs (funcgraph.h): callgrind_annotate --inclusive=yes's
 * and KCachegrind's, the sum of the calls into a function, or, if
 * nothing calls it, its self plus its calls; a recursion level in a
 * cycle costs KCachegrind's cycle member's. Direct recursion (an edge
 * from a function to itself) is never added: its cost is already inside
 * the outer call's. A file that gives the totals (gprof) is taken as it
 * is.
 */
static void
funcgraph_inclusive(struct funcgraph *g)
{
	uint32_t	 f, h, i, e, nm = g->nmetrics, m;
	int64_t		*v, *c;
	int		 called;

	for (f = 0; f < g->nfuncs; f++) {
		v = g->incl + (size_t)f * nm;
		g->fcalls[f] = 0;
		called = 0;
		for (i = g->in[f]; i < g->in[f + 1]; i++) {
			e = g->byto[i];
			if (g->from[e] == f)
				continue;
			g->fcalls[f] += g->calls[e];
			called |= g->calls[e] > 0;
		}
		if (g->given) {
			memcpy(v, g->given + (size_t)f * nm, nm * sizeof *v);
			continue;
		}
		if (called && (g->cycle[f] == FUNCGRAPH_NONE ||
		    g->level == NULL || !g->level[f])) {
			memset(v, 0, nm * sizeof *v);
			for (i = g->in[f]; i < g->in[f + 1]; i++) {
				e = g->byto[i];
				if (g->from[e] == f)
					continue;
				c = g->cost + (size_t)e * nm;
				for (m = 0; m < nm; m++)
					v[m] = funcgraph_add(v[m], c[m]);
			}
			continue;
		}
		/*
		 * Its own cost and the calls leaving it, or, for a recursion
		 * level in a cycle, the calls leaving the cycle.
		 */
		memcpy(v, g->self + (size_t)f * nm, nm * sizeof *v);
		for (e = g->out[f]; e < g->out[f + 1]; e++) {
			h = g->to[e];
			if (h == f || (called && g->cycle[h] == g->cycle[f]))
				continue;
			c = g->cost + (size_t)e * nm;
			for (m = 0; m < nm; m++)
				v[m] = funcgraph_add(v[m], c[m]);
		}
	}
}

/*
 * Make the graph the profile's (which then owns it): sort it, find its
 * cycles and inclusive costs, and set the profile's per-function self
 * and total values from it (the root keeps its own). -1 with *cause.
 */
int
funcgraph_attach(struct funcgraph *g, struct profile *p, char **cause)
{
	uint32_t	 f, k, n, *comp = NULL, *size = NULL, *min = NULL;
	int64_t		 nc;
	size_t		 fm;

	if (g->nfuncs != p->nfuncs || g->nmetrics != p->nmetrics) {
		cause_set(cause, "call graph does not match the profile");
		return (-1);
	}
	fm = (size_t)(g->nfuncs ? g->nfuncs : 1);
	if (funcgraph_sort(g) == -1 ||
	    (g->incl = malloc(fm * g->nmetrics * sizeof *g->incl)) == NULL ||
	    (g->cycle = malloc(fm * sizeof *g->cycle)) == NULL ||
	    (g->fcalls = calloc(fm, sizeof *g->fcalls)) == NULL ||
	    (comp = malloc(fm * sizeof *comp)) == NULL)
		goto nomem;

	/* Cycles: strongly connected components of several functions. */
	if ((nc = scc_tarjan(g->nfuncs, g->out, g->to, comp)) == -1 ||
	    (size = calloc(nc ? nc : 1, sizeof *size)) == NULL ||
	    (min = malloc((nc ? nc : 1) * sizeof *min)) == NULL)
		goto nomem;
	for (k = 0; k < nc; k++)
		min[k] = FUNCGRAPH_NONE;
	for (f = 0; f < g->nfuncs; f++) {
		size[comp[f]]++;
		if (f < min[comp[f]])
			min[comp[f]] = f;
	}
	g->ncycles = 0;
	for (f = 0; f < g->nfuncs; f++) {
		n = size[comp[f]];
		g->cycle[f] = n > 1 ? min[comp[f]] : FUNCGRAPH_NONE;
		g->ncycles += n > 1 && min[comp[f]] == f;
	}
	funcgraph_inclusive(g);

	for (k = 0; k < p->nmetrics; k++) {
		for (f = 0; f < g->nfuncs; f++) {
			if (f == PROFILE_ROOT)
				continue;
			p->metrics[k].func_self[f] =
			    g->self[(size_t)f * g->nmetrics + k];
			p->metrics[k].func_total[f] =
			    g->incl[(size_t)f * g->nmetrics + k];
		}
	}
	p->funcgraph = g;
	free(comp);
	free(size);
	free(min);
	return (0);
nomem:
	free(comp);
	free(size);
	free(min);
	cause_set(cause, "out of memory");
	return (-1);
}

/*
 * The self part of edge e in metric m: the file's, or the callee's self
 * cost shared by the edge's share of the cost of the calls into it.
 */
static int64_t
funcgraph_share(const struct funcgraph *g, uint32_t e, int m)
{
	uint32_t	 h = g->to[e], i, nm = g->nmetrics;
	int64_t		 s = g->self[(size_t)h * nm + m];
	int64_t		 c = g->cost[(size_t)e * nm + m], d = 0, r;

	if (g->arcself != NULL)
		return (g->arcself[(size_t)e * nm + m]);
	for (i = g->in[h]; i < g->in[h + 1]; i++) {
		if (g->from[g->byto[i]] != h)
			d = funcgraph_add(d, g->cost[(size_t)g->byto[i] * nm +
			    m]);
	}
	if (d <= 0)
		return (s < c ? s : c);
	r = (int64_t)((long double)s * c / d + 0.5L);
	return (r < c ? r : c);
}

/* Credit edge e to the row of key; -1 if out of memory. */
static int
funcgraph_credit(const struct funcgraph *g, struct aggregate_rows *r,
    uint64_t key, uint32_t e, int self)
{
	uint32_t	 i, m, nm = g->nmetrics;

	if ((i = aggregate_rows_row(r, key, PROFILE_NONE)) == AGGREGATE_NONE)
		return (-1);
	r->nodes[i]++;
	r->calls[i] += g->calls[e];
	for (m = 0; m < nm; m++) {
		r->total[(size_t)i * nm + m] = funcgraph_add(
		    r->total[(size_t)i * nm + m], g->cost[(size_t)e * nm + m]);
		if (self)
			r->self[(size_t)i * nm + m] = funcgraph_add(
			    r->self[(size_t)i * nm + m], funcgraph_share(g, e, m));
	}
	return (0);
}

static uint64_t
funcgraph_key(const struct profile *p, const struct aggregate_spec *s,
    enum aggregate_by by, uint32_t f)
{
	switch (by) {
	case AGGREGATE_MODULE:
		return (p->func_module[f]);
	case AGGREGATE_CLIQUE:
		return (s->clique != NULL ? s->clique[f] : f);
	default:
		return (f);
	}
}

/*
 * aggregate_butterfly() of a profile with a call graph, from its edges:
 * a caller row sums the calls into the set from its key, a callee row
 * the calls from the set to it, each with its calls and inclusive cost
 * (call sites are the calling functions: a call graph has no others).
 * The set row is the function's own values; a set of several functions
 * costs their self plus the calls leaving the set (a cycle's cost, for
 * a clique). -1 if out of memory.
 */
int
funcgraph_butterfly(const struct profile *p, const struct aggregate_spec *s,
    struct aggregate_butterfly *b)
{
	const struct funcgraph	*g = p->funcgraph;
	uint32_t		 f, h, e, i, m, nm = g->nmetrics;
	uint32_t		 nin = 0, nout = 0, nset = 0, last = 0;
	int64_t			*st;

	for (f = 0; f < g->nfuncs; f++) {
		if (!s->in[f])
			continue;
		nset++;
		last = f;
		nin += g->in[f + 1] - g->in[f];
		nout += g->out[f + 1] - g->out[f];
	}
	memset(b, 0, sizeof *b);
	if (aggregate_rows_init(&b->callers, nm, nin, 1) == -1 ||
	    aggregate_rows_init(&b->callees, nm, nout, 1) == -1 ||
	    aggregate_rows_init(&b->set, nm, 1, 1) == -1)
		goto fail;
	b->set.n = 1;
	b->set.node[0] = PROFILE_NONE;
	st = b->set.total;
	for (f = 0; f < g->nfuncs; f++) {
		if (!s->in[f])
			continue;
		for (m = 0; m < nm; m++)
			b->set.self[m] = funcgraph_add(b->set.self[m],
			    g->self[(size_t)f * nm + m]);
		for (i = g->in[f]; i < g->in[f + 1]; i++) {
			e = g->byto[i];
			h = g->from[e];
			if (!s->in[h]) {
				b->set.nodes[0]++;
				b->set.calls[0] += g->calls[e];
			}
			if (s->in[h] && !s->internal)
				continue;
			if (funcgraph_credit(g, &b->callers, funcgraph_key(p,
			    s, s->callers_by, h), e, g->arcself != NULL) == -1)
				goto fail;
		}
		for (e = g->out[f]; e < g->out[f + 1]; e++) {
			h = g->to[e];
			if (!s->in[h])
				for (m = 0; m < nm; m++)
					st[m] = funcgraph_add(st[m],
					    g->cost[(size_t)e * nm + m]);
			if (s->in[h] && !s->internal)
				continue;
			if (funcgraph_credit(g, &b->callees, funcgraph_key(p,
			    s, s->callees_by, h), e, 1) == -1)
				goto fail;
		}
	}
	if (nset == 1)
		memcpy(st, g->incl + (size_t)last * nm, nm * sizeof *st);
	else
		for (m = 0; m < nm; m++)
			st[m] = funcgraph_add(st[m], b->set.self[m]);
	/*
	 * A caller row's self, unless the file gives it: the set's self
	 * shared by the row's part of the set's cost.
	 */
	for (i = 0; g->arcself == NULL && i < b->callers.n; i++) {
		for (m = 0; m < nm; m++) {
			int64_t	 t = b->callers.total[(size_t)i * nm + m];
			int64_t	 all = st[m];

			b->callers.self[(size_t)i * nm + m] = all <= 0 ? 0 :
			    (int64_t)((long double)b->set.self[m] * t / all +
			    0.5L);
			if (b->callers.self[(size_t)i * nm + m] > t)
				b->callers.self[(size_t)i * nm + m] = t;
		}
	}
	return (0);
fail:
	aggregate_butterfly_clear(b);
	return (-1);
}

/*
 * aggregate_groups() of a profile with a call graph: a group's self is
 * its functions' self; its total is the one function's inclusive cost,
 * or for several, their self plus the calls leaving the group (an upper
 * bound when the group is entered again through other groups, as a
 * module calling back into itself). -1 if out of memory.
 */
int
funcgraph_groups(const struct profile *p, const uint32_t *group_of,
    uint32_t ngroups, struct aggregate_rows *r)
{
	const struct funcgraph	*g = p->funcgraph;
	uint32_t		 f, e, gr, m, nm = g->nmetrics, *members = NULL;
	uint32_t		*one = NULL, n;

	if (aggregate_rows_init(r, nm, ngroups, 1) == -1 ||
	    (members = calloc(ngroups ? ngroups : 1, sizeof *members)) ==
	    NULL || (one = malloc((ngroups ? ngroups : 1) * sizeof *one)) ==
	    NULL)
		goto fail;
	r->n = ngroups;
	for (gr = 0; gr < ngroups; gr++) {
		r->key[gr] = gr;
		r->node[gr] = PROFILE_NONE;
	}
	for (f = 0; f < g->nfuncs; f++) {
		if ((gr = group_of[f]) == AGGREGATE_NONE)
			continue;
		members[gr]++;
		one[gr] = f;
		for (m = 0; m < nm; m++)
			r->self[(size_t)gr * nm + m] = funcgraph_add(
			    r->self[(size_t)gr * nm + m],
			    g->self[(size_t)f * nm + m]);
		for (e = g->out[f]; e < g->out[f + 1]; e++) {
			if (group_of[g->to[e]] == gr)
				continue;
			for (m = 0; m < nm; m++)
				r->total[(size_t)gr * nm + m] = funcgraph_add(
				    r->total[(size_t)gr * nm + m],
				    g->cost[(size_t)e * nm + m]);
		}
		for (e = g->in[f]; e < g->in[f + 1]; e++) {
			if (group_of[g->from[g->byto[e]]] == gr)
				continue;
			r->nodes[gr]++;
			r->calls[gr] += g->calls[g->byto[e]];
		}
	}
	for (gr = 0; gr < ngroups; gr++) {
		for (m = 0; m < nm; m++)
			r->total[(size_t)gr * nm + m] = members[gr] == 1 ?
			    g->incl[(size_t)one[gr] * nm + m] :
			    funcgraph_add(r->total[(size_t)gr * nm + m],
			    r->self[(size_t)gr * nm + m]);
	}
	/* The first call node of each group, as aggregate_groups gives. */
	for (n = 0; n < p->nnodes; n++) {
		gr = group_of[p->node_func[n]];
		if (gr != AGGREGATE_NONE && r->node[gr] == PROFILE_NONE)
			r->node[gr] = n;
	}
	free(members);
	free(one);
	return (0);
fail:
	free(members);
	free(one);
	aggregate_rows_clear(r);
	return (-1);
}

/* The bytes an attached graph holds, for profile_memory(). */
size_t
funcgraph_memory(const struct funcgraph *g)
{
	size_t	 n = sizeof *g, nm = g->nmetrics;

	n += (size_t)g->nedges * (3 * sizeof(uint32_t) + sizeof(uint64_t) +
	    nm * sizeof(int64_t) * (g->arcself != NULL ? 2 : 1));
	n += (size_t)g->nfuncs * (nm * sizeof(int64_t) *
	    (g->given != NULL ? 3 : 2) + 3 * sizeof(uint32_t) +
	    sizeof(uint64_t) + (g->level != NULL ? 1 : 0));
	return (n);
}

/* Is the profile's calling-context tree an estimate from a call graph? */
int
funcgraph_estimated(const struct profile *p)
{
	return (p->funcgraph != NULL && !p->funcgraph->contexts);
}

/*
 * Does an answer about p (after transforms, if transformed) rest on the
 * tree a call graph's reader estimated? So it does when its report walks
 * the tree (the context views and exports: CATALOG_TREE in the catalog),
 * or when transformed, since a transform makes a profile of the tree
 * alone; the function-level reports read the graph.
 */
int
funcgraph_estimate(const struct profile *p, int walks_tree, int transformed)
{
	if (!funcgraph_estimated(p))
		return (0);
	return (transformed || walks_tree);
}

/*
 * Mark an estimated answer: "estimated": true, and a flame graph's
 * subtitle says so (the SVG shows no other text). -1 if out of memory.
 */
int
funcgraph_mark(json_t *j)
{
	const char	*s = json_string_value(json_object_get(j, "subtitle"));
	char		*t;
	int		 rc;

	if (json_object_set_new(j, "estimated", json_true()) == -1)
		return (-1);
	if (json_object_get(j, "frames") == NULL)
		return (0);
	if (asprintf(&t, "%s%sestimated from the call graph", s ? s : "",
	    s && *s ? "; " : "") == -1)
		return (-1);
	rc = json_object_set_new(j, "subtitle", json_string(t));
	free(t);
	return (rc);
}

/*
 * The note an estimated page shows, as its first block: the display
 * appends blocks, so the new one is rotated to the front.
 */
void
funcgraph_note(struct display *d)
{
	struct display_block	 b;

	display_text(d, "Estimated: this profile records a call graph, not "
	    "calling contexts, so these contexts are expanded from it, "
	    "sharing each function's cost among its callers by their calls' "
	    "cost. Function figures (top, func, callers, modules) are exact.");
	if (display_failed(d) || d->nblocks < 2)
		return;
	b = d->blocks[d->nblocks - 1];
	memmove(d->blocks + 1, d->blocks, (d->nblocks - 1) * sizeof b);
	d->blocks[0] = b;
}

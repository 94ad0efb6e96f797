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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "cause.h"
#include "idmap.h"
#include "profile.h"
#include "profile-builder.h"
#include "scc.h"

/*
 * A call graph is not a tree, so the calling-context tree is built by a
 * heuristic: from the functions nobody calls, each call is expanded in
 * order of the share of the total it carries, and a function reached in
 * a context gets the fraction of its cost that the call into that
 * context carries among all calls into the function (gprof's
 * assumption: every call costs the average). A function already on the
 * path is not entered again, and calls carrying less than
 * CALLTREE_MIN_SHARE of a total or half a unit, or deeper than
 * CALLTREE_MAX_DEPTH, or past the node limit, are not expanded (one node
 * per function is kept in reserve). Whatever was cut, each function's
 * self cost is then split exactly over the nodes it got, so per-function
 * self costs equal the graph's and the grand totals its sum (plus the
 * root's own cost, extra).
 */

#define CALLTREE_MAX_DEPTH	1024
#define CALLTREE_MIN_SHARE	1e-9
#define CALLTREE_PER_ITEM	16	/* nodes per function and call pair */
#define CALLTREE_BIT(f)		(UINT64_C(1) << (idmap_hash(f) & 63))

struct calltree_cand {
	double		 est;
	uint32_t	 f;
};

/* A call node of the tree being built (the builder holds the rest). */
struct calltree_node {
	uint32_t	 func;		/* graph function */
	uint32_t	 depth;
	uint64_t	 mask;		/* the path's functions, hashed */
	double		 prio;		/* its share, for the heap */
};

struct calltree {
	struct profile_builder	*b;
	const struct calltree_graph *g;

	/* Per function of the graph. */
	uint32_t		*scc;		/* its component */
	uint32_t		*out, *nout;	/* its calls in edgeidx */
	uint32_t		*nodes;		/* call nodes it got */

	/* Calls by caller, and per call node. */
	uint32_t		*edgeidx;
	struct calltree_node	*node;
	double			*nodew;		/* [nnodes * nmetrics] */
	uint32_t		 nodecap;
	uint32_t		*heap;
	uint32_t		 nheap;
};

static int	calltree_scc(struct calltree *);
static int	calltree_onpath(struct calltree *, uint32_t, uint32_t);
static uint32_t	calltree_node(struct calltree *, uint32_t, uint32_t,
		    const double *, double);
static void	calltree_push(struct calltree *, uint32_t);
static uint32_t	calltree_pop(struct calltree *);
static int	calltree_expand(struct calltree *, const double *,
		    const double *, uint32_t);
static int	calltree_share(struct calltree *);
static int	calltree_cand_cmp(const void *, const void *);
static int	calltree_grow(struct calltree *, uint32_t, char **);

/*
 * Build the tree of graph g into b, with at most maxnodes nodes; -1 with
 * *cause if the graph's functions need more nodes than that, or the
 * builder fails.
 */
int
calltree_build(struct profile_builder *b, const struct calltree_graph *g,
    uint32_t maxnodes, char **cause)
{
	struct calltree	 ct;
	size_t		 n = g->nfuncs ? g->nfuncs : 1;
	int		 rc = -1;

	memset(&ct, 0, sizeof ct);
	ct.b = b;
	ct.g = g;
	if ((ct.scc = calloc(n, sizeof *ct.scc)) == NULL ||
	    (ct.out = calloc(n, sizeof *ct.out)) == NULL ||
	    (ct.nout = calloc(n, sizeof *ct.nout)) == NULL ||
	    (ct.nodes = calloc(n, sizeof *ct.nodes)) == NULL)
		cause_set(cause, "out of memory");
	else
		rc = calltree_grow(&ct, maxnodes, cause);
	free(ct.scc);
	free(ct.out);
	free(ct.nout);
	free(ct.nodes);
	free(ct.edgeidx);
	free(ct.node);
	free(ct.nodew);
	free(ct.heap);
	return (rc);
}

/*
 * Strongly connected components of the call graph (scc.c): a function
 * can be on the path to itself only through its component, which bounds
 * the recursion check below. The calls by caller (edgeidx, from
 * out[]) become compressed rows of callees.
 */
static int
calltree_scc(struct calltree *ct)
{
	uint32_t	*off, *adj, *comp, n = ct->g->nfuncs, f, k, ne;
	int		 rc = -1;

	ne = n > 0 ? ct->out[n - 1] + ct->nout[n - 1] : 0;
	off = malloc(((size_t)n + 1) * sizeof *off);
	adj = malloc((ne ? ne : 1) * sizeof *adj);
	comp = malloc((n ? n : 1) * sizeof *comp);
	if (off == NULL || adj == NULL || comp == NULL)
		goto done;
	for (f = 0; f < n; f++)
		off[f] = ct->out[f];
	off[n] = ne;
	for (k = 0; k < ne; k++)
		adj[k] = ct->g->edges[ct->edgeidx[k]].to;
	if (scc_tarjan(n, off, adj, comp) == -1)
		goto done;
	for (f = 0; f < n; f++)
		ct->scc[f] = comp[f];
	rc = 0;
done:
	free(off);
	free(adj);
	free(comp);
	return (rc);
}

/* Is function h on the path from the root to node v? */
static int
calltree_onpath(struct calltree *ct, uint32_t v, uint32_t h)
{
	uint32_t	 scc = ct->scc[h], f;

	/* A 64-bit filter of the functions on the path answers most. */
	if ((ct->node[v].mask & CALLTREE_BIT(h)) == 0)
		return (0);
	for (; v != PROFILE_ROOT; v = profile_builder_node_parent(ct->b, v)) {
		f = ct->node[v].func;
		if (f == h)
			return (1);
		/* A path that left h's component never comes back to it. */
		if (ct->scc[f] != scc)
			return (0);
	}
	return (0);
}

/* Heap of call nodes to expand, the highest share first. */
static void
calltree_push(struct calltree *ct, uint32_t n)
{
	uint32_t	 i = ct->nheap++, up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (ct->node[ct->heap[up]].prio >= ct->node[n].prio)
			break;
		ct->heap[i] = ct->heap[up];
		i = up;
	}
	ct->heap[i] = n;
}

static uint32_t
calltree_pop(struct calltree *ct)
{
	uint32_t	 top = ct->heap[0], last, i = 0, c;

	last = ct->heap[--ct->nheap];
	for (;;) {
		c = 2 * i + 1;
		if (c >= ct->nheap)
			break;
		if (c + 1 < ct->nheap &&
		    ct->node[ct->heap[c + 1]].prio > ct->node[ct->heap[c]].prio)
			c++;
		if (ct->node[ct->heap[c]].prio <= ct->node[last].prio)
			break;
		ct->heap[i] = ct->heap[c];
		i = c;
	}
	if (ct->nheap > 0)
		ct->heap[i] = last;
	return (top);
}

/*
 * The call node of function f under parent, with weights w (the share of
 * f's cost in this context, per metric); queued for expansion if new.
 */
static uint32_t
calltree_node(struct calltree *ct, uint32_t parent, uint32_t f,
    const double *w, double prio)
{
	struct calltree_node	*nn;
	uint32_t		 bf, n, cap, *nh;
	uint32_t		 old = profile_builder_nnodes(ct->b);
	double			*nw;
	int			 m, nm = ct->g->nmetrics;

	if ((bf = ct->g->func(ct->g->arg, f)) == PROFILE_NONE ||
	    (n = profile_builder_child(ct->b, parent, bf)) == PROFILE_NONE)
		return (PROFILE_NONE);
	if (n < old) {
		for (m = 0; m < nm; m++)
			ct->nodew[(size_t)n * nm + m] += w[m];
		return (n);
	}
	if (n >= ct->nodecap) {
		cap = ct->nodecap ? ct->nodecap * 2 : 4096;
		if ((nn = reallocarray(ct->node, cap, sizeof *nn)) == NULL)
			return (PROFILE_NONE);
		ct->node = nn;
		if ((nw = reallocarray(ct->nodew, (size_t)cap * nm,
		    sizeof *nw)) == NULL)
			return (PROFILE_NONE);
		ct->nodew = nw;
		if ((nh = reallocarray(ct->heap, cap, sizeof *nh)) == NULL)
			return (PROFILE_NONE);
		ct->heap = nh;
		ct->nodecap = cap;
	}
	ct->node[n].func = f;
	ct->node[n].depth = parent == PROFILE_ROOT ? 1 :
	    ct->node[parent].depth + 1;
	ct->node[n].mask = (parent == PROFILE_ROOT ? 0 :
	    ct->node[parent].mask) | CALLTREE_BIT(f);
	memcpy(ct->nodew + (size_t)n * nm, w, nm * sizeof *w);
	ct->node[n].prio = prio;
	ct->nodes[f]++;
	calltree_push(ct, n);
	return (n);
}

/*
 * Expand queued nodes, highest share first, until the queue is empty
 * (0), the node limit is reached (1) or an error (-1). T is the total of
 * each metric, in[] the cost that reaches each function through calls
 * from other functions. (Sharing a recursive cycle's cost among the
 * contexts entering it, by the cost entering it from outside, was tried:
 * on gcc's cc1 it doubled the error of non-recursive functions' totals.)
 */
static int
calltree_expand(struct calltree *ct, const double *T, const double *in,
    uint32_t limit)
{
	double		 w[PROFILE_MAX_METRICS], prio, share, c, units;
	const double	*wv;
	uint32_t	 v, f, h, e, k, *adj = ct->edgeidx;
	int		 m, nm = ct->g->nmetrics;

	while (ct->nheap > 0) {
		v = calltree_pop(ct);
		f = ct->node[v].func;
		if (ct->node[v].depth >= CALLTREE_MAX_DEPTH)
			continue;
		for (k = 0; k < ct->nout[f]; k++) {
			e = adj[ct->out[f] + k];
			h = ct->g->edges[e].to;
			wv = ct->nodew + (size_t)v * nm;
			prio = units = 0;
			for (m = 0; m < nm; m++) {
				c = (double)ct->g->cost[(size_t)e * nm + m];
				if (T[m] > 0 && (share = wv[m] * c / T[m]) >
				    prio)
					prio = share;
				if (wv[m] * c > units)
					units = wv[m] * c;
				w[m] = c > 0 ? wv[m] * c / in[(size_t)h * nm +
				    m] : 0;
			}
			/* Too small a share, or less than half a unit. */
			if (prio < CALLTREE_MIN_SHARE || units < 0.5)
				continue;
			if (ct->scc[h] == ct->scc[f] &&
			    calltree_onpath(ct, v, h))
				continue;
			if (profile_builder_nnodes(ct->b) >= limit)
				return (1);
			if (calltree_node(ct, v, h, w, prio) == PROFILE_NONE)
				return (-1);
		}
	}
	return (0);
}

/*
 * Split each function's self cost over its call nodes in proportion to
 * their weights, exactly: in node order, the k-th node of a function gets
 * round(s * C_k / W) - round(s * C_k-1 / W) for the cumulative weights C,
 * and its last node what is left, so the parts sum to s. Walking the
 * nodes in order (not function by function) keeps the writes to the
 * metric columns sequential. A metric whose weights are all zero for a
 * function falls back to metric 0's, then to equal shares.
 */
static int
calltree_share(struct calltree *ct)
{
	uint32_t	 nn = profile_builder_nnodes(ct->b), *last = NULL;
	uint32_t	 f, v;
	int		 m, c, nm = ct->g->nmetrics, rc = -1;
	int64_t		 s, *prev = NULL, target;
	double		*W = NULL, *C = NULL, w, x;
	int8_t		*col = NULL;
	size_t		 fm;

	fm = (size_t)ct->g->nfuncs * nm;
	W = calloc(fm, sizeof *W);
	C = calloc(fm, sizeof *C);
	prev = calloc(fm, sizeof *prev);
	col = malloc(fm);
	last = calloc(ct->g->nfuncs, sizeof *last);
	if (W == NULL || C == NULL || prev == NULL || col == NULL ||
	    last == NULL)
		goto done;
	for (v = 1; v < nn; v++) {
		f = ct->node[v].func;
		last[f] = v;
		for (m = 0; m < nm; m++)
			W[(size_t)f * nm + m] += ct->nodew[(size_t)v * nm + m];
	}
	for (f = 0; f < ct->g->nfuncs; f++) {
		for (m = 0; m < nm; m++) {
			c = W[(size_t)f * nm + m] > 0 ? m :
			    W[(size_t)f * nm] > 0 ? 0 : -1;
			col[(size_t)f * nm + m] = (int8_t)c;
		}
		/*
		 * Backwards, so metric 0's own sum is read before it
		 * changes.
		 */
		for (m = nm; m-- > 0;) {
			c = col[(size_t)f * nm + m];
			W[(size_t)f * nm + m] = c == -1 ? ct->nodes[f] :
			    W[(size_t)f * nm + c];
		}
	}
	for (v = 1; v < nn; v++) {
		f = ct->node[v].func;
		for (m = 0; m < nm; m++) {
			if ((s = ct->g->self[(size_t)f * nm + m]) == 0)
				continue;
			c = col[(size_t)f * nm + m];
			w = c == -1 ? 1 : ct->nodew[(size_t)v * nm + c];
			C[(size_t)f * nm + m] += w;
			if (v == last[f])
				target = s;
			else {
				/* Doubles are exact below 2^53. */
				x = C[(size_t)f * nm + m] /
				    W[(size_t)f * nm + m];
				target = s < (INT64_C(1) << 53) ?
				    llround((double)s * x) :
				    llroundl((long double)s * x);
				if (target < prev[(size_t)f * nm + m])
					target = prev[(size_t)f * nm + m];
				if (target > s)
					target = s;
			}
			if (profile_builder_add(ct->b, v, m, target -
			    prev[(size_t)f * nm + m]) == -1)
				goto done;
			prev[(size_t)f * nm + m] = target;
		}
	}
	rc = 0;
done:
	free(W);
	free(C);
	free(prev);
	free(col);
	free(last);
	return (rc);
}

/* Heaviest first; equal ones in file order, so the tree is stable. */
static int
calltree_cand_cmp(const void *a, const void *b)
{
	const struct calltree_cand	*x = a, *y = b;

	if (x->est != y->est)
		return (x->est > y->est ? -1 : 1);
	return (x->f < y->f ? -1 : x->f > y->f);
}

/*
 * The node budget: ct->nout counts each function's calls to others, T
 * gets the totals of self cost, and *limit the nodes the estimate may
 * grow once a node for each function with cost or calls is kept in
 * reserve. -1 if the functions alone need more than maxnodes.
 */
static int
calltree_budget(struct calltree *ct, uint32_t maxnodes, double *T,
    uint32_t *limit, char **cause)
{
	uint32_t	 f, e, reserve = 1;
	int		 m, nm = ct->g->nmetrics, any;
	const int64_t	*sf;

	for (m = 0; m < nm; m++)
		T[m] = 0;
	for (e = 0; e < ct->g->nedges; e++) {
		if (ct->g->edges[e].from != ct->g->edges[e].to)
			ct->nout[ct->g->edges[e].from]++;
	}
	/* A node for each function with cost or calls is kept in reserve. */
	for (f = 0; f < ct->g->nfuncs; f++) {
		sf = ct->g->self + (size_t)f * nm;
		for (any = 0, m = 0; m < nm; m++) {
			T[m] += (double)sf[m];
			any |= sf[m] != 0;
		}
		reserve += any || ct->nout[f] > 0;
	}
	if (maxnodes <= reserve) {
		cause_set(cause, "%u functions need more call nodes than the "
		    "limit of %u", reserve - 1, maxnodes);
		return (-1);
	}
	*limit = maxnodes - reserve;
	/*
	 * The tree is only an estimate (the function figures come from the
	 * graph: funcgraph.h), so it gets nodes in proportion to the file's
	 * functions and calls, and the load costs what the file does: on
	 * CPython's profile (2,200 functions, 135,000 calls= lines) the
	 * million nodes the limit allows took 2 s of a 2.2 s load.
	 */
	if ((uint64_t)CALLTREE_PER_ITEM * ((uint64_t)ct->g->nfuncs +
	    ct->g->nedges) < *limit)
		*limit = CALLTREE_PER_ITEM * (ct->g->nfuncs + ct->g->nedges);
	return (0);
}

/*
 * Calls by caller, without direct recursion (ct->out, ct->nout and
 * ct->edgeidx, allocated by the caller); the cost of the calls into each
 * callee summed into in.
 */
static void
calltree_by_caller(struct calltree *ct, double *in)
{
	uint32_t	 f, e, k;
	int		 m, nm = ct->g->nmetrics;

	for (e = 0; e < ct->g->nedges; e++) {
		if (ct->g->edges[e].from == ct->g->edges[e].to)
			continue;
		for (m = 0; m < nm; m++)
			in[(size_t)ct->g->edges[e].to * nm + m] +=
			    (double)ct->g->cost[(size_t)e * nm + m];
	}
	for (k = 0, f = 0; f < ct->g->nfuncs; f++) {
		ct->out[f] = k;
		k += ct->nout[f];
		ct->nout[f] = 0;
	}
	for (e = 0; e < ct->g->nedges; e++) {
		if (ct->g->edges[e].from == ct->g->edges[e].to)
			continue;
		f = ct->g->edges[e].from;
		ct->edgeidx[ct->out[f] + ct->nout[f]++] = e;
	}
}

/*
 * The first roots: functions no other function calls at a cost. cand
 * gets every function with calls, heaviest estimated inclusive cost
 * first (est is scratch of nfuncs), *ncand their number: the later roots
 * are taken from it. -1 on a builder error.
 */
static int
calltree_roots(struct calltree *ct, const double *in, const double *ones,
    double *est, struct calltree_cand *cand, uint32_t *ncand)
{
	uint32_t	 f, k, n = 0;
	int		 m, nm = ct->g->nmetrics, any;
	const int64_t	*sf;

	for (f = 0; f < ct->g->nfuncs; f++) {
		sf = ct->g->self + (size_t)f * nm;
		est[f] = (double)sf[0];
		for (k = 0; k < ct->nout[f]; k++)
			est[f] += (double)ct->g->cost[(size_t)ct->edgeidx[
			    ct->out[f] + k] * nm];
		for (any = 0, m = 0; m < nm; m++)
			any |= in[(size_t)f * nm + m] > 0;
		if (!any && (est[f] > 0 || ct->nout[f] > 0) &&
		    calltree_node(ct, PROFILE_ROOT, f, ones, 1) == PROFILE_NONE)
			return (-1);
		if (ct->nout[f] > 0)
			cand[n++].f = f;
	}
	/* Candidates by estimated inclusive cost, heaviest first. */
	for (k = 0; k < n; k++)
		cand[k].est = est[cand[k].f];
	qsort(cand, n, sizeof *cand, calltree_cand_cmp);
	*ncand = n;
	return (0);
}

/*
 * Whatever has cost and no node yet hangs from the root; then each
 * function's self cost is split over its nodes (calltree_share), and
 * the root gets its own cost (ct->g->extra). -1 on a builder error.
 */
static int
calltree_rest(struct calltree *ct, const double *ones)
{
	uint32_t	 f;
	int		 m, nm = ct->g->nmetrics, any;
	const int64_t	*sf;

	ct->nheap = 0;
	for (f = 0; f < ct->g->nfuncs; f++) {
		sf = ct->g->self + (size_t)f * nm;
		for (any = 0, m = 0; m < nm; m++)
			any |= sf[m] != 0;
		if (any && ct->nodes[f] == 0 &&
		    calltree_node(ct, PROFILE_ROOT, f, ones, 1) == PROFILE_NONE)
			return (-1);
	}
	ct->nheap = 0;

	if (calltree_share(ct) == -1)
		return (-1);
	for (m = 0; m < nm; m++) {
		if (ct->g->extra != NULL && ct->g->extra[m] != 0 &&
		    profile_builder_add(ct->b, PROFILE_ROOT, m,
		    ct->g->extra[m]) == -1)
			return (-1);
	}
	return (0);
}

/* The tree, from the roots down (see the top). */
static int
calltree_grow(struct calltree *ct, uint32_t maxnodes, char **cause)
{
	double		 T[PROFILE_MAX_METRICS], ones[PROFILE_MAX_METRICS];
	double		*in = NULL, *est = NULL;
	struct calltree_cand	*cand = NULL;
	uint32_t	 k, limit, ncand = 0;
	int		 m, nm = ct->g->nmetrics, rc = -1;

	for (m = 0; m < nm; m++)
		ones[m] = 1;
	if (calltree_budget(ct, maxnodes, T, &limit, cause) == -1)
		return (-1);

	in = calloc((size_t)ct->g->nfuncs * nm, sizeof *in);
	ct->edgeidx = malloc(((size_t)ct->g->nedges + 1) * sizeof *ct->edgeidx);
	if (in == NULL || ct->edgeidx == NULL)
		goto nomem;
	calltree_by_caller(ct, in);
	if (calltree_scc(ct) == -1)
		goto nomem;

	/*
	 * Roots: functions no other function calls at a cost. Then, while
	 * functions with calls remain unreached (a cycle nobody enters, or
	 * callers cut), the heaviest of them is a root too.
	 */
	est = malloc((size_t)ct->g->nfuncs * sizeof *est);
	cand = malloc((size_t)ct->g->nfuncs * sizeof *cand);
	if (est == NULL || cand == NULL)
		goto nomem;
	if (calltree_roots(ct, in, ones, est, cand, &ncand) == -1)
		goto builderr;
	k = 0;
	for (;;) {
		if ((rc = calltree_expand(ct, T, in, limit)) == -1)
			goto builderr;
		if (rc == 1)
			break;
		while (k < ncand && ct->nodes[cand[k].f] > 0)
			k++;
		if (k == ncand)
			break;
		if (calltree_node(ct, PROFILE_ROOT, cand[k].f, ones, 1) ==
		    PROFILE_NONE)
			goto builderr;
	}
	if (calltree_rest(ct, ones) == -1)
		goto builderr;
	rc = 0;
	goto done;
builderr:
	cause_set(cause, "%s", profile_builder_error(ct->b));
	rc = -1;
	goto done;
nomem:
	cause_set(cause, "out of memory");
	rc = -1;
done:
	free(in);
	free(est);
	free(cand);
	return (rc);
}

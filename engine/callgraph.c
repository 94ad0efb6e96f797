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

#include "callgraph.h"
#include "cost.h"
#include "funcgraph.h"
#include "profile.h"
#include "scc.h"

static int	callgraph_sized(struct callgraph *);
static int	callgraph_named(struct callgraph *, const uint32_t *,
		    const uint32_t *, uint32_t *, int64_t);

/* Does function f call function h directly, in the edges off/adj? */
static int
callgraph_calls(const uint32_t *off, const uint32_t *adj, uint32_t f,
    uint32_t h)
{
	uint32_t	 i;

	for (i = off[f]; i < off[f + 1]; i++) {
		if (adj[i] == h)
			return (1);
	}
	return (0);
}

/*
 * Fill the clique sizes and counts of g, whose clique and recursive
 * arrays are set. -1 if out of memory.
 */
static int
callgraph_sized(struct callgraph *g)
{
	uint32_t	 f, nf = g->nfuncs;

	if ((g->size = calloc(nf ? nf : 1, sizeof *g->size)) == NULL)
		return (-1);
	g->ncliques = g->nrecursive = 0;
	for (f = 0; f < nf; f++) {
		g->size[g->clique[f]]++;
		if (g->clique[f] == f) {
			g->ncliques++;
			g->nrecursive += g->recursive[f];
		}
	}
	return (0);
}

/*
 * Build the call graph's cliques of a profile; NULL if out of memory or
 * over the cost budget (cost_over tells which). Its passes are over the
 * nodes (twice) and the functions (a few times): charged up front, since
 * none can stop half way more cheaply than not start. The edges are
 * dropped once the cliques are found: no query needs them, and they
 * were 4 bytes a call node on a profile whose nodes are mostly distinct
 * (caller, callee) pairs.
 */
struct callgraph *
callgraph_create(const struct profile *p, struct cost *cost)
{
	struct callgraph	*g;
	uint32_t		*off = NULL, *adj = NULL, *fill = NULL;
	uint32_t		*comp = NULL;
	uint32_t		 n, f, i, o, nf = p->nfuncs;
	int64_t			 nc;

	if (cost_charge(cost, (uint64_t)p->nnodes * 2 +
	    (uint64_t)p->nfuncs * 4) == -1)
		return (NULL);
	if ((g = calloc(1, sizeof *g)) == NULL)
		return (NULL);
	g->nfuncs = nf;
	/* A profile with an exact call graph: its edges, not the tree's. */
	if (p->funcgraph != NULL) {
		if ((g->clique = malloc((nf ? nf : 1) * sizeof *g->clique)) ==
		    NULL || (g->recursive = calloc(nf ? nf : 1, 1)) == NULL ||
		    (comp = malloc((nf ? nf : 1) * sizeof *comp)) == NULL ||
		    (nc = scc_tarjan(nf, p->funcgraph->out, p->funcgraph->to,
		    comp)) == -1 || callgraph_named(g, p->funcgraph->out,
		    p->funcgraph->to, comp, nc) == -1)
			goto fail;
		free(comp);
		return (g);
	}
	if ((off = calloc((size_t)nf + 1, sizeof *off)) == NULL ||
	    (adj = malloc((p->nnodes > 1 ? p->nnodes - 1 : 1) *
	    sizeof *adj)) == NULL ||
	    (g->clique = malloc((nf ? nf : 1) * sizeof *g->clique)) == NULL ||
	    (g->recursive = calloc(nf ? nf : 1, 1)) == NULL ||
	    (fill = calloc(nf ? nf : 1, sizeof *fill)) == NULL ||
	    (comp = malloc((nf ? nf : 1) * sizeof *comp)) == NULL)
		goto fail;

	/* Counting sort of the (caller, callee) pairs of every node. */
	for (n = 1; n < p->nnodes; n++)
		off[p->node_func[p->node_parent[n]] + 1]++;
	for (f = 0; f < nf; f++)
		off[f + 1] += off[f];
	for (n = 1; n < p->nnodes; n++) {
		f = p->node_func[p->node_parent[n]];
		adj[off[f] + fill[f]++] = p->node_func[n];
	}
	/*
	 * Drop duplicate edges, compacting in place: fill[h] remembers the
	 * last caller that had h (plus one), which needs no sorting.
	 */
	memset(fill, 0, (nf ? nf : 1) * sizeof *fill);
	for (f = 0, o = 0; f < nf; f++) {
		uint32_t	 b = off[f], e = off[f + 1];

		off[f] = o;
		for (i = b; i < e; i++) {
			if (fill[adj[i]] != f + 1) {
				fill[adj[i]] = f + 1;
				adj[o++] = adj[i];
			}
		}
	}
	off[nf] = o;

	if ((nc = scc_tarjan(nf, off, adj, comp)) == -1 ||
	    callgraph_named(g, off, adj, comp, nc) == -1)
		goto fail;
	free(off);
	free(adj);
	free(fill);
	free(comp);
	return (g);
fail:
	free(off);
	free(adj);
	free(fill);
	free(comp);
	callgraph_free(g);
	return (NULL);
}

/*
 * Name each of the nc components comp[] of the edges off/adj by its
 * smallest member and mark the recursive ones (several members, or one
 * that calls itself). -1 if out of memory.
 */
static int
callgraph_named(struct callgraph *g, const uint32_t *off,
    const uint32_t *adj, uint32_t *comp, int64_t nc)
{
	uint32_t	*min, f, k, nf = g->nfuncs;

	if ((min = malloc((nc ? nc : 1) * sizeof *min)) == NULL)
		return (-1);
	for (k = 0; k < nc; k++)
		min[k] = SCC_NONE;
	for (f = 0; f < nf; f++) {
		if (f < min[comp[f]])
			min[comp[f]] = f;
	}
	for (f = 0; f < nf; f++)
		g->clique[f] = min[comp[f]];
	free(min);
	if (callgraph_sized(g) == -1)
		return (-1);
	for (f = 0; f < nf; f++) {
		if (g->size[g->clique[f]] > 1 ||
		    callgraph_calls(off, adj, f, f))
			g->recursive[g->clique[f]] = 1;
	}
	for (f = 0, g->nrecursive = 0; f < nf; f++)
		g->nrecursive += g->clique[f] == f && g->recursive[f];
	return (0);
}

/*
 * The cliques of nfuncs functions as a cache keeps them (clique ids and
 * recursive flags by clique id, checked by the cache: cache.c), copied;
 * NULL if out of memory. A pass over the functions, not the call nodes.
 */
struct callgraph *
callgraph_from_cliques(uint32_t nfuncs, const uint32_t *clique,
    const uint8_t *recursive)
{
	struct callgraph	*g;

	if ((g = calloc(1, sizeof *g)) == NULL)
		return (NULL);
	g->nfuncs = nfuncs;
	if ((g->clique = reallocarray(NULL, nfuncs ? nfuncs : 1,
	    sizeof *g->clique)) == NULL ||
	    (g->recursive = malloc(nfuncs ? nfuncs : 1)) == NULL) {
		callgraph_free(g);
		return (NULL);
	}
	memcpy(g->clique, clique, (size_t)nfuncs * sizeof *g->clique);
	memcpy(g->recursive, recursive, nfuncs);
	if (callgraph_sized(g) == -1) {
		callgraph_free(g);
		return (NULL);
	}
	return (g);
}

/* Free a call graph. */
void
callgraph_free(struct callgraph *g)
{
	if (g == NULL)
		return;
	free(g->clique);
	free(g->size);
	free(g->recursive);
	free(g);
}

/*
 * Is clique c recursive (several members, or one that calls itself)?
 * c is a clique id, i.e. its smallest member.
 */
int
callgraph_recursive(const struct callgraph *g, uint32_t c)
{
	if (c >= g->nfuncs || g->clique[c] != c)
		return (0);
	return (g->recursive[c]);
}

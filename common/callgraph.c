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
#include "profile.h"
#include "scc.h"

/* The function call graph and its cliques (see callgraph.h). */

/*
 * Build the call graph and cliques of a profile; NULL if out of memory
 * or over the cost budget (cost_over tells which). Its passes are over
 * the nodes (twice) and the functions (a few times): charged up front,
 * since none can stop half way more cheaply than not start.
 */
struct callgraph *
callgraph_create(const struct profile *p, struct cost *cost)
{
	struct callgraph	*g;
	uint32_t		*fill = NULL, *comp = NULL, *min = NULL;
	uint32_t		 n, f, i, o, k, nf = p->nfuncs;
	int64_t			 nc;

	if (cost_charge(cost, (uint64_t)p->nnodes * 2 +
	    (uint64_t)p->nfuncs * 4) == -1)
		return (NULL);
	if ((g = calloc(1, sizeof *g)) == NULL)
		return (NULL);
	g->nfuncs = nf;
	if ((g->off = calloc((size_t)nf + 1, sizeof *g->off)) == NULL ||
	    (g->adj = malloc((p->nnodes > 1 ? p->nnodes - 1 : 1) *
	    sizeof *g->adj)) == NULL ||
	    (g->clique = malloc((nf ? nf : 1) * sizeof *g->clique)) == NULL ||
	    (g->size = calloc(nf ? nf : 1, sizeof *g->size)) == NULL ||
	    (fill = calloc(nf ? nf : 1, sizeof *fill)) == NULL ||
	    (comp = malloc((nf ? nf : 1) * sizeof *comp)) == NULL)
		goto fail;

	/* Counting sort of the (caller, callee) pairs of every node. */
	for (n = 1; n < p->nnodes; n++)
		g->off[p->node_func[p->node_parent[n]] + 1]++;
	for (f = 0; f < nf; f++)
		g->off[f + 1] += g->off[f];
	for (n = 1; n < p->nnodes; n++) {
		f = p->node_func[p->node_parent[n]];
		g->adj[g->off[f] + fill[f]++] = p->node_func[n];
	}
	/*
	 * Drop duplicate edges, compacting in place: fill[h] remembers the
	 * last caller that had h (plus one), which needs no sorting.
	 */
	memset(fill, 0, (nf ? nf : 1) * sizeof *fill);
	for (f = 0, o = 0; f < nf; f++) {
		uint32_t	 b = g->off[f], e = g->off[f + 1];

		g->off[f] = o;
		for (i = b; i < e; i++) {
			if (fill[g->adj[i]] != f + 1) {
				fill[g->adj[i]] = f + 1;
				g->adj[o++] = g->adj[i];
			}
		}
	}
	g->off[nf] = o;

	if ((nc = scc_tarjan(nf, g->off, g->adj, comp)) == -1)
		goto fail;
	g->ncliques = (uint32_t)nc;
	/* Name each component by its smallest member. */
	if ((min = malloc((nc ? nc : 1) * sizeof *min)) == NULL)
		goto fail;
	for (k = 0; k < nc; k++)
		min[k] = SCC_NONE;
	for (f = 0; f < nf; f++) {
		if (f < min[comp[f]])
			min[comp[f]] = f;
	}
	for (f = 0; f < nf; f++) {
		g->clique[f] = min[comp[f]];
		g->size[g->clique[f]]++;
	}
	/* Recursive: several members, or one that calls itself. */
	if ((g->recursive = calloc(nf ? nf : 1, 1)) == NULL)
		goto fail;
	for (f = 0; f < nf; f++) {
		if (g->size[g->clique[f]] > 1 || callgraph_calls(g, f, f))
			g->recursive[g->clique[f]] = 1;
	}
	for (f = 0; f < nf; f++)
		g->nrecursive += g->recursive[f];
	free(fill);
	free(comp);
	free(min);
	return (g);
fail:
	free(fill);
	free(comp);
	free(min);
	callgraph_free(g);
	return (NULL);
}

/*
 * The profile's call graph, built on its first query (charging that
 * query's cost) and kept with the profile (profile_derived); NULL if out
 * of memory or over the budget. Not to be freed.
 */
const struct callgraph *
callgraph_get(const struct profile *p, struct cost *cost)
{
	struct profile_derived	*d;

	if ((d = profile_derived(p)) == NULL)
		return (NULL);
	if (d->graph == NULL)
		d->graph = callgraph_create(p, cost);
	return (d->graph);
}

/* Free a call graph. */
void
callgraph_free(struct callgraph *g)
{
	if (g == NULL)
		return;
	free(g->off);
	free(g->adj);
	free(g->clique);
	free(g->size);
	free(g->recursive);
	free(g);
}

/* Does function f call function h directly? */
int
callgraph_calls(const struct callgraph *g, uint32_t f, uint32_t h)
{
	uint32_t	 i;

	if (f >= g->nfuncs)
		return (0);
	for (i = g->off[f]; i < g->off[f + 1]; i++) {
		if (g->adj[i] == h)
			return (1);
	}
	return (0);
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

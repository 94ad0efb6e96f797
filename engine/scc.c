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

#include "scc.h"

/* Tarjan's strongly connected components (see scc.h). */

/*
 * Number the components of the graph of n vertices into comp[n]: two
 * vertices get the same number when each reaches the other. Components
 * come out in reverse topological order (every edge leaving a component
 * goes to one with a smaller number). Returns the number of components,
 * or -1 if out of memory.
 *
 * The recursion of the textbook version becomes a stack of vertices whose
 * edges are being explored, each with a cursor into its edge list (pos);
 * "returning" from w to its caller v folds low[w] into low[v]. A vertex is
 * on Tarjan's stack while it has an index and no component yet.
 */
int64_t
scc_tarjan(uint32_t n, const uint32_t *off, const uint32_t *adj,
    uint32_t *comp)
{
	uint32_t	*index = NULL, *low = NULL, *pos = NULL;
	uint32_t	*stack = NULL, *calls = NULL;
	uint32_t	 sp = 0, cp = 0, next = 0, ncomp = 0;
	uint32_t	 s, v, w, u;

	if (n == 0)
		return (0);
	if ((index = malloc(n * sizeof *index)) == NULL ||
	    (low = malloc(n * sizeof *low)) == NULL ||
	    (pos = malloc(n * sizeof *pos)) == NULL ||
	    (stack = malloc(n * sizeof *stack)) == NULL ||
	    (calls = malloc(n * sizeof *calls)) == NULL) {
		free(index);
		free(low);
		free(pos);
		free(stack);
		free(calls);
		return (-1);
	}
	for (v = 0; v < n; v++) {
		index[v] = SCC_NONE;
		comp[v] = SCC_NONE;
	}
	for (s = 0; s < n; s++) {
		if (index[s] != SCC_NONE)
			continue;
		index[s] = low[s] = next++;
		pos[s] = off[s];
		stack[sp++] = s;
		calls[cp++] = s;
		while (cp > 0) {
			v = calls[cp - 1];
			if (pos[v] < off[v + 1]) {
				w = adj[pos[v]++];
				if (index[w] == SCC_NONE) {
					/* "Call" w. */
					index[w] = low[w] = next++;
					pos[w] = off[w];
					stack[sp++] = w;
					calls[cp++] = w;
				} else if (comp[w] == SCC_NONE &&
				    index[w] < low[v])
					low[v] = index[w];
				continue;
			}
			/* All of v's edges are done: "return" from v. */
			cp--;
			if (low[v] == index[v]) {
				do {
					u = stack[--sp];
					comp[u] = ncomp;
				} while (u != v);
				ncomp++;
			}
			if (cp > 0 && low[v] < low[calls[cp - 1]])
				low[calls[cp - 1]] = low[v];
		}
	}
	free(index);
	free(low);
	free(pos);
	free(stack);
	free(calls);
	return (ncomp);
}

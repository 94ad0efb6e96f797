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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "profile.h"
#include "profile-builder.h"
#include "scc.h"
#include "tap.h"

/*
 * Tarjan's SCC (scc.c) on graphs that would overflow a recursive version
 * (chains of 100,000 and 1,000,000 vertices, cycles as long), checked
 * against a naive mutual-reachability computation on random graphs; and
 * the cliques of the function call graph of built profiles.
 */

struct graph {
	uint32_t	 n, m;
	uint32_t	*off, *adj;
};

/* A graph from an edge list (pairs), in compressed rows. */
static struct graph *
graph_make(uint32_t n, const uint32_t *edges, uint32_t m)
{
	struct graph	*g = calloc(1, sizeof *g);
	uint32_t	*fill, i;

	g->n = n;
	g->m = m;
	g->off = calloc(n + 1, sizeof *g->off);
	g->adj = calloc(m ? m : 1, sizeof *g->adj);
	fill = calloc(n ? n : 1, sizeof *fill);
	for (i = 0; i < m; i++)
		g->off[edges[2 * i] + 1]++;
	for (i = 0; i < n; i++)
		g->off[i + 1] += g->off[i];
	for (i = 0; i < m; i++)
		g->adj[g->off[edges[2 * i]] + fill[edges[2 * i]]++] =
		    edges[2 * i + 1];
	free(fill);
	return (g);
}

static void
graph_free(struct graph *g)
{
	free(g->off);
	free(g->adj);
	free(g);
}

/* The chain 0 -> 1 -> ... -> n-1, closed into a cycle if asked. */
static struct graph *
chain(uint32_t n, int cycle)
{
	uint32_t	*e = malloc(2 * (size_t)n * sizeof *e), m = 0, i;
	struct graph	*g;

	for (i = 0; i + 1 < n; i++) {
		e[2 * m] = i;
		e[2 * m++ + 1] = i + 1;
	}
	if (cycle) {
		e[2 * m] = n - 1;
		e[2 * m++ + 1] = 0;
	}
	g = graph_make(n, e, m);
	free(e);
	return (g);
}

static void
test_chains(void)
{
	struct graph	*g;
	uint32_t	*comp, i, n;
	int		 good;
	int64_t		 nc;

	for (n = 100000; n <= 1000000; n *= 10) {
		comp = malloc(n * sizeof *comp);
		g = chain(n, 0);
		nc = scc_tarjan(n, g->off, g->adj, comp);
		is_int(nc, n, "chain of %u: %u components", n, n);
		for (good = 1, i = 0; i < n; i++)
			good &= comp[i] == n - 1 - i;
		ok(good, "chain of %u: reverse topological numbering", n);
		graph_free(g);

		g = chain(n, 1);
		nc = scc_tarjan(n, g->off, g->adj, comp);
		is_int(nc, 1, "cycle of %u: one component", n);
		for (good = 1, i = 0; i < n; i++)
			good &= comp[i] == 0;
		ok(good, "cycle of %u: every vertex in it", n);
		graph_free(g);
		free(comp);
	}
}

/* A chain of 100,000 two-cycles (2i <-> 2i+1, 2i+1 -> 2i+2). */
static void
test_chain_of_cycles(void)
{
	uint32_t	 n = 200000, *e, m = 0, i, *comp;
	struct graph	*g;
	int		 good = 1;
	int64_t		 nc;

	e = malloc(3 * (size_t)n * sizeof *e);
	comp = malloc(n * sizeof *comp);
	for (i = 0; i < n; i += 2) {
		e[2 * m] = i;
		e[2 * m++ + 1] = i + 1;
		e[2 * m] = i + 1;
		e[2 * m++ + 1] = i;
		if (i + 2 < n) {
			e[2 * m] = i + 1;
			e[2 * m++ + 1] = i + 2;
		}
	}
	g = graph_make(n, e, m);
	nc = scc_tarjan(n, g->off, g->adj, comp);
	is_int(nc, n / 2, "chain of %u two-cycles: %u components", n / 2,
	    n / 2);
	for (i = 0; i < n; i += 2)
		good &= comp[i] == comp[i + 1] && comp[i] == (n - i) / 2 - 1;
	ok(good, "each two-cycle is one component, in reverse order");
	graph_free(g);
	free(e);
	free(comp);
}

/* Naive: u and v share a component iff each reaches the other. */
static void
reach(const struct graph *g, uint32_t s, uint8_t *seen, uint32_t *stack)
{
	uint32_t	 sp = 0, v, i;

	memset(seen, 0, g->n);
	seen[s] = 1;
	stack[sp++] = s;
	while (sp > 0) {
		v = stack[--sp];
		for (i = g->off[v]; i < g->off[v + 1]; i++) {
			if (!seen[g->adj[i]]) {
				seen[g->adj[i]] = 1;
				stack[sp++] = g->adj[i];
			}
		}
	}
}

static void
test_random(void)
{
	uint32_t	 n, m, i, u, v, *e, *comp, *stack;
	uint8_t		*r;
	struct graph	*g;
	int		 t, good = 1, topo = 1;

	srandom(7);
	for (t = 0; t < 200; t++) {
		n = 1 + random() % 40;
		m = random() % (3 * n);
		e = malloc(2 * (m ? m : 1) * sizeof *e);
		for (i = 0; i < 2 * m; i++)
			e[i] = random() % n;
		g = graph_make(n, e, m);
		comp = malloc(n * sizeof *comp);
		stack = malloc(n * n * sizeof *stack + 4);
		r = malloc((size_t)n * n);
		scc_tarjan(n, g->off, g->adj, comp);
		for (u = 0; u < n; u++)
			reach(g, u, r + (size_t)u * n, stack);
		for (u = 0; u < n; u++) {
			for (v = 0; v < n; v++) {
				int	 same = r[u * n + v] && r[v * n + u];

				good &= same == (comp[u] == comp[v]);
				/* An edge never goes to a later component. */
				if (r[u * n + v])
					topo &= comp[v] <= comp[u];
			}
		}
		graph_free(g);
		free(e);
		free(comp);
		free(stack);
		free(r);
	}
	ok(good, "200 random graphs: components equal mutual reachability");
	ok(topo, "200 random graphs: reverse topological numbering");
}

/* A profile of one stack of the named frames, depth frames deep. */
static struct profile *
deep_profile(uint32_t depth, uint32_t nnames)
{
	struct profile_builder	*b = profile_builder_create("test");
	uint32_t		*funcs, i, n = PROFILE_ROOT;
	char			 name[32];
	int			 m;
	struct profile		*p;
	char			*cause = NULL;

	m = profile_builder_metric(b, "samples", "count");
	funcs = malloc(nnames * sizeof *funcs);
	for (i = 0; i < nnames; i++) {
		snprintf(name, sizeof name, "f%u", i);
		funcs[i] = profile_builder_func(b, name, strlen(name), "", 0);
	}
	for (i = 0; i < depth; i++)
		n = profile_builder_child(b, n, funcs[i % nnames]);
	profile_builder_add(b, n, m, 1);
	free(funcs);
	p = profile_builder_finish(b, &cause);
	free(cause);
	return (p);
}

static void
test_callgraph(void)
{
	struct profile		*p;
	struct callgraph	*g;

	/* f0 -> f1 -> f0 -> ... 100,000 deep: one clique {f0, f1}. */
	p = deep_profile(100000, 2);
	g = callgraph_create(p, NULL);
	ok(g != NULL, "call graph of a 100,000-deep mutual recursion");
	if (g != NULL) {
		is_int(g->clique[1], 1, "f0 in clique 1");
		is_int(g->clique[2], 1, "f1 in clique 1");
		is_int(g->size[1], 2, "clique 1 has two members");
		is_int(g->nrecursive, 1, "one recursive clique");
		ok(callgraph_recursive(g, 1), "clique 1 is recursive");
		ok(!callgraph_recursive(g, 0), "the root's clique is not");
		is_int(g->ncliques, 2, "two cliques (root and f0/f1)");
	}
	callgraph_free(g);
	profile_free(p);

	/* 100,000 distinct functions in a chain: no recursion at all. */
	p = deep_profile(100000, 100000);
	g = callgraph_create(p, NULL);
	ok(g != NULL, "call graph of a chain of 100,000 functions");
	if (g != NULL) {
		is_int(g->ncliques, 100001, "every function its own clique");
		is_int(g->nrecursive, 0, "none recursive");
	}
	callgraph_free(g);
	profile_free(p);

	/* A cycle through 50,000 functions, twice round: one big clique. */
	p = deep_profile(100000, 50000);
	g = callgraph_create(p, NULL);
	ok(g != NULL, "call graph of a 50,000-function cycle");
	if (g != NULL) {
		is_int(g->size[1], 50000, "one clique of 50,000 members");
		is_int(g->clique[50000], 1, "named by its smallest member");
		is_int(g->nrecursive, 1, "one recursive clique");
	}
	callgraph_free(g);
	profile_free(p);

	/* Direct recursion only: f0 -> f0. */
	p = deep_profile(1000, 1);
	g = callgraph_create(p, NULL);
	ok(g != NULL && callgraph_recursive(g, 1) && g->size[1] == 1,
	    "a self-recursive function is a recursive clique of one");
	callgraph_free(g);
	profile_free(p);
}

int
main(void)
{
	test_chains();
	test_chain_of_cycles();
	test_random();
	test_callgraph();
	return (tap_done());
}

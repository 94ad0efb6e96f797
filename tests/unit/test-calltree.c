/*
 * The calling-context tree estimated from a call graph (calltree.c),
 * built from graphs given directly: the worked example of callgrind's
 * format, recursion cut where a function is already on the path, a
 * cycle nobody enters, the node limit; then random graphs, on which
 * every function's self cost is split exactly over its nodes, no path
 * holds a function twice, and the limit holds.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "profile.h"
#include "profile-builder.h"
#include "tap.h"
#include "walk.h"

#define MAXF	64
#define MAXE	512
#define MAXM	3

struct g {
	struct calltree_graph	 g;
	struct profile_builder	*b;
	uint32_t		 bf[MAXF];	/* graph -> builder function */
	uint32_t		 order[MAXF];	/* graph functions, first use */
	uint32_t		 nused;
	int64_t			 self[MAXF * MAXM];
	struct calltree_edge	 edges[MAXE];
	int64_t			 cost[MAXE * MAXM];
};

/* The builder function of graph function f: "f<f>", made once. */
static uint32_t
func(void *arg, uint32_t f)
{
	struct g	*x = arg;
	char		 name[16];

	if (x->bf[f] != PROFILE_NONE)
		return (x->bf[f]);
	snprintf(name, sizeof name, "f%u", f);
	x->bf[f] = profile_builder_func(x->b, name, strlen(name), "", 0);
	x->order[x->nused++] = f;
	return (x->bf[f]);
}

static void
init(struct g *x, uint32_t nfuncs, int nmetrics)
{
	uint32_t	 f;
	int		 m;
	char		 name[8];

	memset(x, 0, sizeof *x);
	for (f = 0; f < MAXF; f++)
		x->bf[f] = PROFILE_NONE;
	x->g.nfuncs = nfuncs;
	x->g.nmetrics = nmetrics;
	x->g.self = x->self;
	x->g.edges = x->edges;
	x->g.cost = x->cost;
	x->g.func = func;
	x->g.arg = x;
	if ((x->b = profile_builder_create("test")) == NULL)
		abort();
	for (m = 0; m < nmetrics; m++) {
		snprintf(name, sizeof name, "m%d", m);
		profile_builder_metric(x->b, name, "count");
	}
}

static void
edge(struct g *x, uint32_t from, uint32_t to, int64_t cost)
{
	x->edges[x->g.nedges].from = from;
	x->edges[x->g.nedges].to = to;
	x->edges[x->g.nedges].calls = 1;
	x->cost[x->g.nedges * x->g.nmetrics] = cost;
	x->g.nedges++;
}

/* Build and finish; NULL with a diagnostic, or with *cause if asked. */
static struct profile *
build(struct g *x, uint32_t maxnodes, char **cause)
{
	struct profile	*p = NULL;
	char		*why = NULL;

	if (calltree_build(x->b, &x->g, maxnodes, &why) == 0)
		p = profile_builder_finish(x->b, &why);
	else
		profile_builder_free(x->b);
	x->b = NULL;
	if (p == NULL && cause != NULL)
		*cause = why;
	else {
		if (p == NULL)
			diag("build: %s", why ? why : "?");
		free(why);
	}
	return (p);
}

/* Self cost of graph function f summed over its nodes, in metric m. */
static int64_t
self_of(const struct g *x, const struct profile *p, uint32_t f, int m)
{
	return (x->bf[f] == PROFILE_NONE ? 0 :
	    p->metrics[m].func_self[x->bf[f]]);
}

static void
test_example(void)
{
	struct profile	*p;
	struct g	 x;

	/* main (self 5) calls parse (600) and lex (200); parse lex (550). */
	init(&x, 3, 1);
	x.self[0] = 5;
	x.self[1] = 50;
	x.self[2] = 750;
	edge(&x, 0, 1, 600);
	edge(&x, 0, 2, 200);
	edge(&x, 1, 2, 550);
	if ((p = build(&x, 100, NULL)) == NULL)
		return;
	is_int(p->metrics[0].sum, 805, "the example: total 805");
	is_int(p->metrics[0].total[walk_node(p, "f0")], 805,
	    "main, the root, has it all");
	is_int(p->metrics[0].total[walk_node(p, "f0;f1")], 600,
	    "parse: 600");
	is_int(p->metrics[0].self[walk_node(p, "f0;f2")], 200,
	    "lex under main: 200 of its 750");
	is_int(p->metrics[0].self[walk_node(p, "f0;f1;f2")], 550,
	    "lex under parse: 550");
	ok(x.nused == 3 && x.order[0] == 0 && x.order[1] == 1 &&
	    x.order[2] == 2, "functions made in the order the tree meets "
	    "them");
	profile_free(p);
}

static void
test_shapes(void)
{
	struct profile	*p;
	struct g	 x;
	char		*cause = NULL;

	/* a -> b -> a: the second a is not entered. */
	init(&x, 2, 1);
	x.self[0] = 10;
	x.self[1] = 10;
	edge(&x, 0, 1, 15);
	edge(&x, 1, 0, 5);
	if ((p = build(&x, 100, NULL)) != NULL) {
		ok(walk_node(p, "f0;f1") != PROFILE_NONE &&
		    walk_node(p, "f0;f1;f0") == PROFILE_NONE,
		    "recursion is cut where the function is on the path");
		is_int(self_of(&x, p, 0, 0), 10, "a's self stays exact");
		profile_free(p);
	}

	/*
	 * A cycle nobody enters: the one heavier by its self and calls out
	 * (3 + 35 against 30 + 4) is a root.
	 */
	init(&x, 3, 1);
	x.self[0] = 1;
	x.self[1] = 3;
	x.self[2] = 30;
	edge(&x, 1, 2, 35);
	edge(&x, 2, 1, 4);
	if ((p = build(&x, 100, NULL)) != NULL) {
		ok(walk_node(p, "f1;f2") != PROFILE_NONE &&
		    walk_node(p, "f2") == PROFILE_NONE,
		    "the heavier of an unentered cycle is a root");
		is_int(p->metrics[0].sum, 34, "every cost is in the tree");
		profile_free(p);
	}

	/* The root's own cost. */
	init(&x, 1, 2);
	x.self[0] = 4;
	x.self[1] = 2;
	x.g.extra = (const int64_t[]){ 3, 0 };
	if ((p = build(&x, 100, NULL)) != NULL) {
		ok(p->metrics[0].sum == 7 && p->metrics[0].self[PROFILE_ROOT] ==
		    3 && p->metrics[1].sum == 2, "extra is the root's own cost");
		profile_free(p);
	}

	/* Two functions with cost need three nodes with the root. */
	init(&x, 2, 1);
	x.self[0] = 1;
	x.self[1] = 1;
	edge(&x, 0, 1, 1);
	ok(build(&x, 3, &cause) == NULL && cause != NULL &&
	    strstr(cause, "limit of 3") != NULL,
	    "a limit the functions do not fit in is refused");
	free(cause);
}

/* A random graph, the same on every run. */
static void
random_graph(struct g *x, uint32_t *seed, uint32_t nfuncs, uint32_t nedges,
    int nmetrics)
{
	uint32_t	 e, f;
	int		 m;

#define NEXT()	(*seed = *seed * 1103515245u + 12345u, *seed >> 8)
	init(x, nfuncs, nmetrics);
	for (f = 0; f < nfuncs; f++) {
		for (m = 0; m < nmetrics; m++)
			x->self[f * nmetrics + m] = NEXT() % 4 == 0 ? 0 :
			    (int64_t)(NEXT() % 1000);
	}
	for (e = 0; e < nedges; e++) {
		x->edges[e].from = NEXT() % nfuncs;
		x->edges[e].to = NEXT() % nfuncs;
		x->edges[e].calls = 1 + NEXT() % 5;
		for (m = 0; m < nmetrics; m++)
			x->cost[e * nmetrics + m] = (int64_t)(NEXT() % 3000);
	}
	x->g.nedges = nedges;
#undef NEXT
}

static void
test_random(void)
{
	static const uint32_t limits[] = { 1000000, 200, 64 };
	struct profile	*p;
	struct g	 x;
	uint32_t	 seed = 7, round, f, n, k, v, w, depth;
	int64_t		 want[MAXM];
	int		 m, exact, twice, total, nm, l;

	for (round = 0; round < 30; round++) {
		for (l = 0; l < 3; l++) {
			nm = 1 + (int)(round % MAXM);
			/* The same graph for each limit. */
			k = seed;
			random_graph(&x, &k, 8 + round, 4 * (8 + round), nm);
			if ((p = build(&x, limits[l], NULL)) == NULL) {
				ok(0, "graph %u, limit %u builds", round,
				    limits[l]);
				continue;
			}
			exact = total = 1;
			for (m = 0; m < nm; m++)
				want[m] = 0;
			for (f = 0; f < x.g.nfuncs; f++) {
				for (m = 0; m < nm; m++) {
					want[m] += x.self[f * nm + m];
					if (self_of(&x, p, f, m) !=
					    x.self[f * nm + m])
						exact = 0;
				}
			}
			for (m = 0; m < nm; m++)
				total &= p->metrics[m].sum == want[m];
			/* No function twice on a path. */
			twice = 0;
			for (n = 1; n < p->nnodes && !twice; n++) {
				depth = 0;
				for (v = p->node_parent[n]; v != PROFILE_ROOT &&
				    depth < p->nnodes; v = p->node_parent[v],
				    depth++) {
					if (p->node_func[v] == p->node_func[n])
						twice = 1;
				}
			}
			w = p->nnodes;
			ok(exact && total && !twice && w <= limits[l],
			    "graph %u (%u functions, %d metrics), limit %u: "
			    "self costs exact, totals, no recursion, %u nodes",
			    round, x.g.nfuncs, nm, limits[l], w);
			profile_free(p);
		}
		seed = seed * 69069u + 1u;
	}
}

int
main(void)
{
	test_example();
	test_shapes();
	test_random();
	return (tap_done());
}

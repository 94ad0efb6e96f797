/*
 * aggregate.c's butterfly over the set's span against the walk of the
 * whole tree: on random profiles (repeated functions, deep direct and
 * mutual recursion, node indices out of depth-first order, several
 * metrics, a call-site hook) and on their cache files, for every
 * function and for sets of several, with internal 0 and 1 and every
 * grouping of callers and callees, both must give the same rows in the
 * same order: keys, first nodes, node counts, self and total sums; and
 * so must the span found through the per-function node index of the
 * profile's index (profile-index.c) instead of a scan. Also: which of the two aggregate_butterfly picks, and the cost budget.
 */

#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggregate.h"
#include "cache.h"
#include "cost.h"
#include "profile.h"
#include "profile-index.h"
#include "profile-builder.h"
#include "tap.h"

#define NBY	4	/* enum aggregate_by's values */

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t
next(uint32_t n)
{
	return ((uint32_t)(tap_xorshift(&rng) % n));
}

/*
 * A call-site hook as a format with static sites would have: a site per
 * calling function and callee function, in two variants by the caller's
 * node, and none for some calls (those fall back to the call node).
 */
static int
test_site(const struct profile *p, uint32_t n, struct profile_site *s)
{
	uint32_t	 pn = p->node_parent[n];

	if (pn == PROFILE_NONE || p->node_func[n] % 5 == 4)
		return (-1);
	s->id = p->node_func[pn] * 1000 + p->node_func[n] * 2 + pn % 2;
	s->label = "site";
	s->line = 0;
	return (0);
}

/*
 * A random profile of about nnodes call nodes over nfuncs functions in
 * 3 modules, said to be folded (so that a cache file takes it). Stacks
 * are pushed in random order from random existing nodes, so node
 * indices are not in depth-first order; deep > 0 adds chains of up to
 * deep frames of direct (f f f) and mutual (f g f g) recursion, mixed
 * with other calls.
 */
static struct profile *
gen(uint32_t nnodes, uint32_t nfuncs, uint32_t nmetrics, uint32_t deep,
    int site)
{
	static const char	*mods[] = { "", "lib", "sys" };
	struct profile_builder	*b = profile_builder_create("folded");
	struct profile		*p;
	uint32_t		*func, n, f, g, i, k, len;
	char			 name[32], *cause = NULL;
	int			 m[PROFILE_MAX_METRICS];

	if (b == NULL || (func = calloc(nfuncs, sizeof *func)) == NULL)
		abort();
	for (k = 0; k < nmetrics; k++) {
		snprintf(name, sizeof name, "m%u", k);
		m[k] = profile_builder_metric(b, name, "count");
	}
	for (f = 0; f < nfuncs; f++) {
		snprintf(name, sizeof name, "f%u", f);
		func[f] = profile_builder_func(b, name, strlen(name),
		    mods[f % 3], strlen(mods[f % 3]));
	}
	while (profile_builder_nnodes(b) < nnodes) {
		/* From a random node (often the root), a few frames. */
		n = next(3) == 0 ? PROFILE_ROOT :
		    next(profile_builder_nnodes(b));
		len = 1 + next(6);
		if (deep > 0 && next(4) == 0) {
			/* Recursion: f f f ..., or f g f g ..., now and then
			 * another function between. */
			f = func[next(nfuncs)];
			g = next(2) ? f : func[next(nfuncs)];
			len = 1 + next(deep);
			for (i = 0; i < len; i++) {
				k = next(10) == 0 ? func[next(nfuncs)] :
				    i % 2 ? g : f;
				n = profile_builder_child(b, n, k);
			}
		} else {
			for (i = 0; i < len; i++)
				n = profile_builder_child(b, n,
				    func[next(nfuncs)]);
		}
		if (n == PROFILE_NONE)
			abort();
		for (k = 0; k < nmetrics; k++) {
			if (next(3) != 0)
				profile_builder_add(b, n, m[k], 1 + next(100));
		}
	}
	if (site)
		profile_builder_set_site(b, test_site);
	free(func);
	if ((p = profile_builder_finish(b, &cause)) == NULL)
		abort();
	return (p);
}

static int
rows_same(const struct aggregate_rows *a, const struct aggregate_rows *b)
{
	uint32_t	 i, k = a->nmetrics ? a->nmetrics : 1;

	if (a->n != b->n || a->nmetrics != b->nmetrics)
		return (0);
	for (i = 0; i < a->n; i++) {
		if (a->key[i] != b->key[i] || a->node[i] != b->node[i] ||
		    a->nodes[i] != b->nodes[i] || a->active[i] != 0 ||
		    b->active[i] != 0)
			return (0);
		/* The key map, which finds the rows, agrees too. */
		if (a->map.len > 0 && idmap_get(&a->map, a->key[i]) != i)
			return (0);
	}
	return (memcmp(a->self, b->self, a->n * k * sizeof *a->self) == 0 &&
	    memcmp(a->total, b->total, a->n * k * sizeof *a->total) == 0 &&
	    a->map.len == b->map.len);
}

static int
same(const struct aggregate_butterfly *a, const struct aggregate_butterfly *b)
{
	return (rows_same(&a->callers, &b->callers) &&
	    rows_same(&a->callees, &b->callees) && rows_same(&a->set, &b->set));
}

/*
 * Compare the span (found by a scan, and through the node index) and
 * the walk on every function alone and on nsets random sets, for
 * internal 0 and 1 and every pair of groupings; *rows adds the rows
 * compared. The number of mismatches.
 */
static int
compare(const struct profile *p, uint32_t nsets, uint64_t *rows)
{
	struct aggregate_butterfly	 x, y, z;
	struct aggregate_spec		 s;
	struct profile_index		*ix;
	const struct aggregate_cache	*cache;
	uint32_t			*clique, f, i, k;
	uint8_t				*in;
	int				 bad = 0, internal, cb, eb;

	if ((in = calloc(p->nfuncs, 1)) == NULL ||
	    (clique = calloc(p->nfuncs, sizeof *clique)) == NULL ||
	    (ix = profile_index_create(p)) == NULL ||
	    (cache = profile_index_aggregate(ix, NULL)) == NULL ||
	    cache->nodes == NULL)
		abort();
	/* Cliques as callgraph.c names them: by a member's id. */
	for (f = 0; f < p->nfuncs; f++)
		clique[f] = f < 3 ? f : 1 + f % 4;
	for (i = 0; i < p->nfuncs + nsets; i++) {
		memset(in, 0, p->nfuncs);
		if (i < p->nfuncs)
			in[i] = 1;
		else {
			k = 2 + next(4);
			while (k-- > 0)
				in[next(p->nfuncs)] = 1;
		}
		for (internal = 0; internal < 2; internal++) {
			for (cb = 0; cb < NBY; cb++) {
				for (eb = 0; eb < NBY; eb++) {
					memset(&s, 0, sizeof s);
					s.in = in;
					s.internal = internal;
					s.callers_by = cb;
					s.callees_by = eb;
					s.clique = (cb + eb) % 3 ? clique : NULL;
					if (aggregate_butterfly_how(p, NULL,
					    &s, &x, NULL, AGGREGATE_HOW_SPAN) !=
					    AGGREGATE_HOW_SPAN ||
					    aggregate_butterfly_how(p, cache,
					    &s, &z, NULL, AGGREGATE_HOW_SPAN) !=
					    AGGREGATE_HOW_SPAN ||
					    aggregate_butterfly_how(p, NULL,
					    &s, &y, NULL, AGGREGATE_HOW_WALK) !=
					    AGGREGATE_HOW_WALK || !same(&x, &y) ||
					    !same(&z, &y)) {
						if (bad++ == 0)
							diag("set %u internal "
							    "%d by %d/%d "
							    "differs", i,
							    internal, cb, eb);
					}
					*rows += x.callers.n + x.callees.n;
					aggregate_butterfly_clear(&x);
					aggregate_butterfly_clear(&y);
					aggregate_butterfly_clear(&z);
				}
			}
		}
	}
	profile_index_free(ix);
	free(in);
	free(clique);
	return (bad);
}

/* The profile p written to a cache file in dir and mapped back. */
static struct profile *
recache(const struct profile *p, const char *dir)
{
	char		 src[256], path[256], *cause = NULL;
	struct profile	*c = NULL;
	struct stat	 st;
	FILE		*fp;

	snprintf(src, sizeof src, "%s/src", dir);
	snprintf(path, sizeof path, "%s/cache", dir);
	if ((fp = fopen(src, "w")) == NULL)
		return (NULL);
	fclose(fp);
	if (stat(src, &st) == 0 && cache_write(p, NULL, path, &st,
	    &cause) == 0)
		c = cache_load(path, &st, &cause);
	if (c == NULL)
		diag("cache: %s", cause ? cause : "?");
	free(cause);
	unlink(path);
	unlink(src);
	return (c);
}

/* Which way aggregate_butterfly_how picks on its own, for function f. */
static int
picks(const struct profile *p, uint32_t f)
{
	struct aggregate_butterfly	 x;
	struct aggregate_spec		 s;
	uint8_t				*in;
	int				 how;

	if ((in = calloc(p->nfuncs, 1)) == NULL)
		abort();
	in[f] = 1;
	memset(&s, 0, sizeof s);
	s.in = in;
	s.internal = 1;
	how = aggregate_butterfly_how(p, NULL, &s, &x, NULL,
	    AGGREGATE_HOW_AUTO);
	aggregate_butterfly_clear(&x);
	free(in);
	return (how);
}

/*
 * The budget: the span stops with -1 and the budget spent when it is
 * too small, and answers as the walk when it is enough.
 */
static void
test_cost(const struct profile *p)
{
	struct aggregate_butterfly	 x, y;
	struct aggregate_spec		 s;
	struct cost			 c;
	uint8_t				*in;
	uint64_t			 used;
	int				 r;

	if ((in = calloc(p->nfuncs, 1)) == NULL)
		abort();
	in[1] = 1;
	memset(&s, 0, sizeof s);
	s.in = in;
	s.internal = 1;
	cost_init(&c, 0, 0);
	r = aggregate_butterfly_how(p, NULL, &s, &x, &c, AGGREGATE_HOW_SPAN);
	used = c.used;
	ok(r == AGGREGATE_HOW_SPAN && used > 0 && used < p->nnodes,
	    "cost: the span charged %llu units, under the walk's %u",
	    (unsigned long long)used, p->nnodes);
	aggregate_butterfly_clear(&x);
	cost_init(&c, used, 0);
	r = aggregate_butterfly_how(p, NULL, &s, &x, &c, AGGREGATE_HOW_SPAN);
	ok(r == AGGREGATE_HOW_SPAN && !cost_over(&c) &&
	    aggregate_butterfly_how(p, NULL, &s, &y, NULL,
	    AGGREGATE_HOW_WALK) ==
	    AGGREGATE_HOW_WALK && same(&x, &y),
	    "cost: within a budget of exactly that, the walk's rows");
	aggregate_butterfly_clear(&x);
	aggregate_butterfly_clear(&y);
	cost_init(&c, used - 1, 0);
	r = aggregate_butterfly_how(p, NULL, &s, &x, &c, AGGREGATE_HOW_SPAN);
	ok(r == -1 && cost_over(&c) && x.callers.n == 0 && x.set.n == 0,
	    "cost: one unit less, -1 and the budget spent, no rows");
	cost_init(&c, 10, 0);
	r = aggregate_butterfly(p, NULL, &s, &x, &c);
	ok(r == -1 && cost_over(&c), "cost: aggregate_butterfly stops too");
	free(in);
}

int
main(void)
{
	struct profile	*p, *c;
	char		 dir[] = "/tmp/deepq-butterfly.XXXXXX";
	uint64_t	 rows = 0;
	uint32_t	 i, nnodes, nfuncs, nmetrics, deep;
	int		 bad = 0, badc = 0, nprof = 60, ncache = 0;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return (tap_done());
	}
	for (i = 0; i < (uint32_t)nprof; i++) {
		nnodes = 2 + next(i % 10 == 0 ? 3000 : 400);
		nfuncs = 1 + next(i % 3 == 0 ? 4 : 15);
		nmetrics = 1 + next(3);
		deep = i % 2 ? 0 : i % 4 ? 12 : 300;
		p = gen(nnodes, nfuncs, nmetrics, deep, i % 3 == 1);
		bad += compare(p, 6, &rows) != 0;
		if (i % 4 == 0 && (c = recache(p, dir)) != NULL) {
			badc += compare(c, 3, &rows) != 0;
			ncache++;
			profile_free(c);
		}
		profile_free(p);
	}
	ok(bad == 0, "%d random profiles: the span's rows are the walk's "
	    "(%d differ; %llu rows)", nprof, bad, (unsigned long long)rows);
	ok(ncache > 0 && badc == 0, "%d of them from their cache files: the "
	    "same (%d differ)", ncache, badc);

	/* Shallow: the span. Recursion deeper than the limit: the walk. */
	p = gen(200000, 2000, 1, 0, 0);
	is_int(picks(p, 7), AGGREGATE_HOW_SPAN,
	    "a shallow profile of %u nodes: the span", p->nnodes);
	test_cost(p);
	profile_free(p);
	p = gen(20000, 3, 1, 6000, 0);
	is_int(picks(p, 1), AGGREGATE_HOW_WALK,
	    "recursion 6000 deep in %u nodes: the walk", p->nnodes);
	ok(compare(p, 2, &rows) == 0, "...where the span still agrees");
	profile_free(p);
	rmdir(dir);
	return (tap_done());
}

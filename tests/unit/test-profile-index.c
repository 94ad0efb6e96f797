/*
 * The profile index (profile-index.c) and its per-function node index
 * (funcnodes.c): each function's call nodes against a scan of
 * node_func[] on random profiles (every node once, in increasing order,
 * under its own function), built on first use or by
 * profile_index_prepare() alike, and gaps of 1 to 4 bytes (5 would take
 * 2^28 nodes); what it charges to a budget; a profile with the root alone;
 * the index's parts handed to aggregate.c; that a function's first page
 * is answered within a budget smaller than one pass over the nodes; and
 * answers made with an index kept across queries, the way the server
 * keeps one, byte for byte those made with none (a fresh index each).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "answer.h"
#include "answer-query.h"
#include "callgraph.h"
#include "cost.h"
#include "funcnodes.h"
#include "profile.h"
#include "profile-builder.h"
#include "profile-index.h"
#include "tap.h"

static uint64_t rng = 0x8badf00ddeadbeefULL;

static uint32_t
next(uint32_t n)
{
	return ((uint32_t)(tap_xorshift(&rng) % n));
}

/*
 * A random profile of about nnodes call nodes over nfuncs functions:
 * stacks of 1 to 6 frames pushed from random existing nodes, so the
 * nodes of a function lie anywhere in the arrays.
 */
static struct profile *
gen(uint32_t nnodes, uint32_t nfuncs)
{
	struct profile_builder	*b = profile_builder_create("folded");
	struct profile		*p;
	uint32_t		*func, n, f, i, len;
	char			 name[32], *cause = NULL;
	int			 m;

	if (b == NULL || (func = calloc(nfuncs, sizeof *func)) == NULL)
		abort();
	m = profile_builder_metric(b, "samples", "count");
	for (f = 0; f < nfuncs; f++) {
		snprintf(name, sizeof name, "f%u", f);
		func[f] = profile_builder_func(b, name, strlen(name), "", 0);
	}
	while (profile_builder_nnodes(b) < nnodes) {
		n = next(3) == 0 ? PROFILE_ROOT :
		    next(profile_builder_nnodes(b));
		len = 1 + next(6);
		for (i = 0; i < len; i++)
			n = profile_builder_child(b, n, func[next(nfuncs)]);
		if (n == PROFILE_NONE ||
		    profile_builder_add(b, n, m, 1 + next(100)) == -1)
			abort();
	}
	/* finish frees the builder, whatever it returns. */
	if ((p = profile_builder_finish(b, &cause)) == NULL)
		abort();
	free(func);
	return (p);
}

/*
 * Function f's nodes from the index against a scan: the same nodes in
 * the same (increasing) order. 1 if they agree.
 */
static int
agrees(const struct profile *p, const struct funcnodes *fn, uint32_t f,
    uint32_t *count)
{
	uint32_t	*v, n;
	size_t		 k, got;
	int		 same = 1;

	if ((v = calloc(funcnodes_most(fn, f) + 1, sizeof *v)) == NULL)
		abort();
	got = funcnodes_decode(fn, f, v);
	for (n = 0, k = 0; n < p->nnodes && same; n++) {
		if (p->node_func[n] != f)
			continue;
		if (k >= got || v[k] != n)
			same = 0;
		k++;
	}
	free(v);
	*count = (uint32_t)got;
	return (same && k == got);
}

/* Every function's nodes, on random profiles, lazily and prepared. */
static void
test_func_nodes(void)
{
	struct profile		*p;
	struct profile_index	*ix;
	const struct funcnodes	*fn;
	uint32_t		 i, f, count, total, bad = 0, nodes = 0;
	int			 prepared;

	for (i = 0; i < 40; i++) {
		p = gen(2 + next(i % 8 == 0 ? 20000 : 500), 1 + next(40));
		prepared = i % 2;
		if ((ix = profile_index_create(p)) == NULL ||
		    (prepared && profile_index_prepare(ix, NULL) == -1) ||
		    (fn = profile_index_funcnodes(ix, NULL)) == NULL)
			abort();
		for (f = 0, total = 0; f < p->nfuncs; f++) {
			if (!agrees(p, fn, f, &count))
				bad++;
			total += count;
		}
		if (funcnodes_most(fn, p->nfuncs) != 0 ||
		    funcnodes_decode(fn, p->nfuncs, NULL) != 0)
			bad++;
		if (total != p->nnodes)
			bad++;
		nodes += p->nnodes;
		profile_index_free(ix);
		profile_free(p);
	}
	is_int(bad, 0, "func nodes: 40 random profiles (%u nodes), each "
	    "function's nodes those of a scan, in order", nodes);
}

/* What the index gives aggregate.c, and what it holds when prepared. */
static void
test_prepare(void)
{
	struct profile		*p = gen(5000, 30);
	struct profile_index	*ix, *lazy;
	struct aggregate_cache	*c;
	const struct funcnodes	*fn, *fl;
	uint32_t		*x, *y;
	size_t			 before, nx, ny, bad = 0;
	uint32_t		 f;

	if ((ix = profile_index_create(p)) == NULL ||
	    (lazy = profile_index_create(p)) == NULL)
		abort();
	ok(profile_index_profile(ix) == p, "prepare: the index is of p");
	before = profile_index_memory(ix);
	ok(profile_index_prepare(ix, NULL) == 0, "prepare: succeeds");
	fn = profile_index_funcnodes(ix, NULL);
	ok(fn != NULL && profile_index_memory(ix) >= before +
	    funcnodes_memory(fn), "prepare: the node index is counted "
	    "(%zu -> %zu bytes, %zu of them the node index's for %u nodes)",
	    before, profile_index_memory(ix), fn ? funcnodes_memory(fn) : 0,
	    p->nnodes);
	c = profile_index_aggregate(ix, NULL);
	ok(c != NULL && c->memo != NULL && c->nodes == fn,
	    "prepare: aggregate.c gets the memo and the same node index");
	ok(profile_index_callgraph(ix, NULL) ==
	    profile_index_callgraph(ix, NULL),
	    "prepare: the call graph is built once");
	/* The lazy index builds the same lists on first use. */
	c = profile_index_aggregate(lazy, NULL);
	fl = c->nodes;
	if ((x = calloc(p->nnodes, sizeof *x)) == NULL ||
	    (y = calloc(p->nnodes, sizeof *y)) == NULL)
		abort();
	for (f = 0; fl != NULL && f < p->nfuncs; f++) {
		nx = funcnodes_decode(fn, f, x);
		ny = funcnodes_decode(fl, f, y);
		if (nx != ny || memcmp(x, y, nx * sizeof *x) != 0)
			bad++;
	}
	ok(fl != NULL && bad == 0, "lazy: the same node index as prepared");
	free(x);
	free(y);
	profile_index_free(ix);
	profile_index_free(lazy);
	profile_index_free(NULL);
	profile_free(p);
}

/*
 * Gaps of every length the tests can reach: a chain of 3.2 million calls
 * (b c b c ...) with calls of a at steps 0, 1, 100, 20,000, 10^6 and
 * 3.2 * 10^6, whose nodes are then 1 to 2.2 million apart (gaps of 1
 * to 4 bytes; 5 bytes would need 2^28 nodes), decoded back whole.
 */
static void
test_gaps(void)
{
	static const uint32_t	 at[] = { 0, 1, 100, 20000, 1000000, 3200000 };
	struct profile_builder	*b = profile_builder_create("folded");
	struct profile		*p;
	struct profile_index	*ix;
	const struct funcnodes	*fn;
	uint32_t		 fa, fb, fc, n, i, k, count;
	char			*cause = NULL;
	int			 m;

	if (b == NULL)
		abort();
	m = profile_builder_metric(b, "samples", "count");
	fa = profile_builder_func(b, "a", 1, "", 0);
	fb = profile_builder_func(b, "b", 1, "", 0);
	fc = profile_builder_func(b, "c", 1, "", 0);
	for (i = 0, k = 0, n = PROFILE_ROOT; i <= 3200000; i++) {
		if (k < sizeof at / sizeof at[0] && at[k] == i) {
			if (profile_builder_add(b, profile_builder_child(b, n,
			    fa), m, 1) == -1)
				abort();
			k++;
		}
		n = profile_builder_child(b, n, i % 2 ? fb : fc);
	}
	if (profile_builder_add(b, n, m, 1) == -1 ||
	    (p = profile_builder_finish(b, &cause)) == NULL)
		abort();
	if ((ix = profile_index_create(p)) == NULL ||
	    (fn = profile_index_funcnodes(ix, NULL)) == NULL)
		abort();
	ok(agrees(p, fn, fa, &count) && count == 6 &&
	    funcnodes_most(fn, fa) > 12, "gaps: a's 6 nodes, %zu bytes, "
	    "decode whole", funcnodes_most(fn, fa));
	ok(agrees(p, fn, fb, &count) && agrees(p, fn, fc, &count) &&
	    agrees(p, fn, PROFILE_ROOT, &count),
	    "gaps: b, c and the root decode whole");
	ok(funcnodes_memory(fn) < (size_t)p->nnodes * 2,
	    "gaps: %zu bytes for %u nodes", funcnodes_memory(fn), p->nnodes);
	profile_index_free(ix);
	profile_free(p);
}

/* The budget: the node index is charged, and not built past it. */
static void
test_cost(void)
{
	struct profile		*p = gen(100000, 50);
	struct profile_index	*ix;
	struct cost		 c;
	uint64_t		 used;

	if ((ix = profile_index_create(p)) == NULL)
		abort();
	cost_init(&c, 0, 0);
	ok(profile_index_funcnodes(ix, &c) != NULL && c.used > 0 &&
	    c.used < p->nnodes,
	    "cost: the node index charged %llu units for %u nodes, less "
	    "than a walk", (unsigned long long)c.used, p->nnodes);
	used = c.used;
	cost_init(&c, 0, 0);
	(void)profile_index_funcnodes(ix, &c);
	is_int(c.used, 0, "cost: once built, nothing more");
	profile_index_free(ix);
	if ((ix = profile_index_create(p)) == NULL)
		abort();
	cost_init(&c, used - 1, 0);
	ok(profile_index_funcnodes(ix, &c) == NULL && cost_over(&c),
	    "cost: a unit short, no index and the budget spent");
	ok(profile_index_prepare(ix, &c) == -1,
	    "cost: prepare fails over the budget");
	ok(profile_index_funcnodes(ix, NULL) != NULL,
	    "cost: built later without a budget");
	profile_index_free(ix);
	profile_free(p);
}

/* A profile of the root alone. */
static void
test_empty(void)
{
	struct profile_builder	*b = profile_builder_create("folded");
	struct profile		*p;
	struct profile_index	*ix;
	const struct funcnodes	*fn;
	uint32_t		 v[2], depth = 9, nmod = 9;
	char			*cause = NULL;

	if (b == NULL)
		abort();
	(void)profile_builder_metric(b, "samples", "count");
	if ((p = profile_builder_finish(b, &cause)) == NULL) {
		ok(0, "empty: builds: %s", cause ? cause : "?");
		free(cause);
		return;
	}
	if ((ix = profile_index_create(p)) == NULL)
		abort();
	ok(profile_index_prepare(ix, NULL) == 0 &&
	    (fn = profile_index_funcnodes(ix, NULL)) != NULL &&
	    funcnodes_most(fn, PROFILE_ROOT) == 1 &&
	    funcnodes_decode(fn, PROFILE_ROOT, v) == 1 && v[0] == PROFILE_ROOT,
	    "empty: the root is the root's one node");
	ok(profile_index_max_depth(ix, &depth) == 0 && depth == 0 &&
	    profile_index_nmodules(ix, &nmod) == 0 && nmod == 0,
	    "empty: depth 0, no modules");
	profile_index_free(ix);
	profile_free(p);
}

/*
 * Pages made with one index kept across the queries (memo, node index,
 * call graph, sorted children as the server keeps them) against pages
 * made each with a fresh index of their own (answer_query's when the
 * context has none): the same status and bytes.
 */
static void
test_answers(void)
{
	static const char *const qs[] = {
		"cmd=menu", "cmd=func&func=3", "cmd=func&func=3",
		"cmd=callers&func=3&by=site", "cmd=func&func=7&format=json",
		"cmd=cliques", "cmd=modules", "cmd=top", "cmd=tree",
		"cmd=tree&path=1,2", "cmd=search&find=f1", "cmd=func&func=3",
		"cmd=func&func=3&t=1~ff-3", "cmd=func&func=f5&sort=total",
	};
	struct profile		*p = gen(20000, 25);
	struct answer_context	 kept, fresh;
	struct answer		*a, *b;
	size_t			 i;
	int			 bad = 0;

	memset(&kept, 0, sizeof kept);
	kept.render.link_base = "?";
	kept.report.name = "random";
	fresh = kept;
	if ((kept.report.index = profile_index_create(p)) == NULL ||
	    profile_index_prepare(kept.report.index, NULL) == -1)
		abort();
	for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		a = answer_query(p, qs[i], &kept);
		b = answer_query(p, qs[i], &fresh);
		if (a == NULL || b == NULL || a->status != b->status ||
		    a->len != b->len || memcmp(a->body, b->body, a->len) != 0) {
			diag("%s differs", qs[i]);
			bad++;
		} else if (a->status != 200) {
			diag("%s: %d", qs[i], a->status);
			bad++;
		}
		answer_free(a);
		answer_free(b);
	}
	is_int(bad, 0, "answers: %zu pages with a kept index the same as "
	    "with none", sizeof qs / sizeof qs[0]);
	profile_index_free(kept.report.index);
	profile_free(p);
}

/*
 * No pass over every node: with a budget of a node in 32, less than
 * the scan of node_func[] alone is charged (a unit in 16), a function's
 * first page is answered from a prepared index, and refused (503)
 * without one.
 */
static void
test_no_pass(void)
{
	struct profile		*p = gen(200000, 2000);
	struct answer_context	 with, without;
	struct answer		*a, *b;
	char			 q[64];
	int			 ok200 = 0, refused = 0, i;

	memset(&with, 0, sizeof with);
	with.render.link_base = "?";
	with.report.name = "random";
	with.report.max_cost = p->nnodes / 32;
	without = with;
	if ((with.report.index = profile_index_create(p)) == NULL ||
	    profile_index_prepare(with.report.index, NULL) == -1)
		abort();
	for (i = 1; i <= 10; i++) {
		snprintf(q, sizeof q, "cmd=func&func=%d", i * 150);
		a = answer_query(p, q, &with);
		b = answer_query(p, q, &without);
		ok200 += a != NULL && a->status == 200;
		refused += b != NULL && b->status == 503;
		answer_free(a);
		answer_free(b);
	}
	ok(ok200 == 10 && refused == 10, "no pass: 10 first function pages "
	    "within %llu units for %u nodes with the index (%d), none without "
	    "(%d refused)", (unsigned long long)with.report.max_cost,
	    p->nnodes, ok200, refused);
	profile_index_free(with.report.index);
	profile_free(p);
}

int
main(void)
{
	test_func_nodes();
	test_prepare();
	test_gaps();
	test_cost();
	test_empty();
	test_answers();
	test_no_pass();
	return (tap_done());
}

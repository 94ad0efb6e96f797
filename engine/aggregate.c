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

#include "aggregate.h"
#include "cost.h"
#include "funcgraph.h"
#include "funcnodes.h"
#include "hash.h"
#include "idmap.h"
#include "profile.h"

/* Recursion-safe sums over the calling-context tree (see aggregate.h). */

struct groups_walk {
	const struct profile	*p;
	const uint32_t		*group_of;
	struct aggregate_rows	*rows;
};

struct butterfly_walk {
	const struct profile		*p;
	const struct aggregate_spec	*spec;
	struct aggregate_butterfly	*b;
	int				 failed;
};

/*
 * The part of the tree a butterfly acts on, its span: the set's call
 * nodes, their children, and every ancestor of those (the union of their
 * paths from the root). butterfly_cb does nothing at any other node, so
 * walking the span in the tree's own depth-first order makes it see the
 * very nodes, in the very order, that a walk of the whole tree makes it
 * see, and gives the same rows byte for byte (their order, first nodes
 * and "active" crediting included), at a cost in the set's nodes and
 * their depths instead of the profile's size. That order needs no
 * preorder numbers: a parent's index is below its children's and
 * siblings follow in increasing index order (profile_builder_finish; a
 * cache file holds a built profile's arrays, checksummed), so visiting
 * the span's children of each span node by increasing index is the
 * tree's order restricted to the span.
 */
struct span {
	uint32_t	 n, cap;
	uint32_t	 limit;		/* past it: walk the tree instead */
	uint32_t	*node;		/* [n]: call nodes, as added */
	uint32_t	*up;		/* [n]: the parent's entry, or NONE */
	struct idmap	 seen;		/* call node -> entry */
};

/*
 * When the span is worth it. An entry of the span costs hash probes and
 * reads at scattered addresses, 200 to 400 ns, against 7 to 10 ns a node
 * for the walk, which reads the node arrays almost in order: on wide and
 * mixed profiles of 10^6 and 6.6 10^6 nodes the two break even at a span
 * of 1/30 to 1/50 of the nodes. So past nnodes / SPAN_SHARE entries the
 * span is given up for the walk. Up to there it costs under half the
 * walk (a span of 56,000 at 6.6 10^6 nodes: 21 ms, the walk 50 ms);
 * giving up wastes the climbs done, a fifth of the walk at most (there:
 * 68 ms against 59), and along deep recursion, whose climbs read memory
 * in order, a few percent (0.1 ms on walks of 4 to 10 ms). Spans up to
 * SPAN_MIN entries are always finished, so that small profiles (the
 * tests') take the span too: a fraction of a millisecond at worst.
 */
#define SPAN_SHARE	128
#define SPAN_MIN	1024

/*
 * Finding the set's nodes is a scan of node_func[] in order, SCAN_RUN
 * nodes at a time, a small part of the time a node of the walk takes:
 * charged a unit per SCAN_NODES nodes, SCAN_BLOCK nodes at a time.
 */
#define SCAN_RUN	64
#define SCAN_NODES	16
#define SCAN_BLOCK	4096

/*
 * A memo of the last walks, kept by the profile's index: a page re-sorted,
 * paged or shown in another format asks for the same sums: a pass over
 * every call node (126 ms at 6.6 million nodes), or for a butterfly at
 * least a scan of node_func[] and its span (a few ms). An entry is
 * found by the selection it was asked for (group_of[] or in[] and the
 * groupings), compared in full, never by hash alone.
 */
#define MEMO_ENTRIES	8
#define MEMO_MAX_ROWS	65536	/* larger answers are not kept */

enum memo_kind { MEMO_EMPTY, MEMO_GROUPS, MEMO_BUTTERFLY };

struct memo_entry {
	enum memo_kind		 kind;
	uint64_t		 hash;
	uint64_t		 used;		/* LRU clock */
	uint32_t		 ngroups;
	int			 internal;
	enum aggregate_by	 callers_by, callees_by;
	const uint32_t		*clique;
	void			*sel;		/* group_of or in, copied */
	size_t			 sellen;
	struct aggregate_rows	 rows[3];
};

struct aggregate_memo {
	struct memo_entry	 e[MEMO_ENTRIES];
	uint64_t		 clock;
	uint64_t		 hits;
};

static int	rows_init(struct aggregate_rows *, uint32_t, uint32_t);
static int	rows_copy(struct aggregate_rows *,
		    const struct aggregate_rows *);
static struct memo_entry *memo_find(struct aggregate_memo *, enum memo_kind,
		    const void *, size_t, uint32_t,
		    const struct aggregate_spec *);
static void	memo_keep(struct aggregate_memo *, enum memo_kind, const void *,
		    size_t, uint32_t, const struct aggregate_spec *,
		    const struct aggregate_rows *const *, int);
static void	memo_entry_clear(struct memo_entry *);
static uint32_t	rows_get(struct aggregate_rows *, uint64_t, uint32_t);
static void	rows_enter(const struct profile *, struct aggregate_rows *,
		    uint32_t, uint32_t);
static void	rows_leave(struct aggregate_rows *, uint32_t);
static uint64_t	butterfly_key(const struct profile *,
		    const struct aggregate_spec *, enum aggregate_by,
		    uint32_t, uint32_t, uint32_t);
static void	groups_cb(void *, uint32_t, int);
static void	butterfly_cb(void *, uint32_t, int);
static int	span_add(struct span *, const struct profile *, uint32_t,
		    uint32_t, uint32_t *, struct cost *);
static uint32_t	span_run_is(const uint32_t *, uint32_t);
static uint32_t	span_run_in(const uint32_t *, const uint8_t *);
static int	span_add_node(struct span *, const struct profile *, uint32_t,
		    struct cost *);
static int	span_add_run(struct span *, const struct profile *,
		    const uint8_t *, uint32_t, uint32_t, struct cost *);
static int	span_find(struct span *, const struct profile *,
		    const uint8_t *, struct cost *);
static int	span_find_indexed(struct span *, const struct profile *,
		    const struct aggregate_cache *, const uint8_t *,
		    struct cost *);
static int	span_walk(const struct span *, struct butterfly_walk *,
		    struct cost *);
static void	span_clear(struct span *);

/*
 * Depth-first walk of the subtree of start, without a stack: fn(arg, n, 1)
 * on entering node n, fn(arg, n, 0) on leaving it (after its subtree).
 * Each node entered is charged to cost; -1 (the walk stopped half way)
 * once it is spent.
 */
int
aggregate_walk(const struct profile *p, uint32_t start,
    void (*fn)(void *, uint32_t, int), void *arg, struct cost *cost)
{
	uint32_t	 n = start;

	if (start >= p->nnodes)
		return (0);
	for (;;) {
		if (cost_charge(cost, 1) == -1)
			return (-1);
		fn(arg, n, 1);
		if (p->node_first_child[n] != PROFILE_NONE) {
			n = p->node_first_child[n];
			continue;
		}
		for (;;) {
			fn(arg, n, 0);
			if (n == start)
				return (0);
			if (p->node_next_sibling[n] != PROFILE_NONE) {
				n = p->node_next_sibling[n];
				break;
			}
			n = p->node_parent[n];
		}
	}
}

static int
rows_init(struct aggregate_rows *r, uint32_t nmetrics, uint32_t cap)
{
	memset(r, 0, sizeof *r);
	idmap_init(&r->map);
	r->nmetrics = nmetrics;
	if (cap == 0)
		cap = 16;
	r->cap = cap;
	if ((r->key = calloc(cap, sizeof *r->key)) == NULL ||
	    (r->node = calloc(cap, sizeof *r->node)) == NULL ||
	    (r->nodes = calloc(cap, sizeof *r->nodes)) == NULL ||
	    (r->active = calloc(cap, sizeof *r->active)) == NULL ||
	    (r->self = calloc((size_t)cap * (nmetrics ? nmetrics : 1),
	    sizeof *r->self)) == NULL ||
	    (r->total = calloc((size_t)cap * (nmetrics ? nmetrics : 1),
	    sizeof *r->total)) == NULL)
		return (-1);
	return (0);
}

/* The row for a key, created at the end if new; AGGREGATE_NONE if no memory. */
static uint32_t
rows_get(struct aggregate_rows *r, uint64_t key, uint32_t node)
{
	uint32_t	 i, cap, k = r->nmetrics ? r->nmetrics : 1;
	void		*v;

	if ((i = idmap_get(&r->map, key)) != IDMAP_NONE)
		return (i);
	if (r->n == r->cap) {
		if (r->cap > UINT32_MAX / 2)
			return (AGGREGATE_NONE);
		cap = r->cap * 2;
		if ((v = reallocarray(r->key, cap, sizeof *r->key)) == NULL)
			return (AGGREGATE_NONE);
		r->key = v;
		if ((v = reallocarray(r->node, cap, sizeof *r->node)) == NULL)
			return (AGGREGATE_NONE);
		r->node = v;
		if ((v = reallocarray(r->nodes, cap, sizeof *r->nodes)) ==
		    NULL)
			return (AGGREGATE_NONE);
		r->nodes = v;
		if ((v = reallocarray(r->active, cap, sizeof *r->active)) ==
		    NULL)
			return (AGGREGATE_NONE);
		r->active = v;
		if ((v = reallocarray(r->self, (size_t)cap * k,
		    sizeof *r->self)) == NULL)
			return (AGGREGATE_NONE);
		r->self = v;
		if ((v = reallocarray(r->total, (size_t)cap * k,
		    sizeof *r->total)) == NULL)
			return (AGGREGATE_NONE);
		r->total = v;
		if (r->calls != NULL) {
			if ((v = reallocarray(r->calls, cap,
			    sizeof *r->calls)) == NULL)
				return (AGGREGATE_NONE);
			r->calls = v;
			memset(r->calls + r->cap, 0, (cap - r->cap) *
			    sizeof *r->calls);
		}
		r->cap = cap;
	}
	i = r->n;
	if (idmap_put(&r->map, key, i) == -1)
		return (AGGREGATE_NONE);
	r->key[i] = key;
	r->node[i] = node;
	r->nodes[i] = 0;
	r->active[i] = 0;
	memset(r->self + (size_t)i * k, 0, k * sizeof *r->self);
	memset(r->total + (size_t)i * k, 0, k * sizeof *r->total);
	r->n++;
	return (i);
}

/* Credit node n to row i: self always, total if no ancestor was credited. */
static void
rows_enter(const struct profile *p, struct aggregate_rows *r, uint32_t i,
    uint32_t n)
{
	uint32_t	 k;
	int64_t		*self = r->self + (size_t)i * r->nmetrics;
	int64_t		*total = r->total + (size_t)i * r->nmetrics;

	r->nodes[i]++;
	for (k = 0; k < r->nmetrics; k++)
		self[k] += p->metrics[k].self[n];
	if (r->active[i]++ == 0) {
		for (k = 0; k < r->nmetrics; k++)
			total[k] += p->metrics[k].total[n];
	}
}

static void
rows_leave(struct aggregate_rows *r, uint32_t i)
{
	r->active[i]--;
}

/*
 * Empty rows for nmetrics metrics, room for cap, with a calls column if
 * calls (rows from a call graph: funcgraph.c); -1 if out of memory.
 */
int
aggregate_rows_init(struct aggregate_rows *r, uint32_t nmetrics,
    uint32_t cap, int calls)
{
	if (rows_init(r, nmetrics, cap) == -1 || (calls &&
	    (r->calls = calloc(r->cap, sizeof *r->calls)) == NULL)) {
		aggregate_rows_clear(r);
		return (-1);
	}
	return (0);
}

/* The row of key, added (first node: node) if new; AGGREGATE_NONE if no memory. */
uint32_t
aggregate_rows_row(struct aggregate_rows *r, uint64_t key, uint32_t node)
{
	return (rows_get(r, key, node));
}

/* Free the rows' memory. */
void
aggregate_rows_clear(struct aggregate_rows *r)
{
	free(r->calls);
	free(r->key);
	free(r->node);
	free(r->nodes);
	free(r->active);
	free(r->self);
	free(r->total);
	idmap_clear(&r->map);
	memset(r, 0, sizeof *r);
	idmap_init(&r->map);
}

static void
groups_cb(void *arg, uint32_t n, int enter)
{
	struct groups_walk	*w = arg;
	uint32_t		 g = w->group_of[w->p->node_func[n]];

	if (g == AGGREGATE_NONE)
		return;
	if (enter)
		rows_enter(w->p, w->rows, g, n);
	else
		rows_leave(w->rows, g);
}

/*
 * Values per group, where group_of[f] < ngroups is function f's group
 * (AGGREGATE_NONE: none). Row i of *rows is group i, its key i. Returns
 * -1 if out of memory or over the cost budget (cost_over tells which).
 */
int
aggregate_groups(const struct profile *p, struct aggregate_cache *cache,
    const uint32_t *group_of, uint32_t ngroups, struct aggregate_rows *rows,
    struct cost *cost)
{
	struct aggregate_memo	*memo = cache != NULL ? cache->memo : NULL;
	struct groups_walk	 w;
	struct memo_entry	*m;
	size_t			 sellen = (size_t)p->nfuncs * sizeof *group_of;
	uint32_t		 i;

	/* A call graph's own figures, never the estimated tree's. */
	if (p->funcgraph != NULL)
		return (cost_charge(cost, p->nfuncs) == -1 ||
		    funcgraph_groups(p, group_of, ngroups, rows) == -1 ? -1 :
		    0);
	if ((m = memo_find(memo, MEMO_GROUPS, group_of, sellen, ngroups,
	    NULL)) != NULL) {
		if (rows_copy(rows, &m->rows[0]) == -1) {
			aggregate_rows_clear(rows);
			return (-1);
		}
		return (0);
	}
	if (rows_init(rows, p->nmetrics, ngroups) == -1) {
		aggregate_rows_clear(rows);
		return (-1);
	}
	rows->n = ngroups;
	for (i = 0; i < ngroups; i++) {
		rows->key[i] = i;
		rows->node[i] = PROFILE_NONE;
	}
	w.p = p;
	w.group_of = group_of;
	w.rows = rows;
	if (aggregate_walk(p, PROFILE_ROOT, groups_cb, &w, cost) == -1 ||
	    cost_charge(cost, p->nnodes) == -1) {
		aggregate_rows_clear(rows);
		return (-1);
	}
	for (i = 0; i < p->nnodes; i++) {
		uint32_t	 g = group_of[p->node_func[i]];

		if (g != AGGREGATE_NONE && rows->node[g] == PROFILE_NONE)
			rows->node[g] = i;
	}
	memo_keep(memo, MEMO_GROUPS, group_of, sellen, ngroups, NULL,
	    (const struct aggregate_rows *const []){ rows }, 1);
	return (0);
}

/*
 * The row key of the call that made node n: by the function f at one end
 * (its id, module or clique), or by the call site, which is the hook's
 * static site if the profile has one, else the call node `site'.
 */
static uint64_t
butterfly_key(const struct profile *p, const struct aggregate_spec *s,
    enum aggregate_by by, uint32_t f, uint32_t n, uint32_t site_node)
{
	struct profile_site	 site;

	switch (by) {
	case AGGREGATE_FUNC:
		return (f);
	case AGGREGATE_MODULE:
		return (p->func_module[f]);
	case AGGREGATE_CLIQUE:
		return (s->clique != NULL ? s->clique[f] : f);
	case AGGREGATE_SITE:
		if (p->extra_site != NULL && p->extra_site(p, n, &site) == 0)
			return (site.id);
		break;
	}
	return (AGGREGATE_SITE_NODE | site_node);
}

static void
butterfly_cb(void *arg, uint32_t n, int enter)
{
	struct butterfly_walk		*w = arg;
	const struct profile		*p = w->p;
	const struct aggregate_spec	*s = w->spec;
	uint32_t			 f = p->node_func[n], pf, i;
	uint32_t			 pn = p->node_parent[n];
	int				 in, pin;
	uint64_t			 key;

	in = s->in[f];
	pin = pn != PROFILE_NONE && s->in[p->node_func[pn]];
	if (!in && !pin)
		return;
	if (in) {
		if (enter)
			rows_enter(p, &w->b->set, 0, n);
		else
			rows_leave(&w->b->set, 0);
	}
	if (pn == PROFILE_NONE || (in && pin && !s->internal))
		return;
	/* A call into the set from outside, or between members. */
	pf = p->node_func[pn];
	if (in) {
		key = butterfly_key(p, s, s->callers_by, pf, n, pn);
		if ((i = rows_get(&w->b->callers, key, n)) == AGGREGATE_NONE) {
			w->failed = 1;
			return;
		}
		if (enter)
			rows_enter(p, &w->b->callers, i, n);
		else
			rows_leave(&w->b->callers, i);
	}
	if (pin) {
		key = butterfly_key(p, s, s->callees_by, f, n, n);
		if ((i = rows_get(&w->b->callees, key, n)) == AGGREGATE_NONE) {
			w->failed = 1;
			return;
		}
		if (enter)
			rows_enter(p, &w->b->callees, i, n);
		else
			rows_leave(&w->b->callees, i);
	}
}

/*
 * Add call node n to the span with its ancestors, up to the first one
 * already there, or only n if its parent's entry up is known (else
 * PROFILE_NONE); *entry is n's. 0, 1 if the span would pass its limit,
 * -1 if out of memory or over the cost budget. Each node climbed is
 * charged.
 */
static int
span_add(struct span *t, const struct profile *p, uint32_t n, uint32_t up,
    uint32_t *entry, struct cost *cost)
{
	uint32_t	 id, prev = PROFILE_NONE, steps = 0, cap;
	void		*v;
	int		 r = 0;

	for (;;) {
		steps++;
		if ((id = idmap_get(&t->seen, n)) != IDMAP_NONE)
			break;
		if (t->n == t->limit) {
			r = 1;
			break;
		}
		if (t->n == t->cap) {
			cap = t->cap == 0 ? 1024 : t->cap * 2;
			if (cap > t->limit || t->cap > t->limit / 2)
				cap = t->limit;
			if ((v = reallocarray(t->node, cap, sizeof *t->node)) ==
			    NULL) {
				r = -1;
				break;
			}
			t->node = v;
			if ((v = reallocarray(t->up, cap, sizeof *t->up)) ==
			    NULL) {
				r = -1;
				break;
			}
			t->up = v;
			t->cap = cap;
		}
		id = t->n;
		if (idmap_put(&t->seen, n, id) == -1) {
			r = -1;
			break;
		}
		t->n++;
		t->node[id] = n;
		t->up[id] = up;		/* PROFILE_NONE: the root's */
		if (prev != PROFILE_NONE)
			t->up[prev] = id;
		else
			*entry = id;
		prev = id;
		if (up != PROFILE_NONE ||
		    (n = p->node_parent[n]) == PROFILE_NONE)
			break;
	}
	if (r == 0 && id != IDMAP_NONE && prev != id) {
		/* Stopped at an entry already there. */
		if (prev != PROFILE_NONE)
			t->up[prev] = id;
		else
			*entry = id;
	}
	if (cost_charge(cost, steps) == -1)
		return (-1);
	return (r);
}

/* Is any of the SCAN_RUN functions at v f? */
static uint32_t
span_run_is(const uint32_t *v, uint32_t f)
{
	uint32_t	 j, hit = 0;

	for (j = 0; j < SCAN_RUN; j++)
		hit |= v[j] == f;
	return (hit);
}

/* Is any of the SCAN_RUN functions at v in in[]? */
static uint32_t
span_run_in(const uint32_t *v, const uint8_t *in)
{
	uint32_t	 j, hit = 0;

	for (j = 0; j < SCAN_RUN; j++)
		hit |= in[v[j]];
	return (hit);
}

/* Add call node i of the set to the span, with its children. */
static int
span_add_node(struct span *t, const struct profile *p, uint32_t i,
    struct cost *cost)
{
	uint32_t	 c, up, entry;
	int		 r;

	if ((r = span_add(t, p, i, PROFILE_NONE, &up, cost)) != 0)
		return (r);
	for (c = p->node_first_child[i]; c != PROFILE_NONE;
	    c = p->node_next_sibling[c]) {
		if ((r = span_add(t, p, c, up, &entry, cost)) != 0)
			return (r);
	}
	return (0);
}

/* Add call nodes [lo, hi) of the set in[] to the span, with their children. */
static int
span_add_run(struct span *t, const struct profile *p, const uint8_t *in,
    uint32_t lo, uint32_t hi, struct cost *cost)
{
	uint32_t	 i;
	int		 r;

	for (i = lo; i < hi; i++) {
		if (in[p->node_func[i]] &&
		    (r = span_add_node(t, p, i, cost)) != 0)
			return (r);
	}
	return (0);
}

/*
 * Find the span of the set in[]: a scan of node_func[] for its nodes,
 * each added with its children. The scan tests SCAN_RUN nodes at a time
 * without a branch, and a set of one function by comparing, which the
 * compiler does several nodes to an instruction: at 6.6 million nodes
 * 1 ms against 5.5 for a branch on in[] per node. 0, 1 if the span
 * passes t->limit, -1 if out of memory or over the cost budget.
 */
static int
span_find(struct span *t, const struct profile *p, const uint8_t *in,
    struct cost *cost)
{
	const uint32_t	*func = p->node_func;
	uint32_t	 i, end, block, only = PROFILE_NONE, nin = 0, hit;
	int		 r;

	for (i = 0; i < p->nfuncs && nin < 2; i++) {
		if (in[i]) {
			only = i;
			nin++;
		}
	}
	if (nin != 1)
		only = PROFILE_NONE;
	for (block = 0; block < p->nnodes; block = end) {
		end = p->nnodes - block > SCAN_BLOCK ? block + SCAN_BLOCK :
		    p->nnodes;
		if (cost_charge(cost, SCAN_BLOCK / SCAN_NODES) == -1)
			return (-1);
		for (i = block; end - i >= SCAN_RUN; i += SCAN_RUN) {
			if (only != PROFILE_NONE)
				hit = span_run_is(func + i, only);
			else
				hit = span_run_in(func + i, in);
			if (hit && (r = span_add_run(t, p, in, i, i + SCAN_RUN,
			    cost)) != 0)
				return (r);
		}
		if ((r = span_add_run(t, p, in, i, end, cost)) != 0)
			return (r);
	}
	return (0);
}

static int
span_node_cmp(const void *a, const void *b)
{
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * span_find with the cache's per-function node index: the set's nodes
 * are read from it in increasing order, as the scan finds them, so the
 * span is the scan's, entry for entry, at a cost in the set's nodes
 * instead of a pass over every node. A set of several functions has its
 * lists merged by a sort. The span holds every node of the set, so a
 * set with more nodes than the limit gives up at once: surely when its
 * bytes in the index pass 5 a node (a node's gap takes 5 at most).
 */
static int
span_find_indexed(struct span *t, const struct profile *p,
    const struct aggregate_cache *c, const uint8_t *in, struct cost *cost)
{
	uint32_t	*all = NULL, f, nin = 0;
	size_t		 most = 0, total = 0, i;
	int		 r = 0;

	if (cost_charge(cost, p->nfuncs / SCAN_NODES + 1) == -1)
		return (-1);
	for (f = 0; f < p->nfuncs; f++) {
		if (in[f]) {
			nin++;
			most += funcnodes_most(c->nodes, f);
		}
	}
	if (most / 5 > t->limit)
		return (1);
	if (most == 0)
		return (0);
	if ((all = reallocarray(NULL, most, sizeof *all)) == NULL)
		return (-1);
	for (f = 0; f < p->nfuncs; f++) {
		if (in[f])
			total += funcnodes_decode(c->nodes, f, all + total);
	}
	if (cost_charge(cost, total / SCAN_NODES + 1) == -1)
		r = -1;
	else if (total > t->limit)
		r = 1;
	else if (nin > 1)
		qsort(all, total, sizeof *all, span_node_cmp);
	for (i = 0; i < total && r == 0; i++)
		r = span_add_node(t, p, all[i], cost);
	free(all);
	return (r);
}

/*
 * Sort the span's keys (node << 32 | entry) by node, v[0..n) with room
 * for n more at tmp: a radix sort by the bytes of the node numbers that
 * differ, the result in v. The nodes are distinct, so the order is the
 * one a comparison sort gives; qsort's comparisons through a function
 * were a tenth of a function's first page.
 */
static void
span_sort(uint64_t *v, uint64_t *tmp, size_t n)
{
	uint64_t	*from = v, *to = tmp, *swap, differ = 0;
	size_t		 i, count[256], sum, c;
	unsigned	 shift;

	for (i = 0; i < n; i++)
		differ |= (v[i] ^ v[0]) >> 32;
	for (shift = 32; shift < 64; shift += 8) {
		if (((differ >> (shift - 32)) & 0xff) == 0)
			continue;
		memset(count, 0, sizeof count);
		for (i = 0; i < n; i++)
			count[(from[i] >> shift) & 0xff]++;
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i] >> shift) & 0xff]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof *v);
}

/*
 * Walk the span in the tree's depth-first order, calling butterfly_cb on
 * entering and leaving each of its nodes, as aggregate_walk would. Each
 * node entered is charged. -1 if out of memory or over the cost budget.
 */
static int
span_walk(const struct span *t, struct butterfly_walk *w, struct cost *cost)
{
	uint64_t	*key = NULL;
	uint32_t	*at = NULL, *node, *up, *first, *next, i, k;
	int		 r = -1;

	if (t->n == 0)
		return (0);
	/* Entries by call node index: parents first, siblings in order. */
	if ((key = reallocarray(NULL, (size_t)t->n * 2, sizeof *key)) == NULL ||
	    (at = reallocarray(NULL, (size_t)t->n * 5, sizeof *at)) == NULL)
		goto out;
	for (i = 0; i < t->n; i++)
		key[i] = (uint64_t)t->node[i] << 32 | i;
	span_sort(key, key + t->n, t->n);
	node = at + t->n;
	up = node + t->n;
	first = up + t->n;
	next = first + t->n;
	for (k = 0; k < t->n; k++)
		at[(uint32_t)key[k]] = k;
	for (k = 0; k < t->n; k++) {
		i = (uint32_t)key[k];
		node[k] = t->node[i];
		up[k] = t->up[i] == PROFILE_NONE ? PROFILE_NONE : at[t->up[i]];
		first[k] = next[k] = PROFILE_NONE;
	}
	/* Backwards, so each child list comes out in increasing order. */
	for (k = t->n - 1; k > 0; k--) {
		next[k] = first[up[k]];
		first[up[k]] = k;
	}

	/* Entry 0 is the root: every node's path ends there. */
	k = 0;
	for (;;) {
		if (cost_charge(cost, 1) == -1)
			goto out;
		butterfly_cb(w, node[k], 1);
		if (first[k] != PROFILE_NONE) {
			k = first[k];
			continue;
		}
		for (;;) {
			butterfly_cb(w, node[k], 0);
			if (k == 0) {
				r = 0;
				goto out;
			}
			if (next[k] != PROFILE_NONE) {
				k = next[k];
				break;
			}
			k = up[k];
		}
	}
out:
	free(key);
	free(at);
	return (r);
}

static void
span_clear(struct span *t)
{
	free(t->node);
	free(t->up);
	idmap_clear(&t->seen);
}

/*
 * A butterfly computed as how says, without the memo: over the set's
 * span if it is small enough (AGGREGATE_HOW_AUTO) or always
 * (AGGREGATE_HOW_SPAN), else by a walk of the whole tree
 * (AGGREGATE_HOW_WALK). Returns how it was computed, or -1 as
 * aggregate_butterfly.
 */
int
aggregate_butterfly_how(const struct profile *p,
    const struct aggregate_cache *cache, const struct aggregate_spec *s,
    struct aggregate_butterfly *b, struct cost *cost, enum aggregate_how how)
{
	struct butterfly_walk	 w;
	struct span		 t;
	int			 r = 1;

	memset(b, 0, sizeof *b);
	if (rows_init(&b->callers, p->nmetrics, 0) == -1 ||
	    rows_init(&b->callees, p->nmetrics, 0) == -1 ||
	    rows_init(&b->set, p->nmetrics, 1) == -1)
		goto fail;
	b->set.n = 1;
	b->set.node[0] = PROFILE_NONE;
	w.p = p;
	w.spec = s;
	w.b = b;
	w.failed = 0;
	if (how != AGGREGATE_HOW_WALK) {
		memset(&t, 0, sizeof t);
		idmap_init(&t.seen);
		t.limit = p->nnodes / SPAN_SHARE;
		if (t.limit < SPAN_MIN)
			t.limit = SPAN_MIN;
		/* A span holds each call node once at most. */
		if (how == AGGREGATE_HOW_SPAN || t.limit > p->nnodes)
			t.limit = p->nnodes;
		if (cache != NULL && cache->nodes != NULL)
			r = span_find_indexed(&t, p, cache, s->in, cost);
		else
			r = span_find(&t, p, s->in, cost);
		if (r == 0)
			r = span_walk(&t, &w, cost);
		span_clear(&t);
		if (r == -1)
			goto fail;
	}
	if (r == 1 && aggregate_walk(p, PROFILE_ROOT, butterfly_cb, &w,
	    cost) == -1)
		goto fail;
	if (w.failed)
		goto fail;
	return (r == 0 ? AGGREGATE_HOW_SPAN : AGGREGATE_HOW_WALK);
fail:
	aggregate_butterfly_clear(b);
	return (-1);
}

/*
 * Callers and callees of the set spec->in, over all contexts: a caller
 * row sums the set's nodes called from that caller (key), a callee row
 * the nodes the set calls, each counted once per row. The set row sums
 * the members' nodes, counted once. Returns -1 if out of memory or over
 * the cost budget (cost_over tells which).
 */
int
aggregate_butterfly(const struct profile *p, struct aggregate_cache *cache,
    const struct aggregate_spec *s, struct aggregate_butterfly *b,
    struct cost *cost)
{
	struct aggregate_memo	*memo = cache != NULL ? cache->memo : NULL;
	struct memo_entry	*m;
	size_t			 sellen = p->nfuncs;

	memset(b, 0, sizeof *b);
	if (p->funcgraph != NULL)
		return (cost_charge(cost, p->nfuncs) == -1 ||
		    funcgraph_butterfly(p, s, b) == -1 ? -1 : 0);
	if ((m = memo_find(memo, MEMO_BUTTERFLY, s->in, sellen, 0, s)) !=
	    NULL) {
		if (rows_copy(&b->callers, &m->rows[0]) == -1 ||
		    rows_copy(&b->callees, &m->rows[1]) == -1 ||
		    rows_copy(&b->set, &m->rows[2]) == -1) {
			aggregate_butterfly_clear(b);
			return (-1);
		}
		return (0);
	}
	if (aggregate_butterfly_how(p, cache, s, b, cost,
	    AGGREGATE_HOW_AUTO) == -1)
		return (-1);
	memo_keep(memo, MEMO_BUTTERFLY, s->in, sellen, 0, s,
	    (const struct aggregate_rows *const []){ &b->callers, &b->callees,
	    &b->set }, 3);
	return (0);
}

/* Free a butterfly's rows. */
void
aggregate_butterfly_clear(struct aggregate_butterfly *b)
{
	aggregate_rows_clear(&b->callers);
	aggregate_rows_clear(&b->callees);
	aggregate_rows_clear(&b->set);
}

/* A deep copy of rows (the key map rebuilt); -1 if out of memory. */
static int
rows_copy(struct aggregate_rows *d, const struct aggregate_rows *s)
{
	uint32_t	 i, k = s->nmetrics ? s->nmetrics : 1;

	if (rows_init(d, s->nmetrics, s->n) == -1)
		return (-1);
	d->n = s->n;
	memcpy(d->key, s->key, (size_t)s->n * sizeof *d->key);
	memcpy(d->node, s->node, (size_t)s->n * sizeof *d->node);
	memcpy(d->nodes, s->nodes, (size_t)s->n * sizeof *d->nodes);
	memcpy(d->self, s->self, (size_t)s->n * k * sizeof *d->self);
	memcpy(d->total, s->total, (size_t)s->n * k * sizeof *d->total);
	if (s->map.len > 0) {
		for (i = 0; i < s->n; i++) {
			if (idmap_put(&d->map, s->key[i], i) == -1)
				return (-1);
		}
	}
	return (0);
}

static int
memo_same(const struct memo_entry *e, enum memo_kind kind, uint64_t hash,
    const void *sel, size_t len, uint32_t ngroups,
    const struct aggregate_spec *s)
{
	if (e->kind != kind || e->hash != hash || e->sellen != len ||
	    e->ngroups != ngroups)
		return (0);
	if (s != NULL && (e->internal != s->internal ||
	    e->callers_by != s->callers_by || e->callees_by != s->callees_by ||
	    e->clique != s->clique))
		return (0);
	return (memcmp(e->sel, sel, len) == 0);
}

static struct memo_entry *
memo_find(struct aggregate_memo *m, enum memo_kind kind, const void *sel,
    size_t len, uint32_t ngroups, const struct aggregate_spec *s)
{
	uint64_t	 hash;
	size_t		 i;

	if (m == NULL)
		return (NULL);
	hash = hash_bytes(sel, len);
	for (i = 0; i < MEMO_ENTRIES; i++) {
		if (memo_same(&m->e[i], kind, hash, sel, len, ngroups, s)) {
			m->e[i].used = ++m->clock;
			m->hits++;
			return (&m->e[i]);
		}
	}
	return (NULL);
}

/*
 * Keep the nrows rows of a finished walk in the least recently used
 * entry. Best effort: out of memory only means no memo.
 */
static void
memo_keep(struct aggregate_memo *m, enum memo_kind kind, const void *sel,
    size_t len, uint32_t ngroups, const struct aggregate_spec *s,
    const struct aggregate_rows *const *rows, int nrows)
{
	struct memo_entry	*e;
	size_t			 i, total = 0;

	for (i = 0; i < (size_t)nrows; i++)
		total += rows[i]->n;
	if (total > MEMO_MAX_ROWS || m == NULL)
		return;
	for (e = &m->e[0], i = 1; i < MEMO_ENTRIES; i++) {
		if (m->e[i].used < e->used)
			e = &m->e[i];
	}
	memo_entry_clear(e);
	if ((e->sel = malloc(len ? len : 1)) == NULL)
		return;
	memcpy(e->sel, sel, len);
	for (i = 0; i < (size_t)nrows; i++) {
		if (rows_copy(&e->rows[i], rows[i]) == -1) {
			memo_entry_clear(e);
			return;
		}
	}
	e->sellen = len;
	e->hash = hash_bytes(sel, len);
	e->ngroups = ngroups;
	if (s != NULL) {
		e->internal = s->internal;
		e->callers_by = s->callers_by;
		e->callees_by = s->callees_by;
		e->clique = s->clique;
	}
	e->used = ++m->clock;
	e->kind = kind;
}

static void
memo_entry_clear(struct memo_entry *e)
{
	size_t	 i;

	for (i = 0; i < 3; i++)
		aggregate_rows_clear(&e->rows[i]);
	free(e->sel);
	memset(e, 0, sizeof *e);
	for (i = 0; i < 3; i++)
		idmap_init(&e->rows[i].map);
}

/* An empty memo; NULL if out of memory. */
struct aggregate_memo *
aggregate_memo_create(void)
{
	return (calloc(1, sizeof(struct aggregate_memo)));
}

/* Free a memo. */
void
aggregate_memo_free(struct aggregate_memo *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	for (i = 0; i < MEMO_ENTRIES; i++)
		memo_entry_clear(&m->e[i]);
	free(m);
}

/* How many walks a memo has saved. */
uint64_t
aggregate_memo_hits(const struct aggregate_memo *m)
{
	return (m != NULL ? m->hits : 0);
}

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
#include "callgraph.h"
#include "cost.h"
#include "funcnodes.h"
#include "idmap.h"
#include "profile.h"
#include "profile-index.h"
#include "strpool.h"
#include "timeline-sums.h"

/* What queries derive from a profile and keep (see profile-index.h). */

struct profile_byfunc;

struct profile_index {
	const struct profile	*p;
	struct callgraph	*graph;		/* profile_index_callgraph() */
	struct funcnodes	*funcnodes;	/* profile_index_funcnodes() */
	struct aggregate_cache	 agg;		/* profile_index_aggregate() */
	int			 have_shape;	/* maxdepth and nmodules are set */
	uint32_t		 maxdepth;	/* profile_index_max_depth() */
	uint32_t		 nmodules;	/* profile_index_nmodules() */
	uint32_t		*children[PROFILE_MAX_METRICS];
	uint32_t		*children_block; /* profile_index_children() */
	uint64_t		*children_bits;	/* its group sizes */
	uint32_t		*func_order[PROFILE_MAX_METRICS][2];
	uint32_t		*func_byname;	/* profile_index_func_order() */
	struct profile_byfunc	*byfunc;	/* profile_index_node_child() */
	struct timeline_sums	*sums;		/* profile_index_prepare() */
};

static void	profile_index_byfunc_free(struct profile_byfunc *);

/* An empty index of profile p; NULL if out of memory. */
struct profile_index *
profile_index_create(const struct profile *p)
{
	struct profile_index	*ix;

	if ((ix = calloc(1, sizeof *ix)) == NULL)
		return (NULL);
	ix->p = p;
	return (ix);
}

/* Free an index and all it holds (never the profile). */
void
profile_index_free(struct profile_index *ix)
{
	uint32_t	 k;

	if (ix == NULL)
		return;
	callgraph_free(ix->graph);
	funcnodes_free(ix->funcnodes);
	aggregate_memo_free(ix->agg.memo);
	for (k = 0; k < PROFILE_MAX_METRICS; k++) {
		free(ix->children[k]);
		free(ix->func_order[k][0]);
		free(ix->func_order[k][1]);
	}
	free(ix->children_block);
	free(ix->children_bits);
	free(ix->func_byname);
	profile_index_byfunc_free(ix->byfunc);
	timeline_sums_free(ix->sums);
	free(ix);
}

/* The profile an index is of. */
const struct profile *
profile_index_profile(const struct profile_index *ix)
{
	return (ix->p);
}

/*
 * Build now what a function's first page needs (the call graph and each
 * function's call nodes), so that no query pays a pass over every node:
 * the server calls it once the profile is loaded. -1 if out of memory
 * or over the budget cost (NULL: none). The timeline's checkpoint sums
 * (timeline-sums.h) are made here too, never by a query: a profile
 * without them answers range= all the same, reading more records.
 */
int
profile_index_prepare(struct profile_index *ix, struct cost *cost)
{
	if (profile_index_callgraph(ix, cost) == NULL ||
	    profile_index_aggregate(ix, cost) == NULL ||
	    (ix->p->funcgraph == NULL && ix->funcnodes == NULL))
		return (-1);
	if (ix->sums == NULL)
		ix->sums = timeline_sums_create(ix->p, cost);
	return (0);
}

/* The timeline's checkpoint sums, if prepared and the profile has them. */
const struct timeline_sums *
profile_index_sums(const struct profile_index *ix)
{
	return (ix->sums);
}

/* Bytes the index holds, roughly (what is built so far). */
size_t
profile_index_memory(const struct profile_index *ix)
{
	const struct profile	*p = ix->p;
	size_t			 n = sizeof *ix;
	uint32_t		 k;

	if (ix->graph != NULL)
		n += (size_t)p->nfuncs * (2 * sizeof(uint32_t) + 1);
	if (ix->funcnodes != NULL)
		n += funcnodes_memory(ix->funcnodes);
	for (k = 0; k < PROFILE_MAX_METRICS; k++) {
		n += ix->children[k] != NULL ? (size_t)p->nnodes * 4 : 0;
		n += ix->func_order[k][0] != NULL ? (size_t)p->nfuncs * 4 : 0;
		n += ix->func_order[k][1] != NULL ? (size_t)p->nfuncs * 4 : 0;
	}
	if (ix->children_block != NULL)
		n += (size_t)p->nnodes / PROFILE_INDEX_CHILD_BLOCK * 4 +
		    (size_t)p->nnodes / 4;
	if (ix->func_byname != NULL)
		n += (size_t)p->nfuncs * 4;
	n += timeline_sums_memory(ix->sums);
	return (n);
}

/*
 * The profile's call graph: from the cliques a cache file kept if the
 * profile was loaded from one (a pass over the functions), else built
 * (two passes over the call nodes, charged to cost). NULL if out of
 * memory or over the budget. Not to be freed.
 */
const struct callgraph *
profile_index_callgraph(struct profile_index *ix, struct cost *cost)
{
	const struct profile	*p = ix->p;

	if (ix->graph == NULL && p->cache_clique != NULL)
		ix->graph = callgraph_from_cliques(p->nfuncs, p->cache_clique,
		    p->cache_recursive);
	else if (ix->graph == NULL)
		ix->graph = callgraph_create(p, cost);
	return (ix->graph);
}

/*
 * The per-function node index (funcnodes.h), built on first use and
 * charged to cost; NULL if out of memory or over the budget.
 */
const struct funcnodes *
profile_index_funcnodes(struct profile_index *ix, struct cost *cost)
{
	if (ix->funcnodes == NULL &&
	    (ix->funcnodes = funcnodes_create(ix->p, cost)) != NULL)
		ix->agg.nodes = ix->funcnodes;
	return (ix->funcnodes);
}

/*
 * What aggregate.c's sums reuse (aggregate.h): the memo and the
 * per-function node index, each made on first use. Never NULL: a part
 * that could not be made is left out, and the sums do without it (a
 * budget already spent stops them at their first charge).
 */
struct aggregate_cache *
profile_index_aggregate(struct profile_index *ix, struct cost *cost)
{
	if (ix->agg.memo == NULL)
		ix->agg.memo = aggregate_memo_create();
	/* A call graph's sums never walk the tree (funcgraph.c). */
	if (ix->p->funcgraph == NULL)
		(void)profile_index_funcnodes(ix, cost);
	return (&ix->agg);
}

/*
 * profile_index_node_child()'s index. A node's children are a list threaded
 * through node_next_sibling: a path into a wide profile walks thousands
 * of them, a cache miss each, and every tree page with path= or open=
 * resolves its paths again (at 6.6 M nodes that walk was a sixth of a
 * new tree page). So a parent with PROFILE_BYFUNC_MIN children or more
 * gets, on its first lookup, its children sorted by function: one run of
 * pairs (function << 32 | child) after a count, found by binary search.
 * All runs share one array of at most PROFILE_BYFUNC_MAX pairs (2 MB),
 * dropped and begun again when full: bounded memory, and at worst the
 * walk of today.
 */
#define PROFILE_BYFUNC_MIN	16
#define PROFILE_BYFUNC_MAX	(1U << 18)

struct profile_byfunc {
	struct idmap	 at;		/* parent -> its run's count in pairs */
	uint64_t	*pairs;
	size_t		 len;
	uint32_t	*tmp;		/* children in list order, for a build */
};

static void
profile_index_byfunc_free(struct profile_byfunc *b)
{
	if (b == NULL)
		return;
	idmap_clear(&b->at);
	free(b->pairs);
	free(b->tmp);
	free(b);
}

static int
profile_index_byfunc_cmp(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* The first of the pairs[0..n) of function f, or PROFILE_NONE. */
static uint32_t
profile_index_byfunc_find(const uint64_t *v, size_t n, uint32_t f)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((uint32_t)(v[mid] >> 32) < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && (uint32_t)(v[lo] >> 32) == f)
		return ((uint32_t)v[lo]);
	return (PROFILE_NONE);
}

/*
 * Index n's k children (k >= PROFILE_BYFUNC_MIN, counted by the caller's
 * walk). -1 if there is no room or memory: the caller walks instead.
 */
static int
profile_index_byfunc_add(const struct profile *p, struct profile_byfunc *b,
    uint32_t n, size_t k)
{
	uint64_t	*v;
	uint32_t	 c;
	size_t		 i;

	if (k + 1 > PROFILE_BYFUNC_MAX)
		return (-1);
	if (b->len + k + 1 > PROFILE_BYFUNC_MAX) {
		idmap_clear(&b->at);
		b->len = 0;
	}
	if (b->pairs == NULL && (b->pairs = malloc(PROFILE_BYFUNC_MAX *
	    sizeof *b->pairs)) == NULL)
		return (-1);
	if (b->tmp == NULL && (b->tmp = malloc(PROFILE_BYFUNC_MAX *
	    sizeof *b->tmp)) == NULL)
		return (-1);
	if (idmap_put(&b->at, n, (uint32_t)b->len) == -1)
		return (-1);
	/*
	 * Sorted by function then by place in the list: a duplicate
	 * function (none in a built profile) finds the first, as the walk.
	 */
	v = b->pairs + b->len + 1;
	i = 0;
	for (c = p->node_first_child[n]; c != PROFILE_NONE && i < k;
	    c = p->node_next_sibling[c], i++) {
		b->tmp[i] = c;
		v[i] = (uint64_t)p->node_func[c] << 32 | i;
	}
	qsort(v, k, sizeof *v, profile_index_byfunc_cmp);
	for (i = 0; i < k; i++)
		v[i] = (v[i] & 0xffffffff00000000ULL) | b->tmp[(uint32_t)v[i]];
	b->pairs[b->len] = k;
	b->len += k + 1;
	return (0);
}

/*
 * The child of node n whose function is f, or PROFILE_NONE: the walk of
 * profile_node_child(), and for a node of PROFILE_BYFUNC_MIN children
 * or more a lookup in its children sorted by function, made on the
 * node's first lookup.
 */
uint32_t
profile_index_node_child(struct profile_index *ix, uint32_t n, uint32_t f)
{
	const struct profile	*p = ix->p;
	struct profile_byfunc	*b = ix->byfunc;
	uint32_t		 c, at, found = PROFILE_NONE;
	size_t			 k = 0;

	if (n >= p->nnodes)
		return (PROFILE_NONE);
	if (b != NULL && (at = idmap_get(&b->at, n)) != IDMAP_NONE)
		return (profile_index_byfunc_find(b->pairs + at + 1, b->pairs[at],
		    f));
	/* The whole list, counted: the index needs its length. */
	for (c = p->node_first_child[n]; c != PROFILE_NONE;
	    c = p->node_next_sibling[c], k++) {
		if (found == PROFILE_NONE && p->node_func[c] == f)
			found = c;
	}
	if (k < PROFILE_BYFUNC_MIN)
		return (found);
	/* Out of memory here costs only the index. */
	if (b == NULL && (b = ix->byfunc = calloc(1, sizeof *b)) != NULL)
		idmap_init(&b->at);
	if (b != NULL)
		(void)profile_index_byfunc_add(p, b, n, k);
	return (found);
}

/* Fill the deepest node's depth and the module count, once. */
static int
profile_index_shape(struct profile_index *ix)
{
	const struct profile	*p = ix->p;
	uint8_t			*seen;
	uint32_t		 n, f, max;

	if (ix->have_shape)
		return (0);
	/* Modules: distinct module string ids of the real functions. */
	if ((seen = calloc(strpool_count(p->strings), 1)) == NULL)
		return (-1);
	/* In a local: through ix, every store might alias the array. */
	for (n = 0, max = 0; n < p->nnodes; n++) {
		if (p->node_depth[n] > max)
			max = p->node_depth[n];
	}
	ix->maxdepth = max;
	ix->nmodules = 0;
	for (f = 1; f < p->nfuncs; f++) {
		if (!seen[p->func_module[f]]++)
			ix->nmodules++;
	}
	free(seen);
	ix->have_shape = 1;
	return (0);
}

/* The depth of the deepest call node; -1 if out of memory. */
int
profile_index_max_depth(struct profile_index *ix, uint32_t *depth)
{
	if (profile_index_shape(ix) == -1)
		return (-1);
	*depth = ix->maxdepth;
	return (0);
}

/* How many distinct modules the real functions have; -1 if out of memory. */
int
profile_index_nmodules(struct profile_index *ix, uint32_t *count)
{
	if (profile_index_shape(ix) == -1)
		return (-1);
	*count = ix->nmodules;
	return (0);
}

/*
 * A child and its weight, gathered once: comparing through the node
 * number (total[x] for every comparison of a qsort) was most of the first
 * tree's cost on a big profile, a cache miss per probe.
 */
struct profile_kid {
	uint64_t	 key;		/* ascending = heaviest first */
	uint32_t	 id;
};

/*
 * The sort key of a total: heaviest first as the tree scores, in doubles
 * (equal doubles tie), as an unsigned key to sort ascending: the double's
 * bits made to order as unsigned integers, then inverted.
 */
static inline uint64_t
profile_index_kid_key(int64_t total)
{
	double		 d = (double)total;
	uint64_t	 u;

	memcpy(&u, &d, sizeof u);
	u = u >> 63 ? ~u : u | (uint64_t)1 << 63;
	return (~u);
}

/*
 * Sort one parent's children v[0..n) heaviest first, then by number,
 * with room for n entries in kid and tmp. The input is in ascending
 * node order, so a stable sort by key alone settles ties by number: an
 * insertion sort for the usual few children, else a radix sort by the
 * bytes of the key that differ (a root's thousands of children, and the
 * wide groups of a big profile, where qsort cost 0.7 s at 6.6 M nodes).
 */
static void
profile_index_children_sort(uint32_t *v, size_t n, const int64_t *total,
    struct profile_kid *kid, struct profile_kid *tmp)
{
	struct profile_kid	 k, *from = kid, *to = tmp, *swap;
	size_t			 i, j, count[256], sum, c;
	uint64_t		 differ = 0;
	unsigned		 shift;

	for (i = 0; i < n; i++) {
		kid[i].key = profile_index_kid_key(total[v[i]]);
		kid[i].id = v[i];
		differ |= kid[i].key ^ kid[0].key;
	}
	if (n <= 16) {
		for (i = 1; i < n; i++) {
			k = kid[i];
			for (j = i; j > 0 && k.key < kid[j - 1].key; j--)
				kid[j] = kid[j - 1];
			kid[j] = k;
		}
	} else {
		for (shift = 0; shift < 64; shift += 8) {
			if (((differ >> shift) & 0xff) == 0)
				continue;
			memset(count, 0, sizeof count);
			for (i = 0; i < n; i++)
				count[(from[i].key >> shift) & 0xff]++;
			for (i = 0, sum = 0; i < 256; i++) {
				c = count[i];
				count[i] = sum;
				sum += c;
			}
			for (i = 0; i < n; i++)
				to[count[(from[i].key >> shift) & 0xff]++] =
				    from[i];
			swap = from;
			from = to;
			to = swap;
		}
	}
	for (i = 0; i < n; i++)
		v[i] = from[i].id;
}

/*
 * The position of the r-th set bit at or after bit b of v (r = 0: the
 * first), which must exist.
 */
static size_t
profile_index_children_select(const uint64_t *v, size_t b, uint32_t r)
{
	uint64_t	 x = v[b / 64] & (~(uint64_t)0 << (b % 64));
	size_t		 w = b / 64;

	/*
	 * Bit by bit, r being below PROFILE_INDEX_CHILD_BLOCK: without a popcnt
	 * instruction (the build targets plain x86-64) a count is a call.
	 */
	for (;;) {
		while (x == 0)
			x = v[++w];
		if (r-- == 0)
			break;
		x &= x - 1;
	}
	return (w * 64 + (size_t)__builtin_ctzll(x));
}

/*
 * The children of node n, heaviest first in metric m, and their number
 * in *count; NULL if out of memory. The first call for a metric sorts
 * every node's children into one array of nnodes - 1 entries grouped by
 * parent (4 bytes a node, kept in the index). Where the groups are
 * is kept once for all metrics, in two parts: where the group of each
 * block of PROFILE_INDEX_CHILD_BLOCK parents starts (4 bytes a block), and the
 * group sizes in unary, a 1 bit for each parent followed by a 0 bit for
 * each of its children, and a last 1 (2 bits a node). Parent i's 1 is
 * then bit i + (where its group starts): from its block's first parent
 * a group is found by counting bits in a word or two, without the
 * binary search over the array whose every probe was two cache misses
 * on a big profile.
 */
const uint32_t *
profile_index_children(struct profile_index *ix, int m, uint32_t n,
    size_t *count)
{
	const struct profile	*p = ix->p;
	struct profile_index	*d = ix;
	struct profile_kid	*kid;
	uint32_t		*v, *at, *blk;
	uint64_t		*bits;
	size_t			 first, nv = p->nnodes - 1, nbits, b, e;
	uint32_t		 c, i, wide;

	*count = 0;
	if (n >= p->nnodes)
		return (NULL);
	if ((v = d->children[m]) == NULL) {
		/* Counting sort by parent, then each group by weight. */
		if ((v = malloc((nv ? nv : 1) * sizeof *v)) == NULL ||
		    (at = calloc((size_t)p->nnodes + 1, sizeof *at)) == NULL) {
			free(v);
			return (NULL);
		}
		for (c = 1; c < p->nnodes; c++)
			at[p->node_parent[c] + 1]++;
		for (i = 0, wide = 0; i < p->nnodes; i++) {
			if (at[i + 1] > wide)
				wide = at[i + 1];
			at[i + 1] += at[i];
		}
		if (d->children_block == NULL) {
			nbits = (size_t)p->nnodes + nv + 1;
			if ((blk = malloc(((size_t)p->nnodes /
			    PROFILE_INDEX_CHILD_BLOCK + 2) * sizeof *blk)) == NULL ||
			    (bits = calloc(nbits / 64 + 1,
			    sizeof *bits)) == NULL) {
				free(blk);
				free(v);
				free(at);
				return (NULL);
			}
			for (i = 0; i <= p->nnodes / PROFILE_INDEX_CHILD_BLOCK + 1;
			    i++)
				blk[i] = at[i * PROFILE_INDEX_CHILD_BLOCK <
				    p->nnodes ? i * PROFILE_INDEX_CHILD_BLOCK :
				    p->nnodes];
			for (i = 0; i <= p->nnodes; i++) {
				b = (size_t)i + at[i];
				bits[b / 64] |= (uint64_t)1 << (b % 64);
			}
			d->children_block = blk;
			d->children_bits = bits;
		}
		for (c = 1; c < p->nnodes; c++)
			v[at[p->node_parent[c]]++] = c;
		if ((kid = reallocarray(NULL, (size_t)wide * 2 + 1,
		    sizeof *kid)) == NULL) {
			free(v);
			free(at);
			return (NULL);
		}
		for (i = 0, first = 0; i < p->nnodes; i++) {
			if (at[i] - first > 1)
				profile_index_children_sort(v + first, at[i] - first,
				    p->metrics[m].total, kid, kid + wide);
			first = at[i];
		}
		free(kid);
		free(at);
		d->children[m] = v;
	}
	/*
	 * The 1 of the block's first parent, then n's (n - first parent
	 * ones further), then the next parent's.
	 */
	c = n - n % PROFILE_INDEX_CHILD_BLOCK;
	b = profile_index_children_select(d->children_bits, (size_t)c +
	    d->children_block[n / PROFILE_INDEX_CHILD_BLOCK], n - c);
	e = profile_index_children_select(d->children_bits, b + 1, 0);
	first = b - n;
	*count = e - b - 1;
	return (v + first);
}

struct func_order_arg {
	const struct profile	*p;
	const int64_t		*key;
};

/* Largest key first, or by name when there is no key; ties by number. */
static int
profile_index_func_order_cmp(const void *a, const void *b, void *arg)
{
	const struct func_order_arg	*o = arg;
	uint32_t			 x = *(const uint32_t *)a;
	uint32_t			 y = *(const uint32_t *)b;
	int				 c;

	if (o->key != NULL) {
		if (o->key[x] != o->key[y])
			return (o->key[x] > o->key[y] ? -1 : 1);
	} else if ((c = strcmp(profile_func_name(o->p, x),
	    profile_func_name(o->p, y))) != 0)
		return (c);
	return (x < y ? -1 : x > y);
}

/*
 * The real functions (1 to nfuncs - 1) in the order of a ranking page:
 * by metric m's total (total set) or self value, largest first, or by
 * name when m is -1; ties by number, so pages are stable. Sorted on the
 * first call and kept in the index (4 bytes a function), so a warm
 * `top' costs a walk of its page, not a sort. NULL if out of memory.
 */
const uint32_t *
profile_index_func_order(struct profile_index *ix, int m, int total)
{
	const struct profile	*p = ix->p;
	struct profile_index	*d = ix;
	struct func_order_arg	 o;
	uint32_t		**slot, *v, f;

	if (m >= (int)p->nmetrics)
		return (NULL);
	slot = m < 0 ? &d->func_byname : &d->func_order[m][total != 0];
	if (*slot != NULL)
		return (*slot);
	if ((v = malloc((p->nfuncs > 1 ? p->nfuncs - 1 : 1) *
	    sizeof *v)) == NULL)
		return (NULL);
	for (f = 1; f < p->nfuncs; f++)
		v[f - 1] = f;
	o.p = p;
	o.key = m < 0 ? NULL : total ? p->metrics[m].func_total :
	    p->metrics[m].func_self;
	if (p->nfuncs > 2)
		qsort_r(v, p->nfuncs - 1, sizeof *v, profile_index_func_order_cmp,
		    &o);
	*slot = v;
	return (v);
}

/* Ask for the memory profile_index_children() reads for node n. */
void
profile_index_children_prefetch(const struct profile_index *ix, uint32_t n)
{
	if (ix->children_block != NULL)
		__builtin_prefetch(&ix->children_block[n /
		    PROFILE_INDEX_CHILD_BLOCK]);
}

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

#include <sys/mman.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "callgraph.h"
#include "funcgraph.h"
#include "idmap.h"
#include "profile.h"
#include "strpool.h"

/* The read-only profile model (see profile.h); building is in profile-builder.c. */

static void	profile_byfunc_free(struct profile_byfunc *);

/* Free a profile. */
void
profile_free(struct profile *p)
{
	uint32_t	 k;

	if (p == NULL)
		return;
	if (p->extra_free != NULL)
		p->extra_free(p->extra);
	funcgraph_free(p->funcgraph);
	if (p->derived != NULL) {
		callgraph_free(p->derived->graph);
		for (k = 0; k < PROFILE_MAX_METRICS; k++) {
			free(p->derived->children[k]);
			free(p->derived->func_order[k][0]);
			free(p->derived->func_order[k][1]);
		}
		free(p->derived->func_byname);
		free(p->derived->children_block);
		aggregate_memo_free(p->derived->aggregate_memo);
		free(p->derived->children_bits);
		profile_byfunc_free(p->derived->byfunc);
		free(p->derived);
	}
	if (p->map != NULL) {
		/* Every array points into the mapping; only the pool is ours. */
		strpool_free(p->strings);
		free(p->source);
		munmap(p->map, p->maplen);
		free(p);
		return;
	}
	for (k = 0; k < p->nmetrics; k++) {
		free(p->metrics[k].name);
		free(p->metrics[k].unit);
		free(p->metrics[k].self);
		free(p->metrics[k].total);
		free(p->metrics[k].func_self);
		free(p->metrics[k].func_total);
	}
	free(p->source);
	strpool_free(p->strings);
	free(p->func_name);
	free(p->func_module);
	free(p->func_file);
	free(p->func_line);
	free(p->node_parent);
	free(p->node_func);
	free(p->node_depth);
	free(p->node_first_child);
	free(p->node_next_sibling);
	free(p->sample_node);
	free(p->sample_weight);
	free(p);
}

/* A string from the pool by id. */
const char *
profile_string(const struct profile *p, uint32_t id)
{
	return (strpool_get(p->strings, id));
}

/* The name of function f. */
const char *
profile_func_name(const struct profile *p, uint32_t f)
{
	if (f >= p->nfuncs)
		return ("");
	return (strpool_get(p->strings, p->func_name[f]));
}

/* The module of function f, "" if none. */
const char *
profile_func_module(const struct profile *p, uint32_t f)
{
	if (f >= p->nfuncs)
		return ("");
	return (strpool_get(p->strings, p->func_module[f]));
}

/* Index of the metric with a name, or -1. */
int
profile_metric_find(const struct profile *p, const char *name)
{
	uint32_t	 k;

	for (k = 0; k < p->nmetrics; k++) {
		if (strcmp(p->metrics[k].name, name) == 0)
			return ((int)k);
	}
	return (-1);
}

/*
 * Units per second of metric k: the rate the reader recorded, else what
 * a time unit implies ("ns" counts 1e9 a second), else 0 (unknown).
 */
double
profile_metric_rate(const struct profile *p, uint32_t k)
{
	static const struct {
		const char	*unit;
		double		 rate;
	} units[] = {
		{ "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 },
	};
	size_t	 i;

	if (k >= p->nmetrics)
		return (0);
	if (p->metrics[k].rate > 0)
		return (p->metrics[k].rate);
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(p->metrics[k].unit, units[i].unit) == 0)
			return (units[i].rate);
	}
	return (0);
}

/*
 * The metric that counts calls ("calls", else "entries"), whose self
 * value at a node is the number of calls into that context; -1 if none.
 */
int
profile_metric_calls(const struct profile *p)
{
	int	 k;

	if ((k = profile_metric_find(p, "calls")) == -1)
		k = profile_metric_find(p, "entries");
	return (k);
}

/*
 * A function by decimal id or by exact name (the first match, in id
 * order); PROFILE_NONE if there is none.
 */
uint32_t
profile_func_find(const struct profile *p, const char *s)
{
	char		*end;
	unsigned long	 v;
	uint32_t	 f;

	if (*s >= '0' && *s <= '9') {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (*end == '\0' && errno == 0 && v < p->nfuncs)
			return ((uint32_t)v);
	}
	for (f = 0; f < p->nfuncs; f++) {
		if (strcmp(profile_func_name(p, f), s) == 0)
			return (f);
	}
	return (PROFILE_NONE);
}

/*
 * profile_node_child()'s index. A node's children are a list threaded
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
profile_byfunc_free(struct profile_byfunc *b)
{
	if (b == NULL)
		return;
	idmap_clear(&b->at);
	free(b->pairs);
	free(b->tmp);
	free(b);
}

static int
profile_byfunc_cmp(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* The first of the pairs[0..n) of function f, or PROFILE_NONE. */
static uint32_t
profile_byfunc_find(const uint64_t *v, size_t n, uint32_t f)
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
profile_byfunc_add(const struct profile *p, struct profile_byfunc *b,
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
	qsort(v, k, sizeof *v, profile_byfunc_cmp);
	for (i = 0; i < k; i++)
		v[i] = (v[i] & 0xffffffff00000000ULL) | b->tmp[(uint32_t)v[i]];
	b->pairs[b->len] = k;
	b->len += k + 1;
	return (0);
}

/* The child of node n whose function is f, or PROFILE_NONE. */
uint32_t
profile_node_child(const struct profile *p, uint32_t n, uint32_t f)
{
	struct profile_derived	*d;
	struct profile_byfunc	*b;
	uint32_t		 c, at, found = PROFILE_NONE;
	size_t			 k = 0;

	if (n >= p->nnodes)
		return (PROFILE_NONE);
	d = p->derived;
	b = d != NULL ? d->byfunc : NULL;
	if (b != NULL && (at = idmap_get(&b->at, n)) != IDMAP_NONE)
		return (profile_byfunc_find(b->pairs + at + 1, b->pairs[at],
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
	if (b == NULL && (d = profile_derived(p)) != NULL &&
	    (b = d->byfunc = calloc(1, sizeof *b)) != NULL)
		idmap_init(&b->at);
	if (b != NULL)
		(void)profile_byfunc_add(p, b, n, k);
	return (found);
}

/* The node at the end of a path of function ids, or PROFILE_NONE. */
uint32_t
profile_node_path(const struct profile *p, const uint32_t *path, size_t n)
{
	uint32_t	 node = PROFILE_ROOT;
	size_t		 i;

	for (i = 0; i < n && node != PROFILE_NONE; i++)
		node = profile_node_child(p, node, path[i]);
	return (node);
}

/* Bytes of memory the profile holds, roughly. */
size_t
profile_memory(const struct profile *p)
{
	/*
	 * The model only: what queries derive and keep (p->derived, the
	 * last member) is a cache of it, and leaving it out keeps the
	 * figure the same whether or not a query has run yet.
	 */
	size_t	 base = offsetof(struct profile, derived), n;

	if (p->map != NULL)
		return (base + p->maplen);
	n = base + strpool_memory(p->strings);
	n += (size_t)p->nfuncs * 4 * sizeof(uint32_t);
	n += (size_t)p->nnodes * 5 * sizeof(uint32_t);
	n += (size_t)p->nmetrics * p->nnodes * 2 * sizeof(int64_t);
	n += (size_t)p->nmetrics * p->nfuncs * 2 * sizeof(int64_t);
	n += (size_t)p->nsamples * (sizeof(uint32_t) + sizeof(int64_t));
	if (p->funcgraph != NULL)
		n += funcgraph_memory(p->funcgraph);
	return (n);
}

/*
 * The profile's derived data (see profile.h), allocated on first use;
 * NULL if out of memory. The profile is const to its queries, but what
 * is derived from it is filled in behind that.
 */
struct profile_derived *
profile_derived(const struct profile *p)
{
	struct profile	*w = (struct profile *)p;

	if (w->derived == NULL)
		w->derived = calloc(1, sizeof *w->derived);
	return (w->derived);
}

/* Fill the deepest node's depth and the module count, once. */
static int
profile_shape(const struct profile *p, struct profile_derived **dp)
{
	struct profile_derived	*d;
	uint8_t			*seen;
	uint32_t		 n, f, max;

	if ((d = *dp = profile_derived(p)) == NULL)
		return (-1);
	if (d->have_shape)
		return (0);
	/* Modules: distinct module string ids of the real functions. */
	if ((seen = calloc(strpool_count(p->strings), 1)) == NULL)
		return (-1);
	/* In a local: through d, every store might alias the array. */
	for (n = 0, max = 0; n < p->nnodes; n++) {
		if (p->node_depth[n] > max)
			max = p->node_depth[n];
	}
	d->maxdepth = max;
	d->nmodules = 0;
	for (f = 1; f < p->nfuncs; f++) {
		if (!seen[p->func_module[f]]++)
			d->nmodules++;
	}
	free(seen);
	d->have_shape = 1;
	return (0);
}

/* The depth of the deepest call node; -1 if out of memory. */
int
profile_max_depth(const struct profile *p, uint32_t *depth)
{
	struct profile_derived	*d;

	if (profile_shape(p, &d) == -1)
		return (-1);
	*depth = d->maxdepth;
	return (0);
}

/* How many distinct modules the real functions have; -1 if out of memory. */
int
profile_nmodules(const struct profile *p, uint32_t *count)
{
	struct profile_derived	*d;

	if (profile_shape(p, &d) == -1)
		return (-1);
	*count = d->nmodules;
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
profile_kid_key(int64_t total)
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
profile_children_sort(uint32_t *v, size_t n, const int64_t *total,
    struct profile_kid *kid, struct profile_kid *tmp)
{
	struct profile_kid	 k, *from = kid, *to = tmp, *swap;
	size_t			 i, j, count[256], sum, c;
	uint64_t		 differ = 0;
	unsigned		 shift;

	for (i = 0; i < n; i++) {
		kid[i].key = profile_kid_key(total[v[i]]);
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
profile_children_select(const uint64_t *v, size_t b, uint32_t r)
{
	uint64_t	 x = v[b / 64] & (~(uint64_t)0 << (b % 64));
	size_t		 w = b / 64;

	/*
	 * Bit by bit, r being below PROFILE_CHILD_BLOCK: without a popcnt
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
 * parent (4 bytes a node, kept with the profile). Where the groups are
 * is kept once for all metrics, in two parts: where the group of each
 * block of PROFILE_CHILD_BLOCK parents starts (4 bytes a block), and the
 * group sizes in unary, a 1 bit for each parent followed by a 0 bit for
 * each of its children, and a last 1 (2 bits a node). Parent i's 1 is
 * then bit i + (where its group starts): from its block's first parent
 * a group is found by counting bits in a word or two, without the
 * binary search over the array whose every probe was two cache misses
 * on a big profile.
 */
const uint32_t *
profile_children(const struct profile *p, int m, uint32_t n, size_t *count)
{
	struct profile_derived	*d;
	struct profile_kid	*kid;
	uint32_t		*v, *at, *blk;
	uint64_t		*bits;
	size_t			 first, nv = p->nnodes - 1, nbits, b, e;
	uint32_t		 c, i, wide;

	*count = 0;
	if ((d = profile_derived(p)) == NULL || n >= p->nnodes)
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
			    PROFILE_CHILD_BLOCK + 2) * sizeof *blk)) == NULL ||
			    (bits = calloc(nbits / 64 + 1,
			    sizeof *bits)) == NULL) {
				free(blk);
				free(v);
				free(at);
				return (NULL);
			}
			for (i = 0; i <= p->nnodes / PROFILE_CHILD_BLOCK + 1;
			    i++)
				blk[i] = at[i * PROFILE_CHILD_BLOCK <
				    p->nnodes ? i * PROFILE_CHILD_BLOCK :
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
				profile_children_sort(v + first, at[i] - first,
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
	c = n - n % PROFILE_CHILD_BLOCK;
	b = profile_children_select(d->children_bits, (size_t)c +
	    d->children_block[n / PROFILE_CHILD_BLOCK], n - c);
	e = profile_children_select(d->children_bits, b + 1, 0);
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
profile_func_order_cmp(const void *a, const void *b, void *arg)
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
 * first call and kept with the profile (4 bytes a function), so a warm
 * `top' costs a walk of its page, not a sort. NULL if out of memory.
 */
const uint32_t *
profile_func_order(const struct profile *p, int m, int total)
{
	struct profile_derived	*d;
	struct func_order_arg	 o;
	uint32_t		**slot, *v, f;

	if ((d = profile_derived(p)) == NULL ||
	    m >= (int)p->nmetrics)
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
		qsort_r(v, p->nfuncs - 1, sizeof *v, profile_func_order_cmp,
		    &o);
	*slot = v;
	return (v);
}

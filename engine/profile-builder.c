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

#include "cause.h"
#include "childset.h"
#include "idmap.h"
#include "lines.h"
#include "profile.h"
#include "profile-builder.h"
#include "strpool.h"
#include "timeline.h"
#include "utf8.h"

/*
 * Profile builder: grows the flat arrays of struct profile while a reader
 * walks its input, with hash maps to find an existing child node or
 * function, then computes inclusive and per-function values once.
 */

struct profile_builder {
	struct profile	*p;
	struct childset	 children;	/* (parent, func) -> node */
	/*
	 * A bit a node: set while the node's only child, if any, is the
	 * node made right after it; its child is then not in the child
	 * set, but found by its id (childset.h).
	 */
	uint64_t	*lazy;
	struct idmap	 funcs;		/* name << 32 | module -> func */
	uint32_t	*byname;	/* name id -> func, for module "" */
	uint32_t	 nbyname;
	uint32_t	 nodecap;
	uint32_t	 funccap;
	uint32_t	 samplecap;
	/*
	 * The sample sequence's run weights, each in the narrowest of 1, 2,
	 * 4 and 8 bytes that holds every one so far: a sampler's runs are
	 * small counts, and 8 bytes a run was a third of what a Gecko load
	 * held while it read the samples. profile_builder_finish hands
	 * them to the profile as they are (p->sample_wsize).
	 */
	void		*weights;
	unsigned	 wsize;		/* bytes a weight */
	struct lines_builder *lines;	/* made by the first line frame */
	uint32_t	 max_nodes;
	struct timeline_builder *times;	/* NULL until a clock is declared */
	int		 times_told;	/* whether the records are complete is
					   known (a derived profile's) */
	int		 grafted;	/* nodes made by profile_builder_graft:
					   the child set does not know them */
	const char	*error;
};

static int	grow(void *, size_t, uint32_t, uint32_t);
static int	grow_raw(void *, size_t, uint32_t);
static int	trim(void *, size_t, uint32_t);
static int	builder_grow_nodes(struct profile_builder *);
static int	builder_grow_nodes_to(struct profile_builder *, uint32_t);
static int	builder_grow_funcs(struct profile_builder *);
static int	builder_compute(struct profile *);
static int	builder_func_totals_by_id(struct profile *, uint32_t *);
static int	builder_index(struct profile_builder *, uint32_t, uint32_t);
static void	builder_times_complete(struct profile *);
static unsigned	builder_wsize(int64_t);
static void	builder_weight_put(void *, unsigned, uint32_t, int64_t);
static int	builder_widen(struct profile_builder *, unsigned);
static int	builder_finish_weights(struct profile_builder *);

/* Resize *pp (elements of size sz) from old to cap elements, zero-filled. */
static int
grow(void *pp, size_t sz, uint32_t old, uint32_t cap)
{
	void	**vp = pp;
	char	 *n;

	if (cap > SIZE_MAX / sz)
		return (-1);
	if ((n = realloc(*vp, (size_t)cap * sz)) == NULL)
		return (-1);
	memset(n + (size_t)old * sz, 0, (size_t)(cap - old) * sz);
	*vp = n;
	return (0);
}

/*
 * Resize *pp to cap elements of size sz, leaving the new ones unset: the
 * node arrays are written as nodes are made, so the growth slack is never
 * touched and, in a large block the allocator maps, costs no resident
 * memory until used.
 */
static int
grow_raw(void *pp, size_t sz, uint32_t cap)
{
	void	**vp = pp;
	void	 *n;

	if (cap > SIZE_MAX / sz)
		return (-1);
	if ((n = realloc(*vp, (size_t)cap * sz)) == NULL)
		return (-1);
	*vp = n;
	return (0);
}

/* Give back the growth slack of *pp beyond n elements (never fails). */
static int
trim(void *pp, size_t sz, uint32_t n)
{
	void	**vp = pp;
	void	 *p;

	if (n > 0 && (p = realloc(*vp, (size_t)n * sz)) != NULL)
		*vp = p;
	return (0);
}

/* Create a builder for a profile of the given format; NULL if out of memory. */
struct profile_builder *
profile_builder_create(const char *format)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 root;

	if ((b = calloc(1, sizeof *b)) == NULL)
		return (NULL);
	if ((p = b->p = calloc(1, sizeof *p)) == NULL)
		goto fail;
	p->format = format;
	childset_init(&b->children);
	idmap_init(&b->funcs);
	b->max_nodes = PROFILE_MAX_NODES;
	b->wsize = 1;
	if ((p->strings = strpool_create()) == NULL)
		goto fail;
	root = profile_builder_func(b, "<root>", 6, "", 0);
	if (root != PROFILE_ROOT || builder_grow_nodes(b) == -1)
		goto fail;
	p->nnodes = 1;
	p->node_parent[0] = PROFILE_NONE;
	p->node_func[0] = PROFILE_ROOT;
	p->node_depth[0] = 0;
	b->lazy[0] = 1;
	return (b);
fail:
	profile_builder_free(b);
	return (NULL);
}

/* Free a builder and the profile it was building. */
void
profile_builder_free(struct profile_builder *b)
{
	if (b == NULL)
		return;
	childset_clear(&b->children);
	free(b->lazy);
	idmap_clear(&b->funcs);
	free(b->byname);
	free(b->weights);
	timeline_builder_free(b->times);
	lines_builder_free(b->lines);
	profile_free(b->p);
	free(b);
}

/* Refuse to grow past n call nodes (a memory bound on untrusted input). */
void
profile_builder_set_max_nodes(struct profile_builder *b, uint32_t n)
{
	b->max_nodes = n;
}

/* The reason for the last failure. */
const char *
profile_builder_error(const struct profile_builder *b)
{
	return (b->error != NULL ? b->error : "out of memory");
}

static int
builder_grow_nodes(struct profile_builder *b)
{
	uint32_t	 old = b->nodecap;

	return (builder_grow_nodes_to(b, old ? (old > UINT32_MAX / 2 ?
	    UINT32_MAX : old * 2) : 1024));
}

/* Room for cap nodes (more than now). */
static int
builder_grow_nodes_to(struct profile_builder *b, uint32_t cap)
{
	struct profile	*p = b->p;
	uint32_t	 old = b->nodecap, m;

	if (grow_raw(&p->node_parent, sizeof *p->node_parent, cap) == -1 ||
	    grow_raw(&p->node_func, sizeof *p->node_func, cap) == -1 ||
	    grow_raw(&p->node_depth, sizeof *p->node_depth, cap) == -1)
		return (-1);
	if (grow(&b->lazy, sizeof *b->lazy, (old + 63) / 64,
	    (cap + 63) / 64) == -1)
		return (-1);
	/* Self values are zeroed node by node in profile_builder_child. */
	for (m = 0; m < p->nmetrics; m++) {
		if (grow_raw(&p->metrics[m].self, sizeof(int64_t), cap) == -1)
			return (-1);
	}
	b->nodecap = cap;
	return (0);
}

static int
builder_grow_funcs(struct profile_builder *b)
{
	struct profile	*p = b->p;
	uint32_t	 old = b->funccap, cap;

	cap = old ? (old > UINT32_MAX / 2 ? UINT32_MAX : old * 2) : 256;
	if (grow(&p->func_name, sizeof *p->func_name, old, cap) == -1 ||
	    grow(&p->func_module, sizeof *p->func_module, old, cap) == -1 ||
	    grow(&p->func_file, sizeof *p->func_file, old, cap) == -1 ||
	    grow(&p->func_line, sizeof *p->func_line, old, cap) == -1)
		return (-1);
	b->funccap = cap;
	return (0);
}

/* Declare a metric column; returns its index, or -1. */
int
profile_builder_metric(struct profile_builder *b, const char *name,
    const char *unit)
{
	struct profile		*p = b->p;
	struct profile_metric	*m;
	uint32_t		 i;
	size_t			 len;

	for (i = 0; i < p->nmetrics; i++) {
		if (strcmp(p->metrics[i].name, name) == 0)
			return ((int)i);
	}
	if (p->nmetrics == PROFILE_MAX_METRICS) {
		b->error = "too many metrics";
		return (-1);
	}
	/*
	 * The metric owns copies of its strings: the pool's buffer moves as
	 * it grows. Counted before anything can fail so profile_free frees.
	 */
	m = &p->metrics[p->nmetrics++];
	if ((m->name = utf8_sanitize(name, strlen(name), &len)) == NULL ||
	    (m->unit = utf8_sanitize(unit, strlen(unit), &len)) == NULL ||
	    (m->self = calloc(b->nodecap ? b->nodecap : 1, sizeof *m->self))
	    == NULL)
		return (-1);
	return ((int)p->nmetrics - 1);
}

/* The unit of metric m ("" if there is no such metric). */
const char *
profile_builder_metric_unit(const struct profile_builder *b, int m)
{
	if (m < 0 || (uint32_t)m >= b->p->nmetrics)
		return ("");
	return (b->p->metrics[m].unit);
}

/* Record metric m's rate in units per second (0 = unknown). */
void
profile_builder_metric_rate(struct profile_builder *b, int m, double rate)
{
	if (m >= 0 && (uint32_t)m < b->p->nmetrics && rate >= 0)
		b->p->metrics[m].rate = rate;
}

/*
 * Intern a string in the profile's pool, as valid UTF-8: names reach
 * JSON and HTML, and a profile is untrusted input.
 */
uint32_t
profile_builder_string(struct profile_builder *b, const char *s, size_t n)
{
	char		*fixed;
	size_t		 len;
	uint32_t	 id;
	int		 odd;

	/* Plain ASCII (nearly every name) is checked while it is hashed. */
	if ((id = strpool_intern_ascii(b->p->strings, s, n, &odd)) !=
	    STRPOOL_NONE || !odd)
		return (id);
	if (utf8_valid(s, n))
		return (strpool_intern(b->p->strings, s, n));
	if ((fixed = utf8_sanitize(s, n, &len)) == NULL)
		return (STRPOOL_NONE);
	id = strpool_intern(b->p->strings, fixed, len);
	free(fixed);
	return (id);
}

/* Find or create the function with a name and module. */
uint32_t
profile_builder_func(struct profile_builder *b, const char *name,
    size_t namelen, const char *module, size_t modlen)
{
	struct profile	*p = b->p;
	uint32_t	 n, m, f;
	uint64_t	 key;

	if ((n = profile_builder_string(b, name, namelen)) == STRPOOL_NONE)
		return (PROFILE_NONE);
	/* Most frames have no module: look those up by name id directly. */
	if (modlen == 0) {
		m = 0;
		if (n < b->nbyname && b->byname[n] != PROFILE_NONE)
			return (b->byname[n]);
	} else if ((m = profile_builder_string(b, module, modlen)) ==
	    STRPOOL_NONE)
		return (PROFILE_NONE);
	key = (uint64_t)n << 32 | m;
	if ((f = idmap_get(&b->funcs, key)) != IDMAP_NONE)
		return (f);
	if (p->nfuncs == PROFILE_MAX_NODES) {
		b->error = "too many functions";
		return (PROFILE_NONE);
	}
	if (p->nfuncs == b->funccap && builder_grow_funcs(b) == -1)
		return (PROFILE_NONE);
	f = p->nfuncs;
	if (idmap_put(&b->funcs, key, f) == -1)
		return (PROFILE_NONE);
	p->func_name[f] = n;
	p->func_module[f] = m;
	p->nfuncs++;
	if (m == 0) {
		if (n >= b->nbyname) {
			uint32_t	 cap = b->nbyname ? b->nbyname : 256;

			while (cap <= n)
				cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
			if (grow(&b->byname, sizeof *b->byname, b->nbyname,
			    cap) == -1)
				return (PROFILE_NONE);
			memset(b->byname + b->nbyname, 0xff,
			    (size_t)(cap - b->nbyname) * sizeof *b->byname);
			b->nbyname = cap;
		}
		b->byname[n] = f;
	}
	return (f);
}

/* The function with a name and module, or PROFILE_NONE; creates none. */
uint32_t
profile_builder_func_find(struct profile_builder *b, const char *name,
    size_t namelen, const char *module, size_t modlen)
{
	uint32_t	 n, m;

	if ((n = profile_builder_string(b, name, namelen)) == STRPOOL_NONE ||
	    (m = profile_builder_string(b, module, modlen)) == STRPOOL_NONE)
		return (PROFILE_NONE);
	return (idmap_get(&b->funcs, (uint64_t)n << 32 | m));
}

/* Record where a function is defined (file and line; 0 for unknown). */
void
profile_builder_func_location(struct profile_builder *b, uint32_t f,
    const char *file, size_t filelen, uint32_t line)
{
	uint32_t	 s;

	if (f >= b->p->nfuncs)
		return;
	if (file != NULL &&
	    (s = profile_builder_string(b, file, filelen)) != STRPOOL_NONE)
		b->p->func_file[f] = s;
	b->p->func_line[f] = line;
}

/* The file (string id, 0 if unknown) recorded for function f. */
uint32_t
profile_builder_func_file(const struct profile_builder *b, uint32_t f)
{
	return (f < b->p->nfuncs ? b->p->func_file[f] : 0);
}

/* Find or create the child of parent for function f. */
uint32_t
profile_builder_child(struct profile_builder *b, uint32_t parent, uint32_t f)
{
	return (profile_builder_child_hashed(b, parent, f,
	    childset_hash(parent, f)));
}

/*
 * Index node n, just made as the last child of q. n starts lazy (no
 * child). While q's only child is q + 1, q stays lazy and the set is not
 * touched: the nodes of a stack no other stack shares are made one
 * after the other, each the only child of the one before, and most
 * nodes of a profile of deep stacks are never looked for through the
 * set. q's second child puts its first in the set, then itself.
 */
static inline int
builder_index(struct profile_builder *b, uint32_t q, uint32_t n)
{
	struct profile	*p = b->p;

	b->lazy[n / 64] |= (uint64_t)1 << (n % 64);
	if (childset_lazy(b->lazy, q)) {
		if (n == q + 1)
			return (0);
		b->lazy[q / 64] &= ~((uint64_t)1 << (q % 64));
		if (q + 1 < n && p->node_parent[q + 1] == q &&
		    childset_add(&b->children, p->node_parent, p->node_func,
		    b->lazy, n, q + 1) == -1)
			return (-1);
	}
	return (childset_add(&b->children, p->node_parent, p->node_func,
	    b->lazy, n + 1, n));
}

/*
 * profile_builder_child with the hash profile_builder_prefetch returned
 * for the same pair: a reader that prefetched does not hash twice.
 */
uint32_t
profile_builder_child_hashed(struct profile_builder *b, uint32_t parent,
    uint32_t f, uint64_t h)
{
	struct profile	*p = b->p;
	uint32_t	 n, m;

	if (parent >= p->nnodes || f >= p->nfuncs || b->grafted) {
		b->error = "bad node or function";
		return (PROFILE_NONE);
	}
	if (childset_lazy(b->lazy, parent)) {
		n = parent + 1;
		if (n < p->nnodes && p->node_parent[n] == parent &&
		    p->node_func[n] == f)
			return (n);
	} else if ((n = childset_find_hashed(&b->children, p->node_parent,
	    p->node_func, parent, f, h)) != CHILDSET_NONE)
		return (n);
	if (p->nnodes >= b->max_nodes) {
		b->error = "too many call nodes";
		return (PROFILE_NONE);
	}
	if (p->nnodes == b->nodecap && builder_grow_nodes(b) == -1)
		return (PROFILE_NONE);
	n = p->nnodes;
	p->node_parent[n] = parent;
	p->node_func[n] = f;
	if (builder_index(b, parent, n) == -1)
		return (PROFILE_NONE);
	p->node_depth[n] = p->node_depth[parent] + 1;
	for (m = 0; m < p->nmetrics; m++)
		p->metrics[m].self[n] = 0;
	p->nnodes++;
	return (n);
}

/*
 * Make a chain of n new nodes: the first a child of parent, which has
 * no child yet (a node made for the frame before, in the same stack),
 * each next a child of the one before, with functions fn[0..n-1]; their
 * ids go to out[]. No lookup is needed, since none of those parents has
 * a child, and each node is its parent's only child, made right after
 * it: the child set is not touched (builder_index). Once a stack leaves
 * the nodes other stacks made, the rest of it is such a chain; in the
 * folded stacks of big programs that is most of every line. -1 with the
 * builder's error set on failure.
 */
int
profile_builder_chain(struct profile_builder *b, uint32_t parent,
    const uint32_t *fn, size_t n, uint32_t *out)
{
	struct profile	*p = b->p;
	uint32_t	 i, m, depth;
	size_t		 k;

	if (parent >= p->nnodes || b->grafted) {
		b->error = "bad node or function";
		return (-1);
	}
	for (k = 0; k < n; k++) {
		if (fn[k] >= p->nfuncs) {
			b->error = "bad node or function";
			return (-1);
		}
	}
	if (n > b->max_nodes - p->nnodes || n > UINT32_MAX - p->nnodes) {
		b->error = "too many call nodes";
		return (-1);
	}
	while (p->nnodes + n > b->nodecap) {
		if (builder_grow_nodes(b) == -1)
			return (-1);
	}
	depth = p->node_depth[parent];
	for (k = 0; k < n; k++) {
		i = p->nnodes;
		p->node_parent[i] = k == 0 ? parent : i - 1;
		p->node_func[i] = fn[k];
		p->node_depth[i] = depth + 1 + (uint32_t)k;
		for (m = 0; m < p->nmetrics; m++)
			p->metrics[m].self[i] = 0;
		if (builder_index(b, p->node_parent[i], i) == -1)
			return (-1);
		p->nnodes++;
		out[k] = i;
	}
	return (0);
}

/*
 * A reader that knows a (parent, function) pair before it asks for the
 * child starts loading the child set's slot, or for a lazy parent the
 * node after it; nothing else changes. The pair's hash is returned for
 * profile_builder_child_hashed.
 */
uint64_t
profile_builder_prefetch(const struct profile_builder *b, uint32_t parent,
    uint32_t f)
{
	uint64_t	 h = childset_hash(parent, f);

	/*
	 * Both ways, without reading whether the parent is lazy: that read
	 * waited for its own miss here.
	 */
	childset_prefetch_hashed(&b->children, h);
	if (parent < b->p->nnodes) {
		__builtin_prefetch(&b->lazy[parent / 64]);
		__builtin_prefetch(&b->p->node_parent[parent + 1]);
		__builtin_prefetch(&b->p->node_func[parent + 1]);
	}
	return (h);
}

/*
 * Later, once the slot is loaded: start loading the node the lookup of
 * hash h most likely finds (its key, then its self values, which a
 * reader adds to next). A hint too.
 */
void
profile_builder_prefetch_node(const struct profile_builder *b, uint64_t h)
{
	const struct profile	*p = b->p;
	uint32_t		 n, m;

	if ((n = childset_peek(&b->children, h)) == 0 || n >= p->nnodes)
		return;
	__builtin_prefetch(&p->node_parent[n]);
	__builtin_prefetch(&p->node_func[n]);
	for (m = 0; m < p->nmetrics; m++)
		__builtin_prefetch(&p->metrics[m].self[n], 1);
}

/* Number of call nodes so far. */
uint32_t
profile_builder_nnodes(const struct profile_builder *b)
{
	return (b->p->nnodes);
}

/* Function of a node built so far. */
uint32_t
profile_builder_node_func(const struct profile_builder *b, uint32_t n)
{
	return (n < b->p->nnodes ? b->p->node_func[n] : PROFILE_NONE);
}

/* Parent of a node built so far. */
uint32_t
profile_builder_node_parent(const struct profile_builder *b, uint32_t n)
{
	return (n < b->p->nnodes ? b->p->node_parent[n] : PROFILE_NONE);
}

/* Add v to the self value of node n in metric m. */
int
profile_builder_add(struct profile_builder *b, uint32_t n, int m, int64_t v)
{
	struct profile	*p = b->p;
	int64_t		*s;

	if (n >= p->nnodes || m < 0 || (uint32_t)m >= p->nmetrics) {
		b->error = "bad node or metric";
		return (-1);
	}
	s = &p->metrics[m].self[n];
	if (__builtin_add_overflow(*s, v, s)) {
		b->error = "value overflows 64 bits";
		return (-1);
	}
	return (0);
}

/* The bytes a run weight w needs: 1, 2, 4 or 8. */
static unsigned
builder_wsize(int64_t w)
{
	if (w >= INT8_MIN && w <= INT8_MAX)
		return (1);
	if (w >= INT16_MIN && w <= INT16_MAX)
		return (2);
	if (w >= INT32_MIN && w <= INT32_MAX)
		return (4);
	return (8);
}

static inline void
builder_weight_put(void *a, unsigned size, uint32_t i, int64_t w)
{
	switch (size) {
	case 1:
		((int8_t *)a)[i] = (int8_t)w;
		break;
	case 2:
		((int16_t *)a)[i] = (int16_t)w;
		break;
	case 4:
		((int32_t *)a)[i] = (int32_t)w;
		break;
	default:
		((int64_t *)a)[i] = w;
		break;
	}
}

/* The run weights in size bytes each (more than now), room kept. */
static int
builder_widen(struct profile_builder *b, unsigned size)
{
	void		*n;
	uint32_t	 i;

	if ((n = malloc((size_t)b->samplecap * size)) == NULL)
		return (-1);
	for (i = 0; i < b->p->nsamples; i++)
		builder_weight_put(n, size, i, profile_weight_at(b->weights,
		    b->wsize, i));
	free(b->weights);
	b->weights = n;
	b->wsize = size;
	return (0);
}

/* Append a sample (leaf node and weight) to the time-ordered sequence. */
int
profile_builder_sample(struct profile_builder *b, uint32_t n, int64_t w)
{
	struct profile	*p = b->p;
	uint32_t	 cap;
	unsigned	 size = builder_wsize(w);

	if (p->nsamples == b->samplecap) {
		if (b->samplecap == UINT32_MAX) {
			b->error = "too many samples";
			return (-1);
		}
		cap = b->samplecap ? (b->samplecap > UINT32_MAX / 2 ?
		    UINT32_MAX : b->samplecap * 2) : 1024;
		/* Written one by one: the slack needs no zeroing. */
		if (grow_raw(&p->sample_node, sizeof *p->sample_node,
		    cap) == -1 ||
		    grow_raw(&b->weights, b->wsize, cap) == -1)
			return (-1);
		b->samplecap = cap;
	}
	if (size > b->wsize && builder_widen(b, size) == -1)
		return (-1);
	p->sample_node[p->nsamples] = n;
	builder_weight_put(b->weights, b->wsize, p->nsamples, w);
	p->nsamples++;
	return (0);
}

/*
 * The run weights go to the profile at the width they were collected
 * in, trimmed to the samples: widening them to 8 bytes each cost a
 * fresh array and its page faults (88 MB for an 11 M-sample Gecko
 * profile) for nothing the readers need.
 */
static int
builder_finish_weights(struct profile_builder *b)
{
	struct profile	*p = b->p;

	if (p->nsamples == 0) {
		free(b->weights);
		b->weights = NULL;
		return (0);
	}
	trim(&b->weights, b->wsize, p->nsamples);
	p->sample_weight = b->weights;
	p->sample_wsize = b->wsize;
	b->weights = NULL;
	return (0);
}

/*
 * The profile records when its samples happened (timeline.h): its
 * clock's unit ("ns", "us", "ms", "s", or a counter such as "ticks")
 * and rate (units per second, 0 if unknown). Declared before the first
 * thread, record or mark.
 */
int
profile_builder_clock(struct profile_builder *b, const char *unit,
    double rate)
{
	if (b->times == NULL &&
	    (b->times = timeline_builder_create()) == NULL)
		return (-1);
	if (timeline_builder_clock(b->times, unit, rate) == -1) {
		b->error = "bad clock unit or rate";
		return (-1);
	}
	return (0);
}

/*
 * What each timed record gives metric m: TIMELINE_WEIGHT (its weight,
 * at its time) or TIMELINE_SPAN (its duration, in the clock's unit).
 * A metric given no mode is not carried by the records.
 */
int
profile_builder_time_mode(struct profile_builder *b, int m, int mode)
{
	if (b->times == NULL || m < 0 || (uint32_t)m >= b->p->nmetrics ||
	    timeline_builder_mode(b->times, m, mode) == -1) {
		b->error = "bad metric or mode for the timeline";
		return (-1);
	}
	return (0);
}

/*
 * A thread of the timeline by its name, its process' name and its ids
 * (-1: unknown), added on first sight; PROFILE_NONE on failure.
 */
uint32_t
profile_builder_thread(struct profile_builder *b, const char *name,
    size_t namelen, const char *process, size_t proclen, int64_t pid,
    int64_t tid)
{
	uint32_t	 n, pr, t;

	if (b->times == NULL) {
		b->error = "a thread before the clock";
		return (PROFILE_NONE);
	}
	if ((n = profile_builder_string(b, name, namelen)) == STRPOOL_NONE ||
	    (pr = profile_builder_string(b, process, proclen)) ==
	    STRPOOL_NONE)
		return (PROFILE_NONE);
	if ((t = timeline_builder_thread(b->times, n, pr, pid, tid)) ==
	    UINT32_MAX) {
		b->error = "too many threads";
		return (PROFILE_NONE);
	}
	return (t);
}

/*
 * A timed record: leaf node n of a thread at time t (the clock's
 * units), lasting d >= 0 (0: an instant sample), of weight w. The
 * reader adds the node's values as it always does; this says when.
 */
int
profile_builder_timed(struct profile_builder *b, uint32_t n,
    uint32_t thread, int64_t t, int64_t d, int64_t w)
{
	if (b->times == NULL || n >= b->p->nnodes) {
		b->error = "a timed sample without a clock, or of a bad node";
		return (-1);
	}
	if (timeline_builder_add(b->times, n, thread, t, d, w) == -1) {
		b->error = "a sample's time, duration or thread out of range";
		return (-1);
	}
	return (0);
}

/* An instant event of a thread at time t, named (a marker, not a sample). */
int
profile_builder_mark(struct profile_builder *b, uint32_t thread, int64_t t,
    const char *name, size_t len)
{
	uint32_t	 s;

	if (b->times == NULL) {
		b->error = "a marker before the clock";
		return (-1);
	}
	if ((s = profile_builder_string(b, name, len)) == STRPOOL_NONE)
		return (-1);
	if (timeline_builder_mark(b->times, thread, t, s) == -1) {
		b->error = "a marker's time or thread out of range";
		return (-1);
	}
	return (0);
}

/*
 * A derived profile's timeline takes the clock, the bounds, the metrics'
 * modes, the threads (with the same numbers) and, within [a, e), the
 * markers of src's (of the threads keep[] flags, if not NULL): its
 * records are then added with profile_builder_timed.
 */
int
profile_builder_times_like(struct profile_builder *b,
    const struct profile *src, int64_t a, int64_t e, const uint8_t *keep)
{
	const struct timeline	*tl = src->timeline;
	const char		*name, *proc;
	uint32_t		 i, k;

	if (tl == NULL)
		return (0);
	if (profile_builder_clock(b, tl->unit, tl->rate) == -1)
		return (-1);
	timeline_builder_bounds(b->times, tl->start, tl->end);
	/* What is derived from complete records is complete. */
	timeline_builder_complete(b->times, (tl->flags & TIMELINE_F_COMPLETE) ?
	    1 : 0);
	b->times_told = 1;
	for (k = 0; k < sizeof tl->mode && k < b->p->nmetrics; k++) {
		if (tl->mode[k] != TIMELINE_NONE &&
		    profile_builder_time_mode(b, (int)k, tl->mode[k]) == -1)
			return (-1);
	}
	for (i = 0; i < tl->nthreads; i++) {
		name = profile_string(src, tl->threads[i].name);
		proc = profile_string(src, tl->threads[i].process);
		if (profile_builder_thread(b, name, strlen(name), proc,
		    strlen(proc), tl->threads[i].pid, tl->threads[i].tid) != i)
			return (-1);
	}
	for (i = 0; i < tl->nmarks; i++) {
		if (tl->marks[i].t < a || tl->marks[i].t >= e ||
		    (keep != NULL && !keep[tl->marks[i].thread]))
			continue;
		name = profile_string(src, tl->marks[i].name);
		if (profile_builder_mark(b, tl->marks[i].thread,
		    tl->marks[i].t, name, strlen(name)) == -1)
			return (-1);
	}
	return (0);
}

/*
 * A derived profile starts as src: the same metrics (names, units,
 * rates) and the same functions with the same ids and locations, so
 * that links made for src keep their meaning. -1 if out of memory.
 */
int
profile_builder_like(struct profile_builder *b, const struct profile *src)
{
	const char	*name, *mod, *file;
	uint32_t	 f, k;

	for (k = 0; k < src->nmetrics; k++) {
		if (profile_builder_metric(b, src->metrics[k].name,
		    src->metrics[k].unit) != (int)k)
			return (-1);
		b->p->metrics[k].rate = src->metrics[k].rate;
	}
	for (f = 0; f < src->nfuncs; f++) {
		name = profile_func_name(src, f);
		mod = profile_func_module(src, f);
		if (profile_builder_func(b, name, strlen(name), mod,
		    strlen(mod)) != f) {
			b->error = "functions not unique";
			return (-1);
		}
		file = src->func_file[f] != 0 ? profile_string(src,
		    src->func_file[f]) : NULL;
		if (file != NULL || src->func_line[f] != 0)
			profile_builder_func_location(b, f, file,
			    file ? strlen(file) : 0, src->func_line[f]);
	}
	return (0);
}

/*
 * The nodes of src that keep[] flags (with each one's parent: the set is
 * closed upwards), in src's order, made at once under the root of a
 * builder that has no other node and src's functions with the same ids
 * (profile_builder_like): out[n] is src node n's, PROFILE_NONE where not
 * kept. No lookup is needed, so none is kept either: the builder then
 * takes values and records, not children. -1 on failure.
 */
int
profile_builder_graft(struct profile_builder *b, const struct profile *src,
    const uint8_t *keep, uint32_t *out)
{
	struct profile	*p = b->p;
	uint32_t	 n, i, par, k, count = 1;

	if (p->nnodes != 1 || p->nfuncs < src->nfuncs) {
		b->error = "graft into a builder with nodes";
		return (-1);
	}
	for (n = 1; n < src->nnodes; n++)
		count += keep[n] != 0;
	if (count > b->max_nodes) {
		b->error = "too many call nodes";
		return (-1);
	}
	/* At once: doubling would copy every array a few times over. */
	if (b->nodecap < count && builder_grow_nodes_to(b, count) == -1)
		return (-1);
	b->grafted = 1;
	out[PROFILE_ROOT] = PROFILE_ROOT;
	for (n = 1; n < src->nnodes; n++) {
		out[n] = PROFILE_NONE;
		if (!keep[n])
			continue;
		if ((par = out[src->node_parent[n]]) == PROFILE_NONE) {
			b->error = "a node kept without its parent";
			return (-1);
		}
		i = p->nnodes++;
		p->node_parent[i] = par;
		p->node_func[i] = src->node_func[n];
		p->node_depth[i] = p->node_depth[par] + 1;
		for (k = 0; k < p->nmetrics; k++)
			p->metrics[k].self[i] = 0;
		out[n] = i;
	}
	return (0);
}

/*
 * The frame of function f at a line of a file (a string id of
 * profile_builder_string, 0 if unknown); line 0 is an unknown line.
 * PROFILE_NONE with the error set on failure.
 */
uint32_t
profile_builder_line_frame(struct profile_builder *b, uint32_t f,
    uint32_t file, uint32_t line)
{
	uint32_t	 fr;

	if (f >= b->p->nfuncs || file >= strpool_count(b->p->strings)) {
		b->error = "bad function or file";
		return (PROFILE_NONE);
	}
	if (b->lines == NULL) {
		if ((b->lines = lines_builder_create()) == NULL)
			return (PROFILE_NONE);
		lines_builder_set_max(b->lines, b->max_nodes);
	}
	if ((fr = lines_builder_frame(b->lines, f, file, line, 0, 0)) ==
	    LINES_NONE)
		b->error = lines_builder_error(b->lines);
	return (fr == LINES_NONE ? PROFILE_NONE : fr);
}

/* The frame of function f at an address (a profile without lines). */
uint32_t
profile_builder_addr_frame(struct profile_builder *b, uint32_t f,
    uint64_t addr)
{
	uint32_t	 fr;

	if (f >= b->p->nfuncs) {
		b->error = "bad function";
		return (PROFILE_NONE);
	}
	if (b->lines == NULL) {
		if ((b->lines = lines_builder_create()) == NULL)
			return (PROFILE_NONE);
		lines_builder_set_max(b->lines, b->max_nodes);
	}
	if ((fr = lines_builder_frame(b->lines, f, 0, 0, addr, 1)) ==
	    LINES_NONE)
		b->error = lines_builder_error(b->lines);
	return (fr == LINES_NONE ? PROFILE_NONE : fr);
}

/*
 * The line tree's child of node parent (PROFILE_ROOT, or one this gave)
 * for frame fr: profile_builder_child's twin for the tree of frames.
 */
uint32_t
profile_builder_line_child(struct profile_builder *b, uint32_t parent,
    uint32_t fr)
{
	uint32_t	 n;

	if (b->lines == NULL) {
		b->error = "no line frame";
		return (PROFILE_NONE);
	}
	if ((n = lines_builder_child(b->lines, parent, fr)) == LINES_NONE)
		b->error = lines_builder_error(b->lines);
	return (n == LINES_NONE ? PROFILE_NONE : n);
}

/* Add v to the self value of line node n in metric m. */
int
profile_builder_line_add(struct profile_builder *b, uint32_t n, int m,
    int64_t v)
{
	if (b->lines == NULL || m < 0 || (uint32_t)m >= b->p->nmetrics) {
		b->error = "bad line node or metric";
		return (-1);
	}
	if (lines_builder_add(b->lines, n, m, v) == -1) {
		b->error = lines_builder_error(b->lines);
		return (-1);
	}
	return (0);
}

/* A call graph's self cost v in metric m at frame fr. */
int
profile_builder_line_self(struct profile_builder *b, uint32_t fr, int m,
    int64_t v)
{
	if (b->lines == NULL || m < 0 || (uint32_t)m >= b->p->nmetrics) {
		b->error = "bad line frame or metric";
		return (-1);
	}
	if (lines_builder_self(b->lines, fr, m, v) == -1) {
		b->error = lines_builder_error(b->lines);
		return (-1);
	}
	return (0);
}

/*
 * A call graph's calls from frame fr to function callee: count more of
 * them, and v more of their inclusive cost in metric m (-1: none).
 */
int
profile_builder_line_call(struct profile_builder *b, uint32_t fr,
    uint32_t callee, int m, int64_t v, uint64_t count)
{
	if (b->lines == NULL || callee >= b->p->nfuncs || m < -1 ||
	    (m >= 0 && (uint32_t)m >= b->p->nmetrics)) {
		b->error = "bad line frame, function or metric";
		return (-1);
	}
	if (lines_builder_call(b->lines, fr, callee, m, v, count) == -1) {
		b->error = lines_builder_error(b->lines);
		return (-1);
	}
	return (0);
}

/* Attach reader-specific data, freed with the profile. Takes ownership. */
void
profile_builder_set_extra(struct profile_builder *b, void *extra,
    void (*fn)(void *))
{
	b->p->extra = extra;
	b->p->extra_free = fn;
}

/* Install the call-site hook (profile.h); it reads the extra data. */
void
profile_builder_set_site(struct profile_builder *b,
    int (*fn)(const struct profile *, uint32_t, struct profile_site *))
{
	b->p->extra_site = fn;
}

/*
 * Inclusive values, child lists and per-function aggregates. The
 * per-function total adds a node's inclusive value only when no ancestor
 * calls the same function, so recursion is never counted twice.
 */
static int
builder_compute(struct profile *p)
{
	struct profile_metric	*m;
	uint32_t		 i, n, f, k, *onstack;

	/*
	 * One pass from the last node back links the child lists and adds
	 * each node's total into its parent's (a parent's id is always
	 * below its children's, so a total is whole when it is reached):
	 * at 10^7 nodes every pass over the arrays costs a few ms.
	 */
	memset(p->node_first_child, 0xff, p->nnodes * sizeof(uint32_t));
	p->node_next_sibling[0] = PROFILE_NONE;
	for (k = 0; k < p->nmetrics; k++)
		memcpy(p->metrics[k].total, p->metrics[k].self,
		    p->nnodes * sizeof *p->metrics[k].total);
	for (i = p->nnodes - 1; i > 0; i--) {
		n = p->node_parent[i];
		f = p->node_func[i];
		p->node_next_sibling[i] = p->node_first_child[n];
		p->node_first_child[n] = i;
		for (k = 0; k < p->nmetrics; k++) {
			m = &p->metrics[k];
			if (__builtin_add_overflow(m->total[n], m->total[i],
			    &m->total[n]) ||
			    __builtin_add_overflow(m->func_self[f], m->self[i],
			    &m->func_self[f]))
				return (-1);
		}
	}
	for (k = 0; k < p->nmetrics; k++) {
		m = &p->metrics[k];
		m->func_self[p->node_func[0]] += m->self[0];
		m->sum = m->total[0];
	}

	onstack = p->func_line;		/* borrowed scratch; see caller */
	if (builder_func_totals_by_id(p, onstack) == 0)
		return (0);
	/* Too much climbing: walk the tree in depth-first order instead. */
	for (k = 0; k < p->nmetrics; k++)
		memset(p->metrics[k].func_total, 0,
		    p->nfuncs * sizeof *p->metrics[k].func_total);
	memset(onstack, 0, p->nfuncs * sizeof *onstack);

	/* Walk the tree without a stack, counting functions on the path. */
	n = PROFILE_ROOT;
	for (;;) {
		f = p->node_func[n];
		if (onstack[f]++ == 0) {
			for (k = 0; k < p->nmetrics; k++)
				p->metrics[k].func_total[f] +=
				    p->metrics[k].total[n];
		}
		if (p->node_first_child[n] != PROFILE_NONE) {
			n = p->node_first_child[n];
			continue;
		}
		for (;;) {
			onstack[p->node_func[n]]--;
			if (n == PROFILE_ROOT)
				return (0);
			if (p->node_next_sibling[n] != PROFILE_NONE) {
				n = p->node_next_sibling[n];
				break;
			}
			n = p->node_parent[n];
		}
	}
}

/*
 * The per-function totals in node order, keeping the path from the root
 * to the last node on a stack: a node whose parent is not on top pops
 * down to where its parent's path joins the stack and pushes the rest
 * of that path again. The first node of a stack new in a folded line, a
 * trace or a sample is made right after its parent's path was walked, so
 * the arrays are read in order, where the depth-first walk jumped from
 * the end of one line's nodes to the next line's, a few cache misses in
 * every array each time. Climbing is bounded (four times the nodes, plus
 * the first deep path): past that, -1 and the caller walks depth-first,
 * for a profile whose nodes were made in an order far from any path's.
 */
static int
builder_func_totals_by_id(struct profile *p, uint32_t *onstack)
{
	uint32_t	*stack = NULL, *sfunc = NULL, *path = NULL, *t;
	size_t		 cap = 0, top = 0, np, c;
	uint64_t	 budget = (uint64_t)p->nnodes * 4 + 65536;
	uint32_t	 i, q, r, f, d, k, rd;
	int		 rc = -1;

	for (i = 0; i < p->nnodes; i++) {
		d = p->node_depth[i];
		if ((size_t)d + 1 > cap) {
			for (c = cap ? cap : 256; c < (size_t)d + 1; c *= 2)
				;
			if ((t = realloc(stack, c * sizeof *t)) == NULL)
				goto out;
			stack = t;
			if ((t = realloc(sfunc, c * sizeof *t)) == NULL)
				goto out;
			sfunc = t;
			if ((t = realloc(path, c * sizeof *t)) == NULL)
				goto out;
			path = t;
			cap = c;
		}
		if (i > 0) {
			q = p->node_parent[i];
			/*
			 * The parent's path, from where it leaves the stack.
			 * Each node is one deeper than its parent (the
			 * builder makes them so), so the depth of each node
			 * climbed is known without reading it: the nodes
			 * climbed were made long before, a cache miss each.
			 */
			if (d == 0)
				goto out;
			for (np = 0, r = q, rd = d - 1; !(rd < top &&
			    stack[rd] == r); r = p->node_parent[r], rd--) {
				if (budget-- == 0 || r == PROFILE_ROOT ||
				    rd == 0)
					goto out;
				path[np++] = r;
			}
			while (top > (size_t)rd + 1)
				onstack[sfunc[--top]]--;
			while (np > 0) {
				r = path[--np];
				stack[top] = r;
				sfunc[top] = p->node_func[r];
				onstack[sfunc[top++]]++;
			}
		}
		if (top != d)
			goto out;	/* depths not as the parents say */
		f = p->node_func[i];
		if (onstack[f]++ == 0) {
			for (k = 0; k < p->nmetrics; k++)
				p->metrics[k].func_total[f] +=
				    p->metrics[k].total[i];
		}
		stack[top] = i;
		sfunc[top++] = f;
	}
	while (top > 0)
		onstack[sfunc[--top]]--;
	rc = 0;
out:
	free(stack);
	free(sfunc);
	free(path);
	return (rc);
}

/*
 * Do the timeline's records give every value of the metrics they carry?
 * Then a time range's values are the profile's less what lies outside
 * it (range.c), when that is less to read. One pass over the records,
 * once, with the load; memory failing leaves the timeline as it is
 * (without the flag: correct, only slower).
 */
static void
builder_times_complete(struct profile *p)
{
	struct timeline		*tl = p->timeline;
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	const int64_t		 lim = INT64_C(1) << 62;
	int64_t			*sum, *s, v;
	uint32_t		 n, k, nm = p->nmetrics;

	if (nm > sizeof tl->mode || (sum = calloc((size_t)p->nnodes * nm,
	    sizeof *sum)) == NULL)
		return;
	timeline_iter_init(&it, tl);
	while (timeline_next(&it, &r)) {
		for (k = 0; k < nm; k++) {
			v = timeline_value(tl, k, &r, -lim, lim);
			s = &sum[(size_t)r.node * nm + k];
			if (__builtin_add_overflow(*s, v, s))
				goto out;
		}
	}
	if (it.i != tl->n)
		goto out;
	for (n = 0; n < p->nnodes; n++) {
		for (k = 0; k < nm; k++) {
			if (tl->mode[k] != TIMELINE_NONE &&
			    sum[(size_t)n * nm + k] != p->metrics[k].self[n])
				goto out;
		}
	}
	tl->flags |= TIMELINE_F_COMPLETE;
out:
	free(sum);
}

/*
 * Finish: compute derived values and return the profile; the builder is
 * freed in every case. NULL with *cause set on failure.
 */
struct profile *
profile_builder_finish(struct profile_builder *b, char **cause)
{
	struct profile	*p = b->p;
	uint32_t	*lines = NULL, k;
	int64_t		*v;

	if (p->nmetrics == 0 && profile_builder_metric(b, "samples", "count")
	    == -1)
		goto fail;
	childset_clear(&b->children);
	free(b->lazy);
	b->lazy = NULL;
	idmap_clear(&b->funcs);
	/* Trim the growth slack before the derived arrays are made. */
	trim(&p->node_parent, sizeof *p->node_parent, p->nnodes);
	trim(&p->node_func, sizeof *p->node_func, p->nnodes);
	trim(&p->node_depth, sizeof *p->node_depth, p->nnodes);
	for (k = 0; k < p->nmetrics; k++)
		trim(&p->metrics[k].self, sizeof(int64_t), p->nnodes);
	b->nodecap = p->nnodes;
	trim(&p->sample_node, sizeof *p->sample_node, p->nsamples);
	if ((p->node_first_child = malloc(p->nnodes * sizeof(uint32_t)))
	    == NULL ||
	    (p->node_next_sibling = malloc(p->nnodes * sizeof(uint32_t)))
	    == NULL)
		goto fail;
	for (k = 0; k < p->nmetrics; k++) {
		struct profile_metric	*m = &p->metrics[k];

		if ((m->total = malloc(p->nnodes * sizeof *v)) == NULL ||
		    (m->func_self = calloc(p->nfuncs, sizeof *v)) == NULL ||
		    (m->func_total = calloc(p->nfuncs, sizeof *v)) == NULL)
			goto fail;
	}

	/* func_line doubles as the on-stack counter during the walk. */
	if ((lines = malloc(p->nfuncs * sizeof *lines)) == NULL)
		goto fail;
	memcpy(lines, p->func_line, p->nfuncs * sizeof *lines);
	memset(p->func_line, 0, p->nfuncs * sizeof *lines);
	if (builder_compute(p) == -1) {
		memcpy(p->func_line, lines, p->nfuncs * sizeof *lines);
		free(lines);
		b->error = "inclusive values overflow 64 bits";
		goto fail;
	}
	memcpy(p->func_line, lines, p->nfuncs * sizeof *lines);
	free(lines);

	if (b->times != NULL && timeline_builder_used(b->times)) {
		const char	*why;

		if ((p->timeline = timeline_builder_finish(b->times, &why)) ==
		    NULL) {
			b->error = why;
			goto fail;
		}
		if (!b->times_told)
			builder_times_complete(p);
	}
	/* Its raw records are encoded now: they go before the weights. */
	timeline_builder_free(b->times);
	b->times = NULL;
	/* The line tree, reduced to rows; the builder goes with it. */
	if (b->lines != NULL) {
		k = lines_builder_finish(b->lines, p, &p->lines, &b->error);
		b->lines = NULL;
		if (k != 0)
			goto fail;
	}
	if (builder_finish_weights(b) == -1)
		goto fail;
	strpool_seal(p->strings);
	b->p = NULL;
	profile_builder_free(b);
	return (p);
fail:
	cause_set(cause, "%s", profile_builder_error(b));
	profile_builder_free(b);
	return (NULL);
}

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

#ifndef PROFILE_H
#define PROFILE_H

/*
 * The profile model: a calling-context tree (CCT) plus tables, as flat
 * arrays with 32-bit indices. A reader builds one through struct
 * profile_builder (profile-builder.h); once profile_builder_finish() has
 * run, a profile is read-only and may be shared by every query.
 *
 * Node 0 is always the synthetic root ("<root>", function 0): every real
 * stack hangs below it, so a profile with several top-level functions is
 * still one tree. Nodes are numbered so that a parent comes before its
 * children, which lets inclusive values be summed in one backward pass.
 */

#include <stddef.h>
#include <stdint.h>

#define PROFILE_ROOT		0	/* node and function index of the root */
#define PROFILE_NONE		UINT32_MAX
#define PROFILE_MAX_METRICS	16
#define PROFILE_MAX_NODES	(UINT32_MAX - 1)

/*
 * One metric column: a name ("samples", "ticks", "Ir"), a unit, and the
 * rate at which it counts when the profile says (Mercury's quanta per
 * second, a sampler's frequency), so reports can show seconds.
 */
struct profile_metric {
	char		*name;
	char		*unit;		/* "count", "ns", "us", "bytes", ... */
	double		 rate;		/* units per second, 0 = unknown */
	int64_t		*self;		/* [nnodes] */
	int64_t		*total;		/* [nnodes], inclusive */
	int64_t		*func_self;	/* [nfuncs] */
	int64_t		*func_total;	/* [nfuncs], recursion counted once */
	int64_t		 sum;		/* total of self over all nodes */
};

/* A static call site, as the call-site hook describes it. */
struct profile_site {
	uint32_t	 id;		/* distinct per site in the profile */
	const char	*label;		/* "foo.m:42", owned by the profile */
	uint32_t	 line;		/* 0 = unknown */
};

struct profile {
	const char	*format;	/* reader name, "folded", "ghc-prof" */
	char		*source;	/* path it was loaded from, or NULL */

	struct strpool	*strings;

	/* Functions: a function is what frames of one name+module merge to. */
	uint32_t	 nfuncs;
	uint32_t	*func_name;	/* string ids */
	uint32_t	*func_module;	/* string id, 0 = "" */
	uint32_t	*func_file;	/* string id, 0 = "" */
	uint32_t	*func_line;	/* 0 = unknown */

	/* Call nodes: the CCT. */
	uint32_t	 nnodes;
	uint32_t	*node_parent;	/* PROFILE_NONE for the root */
	uint32_t	*node_func;
	uint32_t	*node_depth;
	uint32_t	*node_first_child;
	uint32_t	*node_next_sibling;

	/* Metrics; metric 0 is the default. */
	uint32_t	 nmetrics;
	struct profile_metric metrics[PROFILE_MAX_METRICS];

	/*
	 * Optional sample sequence in time order (V8, event traces): the
	 * leaf node of each sample and its weight in metric 0. Flame charts
	 * use it; NULL when the format has no order. The weights are
	 * signed integers of sample_wsize bytes each (1, 2, 4 or 8, the
	 * narrowest that holds them all; 0 without samples): a sampler's
	 * runs are small counts, and 8 bytes a sample was most of the
	 * sequence. Read them with profile_sample_weight().
	 */
	uint32_t	 nsamples;
	unsigned	 sample_wsize;
	uint32_t	*sample_node;
	void		*sample_weight;
	/*
	 * The exact function call graph, for formats that record a graph
	 * rather than contexts (callgrind, gprof): every per-function figure
	 * comes from it, and the tree is an estimate (funcgraph.h). NULL
	 * for the others; freed with the profile.
	 */
	struct funcgraph *funcgraph;

	/* Reader-specific extra data (Mercury call sites), freed by extra_free. */
	void		*extra;
	void		(*extra_free)(void *);

	/*
	 * Optional call-site hook for formats that know the static call
	 * site of a call (Mercury's CallSiteStatic): fills *site for the
	 * call that created node n (n's parent calling n's function) and
	 * returns 0, or returns -1 when that call has no known site. It
	 * reads p->extra. NULL when the format has no call sites; reports
	 * then use the caller's call node path as the site.
	 */
	int		(*extra_site)(const struct profile *, uint32_t,
			    struct profile_site *);

	/*
	 * A profile loaded from a cache file (cache.c) has its arrays in
	 * this read-only mapping instead of on the heap.
	 */
	void		*map;
	size_t		 maplen;

	/*
	 * The call graph's cliques, when the profile came from a cache file
	 * that keeps them (cache.c, checked there): clique ids by function
	 * and recursive flags by clique id, in the mapping. NULL otherwise.
	 * What queries derive from a profile is kept by its index
	 * (profile-index.h), not here: a profile never changes once built.
	 */
	const uint32_t	*cache_clique;
	const uint8_t	*cache_recursive;

	/*
	 * Costs by source line (lines.h), when the file records lines;
	 * NULL otherwise. Their arrays are in the mapping when the profile
	 * came from a cache file.
	 */
	struct profile_lines *lines;
	/*
	 * When each sample happened and on which thread (timeline.h), for
	 * the formats that record it; NULL for the others. Freed with the
	 * profile. (Last: profile_memory() counts the struct up to the
	 * cliques, and what a timeline holds on its own.)
	 */
	struct timeline	*timeline;
};

void		 profile_free(struct profile *);
const char	*profile_string(const struct profile *, uint32_t);
const char	*profile_func_name(const struct profile *, uint32_t);
const char	*profile_func_module(const struct profile *, uint32_t);
int		 profile_metric_find(const struct profile *, const char *);
double		 profile_metric_rate(const struct profile *, uint32_t);
int		 profile_metric_calls(const struct profile *);
uint32_t	 profile_func_find(const struct profile *, const char *);
uint32_t	 profile_node_child(const struct profile *, uint32_t, uint32_t);
uint32_t	 profile_node_path(const struct profile *, const uint32_t *,
		    size_t);
size_t		 profile_memory(const struct profile *);

/* Weight i of an array of signed weights of size bytes each (1, 2, 4, 8). */
static inline int64_t
profile_weight_at(const void *a, unsigned size, uint32_t i)
{
	switch (size) {
	case 1:
		return (((const int8_t *)a)[i]);
	case 2:
		return (((const int16_t *)a)[i]);
	case 4:
		return (((const int32_t *)a)[i]);
	default:
		return (((const int64_t *)a)[i]);
	}
}

/* The weight of sample i (i < p->nsamples) in metric 0. */
static inline int64_t
profile_sample_weight(const struct profile *p, uint32_t i)
{
	return (profile_weight_at(p->sample_weight, p->sample_wsize, i));
}

#endif /* PROFILE_H */

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

#include "funcgraph.h"
#include "lines.h"
#include "profile.h"
#include "strpool.h"
#include "timeline.h"

/* The read-only profile model (see profile.h); building is in profile-builder.c. */

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
	timeline_free(p->timeline);
	lines_free(p->lines);
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
 * The child of node n whose function is f, or PROFILE_NONE: a walk of
 * n's list of children. profile_index_node_child() finds it in a wide
 * node's children without the walk.
 */
uint32_t
profile_node_child(const struct profile *p, uint32_t n, uint32_t f)
{
	uint32_t	 c;

	if (n >= p->nnodes)
		return (PROFILE_NONE);
	for (c = p->node_first_child[n]; c != PROFILE_NONE;
	    c = p->node_next_sibling[c]) {
		if (p->node_func[c] == f)
			return (c);
	}
	return (PROFILE_NONE);
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
	 * The model only: what queries derive and keep is its index's
	 * (profile_index_memory()). The struct counts up to the cliques a
	 * cache file adds, which are in the mapping: the figure is the same
	 * whether the profile was read or mapped.
	 */
	size_t	 base = offsetof(struct profile, cache_clique), n;

	if (p->map != NULL)
		return (base + p->maplen + lines_memory(p->lines));
	n = base + strpool_memory(p->strings);
	n += (size_t)p->nfuncs * 4 * sizeof(uint32_t);
	n += (size_t)p->nnodes * 5 * sizeof(uint32_t);
	n += (size_t)p->nmetrics * p->nnodes * 2 * sizeof(int64_t);
	n += (size_t)p->nmetrics * p->nfuncs * 2 * sizeof(int64_t);
	n += (size_t)p->nsamples * (sizeof(uint32_t) + p->sample_wsize);
	if (p->funcgraph != NULL)
		n += funcgraph_memory(p->funcgraph);
	n += timeline_memory(p->timeline);
	n += lines_memory(p->lines);
	return (n);
}

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

#ifndef CALLTREE_H
#define CALLTREE_H

/*
 * The calling-context tree estimated from a call graph (calltree.c), for
 * the formats that record a graph and no stacks (callgrind): a tree
 * built into a profile builder from every function's self cost and
 * every call edge's inclusive cost.
 */

#include <stdint.h>

struct profile_builder;

/* A call from one function of the graph to another. */
struct calltree_edge {
	uint32_t	 from, to;
	uint64_t	 calls;		/* the tree does not need them */
};

struct calltree_graph {
	uint32_t			 nfuncs;
	int				 nmetrics;
	const int64_t			*self;	/* [nfuncs * nmetrics] */
	uint32_t			 nedges;
	const struct calltree_edge	*edges;	/* [nedges] */
	const int64_t			*cost;	/* [nedges * nmetrics] */
	const int64_t			*extra;	/* [nmetrics] root's, or NULL */

	/*
	 * The builder's function for graph function f, or PROFILE_NONE on
	 * failure; called when f gets its first node, so the profile's
	 * functions come in the order the tree reaches them.
	 */
	uint32_t	(*func)(void *, uint32_t);
	void		*arg;
};

int	calltree_build(struct profile_builder *, const struct calltree_graph *,
	    uint32_t, char **);

#endif /* CALLTREE_H */

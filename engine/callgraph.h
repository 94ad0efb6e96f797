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

#ifndef CALLGRAPH_H
#define CALLGRAPH_H

/*
 * The function call graph of a profile (an edge g -> h when some call
 * node of h has a parent node of g, or, for a profile with an exact
 * call graph, when the file records calls from g to h: funcgraph.h) and
 * its cliques: the strongly
 * connected components, Mercury's recursive groups. A clique is named
 * by its smallest member function id, which is stable for a file and
 * makes clique 0 the synthetic root's. Built in O(nodes), once per
 * profile: the profile's index keeps it (profile_index_callgraph()), and
 * a cache file keeps its cliques (cache.c). Only the cliques are kept: no
 * query needs the edges themselves.
 */

#include <stdint.h>

struct cost;
struct profile;

struct callgraph {
	uint32_t	 nfuncs;
	uint32_t	*clique;	/* [nfuncs]: clique id of a function */
	uint32_t	*size;		/* [nfuncs]: members, by clique id */
	uint8_t		*recursive;	/* [nfuncs]: by clique id */
	uint32_t	 ncliques;	/* all components, singletons too */
	uint32_t	 nrecursive;	/* cliques that are recursive */
};

struct callgraph *callgraph_create(const struct profile *, struct cost *);
struct callgraph *callgraph_from_cliques(uint32_t, const uint32_t *,
		     const uint8_t *);
void		 callgraph_free(struct callgraph *);
int		 callgraph_recursive(const struct callgraph *, uint32_t);

#endif /* CALLGRAPH_H */

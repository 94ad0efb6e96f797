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

#include "childset.h"
#include "idmap.h"

/*
 * Set of call nodes keyed by (node_parent[n], node_func[n]), arrays the
 * caller passes in on every call: they move as the profile grows.
 */

static int	childset_grow(struct childset *, const uint32_t *,
		    const uint32_t *);

static inline size_t
childset_slot(uint32_t parent, uint32_t func, size_t mask)
{
	return (idmap_hash((uint64_t)parent << 32 | func) & mask);
}

/* Initialise an empty set. */
void
childset_init(struct childset *s)
{
	memset(s, 0, sizeof *s);
}

/* Free a set's storage; it may be reused after childset_init. */
void
childset_clear(struct childset *s)
{
	free(s->slots);
	childset_init(s);
}

/* The node with this parent and function, or CHILDSET_NONE. */
uint32_t
childset_find(const struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, uint32_t parent, uint32_t func)
{
	size_t		 mask, i;
	uint32_t	 n;

	if (s->cap == 0)
		return (CHILDSET_NONE);
	mask = s->cap - 1;
	for (i = childset_slot(parent, func, mask);; i = (i + 1) & mask) {
		if ((n = s->slots[i]) == 0)
			return (CHILDSET_NONE);
		if (parents[n] == parent && funcs[n] == func)
			return (n);
	}
}

/*
 * Rebuild at twice the size. The set holds exactly nodes 1..len, so it
 * is refilled from the node arrays in order (sequential reads) and the
 * old table is freed first: growing never holds two tables at once.
 */
static int
childset_grow(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs)
{
	size_t		 cap, mask, j;
	uint32_t	 n;

	cap = s->cap ? s->cap * 2 : 1024;
	if (cap > SIZE_MAX / sizeof *s->slots)
		return (-1);
	free(s->slots);
	s->slots = NULL;
	s->cap = 0;
	if ((s->slots = calloc(cap, sizeof *s->slots)) == NULL) {
		s->len = 0;
		return (-1);
	}
	s->cap = cap;
	mask = cap - 1;
	for (n = 1; n <= s->len; n++) {
		for (j = childset_slot(parents[n], funcs[n], mask);
		    s->slots[j] != 0; j = (j + 1) & mask)
			;
		s->slots[j] = n;
	}
	return (0);
}

/*
 * Add node n, whose parent and function are already in the arrays: nodes
 * are added in order, so n is always len + 1, and the caller has checked
 * that no node has the same pair. -1 when out of memory, after which the
 * set is empty and must be cleared.
 */
int
childset_add(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, uint32_t n)
{
	size_t	 mask, i;

	if (n != s->len + 1)
		return (-1);
	/*
	 * A load of at most 1/2: a miss (most lookups of a wide profile
	 * are misses, then adds) reads node_parent[] for every occupied
	 * slot it passes, a cache miss each; at 0.7 loads took 1.5 times
	 * as long.
	 */
	if ((s->len + 1) * 2 > s->cap &&
	    childset_grow(s, parents, funcs) == -1)
		return (-1);
	mask = s->cap - 1;
	for (i = childset_slot(parents[n], funcs[n], mask); s->slots[i] != 0;
	    i = (i + 1) & mask)
		;
	s->slots[i] = n;
	s->len++;
	return (0);
}

/* Bytes held by the set. */
size_t
childset_memory(const struct childset *s)
{
	return (s->cap * sizeof *s->slots);
}

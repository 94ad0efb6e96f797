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
#include "compat.h"

/*
 * Set of call nodes keyed by (node_parent[n], node_func[n]), arrays the
 * caller passes in on every call: they move as the profile grows.
 */

static int	childset_grow(struct childset *, const uint32_t *,
		    const uint32_t *, const uint64_t *, uint32_t, size_t);
static uint32_t	*childset_alloc(size_t);

/*
 * In tables from this size on, the 2 MB-aligned part is asked for huge
 * pages: lookups land at random, and with 4 KB pages nearly every one
 * also missed the TLB. Every page of a table at load 1/4 or more is
 * touched anyway. The table still comes from calloc, so the allocator
 * places (and maps) it as before.
 */
#define CHILDSET_HUGE	((size_t)4 * 1024 * 1024)

/* How many nodes ahead a rebuild prefetches the slot it will fill. */
#define CHILDSET_AHEAD	32

/* Initialise an empty set. */
void
childset_init(struct childset *s)
{
	memset(s, 0, sizeof *s);
}

/* A zeroed table of cap slots, or NULL. */
static uint32_t *
childset_alloc(size_t cap)
{
	uint32_t	*t;

	if ((t = calloc(cap, sizeof *t)) == NULL)
		return (NULL);
	if (cap * sizeof *t >= CHILDSET_HUGE)
		compat_hugepages(t, cap * sizeof *t);
	return (t);
}

/* Free a set's storage; it may be reused after childset_init. */
void
childset_clear(struct childset *s)
{
	free(s->slots);
	childset_init(s);
}

/*
 * The id bits for nids nodes in a table of cap slots: room for the ids
 * to double before the next rebuild, and never fewer than the slot bits
 * (the tag must not overlap the bits that pick the slot).
 */
static uint32_t
childset_idmask(size_t cap, uint32_t nids)
{
	uint64_t	 room = (uint64_t)nids * 2;
	int		 bits;

	if (room < cap)
		room = cap;
	bits = 64 - __builtin_clzll(room | 1);
	return (bits >= 32 ? UINT32_MAX : ((uint32_t)1 << bits) - 1);
}

/* Put node n, of hash h, in the first empty slot from where h points. */
static inline void
childset_put(struct childset *s, uint32_t n, uint64_t h)
{
	size_t		 mask = s->cap - 1, i;

	for (i = h & mask; s->slots[i] != 0; i = (i + 1) & mask)
		;
	s->slots[i] = n | childset_tag(h, s->idmask);
	s->len++;
}

/*
 * Rebuild with cap slots, refilled from the node arrays in node order
 * (sequential reads) with the nodes below nids whose parent is not lazy.
 * The old table is freed first: a rebuild never holds two tables at
 * once.
 */
static int
childset_grow(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, const uint64_t *lazy, uint32_t nids, size_t cap)
{
	size_t		 head = 0, tail = 0;
	uint64_t	 h, ring[CHILDSET_AHEAD];
	uint32_t	 n, rid[CHILDSET_AHEAD];

	if (cap > SIZE_MAX / sizeof *s->slots)
		return (-1);
	s->has_hole = 0;
	free(s->slots);
	s->slots = NULL;
	s->cap = 0;
	s->len = 0;
	if ((s->slots = childset_alloc(cap)) == NULL)
		return (-1);
	s->cap = cap;
	s->idmask = childset_idmask(cap, nids);
	/*
	 * Each insert lands at random in the new table: load the slot of a
	 * node some way ahead while an earlier one goes in. The nodes whose
	 * slots are loading wait in a ring, with their hashes.
	 */
	for (n = 1; n < nids; n++) {
		if (childset_lazy(lazy, parents[n]))
			continue;
		if (head - tail == CHILDSET_AHEAD) {
			childset_put(s, rid[tail % CHILDSET_AHEAD],
			    ring[tail % CHILDSET_AHEAD]);
			tail++;
		}
		h = childset_hash(parents[n], funcs[n]);
		__builtin_prefetch(&s->slots[h & (cap - 1)], 1);
		ring[head % CHILDSET_AHEAD] = h;
		rid[head % CHILDSET_AHEAD] = n;
		head++;
	}
	for (; tail < head; tail++)
		childset_put(s, rid[tail % CHILDSET_AHEAD],
		    ring[tail % CHILDSET_AHEAD]);
	return (0);
}

/*
 * childset_add when the table grows, a new id outgrows the id bits, or
 * the last find left no hole. Before the call the set holds every node
 * below nids whose parent is not lazy but n; a rebuild puts n back with
 * the others.
 */
int
childset_add_slow(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, const uint64_t *lazy, uint32_t nids, uint32_t n)
{
	size_t		 cap;

	if (n == 0 || n >= nids || childset_lazy(lazy, parents[n]))
		return (-1);
	/*
	 * A load of at most 1/2: a miss (most lookups of a wide profile
	 * are misses, then adds) passes fewer occupied slots; at 0.7 loads
	 * took 1.5 times as long.
	 */
	if ((s->len + 1) * 2 > s->cap || n > s->idmask) {
		cap = s->cap ? s->cap : 1024;
		while ((s->len + 1) * 2 > cap)
			cap *= 2;
		return (childset_grow(s, parents, funcs, lazy, nids, cap));
	}
	if (s->has_hole && s->hole_parent == parents[n] &&
	    s->hole_func == funcs[n] && s->slots[s->hole] == 0) {
		s->has_hole = 0;
		s->slots[s->hole] = n | s->hole_tag;
		s->len++;
		return (0);
	}
	childset_put(s, n, childset_hash(parents[n], funcs[n]));
	return (0);
}

/*
 * Room for n more nodes at the load of at most 1/2, and for ids up to
 * nids, growing now: a caller that knows how many nodes are coming
 * skips the doublings between.
 */
int
childset_reserve(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, const uint64_t *lazy, uint32_t nids, size_t n)
{
	size_t		 cap = s->cap ? s->cap : 1024;

	while ((s->len + n) * 2 > cap) {
		if (cap > SIZE_MAX / 2)
			return (-1);
		cap *= 2;
	}
	if (cap == s->cap && s->cap != 0 && nids <= s->idmask)
		return (0);
	return (childset_grow(s, parents, funcs, lazy, nids, cap));
}

/* Bytes held by the set. */
size_t
childset_memory(const struct childset *s)
{
	return (s->cap * sizeof *s->slots);
}

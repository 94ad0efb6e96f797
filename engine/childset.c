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
		    const uint32_t *);
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
 * Rebuild at twice the size. The set holds exactly nodes 1..len, so it
 * is refilled from the node arrays in order (sequential reads) and the
 * old table is freed first: growing never holds two tables at once.
 */
static int
childset_grow(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs)
{
	size_t		 cap, mask, j;
	uint64_t	 h, ring[CHILDSET_AHEAD];
	uint32_t	 n, idmask;
	int		 bits;

	cap = s->cap ? s->cap * 2 : 1024;
	if (cap > SIZE_MAX / sizeof *s->slots)
		return (-1);
	free(s->slots);
	s->slots = NULL;
	s->cap = 0;
	if ((s->slots = childset_alloc(cap)) == NULL) {
		s->len = 0;
		return (-1);
	}
	s->cap = cap;
	mask = cap - 1;
	/* Ids stay at most cap / 2 (load 1/2): log2(cap) bits hold them. */
	bits = __builtin_ctzll((unsigned long long)cap);
	idmask = bits >= 32 ? UINT32_MAX : ((uint32_t)1 << bits) - 1;
	s->idmask = idmask;
	/*
	 * Each insert lands at random in the new table: load the slot of a
	 * node some way ahead while this one goes in. The hashes computed
	 * for that wait in a ring until their node's turn.
	 */
	for (n = 1; n <= s->len && n <= CHILDSET_AHEAD; n++)
		ring[n % CHILDSET_AHEAD] = childset_hash(parents[n], funcs[n]);
	for (n = 1; n <= s->len; n++) {
		h = ring[n % CHILDSET_AHEAD];
		if (n + CHILDSET_AHEAD <= s->len) {
			ring[n % CHILDSET_AHEAD] = childset_hash(
			    parents[n + CHILDSET_AHEAD],
			    funcs[n + CHILDSET_AHEAD]);
			__builtin_prefetch(&s->slots[ring[n % CHILDSET_AHEAD] &
			    mask], 1);
		}
		for (j = h & mask; s->slots[j] != 0; j = (j + 1) & mask)
			;
		s->slots[j] = n | childset_tag(h, idmask);
	}
	return (0);
}

/* childset_add when the table grows or the last find left no hole. */
int
childset_add_slow(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, uint32_t n)
{
	size_t		 mask, i;
	uint64_t	 h;

	if (n != s->len + 1)
		return (-1);
	/*
	 * A load of at most 1/2: a miss (most lookups of a wide profile
	 * are misses, then adds) passes fewer occupied slots; at 0.7 loads
	 * took 1.5 times as long. It also keeps ids under cap / 2 + 1,
	 * which the tags rely on.
	 */
	if ((s->len + 1) * 2 > s->cap) {
		s->has_hole = 0;
		if (childset_grow(s, parents, funcs) == -1)
			return (-1);
	}
	if (s->has_hole && s->hole_parent == parents[n] &&
	    s->hole_func == funcs[n] && s->slots[s->hole] == 0) {
		s->has_hole = 0;
		s->slots[s->hole] = n | s->hole_tag;
		s->len++;
		return (0);
	}
	mask = s->cap - 1;
	h = childset_hash(parents[n], funcs[n]);
	for (i = h & mask; s->slots[i] != 0; i = (i + 1) & mask)
		;
	s->slots[i] = n | childset_tag(h, s->idmask);
	s->len++;
	return (0);
}

/*
 * Room for n more nodes at the load of at most 1/2, growing now: the
 * adds that follow (childset_add_new) then never rebuild the table
 * between a prefetch and its use.
 */
int
childset_reserve(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, size_t n)
{
	s->has_hole = 0;
	while ((s->len + n) * 2 > s->cap) {
		if (childset_grow(s, parents, funcs) == -1)
			return (-1);
	}
	return (0);
}

/* Bytes held by the set. */
size_t
childset_memory(const struct childset *s)
{
	return (s->cap * sizeof *s->slots);
}

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

#ifndef CHILDSET_H
#define CHILDSET_H

/*
 * The builder's index of call nodes by (parent, function): a hash set
 * that stores only the 32-bit node id per slot and compares keys against
 * the node_parent[] and node_func[] arrays the profile keeps anyway. Four
 * bytes a slot at a load of at most 1/2 is 8 to 16 bytes per indexed
 * node, against 24 to 48 for a map that stores its 64-bit keys; growing
 * frees the old table before it makes the new one (the set is refilled
 * from the arrays), so the set never needs more than that.
 *
 * The set need not hold every node: the caller may keep a bitmap of
 * "lazy" parents, whose children are not in the set (the builder marks a
 * node lazy while its only child is the node made right after it, which
 * it finds without the set: the nodes of a deep stack that no other
 * stack shares are all such). Node n is in the set exactly when its
 * parent is not lazy; with no bitmap, every node 1..nids-1 is. A rebuild
 * refills from the arrays in node order, skipping the lazy parents'
 * children, so the caller passes the bitmap and the number of nodes
 * (nids) to every call that may grow.
 *
 * Node 0 (the root) is nobody's child, so 0 marks an empty slot and a new
 * table is calloc'ed pages the kernel gives zeroed, touched as filled.
 * Linear probing, power-of-two capacity, no deletion.
 *
 * A slot's spare high bits hold a tag of the key's hash: ids need only
 * as many bits as there are nodes (idmask, at least log2(cap), rebuilt
 * larger when a node id outgrows it), and the rest of the 32 (8 bits at
 * 10^7 nodes, none only past 2^31) tell most other keys apart without
 * reading the node arrays, a cache miss each.
 */

#include <stddef.h>
#include <stdint.h>

#include "idmap.h"

#define CHILDSET_NONE	UINT32_MAX

struct childset {
	uint32_t	*slots;		/* node ids, 0 = empty */
	size_t		 cap;		/* power of two, 0 when empty */
	size_t		 len;
	uint32_t	 idmask;	/* bits of a slot that are the id */
	/* Where the last childset_find that missed stopped, for the add. */
	size_t		 hole;
	uint32_t	 hole_parent, hole_func, hole_tag;
	int		 has_hole;
};

void		 childset_init(struct childset *);
void		 childset_clear(struct childset *);
int		 childset_add_slow(struct childset *, const uint32_t *,
		     const uint32_t *, const uint64_t *, uint32_t, uint32_t);
size_t		 childset_memory(const struct childset *);
int		 childset_reserve(struct childset *, const uint32_t *,
		     const uint32_t *, const uint64_t *, uint32_t, size_t);

/* Whether node n is lazy in bitmap lazy (NULL: none is). */
static inline int
childset_lazy(const uint64_t *lazy, uint32_t n)
{
	return (lazy != NULL && (lazy[n / 64] >> (n % 64) & 1));
}

/*
 * The lookups and the common add are in line: a wide profile makes one
 * of each per line, and the calls cost as much as the work.
 */

/* The hash of a key; a caller that has it already passes it back. */
static inline uint64_t
childset_hash(uint32_t parent, uint32_t func)
{
	return (idmap_hash((uint64_t)parent << 32 | func));
}

/*
 * The tag of a hash: its top bits outside the id's, which do not overlap
 * the low bits that pick the slot while the table has under 2^32 slots.
 */
static inline uint32_t
childset_tag(uint64_t h, uint32_t idmask)
{
	return ((uint32_t)(h >> 32) & ~idmask);
}

/*
 * The node with this parent and function, whose hash is h, or
 * CHILDSET_NONE. A miss remembers the empty slot it stopped at: the
 * builder adds that pair next, and childset_add then needs no second
 * hash and probe.
 */
static inline uint32_t
childset_find_hashed(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, uint32_t parent, uint32_t func, uint64_t h)
{
	size_t		 mask, i;
	uint32_t	 v, n, tag;

	if (s->cap == 0)
		return (CHILDSET_NONE);
	mask = s->cap - 1;
	tag = childset_tag(h, s->idmask);
	for (i = h & mask;; i = (i + 1) & mask) {
		if ((v = s->slots[i]) == 0) {
			s->hole = i;
			s->hole_parent = parent;
			s->hole_func = func;
			s->hole_tag = tag;
			s->has_hole = 1;
			return (CHILDSET_NONE);
		}
		if ((v & ~s->idmask) != tag)
			continue;
		n = v & s->idmask;
		if (parents[n] == parent && funcs[n] == func)
			return (n);
	}
}

/* The node with this parent and function, or CHILDSET_NONE. */
static inline uint32_t
childset_find(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, uint32_t parent, uint32_t func)
{
	return (childset_find_hashed(s, parents, funcs, parent, func,
	    childset_hash(parent, func)));
}

/*
 * Add node n (below nids), whose parent and function are already in the
 * arrays and whose parent is not lazy; the caller has checked that no
 * node in the set has the same pair. lazy and nids say which nodes a
 * rebuild puts back (above). -1 when out of memory, after which the set
 * is empty and must be cleared. In line: the add into the hole the
 * missed find left, when the table need not grow.
 */
static inline int
childset_add(struct childset *s, const uint32_t *parents,
    const uint32_t *funcs, const uint64_t *lazy, uint32_t nids, uint32_t n)
{
	if (n < nids && (s->len + 1) * 2 <= s->cap && n <= s->idmask &&
	    s->has_hole &&
	    s->hole_parent == parents[n] && s->hole_func == funcs[n] &&
	    s->slots[s->hole] == 0) {
		s->has_hole = 0;
		s->slots[s->hole] = n | s->hole_tag;
		s->len++;
		return (0);
	}
	return (childset_add_slow(s, parents, funcs, lazy, nids, n));
}

/*
 * Start loading the slot where a lookup of the key of hash h begins, so
 * a reader that knows its next key early hides the cache miss behind
 * other work. Only a hint: it changes nothing.
 */
static inline void
childset_prefetch_hashed(const struct childset *s, uint64_t h)
{
	if (s->cap != 0)
		__builtin_prefetch(&s->slots[h & (s->cap - 1)]);
}

/*
 * The first node at or after the slot where the lookup of the key of
 * hash h begins whose tag matches, or 0: most likely the node the
 * lookup finds, for a reader that loads its arrays ahead. Reads a few
 * slots, no node.
 */
static inline uint32_t
childset_peek(const struct childset *s, uint64_t h)
{
	size_t		 mask, i, k;
	uint32_t	 v, tag;

	if (s->cap == 0)
		return (0);
	mask = s->cap - 1;
	tag = childset_tag(h, s->idmask);
	for (i = h & mask, k = 0; k < 4; i = (i + 1) & mask, k++) {
		if ((v = s->slots[i]) == 0)
			return (0);
		if ((v & ~s->idmask) == tag)
			return (v & s->idmask);
	}
	return (0);
}

static inline void
childset_prefetch(const struct childset *s, uint32_t parent, uint32_t func)
{
	childset_prefetch_hashed(s, childset_hash(parent, func));
}

#endif /* CHILDSET_H */

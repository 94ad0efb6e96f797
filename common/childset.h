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
 * bytes a slot at a load of at most 1/2 is 8 to 16 bytes per node,
 * against 24 to 48 for a map that stores its 64-bit keys; growing frees
 * the old table before it makes the new one (the set is refilled from the
 * arrays), so the set never needs more than that. At most 16 bytes a
 * node while building stays under what profile_builder_finish adds for
 * the finished profile's derived arrays, so it does not set the peak.
 *
 * The set holds exactly nodes 1..len: the builder adds nodes in order.
 *
 * Node 0 (the root) is nobody's child, so 0 marks an empty slot and a new
 * table is calloc'ed pages the kernel gives zeroed, touched as filled.
 * Linear probing, power-of-two capacity, no deletion.
 *
 * A slot's spare high bits hold a tag of the key's hash: the set never
 * holds more than cap / 2 nodes, so an id needs only log2(cap) bits and
 * the rest of the 32 (11 bits at 10^6 nodes, 8 at 10^7, none only past
 * 2^31 nodes) tell most other keys apart without reading the node
 * arrays, a cache miss each.
 */

#include <stddef.h>
#include <stdint.h>

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
uint32_t	 childset_find(struct childset *, const uint32_t *,
		     const uint32_t *, uint32_t, uint32_t);
int		 childset_add(struct childset *, const uint32_t *,
		     const uint32_t *, uint32_t);
void		 childset_prefetch(const struct childset *, uint32_t,
		     uint32_t);
size_t		 childset_memory(const struct childset *);

#endif /* CHILDSET_H */

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

#ifndef IDMAP_H
#define IDMAP_H

/*
 * Open-addressing hash map from a 64-bit key to a 32-bit id, used while a
 * profile is built: (parent, function) -> child node, (name, module) ->
 * function. Linear probing, power-of-two capacity, no deletion.
 */

#include <stddef.h>
#include <stdint.h>

#include "hash.h"

#define IDMAP_NONE	UINT32_MAX

struct idmap {
	uint64_t	*keys;
	uint32_t	*vals;
	size_t		 cap;	/* power of two, 0 when empty */
	size_t		 len;
};

void		 idmap_init(struct idmap *);
void		 idmap_clear(struct idmap *);
uint32_t	 idmap_get(const struct idmap *, uint64_t);
int		 idmap_put(struct idmap *, uint64_t, uint32_t);

/* A key's hash (hash.h's hash_u64, by the name the readers know). */
static inline uint64_t
idmap_hash(uint64_t k)
{
	return (hash_u64(k));
}

#endif /* IDMAP_H */

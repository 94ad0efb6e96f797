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

#include "idmap.h"

/* Hash map of 64-bit keys to 32-bit ids; an empty slot has IDMAP_NONE. */

static int	idmap_grow(struct idmap *);

/* Initialise an empty map. */
void
idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof *m);
}

/* Free a map's storage; it may be reused after idmap_init. */
void
idmap_clear(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	idmap_init(m);
}

/* Look a key up; IDMAP_NONE if absent. */
uint32_t
idmap_get(const struct idmap *m, uint64_t key)
{
	size_t	 mask, i;

	if (m->cap == 0)
		return (IDMAP_NONE);
	mask = m->cap - 1;
	for (i = idmap_hash(key) & mask;; i = (i + 1) & mask) {
		if (m->vals[i] == IDMAP_NONE)
			return (IDMAP_NONE);
		if (m->keys[i] == key)
			return (m->vals[i]);
	}
}

static int
idmap_grow(struct idmap *m)
{
	struct idmap	 n;
	size_t		 i, j, mask;

	n.cap = m->cap ? m->cap * 2 : 64;
	n.len = m->len;
	if (n.cap > SIZE_MAX / sizeof *n.keys)
		return (-1);
	n.keys = malloc(n.cap * sizeof *n.keys);
	n.vals = malloc(n.cap * sizeof *n.vals);
	if (n.keys == NULL || n.vals == NULL) {
		free(n.keys);
		free(n.vals);
		return (-1);
	}
	memset(n.vals, 0xff, n.cap * sizeof *n.vals);
	mask = n.cap - 1;
	for (i = 0; i < m->cap; i++) {
		if (m->vals[i] == IDMAP_NONE)
			continue;
		for (j = idmap_hash(m->keys[i]) & mask; n.vals[j] != IDMAP_NONE;
		    j = (j + 1) & mask)
			;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	*m = n;
	return (0);
}

/* Insert or replace; -1 when out of memory. The value must not be IDMAP_NONE. */
int
idmap_put(struct idmap *m, uint64_t key, uint32_t val)
{
	size_t	 mask, i;

	/* Keep the load factor under 1/2 so probes stay short. */
	if ((m->len + 1) * 2 > m->cap && idmap_grow(m) == -1)
		return (-1);
	mask = m->cap - 1;
	for (i = idmap_hash(key) & mask;; i = (i + 1) & mask) {
		if (m->vals[i] == IDMAP_NONE) {
			m->keys[i] = key;
			m->vals[i] = val;
			m->len++;
			return (0);
		}
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return (0);
		}
	}
}

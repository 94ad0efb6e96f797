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

#include "hash.h"
#include "strpool.h"

/*
 * String pool: one growing byte buffer holds every string, NUL-terminated;
 * off[id] is where string id starts. A hash table of ids finds a string
 * already interned.
 */

struct strpool {
	char		*data;
	size_t		 len, cap;
	uint64_t	*off;		/* [count] */
	uint32_t	 count, offcap;
	uint32_t	*slots;		/* hash table of ids, STRPOOL_NONE empty */
	uint64_t	*hashes;	/* [count], to grow and compare quickly */
	size_t		 nslots;
	int		 sealed;	/* no more interning: no hash table */
	int		 view;		/* data and off are borrowed */
};

static int	strpool_rehash(struct strpool *);
static uint32_t	strpool_insert(struct strpool *, const char *, size_t,
		    uint64_t);

/* Create a pool holding only the empty string (id 0). */
struct strpool *
strpool_create(void)
{
	struct strpool	*p;

	if ((p = calloc(1, sizeof *p)) == NULL)
		return (NULL);
	if (strpool_intern(p, "", 0) != 0) {
		strpool_free(p);
		return (NULL);
	}
	return (p);
}

/* Free a pool and every string in it. */
void
strpool_free(struct strpool *p)
{
	if (p == NULL)
		return;
	if (!p->view) {
		free(p->data);
		free(p->off);
	}
	free(p->slots);
	free(p->hashes);
	free(p);
}

static int
strpool_rehash(struct strpool *p)
{
	size_t		 n = p->nslots ? p->nslots * 2 : 1024, mask, j;
	uint32_t	*slots, i;

	if ((slots = malloc(n * sizeof *slots)) == NULL)
		return (-1);
	memset(slots, 0xff, n * sizeof *slots);
	mask = n - 1;
	for (i = 0; i < p->count; i++) {
		for (j = p->hashes[i] & mask; slots[j] != STRPOOL_NONE;
		    j = (j + 1) & mask)
			;
		slots[j] = i;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = n;
	return (0);
}

/* Length of string id, from where the next one starts. */
static inline size_t
strpool_len(const struct strpool *p, uint32_t id)
{
	return ((id + 1 < p->count ? p->off[id + 1] : p->len) - p->off[id] -
	    1);
}

/* Intern n bytes; returns the id, or STRPOOL_NONE when out of memory. */
uint32_t
strpool_intern(struct strpool *p, const char *s, size_t n)
{
	const char	*nul;

	if ((nul = memchr(s, '\0', n)) != NULL)
		n = nul - s;
	return (strpool_insert(p, s, n, hash_name(s, n, NULL)));
}

/*
 * Intern n bytes of plain ASCII without a NUL, checking that in the
 * hashing pass. Anything else returns STRPOOL_NONE with *odd set and
 * interns nothing: the caller validates (or repairs) the bytes and uses
 * strpool_intern. Out of memory is STRPOOL_NONE with *odd clear.
 */
uint32_t
strpool_intern_ascii(struct strpool *p, const char *s, size_t n, int *odd)
{
	uint64_t	 h;

	h = hash_name(s, n, odd);
	if (*odd)
		return (STRPOOL_NONE);
	return (strpool_insert(p, s, n, h));
}

/*
 * Whether a[0..n) and b[0..n) are equal. Names are short: from 8 bytes
 * on, words and a last word that overlaps the one before, in line
 * rather than a call to memcmp per candidate.
 */
static inline int
strpool_eq(const char *a, const char *b, size_t n)
{
	uint64_t	 x, y;
	size_t		 i;

	if (n < 8)
		return (memcmp(a, b, n) == 0);
	for (i = 0; i + 8 < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return (0);
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return (x == y);
}

/* Find or add s[0..n), without NUL, whose hash is h. */
static uint32_t
strpool_insert(struct strpool *p, const char *s, size_t n, uint64_t h)
{
	size_t		 mask, j, need;
	uint32_t	 id;

	if (p->sealed)
		return (STRPOOL_NONE);
	if ((size_t)(p->count + 1) * 2 > p->nslots && strpool_rehash(p) == -1)
		return (STRPOOL_NONE);
	mask = p->nslots - 1;
	for (j = h & mask; (id = p->slots[j]) != STRPOOL_NONE;
	    j = (j + 1) & mask) {
		if (p->hashes[id] == h && strpool_len(p, id) == n &&
		    strpool_eq(p->data + p->off[id], s, n))
			return (id);
	}
	if (p->count == STRPOOL_NONE - 1)
		return (STRPOOL_NONE);

	if (p->count == p->offcap) {
		uint32_t	 c = p->offcap ? p->offcap * 2 : 256;
		uint64_t	*o, *hs;

		if (c < p->offcap)
			c = STRPOOL_NONE;
		if ((o = realloc(p->off, (size_t)c * sizeof *o)) == NULL)
			return (STRPOOL_NONE);
		p->off = o;
		if ((hs = realloc(p->hashes, (size_t)c * sizeof *hs)) == NULL)
			return (STRPOOL_NONE);
		p->hashes = hs;
		p->offcap = c;
	}
	need = p->len + n + 1;
	if (need < p->len)
		return (STRPOOL_NONE);
	if (need > p->cap) {
		size_t	 c = p->cap ? p->cap : 4096;
		char	*d;

		while (c < need) {
			if (c > SIZE_MAX / 2)
				return (STRPOOL_NONE);
			c *= 2;
		}
		if ((d = realloc(p->data, c)) == NULL)
			return (STRPOOL_NONE);
		p->data = d;
		p->cap = c;
	}
	memcpy(p->data + p->len, s, n);
	p->data[p->len + n] = '\0';
	id = p->count++;
	p->off[id] = p->len;
	p->hashes[id] = h;
	p->slots[j] = id;
	p->len = need;
	return (id);
}

/* The string with an id; "" for an id out of range. */
const char *
strpool_get(const struct strpool *p, uint32_t id)
{
	if (p == NULL || id >= p->count)
		return ("");
	return (p->data + p->off[id]);
}

/* Number of strings interned, counting the empty string. */
uint32_t
strpool_count(const struct strpool *p)
{
	return (p->count);
}

/* Bytes held by the pool. */
size_t
strpool_memory(const struct strpool *p)
{
	if (p->view)
		return (sizeof *p);
	return (p->cap + (size_t)p->offcap * (p->sealed ? 8 : 16) +
	    p->nslots * 4);
}

/*
 * Building is done: give back the growth slack and the hash table (later
 * lookups by name scan the functions), and refuse further interning.
 */
void
strpool_seal(struct strpool *p)
{
	char	*d;

	if (p->len > 0 && p->len < p->cap &&
	    (d = realloc(p->data, p->len)) != NULL) {
		p->data = d;
		p->cap = p->len;
	}
	free(p->slots);
	free(p->hashes);
	p->slots = NULL;
	p->hashes = NULL;
	p->nslots = 0;
	p->sealed = 1;
}

/* The pool's storage, for writing a cache: bytes and string offsets. */
void
strpool_export(const struct strpool *p, const char **data, size_t *len,
    const uint64_t **off)
{
	*data = p->data;
	*len = p->len;
	*off = p->off;
}

/*
 * A sealed pool over borrowed storage (a mapped cache); the caller has
 * checked that every offset is below len and that data[len - 1] is NUL.
 */
struct strpool *
strpool_view(const char *data, size_t len, const uint64_t *off,
    uint32_t count)
{
	struct strpool	*p;

	if ((p = calloc(1, sizeof *p)) == NULL)
		return (NULL);
	p->data = (char *)data;
	p->len = p->cap = len;
	p->off = (uint64_t *)off;
	p->count = p->offcap = count;
	p->sealed = 1;
	p->view = 1;
	return (p);
}

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

#ifndef STRPOOL_H
#define STRPOOL_H

/*
 * String pool: interns byte strings and names each by a 32-bit id. Id 0 is
 * always the empty string. Strings are stored NUL-terminated; a string
 * with an embedded NUL is cut there (profile names never need one).
 */

#include <stddef.h>
#include <stdint.h>

#define STRPOOL_NONE	UINT32_MAX

struct strpool;

struct strpool	*strpool_create(void);
void		 strpool_free(struct strpool *);
uint32_t	 strpool_intern(struct strpool *, const char *, size_t);
uint32_t	 strpool_intern_ascii(struct strpool *, const char *, size_t,
		     int *);
const char	*strpool_get(const struct strpool *, uint32_t);
uint32_t	 strpool_count(const struct strpool *);
size_t		 strpool_memory(const struct strpool *);
void		 strpool_seal(struct strpool *);
void		 strpool_export(const struct strpool *, const char **, size_t *,
		     const uint64_t **);
struct strpool	*strpool_view(const char *, size_t, const uint64_t *,
		     uint32_t);

#endif /* STRPOOL_H */

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

#ifndef ANSWER_CACHE_H
#define ANSWER_CACHE_H

/*
 * A bounded cache of rendered answers. A loaded profile never changes,
 * so the answer to the same canonical query is the same bytes: a server
 * keeps the answers it served most recently (least recently used out
 * first, bounded by their total bytes) keyed by the query formatted back
 * by query_format (key order, spelling and defaults do not matter) and
 * the request's context that reaches the page (the file's name, the
 * static base). Only 200 answers of reports that are pure functions of
 * the profile and the query are kept (answer_cache_key says which).
 */

#include <stddef.h>
#include <stdint.h>

struct answer;
struct answer_cache;
struct query;

/* An entry may use at most limit / ANSWER_CACHE_SHARE bytes. */
#define ANSWER_CACHE_SHARE	4

struct answer_cache_stats {
	uint64_t	 hits;
	uint64_t	 misses;
	uint64_t	 stores;
	uint64_t	 evictions;
	size_t		 entries;
	size_t		 bytes;		/* keys, bodies and bookkeeping */
	size_t		 limit;
};

struct answer_cache	*answer_cache_create(size_t);
void			 answer_cache_free(struct answer_cache *);
char			*answer_cache_key(const struct query *, const char *,
			     const char *);
const struct answer	*answer_cache_get(struct answer_cache *,
			     const char *);
int			 answer_cache_put(struct answer_cache *, const char *,
			     const struct answer *);
void			 answer_cache_stats(const struct answer_cache *,
			     struct answer_cache_stats *);

#endif /* ANSWER_CACHE_H */

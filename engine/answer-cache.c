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

#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "answer-cache.h"
#include "catalog.h"
#include "hash.h"
#include "query.h"
#include "report.h"

/*
 * A chained hash table of entries and one LRU list through them, most
 * recently used first. An entry is one allocation: the entry, its key
 * and its body, so its size is what it costs and freeing it is one
 * free(3). Lookups and stores are O(1) but for hashing the key; the
 * table doubles as entries grow past its buckets.
 *
 * Which answers are pure (answer_cache_key): not those of a report
 * marked live (cmd=status, cmd=shutdown: the time, the server's
 * counters, an action); not a comparison with base=, whose answer
 * depends on another file that may change while we run (its server
 * reloads it by identity, server-base.c); not errors (answer_cache_put
 * takes only 200s, so a 503 of a spent cost budget or a base still
 * loading is never kept). A hit of a query that once fitted the budget
 * is served as is: the budget is the server's, fixed for its life, and
 * the answer exists.
 */

#define ANSWER_CACHE_BUCKETS	64	/* at first; a power of two */

struct answer_cache_entry {
	TAILQ_ENTRY(answer_cache_entry) lru;
	struct answer_cache_entry *next;	/* in its bucket */
	uint64_t		 hash;
	size_t			 size;		/* bytes accounted */
	size_t			 keylen;
	char			*key;		/* in the same allocation */
	struct answer		 answer;	/* body: likewise */
};
TAILQ_HEAD(answer_cache_lru, answer_cache_entry);

struct answer_cache {
	struct answer_cache_entry **bucket;
	size_t			 nbuckets;
	struct answer_cache_lru	 lru;
	struct answer_cache_stats st;
};

static struct answer_cache_entry **answer_cache_find(struct answer_cache *,
		    const char *, size_t, uint64_t);
static void	answer_cache_remove(struct answer_cache *,
		    struct answer_cache_entry *);
static void	answer_cache_grow(struct answer_cache *);

/* A cache of at most limit bytes; NULL if out of memory. */
struct answer_cache *
answer_cache_create(size_t limit)
{
	struct answer_cache	*c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (NULL);
	if ((c->bucket = calloc(ANSWER_CACHE_BUCKETS,
	    sizeof *c->bucket)) == NULL) {
		free(c);
		return (NULL);
	}
	c->nbuckets = ANSWER_CACHE_BUCKETS;
	TAILQ_INIT(&c->lru);
	c->st.limit = limit;
	return (c);
}

/* Free a cache and every entry. */
void
answer_cache_free(struct answer_cache *c)
{
	struct answer_cache_entry	*e;

	if (c == NULL)
		return;
	while ((e = TAILQ_FIRST(&c->lru)) != NULL) {
		TAILQ_REMOVE(&c->lru, e, lru);
		free(e);
	}
	free(c->bucket);
	free(c);
}

/*
 * The key of a parsed query's answer, or NULL if its answer may not be
 * cached (see the top of this file) or out of memory: either way, do
 * not cache. name and static_base are the request's (the page shows and
 * links them); NULL is taken as "". Each part is length-prefixed so no
 * two requests share a key. Caller frees.
 */
char *
answer_cache_key(const struct query *q, const char *name,
    const char *static_base)
{
	char				*canon, *key;
	int				 n;

	if ((catalog_reports[q->cmd].flags & (CATALOG_LIVE |
	    CATALOG_FRONT)) || *q->base != '\0')
		return (NULL);
	if ((canon = query_format(q)) == NULL)
		return (NULL);
	if (name == NULL)
		name = "";
	if (static_base == NULL)
		static_base = "";
	n = asprintf(&key, "%zu:%s%zu:%s%s", strlen(name), name,
	    strlen(static_base), static_base, canon);
	free(canon);
	return (n == -1 ? NULL : key);
}

/* The link to the entry of key (or to where it would go). */
static struct answer_cache_entry **
answer_cache_find(struct answer_cache *c, const char *key, size_t keylen,
    uint64_t h)
{
	struct answer_cache_entry	**ep;

	for (ep = &c->bucket[h & (c->nbuckets - 1)]; *ep != NULL;
	    ep = &(*ep)->next) {
		if ((*ep)->hash == h && (*ep)->keylen == keylen &&
		    memcmp((*ep)->key, key, keylen) == 0)
			break;
	}
	return (ep);
}

/* Unlink and free an entry. */
static void
answer_cache_remove(struct answer_cache *c, struct answer_cache_entry *e)
{
	struct answer_cache_entry	**ep;

	ep = answer_cache_find(c, e->key, e->keylen, e->hash);
	*ep = e->next;
	TAILQ_REMOVE(&c->lru, e, lru);
	c->st.entries--;
	c->st.bytes -= e->size;
	free(e);
}

/* Double the buckets; on failure keep the longer chains. */
static void
answer_cache_grow(struct answer_cache *c)
{
	struct answer_cache_entry	**nb, *e;
	size_t				 n = c->nbuckets * 2, i;

	if ((nb = calloc(n, sizeof *nb)) == NULL)
		return;
	TAILQ_FOREACH(e, &c->lru, lru) {
		i = e->hash & (n - 1);
		e->next = nb[i];
		nb[i] = e;
	}
	free(c->bucket);
	c->bucket = nb;
	c->nbuckets = n;
}

/*
 * The answer kept for key, made the most recently used; NULL on a miss.
 * Valid until the next answer_cache_put or answer_cache_free.
 */
const struct answer *
answer_cache_get(struct answer_cache *c, const char *key)
{
	struct answer_cache_entry	*e;
	size_t				 len;

	if (c == NULL || key == NULL)
		return (NULL);
	len = strlen(key);
	if ((e = *answer_cache_find(c, key, len,
	    hash_bytes(key, len))) == NULL) {
		c->st.misses++;
		return (NULL);
	}
	c->st.hits++;
	if (e != TAILQ_FIRST(&c->lru)) {
		TAILQ_REMOVE(&c->lru, e, lru);
		TAILQ_INSERT_HEAD(&c->lru, e, lru);
	}
	return (&e->answer);
}

/*
 * Keep a copy of answer a under key, evicting the least recently used
 * entries to make room. Only a plain 200 is kept, and only if it is at
 * most limit / ANSWER_CACHE_SHARE bytes with its key, so one big page
 * cannot empty the cache. Returns 1 if kept, 0 if not, -1 if out of
 * memory (the cache is unchanged but for what was evicted).
 */
int
answer_cache_put(struct answer_cache *c, const char *key,
    const struct answer *a)
{
	struct answer_cache_entry	*e, **ep;
	size_t				 keylen, size;
	uint64_t			 h;

	if (c == NULL || key == NULL || a == NULL || a->status != 200 ||
	    a->message != NULL || a->retry_after != 0 || a->body == NULL)
		return (0);
	keylen = strlen(key);
	if (a->len > c->st.limit || keylen > c->st.limit)
		return (0);
	size = sizeof *e + keylen + 1 + a->len;
	if (size > c->st.limit / ANSWER_CACHE_SHARE)
		return (0);
	h = hash_bytes(key, keylen);
	if ((e = *answer_cache_find(c, key, keylen, h)) != NULL)
		answer_cache_remove(c, e);
	while (c->st.bytes + size > c->st.limit &&
	    (e = TAILQ_LAST(&c->lru, answer_cache_lru)) != NULL) {
		answer_cache_remove(c, e);
		c->st.evictions++;
	}
	if ((e = malloc(size)) == NULL)
		return (-1);
	memset(e, 0, sizeof *e);
	e->hash = h;
	e->size = size;
	e->keylen = keylen;
	e->key = (char *)(e + 1);
	memcpy(e->key, key, keylen + 1);
	e->answer.status = 200;
	e->answer.content_type = a->content_type;
	e->answer.body = e->key + keylen + 1;
	e->answer.len = a->len;
	memcpy(e->answer.body, a->body, a->len);

	if (c->st.entries >= c->nbuckets)
		answer_cache_grow(c);
	ep = &c->bucket[h & (c->nbuckets - 1)];
	e->next = *ep;
	*ep = e;
	TAILQ_INSERT_HEAD(&c->lru, e, lru);
	c->st.entries++;
	c->st.bytes += size;
	c->st.stores++;
	return (1);
}

/* The counters; all zero for a NULL cache (disabled). */
void
answer_cache_stats(const struct answer_cache *c,
    struct answer_cache_stats *st)
{
	if (c == NULL) {
		memset(st, 0, sizeof *st);
		return;
	}
	*st = c->st;
}

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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "answer-cache.h"
#include "query.h"
#include "tap.h"

/*
 * The answer cache: canonical keys, what is never kept (live reports,
 * base=, errors, entries too big), eviction by bytes in LRU order, and
 * the bytes of a hit.
 */

/* The key of a query string, NULL if uncacheable. Caller frees. */
static char *
key_of(const char *qs, const char *name, const char *static_base)
{
	struct query	*q;
	char		*why = NULL, *key;
	int		 status;

	if ((q = query_parse(qs, &status, &why)) == NULL) {
		diag("%s: %s", qs, why ? why : "?");
		free(why);
		return (NULL);
	}
	key = answer_cache_key(q, name, static_base);
	query_free(q);
	return (key);
}

/* Two query strings' keys are equal (both cacheable). */
static int
same_key(const char *a, const char *b)
{
	char	*ka = key_of(a, "p.folded", NULL);
	char	*kb = key_of(b, "p.folded", NULL);
	int	 r = ka != NULL && kb != NULL && strcmp(ka, kb) == 0;

	free(ka);
	free(kb);
	return (r);
}

/* An answer of status 200 with len bytes of c. */
static struct answer *
body(size_t len, int c)
{
	struct answer	*a;

	if ((a = calloc(1, sizeof *a)) == NULL ||
	    (a->body = malloc(len + 1)) == NULL)
		exit(1);
	a->status = 200;
	a->content_type = "text/plain; charset=utf-8";
	memset(a->body, c, len);
	a->body[len] = '\0';
	a->len = len;
	return (a);
}

static void
test_keys(void)
{
	char	*k, *k2;

	ok(same_key("cmd=tree&open=1,2&format=json",
	    "format=json&open=1,2&cmd=tree"), "key order does not matter");
	ok(same_key("cmd=tree", "cmd=tree&format=html"),
	    "a default spelt out is the same key");
	ok(same_key("cmd=top&limit=10", "limit=10;cmd=top"),
	    "';' and '&' alike");
	ok(!same_key("cmd=tree&format=json", "cmd=tree&format=text"),
	    "the format is in the key");
	ok(!same_key("cmd=top&limit=10", "cmd=top&limit=11"),
	    "so is every other key");
	k = key_of("cmd=top", "a.folded", NULL);
	k2 = key_of("cmd=top", "b.folded", NULL);
	ok(k != NULL && k2 != NULL && strcmp(k, k2) != 0,
	    "the file's name is in the key (the page shows it)");
	free(k2);
	k2 = key_of("cmd=top", "a.folded", "/static/");
	ok(k2 != NULL && strcmp(k, k2) != 0, "and the static base");
	free(k2);
	free(k);
	/* Length prefixes: no two (name, static) pairs run together. */
	k = key_of("cmd=top", "a", "bc");
	k2 = key_of("cmd=top", "ab", "c");
	ok(k != NULL && k2 != NULL && strcmp(k, k2) != 0,
	    "name and static base cannot run together");
	free(k);
	free(k2);

	ok((k = key_of("cmd=status", "p", NULL)) == NULL,
	    "cmd=status is never cached");
	free(k);
	ok((k = key_of("cmd=status&format=json", "p", NULL)) == NULL,
	    "in any format");
	free(k);
	ok((k = key_of("cmd=shutdown", "p", NULL)) == NULL,
	    "cmd=shutdown is never cached");
	free(k);
	ok((k = key_of("cmd=top&base=old.folded", "p", NULL)) == NULL,
	    "base= (another file, which may change) is never cached");
	free(k);
}

static void
test_errors(void)
{
	struct answer_cache	*c;
	struct answer_cache_stats st;
	struct answer		*a;

	if ((c = answer_cache_create(1 << 20)) == NULL)
		exit(1);
	a = answer_error(FMT_JSON, 503, "query too expensive", NULL);
	ok(a != NULL && answer_cache_put(c, "k", a) == 0,
	    "a 503 (over budget) is not kept");
	answer_free(a);
	a = answer_error(FMT_HTML, 400, "bad query", NULL);
	ok(a != NULL && answer_cache_put(c, "k", a) == 0,
	    "a 400 is not kept");
	answer_free(a);
	a = body(10, 'x');
	a->retry_after = 2;
	ok(answer_cache_put(c, "k", a) == 0, "nor an answer saying retry");
	answer_free(a);
	ok(answer_cache_get(c, "k") == NULL, "so the key misses");
	answer_cache_stats(c, &st);
	ok(st.entries == 0 && st.bytes == 0 && st.misses == 1 &&
	    st.hits == 0, "nothing kept, one miss counted");
	answer_cache_free(c);

	ok(answer_cache_get(NULL, "k") == NULL, "a NULL cache is off");
	a = body(10, 'x');
	ok(answer_cache_put(NULL, "k", a) == 0, "and keeps nothing");
	answer_free(a);
	answer_cache_stats(NULL, &st);
	ok(st.hits == 0 && st.limit == 0, "with zero counters");
}

static void
test_lru(void)
{
	struct answer_cache	*c;
	struct answer_cache_stats st;
	const struct answer	*hit;
	struct answer		*a;
	char			 key[32];
	size_t			 limit = 100000, i, n, kept;

	if ((c = answer_cache_create(limit)) == NULL)
		exit(1);
	/* Each entry is a bit over a fifth of the limit with its overhead. */
	a = body(limit / 5, 'a');
	ok(answer_cache_put(c, "a", a) == 1, "kept a");
	answer_free(a);
	hit = answer_cache_get(c, "a");
	ok(hit != NULL && hit->status == 200 && hit->len == limit / 5 &&
	    hit->body[0] == 'a' && hit->body[hit->len - 1] == 'a' &&
	    strcmp(hit->content_type, "text/plain; charset=utf-8") == 0,
	    "a hit gives the same bytes and content type");
	for (i = 1; i < 4; i++) {
		snprintf(key, sizeof key, "%c", (int)('a' + i));
		a = body(limit / 5, 'a' + (int)i);
		answer_cache_put(c, key, a);
		answer_free(a);
	}
	answer_cache_stats(c, &st);
	ok(st.entries == 4 && st.bytes <= limit, "four fit (%zu bytes)",
	    st.bytes);
	ok(answer_cache_get(c, "a") != NULL, "a used again: now the newest");
	a = body(limit / 5, 'e');
	answer_cache_put(c, "e", a);
	answer_free(a);
	answer_cache_stats(c, &st);
	ok(st.bytes <= limit && st.evictions == 1 && st.entries == 4,
	    "the fifth evicts one (%zu bytes of %zu)", st.bytes, limit);
	ok(answer_cache_get(c, "b") == NULL, "the least recently used (b)");
	ok(answer_cache_get(c, "a") != NULL && answer_cache_get(c, "c") !=
	    NULL && answer_cache_get(c, "e") != NULL, "not a, c or e");

	a = body(limit / ANSWER_CACHE_SHARE, 'z');
	ok(answer_cache_put(c, "big", a) == 0,
	    "an entry over a %dth of the limit is not kept",
	    ANSWER_CACHE_SHARE);
	answer_free(a);
	answer_cache_stats(c, &st);
	ok(st.entries == 4, "and evicts nothing");

	a = body(100, 'r');
	ok(answer_cache_put(c, "a", a) == 1, "a key stored again");
	answer_free(a);
	hit = answer_cache_get(c, "a");
	answer_cache_stats(c, &st);
	ok(hit != NULL && hit->len == 100 && hit->body[0] == 'r' &&
	    st.entries == 4, "replaces its entry");
	answer_cache_free(c);

	/* Many small entries: the table grows, each stays reachable. */
	if ((c = answer_cache_create(16 << 20)) == NULL)
		exit(1);
	n = 5000;
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof key, "cmd=tree&open=%zu", i);
		a = body(i % 97 + 1, 'a' + (int)(i % 26));
		answer_cache_put(c, key, a);
		answer_free(a);
	}
	for (i = kept = 0; i < n; i++) {
		snprintf(key, sizeof key, "cmd=tree&open=%zu", i);
		hit = answer_cache_get(c, key);
		if (hit != NULL && hit->len == i % 97 + 1 &&
		    hit->body[0] == 'a' + (int)(i % 26))
			kept++;
	}
	answer_cache_stats(c, &st);
	is_int(kept, n, "%zu entries all found", n);
	is_int(st.hits, n, "hits counted");
	answer_cache_free(c);

	/* Bounded: the same puts into a small cache. */
	if ((c = answer_cache_create(20000)) == NULL)
		exit(1);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof key, "cmd=tree&open=%zu", i);
		a = body(i % 97 + 1, 'x');
		answer_cache_put(c, key, a);
		answer_free(a);
		answer_cache_stats(c, &st);
		if (st.bytes > 20000)
			break;
	}
	ok(i == n && st.bytes <= 20000 && st.entries < n &&
	    st.evictions == st.stores - st.entries,
	    "never over its limit (%zu entries, %zu bytes)", st.entries,
	    st.bytes);
	answer_cache_free(c);
}

int
main(void)
{
	test_keys();
	test_errors();
	test_lru();
	return (tap_done());
}

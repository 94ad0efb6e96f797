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

#ifndef SELECTOR_H
#define SELECTOR_H

/*
 * Label selectors (deepq-clickhouse(7)), the matchers of Prometheus,
 * Pyroscope and Parca: {service="api", region=~"eu-.*", version!="1.2"}.
 * Parsed from a view file's select= or a query's select=, and written
 * as a ClickHouse condition on a labels column (Array(String) of
 * "key=value") in which every value is a literal of clickhouse_quote()
 * and every regex was checked first: bounded in length, compiled, and
 * free of what RE2 (ClickHouse's regex engine) refuses.
 */

#include <stddef.h>

struct outbuf;

#define SELECTOR_MAX_LEN	4096	/* bytes of a selector as given */
#define SELECTOR_MAX_MATCHERS	32
#define SELECTOR_MAX_KEY	128
#define SELECTOR_MAX_VALUE	1024
#define SELECTOR_MAX_REGEX	256	/* bytes of one =~ or !~ regex */

enum selector_op {
	SELECTOR_EQ,		/* = */
	SELECTOR_NE,		/* != */
	SELECTOR_RE,		/* =~, the whole value */
	SELECTOR_NRE,		/* !~ */
};

struct selector_matcher {
	char		*key;
	enum selector_op op;
	char		*value;
};

struct selector {
	struct selector_matcher	*m;
	size_t			 n;
};

struct selector	*selector_parse(const char *, char **);
void		 selector_free(struct selector *);
int		 selector_add(struct selector *, const char *,
		     enum selector_op, const char *, char **);
int		 selector_key_ok(const char *, size_t);
void		 selector_sql(const struct selector *, const char *,
		     struct outbuf *);
void		 selector_format(const struct selector *, struct outbuf *);

#endif /* SELECTOR_H */

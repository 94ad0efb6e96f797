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

#ifndef CLICKHOUSE_H
#define CLICKHOUSE_H

/*
 * A ClickHouse HTTP client (deepq-clickhouse(7)): one POST per call over
 * HTTP/1.0 on a plain TCP connection, every step bounded by a deadline,
 * the answer bounded in size. No library: the synchronous loader needs
 * no event loop, and every program links common/ (the CGI included).
 * http:// only; put a TLS proxy on loopback in front of a remote server.
 *
 * SQL text is built here too. ClickHouse before 19 (Debian's 18.16) has
 * no query parameters, so a value never goes into SQL except through
 * clickhouse_buf_quote() (a string literal) or as a number, and a name
 * only after clickhouse_name_ok().
 */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "proto.h"

/* clickhouse_post()'s answers besides 0. */
#define CLICKHOUSE_REFUSED	-1	/* ClickHouse answered with an error */
#define CLICKHOUSE_UNAVAILABLE	-2	/* no answer: down, timeout, I/O */

/*
 * The start of every *cause for CLICKHOUSE_UNAVAILABLE, so that a caller
 * far away (the client reading a server's load error) tells a service
 * that is down (503, retry) from a bad profile or query.
 */
#define CLICKHOUSE_UNAVAILABLE_TEXT	PROTO_UNAVAILABLE_TEXT

/* A growing byte buffer; error is set once an allocation fails. */
struct clickhouse_buf {
	char		*b;
	size_t		 n;
	size_t		 cap;
	int		 error;
};

struct clickhouse;

struct clickhouse *clickhouse_create(const char *, char **);
void		 clickhouse_free(struct clickhouse *);
int		 clickhouse_auth(struct clickhouse *, const char *,
		     const char *, char **);
void		 clickhouse_timeout(struct clickhouse *, int);
void		 clickhouse_on_body(struct clickhouse *, int (*)(void *,
		     const char *, size_t, char **), void *);
int		 clickhouse_post(struct clickhouse *, const char *,
		     const void *, size_t, size_t, struct clickhouse_buf *,
		     char **);

int		 clickhouse_name_ok(const char *);
int		 clickhouse_time_parse(const char *, time_t *);
int		 clickhouse_duration_parse(const char *, long long *);

void		 clickhouse_buf_free(struct clickhouse_buf *);
void		 clickhouse_buf_add(struct clickhouse_buf *, const void *,
		     size_t);
void		 clickhouse_buf_printf(struct clickhouse_buf *, const char *,
		     ...) __attribute__((__format__(__printf__, 2, 3)));
void		 clickhouse_buf_quote(struct clickhouse_buf *, const char *,
		     size_t);
void		 clickhouse_buf_urlencode(struct clickhouse_buf *,
		     const char *);

/* RowBinary: unsigned LEB128 lengths, little-endian fixed widths. */
static inline void
clickhouse_buf_varint(struct clickhouse_buf *cb, uint64_t v)
{
	unsigned char	 tmp[10];
	size_t		 n = 0;

	do {
		tmp[n] = v & 0x7f;
		v >>= 7;
		if (v != 0)
			tmp[n] |= 0x80;
		n++;
	} while (v != 0);
	clickhouse_buf_add(cb, tmp, n);
}

static inline void
clickhouse_buf_string(struct clickhouse_buf *cb, const char *s, size_t len)
{
	clickhouse_buf_varint(cb, len);
	clickhouse_buf_add(cb, s, len);
}

#endif /* CLICKHOUSE_H */

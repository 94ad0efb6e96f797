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
 * HTTP/1.1 (Connection: close) on a plain TCP connection, every step bounded by a deadline,
 * the answer bounded in size and read as a stream through a window of
 * bounded size (clickhouse_open, clickhouse_need), so that a view of
 * millions of stacks is parsed while ClickHouse still sends it and is
 * never held whole in memory. No library: the synchronous loader needs
 * no event loop. http:// only; put a TLS proxy on loopback in front of
 * a remote server.
 *
 * SQL text is built here too, into a struct outbuf (common/outbuf.h).
 * ClickHouse before 19 (Debian's 18.16) has no query parameters, so a
 * value never goes into SQL except through clickhouse_quote() (a string
 * literal) or as a number, and a name only after clickhouse_name_ok().
 */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "outbuf.h"
#include "proto.h"

/* What clickhouse_open() and clickhouse_post() answer besides 0. */
#define CLICKHOUSE_REFUSED	-1	/* ClickHouse answered with an error */
#define CLICKHOUSE_UNAVAILABLE	-2	/* no answer: down, timeout, I/O, a
					   shard of a cluster unreachable */

/*
 * The start of every *cause for CLICKHOUSE_UNAVAILABLE, so that a caller
 * far away (the client reading a server's load error) tells a service
 * that is down (503, retry) from a bad profile or query.
 */
#define CLICKHOUSE_UNAVAILABLE_TEXT	PROTO_UNAVAILABLE_TEXT

#define CLICKHOUSE_WINDOW	(1024 * 1024)	/* a stream's first window */

struct clickhouse;

/* How an answer's body ends (clickhouse.c). */
enum clickhouse_coding {
	CLICKHOUSE_CLOSE,		/* with the connection */
	CLICKHOUSE_LENGTH,		/* after Content-Length bytes */
	CLICKHOUSE_CHUNK_SIZE,		/* chunked: at a chunk's size line */
	CLICKHOUSE_CHUNK_DATA,		/* in a chunk's data */
	CLICKHOUSE_CHUNK_END,		/* at the CRLF after it */
	CLICKHOUSE_CHUNK_TRAILER,	/* after the last chunk */
};

/*
 * An answer being read. p and end delimit the bytes of the body read
 * and not yet consumed; the caller advances p. The other members are
 * clickhouse.c's.
 */
struct clickhouse_answer {
	const unsigned char	*p;
	const unsigned char	*end;

	unsigned char		*buf;		/* the window */
	size_t			 cap;
	size_t			 maxwin;	/* largest window allowed */
	unsigned char		*raw;		/* read, not yet decoded */
	size_t			 rawp, rawn;
	enum clickhouse_coding	 state;
	unsigned long long	 left;		/* of a chunk or the length */
	int			 done;		/* the body has ended */
	unsigned long long	 body;		/* body bytes read so far */
	unsigned long long	 max;		/* most body bytes allowed */
	long long		 deadline;	/* ms, rundir_now() */
	int			 fd;
	int			 error;		/* CLICKHOUSE_* once failed */
	const char		*url;
};

struct clickhouse *clickhouse_create(const char *, char **);
void		 clickhouse_free(struct clickhouse *);
int		 clickhouse_auth(struct clickhouse *, const char *,
		     const char *, char **);
void		 clickhouse_timeout(struct clickhouse *, int);
void		 clickhouse_deadline(struct clickhouse *, long long);
const char	*clickhouse_url(const struct clickhouse *);

int		 clickhouse_open(struct clickhouse *, const char *,
		     const void *, size_t, unsigned long long,
		     struct clickhouse_answer **, char **);
int		 clickhouse_fill(struct clickhouse_answer *, size_t, char **);
int		 clickhouse_exception(const struct clickhouse_answer *,
		     char **);
struct clickhouse_answer *clickhouse_answer_memory(const void *, size_t);
void		 clickhouse_answer_free(struct clickhouse_answer *);
int		 clickhouse_post(struct clickhouse *, const char *,
		     const void *, size_t, size_t, struct outbuf *, char **);

int		 clickhouse_name_ok(const char *);
int		 clickhouse_time_parse(const char *, time_t *);
int		 clickhouse_duration_parse(const char *, long long *);

void		 clickhouse_quote(struct outbuf *, const char *, size_t);
void		 clickhouse_urlencode(struct outbuf *, const char *);

/*
 * At least n bytes at a->p: 0; the answer ended with fewer (those are
 * at p..end): 1; a failure: -1 with *cause (CLICKHOUSE_UNAVAILABLE_TEXT
 * first when ClickHouse stopped answering). Inline while the window
 * holds them.
 */
static inline int
clickhouse_need(struct clickhouse_answer *a, size_t n, char **cause)
{
	if ((size_t)(a->end - a->p) >= n)
		return (0);
	return (clickhouse_fill(a, n, cause));
}

/* RowBinary out: unsigned LEB128 lengths, little-endian fixed widths. */
static inline void
clickhouse_varint(struct outbuf *ob, uint64_t v)
{
	char	 tmp[10];
	size_t	 n = 0;

	do {
		tmp[n] = (char)(v & 0x7f);
		v >>= 7;
		if (v != 0)
			tmp[n] |= (char)0x80;
		n++;
	} while (v != 0);
	outbuf_write(ob, tmp, n);
}

static inline void
clickhouse_string(struct outbuf *ob, const char *s, size_t len)
{
	clickhouse_varint(ob, len);
	outbuf_write(ob, s, len);
}

static inline void
clickhouse_fixed(struct outbuf *ob, uint64_t v, size_t n)
{
	char	 b[8];
	size_t	 i;

	for (i = 0; i < n; i++)
		b[i] = (char)((v >> (8 * i)) & 0xff);
	outbuf_write(ob, b, n);
}

/*
 * RowBinary in, from a buffer the caller made sure holds the field (a
 * varint: 0, or -1 if it runs past end or past 64 bits).
 */
static inline int
clickhouse_get_varint(const unsigned char **pp, const unsigned char *end,
    uint64_t *v)
{
	const unsigned char	*p = *pp;
	unsigned		 shift = 0;

	*v = 0;
	while (p < end && shift < 64) {
		*v |= (uint64_t)(*p & 0x7f) << shift;
		if ((*p++ & 0x80) == 0) {
			*pp = p;
			return (0);
		}
		shift += 7;
	}
	return (-1);
}

static inline uint64_t
clickhouse_get_fixed(const unsigned char *p, size_t n)
{
	uint64_t	 v = 0;
	size_t		 i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return (v);
}

#endif /* CLICKHOUSE_H */

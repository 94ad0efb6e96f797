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

#ifndef OUTBUF_H
#define OUTBUF_H

/*
 * The one output buffer: every answer body, page, export and converted
 * file is written through it. Renderers and writers make millions of
 * small writes, and each stdio call costs more than the copy it makes, so
 * an append is an inline copy while it fits below lim; the rest is
 * outbuf_spill, out of line. Two kinds:
 *
 * - a body (outbuf_init): the buffer grows by doubling and owns the bytes,
 *   which outbuf_take gives away (an answer's body, a string);
 * - a sink (outbuf_init_sink, outbuf_init_fd): a fixed buffer of
 *   OUTBUF_SIZE bytes handed to a callback or written to a file
 *   descriptor each time it fills (deepq convert, standard output).
 *
 * Either may carry a check (outbuf_check), called every OUTBUF_CHECK
 * bytes: when it returns -1 the buffer fails (a query past its deadline
 * while rendering stops there), and a most (outbuf_max): the write that
 * would pass it fails the buffer instead (outbuf_too_large says so), so
 * that an answer's memory is bounded while it is written, not once it
 * is whole. A failed buffer drops every write; writers test
 * outbuf_failed in their long loops to stop early.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUTBUF_SIZE	65536	/* a sink's buffer */
#define OUTBUF_MIN	16384	/* a body's first allocation */
#define OUTBUF_CHECK	65536	/* bytes written between checks */

/* Takes len bytes; -1 on failure (the buffer fails). */
typedef int	(*outbuf_sink)(void *, const void *, size_t);

struct outbuf {
	char		*b;
	size_t		 n;		/* bytes in b */
	size_t		 lim;		/* inline appends stay below it */
	size_t		 cap;		/* b's size */
	size_t		 done;		/* bytes handed to the sink */
	int		 error;
	outbuf_sink	 sink;		/* NULL: a body */
	void		*sink_arg;
	int		 fd;		/* outbuf_init_fd's */
	int		 (*check)(void *);
	void		*check_arg;
	size_t		 next_check;	/* at this many bytes written */
	size_t		 max;		/* bytes it may hold in all, 0 none */
};

#define OUTBUF_FAILED		1	/* ob->error: memory, sink, check */
#define OUTBUF_TOO_LARGE	2	/* ob->error: past outbuf_max */

void	outbuf_init(struct outbuf *);
void	outbuf_init_sink(struct outbuf *, outbuf_sink, void *);
void	outbuf_init_fd(struct outbuf *, int);
void	outbuf_check(struct outbuf *, int (*)(void *), void *);
void	outbuf_max(struct outbuf *, size_t);
void	outbuf_fail_size(struct outbuf *);
int	outbuf_flush(struct outbuf *);
char	*outbuf_take(struct outbuf *, size_t *);
void	outbuf_clear(struct outbuf *);
void	outbuf_rewind(struct outbuf *);
void	outbuf_fail(struct outbuf *);
void	outbuf_spill(struct outbuf *, const void *, size_t);
void	outbuf_printf(struct outbuf *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	outbuf_vprintf(struct outbuf *, const char *, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));
void	outbuf_i64(struct outbuf *, int64_t);
void	outbuf_u64(struct outbuf *, uint64_t);

/* (Not len >, which would copy 0 bytes to a NULL buffer.) */
static inline void
outbuf_write(struct outbuf *ob, const void *p, size_t len)
{
	if (len >= ob->lim - ob->n) {
		outbuf_spill(ob, p, len);
		return;
	}
	memcpy(ob->b + ob->n, p, len);
	ob->n += len;
}

/* With a literal, the length is a constant once inlined. */
static inline void
outbuf_puts(struct outbuf *ob, const char *s)
{
	outbuf_write(ob, s, strlen(s));
}

static inline void
outbuf_putc(struct outbuf *ob, char c)
{
	if (ob->n == ob->lim)
		outbuf_spill(ob, &c, 1);
	else
		ob->b[ob->n++] = c;
}

/* Bytes written so far (a sink's included). */
static inline size_t
outbuf_len(const struct outbuf *ob)
{
	return (ob->done + ob->n);
}

/* -1 once a write, the sink or the check has failed. */
static inline int
outbuf_failed(const struct outbuf *ob)
{
	return (ob->error ? -1 : 0);
}

/* Has it failed because a write would have passed its most? */
static inline int
outbuf_too_large(const struct outbuf *ob)
{
	return (ob->error == OUTBUF_TOO_LARGE);
}

#endif /* OUTBUF_H */

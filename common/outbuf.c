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

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outbuf.h"

/* The output buffer (see outbuf.h). */

static int	outbuf_fd_write(void *, const void *, size_t);
static void	outbuf_limit(struct outbuf *);

/* An empty body, grown on the first write. */
void
outbuf_init(struct outbuf *ob)
{
	memset(ob, 0, sizeof *ob);
	ob->fd = -1;
	ob->next_check = SIZE_MAX;
}

/* A sink: each full buffer goes to fn(arg, ...). */
void
outbuf_init_sink(struct outbuf *ob, outbuf_sink fn, void *arg)
{
	outbuf_init(ob);
	ob->sink = fn;
	ob->sink_arg = arg;
}

static int
outbuf_fd_write(void *arg, const void *p, size_t len)
{
	struct outbuf	*ob = arg;
	const char	*s = p;
	ssize_t		 k;

	while (len > 0) {
		if ((k = write(ob->fd, s, len)) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		s += k;
		len -= (size_t)k;
	}
	return (0);
}

/* A sink writing to fd (left open). */
void
outbuf_init_fd(struct outbuf *ob, int fd)
{
	outbuf_init_sink(ob, outbuf_fd_write, ob);
	ob->fd = fd;
}

/*
 * Where the inline path stops: the end of the buffer (a body keeps a
 * byte for its NUL), or the next check if that comes first.
 */
static void
outbuf_limit(struct outbuf *ob)
{
	size_t	 lim, at;

	if (ob->error || ob->b == NULL) {
		ob->lim = ob->n;
		return;
	}
	lim = ob->sink != NULL ? ob->cap : ob->cap - 1;
	if (ob->max != 0) {
		at = ob->max > ob->done ? ob->max - ob->done : 0;
		if (at < lim)
			lim = at;
	}
	if (ob->check != NULL) {
		at = ob->next_check > ob->done ? ob->next_check - ob->done : 0;
		if (at < lim)
			lim = at;
	}
	ob->lim = lim < ob->n ? ob->n : lim;
}

/* Call fn(arg) every OUTBUF_CHECK bytes; -1 from it fails the buffer. */
void
outbuf_check(struct outbuf *ob, int (*fn)(void *), void *arg)
{
	ob->check = fn;
	ob->check_arg = arg;
	ob->next_check = outbuf_len(ob) + OUTBUF_CHECK;
	outbuf_limit(ob);
}

/*
 * At most max bytes in all (0: no limit): the write that would pass it
 * fails the buffer, with outbuf_too_large.
 */
void
outbuf_max(struct outbuf *ob, size_t max)
{
	ob->max = max;
	if (max != 0 && outbuf_len(ob) > max) {
		ob->error = OUTBUF_TOO_LARGE;
		ob->lim = ob->n;
		return;
	}
	outbuf_limit(ob);
}

/*
 * Fail as a write past the most would: a writer that knows in advance
 * its output will not fit (outbuf_too_large then says so).
 */
void
outbuf_fail_size(struct outbuf *ob)
{
	ob->error = OUTBUF_TOO_LARGE;
	ob->lim = ob->n;
}

/* Empty a body that has not failed, keeping its memory for more. */
void
outbuf_rewind(struct outbuf *ob)
{
	if (ob->sink == NULL && !ob->error)
		ob->n = 0;
}

/* Drop what is written and every later write. */
void
outbuf_fail(struct outbuf *ob)
{
	if (!ob->error)
		ob->error = OUTBUF_FAILED;
	outbuf_limit(ob);
}

/* A sink's buffer out to the sink; -1 if the buffer has failed. */
int
outbuf_flush(struct outbuf *ob)
{
	if (ob->sink != NULL && !ob->error && ob->n > 0) {
		if (ob->sink(ob->sink_arg, ob->b, ob->n) == -1)
			ob->error = OUTBUF_FAILED;
		else
			ob->done += ob->n;
		ob->n = 0;
		outbuf_limit(ob);
	}
	return (outbuf_failed(ob));
}

/*
 * The slow path of every append: a check is due, the buffer is full or
 * not yet allocated, or it has failed.
 */
void
outbuf_spill(struct outbuf *ob, const void *p, size_t len)
{
	size_t	 cap;
	char	*b;

	if (ob->error)
		return;
	if (ob->max != 0 && (len > ob->max || outbuf_len(ob) > ob->max -
	    len)) {
		ob->error = OUTBUF_TOO_LARGE;
		ob->lim = ob->n;
		return;
	}
	if (ob->check != NULL && outbuf_len(ob) >= ob->next_check) {
		if (ob->check(ob->check_arg) == -1) {
			outbuf_fail(ob);
			return;
		}
		ob->next_check = outbuf_len(ob) + OUTBUF_CHECK;
	}
	if (ob->sink != NULL) {
		if (len > ob->cap - ob->n && outbuf_flush(ob) == -1)
			return;
		if (ob->b == NULL) {
			if ((ob->b = malloc(OUTBUF_SIZE)) == NULL) {
				outbuf_fail(ob);
				return;
			}
			ob->cap = OUTBUF_SIZE;
		}
		/* A piece larger than the buffer goes out as it is. */
		if (len > ob->cap) {
			if (ob->sink(ob->sink_arg, p, len) == -1)
				outbuf_fail(ob);
			else
				ob->done += len;
			return;
		}
	} else if (len >= ob->cap - ob->n) {
		cap = ob->cap ? ob->cap : OUTBUF_MIN;
		while (len >= cap - ob->n) {
			if (cap > SIZE_MAX / 2) {
				outbuf_fail(ob);
				return;
			}
			cap *= 2;
		}
		if ((b = realloc(ob->b, cap)) == NULL) {
			outbuf_fail(ob);
			return;
		}
		ob->b = b;
		ob->cap = cap;
	}
	memcpy(ob->b + ob->n, p, len);
	ob->n += len;
	outbuf_limit(ob);
}

void
outbuf_vprintf(struct outbuf *ob, const char *fmt, va_list ap)
{
	char	 small[256], *s;
	va_list	 aq;
	int	 k;

	/* Straight into the buffer when it fits (vsnprintf adds a NUL). */
	if (ob->lim - ob->n > 1) {
		va_copy(aq, ap);
		k = vsnprintf(ob->b + ob->n, ob->lim - ob->n, fmt, aq);
		va_end(aq);
		if (k >= 0 && (size_t)k < ob->lim - ob->n) {
			ob->n += (size_t)k;
			return;
		}
	}
	va_copy(aq, ap);
	k = vsnprintf(small, sizeof small, fmt, aq);
	va_end(aq);
	if (k < 0) {
		outbuf_fail(ob);
		return;
	}
	if ((size_t)k < sizeof small) {
		outbuf_write(ob, small, (size_t)k);
		return;
	}
	if (vasprintf(&s, fmt, ap) == -1) {
		outbuf_fail(ob);
		return;
	}
	outbuf_write(ob, s, (size_t)k);
	free(s);
}

void
outbuf_printf(struct outbuf *ob, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	outbuf_vprintf(ob, fmt, ap);
	va_end(ap);
}

/* A number in decimal, without printf's parsing (writers print millions). */
void
outbuf_u64(struct outbuf *ob, uint64_t v)
{
	char	 buf[20];
	size_t	 n = sizeof buf;

	do {
		buf[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	outbuf_write(ob, buf + n, sizeof buf - n);
}

void
outbuf_i64(struct outbuf *ob, int64_t v)
{
	if (v < 0) {
		outbuf_putc(ob, '-');
		outbuf_u64(ob, -(uint64_t)v);
	} else
		outbuf_u64(ob, (uint64_t)v);
}

/*
 * A body's bytes, NUL-terminated (*len without the NUL), now the
 * caller's; NULL if the buffer failed or memory ran out. The buffer is
 * empty again either way.
 */
char *
outbuf_take(struct outbuf *ob, size_t *len)
{
	char	*b;

	if (ob->sink != NULL || ob->error) {
		outbuf_clear(ob);
		return (NULL);
	}
	/* An empty body is still a string. */
	if (ob->b == NULL && (ob->b = malloc(1)) == NULL) {
		outbuf_clear(ob);
		return (NULL);
	}
	ob->b[ob->n] = '\0';
	/* Give back the doubling's slack of a big body. */
	b = ob->b;
	if (ob->cap - ob->n > OUTBUF_MIN && (b = realloc(ob->b, ob->n + 1)) ==
	    NULL)
		b = ob->b;
	*len = ob->n;
	ob->b = NULL;
	outbuf_clear(ob);
	return (b);
}

/* Free the buffer (a sink's unflushed bytes are lost); empty again. */
void
outbuf_clear(struct outbuf *ob)
{
	free(ob->b);
	ob->b = NULL;
	ob->n = ob->cap = ob->lim = ob->done = 0;
	ob->error = 0;
	ob->next_check = ob->check != NULL ? OUTBUF_CHECK : SIZE_MAX;
}

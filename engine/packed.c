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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json-stream.h"
#include "packed.h"

#define PACKED_BATCH	32	/* numbers read at once */

/* Packed tables of the streaming JSON readers (see packed.h). */

/*
 * Room for n elements of size bytes in *arrayp (a pointer to the
 * array's pointer), whose capacity is *capp: doubled as needed. -1 if
 * out of memory or the size overflows.
 */
int
packed_grow(void *arrayp, size_t *capp, size_t n, size_t size)
{
	void	**a = arrayp, *p;
	size_t	 cap = *capp;

	if (n <= cap)
		return (0);
	if (cap == 0)
		cap = 16;
	while (cap < n) {
		if (cap > SIZE_MAX / 2)
			return (-1);
		cap *= 2;
	}
	if ((p = reallocarray(*a, cap, size)) == NULL)
		return (-1);
	*a = p;
	*capp = cap;
	return (0);
}

void
packed_ints_init(struct packed_ints *pi)
{
	memset(pi, 0, sizeof *pi);
	pi->bad = SIZE_MAX;
}

void
packed_ints_free(struct packed_ints *pi)
{
	free(pi->b);
	packed_ints_init(pi);
}

/* Empty, keeping the memory. */
void
packed_ints_reset(struct packed_ints *pi)
{
	pi->len = pi->n = 0;
	pi->bad = SIZE_MAX;
	pi->state = PACKED_ABSENT;
}

/* Append v. */
int
packed_ints_put(struct packed_ints *pi, int64_t v)
{
	uint64_t	 u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);

	if (pi->len + 10 > pi->cap &&
	    packed_grow(&pi->b, &pi->cap, pi->len + 10, 1) == -1)
		return (-1);
	while (u >= 0x80) {
		pi->b[pi->len++] = (uint8_t)(u | 0x80);
		u >>= 7;
	}
	pi->b[pi->len++] = (uint8_t)u;
	pi->n++;
	return (0);
}

/* Append an element that is not an integer. */
int
packed_ints_bad(struct packed_ints *pi)
{
	if (pi->bad == SIZE_MAX)
		pi->bad = pi->n;
	return (packed_ints_put(pi, 0));
}

/* Append the elements of from. */
int
packed_ints_append(struct packed_ints *to, const struct packed_ints *from)
{
	if (from->len > SIZE_MAX - to->len ||
	    packed_grow(&to->b, &to->cap, to->len + from->len, 1) == -1)
		return (-1);
	if (from->len > 0)
		memcpy(to->b + to->len, from->b, from->len);
	to->len += from->len;
	if (to->bad == SIZE_MAX && from->bad != SIZE_MAX)
		to->bad = to->n + from->bad;
	to->n += from->n;
	return (0);
}

/*
 * d as m / 10^k, k places (1 to PACKED_DEC_MAX), if that gives exactly
 * d back (the division packed_cursor_num makes, as the JSON reader
 * made it from the digits): 1 and *m, or 0.
 */
static int
packed_dec_try(double d, int k, int64_t *m)
{
	double	 r = nearbyint(d * packed_pow10[k]);

	/* Room for the places and the kind: 50 bits of digits. */
	if (!(fabs(r) < (double)(INT64_C(1) << 50)))
		return (0);
	*m = (int64_t)r;
	if ((double)*m / packed_pow10[k] != d ||
	    (*m == 0 && signbit(d)))
		return (0);
	return (1);
}

/*
 * A real as a decimal (PACKED_NUM_DEC) if it is one: the column's last
 * places first, then the others. A column of reals none of which has
 * been a decimal for a while (64) tries only its last places, so that
 * arbitrary doubles cost one try, not nine.
 */
static int
packed_dec_put(struct packed_ints *pi, double d)
{
	int64_t	 m;
	int	 k;

	if (pi->dec != 0 && packed_dec_try(d, pi->dec, &m))
		goto put;
	if (pi->misses < 64) {
		for (k = 1; k <= PACKED_DEC_MAX; k++) {
			if (k != pi->dec && packed_dec_try(d, k, &m)) {
				pi->dec = (uint8_t)k;
				goto put;
			}
		}
		pi->misses++;
	}
	return (1);
put:
	pi->misses = 0;
	return (packed_ints_put(pi, (int64_t)((uint64_t)m << 7 |
	    (uint64_t)pi->dec << 3 | PACKED_NUM_DEC)));
}

/*
 * Append a JSON scalar to a stream of them: kind PACKED_NUM_INT with i
 * (and d its double), PACKED_NUM_REAL with d, else the kind alone. An
 * integer too big for the varint's tag bits is kept as a real of the
 * same value (the double the readers use).
 */
int
packed_nums_put(struct packed_ints *pi, int kind, int64_t i, double d)
{
	int	 r;

	if (kind == PACKED_NUM_INT && (i >= INT64_C(1) << 59 ||
	    i < -(INT64_C(1) << 59)))
		kind = PACKED_NUM_REAL;
	switch (kind) {
	case PACKED_NUM_INT:
		return (packed_ints_put(pi, (int64_t)((uint64_t)i << 3)));
	case PACKED_NUM_REAL:
		if ((r = packed_dec_put(pi, d)) != 1)
			return (r);
		if (packed_ints_put(pi, PACKED_NUM_REAL) == -1 ||
		    packed_grow(&pi->b, &pi->cap, pi->len + 8, 1) == -1)
			return (-1);
		memcpy(pi->b + pi->len, &d, 8);
		pi->len += 8;
		return (0);
	default:
		return (packed_ints_put(pi, kind));
	}
}

/* Append a scalar token (anything else is PACKED_NUM_OTHER). */
int
packed_nums_token(struct packed_ints *pi, const struct json_token *t)
{
	switch (t->type) {
	case JSON_TOK_INTEGER:
		return (packed_nums_put(pi, PACKED_NUM_INT, t->i, t->d));
	case JSON_TOK_REAL:
		return (packed_nums_put(pi, PACKED_NUM_REAL, 0, t->d));
	case JSON_TOK_NULL:
		return (packed_nums_put(pi, PACKED_NUM_NULL, 0, 0));
	case JSON_TOK_TRUE:
		return (packed_nums_put(pi, PACKED_NUM_TRUE, 0, 0));
	default:
		return (packed_nums_put(pi, PACKED_NUM_OTHER, 0, 0));
	}
}

/*
 * The elements of the array whose '[' js gave last, to its ']', as
 * packed_nums_token puts them; the numbers a batch at a time. 0, or -1
 * on an error of the stream or memory.
 */
int
packed_nums_read(struct packed_ints *pi, struct json_stream *js)
{
	struct json_token	 t[PACKED_BATCH];
	size_t			 i, n;

	for (;;) {
		while ((n = json_stream_numbers(js, t, PACKED_BATCH)) > 0) {
			for (i = 0; i < n; i++)
				if (packed_nums_token(pi, &t[i]) == -1)
					return (-1);
		}
		if (json_stream_next(js, t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t->type == JSON_TOK_ERROR ||
		    packed_nums_token(pi, t) == -1 ||
		    json_stream_skip(js, t) == -1)
			return (-1);
	}
}

/*
 * A member's value, read from js into *t: its state in *state, and a
 * value that is no array skipped. 1 if an array's elements follow, 0 if
 * skipped, -1 on an error. The readers keep a member's state so that an
 * absent table, a table that is no array and an empty one stay apart.
 */
int
packed_array_open(struct json_stream *js, struct json_token *t,
    enum packed_state *state)
{
	if (json_stream_next(js, t) == JSON_TOK_ERROR)
		return (-1);
	*state = t->type == JSON_TOK_ARRAY ? PACKED_ARRAY : PACKED_OTHER;
	if (t->type == JSON_TOK_ARRAY)
		return (1);
	return (json_stream_skip(js, t) == -1 ? -1 : 0);
}

/*
 * A string token onto the text at *off; *off SIZE_MAX (and 0) if the
 * token is no string. -1 if out of memory or longer than a uint32_t.
 */
int
packed_text_token(struct packed_text *text, const struct json_token *t,
    size_t *off)
{
	*off = SIZE_MAX;
	if (t->type != JSON_TOK_STRING)
		return (0);
	if (t->len >= UINT32_MAX ||
	    (*off = packed_text_put(text, t->s, t->len)) == SIZE_MAX)
		return (-1);
	return (0);
}

/* Append s[0..n) and a NUL: its offset, or SIZE_MAX if out of memory. */
size_t
packed_text_put(struct packed_text *t, const char *s, size_t n)
{
	size_t	 off = t->len;

	if (n > SIZE_MAX - t->len - 1 ||
	    packed_grow(&t->b, &t->cap, t->len + n + 1, 1) == -1)
		return (SIZE_MAX);
	if (n > 0)
		memcpy(t->b + t->len, s, n);
	t->b[t->len + n] = '\0';
	t->len += n + 1;
	return (off);
}

void
packed_text_free(struct packed_text *t)
{
	free(t->b);
	memset(t, 0, sizeof *t);
}

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

#ifndef PACKED_H
#define PACKED_H

/*
 * What a streaming JSON reader keeps of a table until it can build from
 * it (json-stream.h): a file may put the tables samples refer to after
 * the samples, so those are kept, packed, and not as text.
 *
 * - packed_grow: room for one more element of a growing array.
 * - struct packed_ints: integers as zigzag varints, one to three bytes
 *   for most ids and time deltas, read back in order; an element that
 *   was not an integer keeps its place (0) and the first such index is
 *   remembered, for the error the reader gives when it gets there.
 * - the same struct packed_ints as a stream of JSON scalars
 *   (packed_nums_put): an integer as a varint, a real as its 8 bytes,
 *   null, true or anything else as a mark, each read back with its
 *   value as json_number_value would give it (packed_cursor_num). A
 *   real that is a decimal of at most PACKED_DEC_MAX places (a time
 *   such as 506.149184) is kept as its digits and places, when they
 *   give back the very same double: a varint of 3 to 6 bytes, not 9.
 * - struct packed_text: strings one after the other, each found again
 *   by its offset.
 */

#include <stddef.h>
#include <stdint.h>

struct json_stream;
struct json_token;

/* How an array member was found. */
enum packed_state {
	PACKED_ABSENT,
	PACKED_ARRAY,
	PACKED_OTHER		/* the member is there, but no array */
};

struct packed_ints {
	uint8_t		*b;
	size_t		 len, cap;
	size_t		 n;		/* elements */
	size_t		 bad;		/* first not an integer, or SIZE_MAX */
	enum packed_state state;
	/* Reals (packed_nums_put): the places that worked last. */
	uint8_t		 dec;
	uint8_t		 misses;	/* reals since one was a decimal */
};

/* Reading a struct packed_ints back, from its start. */
struct packed_cursor {
	const uint8_t	*p, *end;
};

struct packed_text {
	char		*b;
	size_t		 len, cap;
};

int	 packed_grow(void *, size_t *, size_t, size_t);
void	 packed_ints_init(struct packed_ints *);
void	 packed_ints_free(struct packed_ints *);
void	 packed_ints_reset(struct packed_ints *);
int	 packed_ints_put(struct packed_ints *, int64_t);
int	 packed_ints_bad(struct packed_ints *);
int	 packed_ints_append(struct packed_ints *, const struct packed_ints *);
size_t	 packed_text_put(struct packed_text *, const char *, size_t);
void	 packed_text_free(struct packed_text *);
int	 packed_text_token(struct packed_text *, const struct json_token *,
	    size_t *);
int	 packed_nums_put(struct packed_ints *, int, int64_t, double);
int	 packed_nums_token(struct packed_ints *, const struct json_token *);
int	 packed_nums_read(struct packed_ints *, struct json_stream *);
int	 packed_array_open(struct json_stream *, struct json_token *,
	    enum packed_state *);

/* What packed_cursor_num read. */
#define PACKED_NUM_INT		0
#define PACKED_NUM_REAL		1
#define PACKED_NUM_OTHER	2	/* a string, false, an array, ... */
#define PACKED_NUM_NULL		3	/* null, or no value at all */
#define PACKED_NUM_TRUE		4
/* 5, 6: the Gecko reader's row marks. Never returned: */
#define PACKED_NUM_DEC		7	/* a real as digits and places */

#define PACKED_DEC_MAX		9	/* places, at most */

static const double packed_pow10[16] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15
};

static inline void
packed_cursor_init(struct packed_cursor *c, const struct packed_ints *pi)
{
	c->p = pi->b;
	/* Nothing put: b may be NULL, and NULL + 0 is undefined. */
	c->end = pi->len > 0 ? pi->b + pi->len : pi->b;
}

/* The next integer (the caller counts them: there are pi->n). */
static inline int64_t
packed_cursor_next(struct packed_cursor *c)
{
	uint64_t	 v = 0;
	int		 shift = 0;

	while (c->p < c->end) {
		v |= (uint64_t)(*c->p & 0x7f) << shift;
		if ((*c->p++ & 0x80) == 0)
			break;
		shift += 7;
	}
	return ((int64_t)(v >> 1) ^ -(int64_t)(v & 1));
}

/*
 * The next number of a stream of numbers: its kind (PACKED_NUM_*), and
 * in *d its value as a double (0 for no number), in *i an integer's.
 */
static inline int
packed_cursor_num(struct packed_cursor *c, double *d, int64_t *i)
{
	int64_t	 v = packed_cursor_next(c);
	int	 kind = (int)(v & 7);

	*i = v >> 3;
	*d = (double)*i;
	if (kind == PACKED_NUM_REAL) {
		if (c->end - c->p >= 8) {
			__builtin_memcpy(d, c->p, 8);
			c->p += 8;
		}
	} else if (kind == PACKED_NUM_DEC) {
		/* Digits << 4 | places: put only where this gives d back. */
		*d = (double)(*i >> 4) / packed_pow10[*i & 15];
		*i = 0;
		kind = PACKED_NUM_REAL;
	} else if (kind != PACKED_NUM_INT) {
		*i = 0;
		*d = 0;
	}
	return (kind);
}

/* A string of the text by its offset (NUL-terminated). */
static inline const char *
packed_text_get(const struct packed_text *t, size_t off)
{
	return (t->b + off);
}

#endif /* PACKED_H */

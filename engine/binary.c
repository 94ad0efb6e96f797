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

#include <sys/types.h>

#include <string.h>

#include "binary.h"
#include "input.h"

/*
 * Binary decoding over a window of struct input's buffer (see binary.h).
 * The window is in->buf + in->pos up to what input_peek() made available;
 * bytes decoded from it are handed back to the input (in->pos) only when
 * the window is refilled, so the common case never leaves this file.
 */

static int	binary_refill(struct binary *, size_t);
static int	binary_leb128_slow(struct binary *, uint64_t *);
static int	binary_vbe_slow(struct binary *, uint64_t *);

/* Start decoding at the input's current position. */
void
binary_init(struct binary *b, struct input *in)
{
	memset(b, 0, sizeof *b);
	b->in = in;
	b->base = input_offset(in);
}

/* Give the bytes decoded so far back to the input (consume them). */
void
binary_sync(struct binary *b)
{
	if (b->start != NULL) {
		b->in->pos += b->p - b->start;
		b->start = b->p = b->end = NULL;
	}
	b->base = input_offset(b->in);
}

/* File offset of the next byte. */
uint64_t
binary_offset(const struct binary *b)
{
	return (b->base + (uint64_t)(b->p - b->start));
}

/* Bytes left in the file after the next one's offset. */
uint64_t
binary_left(const struct binary *b)
{
	uint64_t	 off = binary_offset(b);

	return (input_bound(b->in) > off ? input_bound(b->in) - off : 0);
}

/* Record a failure at an offset; always -1. */
int
binary_fail(struct binary *b, uint64_t at, const char *why)
{
	b->error = why;
	b->error_at = at;
	return (-1);
}

/* Make at least want bytes available in the window (fewer at the end). */
static int
binary_refill(struct binary *b, size_t want)
{
	const char	*q;
	ssize_t		 n;

	binary_sync(b);
	n = input_peek(b->in, &q, want > BINARY_WINDOW ? want : BINARY_WINDOW);
	if (n == -1)
		return (binary_fail(b, b->base, input_error(b->in)));
	b->start = b->p = (const unsigned char *)q;
	b->end = b->p + n;
	return (0);
}

/* 1 if there is no byte left, 0 if there is one, -1 on a read error. */
int
binary_at_end(struct binary *b)
{
	if (b->p < b->end)
		return (0);
	if (binary_refill(b, 1) == -1)
		return (-1);
	return (b->p == b->end);
}

/* One byte. */
int
binary_u8(struct binary *b, uint8_t *v)
{
	if (b->p == b->end && (binary_refill(b, 1) == -1 || b->p == b->end))
		return (binary_fail(b, binary_offset(b), "truncated"));
	*v = *b->p++;
	return (0);
}

/* The next byte, not consumed. */
int
binary_peek_u8(struct binary *b, uint8_t *v)
{
	if (b->p == b->end && (binary_refill(b, 1) == -1 || b->p == b->end))
		return (binary_fail(b, binary_offset(b), "truncated"));
	*v = *b->p;
	return (0);
}

/* A 32-bit little-endian integer. */
int
binary_le32(struct binary *b, uint32_t *v)
{
	const unsigned char	*p;

	if (b->end - b->p < 4 && (binary_refill(b, 4) == -1 ||
	    b->end - b->p < 4))
		return (binary_fail(b, binary_offset(b), "truncated"));
	p = b->p;
	*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
	b->p += 4;
	return (0);
}

/* A 64-bit little-endian integer. */
int
binary_le64(struct binary *b, uint64_t *v)
{
	uint32_t	 lo, hi;

	if (b->end - b->p < 8 && (binary_refill(b, 8) == -1 ||
	    b->end - b->p < 8))
		return (binary_fail(b, binary_offset(b), "truncated"));
	(void)binary_le32(b, &lo);
	(void)binary_le32(b, &hi);
	*v = (uint64_t)hi << 32 | lo;
	return (0);
}

/*
 * Unsigned LEB128: seven bits a byte, least significant group first, the
 * high bit set on every byte but the last. Padding (extra groups of zero
 * bits) is legal LEB128 and accepted; a value past 64 bits is not.
 */
int
binary_leb128(struct binary *b, uint64_t *v)
{
	const unsigned char	*p = b->p;
	uint64_t		 n = 0;
	int			 shift;

	/* Fast path: the whole number in the window, at most 9 bytes. */
	if (b->end - p >= 10) {
		for (shift = 0; shift < 63; shift += 7) {
			n |= (uint64_t)(*p & 0x7f) << shift;
			if ((*p++ & 0x80) == 0) {
				b->p = p;
				*v = n;
				return (0);
			}
		}
	}
	return (binary_leb128_slow(b, v));
}

static int
binary_leb128_slow(struct binary *b, uint64_t *v)
{
	uint64_t	 at = binary_offset(b), n = 0, bits;
	uint8_t		 c;
	int		 shift = 0;

	do {
		if (binary_u8(b, &c) == -1)
			return (binary_fail(b, at, "truncated number"));
		bits = c & 0x7f;
		if (shift < 64) {
			if (shift > 57 && bits >> (64 - shift) != 0)
				return (binary_fail(b, at,
				    "number overflows 64 bits"));
			n |= bits << shift;
			shift += 7;
		} else if (bits != 0)
			return (binary_fail(b, at, "number overflows 64 bits"));
	} while (c & 0x80);
	*v = n;
	return (0);
}

/*
 * Mercury's variable-length number: seven bits a byte, most significant
 * group first, the high bit set on every byte but the last.
 */
int
binary_vbe(struct binary *b, uint64_t *v)
{
	const unsigned char	*p = b->p;
	uint64_t		 n = 0;
	int			 i;

	if (b->end - p >= 9) {
		for (i = 0; i < 9; i++) {
			n = n << 7 | (*p & 0x7f);
			if ((*p++ & 0x80) == 0) {
				b->p = p;
				*v = n;
				return (0);
			}
		}
	}
	return (binary_vbe_slow(b, v));
}

static int
binary_vbe_slow(struct binary *b, uint64_t *v)
{
	uint64_t	 at = binary_offset(b), n = 0;
	uint8_t		 c;

	do {
		if (binary_u8(b, &c) == -1)
			return (binary_fail(b, at, "truncated number"));
		if (n >> 57 != 0)
			return (binary_fail(b, at, "number overflows 64 bits"));
		n = n << 7 | (c & 0x7f);
	} while (c & 0x80);
	*v = n;
	return (0);
}

/*
 * The next n bytes, at *s, valid until the next call. n is checked
 * against the rest of the file and BINARY_MAX_STRING first.
 */
int
binary_bytes(struct binary *b, size_t n, const char **s)
{
	uint64_t	 at = binary_offset(b);

	if (n == 0) {
		*s = "";
		return (0);
	}
	if (n > BINARY_MAX_STRING)
		return (binary_fail(b, at, "string longer than 4 MiB"));
	if (n > binary_left(b))
		return (binary_fail(b, at, "string runs past the end of the "
		    "file"));
	if ((size_t)(b->end - b->p) < n && (binary_refill(b, n) == -1 ||
	    (size_t)(b->end - b->p) < n))
		return (binary_fail(b, at, "truncated string"));
	*s = (const char *)b->p;
	b->p += n;
	return (0);
}

/*
 * A NUL-terminated string: *s and *len (without the NUL), valid until the
 * next call. At most BINARY_MAX_STRING bytes.
 */
int
binary_cstring(struct binary *b, const char **s, size_t *len)
{
	uint64_t		 at = binary_offset(b);
	const unsigned char	*nul;
	size_t			 have, want;

	for (;;) {
		have = b->end - b->p;
		if (have > 0 && (nul = memchr(b->p, '\0', have)) != NULL)
			break;
		if (have > BINARY_MAX_STRING)
			return (binary_fail(b, at, "string longer than 4 MiB"));
		want = have < BINARY_WINDOW / 2 ? BINARY_WINDOW : have * 2;
		if (want > BINARY_MAX_STRING + 1)
			want = BINARY_MAX_STRING + 1;
		if (binary_refill(b, want) == -1)
			return (-1);
		if ((size_t)(b->end - b->p) == have)
			return (binary_fail(b, at, "unterminated string"));
	}
	*s = (const char *)b->p;
	*len = nul - b->p;
	b->p = nul + 1;
	return (0);
}

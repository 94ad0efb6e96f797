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

#ifndef BINARY_H
#define BINARY_H

/*
 * Decoding binary profiles (Mercury Deep.data, Clean .pgcl) from a struct
 * input: bytes, fixed-width little-endian integers, the two varint
 * flavours (LEB128, and Mercury's big-endian groups) and strings. Reads
 * through a window into the input's buffer, so most items cost a few
 * instructions and nothing is copied.
 *
 * Every function returns 0, or -1 with a static message in b->error and
 * the offset of the item that failed in b->error_at. Lengths are checked
 * against what is left of the file before anything is allocated.
 */

#include <stddef.h>
#include <stdint.h>

#define BINARY_WINDOW		65536
#define BINARY_MAX_STRING	(4 * 1024 * 1024)

struct input;

struct binary {
	struct input		*in;
	const unsigned char	*p;	/* next byte */
	const unsigned char	*end;	/* end of the window */
	uint64_t		 base;	/* file offset of the window start */
	const unsigned char	*start;	/* the window start */
	const char		*error;
	uint64_t		 error_at;
};

void		 binary_init(struct binary *, struct input *);
void		 binary_sync(struct binary *);
uint64_t	 binary_offset(const struct binary *);
uint64_t	 binary_left(const struct binary *);
int		 binary_at_end(struct binary *);
int		 binary_fail(struct binary *, uint64_t, const char *);
int		 binary_u8(struct binary *, uint8_t *);
int		 binary_peek_u8(struct binary *, uint8_t *);
int		 binary_le32(struct binary *, uint32_t *);
int		 binary_le64(struct binary *, uint64_t *);
int		 binary_leb128(struct binary *, uint64_t *);
int		 binary_vbe(struct binary *, uint64_t *);
int		 binary_bytes(struct binary *, size_t, const char **);
int		 binary_cstring(struct binary *, const char **, size_t *);

#endif /* BINARY_H */

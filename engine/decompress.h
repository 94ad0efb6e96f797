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

#ifndef DECOMPRESS_H
#define DECOMPRESS_H

/*
 * Streaming decompression of gzip (concatenated members too), zlib, zstd
 * and xz, chosen by the first bytes: input.c puts it between the file
 * and its buffer, so readers see the decompressed bytes and never know.
 * The source is a file descriptor or a memory buffer (tests, fuzzing).
 */

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#define DECOMPRESS_NONE	0
#define DECOMPRESS_GZIP	1
#define DECOMPRESS_ZLIB	2
#define DECOMPRESS_ZSTD	3
#define DECOMPRESS_XZ	4

/* Bytes that decompress_detect needs to decide (more help zlib's check). */
#define DECOMPRESS_MAGIC	6

struct decompress;

int			 decompress_detect(const void *, size_t);
const char		*decompress_name(int);
struct decompress	*decompress_create(int, int, const void *, size_t,
			     char **);
void			 decompress_free(struct decompress *);
ssize_t			 decompress_read(struct decompress *, void *, size_t,
			     char **);
int			 decompress_ahead(struct decompress *, char **);
void			 decompress_set_cpu_limit(unsigned int);

/* A file at least this big (compressed) is decoded ahead (input.c). */
#define DECOMPRESS_AHEAD_MIN	((off_t)4 * 1024 * 1024)

#endif /* DECOMPRESS_H */

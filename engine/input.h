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

#ifndef INPUT_H
#define INPUT_H

/*
 * Buffered input for readers: lines (LF or CRLF) with a length limit and
 * a line count for error messages, raw bytes for binary formats, and the
 * whole file for formats that need it (JSON). Reads large blocks so text
 * readers do not pay a call per line. A gzip, zlib, zstd or xz file is
 * decompressed on the way (decompress.c), chosen by its first bytes, so
 * readers see the profile itself; its decompressed size is limited.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A read's size. At 128 KB the block read(2) copies is still in the
 * core's L2 when the reader scans it; 1 MB was 4 % slower on a wide
 * folded profile of 573 MB, and a read per 128 KB costs nothing.
 */
#define INPUT_BLOCK	(128 * 1024)
#define INPUT_MAX_LINE	(4 * 1024 * 1024)
#define INPUT_MAX_FILE	((uint64_t)64 * 1024 * 1024 * 1024)
/*
 * The decompressed bytes a compressed input may give, unless set (the
 * max_decompressed of deepq.conf(5)): generous, as no reader keeps the
 * whole text, yet a bomb of a few MB stops in seconds instead of
 * running the load for minutes or filling memory in a reader that must
 * hold the whole file.
 */
#define INPUT_DEFAULT_LIMIT	((uint64_t)16 * 1024 * 1024 * 1024)

struct decompress;

struct input {
	int		 fd;
	const char	*path;
	char		*buf;
	size_t		 cap;
	size_t		 pos;		/* next unread byte in buf */
	size_t		 len;		/* bytes valid in buf */
	uint64_t	 offset;	/* file offset of buf[0] */
	uint64_t	 size;		/* file size at open (compressed) */
	uint64_t	 lineno;	/* lines returned so far */
	/*
	 * Bytes before pos that a refill keeps (a reader comparing a line
	 * with the one before, in place): at most pos, set by the caller.
	 */
	size_t		 hold;
	int		 eof;
	int		 error;		/* errno of a failed read, else 0 */
	int		 partial;	/* the last line had no newline */

	struct decompress *dec;		/* NULL for plain bytes */
	char		*src;		/* memory the decoder reads, owned */
	/* input_memory_trickle: src given a block of this at a time. */
	size_t		 trickle, srclen, srcpos;
	int		 compression;	/* DECOMPRESS_*, 0 for none */
	uint64_t	 limit;		/* decompressed bytes allowed */
	const char	*limit_what;	/* a reader's own limit: its name */
	uint64_t	 decoded;	/* decompressed bytes so far */
	int		 too_large;	/* stopped at the limit */
	char		*why;		/* the last error's message */
};

struct input	*input_open(const char *, char **);
struct input	*input_memory(const char *, size_t);
struct input	*input_memory_decoded(const char *, size_t, char **);
struct input	*input_memory_trickle(const char *, size_t, size_t);
void		 input_set_default_limit(uint64_t);
void		 input_limit(struct input *, uint64_t, const char *);
const char	*input_compression(const struct input *);
const char	*input_error(const struct input *);
uint64_t	 input_bound(const struct input *);
size_t		 input_block(const struct input *);
void		 input_free(struct input *);
ssize_t		 input_peek(struct input *, const char **, size_t);
char		*input_line(struct input *, size_t *, char **);
ssize_t		 input_read(struct input *, void *, size_t);
uint64_t	 input_offset(const struct input *);
char		*input_slurp(struct input *, size_t *, char **);
char		*input_slurp_max(struct input *, uint64_t, size_t *, char **);

/*
 * input_line for a line already whole in the buffer, in line: the call
 * and its refill checks cost as much as a short line's other work. Any
 * other case (a refill, the last line, a line too long) is input_line's.
 */
static inline char *
input_line_fast(struct input *in, size_t *lenp, char **cause)
{
	char	*s = in->buf + in->pos, *nl;
	size_t	 len;

	if (in->pos < in->len &&
	    (nl = memchr(s, '\n', in->len - in->pos)) != NULL &&
	    (len = nl - s) <= INPUT_MAX_LINE) {
		in->pos += len + 1;
		if (len > 0 && s[len - 1] == '\r')
			len--;
		s[len] = '\0';
		in->lineno++;
		if (cause != NULL)
			*cause = NULL;
		*lenp = len;
		return (s);
	}
	return (input_line(in, lenp, cause));
}

#endif /* INPUT_H */

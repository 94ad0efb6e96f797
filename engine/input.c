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

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cause.h"
#include "decompress.h"
#include "input.h"

/* Buffered input for readers (see input.h). */

static int	input_fill(struct input *, size_t);
static ssize_t	input_source(struct input *, char *, size_t);
static int	input_decoder(struct input *, const void *, size_t,
		    char **);

/* The limit of inputs opened from now on (deepq.conf's, or an option). */
static uint64_t	input_default_limit = INPUT_DEFAULT_LIMIT;

/* Set the decompressed-size limit of inputs opened after this call. */
void
input_set_default_limit(uint64_t limit)
{
	input_default_limit = limit != 0 ? limit : INPUT_DEFAULT_LIMIT;
}

/*
 * A reader's own bound on the decompressed bytes (what names it in the
 * message), when lower than the input's: a reader that holds the whole
 * text must not take more of it compressed than it would take plain.
 */
void
input_limit(struct input *in, uint64_t max, const char *what)
{
	if (max < in->limit) {
		in->limit = max;
		in->limit_what = what;
	}
}

/* The compression decoded ("gzip", "zstd"...), NULL for plain bytes. */
const char *
input_compression(const struct input *in)
{
	return (in->dec != NULL ? decompress_name(in->compression) : NULL);
}

/* The message of the last read or decompression error. */
const char *
input_error(const struct input *in)
{
	if (in->why != NULL)
		return (in->why);
	return (strerror(in->error ? in->error : EIO));
}

/*
 * The most bytes the input can give from its start: the file's size,
 * or for compressed input the limit (the true size is known only at
 * the end).
 */
uint64_t
input_bound(const struct input *in)
{
	return (in->dec != NULL ? in->limit : in->size);
}

/* The bytes a refill asks for: a block, or a trickle's few. */
size_t
input_block(const struct input *in)
{
	return (in->trickle > 0 ? in->trickle : INPUT_BLOCK);
}

/*
 * Put a decoder in front of the bytes if the first ones show a
 * compression: mem and len for memory, else the input's file. 0 when
 * there is none or it is in place, -1 with *cause.
 */
static int
input_decoder(struct input *in, const void *mem, size_t len, char **cause)
{
	unsigned char	 head[65536];
	ssize_t		 n;
	char		*why = NULL;
	int		 kind;

	if (mem == NULL) {
		/* Enough for the zlib check's trial (decompress.c). */
		while ((n = pread(in->fd, head, sizeof head, 0)) == -1 &&
		    errno == EINTR)
			;
		if (n == -1) {
			cause_set(cause, "%s: %s", in->path, strerror(errno));
			return (-1);
		}
		kind = decompress_detect(head, n);
	} else
		kind = decompress_detect(mem, len);
	if (kind == DECOMPRESS_NONE)
		return (0);
	if ((in->dec = decompress_create(kind, mem == NULL ? in->fd : -1, mem,
	    len, cause)) == NULL)
		return (-1);
	in->compression = kind;
	/*
	 * A big file is decoded by a process of its own, beside the parse
	 * (decompress_ahead); if that cannot start, here, as a small one.
	 */
	if (mem == NULL && in->size >= DECOMPRESS_AHEAD_MIN &&
	    decompress_ahead(in->dec, &why) == -1)
		free(why);
	return (0);
}

/* Open a regular file for reading. NULL with *cause on failure. */
struct input *
input_open(const char *path, char **cause)
{
	struct input	*in;
	struct stat	 st;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK))
	    == -1) {
		cause_set(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		cause_set(cause, "%s: not a regular file", path);
		close(fd);
		return (NULL);
	}
	/* O_NONBLOCK only kept a FIFO from blocking the open; undo it. */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->buf = malloc(INPUT_BLOCK)) == NULL) {
		free(in);
		close(fd);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	in->fd = fd;
	in->path = path;
	in->cap = INPUT_BLOCK;
	in->size = st.st_size;
	in->limit = input_default_limit;
	if (input_decoder(in, NULL, 0, cause) == -1) {
		input_free(in);
		return (NULL);
	}
	return (in);
}

/* Input from a memory buffer (tests, fuzzing); the buffer is copied. */
struct input *
input_memory(const char *data, size_t len)
{
	struct input	*in;

	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->buf = malloc(len + 1)) == NULL) {
		free(in);
		return (NULL);
	}
	memcpy(in->buf, data, len);
	in->fd = -1;
	in->path = "<memory>";
	in->cap = len + 1;
	in->len = len;
	in->size = len;
	in->eof = 1;
	in->limit = input_default_limit;
	return (in);
}

/*
 * Input from a memory buffer, decompressed if its first bytes show a
 * compression (tests, fuzzing). The buffer is copied. NULL with *cause.
 */
struct input *
input_memory_decoded(const char *data, size_t len, char **cause)
{
	struct input	*in;
	char		*b;

	if ((in = input_memory(data, len)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (input_decoder(in, in->buf, len, cause) == -1) {
		input_free(in);
		return (NULL);
	}
	if (in->dec == NULL)
		return (in);
	/* The copy becomes the decoder's source; the buffer starts empty. */
	if ((b = malloc(INPUT_BLOCK)) == NULL) {
		input_free(in);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	in->src = in->buf;
	in->buf = b;
	in->cap = INPUT_BLOCK;
	in->len = 0;
	in->eof = 0;
	return (in);
}

/*
 * Input from a memory buffer (copied) that comes block bytes at a time,
 * as a slow pipe would give it, never decompressed: the tests and the
 * fuzzers read a text so to cut its tokens and lines at every offset.
 */
struct input *
input_memory_trickle(const char *data, size_t len, size_t block)
{
	struct input	*in;

	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->buf = malloc(INPUT_BLOCK)) == NULL ||
	    (in->src = malloc(len + 1)) == NULL) {
		if (in != NULL)
			free(in->buf);
		free(in);
		return (NULL);
	}
	memcpy(in->src, data, len);
	in->fd = -1;
	in->path = "<memory>";
	in->cap = INPUT_BLOCK;
	in->size = len;
	in->limit = input_default_limit;
	in->trickle = block > 0 ? block : 1;
	in->srclen = len;
	return (in);
}

/* Close and free. */
void
input_free(struct input *in)
{
	if (in == NULL)
		return;
	if (in->fd != -1)
		close(in->fd);
	decompress_free(in->dec);
	free(in->src);
	free(in->why);
	free(in->buf);
	free(in);
}

/*
 * Make at least want bytes available from pos (fewer at end of file).
 * Compacts the buffer, keeping the held bytes before pos, and grows it
 * when want does not fit (callers ask for at most about twice a line's
 * limit, INPUT_MAX_LINE, beyond what is held).
 */
static int
input_fill(struct input *in, size_t want)
{
	ssize_t	 n;
	size_t	 avail = in->len - in->pos, keep, start;
	char	*b;

	if (avail >= want || in->eof)
		return (0);
	/* The held bytes before pos move down with the unread ones. */
	keep = in->hold < in->pos ? in->hold : in->pos;
	if (in->pos > keep) {
		start = in->pos - keep;
		memmove(in->buf, in->buf + start, keep + avail);
		in->offset += start;
		in->pos = keep;
		in->len = keep + avail;
	}
	if (want > in->cap - in->pos) {
		if (want > SIZE_MAX - in->pos ||
		    (b = realloc(in->buf, in->pos + want)) == NULL)
			return (-1);
		in->buf = b;
		in->cap = in->pos + want;
	}
	while (in->len - in->pos < want && !in->eof) {
		if ((n = input_source(in, in->buf + in->len,
		    in->cap - in->len)) == -1)
			return (-1);
		if (n == 0)
			in->eof = 1;
		in->len += n;
	}
	return (0);
}

/*
 * Up to n bytes from the file or its decoder into dst: 0 at the end, -1
 * with in->error or in->why set. Counts decompressed bytes against the
 * limit, asking for one byte past it to see whether there is more.
 */
static ssize_t
input_source(struct input *in, char *dst, size_t n)
{
	ssize_t		 got;
	uint64_t	 room;

	if (in->dec == NULL && in->trickle > 0) {
		got = in->srclen - in->srcpos;
		if ((size_t)got > n)
			got = n;
		if ((size_t)got > in->trickle)
			got = in->trickle;
		memcpy(dst, in->src + in->srcpos, got);
		in->srcpos += got;
		return (got);
	}
	if (in->dec == NULL) {
		for (;;) {
			if ((got = read(in->fd, dst, n)) != -1)
				return (got);
			if (errno != EINTR) {
				in->error = errno;
				return (-1);
			}
		}
	}
	if (in->why != NULL)
		return (-1);
	room = in->decoded < in->limit ? in->limit - in->decoded : 0;
	if (n > room + 1)
		n = room + 1;
	if ((got = decompress_read(in->dec, dst, n, &in->why)) == -1) {
		in->error = EIO;
		return (-1);
	}
	if ((uint64_t)got > room) {
		in->too_large = 1;
		in->error = EFBIG;
		if (in->limit_what != NULL)
			cause_set(&in->why, "%s data decompresses to more "
			    "than %llu MiB, the most a %s may be (max_json)",
			    decompress_name(in->compression),
			    (unsigned long long)(in->limit >> 20),
			    in->limit_what);
		else
			cause_set(&in->why, "%s data decompresses to more "
			    "than %llu MiB (the limit is max_decompressed in "
			    "deepq.conf(5))", decompress_name(in->compression),
			    (unsigned long long)(in->limit >> 20));
		return (-1);
	}
	in->decoded += got;
	return (got);
}

/* Point *p at up to n bytes from the current position without consuming. */
ssize_t
input_peek(struct input *in, const char **p, size_t n)
{
	if (input_fill(in, n) == -1)
		return (-1);
	*p = in->buf + in->pos;
	return (in->len - in->pos < n ? in->len - in->pos : n);
}

/*
 * Next line, without its LF or CRLF, NUL-terminated in place; valid until
 * the next call. NULL at end of input (*cause NULL) or on error (*cause
 * set: a read error or a line longer than INPUT_MAX_LINE).
 */
char *
input_line(struct input *in, size_t *lenp, char **cause)
{
	char	*s, *nl;
	size_t	 scanned = 0, len, keep, room;

	if (cause != NULL)
		*cause = NULL;
	for (;;) {
		s = in->buf + in->pos;
		nl = memchr(s + scanned, '\n', in->len - in->pos - scanned);
		if (nl != NULL || in->eof)
			break;
		scanned = in->len - in->pos;
		if (scanned >= INPUT_MAX_LINE) {
			cause_set(cause, "line %llu: longer than %d bytes",
			    (unsigned long long)in->lineno + 1, INPUT_MAX_LINE);
			return (NULL);
		}
		/*
		 * Fill the room the held bytes leave, or twice that for a
		 * long line: always more than is there, so the loop moves.
		 */
		keep = in->hold < in->pos ? in->hold : in->pos;
		room = in->cap - keep;
		if (input_fill(in, scanned < room / 2 ? room :
		    room > 0 ? room * 2 : 1) == -1) {
			/* The reader names the file, as for long lines. */
			cause_set(cause, "%s",
			    in->error ? input_error(in) : strerror(ENOMEM));
			return (NULL);
		}
	}
	s = in->buf + in->pos;
	if (nl == NULL) {
		if (in->pos == in->len)
			return (NULL);
		/* Last line without a newline: make room for the NUL. */
		if (in->len == in->cap) {
			char	*b;

			if ((b = realloc(in->buf, in->cap + 1)) == NULL) {
				cause_set(cause, "out of memory");
				return (NULL);
			}
			in->buf = b;
			in->cap++;
		}
		s = in->buf + in->pos;
		nl = in->buf + in->len;
		in->len++;
		/* A text file cut short ends so: readers may say it. */
		in->partial = 1;
	}
	len = nl - s;
	if (len > INPUT_MAX_LINE) {
		cause_set(cause, "line %llu: longer than %d bytes",
		    (unsigned long long)in->lineno + 1, INPUT_MAX_LINE);
		return (NULL);
	}
	in->pos += len + 1;
	if (len > 0 && s[len - 1] == '\r')
		len--;
	s[len] = '\0';
	in->lineno++;
	*lenp = len;
	return (s);
}

/* Read up to n bytes; returns the count (0 at end), or -1 on error. */
ssize_t
input_read(struct input *in, void *dst, size_t n)
{
	size_t	 got = 0, k;

	while (got < n) {
		if (in->pos == in->len) {
			if (in->eof)
				break;
			if (input_fill(in, in->cap < n - got ? in->cap :
			    n - got) == -1)
				return (-1);
			if (in->pos == in->len)
				break;
		}
		k = in->len - in->pos;
		if (k > n - got)
			k = n - got;
		memcpy((char *)dst + got, in->buf + in->pos, k);
		in->pos += k;
		got += k;
	}
	return (got);
}

/* File offset of the next unread byte. */
uint64_t
input_offset(const struct input *in)
{
	return (in->offset + in->pos);
}

/*
 * The rest of the input in one allocated, NUL-terminated buffer the
 * caller frees. Bounded by the size the file had when opened, or for
 * compressed input by the limit (the buffer grows as it decodes).
 */
char *
input_slurp(struct input *in, size_t *lenp, char **cause)
{
	return (input_slurp_max(in, INPUT_MAX_FILE, lenp, cause));
}

/*
 * input_slurp, failing past max bytes: a reader that must hold the
 * whole text keeps its own bound when the file on disk is compressed
 * (it checks a plain file's size itself).
 */
char *
input_slurp_max(struct input *in, uint64_t most, size_t *lenp, char **cause)
{
	uint64_t	 want = in->size - input_offset(in), max;
	size_t		 len = 0, cap, ncap;
	char		*b, *nb;
	ssize_t		 n;

	if (in->dec != NULL) {
		max = in->limit < most ? in->limit : most;
		/* Compressed text is rarely under a third of its size. */
		want = in->size < max / 4 ? in->size * 4 : max;
	} else if (in->size < input_offset(in))
		want = 0;
	if (want > INPUT_MAX_FILE || want >= SIZE_MAX) {
		cause_set(cause, "%s: file too large", in->path);
		return (NULL);
	}
	cap = want + 1;
	if ((b = malloc(cap)) == NULL) {
		cause_set(cause, "%s: out of memory", in->path);
		return (NULL);
	}
	for (;;) {
		if ((n = input_read(in, b + len, cap - 1 - len)) == -1) {
			cause_set(cause, "%s: %s", in->path, input_error(in));
			free(b);
			return (NULL);
		}
		len += n;
		if (in->dec == NULL || len < cap - 1)
			break;
		if (len >= most) {
			char	 c;

			/* Exactly most bytes is fine. */
			if ((n = input_read(in, &c, 1)) == 0)
				break;
			in->too_large = n == 1;
			if (n == -1) {
				cause_set(cause, "%s: %s", in->path,
				    input_error(in));
				free(b);
				return (NULL);
			}
			cause_set(cause, "%s: decompresses to more than the "
			    "%llu MiB this format may have (it is held whole "
			    "in memory)", in->path,
			    (unsigned long long)(most >> 20));
			free(b);
			return (NULL);
		}
		/* Full: grow, up to most; input_source stops at the limit. */
		ncap = cap > most / 2 ? most + 1 : cap * 2;
		if ((nb = realloc(b, ncap)) == NULL) {
			cause_set(cause, "%s: out of memory", in->path);
			free(b);
			return (NULL);
		}
		b = nb;
		cap = ncap;
	}
	b[len] = '\0';
	*lenp = len;
	return (b);
}

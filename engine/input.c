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
#include "input.h"

/* Buffered input for readers (see input.h). */

static int	input_fill(struct input *, size_t);

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
	free(in->buf);
	free(in);
}

/* Go back to the start of the input. */
int
input_rewind(struct input *in)
{
	in->lineno = 0;
	in->error = 0;
	in->hold = 0;
	if (in->fd == -1) {
		in->pos = 0;
		return (0);
	}
	if (in->offset == 0 && !in->eof) {
		in->pos = 0;
		return (0);
	}
	if (lseek(in->fd, 0, SEEK_SET) == -1)
		return (-1);
	in->pos = in->len = 0;
	in->offset = 0;
	in->eof = 0;
	return (0);
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
		n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			in->error = errno;
			return (-1);
		}
		if (n == 0)
			in->eof = 1;
		in->len += n;
	}
	return (0);
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
			cause_set(cause, "%s: read error: %s", in->path,
			    strerror(in->error ? in->error : ENOMEM));
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
 * caller frees. Bounded by the size the file had when opened.
 */
char *
input_slurp(struct input *in, size_t *lenp, char **cause)
{
	uint64_t	 want = in->size - input_offset(in);
	char		*b;
	ssize_t		 n;

	if (in->size < input_offset(in))
		want = 0;
	if (want > INPUT_MAX_FILE || want >= SIZE_MAX) {
		cause_set(cause, "%s: file too large", in->path);
		return (NULL);
	}
	if ((b = malloc(want + 1)) == NULL) {
		cause_set(cause, "%s: out of memory", in->path);
		return (NULL);
	}
	if ((n = input_read(in, b, want)) == -1) {
		cause_set(cause, "%s: read error: %s", in->path,
		    strerror(in->error));
		free(b);
		return (NULL);
	}
	b[n] = '\0';
	*lenp = n;
	return (b);
}

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
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "cause.h"
#include "child.h"
#include "decompress.h"
#include "testhook.h"

/*
 * Streaming decompression (see decompress.h). Compressed bytes are read
 * in large blocks into a buffer of our own and decoded straight into the
 * caller's buffer, so a decompressed byte is written once; the caller
 * (input.c) counts them against its limit.
 */

/*
 * A read of compressed bytes. 1 MiB, not input.c's 128 KB: a compressed
 * block becomes several output blocks, and fewer read(2)s and decoder
 * entries cost less than the extra cache footprint of the source.
 */
#define DECOMPRESS_BLOCK	(1024 * 1024)

/*
 * Compressed bytes that may decode to nothing at all: padding between
 * or after members and streams (tar's records, dd's blocks) is far
 * less. More is no data, only a decoder spinning over zeros (a sparse
 * file of a terabyte after a small gzip member): an error.
 */
#define DECOMPRESS_MAX_IDLE	((uint64_t)64 * 1024 * 1024)

/* liblzma's memory limit: xz -9 needs 65 MiB to decode, --extreme too. */
#define DECOMPRESS_XZ_MEMLIMIT	((uint64_t)1024 * 1024 * 1024)

struct decompress {
	int			 kind;
	int			 fd;		/* -1 for memory */

	unsigned char		*buf;		/* compressed bytes read */
	const unsigned char	*in;		/* next undecoded byte */
	size_t			 avail;		/* undecoded bytes at in */
	int			 eof;		/* source exhausted */
	int			 ended;		/* a stream or member ended */
	int			 done;		/* the whole input decoded */
	size_t			 zstd_hint;	/* 0 at a frame's end */
	uint64_t		 idle;		/* read since the last output */

	z_stream		 z;
	int			 z_init;
	ZSTD_DStream		*zs;
	lzma_stream		 xz;
	int			 xz_init;

	/* decompress_ahead(): a process decodes, the bytes come by pipe. */
	pid_t			 child;		/* -1: decoding here */
	int			 pipe_fd;	/* its decoded bytes */
	int			 err_fd;	/* "K", or "E" and the cause */
};

/* The pipe's size asked for: a few blocks in flight between the two. */
#define DECOMPRESS_PIPE		(1024 * 1024)
/* The longest cause the decoding process sends back. */
#define DECOMPRESS_CAUSE_MAX	1024

/* The decoding process's CPU time (decompress_set_cpu_limit). */
static unsigned int	decompress_cpu = 3600;

static int	decompress_start(struct decompress *, char **);
static int	decompress_fill(struct decompress *, char **);
static ssize_t	decompress_zlib(struct decompress *, unsigned char *, size_t,
		    char **);
static ssize_t	decompress_zstd(struct decompress *, unsigned char *, size_t,
		    char **);
static ssize_t	decompress_xz(struct decompress *, unsigned char *, size_t,
		    char **);
static int	decompress_zlib_check(const unsigned char *, size_t);
static void	decompress_child(struct decompress *, pid_t, int, int)
		    __attribute__((__noreturn__));
static ssize_t	decompress_piped(struct decompress *, void *, size_t,
		    char **);
static int	decompress_write(int, const void *, size_t);

/*
 * Is a raw zlib stream what the bytes start with? The header's check
 * (RFC 1950) passes for 1 in 31 pairs; of the headers zlib writes
 * (78 01, 78 5e, 78 9c, 78 da) only "x^" is text, so that one must also
 * inflate: a profile that begins with those two bytes fails at once.
 * The others are taken as zlib even when damaged, to say so.
 */
static int
decompress_zlib_check(const unsigned char *p, size_t len)
{
	z_stream	 z;
	unsigned char	 out[4096];
	int		 rc, i;

	if (len < 2 || p[0] != 0x78 || ((p[0] << 8) | p[1]) % 31 != 0 ||
	    (p[1] & 0x20) != 0)
		return (0);
	if (p[1] < 0x20 || p[1] >= 0x7f)
		return (1);
	memset(&z, 0, sizeof z);
	if (inflateInit(&z) != Z_OK)
		return (0);
	z.next_in = (unsigned char *)p;
	z.avail_in = len > 65536 ? 65536 : (unsigned)len;
	rc = Z_OK;
	for (i = 0; i < 64 && rc == Z_OK && z.avail_in > 0; i++) {
		z.next_out = out;
		z.avail_out = sizeof out;
		rc = inflate(&z, Z_NO_FLUSH);
	}
	inflateEnd(&z);
	return (rc == Z_OK || rc == Z_STREAM_END ||
	    (rc == Z_BUF_ERROR && z.avail_in == 0));
}

/* The compression the first bytes show, or DECOMPRESS_NONE. */
int
decompress_detect(const void *head, size_t len)
{
	const unsigned char	*p = head;

	if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return (DECOMPRESS_GZIP);
	if (len >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return (DECOMPRESS_ZSTD);
	if (len >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return (DECOMPRESS_XZ);
	if (decompress_zlib_check(p, len))
		return (DECOMPRESS_ZLIB);
	return (DECOMPRESS_NONE);
}

/* The name of a compression, for messages and listings. */
const char *
decompress_name(int kind)
{
	switch (kind) {
	case DECOMPRESS_GZIP:
		return ("gzip");
	case DECOMPRESS_ZLIB:
		return ("zlib");
	case DECOMPRESS_ZSTD:
		return ("zstd");
	case DECOMPRESS_XZ:
		return ("xz");
	}
	return ("none");
}

/* (Re)initialise the decoder for the start of the input. */
static int
decompress_start(struct decompress *d, char **cause)
{
	d->ended = d->done = 0;
	d->zstd_hint = 1;
	switch (d->kind) {
	case DECOMPRESS_GZIP:
	case DECOMPRESS_ZLIB:
		if (d->z_init) {
			if (inflateReset(&d->z) != Z_OK)
				goto fail;
			break;
		}
		memset(&d->z, 0, sizeof d->z);
		/* 15 + 32: the window of any stream, header either kind. */
		if (inflateInit2(&d->z, 15 + 32) != Z_OK)
			goto fail;
		d->z_init = 1;
		break;
	case DECOMPRESS_ZSTD:
		if (d->zs == NULL && (d->zs = ZSTD_createDStream()) == NULL)
			goto fail;
		if (ZSTD_isError(ZSTD_DCtx_reset(d->zs,
		    ZSTD_reset_session_only)))
			goto fail;
		break;
	case DECOMPRESS_XZ:
		if (d->xz_init)
			lzma_end(&d->xz);
		d->xz_init = 0;
		memset(&d->xz, 0, sizeof d->xz);
		if (lzma_stream_decoder(&d->xz, DECOMPRESS_XZ_MEMLIMIT,
		    LZMA_CONCATENATED) != LZMA_OK)
			goto fail;
		d->xz_init = 1;
		break;
	default:
		cause_set(cause, "unknown compression");
		return (-1);
	}
	return (0);
fail:
	cause_set(cause, "%s: cannot start the decoder (out of memory)",
	    decompress_name(d->kind));
	return (-1);
}

/*
 * A decoder reading fd, or the len bytes at mem when fd is -1 (not
 * copied: they must outlive the decoder). NULL with *cause on failure.
 */
struct decompress *
decompress_create(int kind, int fd, const void *mem, size_t len,
    char **cause)
{
	struct decompress	*d;

	if ((d = calloc(1, sizeof *d)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	d->kind = kind;
	d->fd = fd;
	d->child = -1;
	d->pipe_fd = d->err_fd = -1;
	if (fd != -1 && (d->buf = malloc(DECOMPRESS_BLOCK)) == NULL) {
		free(d);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (fd == -1) {
		d->in = mem;
		d->avail = len;
		d->eof = 1;
	}
	if (decompress_start(d, cause) == -1) {
		decompress_free(d);
		return (NULL);
	}
	return (d);
}

/* Free a decoder (not its file descriptor or memory). */
void
decompress_free(struct decompress *d)
{
	if (d == NULL)
		return;
	/* Stopped early (an error, a size limit): the process goes too. */
	if (d->child > 0) {
		(void)kill(d->child, SIGKILL);
		while (waitpid(d->child, NULL, 0) == -1 && errno == EINTR)
			;
	}
	if (d->pipe_fd != -1)
		close(d->pipe_fd);
	if (d->err_fd != -1)
		close(d->err_fd);
	if (d->z_init)
		inflateEnd(&d->z);
	ZSTD_freeDStream(d->zs);
	if (d->xz_init)
		lzma_end(&d->xz);
	free(d->buf);
	free(d);
}

/* Read more compressed bytes when none are left; 0, or -1 on error. */
static int
decompress_fill(struct decompress *d, char **cause)
{
	ssize_t	 n;

	if (d->avail > 0 || d->eof)
		return (0);
	for (;;) {
		n = read(d->fd, d->buf, DECOMPRESS_BLOCK);
		if (n != -1)
			break;
		if (errno != EINTR) {
			cause_set(cause, "read error: %s", strerror(errno));
			return (-1);
		}
	}
	d->in = d->buf;
	d->avail = n;
	if (n == 0)
		d->eof = 1;
	d->idle += (uint64_t)n;
	if (d->idle > DECOMPRESS_MAX_IDLE) {
		cause_set(cause, "%s data: %llu MiB of it decode to nothing "
		    "(padding?)", decompress_name(d->kind),
		    (unsigned long long)(DECOMPRESS_MAX_IDLE >> 20));
		return (-1);
	}
	return (0);
}

/* gzip (members one after the other) and zlib. */
static ssize_t
decompress_zlib(struct decompress *d, unsigned char *dst, size_t n,
    char **cause)
{
	size_t	 got = 0;
	uInt	 chunk;
	int	 rc;

	while (got < n) {
		if (decompress_fill(d, cause) == -1)
			return (-1);
		if (d->ended) {
			/*
			 * After a member: another gzip member, or zero bytes
			 * of padding (tar, dd), or the end.
			 */
			while (d->avail > 0 && d->in[0] == 0) {
				d->in++;
				d->avail--;
			}
			if (d->avail == 0) {
				if (d->eof) {
					d->done = 1;
					break;
				}
				continue;
			}
			if (d->kind != DECOMPRESS_GZIP || d->in[0] != 0x1f) {
				cause_set(cause, "%s data: trailing bytes that "
				    "are not %s after the end of the stream",
				    decompress_name(d->kind),
				    decompress_name(d->kind));
				return (-1);
			}
			if (inflateReset(&d->z) != Z_OK) {
				cause_set(cause, "gzip: out of memory");
				return (-1);
			}
			d->ended = 0;
		}
		if (d->avail == 0 && d->eof) {
			if (got > 0)
				break;
			cause_set(cause, "truncated %s data: the file ends "
			    "inside the compressed stream",
			    decompress_name(d->kind));
			return (-1);
		}
		chunk = n - got > UINT_MAX ? UINT_MAX : (uInt)(n - got);
		d->z.next_in = (unsigned char *)d->in;
		d->z.avail_in = d->avail > UINT_MAX ? UINT_MAX :
		    (uInt)d->avail;
		d->z.next_out = dst + got;
		d->z.avail_out = chunk;
		rc = inflate(&d->z, Z_NO_FLUSH);
		d->avail -= (const unsigned char *)d->z.next_in - d->in;
		d->in = d->z.next_in;
		got += chunk - d->z.avail_out;
		switch (rc) {
		case Z_OK:
			break;
		case Z_BUF_ERROR:
			/* Needs input: the loop reads more; else stuck. */
			if (d->avail == 0)
				break;
			cause_set(cause, "corrupt %s data",
			    decompress_name(d->kind));
			return (-1);
		case Z_STREAM_END:
			d->ended = 1;
			break;
		case Z_NEED_DICT:
			cause_set(cause, "zlib data needs a preset dictionary");
			return (-1);
		case Z_MEM_ERROR:
			cause_set(cause, "%s: out of memory",
			    decompress_name(d->kind));
			return (-1);
		default:
			cause_set(cause, "corrupt %s data: %s",
			    decompress_name(d->kind),
			    d->z.msg != NULL ? d->z.msg : "inflate failed");
			return (-1);
		}
	}
	return (got);
}

/* zstd: frames one after the other. */
static ssize_t
decompress_zstd(struct decompress *d, unsigned char *dst, size_t n,
    char **cause)
{
	ZSTD_inBuffer	 in;
	ZSTD_outBuffer	 out = { dst, n, 0 };
	size_t		 rc, before;

	while (out.pos < n) {
		if (decompress_fill(d, cause) == -1)
			return (-1);
		if (d->avail == 0 && d->eof) {
			if (d->zstd_hint == 0) {
				d->done = 1;
				break;
			}
			/* The decoder may still hold output: drain it. */
			in.src = d->in;
			in.size = in.pos = 0;
			before = out.pos;
			rc = ZSTD_decompressStream(d->zs, &out, &in);
			if (!ZSTD_isError(rc))
				d->zstd_hint = rc;
			if (!ZSTD_isError(rc) && out.pos > before)
				continue;
			if (out.pos > 0)
				break;
			cause_set(cause, "truncated zstd data: the file ends "
			    "inside a frame");
			return (-1);
		}
		in.src = d->in;
		in.size = d->avail;
		in.pos = 0;
		rc = ZSTD_decompressStream(d->zs, &out, &in);
		d->in += in.pos;
		d->avail -= in.pos;
		if (ZSTD_isError(rc)) {
			cause_set(cause, "corrupt zstd data: %s",
			    ZSTD_getErrorName(rc));
			return (-1);
		}
		d->zstd_hint = rc;
	}
	return (out.pos);
}

/* xz: streams one after the other, with their padding. */
static ssize_t
decompress_xz(struct decompress *d, unsigned char *dst, size_t n,
    char **cause)
{
	lzma_ret	 rc;
	size_t		 got = 0;

	while (got < n && !d->done) {
		if (decompress_fill(d, cause) == -1)
			return (-1);
		d->xz.next_in = d->in;
		d->xz.avail_in = d->avail;
		d->xz.next_out = dst + got;
		d->xz.avail_out = n - got;
		rc = lzma_code(&d->xz, d->eof ? LZMA_FINISH : LZMA_RUN);
		d->in = d->xz.next_in;
		d->avail = d->xz.avail_in;
		got = n - d->xz.avail_out;
		switch (rc) {
		case LZMA_OK:
			break;
		case LZMA_STREAM_END:
			d->done = 1;
			break;
		case LZMA_BUF_ERROR:
			if (got > 0)
				return (got);
			cause_set(cause, "truncated xz data: the file ends "
			    "inside the compressed stream");
			return (-1);
		case LZMA_MEM_ERROR:
			cause_set(cause, "xz: out of memory");
			return (-1);
		case LZMA_MEMLIMIT_ERROR:
			cause_set(cause, "xz data needs more than %llu MiB to "
			    "decode", (unsigned long long)
			    (DECOMPRESS_XZ_MEMLIMIT >> 20));
			return (-1);
		default:
			cause_set(cause, "corrupt xz data (liblzma error %d)",
			    (int)rc);
			return (-1);
		}
	}
	return (got);
}

/*
 * Up to n decompressed bytes into dst: as many as fit unless the input
 * ends. 0 at the end, -1 with *cause on an error (corrupt or truncated
 * data, a read error).
 */
ssize_t
decompress_read(struct decompress *d, void *dst, size_t n, char **cause)
{
	ssize_t	 got;

	if (n == 0 || d->done)
		return (0);
	if (n > SSIZE_MAX)
		n = SSIZE_MAX;
	if (d->pipe_fd != -1)
		return (decompress_piped(d, dst, n, cause));
	switch (d->kind) {
	case DECOMPRESS_GZIP:
	case DECOMPRESS_ZLIB:
		got = decompress_zlib(d, dst, n, cause);
		break;
	case DECOMPRESS_ZSTD:
		got = decompress_zstd(d, dst, n, cause);
		break;
	case DECOMPRESS_XZ:
		got = decompress_xz(d, dst, n, cause);
		break;
	default:
		cause_set(cause, "unknown compression");
		return (-1);
	}
	if (got > 0)
		d->idle = 0;
	return (got);
}

/*
 * The CPU seconds a decoding process may use from now on (0: the
 * default, an hour): deepq-server gives its load_timeout.
 */
void
decompress_set_cpu_limit(unsigned int sec)
{
	decompress_cpu = sec != 0 ? sec : 3600;
}

/*
 * Decode in a process of its own, beside the caller's parse: decoding
 * and parsing one after the other bound a compressed load to
 * P / (P + D) of the plain file's speed (about 0.75 with zstd on deep
 * folded stacks), and the design has no threads. The process reads the
 * file (its offset is the caller's too, so a server's load progress
 * still shows in /proc) and writes the decoded bytes to a pipe; at the
 * end it sends "K", or "E" and the cause, on a second pipe, so that a
 * process that died is never taken for the end of the data. Only for a
 * file decoder not yet read from; 0, or -1 with *cause (the decoder is
 * then still usable in process).
 */
int
decompress_ahead(struct decompress *d, char **cause)
{
	int	 data[2], err[2];
	pid_t	 pid, parent = getpid();

	if (d->fd == -1 || d->pipe_fd != -1) {
		cause_set(cause, "no file to decode ahead");
		return (-1);
	}
	if (pipe2(data, O_CLOEXEC) == -1) {
		cause_set(cause, "pipe: %s", strerror(errno));
		return (-1);
	}
	if (pipe2(err, O_CLOEXEC) == -1) {
		cause_set(cause, "pipe: %s", strerror(errno));
		close(data[0]);
		close(data[1]);
		return (-1);
	}
	(void)fcntl(data[1], F_SETPIPE_SZ, DECOMPRESS_PIPE);
	if ((pid = fork()) == -1) {
		cause_set(cause, "fork: %s", strerror(errno));
		close(data[0]);
		close(data[1]);
		close(err[0]);
		close(err[1]);
		return (-1);
	}
	if (pid == 0) {
		close(data[0]);
		close(err[0]);
		decompress_child(d, parent, data[1], err[1]);
	}
	close(data[1]);
	close(err[1]);
	d->child = pid;
	d->pipe_fd = data[0];
	d->err_fd = err[0];
	return (0);
}

/* Write all of p to fd; -1 on error. */
static int
decompress_write(int fd, const void *p, size_t n)
{
	const char	*s = p;
	ssize_t		 k;

	while (n > 0) {
		if ((k = write(fd, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		s += k;
		n -= (size_t)k;
	}
	return (0);
}

/*
 * The decoding process: every decoded byte to out, then the outcome to
 * err. Its other descriptors are closed (it must hold no lock, socket
 * or pipe of the caller's), and it leaves by _exit: nothing of the
 * caller's runs in it. It dies with its parent (a server killed at
 * load_timeout takes it along: nobody would read what it writes) and
 * after its own CPU time.
 */
static void
decompress_child(struct decompress *d, pid_t parent, int out, int err)
{
	unsigned char	*buf;
	char		*why = NULL;
	ssize_t		 n;
	int		 keep[3];

	if (child_tie(parent) == -1)
		_exit(1);
	child_limit_cpu(decompress_cpu);
	testhook_pause("decoder");
	(void)signal(SIGPIPE, SIG_DFL);
	keep[0] = d->fd;
	keep[1] = out;
	keep[2] = err;
	child_closefrom(3, keep, 3);
	if ((buf = malloc(DECOMPRESS_BLOCK)) == NULL) {
		(void)decompress_write(err, "Eout of memory", 14);
		_exit(1);
	}
	for (;;) {
		if ((n = decompress_read(d, buf, DECOMPRESS_BLOCK, &why)) ==
		    -1) {
			if (why == NULL)
				why = strdup("read error");
			(void)decompress_write(err, "E", 1);
			if (why != NULL)
				(void)decompress_write(err, why, strlen(why));
			_exit(1);
		}
		if (n == 0)
			break;
		if (decompress_write(out, buf, (size_t)n) == -1)
			_exit(1);
	}
	(void)decompress_write(err, "K", 1);
	_exit(0);
}

/*
 * decompress_read() from the decoding process's pipe. At the end of
 * the data its outcome decides: "K" is the end, "E" an error with its
 * cause, nothing at all (the process killed) an error too.
 */
static ssize_t
decompress_piped(struct decompress *d, void *dst, size_t n, char **cause)
{
	char	 msg[DECOMPRESS_CAUSE_MAX + 2];
	size_t	 len = 0;
	ssize_t	 k;

	for (;;) {
		if ((k = read(d->pipe_fd, dst, n)) > 0)
			return (k);
		if (k == 0)
			break;
		if (errno != EINTR) {
			cause_set(cause, "decoding: %s", strerror(errno));
			return (-1);
		}
	}
	while (len < sizeof msg - 1) {
		if ((k = read(d->err_fd, msg + len, sizeof msg - 1 - len)) ==
		    -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	msg[len] = '\0';
	while (waitpid(d->child, NULL, 0) == -1 && errno == EINTR)
		;
	d->child = -1;
	if (len > 0 && msg[0] == 'K') {
		d->done = 1;
		return (0);
	}
	if (len > 1 && msg[0] == 'E')
		cause_set(cause, "%s", msg + 1);
	else
		cause_set(cause, "the %s decoding process ended before the "
		    "data did", decompress_name(d->kind));
	return (-1);
}

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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "cause.h"
#include "decompress.h"

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

/* liblzma's memory limit: xz -9 needs 65 MiB to decode, --extreme too. */
#define DECOMPRESS_XZ_MEMLIMIT	((uint64_t)1024 * 1024 * 1024)

struct decompress {
	int			 kind;
	int			 fd;		/* -1 for memory */
	const unsigned char	*mem;		/* memory source */
	size_t			 memlen;

	unsigned char		*buf;		/* compressed bytes read */
	const unsigned char	*in;		/* next undecoded byte */
	size_t			 avail;		/* undecoded bytes at in */
	int			 eof;		/* source exhausted */
	int			 ended;		/* a stream or member ended */
	int			 done;		/* the whole input decoded */
	size_t			 zstd_hint;	/* 0 at a frame's end */

	z_stream		 z;
	int			 z_init;
	ZSTD_DStream		*zs;
	lzma_stream		 xz;
	int			 xz_init;
};

static int	decompress_start(struct decompress *, char **);
static int	decompress_fill(struct decompress *, char **);
static ssize_t	decompress_zlib(struct decompress *, unsigned char *, size_t,
		    char **);
static ssize_t	decompress_zstd(struct decompress *, unsigned char *, size_t,
		    char **);
static ssize_t	decompress_xz(struct decompress *, unsigned char *, size_t,
		    char **);
static int	decompress_zlib_check(const unsigned char *, size_t);

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
	d->mem = mem;
	d->memlen = len;
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
	if (d->z_init)
		inflateEnd(&d->z);
	ZSTD_freeDStream(d->zs);
	if (d->xz_init)
		lzma_end(&d->xz);
	free(d->buf);
	free(d);
}

/* Back to the start of the compressed input. */
int
decompress_rewind(struct decompress *d, char **cause)
{
	if (d->fd == -1) {
		d->in = d->mem;
		d->avail = d->memlen;
	} else {
		if (lseek(d->fd, 0, SEEK_SET) == -1) {
			cause_set(cause, "%s", strerror(errno));
			return (-1);
		}
		d->avail = 0;
		d->eof = 0;
	}
	return (decompress_start(d, cause));
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
	if (n == 0 || d->done)
		return (0);
	if (n > SSIZE_MAX)
		n = SSIZE_MAX;
	switch (d->kind) {
	case DECOMPRESS_GZIP:
	case DECOMPRESS_ZLIB:
		return (decompress_zlib(d, dst, n, cause));
	case DECOMPRESS_ZSTD:
		return (decompress_zstd(d, dst, n, cause));
	case DECOMPRESS_XZ:
		return (decompress_xz(d, dst, n, cause));
	}
	cause_set(cause, "unknown compression");
	return (-1);
}

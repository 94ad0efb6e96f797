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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "decompress.h"
#include "input.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

/* Compressed input (decompress.c through input.c) and the probes. */

static unsigned char *
deflate_buf(const char *s, size_t n, int bits, size_t *outlen)
{
	z_stream	 z;
	unsigned char	*out;
	size_t		 cap = compressBound(n) + 64;

	memset(&z, 0, sizeof z);
	if ((out = malloc(cap)) == NULL ||
	    deflateInit2(&z, 6, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		abort();
	z.next_in = (unsigned char *)s;
	z.avail_in = n;
	z.next_out = out;
	z.avail_out = cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*outlen = z.total_out;
	deflateEnd(&z);
	return (out);
}

static unsigned char *
pack(int kind, const char *s, size_t n, size_t *outlen)
{
	unsigned char	*out;
	size_t		 cap, pos = 0;

	switch (kind) {
	case DECOMPRESS_GZIP:
		return (deflate_buf(s, n, 15 + 16, outlen));
	case DECOMPRESS_ZLIB:
		return (deflate_buf(s, n, 15, outlen));
	case DECOMPRESS_ZSTD:
		cap = ZSTD_compressBound(n);
		if ((out = malloc(cap)) == NULL)
			abort();
		*outlen = ZSTD_compress(out, cap, s, n, 3);
		if (ZSTD_isError(*outlen))
			abort();
		return (out);
	default:
		cap = lzma_stream_buffer_bound(n);
		if ((out = malloc(cap)) == NULL ||
		    lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
		    (const uint8_t *)s, n, out, &pos, cap) != LZMA_OK)
			abort();
		*outlen = pos;
		return (out);
	}
}

/*
 * The decoder read directly in pieces of odd sizes, up to 5003 bytes
 * (most end inside a compressed block), against the text; then a
 * decoder freed after one small read, with decoded bytes still held.
 */
static void
pieces(int kind, const unsigned char *z, size_t zn, const char *text,
    size_t n)
{
	struct decompress	*d;
	char			 buf[5003], *cause = NULL;
	size_t			 sz = 1, at = 0, bad = 0;
	ssize_t			 r;

	if ((d = decompress_create(kind, -1, z, zn, &cause)) == NULL) {
		ok(0, "%s: a decoder: %s", decompress_name(kind), cause);
		free(cause);
		return;
	}
	while ((r = decompress_read(d, buf, sz, &cause)) > 0) {
		if (at + (size_t)r > n || memcmp(text + at, buf, r) != 0)
			bad++;
		at += r;
		sz = sz * 7 % sizeof buf + 1;
	}
	ok(r == 0 && at == n && bad == 0,
	    "%s: read in odd pieces, the same %zu bytes", decompress_name(kind),
	    at);
	decompress_free(d);
	d = decompress_create(kind, -1, z, zn, &cause);
	ok(d != NULL && decompress_read(d, buf, 100, &cause) == 100 &&
	    memcmp(buf, text, 100) == 0, "%s: a first read",
	    decompress_name(kind));
	decompress_free(d);
	free(cause);
}

/* Read every line; the count, or -1 with *cause. */
static long
lines(struct input *in, uint64_t *bytes, char **cause)
{
	char	*l;
	size_t	 len;
	long	 n = 0;

	*bytes = 0;
	while ((l = input_line(in, &len, cause)) != NULL) {
		n++;
		*bytes += len + 1;
	}
	return (*cause != NULL ? -1 : n);
}

/*
 * A member followed by a terabyte of zeros (a sparse file): the red
 * team's orphaned decoder. Decoded in process and by a process of its
 * own (the file is big), each stops with an error once 64 MiB decode to
 * nothing, not after reading the terabyte.
 */
static void
padded(int kind, const char *text, size_t n)
{
	struct decompress	*d;
	struct input		*in;
	unsigned char		*z;
	char			 path[] = "/tmp/test-decompress.XXXXXX", buf[65536];
	char			*cause = NULL;
	size_t			 zn;
	uint64_t		 bytes;
	ssize_t			 r;
	int			 fd;

	z = pack(kind, text, n, &zn);
	if ((fd = mkstemp(path)) == -1 || write(fd, z, zn) != (ssize_t)zn ||
	    ftruncate(fd, (off_t)1 << 40) == -1) {
		ok(0, "%s: a padded file", decompress_name(kind));
		free(z);
		return;
	}
	free(z);
	(void)lseek(fd, 0, SEEK_SET);
	d = decompress_create(kind, fd, NULL, 0, &cause);
	bytes = 0;
	while (d != NULL && (r = decompress_read(d, buf, sizeof buf,
	    &cause)) > 0)
		bytes += (uint64_t)r;
	ok(d != NULL && bytes <= n && cause != NULL &&
	    (strstr(cause, "decode to nothing") != NULL ||
	    strstr(cause, "corrupt") != NULL),
	    "%s: padded with a terabyte of zeros: \"%s\"",
	    decompress_name(kind), cause ? cause : "no error");
	decompress_free(d);
	free(cause);
	cause = NULL;
	in = input_open(path, &cause);
	ok(in != NULL && lines(in, &bytes, &cause) == -1 && bytes <= n &&
	    (strstr(cause, "decode to nothing") != NULL ||
	    strstr(cause, "corrupt") != NULL),
	    "%s: the same decoded ahead, by a process: \"%s\"",
	    decompress_name(kind), cause ? cause : "no error");
	input_free(in);
	free(cause);
	close(fd);
	unlink(path);
}

int
main(void)
{
	static const int kinds[] = { DECOMPRESS_GZIP, DECOMPRESS_ZLIB,
	    DECOMPRESS_ZSTD, DECOMPRESS_XZ };
	const char	*name;
	char		*text, *cause = NULL;
	unsigned char	*z, *two;
	size_t		 n = 0, zn, i, k;
	struct input	*in;
	struct profile	*p;
	uint64_t	 bytes;
	long		 got;

	/* 2 MB of folded lines, 100,000 of them. */
	if ((text = malloc(100000 * 40)) == NULL)
		return (1);
	for (i = 0; i < 100000; i++)
		n += sprintf(text + n, "main;f%zu;g%zu %zu\n", i % 97, i % 1013,
		    i);

	ok(decompress_detect("x^ hello 1\n", 11) == DECOMPRESS_NONE,
	    "\"x^\" text is not zlib");
	ok(decompress_detect("main;a 1\n", 9) == DECOMPRESS_NONE,
	    "folded text is not compressed");
	for (k = 0; k < 4; k++) {
		name = decompress_name(kinds[k]);
		z = pack(kinds[k], text, n, &zn);
		is_int(decompress_detect(z, zn), kinds[k], "%s detected", name);

		input_set_default_limit(0);
		in = input_memory_decoded((const char *)z, zn, &cause);
		ok(in != NULL && strcmp(input_compression(in), name) == 0,
		    "%s: an input", name);
		got = lines(in, &bytes, &cause);
		ok(got == 100000 && bytes == n, "%s: every line (%ld)", name,
		    got);
		input_free(in);

		/* A limit below the size: an error, flagged too large. */
		input_set_default_limit(1024 * 1024);
		in = input_memory_decoded((const char *)z, zn, &cause);
		got = lines(in, &bytes, &cause);
		ok(got == -1 && in->too_large && strstr(cause,
		    "decompresses to more than 1 MiB") != NULL,
		    "%s: the limit stops it: %s", name, cause);
		free(cause);
		cause = NULL;
		input_free(in);
		input_set_default_limit(0);

		/* A reader holding the whole text keeps its own bound. */
		for (i = 0; i < 3; i++) {
			static const size_t most[] = { 1 << 20, 0, 4 << 20 };
			char	*all;
			size_t	 len, m = most[i] != 0 ? most[i] : n;

			in = input_memory_decoded((const char *)z, zn, &cause);
			all = input_slurp_max(in, m, &len, &cause);
			if (i == 0)
				ok(all == NULL && in->too_large && strstr(cause,
				    "more than the 1 MiB") != NULL,
				    "%s: slurp over its bound: %s", name, cause);
			else
				ok(all != NULL && len == n && memcmp(all, text,
				    n) == 0, "%s: slurp within %zu bytes", name,
				    m);
			free(all);
			free(cause);
			cause = NULL;
			input_free(in);
		}

		pieces(kinds[k], z, zn, text, n);

		/* Cut short: an error that says truncated. */
		in = input_memory_decoded((const char *)z, zn * 2 / 3, &cause);
		got = lines(in, &bytes, &cause);
		ok(got == -1 && strstr(cause, "truncated") != NULL,
		    "%s: cut at 2/3: %s", name, cause);
		free(cause);
		cause = NULL;
		input_free(in);

		/* Two parts one after the other (gzip members, zstd frames, xz
		 * streams); zlib has no such thing. */
		if (kinds[k] != DECOMPRESS_ZLIB) {
			if ((two = malloc(zn * 2)) == NULL)
				return (1);
			memcpy(two, z, zn);
			memcpy(two + zn, z, zn);
			in = input_memory_decoded((const char *)two, zn * 2,
			    &cause);
			ok(lines(in, &bytes, &cause) == 200000,
			    "%s: two parts, twice the lines", name);
			input_free(in);
			free(two);
		}
		free(z);
	}

	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		padded(kinds[k], text, 1000 * 12);

	/* Probes: refusals beat weak readers; bpftrace maps are read. */
	ok(reader_detect("PERFILE2\0\0\0\0", 12) == NULL,
	    "perf.data is refused");
	ok(reader_detect("Attaching 1 probe...\n\n\n", 23) == NULL,
	    "bpftrace's first line is not perf");
	ok(reader_detect("@[\n    a+1\n]: 3\n", 16) != NULL &&
	    strcmp(reader_detect("@[\n    a+1\n]: 3\n", 16)->name,
	    "bpftrace") == 0, "a bpftrace stack map is bpftrace");
	name = "\n              spin`leaf+0x30\n              spin`main+0x16\n"
	    "               11\n";
	ok(reader_detect(name, strlen(name)) != NULL &&
	    strcmp(reader_detect(name, strlen(name))->name, "dtrace") == 0,
	    "DTrace stacks are dtrace");
	name = "cmd 123    1001 \n\t 1 f (m)\n\ncmd 123    1001 \n\t 1 g (m)\n\n";
	in = input_memory(name, strlen(name));
	p = reader_load_input(in, NULL, NULL, &cause);
	ok(p != NULL && strcmp(p->format, "perf") == 0 &&
	    profile_metric_find(p, "period") == 0,
	    "perf -F comm,tid,period: perf, with the period");
	profile_free(p);
	input_free(in);
	free(text);
	return (tap_done());
}

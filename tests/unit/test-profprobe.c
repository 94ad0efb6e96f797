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

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "input.h"
#include "profprobe.h"
#include "reader.h"
#include "tap.h"

/*
 * The listing's probe (common/profprobe.c) against the engine's choice
 * of reader (engine/reader.c): the same verdict, format or none, for
 * every file of tests/data and every fuzz seed, plain and compressed;
 * and the probe's bounds on a compressed file that decodes to nothing.
 */

static int	nfiles, nbad;

/* The engine's verdict: the reader of the first bytes, as a load picks. */
static const char *
engine_format(const char *path)
{
	const struct reader	*r = NULL;
	struct input		*in;
	const char		*head;
	ssize_t			 n;

	if ((in = input_open(path, NULL)) == NULL)
		return (NULL);
	if ((n = input_peek(in, &head, READER_PROBE_BYTES)) > 0)
		r = reader_detect(head, n);
	input_free(in);
	return (r != NULL ? r->name : NULL);
}

static const char *
probe_format(const char *path)
{
	static char	 buf[PROFPROBE_HEAD];
	const char	*f;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (NULL);
	f = profprobe_fd(fd, buf);
	close(fd);
	return (f);
}

static void
compare(const char *path)
{
	const char	*e = engine_format(path), *p = probe_format(path);

	nfiles++;
	if ((e == NULL) != (p == NULL) || (e != NULL && strcmp(e, p) != 0)) {
		nbad++;
		diag("%s: engine %s, probe %s", path, e ? e : "none",
		    p ? p : "none");
	}
}

static void
walk(const char *dir)
{
	struct dirent	*de;
	struct stat	 st;
	char		 path[4096];
	DIR		*d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (lstat(path, &st) == -1)
			continue;
		if (S_ISDIR(st.st_mode))
			walk(path);
		else if (S_ISREG(st.st_mode))
			compare(path);
	}
	closedir(d);
}

/* The probe says want (NULL: not a profile) of the file. */
static void
check_probe(const char *path, const char *want, const char *what)
{
	const char	*got = probe_format(path);

	ok(want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0,
	    "%s: %s", what, want ? want : "not a profile");
	if (got != NULL && (want == NULL || strcmp(got, want) != 0))
		diag("got %s", got);
	compare(path);
}

static void
write_file(const char *path, const void *p, size_t n)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL || fwrite(p, 1, n, f) != n ||
	    fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* gzip (zlib's gzip wrapper), zlib, zstd and xz copies of the text. */
static void
compressed(const char *dir, const char *text, const char *want)
{
	z_stream	 z;
	unsigned char	*out;
	char		 path[4096];
	size_t		 cap = compressBound(strlen(text)) + 1024, n;
	int		 wbits;

	if ((out = malloc(cap)) == NULL)
		exit(1);
	for (wbits = 0; wbits < 2; wbits++) {
		memset(&z, 0, sizeof z);
		deflateInit2(&z, 9, Z_DEFLATED, MAX_WBITS + (wbits ? 0 : 16),
		    8, Z_DEFAULT_STRATEGY);
		z.next_in = (unsigned char *)text;
		z.avail_in = strlen(text);
		z.next_out = out;
		z.avail_out = cap;
		deflate(&z, Z_FINISH);
		n = cap - z.avail_out;
		deflateEnd(&z);
		snprintf(path, sizeof path, "%s/t.%s", dir, wbits ? "zlib" :
		    "gz");
		write_file(path, out, n);
		check_probe(path, want, wbits ? "zlib" : "gzip");
	}
	n = ZSTD_compress(out, cap, text, strlen(text), 3);
	snprintf(path, sizeof path, "%s/t.zst", dir);
	write_file(path, out, n);
	check_probe(path, want, "zstd");
	n = 0;
	lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
	    (const uint8_t *)text, strlen(text), out, &n, cap);
	snprintf(path, sizeof path, "%s/t.xz", dir);
	write_file(path, out, n);
	check_probe(path, want, "xz");
	free(out);
}

/*
 * A gzip member of nothing, then a huge hole of zeros (sparse): the
 * probe reads at most PROFPROBE_MAX_IN bytes of it and says none, at
 * once.
 */
static void
padded(const char *dir)
{
	static const unsigned char	 empty_gz[] = {
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
		0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
	};
	struct timespec	 t0, t1;
	char		 path[4096];
	double		 ms;
	int		 fd;

	snprintf(path, sizeof path, "%s/padded.gz", dir);
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) == -1 ||
	    write(fd, empty_gz, sizeof empty_gz) != (ssize_t)sizeof empty_gz ||
	    ftruncate(fd, (off_t)1 << 40) == -1) {
		perror(path);
		exit(1);
	}
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok(probe_format(path) == NULL, "a padded gzip (1 TiB sparse) is no "
	    "profile");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	/* A bound on work, not speed: it would take hours to read it all. */
	diag("probed in %.1f ms", ms);
	unlink(path);
}

int
main(void)
{
	const char	*top = getenv("top_srcdir");
	char		 dir[4096], tmp[] = "/tmp/deepq-profprobe.XXXXXX";

	if (top == NULL)
		top = ".";
	snprintf(dir, sizeof dir, "%s/tests/data", top);
	walk(dir);
	snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus", top);
	walk(dir);
	ok(nfiles > 400 && nbad == 0, "%d of %d test files: the probe's "
	    "verdict is the engine's", nfiles - nbad, nfiles);

	if (mkdtemp(tmp) == NULL) {
		perror(tmp);
		return (1);
	}
	nbad = nfiles = 0;
	compressed(tmp, "main;work;leaf 12\nmain;idle 3\n", "folded");
	compressed(tmp, "# callgrind format\nevents: Ir\nfn=main\n1 5\n",
	    "callgrind");
	compressed(tmp, "user: hunter2\n", NULL);
	ok(nbad == 0, "compressed copies: the probe's verdict is the "
	    "engine's (%d)", nfiles);
	padded(tmp);
	{
		char	 p[4200];

		snprintf(p, sizeof p, "%s/t.gz", tmp);
		unlink(p);
		snprintf(p, sizeof p, "%s/t.zlib", tmp);
		unlink(p);
		snprintf(p, sizeof p, "%s/t.zst", tmp);
		unlink(p);
		snprintf(p, sizeof p, "%s/t.xz", tmp);
		unlink(p);
	}
	rmdir(tmp);
	return (tap_done());
}

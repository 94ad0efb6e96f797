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

/*
 * Replays a fuzz harness's inputs without libFuzzer: each argument is a
 * file or a directory of files, each file is one input given to
 * LLVMFuzzerTestOneInput. Built in the ordinary build with every harness,
 * so make check replays the regression corpus under the sanitizers.
 * Prints one line per input replayed (a crash names the last one).
 */

#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static int	replay_file(const char *);
static int	replay_path(const char *);
static int	replay_cmp(const void *, const void *);

static size_t	replay_count;

static int
replay_file(const char *path)
{
	FILE	*f;
	char	*buf = NULL;
	size_t	 len = 0, cap = 0, n;

	if ((f = fopen(path, "rb")) == NULL) {
		perror(path);
		return (-1);
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((buf = realloc(buf, cap)) == NULL) {
				perror("realloc");
				fclose(f);
				return (-1);
			}
		}
		if ((n = fread(buf + len, 1, cap - len, f)) == 0)
			break;
		len += n;
	}
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(buf);
		return (-1);
	}
	fclose(f);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	/* An exact-size copy, so that ASan sees any read past the end. */
	{
		uint8_t	*exact = malloc(len ? len : 1);

		if (exact == NULL) {
			free(buf);
			return (-1);
		}
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	replay_count++;
	return (0);
}

static int
replay_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

static int
replay_path(const char *path)
{
	struct stat	 st;
	struct dirent	*de;
	DIR		*d;
	char		**names = NULL, *p;
	size_t		 n = 0, i;
	int		 rc = 0;

	if (stat(path, &st) == -1) {
		perror(path);
		return (-1);
	}
	if (!S_ISDIR(st.st_mode))
		return (replay_file(path));
	if ((d = opendir(path)) == NULL) {
		perror(path);
		return (-1);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((names = reallocarray(names, n + 1, sizeof *names)) ==
		    NULL || asprintf(&p, "%s/%s", path, de->d_name) == -1) {
			closedir(d);
			return (-1);
		}
		names[n++] = p;
	}
	closedir(d);
	qsort(names, n, sizeof *names, replay_cmp);
	for (i = 0; i < n; i++) {
		if (rc == 0 && replay_path(names[i]) == -1)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return (rc);
}

int
main(int argc, char **argv)
{
	int	 i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s file|dir...\n", argv[0]);
		return (2);
	}
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i]) == -1)
			return (1);
	printf("%zu inputs replayed\n", replay_count);
	return (0);
}

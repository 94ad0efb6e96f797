/*
 * mutate FILE...: robustness of the readers on real files. Each file is
 * loaded whole, then truncated at 4 KiB boundaries (every one, or for a
 * file of more than MAX_CUTS of them, MAX_CUTS spread over it: each cut
 * parses all before it, so every boundary of a 2.6 MB file took minutes
 * under ASan) and with random bit flips (a fixed seed, so failures reproduce); every variant must load or
 * fail with a cause, never crash (run under --enable-asan in CI). TAP.
 */

#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

#define FLIPS	64
#define MAX_CUTS	64

static int
try(const char *data, size_t len, const char *format)
{
	struct input	*in;
	struct profile	*p;
	char		*cause = NULL;
	int		 clean;

	if ((in = input_memory(data, len)) == NULL)
		return (0);
	p = reader_load_input(in, format, NULL, &cause);
	clean = p != NULL || cause != NULL;
	profile_free(p);
	free(cause);
	input_free(in);
	return (clean);
}

int
main(int argc, char **argv)
{
	FILE		*f;
	char		*data, *copy;
	const char	*format;
	long		 size;
	size_t		 cut, n, good, i, bit, step;
	struct profile	*p;
	struct input	*in;
	char		*cause;
	int		 a;

	srandom(20261121);
	for (a = 1; a < argc; a++) {
		if ((f = fopen(argv[a], "rb")) == NULL) {
			ok(0, "%s: cannot open", argv[a]);
			continue;
		}
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		rewind(f);
		data = malloc(size + 1);
		copy = malloc(size + 1);
		if (data == NULL || copy == NULL ||
		    fread(data, 1, size, f) != (size_t)size) {
			ok(0, "%s: cannot read", argv[a]);
			fclose(f);
			free(data);
			free(copy);
			continue;
		}
		fclose(f);

		/* The whole file must load; its detected format is kept. */
		in = input_memory(data, size);
		cause = NULL;
		p = reader_load_input(in, NULL, NULL, &cause);
		ok(p != NULL, "%s loads", argv[a]);
		if (p == NULL)
			diag("%s", cause ? cause : "?");
		format = p != NULL ? p->format : NULL;
		profile_free(p);
		free(cause);
		input_free(in);

		step = ((size_t)size / MAX_CUTS + 4095) / 4096 * 4096;
		if (step < 4096)
			step = 4096;
		for (cut = 0, n = 0, good = 0; cut < (size_t)size;
		    cut += step) {
			n++;
			good += try(data, cut, NULL);
			if (format != NULL) {
				n++;
				good += try(data, cut, format);
			}
		}
		is_int(good, n, "%s: %zu truncations at 4 KiB boundaries",
		    argv[a], n);

		for (i = 0, good = 0; i < FLIPS && size > 0; i++) {
			memcpy(copy, data, size);
			bit = (size_t)random() % ((size_t)size * 8);
			/* Flip in the first 4 KiB half the time: headers. */
			if (i % 2 == 0 && size > 4096)
				bit %= 4096 * 8;
			copy[bit / 8] ^= 1 << (bit % 8);
			good += try(copy, size, format);
		}
		is_int(good, size > 0 ? FLIPS : 0, "%s: %d random bit flips",
		    argv[a], FLIPS);
		free(data);
		free(copy);
	}
	return (tap_done());
}

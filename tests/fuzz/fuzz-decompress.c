/*
 * Fuzz harness for compressed input: the bytes go through the
 * decompression a file would (input_memory_decoded: gzip, zlib, zstd,
 * xz, or none), then to whichever reader their decompressed start
 * chooses; the input is then rewound and read again whole. Every
 * failure must say why, and a small limit keeps bombs short.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input.h"
#include "profile.h"
#include "reader.h"

#define FUZZ_LIMIT	(8 * 1024 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct reader_options	 opts = { .max_nodes = 1 << 20 };
	struct input		*in;
	struct profile		*p;
	char			*cause = NULL, buf[65536];
	ssize_t			 n;
	uint64_t		 total = 0;

	input_set_default_limit(FUZZ_LIMIT);
	if ((in = input_memory_decoded((const char *)data, len, &cause)) ==
	    NULL) {
		if (cause == NULL)
			abort();
		free(cause);
		return (0);
	}
	p = reader_load_input(in, NULL, &opts, &cause);
	if (p == NULL && cause == NULL)
		abort();	/* every failure must say why */
	profile_free(p);
	free(cause);
	cause = NULL;
	input_free(in);

	/* Again from the start, raw: never more than the limit. */
	if ((in = input_memory_decoded((const char *)data, len, &cause)) ==
	    NULL)
		abort();	/* it opened the first time */
	while ((n = input_read(in, buf, sizeof buf)) > 0)
		total += n;
	if (total > FUZZ_LIMIT || (n == -1 && input_error(in) == NULL))
		abort();
	input_free(in);
	return (0);
}

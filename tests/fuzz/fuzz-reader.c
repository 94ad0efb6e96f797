/*
 * libFuzzer harness for one reader, chosen at build time with
 * -DFUZZ_READER='"name"' (tests/fuzz/include.am builds one per reader), or
 * all readers through detection when FUZZ_READER is NULL.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input.h"
#include "profile.h"
#include "reader.h"

#ifndef FUZZ_READER
#define FUZZ_READER NULL
#endif

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct reader_options	 opts = { .max_nodes = 1 << 20 };
	struct input		*in;
	struct profile		*p;
	char			*cause = NULL;

	if ((in = input_memory((const char *)data, len)) == NULL)
		return (0);
	p = reader_load_input(in, FUZZ_READER, &opts, &cause);
	if (p == NULL && cause == NULL)
		abort();	/* every failure must say why */
	profile_free(p);
	free(cause);
	input_free(in);
	return (0);
}

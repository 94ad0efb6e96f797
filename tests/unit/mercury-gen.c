/*
 * mercury-gen VERSION COVERAGE: write the example Deep.data of
 * mercury-encode.c (version 8 or 9, coverage 0, 1 or 2) to standard
 * output, for the fuzzers' seed corpus. mercury-gen large SIZE: about
 * SIZE bytes of a synthetic profile, for the benchmark; its totals go to
 * standard error.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mercury-encode.h"

int
main(int argc, char **argv)
{
	struct menc		 e = { 0 };
	struct mercury_own	 total;
	int			 version, coverage;

	if (argc == 3 && strcmp(argv[1], "large") == 0) {
		menc_large(&e, strtoull(argv[2], NULL, 10), &total);
		fprintf(stderr, "callseqs=%lld quanta=%lld allocs=%lld "
		    "words=%lld\n", (long long)total.callseqs,
		    (long long)total.quanta, (long long)total.allocs,
		    (long long)total.words);
	} else if (argc != 3 || ((version = atoi(argv[1])) != 8 &&
	    version != 9) ||
	    (coverage = atoi(argv[2])) < 0 || coverage > 2) {
		fprintf(stderr, "usage: mercury-gen 8|9 0|1|2\n"
		    "       mercury-gen large size\n");
		return (1);
	} else
		menc_example(&e, version, coverage, &total);
	if (fwrite(e.data, 1, e.len, stdout) != e.len || fflush(stdout) != 0) {
		perror("mercury-gen");
		return (1);
	}
	menc_free(&e);
	return (0);
}

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
 * viewbench [-r RUNS] [-m METRICS] FILE: the parse of a view's answer
 * alone (engine/view-query.c, view_query_answer), as the folded reader's
 * speed is measured by readbench: FILE is the stacks' answer in
 * RowBinary as clickhouse-client gives it (bench/clickhouse.sh keeps
 * one with KEEP=), parsed from memory RUNS times into a profile. Prints
 * the CPU time of the fastest run, MB/s and the profile's size.
 */

#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clickhouse.h"
#include "profile.h"
#include "view-query.h"

static double
viewbench_cpu(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

int
main(int argc, char **argv)
{
	struct clickhouse_answer	*a;
	struct profile			*p;
	struct stat			 sb;
	FILE				*f;
	char				*buf, *cause = NULL;
	double				 t, best = -1;
	int				 c, runs = 3, nm = 1, i;

	while ((c = getopt(argc, argv, "m:r:")) != -1) {
		if (c == 'r')
			runs = atoi(optarg);
		else if (c == 'm')
			nm = atoi(optarg);
		else
			goto usage;
	}
	if (argc - optind != 1 || runs < 1)
		goto usage;
	if ((f = fopen(argv[optind], "rb")) == NULL ||
	    fstat(fileno(f), &sb) == -1 ||
	    (buf = malloc(sb.st_size ? sb.st_size : 1)) == NULL ||
	    fread(buf, 1, sb.st_size, f) != (size_t)sb.st_size) {
		perror(argv[optind]);
		return (1);
	}
	fclose(f);
	for (i = 0; i < runs; i++) {
		if ((a = clickhouse_answer_memory(buf, sb.st_size)) == NULL)
			return (1);
		t = viewbench_cpu();
		p = view_query_answer(a, nm, 100000000, &cause);
		t = viewbench_cpu() - t;
		clickhouse_answer_free(a);
		if (p == NULL) {
			fprintf(stderr, "viewbench: %s\n", cause);
			return (1);
		}
		if (best < 0 || t < best)
			best = t;
		if (i == runs - 1)
			printf("%.1f MB\t%.3f s CPU\t%.1f MB/s\t%u nodes\t"
			    "%u functions\n", sb.st_size / 1e6, best,
			    sb.st_size / 1e6 / best, p->nnodes, p->nfuncs);
		profile_free(p);
	}
	free(buf);
	return (0);
usage:
	fprintf(stderr, "usage: viewbench [-r runs] [-m metrics] file\n");
	return (2);
}

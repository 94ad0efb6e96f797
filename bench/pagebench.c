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

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "answer-query.h"
#include "profile.h"
#include "profile-index.h"
#include "reader.h"

/*
 * pagebench [-c] [-r runs] [-o dir] FILE [QUERY...]: load a profile once, then
 * answer each query (default: the menu, top, tree, func, callers, modules
 * and cliques pages) five times, or runs times, and print the answer's
 * size, the time of the first (cold: what the profile's derived data
 * costs to build) and the median and 99th percentile of the others (warm:
 * what the server costs per query once the profile is loaded). -o writes
 * each answer's body to dir/N, N the query's position, to compare two
 * builds byte for byte. -c times the queries in the thread's CPU time
 * instead of wall time: on a machine shared with other work, what the
 * page costs rather than how long it waited for a core; -u prints
 * microseconds. bench/page-sizes.sh runs it on a generated
 * profile of a million call nodes; bench/querybench.sh on several.
 */

static clockid_t clock_id = CLOCK_MONOTONIC;

static double	now(void);
static int	cmp_double(const void *, const void *);

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(clock_id, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

int
main(int argc, char **argv)
{
	static const char *defaults[] = {
		"cmd=menu", "cmd=top", "cmd=top&limit=1000", "cmd=tree",
		"cmd=tree&budget=1000", "cmd=tree&depth=7&budget=5000",
		"cmd=func&func=1", "cmd=func&func=HEAVY",
		"cmd=callers&func=HEAVY&by=site", "cmd=modules", "cmd=cliques",
		"cmd=dump", "cmd=top&format=json", "cmd=tree&format=json",
		"cmd=func&func=HEAVY&format=json",
	};
	struct answer_context	 ctx;
	struct answer		*a;
	struct profile		*p;
	struct profile_index	*ix;
	const char		**queries, *outdir = NULL;
	char			*cause = NULL, heavy[32], *q, *s, *path;
	double			 t0, *times, load, prep, first;
	int			 nq, i, r, status, ch, runs = 5;
	double			 unit = 1e3;	/* -u: microseconds */
	size_t			 len;
	uint32_t		 f, best = 1;
	FILE			*out;

	while ((ch = getopt(argc, argv, "co:r:u")) != -1) {
		switch (ch) {
		case 'u':
			unit = 1e6;
			break;
		case 'c':
			clock_id = CLOCK_THREAD_CPUTIME_ID;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'r':
			if ((runs = atoi(optarg)) < 2)
				errx(1, "-r: at least 2 runs");
			break;
		default:
			goto usage;
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 2) {
usage:
		errx(1, "usage: pagebench [-cu] [-r runs] [-o dir] file "
		    "[query ...]");
	}
	if ((times = calloc(runs, sizeof *times)) == NULL)
		err(1, "calloc");
	t0 = now();
	if ((p = reader_load(argv[1], NULL, NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	load = now() - t0;
	/* The index as the server makes it, with the load. */
	t0 = now();
	if ((ix = profile_index_create(p)) == NULL ||
	    profile_index_prepare(ix, NULL) == -1)
		errx(1, "out of memory");
	prep = now() - t0;
	printf("# %s: %u call nodes, %u functions, loaded in %.2f s, "
	    "index prepared in %.3f s\n", argv[1], p->nnodes, p->nfuncs, load,
	    prep);
	/* HEAVY: the function with the most self time, a busy butterfly. */
	for (f = 1; f < p->nfuncs; f++) {
		if (p->metrics[0].func_self[f] > p->metrics[0].func_self[best])
			best = f;
	}
	snprintf(heavy, sizeof heavy, "%u", best);
	queries = argc > 2 ? (const char **)argv + 2 : defaults;
	nq = argc > 2 ? argc - 2 : (int)(sizeof defaults / sizeof defaults[0]);
	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	ctx.render.static_base = "/deepq/";
	ctx.render.file = argv[1];
	ctx.report.name = argv[1];
	ctx.report.index = ix;
	printf("%-40s %10s %9s %9s %9s\n", "query", "bytes", unit == 1e3 ?
	    "cold ms" : "cold us", unit == 1e3 ? "p50 ms" : "p50 us",
	    unit == 1e3 ? "p99 ms" : "p99 us");
	for (i = 0; i < nq; i++) {
		/* Put the heavy function's id in place of HEAVY. */
		if ((s = strstr(queries[i], "HEAVY")) != NULL) {
			if (asprintf(&q, "%.*s%s%s", (int)(s - queries[i]),
			    queries[i], heavy, s + 5) == -1)
				err(1, "asprintf");
		} else if ((q = strdup(queries[i])) == NULL)
			err(1, "strdup");
		len = 0;
		status = 0;
		for (r = 0; r < runs; r++) {
			t0 = now();
			if ((a = answer_query(p, q, &ctx)) == NULL)
				errx(1, "out of memory");
			times[r] = now() - t0;
			len = a->len;
			status = a->status;
			if (r == 0 && outdir != NULL) {
				if (asprintf(&path, "%s/%d", outdir, i) == -1)
					err(1, "asprintf");
				if ((out = fopen(path, "w")) == NULL ||
				    fwrite(a->body, 1, a->len, out) != a->len ||
				    fclose(out) != 0)
					err(1, "%s", path);
				free(path);
			}
			answer_free(a);
		}
		first = times[0];
		qsort(times + 1, runs - 1, sizeof times[0], cmp_double);
		printf("%-40s %10zu %9.2f %9.2f %9.2f%s\n", q, len, first * unit,
		    times[1 + (runs - 1) / 2] * unit,
		    times[1 + (int)((runs - 1) * 0.99)] * unit,
		    status == 200 ? "" : " (error)");
		free(q);
	}
	profile_index_free(ix);
	profile_free(p);
	free(times);
	return (0);
}

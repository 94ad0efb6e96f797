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

#include "answer.h"
#include "profile.h"
#include "reader.h"

/*
 * pagebench FILE [QUERY...]: load a profile once, then answer each query
 * (default: the menu, top, tree, func, callers, modules and cliques
 * pages) five times and print the answer's size and the median time, as
 * the server would once the profile is loaded. bench/page-sizes.sh runs
 * it on a generated profile of a million call nodes.
 */

#define RUNS	5

static double	now(void);
static int	cmp_double(const void *, const void *);

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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
	const char		**queries;
	char			*cause = NULL, heavy[32], *q, *s;
	double			 t0, times[RUNS], load;
	int			 nq, i, r, status;
	size_t			 len;
	uint32_t		 f, best = 1;

	if (argc < 2)
		errx(1, "usage: pagebench file [query ...]");
	t0 = now();
	if ((p = reader_load(argv[1], NULL, NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	load = now() - t0;
	printf("# %s: %u call nodes, %u functions, loaded in %.2f s\n",
	    argv[1], p->nnodes, p->nfuncs, load);
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
	printf("%-40s %12s %10s\n", "query", "bytes", "ms");
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
		for (r = 0; r < RUNS; r++) {
			t0 = now();
			if ((a = answer_query(p, q, &ctx)) == NULL)
				errx(1, "out of memory");
			times[r] = now() - t0;
			len = a->len;
			status = a->status;
			answer_free(a);
		}
		qsort(times, RUNS, sizeof times[0], cmp_double);
		printf("%-40s %12zu %10.1f%s\n", q, len,
		    times[RUNS / 2] * 1e3, status == 200 ? "" : " (error)");
		free(q);
	}
	profile_free(p);
	return (0);
}

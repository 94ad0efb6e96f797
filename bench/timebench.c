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
#include "profile-builder.h"
#include "profile-index.h"
#include "timeline.h"
#include "timeline-sums.h"

/*
 * timebench [-u] [-n samples] [-t threads] [-s stacks] [-r runs]: the
 * timeline's cost at scale. Builds, through the profile builder as
 * perf's reader does, a profile of n samples (default 10^7) taken at
 * 4 kHz on t threads (default 8, interleaved as perf -a records them),
 * each a stack of s distinct ones (default 20,000, 5 to 30 frames of
 * 2,000 functions, picked with a skew), weighted by a period; prints the
 * bytes a sample's time and thread take (and its leaf node), the
 * memory of the index's range sums (timeline-sums.h), then times
 * queries as the server answers them, warm (its index made): the
 * whole profile's top, top under ranges of 1%, 10%, 50% and 90% of the
 * recording and of one thread, the timeline page and its JSON, the heat
 * map and the flame chart of a second (or the queries given after the
 * options). -u leaves the index unprepared: no range sums, so a range
 * reads its records. Times are the thread's CPU time, the first run
 * (cold) and the median of the others (p50).
 */

static uint64_t	rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng);
}

static double
cpu(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* The profile: stacks first, then the samples in time order. */
static struct profile *
build(uint64_t n, uint32_t nthreads, uint32_t nstacks)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		*leaf, *fn, *th, k, d, depth, node, f;
	uint64_t		 i;
	int			 mperiod, msamples;
	int64_t			 t = 1000000000;
	char			 name[64], *cause = NULL;

	if ((b = profile_builder_create("perf")) == NULL ||
	    (mperiod = profile_builder_metric(b, "period", "ns")) == -1 ||
	    (msamples = profile_builder_metric(b, "samples", "count")) == -1 ||
	    profile_builder_clock(b, "ns", 1e9) == -1 ||
	    profile_builder_time_mode(b, mperiod, TIMELINE_WEIGHT) == -1 ||
	    profile_builder_time_mode(b, msamples, TIMELINE_COUNT) == -1)
		errx(1, "builder");
	if ((fn = calloc(2000, sizeof *fn)) == NULL ||
	    (leaf = calloc(nstacks, sizeof *leaf)) == NULL ||
	    (th = calloc(nthreads, sizeof *th)) == NULL)
		err(1, NULL);
	for (f = 0; f < 2000; f++) {
		snprintf(name, sizeof name, "app::module%u::function_%u",
		    f % 40, f);
		if ((fn[f] = profile_builder_func(b, name, strlen(name),
		    "/usr/bin/app", 12)) == PROFILE_NONE)
			errx(1, "func");
	}
	for (k = 0; k < nthreads; k++) {
		snprintf(name, sizeof name, "worker-%u", k);
		if ((th[k] = profile_builder_thread(b, name, strlen(name), "app",
		    3, 4242, 4242 + k)) == PROFILE_NONE)
			errx(1, "thread");
	}
	for (k = 0; k < nstacks; k++) {
		depth = 5 + next() % 26;
		/* Stacks share their first frames, as programs' do. */
		node = PROFILE_ROOT;
		for (d = 0; d < depth; d++) {
			f = d < 3 ? (uint32_t)(next() % (4 << d)) :
			    (uint32_t)(next() % 2000);
			if ((node = profile_builder_child(b, node, fn[f])) ==
			    PROFILE_NONE)
				errx(1, "child");
		}
		leaf[k] = node;
	}
	for (i = 0; i < n; i++) {
		/* A skew: a few stacks are hot. */
		k = (uint32_t)((next() % nstacks) * (next() % nstacks) /
		    nstacks);
		node = leaf[k];
		t += 250000 / nthreads + (int64_t)(next() % 1000);
		if (profile_builder_add(b, node, mperiod, 250000) == -1 ||
		    profile_builder_add(b, node, msamples, 1) == -1 ||
		    profile_builder_sample(b, node, 250000) == -1 ||
		    profile_builder_timed(b, node, th[i % nthreads], t, 0,
		    250000) == -1)
			errx(1, "sample: %s", profile_builder_error(b));
	}
	if ((p = profile_builder_finish(b, &cause)) == NULL)
		errx(1, "%s", cause);
	free(fn);
	free(leaf);
	free(th);
	return (p);
}

int
main(int argc, char **argv)
{
	struct answer_context	 ctx;
	struct answer		*a;
	struct profile		*p;
	struct profile_index	*ix;
	const struct timeline	*tl;
	const struct timeline_sums *sums;
	uint64_t		 n = 10000000;
	uint32_t		 nthreads = 8, nstacks = 20000;
	int			 ch, runs = 7, r, i, prepare = 1;
	double			 t0, *times, dur, mid;
	char			 q[16][128];
	size_t			 len;

	while ((ch = getopt(argc, argv, "n:r:s:t:u")) != -1) {
		switch (ch) {
		case 'n':
			n = strtoull(optarg, NULL, 10);
			break;
		case 'r':
			if ((runs = atoi(optarg)) < 2)
				errx(1, "-r: at least 2 runs");
			break;
		case 's':
			nstacks = (uint32_t)atoi(optarg);
			break;
		case 't':
			nthreads = (uint32_t)atoi(optarg);
			break;
		case 'u':
			prepare = 0;
			break;
		default:
			errx(1, "usage: timebench [-u] [-n samples] [-r runs] "
			    "[-s stacks] [-t threads]");
		}
	}
	if (n == 0 || nthreads == 0 || nstacks == 0 ||
	    (times = calloc(runs, sizeof *times)) == NULL)
		errx(1, "bad arguments");
	t0 = cpu();
	p = build(n, nthreads, nstacks);
	tl = p->timeline;
	printf("# %llu samples on %u threads, %u call nodes: built in "
	    "%.2f s CPU\n", (unsigned long long)n, nthreads, p->nnodes,
	    cpu() - t0);
	printf("# time and thread: %.2f bytes a sample (stream %.2f, index "
	    "%.2f); with the leaf node %.2f; clock %s\n",
	    (double)(tl->ndata + tl->nindex * sizeof *tl->index) / tl->n,
	    (double)tl->ndata / tl->n,
	    (double)(tl->nindex * sizeof *tl->index) / tl->n,
	    (double)(tl->ndata + tl->nindex * sizeof *tl->index +
	    tl->n * sizeof *tl->node) / tl->n, tl->unit);
	t0 = cpu();
	if ((ix = profile_index_create(p)) == NULL ||
	    (prepare && profile_index_prepare(ix, NULL) == -1))
		errx(1, "out of memory");
	printf("# index prepared in %.3f s CPU\n", cpu() - t0);
	if ((sums = profile_index_sums(ix)) != NULL)
		printf("# range sums: %.1f MB, %llu checkpoints every %llu "
		    "records, %u sets (threads)\n",
		    timeline_sums_memory(sums) / 1048576.0,
		    (unsigned long long)sums->nchk,
		    (unsigned long long)sums->step, sums->ngroups);
	else
		printf("# range sums: none\n");

	dur = timeline_seconds(tl, tl->end);
	mid = dur / 2;
	i = 0;
	snprintf(q[i++], sizeof q[0], "cmd=top&format=json");
	snprintf(q[i++], sizeof q[0], "cmd=top&format=json&range=%.6f,%.6f",
	    mid - dur * 0.005, mid + dur * 0.005);
	snprintf(q[i++], sizeof q[0], "cmd=top&format=json&range=%.6f,%.6f",
	    mid - dur * 0.05, mid + dur * 0.05);
	snprintf(q[i++], sizeof q[0], "cmd=top&format=json&range=%.6f,%.6f",
	    mid - dur * 0.25, mid + dur * 0.25);
	snprintf(q[i++], sizeof q[0], "cmd=top&format=json&range=%.6f,%.6f",
	    mid - dur * 0.45, mid + dur * 0.45);
	snprintf(q[i++], sizeof q[0], "cmd=top&format=json&thread=worker-3");
	snprintf(q[i++], sizeof q[0], "cmd=timeline");
	snprintf(q[i++], sizeof q[0], "cmd=timeline&format=json");
	snprintf(q[i++], sizeof q[0], "cmd=timeline&range=%.6f,%.6f",
	    mid - 0.5, mid + 0.5);
	snprintf(q[i++], sizeof q[0], "cmd=heatmap");
	snprintf(q[i++], sizeof q[0], "cmd=flame&style=chart&range=%.6f,%.6f",
	    mid - 0.5, mid + 0.5);
	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	ctx.render.static_base = "/deepq/";
	ctx.render.file = "timebench";
	ctx.report.name = "timebench";
	ctx.report.index = ix;
	/* Queries given after the options replace these. */
	if (optind < argc) {
		for (i = 0; optind < argc && i < 16; optind++)
			snprintf(q[i++], sizeof q[0], "%s", argv[optind]);
	}
	printf("%-58s %9s %9s %9s\n", "query", "bytes", "cold ms", "p50 ms");
	for (int k = 0; k < i; k++) {
		len = 0;
		for (r = 0; r < runs; r++) {
			t0 = cpu();
			if ((a = answer_query(p, q[k], &ctx)) == NULL)
				errx(1, "out of memory");
			times[r] = cpu() - t0;
			if (a->status != 200)
				errx(1, "%s: %d %.*s", q[k], a->status,
				    (int)a->len, a->body);
			len = a->len;
			answer_free(a);
		}
		qsort(times + 1, runs - 1, sizeof times[0], cmp_double);
		printf("%-58s %9zu %9.2f %9.2f\n", q[k], len, times[0] * 1e3,
		    times[1 + (runs - 1) / 2] * 1e3);
	}
	profile_index_free(ix);
	profile_free(p);
	free(times);
	return (0);
}

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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat.h"
#include "profile.h"
#include "reader.h"
#include "strpool.h"

/*
 * readbench FILE [RUNS]: load FILE RUNS times (default 5) in this process
 * and print the best load time and throughput, so that process start-up
 * and the query answer are not measured. Both wall-clock and CPU time
 * (this process's), since on a shared machine the wall clock also
 * measures the other processes. The medians follow, at the end of the
 * line (scripts read the best figures by their words "loads" and "CPU").
 *
 * readbench -c FILE...: load each FILE once and print a checksum of
 * everything the profile holds (functions, names, files and lines,
 * every node array, metric, unit and rate, the sample sequence), so
 * that two builds of a reader can be shown to build the same profile,
 * node ids included; or the reason a file is refused.
 */

/* FNV-1a over n bytes, continuing from h. */
static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char	*b = p;
	size_t			 i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return (h);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* The median of n times (sorted in place). */
static double
median(double *t, int n)
{
	qsort(t, n, sizeof *t, cmp_double);
	return (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2);
}

static int
checksum(const char *path)
{
	struct profile		*p;
	struct profile_metric	*m;
	char			*cause = NULL;
	const char		*s;
	uint64_t		 h = 0xcbf29ce484222325ULL;
	uint32_t		 i, k;

	if ((p = reader_load(path, NULL, NULL, &cause)) == NULL) {
		printf("%s: refused: %s\n", path, cause);
		free(cause);
		return (1);
	}
	h = fnv(h, &p->nfuncs, sizeof p->nfuncs);
	h = fnv(h, &p->nnodes, sizeof p->nnodes);
	h = fnv(h, &p->nmetrics, sizeof p->nmetrics);
	h = fnv(h, p->format, strlen(p->format) + 1);
	for (i = 0; i < p->nfuncs; i++) {
		s = strpool_get(p->strings, p->func_name[i]);
		h = fnv(h, s, strlen(s) + 1);
		s = strpool_get(p->strings, p->func_module[i]);
		h = fnv(h, s, strlen(s) + 1);
		s = strpool_get(p->strings, p->func_file[i]);
		h = fnv(h, s, strlen(s) + 1);
		h = fnv(h, &p->func_line[i], sizeof p->func_line[i]);
	}
	h = fnv(h, &p->nsamples, sizeof p->nsamples);
	if (p->nsamples > 0) {
		h = fnv(h, p->sample_node, p->nsamples * sizeof *p->sample_node);
		/* 8 bytes a weight, whatever the profile keeps. */
		for (i = 0; i < p->nsamples; i++) {
			int64_t	 w = profile_sample_weight(p, i);

			h = fnv(h, &w, sizeof w);
		}
	}
	h = fnv(h, p->node_parent, p->nnodes * sizeof *p->node_parent);
	h = fnv(h, p->node_func, p->nnodes * sizeof *p->node_func);
	h = fnv(h, p->node_depth, p->nnodes * sizeof *p->node_depth);
	h = fnv(h, p->node_first_child, p->nnodes * sizeof(uint32_t));
	h = fnv(h, p->node_next_sibling, p->nnodes * sizeof(uint32_t));
	for (k = 0; k < p->nmetrics; k++) {
		m = &p->metrics[k];
		h = fnv(h, m->name, strlen(m->name) + 1);
		h = fnv(h, m->unit, strlen(m->unit) + 1);
		h = fnv(h, &m->rate, sizeof m->rate);
		h = fnv(h, m->self, p->nnodes * sizeof *m->self);
		h = fnv(h, m->total, p->nnodes * sizeof *m->total);
		h = fnv(h, m->func_self, p->nfuncs * sizeof *m->func_self);
		h = fnv(h, m->func_total, p->nfuncs * sizeof *m->func_total);
	}
	printf("%s: %u functions, %u nodes, %u metrics, checksum %016llx\n",
	    path, p->nfuncs, p->nnodes, p->nmetrics, (unsigned long long)h);
	profile_free(p);
	return (0);
}

static double
now(clockid_t clock)
{
	struct timespec	 ts;

	clock_gettime(clock, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

int
main(int argc, char **argv)
{
	struct profile	*p;
	struct stat	 st;
	char		*cause = NULL;
	double		 t0, c0, t, c, best = 0, bestcpu = 0;
	double		*walls, *cpus;
	int		 runs = 5, i;
	uint32_t	 nodes = 0;
	const char	*format = "?";

	/*
	 * The server's fixed mmap threshold (server/deepq-server.c): with
	 * glibc's own, which grows to the size of each mapped block freed,
	 * every load after the first put its tables of up to 32 MB in heap
	 * memory already faulted in 4 KB pages (no huge pages for the child
	 * set, a copy on each realloc), a state the server never sees.
	 */
	compat_mmap_threshold(256 * 1024);

	if (argc >= 3 && strcmp(argv[1], "-c") == 0) {
		for (i = 2; i < argc; i++)
			(void)checksum(argv[i]);
		return (0);
	}
	if (argc < 2 || argc > 3 || (argc == 3 && (runs = atoi(argv[2])) < 1)) {
		fprintf(stderr, "usage: readbench file [runs]\n");
		return (1);
	}
	if (stat(argv[1], &st) == -1) {
		perror(argv[1]);
		return (1);
	}
	if ((walls = calloc(runs, sizeof *walls)) == NULL ||
	    (cpus = calloc(runs, sizeof *cpus)) == NULL) {
		perror("readbench");
		return (1);
	}
	for (i = 0; i < runs; i++) {
		t0 = now(CLOCK_MONOTONIC);
		c0 = now(CLOCK_PROCESS_CPUTIME_ID);
		if ((p = reader_load(argv[1], NULL, NULL, &cause)) == NULL) {
			fprintf(stderr, "readbench: %s\n", cause);
			free(cause);
			return (1);
		}
		t = now(CLOCK_MONOTONIC) - t0;
		c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
		walls[i] = t;
		cpus[i] = c;
		if (i == 0 || t < best)
			best = t;
		if (i == 0 || c < bestcpu)
			bestcpu = c;
		nodes = p->nnodes;
		format = p->format;
		profile_free(p);
	}
	printf("%s: %s, %.1f MB, %u nodes: best of %d loads %.3f s, "
	    "%.1f MB/s (CPU %.3f s, %.1f MB/s); median %.3f s, "
	    "median processor time %.3f s (%.1f MB/s)\n", argv[1], format,
	    st.st_size / 1e6, nodes, runs, best, st.st_size / 1e6 / best,
	    bestcpu, st.st_size / 1e6 / bestcpu, median(walls, runs),
	    median(cpus, runs), st.st_size / 1e6 / median(cpus, runs));
	free(walls);
	free(cpus);
	return (0);
}

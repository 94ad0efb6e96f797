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
 * folded-dump [-F] [-m metric] [-n nodes] [-o variant] [-r reader] FILE:
 * a test tool that loads a profile through the model (with a node limit,
 * a reader and its variant) and prints what the tests compare with other
 * tools' output.
 *
 * By default, one line per call node with a nonzero self value of the
 * metric (default: metric 0): the path from the root, frames joined by
 * ';', a space and the value. Lines with equal paths (functions of equal
 * name in different modules) are summed, and the output is sorted
 * bytewise, as stackcollapse scripts print it.
 *
 * With -F, one line per function: name, module, file and line, then the
 * self values of every metric, then the totals, all separated by tabs.
 * The first line names the metrics.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "reader.h"

struct line {
	char	*s;
	int64_t	 v;
};

static int
line_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct line *)a)->s,
	    ((const struct line *)b)->s));
}

static void
usage(void)
{
	fprintf(stderr, "usage: folded-dump [-F] [-m metric] [-n nodes] "
	    "[-o variant] [-r reader] file\n");
	exit(2);
}

static void
functions(const struct profile *p)
{
	uint32_t	 f, k;

	printf("name\tmodule\tfile\tline");
	for (k = 0; k < p->nmetrics; k++)
		printf("\tself:%s", p->metrics[k].name);
	for (k = 0; k < p->nmetrics; k++)
		printf("\ttotal:%s", p->metrics[k].name);
	printf("\n");
	for (f = 0; f < p->nfuncs; f++) {
		printf("%s\t%s\t%s\t%u", profile_func_name(p, f),
		    profile_func_module(p, f),
		    profile_string(p, p->func_file[f]), p->func_line[f]);
		for (k = 0; k < p->nmetrics; k++)
			printf("\t%" PRId64, p->metrics[k].func_self[f]);
		for (k = 0; k < p->nmetrics; k++)
			printf("\t%" PRId64, p->metrics[k].func_total[f]);
		printf("\n");
	}
}

static void
stacks(const struct profile *p, int m)
{
	struct line	*lines = NULL;
	size_t		 nlines = 0, cap = 0, i, j, len;
	size_t		*ends, pathlen = 0, pathcap = 4096;
	char		*path;
	const char	*name;
	uint32_t	 n;
	int64_t		 v;

	if ((ends = calloc(p->nnodes + 1, sizeof *ends)) == NULL ||
	    (path = malloc(pathcap)) == NULL)
		abort();

	/* Depth first, keeping the path of the current node in path. */
	n = p->node_first_child[PROFILE_ROOT];
	while (n != PROFILE_NONE) {
		name = profile_func_name(p, p->node_func[n]);
		len = strlen(name);
		pathlen = p->node_depth[n] > 1 ?
		    ends[p->node_depth[n] - 1] : 0;
		while (pathlen + len + 2 > pathcap) {
			pathcap *= 2;
			if ((path = realloc(path, pathcap)) == NULL)
				abort();
		}
		if (p->node_depth[n] > 1)
			path[pathlen++] = ';';
		memcpy(path + pathlen, name, len);
		pathlen += len;
		path[pathlen] = '\0';
		ends[p->node_depth[n]] = pathlen;

		if ((v = p->metrics[m].self[n]) != 0) {
			if (nlines == cap) {
				cap = cap ? cap * 2 : 1024;
				if ((lines = realloc(lines, cap *
				    sizeof *lines)) == NULL)
					abort();
			}
			if ((lines[nlines].s = strdup(path)) == NULL)
				abort();
			lines[nlines++].v = v;
		}

		if (p->node_first_child[n] != PROFILE_NONE) {
			n = p->node_first_child[n];
			continue;
		}
		while (n != PROFILE_NONE && p->node_next_sibling[n] ==
		    PROFILE_NONE)
			n = p->node_parent[n] == PROFILE_ROOT ? PROFILE_NONE :
			    p->node_parent[n];
		if (n != PROFILE_NONE)
			n = p->node_next_sibling[n];
	}

	qsort(lines, nlines, sizeof *lines, line_cmp);
	for (i = 0; i < nlines; i = j) {
		v = lines[i].v;
		for (j = i + 1; j < nlines && strcmp(lines[j].s, lines[i].s)
		    == 0; j++)
			v += lines[j].v;
		printf("%s %" PRId64 "\n", lines[i].s, v);
	}
	for (i = 0; i < nlines; i++)
		free(lines[i].s);
	free(lines);
	free(ends);
	free(path);
}

int
main(int argc, char **argv)
{
	struct reader_options	 opts = { 0 };
	struct profile		*p;
	const char		*reader = NULL, *metric = NULL;
	char			*cause = NULL;
	int			 ch, m = 0, funcs = 0;

	while ((ch = getopt(argc, argv, "Fm:n:o:r:")) != -1) {
		switch (ch) {
		case 'F':
			funcs = 1;
			break;
		case 'm':
			metric = optarg;
			break;
		case 'n':
			opts.max_nodes = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'o':
			opts.variant = optarg;
			break;
		case 'r':
			reader = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	if ((p = reader_load(argv[optind], reader, &opts, &cause)) == NULL) {
		fprintf(stderr, "folded-dump: %s\n", cause);
		free(cause);
		return (1);
	}
	if (metric != NULL && (m = profile_metric_find(p, metric)) == -1) {
		fprintf(stderr, "folded-dump: no metric %s\n", metric);
		profile_free(p);
		return (1);
	}
	if (funcs)
		functions(p);
	else
		stacks(p, m);
	profile_free(p);
	return (0);
}

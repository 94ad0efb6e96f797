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
 * Warm latency through the server's pipes alone: the rendezvous of
 * common/client.c (want file, reply FIFO, mutex, framed request and
 * answer) in a loop, with no process started per query, so neither a web
 * server nor the dynamic loading of a client is counted.
 *
 *	pipebench [-c clients] [-n queries] file query
 *
 * The configuration is DEEPQ_CONFIG's (as deepq(1)); the first query may
 * start and wait for the server and is not counted. -c forks that many
 * clients, each running -n queries. Prints p50, p99 and queries per
 * second over all clients.
 */

#include "config.h"

#include <sys/wait.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "client.h"
#include "conf.h"

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* One client: n timed queries, their latencies written to fd. */
static void
run(const struct config *cfg, const char *file, const char *query, int n,
    int fd)
{
	struct answer	*a;
	char		*cause = NULL;
	double		 t0, *ms;
	int		 i;

	if ((ms = calloc(n, sizeof *ms)) == NULL)
		err(1, NULL);
	for (i = 0; i < n; i++) {
		t0 = now_ms();
		if ((a = client_query(cfg, file, query, &cause)) == NULL)
			errx(1, "%s", cause ? cause : "out of memory");
		if (a->status != 200)
			errx(1, "status %d: %s", a->status,
			    a->message ? a->message : "");
		ms[i] = now_ms() - t0;
		answer_free(a);
	}
	if (write(fd, ms, n * sizeof *ms) != (ssize_t)(n * sizeof *ms))
		err(1, "write");
	free(ms);
}

int
main(int argc, char **argv)
{
	struct config	*cfg;
	struct answer	*a;
	char		*cause = NULL;
	double		*all, t0, secs;
	int		 ch, clients = 1, n = 1000, i, fds[2], got, status;
	size_t		 total, off;
	ssize_t		 r;

	while ((ch = getopt(argc, argv, "c:n:")) != -1) {
		switch (ch) {
		case 'c':
			clients = atoi(optarg);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || clients < 1 || clients > 1024 || n < 1 ||
	    n > 10000000)
		goto usage;
	if ((cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause);
	/* Warm up: start the server if need be (not timed). */
	for (i = 0; i < 600; i++) {
		if ((a = client_query(cfg, argv[0], argv[1], &cause)) == NULL)
			errx(1, "%s", cause ? cause : "out of memory");
		status = a->status;
		answer_free(a);
		if (status == 200)
			break;
		if (status != 503)
			errx(1, "warm-up query: status %d", status);
		sleep(1);
	}
	if (pipe(fds) == -1)
		err(1, "pipe");
	t0 = now_ms();
	for (i = 0; i < clients; i++) {
		switch (fork()) {
		case -1:
			err(1, "fork");
		case 0:
			close(fds[0]);
			run(cfg, argv[0], argv[1], n, fds[1]);
			_exit(0);
		}
	}
	close(fds[1]);
	total = (size_t)clients * n;
	if ((all = calloc(total, sizeof *all)) == NULL)
		err(1, NULL);
	for (off = 0; off < total * sizeof *all; off += r) {
		if ((r = read(fds[0], (char *)all + off,
		    total * sizeof *all - off)) <= 0)
			break;
	}
	for (got = 0; wait(&status) > 0; )
		got += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	secs = (now_ms() - t0) / 1e3;
	if (got != clients || off != total * sizeof *all)
		errx(1, "%d of %d clients failed", clients - got, clients);
	qsort(all, total, sizeof *all, cmp_double);
	printf("c=%-3d p50 %.3f ms  p99 %.3f ms  %.0f queries/s (n=%zu)\n",
	    clients, all[(total - 1) / 2],
	    all[(size_t)((double)(total - 1) * 0.99)], (double)total / secs, total);
	free(all);
	conf_free(cfg);
	return (0);
usage:
	fprintf(stderr, "usage: pipebench [-c clients] [-n queries] file "
	    "query\n");
	return (1);
}

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
 * swapdir A B SECONDS: exchange A and B (a directory and a symbolic
 * link to a directory elsewhere) with renameat2(RENAME_EXCHANGE) as
 * fast as it can for SECONDS, or until SIGTERM, leaving them as they
 * were; prints how many swaps. The attack on a profile path that is
 * checked as a string and then opened again.
 */

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile sig_atomic_t	stop;

static void
onterm(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	struct timespec	 t0, t;
	unsigned long	 n = 0;
	double		 secs;

	if (argc != 4) {
		fprintf(stderr, "usage: swapdir a b seconds\n");
		return (2);
	}
	secs = atof(argv[3]);
	signal(SIGTERM, onterm);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2],
		    RENAME_EXCHANGE) == -1) {
			perror("renameat2");
			return (1);
		}
		n++;
		if ((n & 1) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (stop || (t.tv_sec - t0.tv_sec) +
			    (t.tv_nsec - t0.tv_nsec) / 1e9 > secs)
				break;
		}
	}
	printf("%lu\n", n);
	return (0);
}

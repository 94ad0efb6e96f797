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

#include <stdio.h>
#include <stdlib.h>

#include "lines.h"
#include "profile.h"
#include "reader.h"

/*
 * linesmem FILE...: what the costs by source line (lines.h) add to a
 * profile's model, per file: its call nodes and functions, the rows and
 * calls of its lines, the model's bytes (profile_memory, the lines
 * included) and the lines' share of them. A profile without lines shows
 * 0: it pays its struct's one pointer. bench/lines-memory.sh runs it.
 */

int
main(int argc, char **argv)
{
	struct profile	*p;
	char		*cause = NULL;
	size_t		 all, lines;
	int		 i;

	printf("%-28s %-10s %9s %7s %8s %7s %9s %9s %6s %6s\n", "file",
	    "format", "nodes", "funcs", "rows", "calls", "model_MB",
	    "lines_MB", "lines%", "B/row");
	for (i = 1; i < argc; i++) {
		if ((p = reader_load(argv[i], NULL, NULL, &cause)) == NULL) {
			fprintf(stderr, "%s: %s\n", argv[i], cause);
			free(cause);
			return (1);
		}
		all = profile_memory(p);
		lines = lines_memory(p->lines);
		printf("%-28.28s %-10s %9u %7u %8u %7u %9.2f %9.3f %5.1f%% "
		    "%6.0f\n", argv[i], p->format, p->nnodes, p->nfuncs,
		    p->lines ? p->lines->nrows : 0,
		    p->lines ? p->lines->ncalls : 0, all / 1048576.0,
		    lines / 1048576.0, all ? 100.0 * lines / all : 0.0,
		    p->lines && p->lines->nrows ? (double)lines /
		    p->lines->nrows : 0.0);
		profile_free(p);
	}
	return (0);
}

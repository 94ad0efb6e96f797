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
#include <string.h>

#include "deepq.h"

/* deepq: the command line's entry point and subcommand table. */

static const struct {
	const char	*name;
	int		 (*fn)(int, char **);
	const char	*usage;
} deepq_cmds[] = {
	{ "convert", cmd_convert, "convert "
	    "[--to folded|callgrind|pprof|speedscope] "
	    "[--metric name] [--maxdepth n] [--no-modules] [--order name|time] "
	    "[--query query] [--reader name] [--variant words] in out" },
	{ "query", cmd_query, "query [--local] [--reader name] [--static-base url] "
	    "file [query]" },
	{ "status", cmd_status, "status [--json]" },
	{ "stop", cmd_stop, "stop file | --all" },
	{ "web", cmd_web, DEEPQ_WEB_USAGE },
};

/* Print the usage (deepq(1) SYNOPSIS) and exit 1. */
void
deepq_usage(void)
{
	size_t	 i;

	for (i = 0; i < sizeof deepq_cmds / sizeof deepq_cmds[0]; i++)
		fprintf(stderr, "%s deepq %s\n", i ? "      " : "usage:",
		    deepq_cmds[i].usage);
	exit(1);
}

int
main(int argc, char **argv)
{
	size_t	 i;

	if (argc < 2)
		deepq_usage();
	for (i = 0; i < sizeof deepq_cmds / sizeof deepq_cmds[0]; i++) {
		if (strcmp(argv[1], deepq_cmds[i].name) == 0)
			return (deepq_cmds[i].fn(argc - 1, argv + 1));
	}
	deepq_usage();
}

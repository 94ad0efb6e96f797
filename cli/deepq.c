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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "conf.h"
#include "deepq.h"
#include "input.h"
#include "json-doc.h"

/* deepq: the command line's entry point and subcommand table. */

/* The report words' flags (cli/cmd-report.c). */
#define REPORT_OPTS	"[--limit n] [--metric name] [--focus regex] " \
			"[--query keys] [--json] [--local]"

static const struct {
	const char	*name;
	int		 (*fn)(int, char **);
	const char	*usage;
} deepq_cmds[] = {
	/* "@": the export formats of the catalog. */
	{ "convert", cmd_convert, "convert [--to @] "
	    "[--metric name] [--maxdepth n] [--no-modules] [--order name|time] "
	    "[--query query] [--reader name] [--variant words] [--max-decompressed MB] in out" },
	{ "ingest", cmd_ingest, "ingest --clickhouse url --table table "
	    "[--label key=value]... [--time iso8601] [--user name] "
	    "[--password-file file] [--migrate] [--quiet] file ... | "
	    "ingest --schema [--cluster name] --table table" },
	{ "top", cmd_report, "top " REPORT_OPTS " file" },
	{ "tree", cmd_report, "tree " REPORT_OPTS " file" },
	{ "func", cmd_report, "func " REPORT_OPTS " file function" },
	{ "flame", cmd_report, "flame [--metric name] [--focus regex] "
	    "[--query keys] [--json] [--local] file" },
	{ "diff", cmd_report, "diff " REPORT_OPTS " base file" },
	{ "query", cmd_query, "query [--local] [--reader name] [--static-base url] "
	    "[--source dir]... [--max-decompressed MB] "
	    "[--fail-on-growth percent] file [query]" },
	{ "status", cmd_status, "status [--json]" },
	{ "stop", cmd_stop, "stop file | --all" },
	{ "web", cmd_web, DEEPQ_WEB_USAGE },
};

/* Print the usage (deepq(1) SYNOPSIS) and exit 1. */
void
deepq_usage(void)
{
	char		*formats = catalog_format_list(CATALOG_EXPORT, "|");
	const char	*u, *at;
	size_t		 i;

	for (i = 0; i < sizeof deepq_cmds / sizeof deepq_cmds[0]; i++) {
		fprintf(stderr, "%s deepq ", i ? "      " : "usage:");
		for (u = deepq_cmds[i].usage; (at = strchr(u, '@')) != NULL;
		    u = at + 1) {
			fwrite(u, 1, at - u, stderr);
			fputs(formats ? formats : "format", stderr);
		}
		fprintf(stderr, "%s\n", u);
	}
	free(formats);
	exit(1);
}

/*
 * The decompressed-size limit of a profile loaded in this process:
 * --max-decompressed's MB if given, else deepq.conf's max_decompressed
 * (and its max_json, the bound of a JSON profile held whole).
 */
void
deepq_input_limit(const char *mb)
{
	struct config		*cfg;
	char			*cause = NULL, *end;
	unsigned long long	 v;

	if (mb != NULL) {
		v = strtoull(mb, &end, 10);
		if (*mb < '0' || *mb > '9' || *end != '\0' || v == 0 ||
		    v > (1ULL << 30))
			errx(1, "--max-decompressed: must be 1 to %llu (MB)",
			    1ULL << 30);
		input_set_default_limit((uint64_t)v << 20);
		return;
	}
	if ((cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	input_set_default_limit(cfg->max_decompressed << 20);
	json_doc_set_max(cfg->max_json << 20);
	conf_free(cfg);
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

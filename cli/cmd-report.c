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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "deepq.h"
#include "outbuf.h"
#include "query.h"

/*
 * deepq top|tree|func|flame|diff: one word per report, as pprof -top,
 * perf report --stdio and callgrind_annotate have them, for a terminal:
 * text by default (a flame graph: SVG, to redirect to a file), JSON with
 * --json (exactly what format=json answers), the usual keys as flags.
 * Each is a query string made here and answered as deepq query answers
 * it (deepq_run), through the file's server or with --local in process;
 * --query adds any other key of the query language.
 */

struct report_word {
	const char	*word;
	const char	*cmd;
	const char	*limit;		/* the key --limit sets, NULL none */
	const char	*keys;		/* keys the word always adds */
	int		 nargs;		/* file; file name (func); base file */
};

static const struct report_word report_words[] = {
	{ "top", "top", "limit", "", 1 },
	{ "tree", "tree", "budget", "", 1 },
	{ "func", "func", "limit", "", 2 },
	{ "flame", "flame", NULL, "", 1 },
	{ "diff", "top", "limit", "sort=delta", 2 },
};

/* Append &key=value to the buffer, the value encoded. */
static void
report_key(struct outbuf *ob, const char *key, const char *value)
{
	char	*e;

	if ((e = query_urlencode(value)) == NULL)
		err(1, NULL);
	outbuf_printf(ob, "&%s=%s", key, e);
	free(e);
}

/*
 * The format a terminal gets when the query names none: text where the
 * report answers text, else its own first format (a flame graph's SVG).
 */
static const char *
report_format(const char *cmd)
{
	int	c;

	if ((c = catalog_report_find(cmd)) == -1 ||
	    catalog_report_answers(c, FMT_TEXT))
		return ("text");
	return (catalog_formats[catalog_report_format(c)].name);
}

/* deepq WORD [options] FILE [NAME | FILE]: see the top of this file. */
int
cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "focus", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "limit", required_argument, NULL, 'n' },
		{ "local", no_argument, NULL, 'l' },
		{ "metric", required_argument, NULL, 'm' },
		{ "query", required_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	const struct report_word	*w = NULL;
	struct deepq_run		 run;
	struct outbuf			 ob;
	const char			*limit = NULL, *metric = NULL;
	const char			*focus = NULL, *extra = NULL;
	char				*qs;
	size_t				 i, len;
	int				 ch, json = 0, rc;

	for (i = 0; i < sizeof report_words / sizeof report_words[0]; i++) {
		if (strcmp(argv[0], report_words[i].word) == 0)
			w = &report_words[i];
	}
	if (w == NULL)
		deepq_usage();
	memset(&run, 0, sizeof run);
	run.gate = -1;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "f:jln:m:q:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'f':
			focus = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'l':
			run.local = 1;
			break;
		case 'm':
			metric = optarg;
			break;
		case 'n':
			if (w->limit == NULL)
				errx(1, "deepq %s has no --limit", w->word);
			limit = optarg;
			break;
		case 'q':
			extra = optarg;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != w->nargs)
		deepq_usage();

	outbuf_init(&ob);
	outbuf_printf(&ob, "cmd=%s", w->cmd);
	if (*w->keys != '\0')
		outbuf_printf(&ob, "&%s", w->keys);
	if (strcmp(w->word, "func") == 0)
		report_key(&ob, "func", argv[1]);
	if (limit != NULL)
		report_key(&ob, w->limit, limit);
	if (metric != NULL)
		report_key(&ob, "metric", metric);
	if (focus != NULL)
		report_key(&ob, "focus", focus);
	if (extra != NULL && *extra != '\0')
		outbuf_printf(&ob, "&%s", extra);
	if (extra == NULL || (strncmp(extra, "format=", 7) != 0 &&
	    strstr(extra, "&format=") == NULL))
		outbuf_printf(&ob, "&format=%s", json ? "json" :
		    report_format(w->cmd));
	if ((qs = outbuf_take(&ob, &len)) == NULL)
		err(1, NULL);

	run.qs = qs;
	if (strcmp(w->word, "diff") == 0) {
		run.base = argv[0];
		run.file = argv[1];
	} else
		run.file = argv[0];
	rc = deepq_run(&run);
	free(qs);
	return (rc);
}

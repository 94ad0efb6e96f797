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

#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "query.h"
#include "render.h"
#include "report.h"
#include "reports.h"
#include "tap.h"
#include "writer.h"

/*
 * The catalog (common/catalog.c) against the code bound to it: every
 * report and format the parser, the pages and the front ends know has its
 * code in the engine, and the engine has code for nothing else. A report
 * or a format added in one place only fails here.
 */

/* Is name one of the catalog's formats? */
static int
known_format(const char *name, size_t n)
{
	int	 i;

	for (i = 0; i < FMT_N; i++) {
		if (catalog_formats[i].name != NULL &&
		    strlen(catalog_formats[i].name) == n &&
		    strncmp(catalog_formats[i].name, name, n) == 0)
			return (1);
	}
	return (0);
}

/* Each row is whole, its names unique, its formats known. */
static void
test_rows(void)
{
	const struct catalog_report	*r;
	const char			*p;
	size_t				 n;
	int				 i, j, bad, nnav = 0;
	int				 seen[CMD_N + 1];

	for (i = 0; i < FMT_N; i++) {
		ok(catalog_formats[i].name != NULL &&
		    catalog_formats[i].content_type != NULL &&
		    catalog_formats[i].kind >= CATALOG_PAGE &&
		    catalog_formats[i].kind <= CATALOG_EXPORT,
		    "format %d has a row", i);
	}
	memset(seen, 0, sizeof seen);
	for (i = 0; i < CMD_N; i++) {
		r = &catalog_reports[i];
		if (r->name == NULL || r->title == NULL || r->formats == NULL) {
			ok(0, "report %d has a row", i);
			continue;
		}
		for (j = bad = 0; j < i; j++)
			bad += strcmp(catalog_reports[j].name, r->name) == 0;
		ok(bad == 0, "%s: one row", r->name);
		for (p = r->formats, bad = 0; *p != '\0'; p += n + (p[n] ==
		    '|')) {
			n = strcspn(p, "|");
			bad += !known_format(p, n);
		}
		ok(bad == 0 && *r->formats != '\0', "%s: formats %s are the "
		    "catalog's", r->name, r->formats);
		ok((r->nav == 0) == (r->nav_text == NULL) && r->nav >= 0 &&
		    r->nav <= CMD_N && (r->nav == 0 || seen[r->nav]++ == 0),
		    "%s: a place of its own in the header, or none", r->name);
		nnav += r->nav > 0;
		ok((r->prefs >> QUERY_NKEYS) == 0, "%s: preferences are keys",
		    r->name);
	}
	for (i = 1; i <= nnav; i++)
		ok(seen[i] == 1, "header place %d is taken", i);
}

/* The engine has code for each report but the front ends', and no other. */
static void
test_reports(void)
{
	const struct report_entry	*e;
	const struct renderer		*rd;
	const char			*p;
	size_t				 n;
	int				 i, f, bad;

	for (i = 0; i < CMD_N; i++) {
		if (catalog_reports[i].name == NULL)
			continue;
		e = reports_find(i);
		if (catalog_reports[i].flags & CATALOG_FRONT) {
			ok(e == NULL, "%s: the front ends' alone",
			    catalog_reports[i].name);
			continue;
		}
		ok(e != NULL && e->create != NULL && e->json != NULL &&
		    e->display != NULL && e->free != NULL,
		    "%s: has its code in engine/reports.c",
		    catalog_reports[i].name);
		if (e == NULL)
			continue;
		/* What it answers, it can render or write. */
		for (p = catalog_reports[i].formats, bad = 0; *p != '\0';
		    p += n + (p[n] == '|')) {
			n = strcspn(p, "|");
			for (f = 0; f < FMT_N; f++) {
				if (strlen(catalog_formats[f].name) == n &&
				    strncmp(catalog_formats[f].name, p, n) == 0)
					break;
			}
			if (f == FMT_N)
				bad++;
			else if (catalog_formats[f].kind == CATALOG_EXPORT)
				bad += e->export == NULL;
			else
				bad += (rd = render_find(f)) == NULL ||
				    rd->render == NULL;
		}
		ok(bad == 0, "%s: renders or writes each of %s",
		    catalog_reports[i].name, catalog_reports[i].formats);
	}
	ok(reports_find(CMD_N) == NULL, "no report past the catalog");
}

/* Each format has a renderer, or (an export's) a writer: never both. */
static void
test_formats(void)
{
	const struct renderer	*rd;
	int			 i, render, write;

	for (i = 0; i < FMT_N; i++) {
		if (catalog_formats[i].name == NULL)
			continue;
		render = (rd = render_find(i)) != NULL && rd->render != NULL;
		write = writer_find(i) != NULL;
		if (catalog_formats[i].kind == CATALOG_EXPORT)
			ok(write && !render, "%s: an export format with a "
			    "writer (engine/writer.c)",
			    catalog_formats[i].name);
		else
			ok(render && !write, "%s: rendered (engine/render.c)",
			    catalog_formats[i].name);
	}
	ok(render_find(FMT_N) == NULL && writer_find(FMT_N) == NULL,
	    "no format past the catalog");
}

/* The query parser takes exactly the catalog's names. */
static void
test_parser(void)
{
	struct query	*q;
	char		 qs[128], *cause = NULL;
	int		 i, status, bad = 0;

	for (i = 0; i < CMD_N; i++) {
		snprintf(qs, sizeof qs, "cmd=%s", catalog_reports[i].name);
		if ((q = query_parse(qs, &status, &cause)) == NULL)
			bad++;
		query_free(q);
		free(cause);
		cause = NULL;
	}
	for (i = 0; i < FMT_N; i++) {
		snprintf(qs, sizeof qs, "format=%s", catalog_formats[i].name);
		if ((q = query_parse(qs, &status, &cause)) == NULL)
			bad++;
		query_free(q);
		free(cause);
		cause = NULL;
	}
	ok(bad == 0, "the parser takes every report and format");
	q = query_parse("cmd=nosuch", &status, &cause);
	ok(q == NULL && cause != NULL && strstr(cause, "menu|top|tree") !=
	    NULL, "and refuses another, listing the catalog's");
	query_free(q);
	free(cause);
}

int
main(void)
{
	test_rows();
	test_reports();
	test_formats();
	test_parser();
	return (tap_done());
}

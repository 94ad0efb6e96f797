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
#include "outbuf.h"
#include "query.h"

/* The catalog of reports and output formats (see catalog.h). */

const struct catalog_report catalog_reports[CMD_N] = {
	[CMD_MENU] = { "menu", "Summary", "html|json|text", 0, 0, NULL, 0 },
	[CMD_TOP] = { "top", "Top functions", "html|json|text", 0, 1, "Top",
	    0 },
	[CMD_TREE] = { "tree", "Call tree", "html|json|text", CATALOG_TREE, 2,
	    "Tree", QUERY_BIT(QUERY_DEPTH) | QUERY_BIT(QUERY_BUDGET) },
	[CMD_FUNC] = { "func", "Function", "html|json|text", 0, 0, NULL, 0 },
	[CMD_CALLERS] = { "callers", "Callers", "html|json|text", 0, 0, NULL,
	    0 },
	[CMD_MODULES] = { "modules", "Modules", "html|json|text", 0, 4,
	    "Modules", 0 },
	[CMD_MODULE] = { "module", "Module", "html|json|text", 0, 0, NULL, 0 },
	[CMD_CLIQUES] = { "cliques", "Cliques", "html|json|text", 0, 5,
	    "Cliques", 0 },
	[CMD_CLIQUE] = { "clique", "Clique", "html|json|text", 0, 0, NULL, 0 },
	[CMD_FLAME] = { "flame", "Flame graph", "svg|json|html",
	    CATALOG_TREE | CATALOG_VIEW, 3, "Flame", 0 },
	[CMD_FOLDED] = { "folded", "Folded stacks", "folded|json",
	    CATALOG_TREE | CATALOG_VIEW, 0, NULL, 0 },
	[CMD_CALLGRIND] = { "callgrind", "Callgrind", "callgrind|json",
	    CATALOG_TREE | CATALOG_VIEW, 0, NULL, 0 },
	[CMD_PPROF] = { "pprof", "pprof profile", "pprof|json", 0, 0, NULL,
	    0 },
	[CMD_SPEEDSCOPE] = { "speedscope", "speedscope file",
	    "speedscope|json", 0, 0, NULL, 0 },
	[CMD_DUMP] = { "dump", "Raw structures", "html|json|text",
	    CATALOG_TREE, 0, NULL, 0 },
	[CMD_STATUS] = { "status", "Server status", "html|json|text",
	    CATALOG_LIVE, 0, NULL, 0 },
	[CMD_SHUTDOWN] = { "shutdown", "Shut down", "html|json|text",
	    CATALOG_LIVE, 0, NULL, 0 },
	[CMD_SEARCH] = { "search", "Search", "html|json|text", 0, 0, NULL, 0 },
	[CMD_INDEX] = { "index", "Profiles", "html|json|text", CATALOG_FRONT,
	    0, NULL, 0 },
	/* Linked from the summary's Time section, for a profile with times. */
	[CMD_TIMELINE] = { "timeline", "Timeline", "html|json", 0, 0, NULL,
	    0 },
	[CMD_HEATMAP] = { "heatmap", "Heat map", "html|json", 0, 0, NULL, 0 },
	/* The source files may change under the same query. */
	[CMD_SOURCE] = { "source", "Source lines", "html|json|text",
	    CATALOG_LIVE, 0, NULL, 0 },
	[CMD_SERIES] = { "series", "Share over time", "html|json|text", 0, 0,
	    NULL, 0 },
};

/*
 * An export's errors are a line of text, as its other readers (a script,
 * curl) print them; the content type stays the format's.
 */
const struct catalog_format catalog_formats[FMT_N] = {
	[FMT_HTML] = { "html", "text/html; charset=utf-8", CATALOG_PAGE,
	    CATALOG_ERROR_PAGE },
	[FMT_JSON] = { "json", "application/json", CATALOG_DATA,
	    CATALOG_ERROR_JSON },
	[FMT_TEXT] = { "text", "text/plain; charset=utf-8", CATALOG_PAGE,
	    CATALOG_ERROR_TEXT },
	[FMT_SVG] = { "svg", "image/svg+xml", CATALOG_PAGE,
	    CATALOG_ERROR_SVG },
	[FMT_FOLDED] = { "folded", "text/plain; charset=utf-8",
	    CATALOG_EXPORT, CATALOG_ERROR_TEXT },
	[FMT_CALLGRIND] = { "callgrind", "text/plain; charset=utf-8",
	    CATALOG_EXPORT, CATALOG_ERROR_TEXT },
	[FMT_PPROF] = { "pprof", "application/octet-stream", CATALOG_EXPORT,
	    CATALOG_ERROR_TEXT },
	[FMT_SPEEDSCOPE] = { "speedscope", "application/json",
	    CATALOG_EXPORT, CATALOG_ERROR_TEXT },
};

/* The report named name (its enum), or -1. */
int
catalog_report_find(const char *name)
{
	int	 i;

	for (i = 0; i < CMD_N; i++) {
		if (strcmp(catalog_reports[i].name, name) == 0)
			return (i);
	}
	return (-1);
}

/* The format named name (its enum), or -1. */
int
catalog_format_find(const char *name)
{
	int	 i;

	for (i = 0; i < FMT_N; i++) {
		if (strcmp(catalog_formats[i].name, name) == 0)
			return (i);
	}
	return (-1);
}

/* Does report cmd answer in format fmt (is it in its formats)? */
int
catalog_report_answers(enum catalog_cmd cmd, enum catalog_fmt fmt)
{
	const char	*list = catalog_reports[cmd].formats, *p = list;
	const char	*name = catalog_formats[fmt].name;
	size_t		 n = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == '|') &&
		    (p[n] == '\0' || p[n] == '|'))
			return (1);
		p += n;
	}
	return (0);
}

/* The first of report cmd's formats: the one its links use. */
enum catalog_fmt
catalog_report_format(enum catalog_cmd cmd)
{
	const char	*list = catalog_reports[cmd].formats;
	size_t		 n = strcspn(list, "|");
	int		 i;

	for (i = 0; i < FMT_N; i++) {
		if (strncmp(catalog_formats[i].name, list, n) == 0 &&
		    catalog_formats[i].name[n] == '\0')
			return (i);
	}
	return (FMT_HTML);	/* not reached: test-catalog checks */
}

/*
 * The names of the formats of a kind (0: every format), in table order,
 * separated by sep. Caller frees; NULL if out of memory.
 */
char *
catalog_format_list(int kind, const char *sep)
{
	struct outbuf	 ob;
	size_t		 len;
	int		 i, n = 0;

	outbuf_init(&ob);
	for (i = 0; i < FMT_N; i++) {
		if (kind != 0 && catalog_formats[i].kind != kind)
			continue;
		if (n++ > 0)
			outbuf_puts(&ob, sep);
		outbuf_puts(&ob, catalog_formats[i].name);
	}
	return (outbuf_take(&ob, &len));
}

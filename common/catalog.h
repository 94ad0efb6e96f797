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

#ifndef CATALOG_H
#define CATALOG_H

/*
 * The catalog: every report (cmd=) and every output format (format=, and
 * deepq convert --to) by name, with what every process must know of them
 * without the engine: the query parser (which names exist), the page
 * frame (the header's links), the front ends (content types, error
 * bodies), the answer cache (what may be kept), the summary's views. The
 * engine binds its code to these entries by their enum (engine/reports.c,
 * engine/render.c, engine/writer.c); tests/unit/test-catalog.c checks that
 * each side has exactly the other's entries.
 *
 * The enums' order is the tables' order, and the order the parser's
 * messages list the names in: append, or keep the messages in mind.
 */

#include <stdint.h>

enum catalog_cmd {
	CMD_MENU,
	CMD_TOP,
	CMD_TREE,
	CMD_FUNC,
	CMD_CALLERS,
	CMD_MODULES,
	CMD_MODULE,
	CMD_CLIQUES,
	CMD_CLIQUE,
	CMD_FLAME,
	CMD_FOLDED,
	CMD_CALLGRIND,
	CMD_PPROF,
	CMD_SPEEDSCOPE,
	CMD_DUMP,
	CMD_STATUS,
	CMD_SHUTDOWN,
	CMD_SEARCH,
	CMD_INDEX,
	CMD_TIMELINE,
	CMD_HEATMAP,
	CMD_SOURCE,
	CMD_SERIES,
	CMD_N
};

enum catalog_fmt {
	FMT_HTML,
	FMT_JSON,
	FMT_TEXT,
	FMT_SVG,
	FMT_FOLDED,
	FMT_CALLGRIND,
	FMT_PPROF,
	FMT_SPEEDSCOPE,
	FMT_N
};

/* catalog_report.flags */
#define CATALOG_TREE	0x01	/* walks the calling-context tree: an
				   estimate on a call graph's profile */
#define CATALOG_LIVE	0x02	/* depends on more than the profile and
				   the query: never cached */
#define CATALOG_FRONT	0x04	/* answered by the front end itself: no
				   engine report, no server */
#define CATALOG_VIEW	0x08	/* linked from the summary's "views" */

struct catalog_report {
	const char	*name;		/* the cmd= value */
	const char	*title;		/* its page's heading */
	/*
	 * The format= values it answers, '|'-separated: the first is the
	 * one its links use; the order is the one error messages list.
	 */
	const char	*formats;
	int		 flags;
	int		 nav;		/* its place among every page's
					   header links (1 first), 0 none */
	const char	*nav_text;	/* that link's text */
	/*
	 * Its own preferences, a mask of query keys (QUERY_BIT): links
	 * from its pages to another report drop them.
	 */
	uint64_t	 prefs;
};

/* catalog_format.kind: what an answer in the format is made from. */
#define CATALOG_PAGE	1	/* a report's page (struct display) */
#define CATALOG_DATA	2	/* a report's JSON */
#define CATALOG_EXPORT	3	/* written by a writer (engine/writer.c):
				   an export's own format, and deepq
				   convert --to */

/*
 * catalog_format.error: what an error answer in the format is
 * (answer_error(), common/answer.c).
 */
#define CATALOG_ERROR_PAGE	1	/* an HTML page in the site's frame */
#define CATALOG_ERROR_JSON	2	/* {"deepq":1,"error":{status,message}} */
#define CATALOG_ERROR_TEXT	3	/* one line: "error 404: message" */
#define CATALOG_ERROR_SVG	4	/* a small image that says it */

struct catalog_format {
	const char	*name;		/* the format= value */
	const char	*content_type;
	int		 kind;
	int		 error;		/* CATALOG_ERROR_* */
};

extern const struct catalog_report	catalog_reports[CMD_N];
extern const struct catalog_format	catalog_formats[FMT_N];

int		 catalog_report_find(const char *);
int		 catalog_format_find(const char *);
int		 catalog_report_answers(enum catalog_cmd, enum catalog_fmt);
enum catalog_fmt catalog_report_format(enum catalog_cmd);
char		*catalog_format_list(int, const char *);

#endif /* CATALOG_H */

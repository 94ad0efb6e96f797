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

#ifndef REPORT_H
#define REPORT_H

/*
 * Reports: create_report -> display. A report is a jansson object, the
 * same data the JSON answer is (contract in deepq-query(7)): every answer
 * has "deepq": 1 and "cmd". Each cmd is one file, report-<cmd>.c, that
 * exports a const struct report_entry; report.c keeps the table.
 *
 * A report's create function builds the JSON; its display function turns
 * that JSON into a struct display for the HTML and text renderers, so the
 * pages and the JSON can never disagree.
 *
 * A report whose page is costly to build through JSON (a tree of
 * thousands of nodes) may also have create_display: the same display
 * made from the profile directly, for pages that need no JSON (HTML,
 * text) and compare nothing. It must give exactly what display(create())
 * gives, errors included; tests/unit/test-tree-display.c checks that.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "answer.h"

struct cost;
struct display;
struct outbuf;
struct profile;
struct query;
struct query_tmpl;

#define REPORT_VERSION	ANSWER_JSON_VERSION

#define REPORT_SORT_SELF	0
#define REPORT_SORT_TOTAL	1
#define REPORT_SORT_NAME	2

/* What a report may need beyond the profile and the query. */
struct report_context {
	const char		*name;		/* profile's display name */
	const struct profile	*base;		/* base= profile, or NULL */
	const char		*base_name;
	json_t			*(*status)(void *);	/* cmd=status */
	void			*status_arg;
	uint64_t		 max_cost;	/* node visits per query, 0 = none */
	uint64_t		 max_msec;	/* wall clock per query, 0 = none */
	struct cost		*cost;		/* the query's budget, or NULL */
};

/* An error: an HTTP-like status and a message. */
struct report_error {
	int		 status;
	char		*message;
};

struct report_entry {
	const char	*name;		/* the cmd= value */
	const char	*title;
	const char	*formats;	/* '|'-separated formats it answers */
	json_t		*(*create)(const struct profile *,
			    const struct query *,
			    const struct report_context *,
			    struct report_error *);
	struct display	*(*display)(const json_t *, const struct query *);
	struct display	*(*create_display)(const struct profile *,
			    const struct query *,
			    const struct report_context *,
			    struct report_error *);	/* or NULL */
	int		 live;		/* answers depend on more than the
					   profile and the query: never
					   cached (answer-cache.c) */
	/*
	 * An export's own format (a renderer without a render function,
	 * render-raw.c): the report writes the answer's body itself, its
	 * writer streaming into ob. -1 with *e set, or *e left empty when
	 * ob failed (out of memory, the query's deadline).
	 */
	int		 (*export)(struct outbuf *ob,
			    const struct profile *, const struct query *,
			    const struct report_context *,
			    struct report_error *);	/* or NULL */
};

const struct report_entry *report_find(const char *);
json_t		*report_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
struct display	*report_display(const json_t *, const struct query *);
int		 report_has_display(const struct query *);
struct display	*report_create_display(const struct profile *,
		    const struct query *, const struct report_context *,
		    struct report_error *);
int		 report_error_set(struct report_error *, int, const char *,
		    ...) __attribute__((__format__(__printf__, 3, 4)));
int		 report_error_cost(struct report_error *,
		    const struct cost *);
json_t		*report_new(const char *);
int		 report_metric(const struct profile *, const struct query *,
		    struct report_error *);
json_t		*report_values(const struct profile *, const int64_t *const *,
		    uint32_t);
json_t		*report_row_values(const struct profile *, const int64_t *);
int		 report_metrics(json_t *, const struct profile *, int);
json_t		*report_node_values(const struct profile *, int, uint32_t);
json_t		*report_func_values(const struct profile *, int, uint32_t);
char		*report_link(const struct query *, ...);
char		*report_goto(const struct query *, const char *, ...);
char		*report_func_link(const struct query *, int64_t);
int		 report_goto_tmpl(struct query_tmpl *, const struct query *,
		     const char *, int, int);
json_t		*report_func(const struct profile *, uint32_t);
uint32_t	 report_func_find(const struct profile *, const struct query *,
		     struct report_error *);
char		*report_path(const struct profile *, uint32_t);
int		 report_sort(const struct profile *, const struct query *,
		     int, int *, struct report_error *);
void		 report_order(uint32_t *, uint32_t, const int64_t *, size_t,
		     const char *const *);
const char	*report_string(const json_t *, const char *);
char		*report_label(const json_t *);
int64_t		 report_integer(const json_t *, const char *);

#endif /* REPORT_H */

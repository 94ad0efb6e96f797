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
 * Reports. Each cmd is one file, report-<cmd>.c, that exports a const
 * struct report_entry; reports.c keeps the table. A report computes a
 * typed result, its own struct (the tree's walk, a table's rows), from
 * the profile and the query; renderers take it from there:
 *
 *	json(result)	the JSON answer (contract in deepq-query(7): every
 *			answer has "deepq": 1 and "cmd"), built with
 *			jansson; format=json, svg and the exports;
 *	display(result)	a struct display for the HTML and text pages;
 *	free(result).
 *
 * A flame graph is drawn from its result (flame.h), by format=svg and
 * inline in its HTML page (render-svg.c): its display carries the
 * frames (display_flame). The time views (timeline, heat map, the flame
 * chart on a time axis) are drawn from their JSON by render-timeline.c:
 * their entries set page_json, and their pages get the JSON too.
 *
 * Both are made from the one result, so the JSON and the pages cannot
 * disagree. What every answer carries beside its report (the base
 * compared, the comparison's totals, the transforms, "estimated") is
 * one struct report_notes, filled by answer-query.c, which the JSON
 * (reports_notes_json) and the pages (diff_text, diff_controls,
 * reports_notes_display) both read.
 *
 * report.c holds the helpers reports build with; reports.c the table.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "answer.h"
#include "catalog.h"
#include "diff.h"
#include "query.h"

struct cost;
struct display;
struct outbuf;
struct profile;
struct profile_index;
struct profile_lines;
struct query;
struct transform_stack;

#define REPORT_VERSION	ANSWER_JSON_VERSION

#define REPORT_SORT_SELF	0
#define REPORT_SORT_TOTAL	1
#define REPORT_SORT_NAME	2

/*
 * What only a serving process knows (cmd=status, cmd=shutdown), filled
 * by its report_context.status callback (server/server-status.c).
 */
struct report_status {
	int64_t		 pid;
	const char	*format;	/* the profile's, static */
	int64_t		 load_ms;
	int		 cached;	/* loaded from a cache file */
	int64_t		 started;	/* time(), seconds */
	int64_t		 uptime;	/* seconds */
	int64_t		 idle_ms;
	int64_t		 queries;
	int64_t		 rss;		/* bytes, -1 if unknown */
	int		 idle_timeout;	/* seconds */
	int64_t		 clients;
	int64_t		 workers;	/* expensive queries running */
	int64_t		 waiting;	/* requests waiting for a worker's */
	int64_t		 loaders;	/* base= loaders running */
	struct {
		int64_t	 hits, misses, evictions, entries, bytes, limit;
	}		 answer_cache;
};

/* What a report may need beyond the profile and the query. */
struct report_context {
	const char		*name;		/* profile's display name */
	const struct profile	*base;		/* base= profile, or NULL */
	const char		*base_name;
	/* cmd=status and shutdown: the server's figures; -1 if unknown. */
	int			 (*status)(void *, struct report_status *);
	void			*status_arg;
	uint64_t		 max_cost;	/* node visits per query, 0 = none */
	uint64_t		 max_msec;	/* wall clock per query, 0 = none */
	struct cost		*cost;		/* the query's budget, or NULL */
	struct profile_index	*index;		/* the profile's derived data */
	/*
	 * The profile loaded, before base= and the transforms: cmd=source
	 * shows its line costs (a derived profile keeps the function ids,
	 * not the lines). answer_query_parsed sets it.
	 */
	const struct profile	*origin;
	/* Source roots, ':'-separated: the serving process's
	   configuration (source_root), never the query. NULL: none. */
	const char		*source_roots;
	/* 1 once nobody waits for the answer (cost_watch), or NULL. */
	int			 (*gone)(void *);
	void			*gone_arg;
	size_t			 max_body;	/* an answer's bytes, 0 = none */
};

/* An error: an HTTP-like status and a message. */
struct report_error {
	int		 status;
	char		*message;
};

/*
 * What an answer says beside its report, in one place for the JSON and
 * the display: the base= compared (its name), the comparison (the diff
 * of metric m with "base", whose totals the pages and "comparison"
 * show), the transforms of t= and whether the answer rests on a call
 * graph's estimated tree.
 */
struct report_notes {
	const struct profile		*profile;	/* what the report saw */
	const char			*base_name;	/* or NULL */
	int				 compared;	/* diff is set */
	struct diff			 diff;
	const struct transform_stack	*transforms;	/* t=, or NULL */
	int				 estimated;
	const double			*range;		/* range= (A, B),
							   or NULL */
	const char			*threads;	/* thread=, or NULL */
};

/*
 * A report's code. What every process knows of it (its name, title,
 * formats, flags) is its row of the catalog (common/catalog.c);
 * reports.c binds the two by the catalog's enum.
 */
struct report_entry {
	/* The typed result, NULL with the error set. */
	void		*(*create)(const struct profile *,
			    const struct query *,
			    const struct report_context *,
			    struct report_error *);
	/* Its JSON v1 object without the notes; NULL if out of memory. */
	json_t		*(*json)(const void *, const struct query *);
	/* Its page; NULL if out of memory. */
	struct display	*(*display)(const void *,
			    const struct report_notes *, const struct query *);
	void		 (*free)(void *);
	int		 page_json;	/* its page draws from its JSON too
					   (the time views, render-timeline.c) */
	/*
	 * An export's own format (CATALOG_EXPORT in the catalog, which
	 * has no renderer): the report writes the answer's body itself, its
	 * writer streaming into ob. -1 with *e set, or *e left empty when
	 * ob failed (out of memory, the query's deadline).
	 */
	int		 (*export)(struct outbuf *ob,
			    const struct profile *, const struct query *,
			    const struct report_context *,
			    struct report_error *);	/* or NULL */
};

int		 report_error_set(struct report_error *, int, const char *,
		    ...) __attribute__((__format__(__printf__, 3, 4)));
int		 report_error_cost(struct report_error *,
		    const struct cost *);
int		 report_error_too_large(struct report_error *, size_t);
json_t		*report_new(enum catalog_cmd);
json_t		*report_new_table(enum catalog_cmd, const struct profile *,
		     int, const char *, json_t **);
int		 report_metric(const struct profile *, const struct query *,
		    struct report_error *);
json_t		*report_values(const struct profile *, const int64_t *const *,
		    uint32_t);
json_t		*report_row_values(const struct profile *, const int64_t *);
int		 report_metrics(json_t *, const struct profile *, int);
int		 report_rates_check(const struct profile *,
		    struct report_error *);
uint32_t	 report_metric_last(const struct profile *, uint32_t);
json_t		*report_node_values(const struct profile *, int, uint32_t);
json_t		*report_func_values(const struct profile *, int, uint32_t);
void		 report_view(struct query *, const struct query *,
		     enum catalog_cmd);
char		*report_func_link(const struct query *, int64_t);
char		*report_cmd_link(const struct query *, enum catalog_cmd);
char		*report_clique_link(const struct query *, uint32_t);
char		*report_module_link(const struct query *, const char *);
char		*report_node_link(const struct query *,
		    const struct profile *, uint32_t);
char		*report_sort_link(const struct query *, enum query_sort);
const struct profile_lines *report_lines(const struct profile *,
		    const struct report_context *);
const struct profile *report_origin(const struct profile *,
		    const struct report_context *);
int		 report_has_lines(const struct profile_lines *, uint32_t);
void		 report_source_view(struct query *, const struct query *);
char		*report_source_link(const struct query *,
		    const struct profile *, uint32_t);
void		 report_source_anchor(const struct profile_lines *, uint32_t,
		    uint32_t, char *, size_t);
json_t		*report_func(const struct profile *, uint32_t);
uint32_t	 report_func_find(const struct profile *, const struct query *,
		     struct report_error *);
char		*report_path(const struct profile *, uint32_t);
int		 report_path_ids(const struct profile *, uint32_t,
		    uint32_t **, size_t *);
int		 report_sort(const struct profile *, const struct query *,
		     int, int *, struct report_error *);
void		 report_order(uint32_t *, uint32_t, const int64_t *, size_t,
		     const char *const *);
char		*report_func_label(const struct profile *, uint32_t);
char		*report_label(const json_t *);

#endif /* REPORT_H */

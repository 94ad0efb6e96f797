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

#ifndef ROWS_H
#define ROWS_H

/*
 * Rows of callers, callees or groups (struct aggregate_rows), sorted and
 * paged once (struct rows_page), then made into report JSON and into
 * display tables: shared by func, callers and clique, so a caller looks
 * the same on every page. A row's subject depends on what
 * the rows are keyed by (deepq-query(7)):
 *
 *	func	"func", "name", "module" (+ "file", "line"), "clique",
 *		"recursive" (in a recursive clique with the subject)
 *	module	"module"
 *	clique	"clique", "name" (its smallest member), "members",
 *		"recursive"
 *	site	"func", "name", "module" of the caller (callee), "path" of
 *		its call node; with static call sites also "site", "label",
 *		"line"
 *
 * With base= (rows_spec.diff) every row also has "diff", as diff_add_values
 * makes it, and its table the comparison columns.
 *
 * and every row has "contexts" (call nodes summed), "self" and "total"
 * ({metric: value}, total counted once).
 */

#include <stdint.h>

#include <jansson.h>

#include "aggregate.h"
#include "diff.h"

struct callgraph;
struct columns;
struct diff;
struct display;
struct display_block;
struct profile;
struct query;
struct report_context;
struct report_error;

struct rows_spec {
	enum aggregate_by	 by;
	int			 callee;	/* rows of callees, not callers */
	const struct callgraph	*graph;
	uint32_t		 clique;	/* the subject's clique */
	int			 sort;		/* REPORT_SORT_* */
	int			 metric;
	int64_t			 from, limit;
	const struct diff	*diff;		/* base=: rows get "diff" */
	int			 diffsort;	/* DIFF_SORT_*, or -1 */
};

/*
 * One page of rows: the rows r sorted, rows idx[0..n) of r shown, of
 * matched in all.
 */
struct rows_page {
	const struct aggregate_rows	*r;
	struct rows_spec		 spec;
	uint32_t			*idx;
	uint32_t			 n;
	int64_t				 matched;
};

/*
 * The butterfly of the functions in[] (aggregate.h) and its pages of
 * rows, as cmd=func, callers and clique make them: callers keyed by
 * spec.by, callees by function (paged only with spec.callee set).
 */
struct rows_butterfly {
	struct aggregate_butterfly	 b;
	struct rows_page		 callers, callees;
};

/*
 * One function's butterfly as cmd=func and cmd=callers rank it (func=,
 * metric=, sort=, base=): the function f, the call graph, the metric m,
 * the comparison and the pages.
 */
struct rows_of_func {
	const struct profile	*p;
	const struct callgraph	*g;
	uint32_t		 f;
	int			 m;
	int			 cmp;
	struct diff		 dd;
	struct rows_butterfly	 b;
};

int		 rows_of_func(struct rows_of_func *, const struct profile *,
		     const struct query *, const struct report_context *,
		     struct report_error *, enum aggregate_by, int64_t, int);
void		 rows_of_func_clear(struct rows_of_func *);
int		 rows_of_func_json(json_t *, const struct rows_of_func *);
int		 rows_butterfly(struct rows_butterfly *, const struct profile *,
		     const struct report_context *, const uint8_t *, int,
		     const struct rows_spec *);
void		 rows_butterfly_clear(struct rows_butterfly *);
int		 rows_butterfly_json(json_t *, const struct profile *,
		     const struct rows_butterfly *);
void		 rows_butterfly_display(struct display *, const char *,
		     const char *, const struct profile *,
		     const struct rows_butterfly *, int, const struct query *);
int		 rows_group_json(json_t *, const struct profile *,
		     const struct aggregate_rows *, uint32_t,
		     const struct diff *);
json_t		*rows_func_json(const struct profile *, uint32_t,
		     const struct diff *);
void		 rows_func_display(struct display *, struct display_block *,
		     size_t, const struct columns *, const struct profile *,
		     uint32_t, const struct diff *);
void		 rows_values_display(struct display *, struct display_block *,
		     size_t, uint32_t, const struct columns *,
		     const struct diff *, const int64_t *, const int64_t *);
void		 rows_set_display(struct display *, const char *,
		     const char *, const char *, const struct profile *, int,
		     const struct query *, const struct aggregate_rows *,
		     const struct diff *);
int		 rows_page(struct rows_page *, const struct profile *,
		     const struct aggregate_rows *, const struct rows_spec *);
void		 rows_page_clear(struct rows_page *);
json_t		*rows_subject_json(const struct profile *,
		     const struct callgraph *, uint32_t,
		     const struct aggregate_rows *, const struct diff *);
json_t		*rows_page_json(const struct profile *,
		     const struct rows_page *);
void		 rows_page_display(struct display *, const char *,
		     const struct profile *, const struct rows_page *, int,
		     const struct query *);
const char	*rows_by_name(enum aggregate_by);

#endif /* ROWS_H */

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

#include <jansson.h>

#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=top: functions ranked by a metric's self or total value (total
 * counts a sample once even when the function recurs), cut by limit= or
 * by min= percent of the metric's total.
 */

struct top_sort {
	const struct profile	*p;
	const int64_t		*key;	/* NULL: by name */
};

static json_t	*top_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *top_display(const json_t *, const struct query *);
static int	top_cmp(const void *, const void *, void *);

const struct report_entry report_top_entry = {
	.name = "top",
	.title = "Top functions",
	.formats = "html|json|text",
	.create = top_create,
	.display = top_display,
};

static int
top_cmp(const void *a, const void *b, void *arg)
{
	const struct top_sort	*s = arg;
	uint32_t		 x = *(const uint32_t *)a;
	uint32_t		 y = *(const uint32_t *)b;
	int			 c;

	if (s->key != NULL) {
		if (s->key[x] != s->key[y])
			return (s->key[x] > s->key[y] ? -1 : 1);
	} else if ((c = strcmp(profile_func_name(s->p, x),
	    profile_func_name(s->p, y))) != 0)
		return (c);
	return (x < y ? -1 : x > y);
}

static json_t *
top_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct top_sort	 s;
	json_t		*j = NULL, *rows, *row;
	uint32_t	*order = NULL, f, n = 0, i;
	int		 m;
	const char	*sort = query_str(q, QUERY_SORT);
	int64_t		 limit = query_int(q, QUERY_LIMIT), sum;
	double		 min = query_number(q, QUERY_MIN);

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if (strcmp(sort, "self") != 0 && strcmp(sort, "total") != 0 &&
	    strcmp(sort, "name") != 0) {
		report_error_set(e, 400, "top: sort must be self, total or "
		    "name");
		return (NULL);
	}
	s.p = p;
	s.key = strcmp(sort, "self") == 0 ? p->metrics[m].func_self :
	    strcmp(sort, "total") == 0 ? p->metrics[m].func_total : NULL;
	if ((order = malloc(p->nfuncs * sizeof *order)) == NULL)
		goto nomem;
	sum = p->metrics[m].sum;
	for (f = 1; f < p->nfuncs; f++) {
		/* min= keeps rows at or above that share of the total. */
		if (min > 0 && (sum == 0 || 100.0 *
		    (double)(s.key ? s.key[f] : p->metrics[m].func_total[f]) /
		    (double)sum < min))
			continue;
		order[n++] = f;
	}
	qsort_r(order, n, sizeof *order, top_cmp, &s);

	if ((j = report_new("top")) == NULL || (rows = json_array()) == NULL)
		goto nomem;
	json_object_set_new(j, "rows", rows);
	json_object_set_new(j, "metric", json_string(p->metrics[m].name));
	json_object_set_new(j, "unit", json_string(p->metrics[m].unit));
	json_object_set_new(j, "sort", json_string(sort));
	json_object_set_new(j, "total", json_integer(sum));
	json_object_set_new(j, "matched", json_integer(n));
	for (i = 0; i < n && i < limit; i++) {
		f = order[i];
		row = json_pack("{s:i, s:s, s:s, s:o*, s:o*}",
		    "func", (json_int_t)f,
		    "name", profile_func_name(p, f),
		    "module", profile_func_module(p, f),
		    "self", report_func_values(p, 0, f),
		    "total", report_func_values(p, 1, f));
		if (row == NULL || json_array_append_new(rows, row) == -1)
			goto nomem;
	}
	free(order);
	return (j);
nomem:
	free(order);
	json_decref(j);
	report_error_set(e, 500, "out of memory");
	return (NULL);
}

static struct display *
top_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t;
	json_t			*rows, *row;
	const char		*metric = report_string(j, "metric");
	const char		*sort = report_string(j, "sort");
	int64_t			 sum = report_integer(j, "total"), v;
	int			 pct = query_int(q, QUERY_PCT);
	size_t			 i, r;
	uint32_t		 c, ncols = pct ? 5 : 3;
	char			*s, *link, *title;

	if (asprintf(&title, "Top functions by %s %s", sort, metric) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	rows = json_object_get(j, "rows");
	display_text(d, "%zu of %lld functions; total %s: %lld.",
	    json_array_size(rows), (long long)report_integer(j, "matched"),
	    metric, (long long)sum);
	t = display_table(d, ncols, "top");
	link = report_link(q, QUERY_SORT, "name", -1);
	display_head(d, t, 0, "Function", link, 0);
	free(link);
	link = report_link(q, QUERY_SORT, "self", -1);
	display_head(d, t, 1, "Self", link, DISPLAY_NUM);
	free(link);
	link = report_link(q, QUERY_SORT, NULL, -1);
	display_head(d, t, pct ? 3 : 2, "Total", link, DISPLAY_NUM);
	free(link);
	if (pct) {
		display_head(d, t, 2, "Self %", NULL, DISPLAY_NUM);
		display_head(d, t, 4, "Total %", NULL, DISPLAY_NUM);
	}
	json_array_foreach(rows, i, row) {
		r = display_row(d, t);
		s = NULL;
		link = NULL;
		if (asprintf(&s, "%lld", (long long)report_integer(row,
		    "func")) != -1)
			link = report_link(q, QUERY_CMD, "func", QUERY_FUNC, s,
			    QUERY_SORT, NULL, QUERY_LIMIT, NULL, -1);
		free(s);
		display_cell(d, t, r, 0, report_string(row, "name"), link, 0);
		free(link);
		for (c = 0; c < 2; c++) {
			v = json_integer_value(json_object_get(json_object_get(
			    row, c ? "total" : "self"), metric));
			s = display_number(v);
			display_cell(d, t, r, pct ? 1 + 2 * c : 1 + c, s, NULL,
			    DISPLAY_NUM | (v == 0 ? DISPLAY_DIM : 0));
			free(s);
			if (pct) {
				s = display_percent(v, sum);
				display_cell(d, t, r, 2 + 2 * c, s, NULL,
				    DISPLAY_NUM | (v == 0 ? DISPLAY_DIM : 0));
				free(s);
			}
		}
	}
	return (d);
}

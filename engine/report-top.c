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

#include "columns.h"
#include "diff.h"
#include "display.h"
#include "funcgraph.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"

/*
 * cmd=top: functions ranked by a metric's self or total value (total
 * counts a sample once even when the function recurs), by calls, or by
 * name; cut by min= percent of the metric's total and paged by from= and
 * limit=.
 */

static json_t	*top_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *top_display(const json_t *, const struct query *);

const struct report_entry report_top_entry = {
	.name = "top",
	.title = "Top functions",
	.formats = "html|json|text",
	.create = top_create,
	.display = top_display,
};

static json_t *
top_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	json_t		*j = NULL, *rows, *row;
	const uint32_t	*order;
	uint32_t	*byd = NULL, f, nall, k;
	const int64_t	*cut;
	int64_t		*dkey = NULL, n = 0;
	struct diff	 dd;
	int		 m, sort, sm, cmp;
	int64_t		 limit = query_int(q, QUERY_LIMIT), sum;
	int64_t		 from = query_int(q, QUERY_FROM);
	double		 min = query_number(q, QUERY_MIN);

	nall = p->nfuncs > 0 ? p->nfuncs - 1 : 0;
	cmp = diff_init(&dd, p, q);
	/* sort=delta and ratio: by the change of the total. */
	if (cmp && (strcmp(query_str(q, QUERY_SORT), "delta") == 0 ||
	    strcmp(query_str(q, QUERY_SORT), "ratio") == 0)) {
		if ((dkey = malloc(p->nfuncs * sizeof *dkey)) == NULL ||
		    (byd = malloc((nall ? nall : 1) * sizeof *byd)) == NULL)
			goto nomem;
		diff_key(&dd, p, strcmp(query_str(q, QUERY_SORT), "ratio") ==
		    0, 1, dkey);
		for (f = 1; f < p->nfuncs; f++)
			byd[f - 1] = f;
		report_order(byd, nall, dkey, 1, NULL);
		order = byd;
		m = sm = dd.m;
		sort = REPORT_SORT_TOTAL;
	} else if ((m = report_metric(p, q, e)) == -1 ||
	    (sort = report_sort(p, q, m, &sm, e)) == -1)
		return (NULL);
	else if ((order = profile_index_func_order(ctx->index,
	    sort == REPORT_SORT_NAME ? -1 : sm, sort == REPORT_SORT_TOTAL)) ==
	    NULL)
		goto nomem;
	/* min= cuts on the sorted value, or on the total for sort=name. */
	cut = sort == REPORT_SORT_SELF && sm == m ? p->metrics[m].func_self :
	    p->metrics[m].func_total;
	sum = p->metrics[m].sum;

	if ((j = report_new("top")) == NULL || report_metrics(j, p, m) == -1 ||
	    (rows = json_array()) == NULL ||
	    json_object_set_new(j, "rows", rows) == -1)
		goto nomem;
	json_object_set_new(j, "sort", json_string(query_str(q, QUERY_SORT)));
	json_object_set_new(j, "matched", json_integer(0));	/* below */
	json_object_set_new(j, "from", json_integer(from));
	/*
	 * The order is sorted once per profile (profile_index_func_order()):
	 * a page is a walk that counts the matches and builds only its rows.
	 */
	for (k = 0; k < nall; k++) {
		f = order[k];
		/* min= keeps rows at or above that share of the total. */
		if (min > 0 && (sum == 0 ||
		    100.0 * (double)cut[f] / (double)sum < min))
			continue;
		if (n++ < from || n > from + limit)
			continue;
		if ((row = report_func(p, f)) == NULL ||
		    json_array_append_new(rows, row) == -1 ||
		    json_object_set_new(row, "self", report_func_values(p, 0,
		    f)) == -1 ||
		    json_object_set_new(row, "total", report_func_values(p, 1,
		    f)) == -1 ||
		    (cmp && diff_add(row, p, &dd, 1, f) == -1))
			goto nomem;
		/* A call graph's calls into the function, and its cycle. */
		if (p->funcgraph != NULL && (json_object_set_new(row, "calls",
		    json_integer((json_int_t)p->funcgraph->fcalls[f])) == -1 ||
		    (p->funcgraph->cycle[f] != FUNCGRAPH_NONE &&
		    json_object_set_new(row, "cycle",
		    json_integer(p->funcgraph->cycle[f])) == -1)))
			goto nomem;
	}
	json_integer_set(json_object_get(j, "matched"), n);
	free(dkey);
	free(byd);
	return (j);
nomem:
	free(dkey);
	free(byd);
	json_decref(j);
	report_error_set(e, 500, "out of memory");
	return (NULL);
}

static struct display *
top_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t;
	struct columns		 c;
	json_t			*rows, *row;
	const char		*metric = report_string(j, "metric");
	const char		*sort = report_string(j, "sort");
	size_t			 i, r;
	char			*link, *title, *label, id[32];
	const char		*idp = id;
	struct query_tmpl	 tfunc;
	int			 cmp = json_object_get(j, "comparison") != NULL;
	uint32_t		 nc;

	if ((strcmp(sort, "delta") == 0 || strcmp(sort, "ratio") == 0 ?
	    asprintf(&title, "Top functions by %s of total %s", sort,
	    metric) : strcmp(sort, "name") == 0 ? asprintf(&title,
	    "Functions by name") : strcmp(sort, "calls") == 0 ? asprintf(&title, "Top "
	    "functions by calls") : asprintf(&title, "Top functions by %s %s",
	    sort, metric)) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	rows = json_object_get(j, "rows");
	columns_metrics_json(d, j, q);
	diff_text(d, j);
	diff_controls(d, j, q, 1);
	if (query_isset(q, QUERY_MIN))
		display_text(d, "%lld functions with at least %s%% of the %s "
		    "total.", (long long)report_integer(j, "matched"),
		    query_str(q, QUERY_MIN), metric);
	else {
		char	 n[DISPLAY_NUMBUF];

		display_number_buf(n, report_integer(j, "matched"));
		display_text(d, "%s function%s.", n, report_integer(j,
		    "matched") == 1 ? "" : "s");
	}
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL | COLUMNS_SORT);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "top");
	link = report_link(q, QUERY_SORT, "name", QUERY_FROM, NULL, -1);
	display_head(d, t, 0, "Function", link, 0);
	free(link);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head_sort(d, t, nc, q);
	/* Each row's link differs from the page's in one key: a template. */
	if (report_goto_tmpl(&tfunc, q, "func", QUERY_FUNC, 1) == -1) {
		query_tmpl_clear(&tfunc);
		display_free(d);
		return (NULL);
	}
	json_array_foreach(rows, i, row) {
		r = display_row(d, t);
		snprintf(id, sizeof id, "%lld",
		    (long long)report_integer(row, "func"));
		link = query_tmpl_fill(&tfunc, &idp);
		label = report_label(row);
		display_cell(d, t, r, 0, label ? label : "", link, 0);
		free(label);
		free(link);
		columns_row(d, t, r, 1, &c, json_object_get(row, "self"),
		    json_object_get(row, "total"));
		diff_row(d, t, r, nc, row);
	}
	query_tmpl_clear(&tfunc);
	columns_pager(d, j, q);
	columns_controls(d, j, q, 1);
	return (d);
}

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
#include "json-build.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"
#include "rows.h"

/*
 * cmd=top: functions ranked by a metric's self or total value (total
 * counts a sample once even when the function recurs), by calls, or by
 * name; cut by min= percent of the metric's total and paged by from= and
 * limit=.
 */

/*
 * The result: the functions of the page, in order (rows[0..nrows)), of
 * matched that pass min=, from row from; metric m, and the comparison.
 */
struct top_result {
	const struct profile	*p;
	const struct profile_lines *lines;	/* rows link their source */
	int			 m;
	int			 cmp;
	struct diff		 dd;
	int64_t			 matched;
	int64_t			 from;
	uint32_t		*rows;
	uint32_t		 nrows;
};

static void	*top_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*top_json(const void *, const struct query *);
static struct display *top_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 top_free(void *);

const struct report_entry report_top_entry = {
	.create = top_create,
	.json = top_json,
	.display = top_display,
	.free = top_free,
};

static void *
top_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct top_result	*t;
	const uint32_t		*order;
	uint32_t		*byd = NULL, f, nall, k;
	const int64_t		*cut;
	int64_t			*dkey = NULL, n = 0;
	int			 m, sort, sm;
	int64_t			 limit = q->limit, sum;
	int64_t			 from = q->from;
	double			 min = q->min;

	if ((t = calloc(1, sizeof *t)) == NULL)
		goto nomem;
	t->p = p;
	t->lines = report_lines(p, ctx);
	t->from = from;
	nall = p->nfuncs > 0 ? p->nfuncs - 1 : 0;
	t->cmp = diff_init(&t->dd, p, q);
	/* sort=delta, dself and ratio: by the change. */
	if (t->cmp && (q->sort == QUERY_SORT_DELTA ||
	    q->sort == QUERY_SORT_DSELF || q->sort == QUERY_SORT_RATIO)) {
		if ((dkey = malloc(p->nfuncs * sizeof *dkey)) == NULL ||
		    (byd = malloc((nall ? nall : 1) * sizeof *byd)) == NULL)
			goto nomem;
		diff_key(&t->dd, p, q->sort == QUERY_SORT_RATIO,
		    q->sort != QUERY_SORT_DSELF, dkey);
		for (f = 1; f < p->nfuncs; f++)
			byd[f - 1] = f;
		report_order(byd, nall, dkey, 1, NULL);
		order = byd;
		m = sm = t->dd.m;
		sort = REPORT_SORT_TOTAL;
	} else if ((m = report_metric(p, q, e)) == -1 ||
	    (sort = report_sort(p, q, m, &sm, e)) == -1) {
		top_free(t);
		return (NULL);
	} else if ((order = profile_index_func_order(ctx->index,
	    sort == REPORT_SORT_NAME ? -1 : sm, sort == REPORT_SORT_TOTAL)) ==
	    NULL)
		goto nomem;
	t->m = m;
	if (report_rates_check(p, e) == -1) {
		free(dkey);
		free(byd);
		top_free(t);
		return (NULL);
	}
	/* min= cuts on the sorted value, or on the total for sort=name. */
	cut = sort == REPORT_SORT_SELF && sm == m ? p->metrics[m].func_self :
	    p->metrics[m].func_total;
	sum = p->metrics[m].sum;
	/* limit >= 1 (query.c); a page holds at most the functions. */
	if ((t->rows = reallocarray(NULL, (uint64_t)limit < nall ?
	    (size_t)limit : nall ? nall : 1, sizeof *t->rows)) == NULL)
		goto nomem;
	/*
	 * The order is sorted once per profile (profile_index_func_order()):
	 * a page is a walk that counts the matches and keeps only its rows.
	 */
	for (k = 0; k < nall; k++) {
		f = order[k];
		/* min= keeps rows at or above that share of the total. */
		if (min > 0 && (sum == 0 ||
		    100.0 * (double)cut[f] / (double)sum < min))
			continue;
		if (n++ < from || n > from + limit)
			continue;
		t->rows[t->nrows++] = f;
	}
	t->matched = n;
	free(dkey);
	free(byd);
	return (t);
nomem:
	free(dkey);
	free(byd);
	top_free(t);
	report_error_set(e, 500, "out of memory");
	return (NULL);
}

static void
top_free(void *v)
{
	struct top_result	*t = v;

	if (t == NULL)
		return;
	free(t->rows);
	free(t);
}

/* cmd=top as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
top_json(const void *v, const struct query *q)
{
	const struct top_result	*t = v;
	const struct profile	*p = t->p;
	json_t			*j = NULL, *rows, *row;
	uint32_t		 i, f;
	struct json_build	 jb = JSON_BUILD_INIT;

	if ((j = report_new_table(CMD_TOP, p, t->m, "rows",
	    &rows)) == NULL)
		goto nomem;
	json_build_set(&jb, j, "sort", json_string(query_enum_name(QUERY_SORT,
	    q->sort)));
	json_build_set(&jb, j, "matched", json_integer(t->matched));
	json_build_set(&jb, j, "from", json_integer(t->from));
	for (i = 0; i < t->nrows; i++) {
		f = t->rows[i];
		row = rows_func_json(p, f, t->cmp ? &t->dd : NULL);
		if (json_array_append_new(rows, row) == -1)
			goto nomem;
		/* A call graph's calls into the function, and its cycle. */
		if (p->funcgraph != NULL && (json_object_set_new(row, "calls",
		    json_integer((json_int_t)p->funcgraph->fcalls[f])) == -1 ||
		    (p->funcgraph->cycle[f] != FUNCGRAPH_NONE &&
		    json_object_set_new(row, "cycle",
		    json_integer(p->funcgraph->cycle[f])) == -1)))
			goto nomem;
	}
	return (json_build_end(&jb, j));
nomem:
	json_decref(j);
	return (NULL);
}

/* cmd=top's page, from the rows and the profile. */
static struct display *
top_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct top_result	*tr = v;
	const struct profile	*p = tr->p;
	struct display		*d;
	struct display_block	*t;
	struct columns		 c;
	const char		*metric = p->metrics[tr->m].name;
	const char		*sort = query_enum_name(QUERY_SORT, q->sort);
	size_t			 r;
	char			*link, *title, *label, *minp, id[32];
	struct query		 vf, vs;
	struct query_tmpl	 tfunc, tsrc;
	struct display_cell	*cell;
	uint32_t		 nc, i, f;

	if ((q->sort == QUERY_SORT_DELTA || q->sort == QUERY_SORT_RATIO ?
	    asprintf(&title, "Top functions by %s of total %s", sort,
	    metric) : q->sort == QUERY_SORT_NAME ? asprintf(&title,
	    "Functions by name") : q->sort == QUERY_SORT_CALLS ?
	    asprintf(&title, "Top functions by calls") : asprintf(&title,
	    "Top functions by %s %s", sort, metric)) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	columns_metrics_profile(d, q, p, tr->m, tr->cmp);
	if (notes->compared) {
		diff_text(d, p, &notes->diff, notes->base_name);
		diff_controls(d, q, 1);
	}
	if (q->min > 0) {
		minp = query_key_text(q, QUERY_MIN);
		display_text(d, "%lld functions with at least %s%% of the %s "
		    "total.", (long long)tr->matched, minp ? minp : "?",
		    metric);
		free(minp);
	} else {
		char	 n[DISPLAY_NUMBUF];

		display_number_buf(n, tr->matched);
		display_text(d, "%s function%s.", n, tr->matched == 1 ? "" :
		    "s");
	}
	columns_init(&c, p, tr->m, q, COLUMNS_SELF | COLUMNS_TOTAL |
	    COLUMNS_SORT);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (tr->cmp ? DIFF_COLUMNS : 0), "top");
	link = report_sort_link(q, QUERY_SORT_NAME);
	display_head(d, t, 0, "Function", link, 0);
	free(link);
	columns_head(d, t, 1, &c, q);
	if (tr->cmp)
		diff_head_sort(d, t, nc, q);
	/* Each row's link differs from the page's in one key: a template. */
	memset(&tsrc, 0, sizeof tsrc);
	report_view(&vf, q, CMD_FUNC);
	vf.func = id;
	report_source_view(&vs, q);
	vs.func = id;
	if (query_tmpl_init(&tfunc, &vf, QUERY_FUNC, 1) == -1 ||
	    (tr->lines != NULL &&
	    query_tmpl_init(&tsrc, &vs, QUERY_FUNC, 1) == -1)) {
		query_tmpl_clear(&tfunc);
		query_tmpl_clear(&tsrc);
		display_free(d);
		return (NULL);
	}
	for (i = 0; i < tr->nrows; i++) {
		f = tr->rows[i];
		r = display_row(d, t);
		snprintf(id, sizeof id, "%u", f);
		link = query_tmpl_fill(&tfunc, &vf);
		label = report_func_label(p, f);
		cell = display_cell(d, t, r, 0, label ? label : "", link, 0);
		free(label);
		free(link);
		/* Its costs by line, where the profile has them. */
		if (report_has_lines(tr->lines, f))
			display_aux_take(d, cell, "source",
			    query_tmpl_fill(&tsrc, &vs));
		rows_func_display(d, t, r, &c, p, f, tr->cmp ? &tr->dd :
		    NULL);
	}
	query_tmpl_clear(&tfunc);
	query_tmpl_clear(&tsrc);
	columns_pager(d, q, tr->from, tr->nrows, tr->matched);
	columns_controls(d, p, tr->m, q, 1);
	return (d);
}

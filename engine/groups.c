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

#include <jansson.h>

#include "aggregate.h"
#include "columns.h"
#include "diff.h"
#include "display.h"
#include "groups.h"
#include "json-build.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"
#include "rows.h"

/* Groups of functions and a group's members, ranked and paged (groups.h). */

/*
 * Sum the functions of each of n groups (group[f] the group of function
 * f, or AGGREGATE_NONE), name them (key[g], as by= says) and rank them
 * by sort= on metric sm, or with dd and ds (DIFF_SORT_*, -1 for none)
 * by the change of their totals, into gr (from and limit are the
 * caller's). The base's sums come with the groups, "base" being one
 * more metric. -1 with the budget's error or out of memory
 * (report_error_cost()); groups_clear() frees gr either way.
 */
int
groups_rank(struct groups *gr, const struct profile *p,
    const struct report_context *ctx, const uint32_t *group, uint32_t n,
    const uint32_t *key, enum aggregate_by by, int sort, int sm,
    const struct diff *dd, int ds)
{
	int64_t		*dkey;
	uint32_t	 g;

	gr->n = n;
	if (aggregate_groups(p, profile_index_aggregate(ctx->index,
	    ctx->cost), group, n, &gr->rows, ctx->cost) == -1 ||
	    (gr->idx = malloc((n ? n : 1) * sizeof *gr->idx)) == NULL ||
	    (gr->names = malloc((n ? n : 1) * sizeof *gr->names)) == NULL)
		return (-1);
	for (g = 0; g < n; g++) {
		gr->idx[g] = g;
		gr->names[g] = by == AGGREGATE_CLIQUE ?
		    profile_func_name(p, key[g]) : profile_string(p, key[g]);
	}
	if (dd == NULL || ds == -1) {
		report_order(gr->idx, n, sort == REPORT_SORT_NAME ? NULL :
		    (sort == REPORT_SORT_SELF ? gr->rows.self :
		    gr->rows.total) + sm, p->nmetrics, gr->names);
		return (0);
	}
	if ((dkey = malloc((n ? n : 1) * sizeof *dkey)) == NULL)
		return (-1);
	diff_keys(dd, ds, gr->rows.total + dd->m, gr->rows.total + dd->bm,
	    p->nmetrics, n, dkey);
	report_order(gr->idx, n, dkey, 1, gr->names);
	free(dkey);
	return (0);
}

void
groups_clear(struct groups *gr)
{
	aggregate_rows_clear(&gr->rows);
	free(gr->idx);
	free(gr->names);
	gr->idx = NULL;
	gr->names = NULL;
}

/*
 * "matched", "from" and the page's rows into the report's JSON j and
 * its array a: each the object cb makes of a group, with its contexts,
 * self, total and with dd its comparison. -1 if out of memory.
 */
int
groups_json(json_t *j, json_t *a, const struct profile *p,
    const struct groups *gr, const struct diff *dd, groups_json_cb *cb,
    const void *arg)
{
	struct json_build	 jb = JSON_BUILD_INIT;
	json_t			*o;
	uint32_t		 x;
	int64_t			 i;

	json_build_set(&jb, j, "matched", json_integer(gr->n));
	json_build_set(&jb, j, "from", json_integer(gr->from));
	if (json_build_status(&jb) == -1)
		return (-1);
	for (i = gr->from; i < gr->n && i < gr->from + gr->limit; i++) {
		x = gr->idx[i];
		o = cb(arg, x);
		if (json_array_append_new(a, o) == -1 ||
		    rows_group_json(o, p, &gr->rows, x, dd) == -1)
			return (-1);
	}
	return (0);
}

/*
 * The table (id) of the page's groups: the report's nh columns (heads,
 * cells from cb), then the contexts and the columns the preferences
 * choose for metric m, with dd compared; under it the pager and the
 * column controls.
 */
void
groups_display(struct display *d, const char *id,
    const struct groups_head *heads, uint32_t nh, const struct profile *p,
    int m, const struct query *q, const struct groups *gr,
    const struct diff *dd, groups_cells_cb *cb, const void *arg)
{
	struct display_block	*t;
	struct columns		 c;
	size_t			 r;
	char			*s;
	uint32_t		 nc, k, x, shown = 0;
	int64_t			 i;

	columns_init(&c, p, m, q, COLUMNS_SELF | COLUMNS_TOTAL |
	    COLUMNS_SORT);
	nc = nh + 1 + columns_count(&c);
	t = display_table(d, nc + (dd != NULL ? DIFF_COLUMNS : 0), id);
	for (k = 0; k < nh; k++) {
		s = heads[k].sort ? report_sort_link(q, QUERY_SORT_NAME) :
		    NULL;
		display_head(d, t, k, heads[k].name, s, heads[k].flags);
		free(s);
	}
	display_head(d, t, nh, "Contexts", NULL, DISPLAY_NUM);
	columns_head(d, t, nh + 1, &c, q);
	if (dd != NULL)
		diff_head(d, t, nc);
	for (i = gr->from; i < gr->n && i < gr->from + gr->limit; i++) {
		x = gr->idx[i];
		shown++;
		r = display_row(d, t);
		cb(d, t, r, arg, x, q);
		display_cell_number(d, t, r, nh, gr->rows.nodes[x]);
		rows_values_display(d, t, r, nh + 1, &c, dd, gr->rows.self +
		    (size_t)x * p->nmetrics, gr->rows.total +
		    (size_t)x * p->nmetrics);
	}
	columns_pager(d, q, gr->from, shown, gr->n);
	columns_controls(d, p, m, q, 1);
}

/*
 * Rank the n member functions idx[] of a group by sort= on metric sm
 * (names break ties), or with dd and ds (DIFF_SORT_*, -1 for none) by
 * the change of their totals. -1 if out of memory.
 */
int
groups_members_order(uint32_t *idx, uint32_t n, const struct profile *p,
    int sort, int sm, const struct diff *dd, int ds)
{
	const char	**names;
	const int64_t	*key;
	int64_t		*dkey = NULL;
	uint32_t	 f;

	if ((names = malloc(p->nfuncs * sizeof *names)) == NULL)
		return (-1);
	for (f = 0; f < p->nfuncs; f++)
		names[f] = profile_func_name(p, f);
	key = sort == REPORT_SORT_NAME ? NULL : sort == REPORT_SORT_SELF ?
	    p->metrics[sm].func_self : p->metrics[sm].func_total;
	if (dd != NULL && ds != -1) {
		if ((dkey = malloc(p->nfuncs * sizeof *dkey)) == NULL) {
			free(names);
			return (-1);
		}
		diff_keys(dd, ds, p->metrics[dd->m].func_total,
		    p->metrics[dd->bm].func_total, 1, p->nfuncs, dkey);
		key = dkey;
	}
	report_order(idx, n, key, 1, names);
	free(dkey);
	free(names);
	return (0);
}

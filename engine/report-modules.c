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

#include "aggregate.h"
#include "columns.h"
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "idmap.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"

/*
 * cmd=modules: one row per module ("name", what module= takes; "" for
 * functions without one), with its functions, self (the sum over its
 * functions) and total (its call nodes, counted once: a node is added
 * only when no ancestor is in the same module, so a module calling
 * itself through others is not counted twice). With base= each row
 * has "diff" (diff.h) and sort=delta or ratio ranks by the change of the
 * total; the base's sums come from the same grouping, "base" being one
 * more metric of the merged profile.
 *
 * cmd=module: one module (module=): "module" has its "name", "functions",
 * "contexts", "self" and "total"; "rows" its functions, ranked like top.
 */

static json_t	*modules_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *modules_display(const json_t *, const struct query *);
static json_t	*module_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *module_display(const json_t *, const struct query *);
static void	module_row_name(struct display *, struct display_block *,
		    size_t, const json_t *, const struct query *);

const struct report_entry report_modules_entry = {
	.name = "modules",
	.title = "Modules",
	.formats = "html|json|text",
	.create = modules_create,
	.display = modules_display,
};

const struct report_entry report_module_entry = {
	.name = "module",
	.title = "Module",
	.formats = "html|json|text",
	.create = module_create,
	.display = module_display,
};

static json_t *
modules_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct aggregate_rows	 rows;
	struct idmap		 map;
	json_t			*j = NULL, *a, *o;
	uint32_t		*group = NULL, *mod = NULL, *nfunc = NULL;
	uint32_t		*idx = NULL, ngroups = 0, f, g, i;
	const char		**names = NULL;
	int			 m, sort, sm;
	int64_t			 from = query_int(q, QUERY_FROM);
	int64_t			 limit = query_int(q, QUERY_LIMIT);
	int64_t			*dkey = NULL;
	struct diff		 dd;
	int			 cmp = diff_init(&dd, p, q);
	int			 ds = diff_sort(cmp, q);

	memset(&rows, 0, sizeof rows);
	idmap_init(&map);
	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((sort = diff_report_sort(&dd, ds, p, q, m, &sm, e)) == -1)
		return (NULL);
	/* Dense group numbers for the module string ids, root excluded. */
	if ((group = malloc(p->nfuncs * sizeof *group)) == NULL ||
	    (mod = malloc(p->nfuncs * sizeof *mod)) == NULL ||
	    (nfunc = calloc(p->nfuncs, sizeof *nfunc)) == NULL)
		goto nomem;
	group[PROFILE_ROOT] = AGGREGATE_NONE;
	for (f = 1; f < p->nfuncs; f++) {
		if ((g = idmap_get(&map, p->func_module[f])) == IDMAP_NONE) {
			g = ngroups++;
			mod[g] = p->func_module[f];
			if (idmap_put(&map, p->func_module[f], g) == -1)
				goto nomem;
		}
		group[f] = g;
		nfunc[g]++;
	}
	if (aggregate_groups(p, profile_index_aggregate(ctx->index,
	    ctx->cost), group, ngroups, &rows, ctx->cost) == -1 ||
	    (idx = malloc((ngroups ? ngroups : 1) * sizeof *idx)) == NULL ||
	    (names = malloc((ngroups ? ngroups : 1) * sizeof *names)) == NULL)
		goto nomem;
	for (g = 0; g < ngroups; g++) {
		idx[g] = g;
		names[g] = profile_string(p, mod[g]);
	}
	/* Base sums come with the groups: "base" is one more metric. */
	if (ds != -1) {
		if ((dkey = malloc((ngroups ? ngroups : 1) * sizeof *dkey)) ==
		    NULL)
			goto nomem;
		diff_keys(&dd, ds, rows.total + dd.m, rows.total + dd.bm,
		    p->nmetrics, ngroups, dkey);
		report_order(idx, ngroups, dkey, 1, names);
	} else
		report_order(idx, ngroups, sort == REPORT_SORT_NAME ? NULL :
		    (sort == REPORT_SORT_SELF ? rows.self : rows.total) + sm,
		    p->nmetrics, names);

	if ((j = report_new("modules")) == NULL ||
	    report_metrics(j, p, m) == -1 || (a = json_array()) == NULL ||
	    json_object_set_new(j, "rows", a) == -1)
		goto nomem;
	json_object_set_new(j, "matched", json_integer(ngroups));
	json_object_set_new(j, "from", json_integer(from));
	for (i = from; i < ngroups && i < from + limit; i++) {
		g = idx[i];
		o = json_pack("{s:s, s:i, s:i, s:o*, s:o*}", "name", names[g],
		    "functions", (json_int_t)nfunc[g],
		    "contexts", (json_int_t)rows.nodes[g],
		    "self", report_row_values(p, rows.self +
		    (size_t)g * p->nmetrics),
		    "total", report_row_values(p, rows.total +
		    (size_t)g * p->nmetrics));
		if (o == NULL || json_array_append_new(a, o) == -1 ||
		    (cmp && diff_add_values(o, &dd, rows.self +
		    (size_t)g * p->nmetrics, rows.total +
		    (size_t)g * p->nmetrics) == -1))
			goto nomem;
	}
	goto done;
nomem:
	report_error_cost(e, ctx->cost);
	json_decref(j);
	j = NULL;
done:
	aggregate_rows_clear(&rows);
	idmap_clear(&map);
	free(group);
	free(mod);
	free(nfunc);
	free(idx);
	free(names);
	free(dkey);
	return (j);
}

/* A module name cell: "(no module)" for "", linked to its page. */
static void
module_row_name(struct display *d, struct display_block *t, size_t r,
    const json_t *row, const struct query *q)
{
	const char	*name = report_string(row, "name");
	char		*link;

	link = report_goto(q, "module", QUERY_MODULE, *name ? name : NULL,
	    -1);
	display_cell(d, t, r, 0, *name ? name : "(no module)", link, 0);
	free(link);
}

static struct display *
modules_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t;
	struct columns		 c;
	const json_t		*rows = json_object_get(j, "rows"), *row;
	size_t			 i, r;
	char			*s;
	int			 cmp = json_object_get(j, "comparison") != NULL;
	uint32_t		 nc;

	if ((d = display_create("Modules")) == NULL)
		return (NULL);
	diff_text(d, j);
	diff_controls(d, j, q, 1);
	display_text(d, "%lld modules; a module's total counts its call "
	    "nodes once, however often it recurs.",
	    (long long)report_integer(j, "matched"));
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL | COLUMNS_SORT);
	nc = 3 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "modules");
	s = report_link(q, QUERY_SORT, "name", QUERY_FROM, NULL, -1);
	display_head(d, t, 0, "Module", s, 0);
	free(s);
	display_head(d, t, 1, "Functions", NULL, DISPLAY_NUM);
	display_head(d, t, 2, "Contexts", NULL, DISPLAY_NUM);
	columns_head(d, t, 3, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	json_array_foreach(rows, i, row) {
		r = display_row(d, t);
		module_row_name(d, t, r, row, q);
		s = display_number(report_integer(row, "functions"));
		display_cell(d, t, r, 1, s, NULL, DISPLAY_NUM);
		free(s);
		s = display_number(report_integer(row, "contexts"));
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
		columns_row(d, t, r, 3, &c, json_object_get(row, "self"),
		    json_object_get(row, "total"));
		diff_row(d, t, r, nc, row);
	}
	columns_pager(d, j, q);
	columns_controls(d, j, q, 1);
	return (d);
}

static json_t *
module_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct aggregate_rows	 rows;
	json_t			*j = NULL, *a, *o;
	const char		*name = query_str(q, QUERY_MODULE);
	uint32_t		*group = NULL, *idx = NULL, n = 0, f, i;
	const char		**names = NULL;
	const int64_t		*key;
	int			 m, sort, sm;
	int64_t			 from = query_int(q, QUERY_FROM);
	int64_t			 limit = query_int(q, QUERY_LIMIT);
	struct diff		 dd;
	int			 cmp = diff_init(&dd, p, q);

	memset(&rows, 0, sizeof rows);
	if ((m = report_metric(p, q, e)) == -1 ||
	    (sort = report_sort(p, q, m, &sm, e)) == -1)
		return (NULL);
	if ((group = malloc(p->nfuncs * sizeof *group)) == NULL ||
	    (idx = malloc(p->nfuncs * sizeof *idx)) == NULL ||
	    (names = malloc(p->nfuncs * sizeof *names)) == NULL)
		goto nomem;
	group[PROFILE_ROOT] = AGGREGATE_NONE;
	names[PROFILE_ROOT] = "";
	for (f = 1; f < p->nfuncs; f++) {
		names[f] = profile_func_name(p, f);
		if (strcmp(profile_func_module(p, f), name) == 0) {
			group[f] = 0;
			idx[n++] = f;
		} else
			group[f] = AGGREGATE_NONE;
	}
	if (n == 0) {
		report_error_set(e, 404, "no module %s", name);
		goto fail;
	}
	if (aggregate_groups(p, profile_index_aggregate(ctx->index,
	    ctx->cost), group, 1, &rows, ctx->cost) == -1)
		goto nomem;
	key = sort == REPORT_SORT_NAME ? NULL : sort == REPORT_SORT_SELF ?
	    p->metrics[sm].func_self : p->metrics[sm].func_total;
	report_order(idx, n, key, 1, names);

	if ((j = report_new("module")) == NULL ||
	    report_metrics(j, p, m) == -1 || (a = json_array()) == NULL ||
	    json_object_set_new(j, "rows", a) == -1)
		goto nomem;
	if ((o = json_pack("{s:s, s:i, s:i, s:o*, s:o*}", "name", name,
	    "functions", (json_int_t)n, "contexts", (json_int_t)rows.nodes[0],
	    "self", report_row_values(p, rows.self),
	    "total", report_row_values(p, rows.total))) == NULL ||
	    json_object_set_new(j, "module", o) == -1)
		goto nomem;
	json_object_set_new(j, "matched", json_integer(n));
	json_object_set_new(j, "from", json_integer(from));
	for (i = from; i < n && i < from + limit; i++) {
		if ((o = report_func(p, idx[i])) == NULL ||
		    json_array_append_new(a, o) == -1 ||
		    json_object_set_new(o, "self", report_func_values(p, 0,
		    idx[i])) == -1 ||
		    json_object_set_new(o, "total", report_func_values(p, 1,
		    idx[i])) == -1 ||
		    (cmp && diff_add(o, p, &dd, 1, idx[i]) == -1))
			goto nomem;
	}
	goto done;
nomem:
	report_error_cost(e, ctx->cost);
fail:
	json_decref(j);
	j = NULL;
done:
	aggregate_rows_clear(&rows);
	free(group);
	free(idx);
	free(names);
	return (j);
}

static struct display *
module_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t, *l;
	struct columns		 c;
	const json_t		*rows = json_object_get(j, "rows"), *row;
	const json_t		*mo = json_object_get(j, "module");
	const char		*name = report_string(mo, "name");
	size_t			 i, r;
	char			*s, *link;
	int			 cmp = json_object_get(j, "comparison") != NULL;
	uint32_t		 nc;

	if (asprintf(&s, "Module %s", *name ? name : "(no module)") == -1)
		return (NULL);
	d = display_create(s);
	free(s);
	if (d == NULL)
		return (NULL);
	diff_text(d, j);
	display_text(d, "%lld functions in %lld contexts; the module's total "
	    "counts its call nodes once.", (long long)report_integer(mo,
	    "functions"), (long long)report_integer(mo, "contexts"));
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL);
	t = display_table(d, 1 + columns_count(&c), "module");
	display_head(d, t, 0, "Module", NULL, 0);
	columns_head(d, t, 1, &c, q);
	r = display_row(d, t);
	display_cell(d, t, r, 0, *name ? name : "(no module)", NULL,
	    DISPLAY_STRONG);
	columns_row(d, t, r, 1, &c, json_object_get(mo, "self"),
	    json_object_get(mo, "total"));

	display_heading(d, "Functions");
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL | COLUMNS_SORT);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "functions");
	s = report_link(q, QUERY_SORT, "name", QUERY_FROM, NULL, -1);
	display_head(d, t, 0, "Function", s, 0);
	free(s);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	json_array_foreach(rows, i, row) {
		r = display_row(d, t);
		link = report_func_link(q, report_integer(row, "func"));
		display_cell(d, t, r, 0, report_string(row, "name"), link, 0);
		free(link);
		columns_row(d, t, r, 1, &c, json_object_get(row, "self"),
		    json_object_get(row, "total"));
		diff_row(d, t, r, nc, row);
	}
	columns_pager(d, j, q);
	l = display_links(d);
	link = report_goto(q, "modules", -1);
	display_link(d, l, "all modules", link);
	free(link);
	columns_controls(d, j, q, 1);
	return (d);
}

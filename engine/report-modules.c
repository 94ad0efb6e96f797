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
#include "json-build.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"
#include "rows.h"

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

/*
 * cmd=modules's result: the groups (rows, one a module: mod[g] its name's
 * string id, nfunc[g] its functions), in order idx, rows from ..
 * from + limit - 1 shown.
 */
struct modules_result {
	const struct profile	*p;
	int			 m;
	int			 cmp;
	struct diff		 dd;
	struct aggregate_rows	 rows;
	uint32_t		*mod, *nfunc, *idx;
	const char		**names;
	uint32_t		 ngroups;
	int64_t			 from, limit;
};

/*
 * cmd=module's result: the module's one group, its n functions in order
 * idx, rows from .. from + limit - 1 shown.
 */
struct module_result {
	const struct profile	*p;
	int			 m;
	int			 cmp;
	struct diff		 dd;
	struct aggregate_rows	 rows;
	uint32_t		*idx;
	uint32_t		 n;
	int64_t			 from, limit;
};

static void	*modules_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*modules_json(const void *, const struct query *);
static struct display *modules_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 modules_free(void *);
static void	*module_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*module_json(const void *, const struct query *);
static struct display *module_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 module_free(void *);
static void	module_row_name(struct display *, struct display_block *,
		    size_t, const char *, const struct query *);

const struct report_entry report_modules_entry = {
	.create = modules_create,
	.json = modules_json,
	.display = modules_display,
	.free = modules_free,
};

const struct report_entry report_module_entry = {
	.create = module_create,
	.json = module_json,
	.display = module_display,
	.free = module_free,
};

static void *
modules_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct modules_result	*t;
	struct idmap		 map;
	uint32_t		*group = NULL, ngroups = 0, f, g;
	int			 m, sort, sm, ds;
	int64_t			*dkey = NULL;

	idmap_init(&map);
	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->from = q->from;
	t->limit = q->limit;
	t->cmp = diff_init(&t->dd, p, q);
	ds = diff_sort(t->cmp, q);
	if ((m = report_metric(p, q, e)) == -1)
		goto fail;
	if ((sort = diff_report_sort(&t->dd, ds, p, q, m, &sm, e)) == -1)
		goto fail;
	t->m = m;
	if (report_rates_check(p, e) == -1)
		goto fail;
	/* Dense group numbers for the module string ids, root excluded. */
	if ((group = malloc(p->nfuncs * sizeof *group)) == NULL ||
	    (t->mod = malloc(p->nfuncs * sizeof *t->mod)) == NULL ||
	    (t->nfunc = calloc(p->nfuncs, sizeof *t->nfunc)) == NULL)
		goto nomem;
	group[PROFILE_ROOT] = AGGREGATE_NONE;
	for (f = 1; f < p->nfuncs; f++) {
		if ((g = idmap_get(&map, p->func_module[f])) == IDMAP_NONE) {
			g = ngroups++;
			t->mod[g] = p->func_module[f];
			if (idmap_put(&map, p->func_module[f], g) == -1)
				goto nomem;
		}
		group[f] = g;
		t->nfunc[g]++;
	}
	t->ngroups = ngroups;
	if (aggregate_groups(p, profile_index_aggregate(ctx->index,
	    ctx->cost), group, ngroups, &t->rows, ctx->cost) == -1 ||
	    (t->idx = malloc((ngroups ? ngroups : 1) * sizeof *t->idx)) ==
	    NULL ||
	    (t->names = malloc((ngroups ? ngroups : 1) * sizeof *t->names)) ==
	    NULL)
		goto nomem;
	for (g = 0; g < ngroups; g++) {
		t->idx[g] = g;
		t->names[g] = profile_string(p, t->mod[g]);
	}
	/* Base sums come with the groups: "base" is one more metric. */
	if (ds != -1) {
		if ((dkey = malloc((ngroups ? ngroups : 1) * sizeof *dkey)) ==
		    NULL)
			goto nomem;
		diff_keys(&t->dd, ds, t->rows.total + t->dd.m,
		    t->rows.total + t->dd.bm, p->nmetrics, ngroups, dkey);
		report_order(t->idx, ngroups, dkey, 1, t->names);
	} else
		report_order(t->idx, ngroups, sort == REPORT_SORT_NAME ? NULL :
		    (sort == REPORT_SORT_SELF ? t->rows.self : t->rows.total) +
		    sm, p->nmetrics, t->names);
	idmap_clear(&map);
	free(group);
	free(dkey);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	idmap_clear(&map);
	free(group);
	free(dkey);
	modules_free(t);
	return (NULL);
}

static void
modules_free(void *v)
{
	struct modules_result	*t = v;

	if (t == NULL)
		return;
	aggregate_rows_clear(&t->rows);
	free(t->mod);
	free(t->nfunc);
	free(t->idx);
	free(t->names);
	free(t);
}

/* cmd=modules as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
modules_json(const void *v, const struct query *q)
{
	const struct modules_result	*t = v;
	const struct profile		*p = t->p;
	json_t				*j = NULL, *a, *o;
	uint32_t			 g;
	int64_t				 i;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new_table(CMD_MODULES, p, t->m, "rows",
	    &a)) == NULL)
		goto nomem;
	json_build_set(&jb, j, "matched", json_integer(t->ngroups));
	json_build_set(&jb, j, "from", json_integer(t->from));
	for (i = t->from; i < t->ngroups && i < t->from + t->limit; i++) {
		g = t->idx[i];
		o = json_pack("{s:s, s:i}", "name", t->names[g],
		    "functions", (json_int_t)t->nfunc[g]);
		if (json_array_append_new(a, o) == -1 ||
		    rows_group_json(o, p, &t->rows, g, t->cmp ? &t->dd :
		    NULL) == -1)
			goto nomem;
	}
	return (json_build_end(&jb, j));
nomem:
	json_decref(j);
	return (NULL);
}

/* A module name cell: "(no module)" for "", linked to its page. */
static void
module_row_name(struct display *d, struct display_block *t, size_t r,
    const char *name, const struct query *q)
{
	char	*link;

	link = report_module_link(q, name);
	display_cell(d, t, r, 0, *name ? name : "(no module)", link, 0);
	free(link);
}

/* cmd=modules's page, from the groups. */
static struct display *
modules_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct modules_result	*tr = v;
	const struct profile		*p = tr->p;
	struct display			*d;
	struct display_block		*t;
	struct columns			 c;
	size_t				 r;
	char				*s;
	int				 cmp = tr->cmp;
	uint32_t			 nc, g, shown = 0;
	int64_t				 i;

	if ((d = display_create("Modules")) == NULL)
		return (NULL);
	if (notes->compared) {
		diff_text(d, p, &notes->diff, notes->base_name);
		diff_controls(d, q, 1);
	}
	display_text(d, "%lld modules; a module's total counts its call "
	    "nodes once, however often it recurs.", (long long)tr->ngroups);
	columns_init(&c, p, tr->m, q, COLUMNS_SELF | COLUMNS_TOTAL |
	    COLUMNS_SORT);
	nc = 3 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "modules");
	s = report_sort_link(q, QUERY_SORT_NAME);
	display_head(d, t, 0, "Module", s, 0);
	free(s);
	display_head(d, t, 1, "Functions", NULL, DISPLAY_NUM);
	display_head(d, t, 2, "Contexts", NULL, DISPLAY_NUM);
	columns_head(d, t, 3, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	for (i = tr->from; i < tr->ngroups && i < tr->from + tr->limit; i++) {
		g = tr->idx[i];
		shown++;
		r = display_row(d, t);
		module_row_name(d, t, r, tr->names[g], q);
		display_cell_number(d, t, r, 1, tr->nfunc[g]);
		display_cell_number(d, t, r, 2, tr->rows.nodes[g]);
		rows_values_display(d, t, r, 3, &c, cmp ? &tr->dd : NULL,
		    tr->rows.self + (size_t)g * p->nmetrics,
		    tr->rows.total + (size_t)g * p->nmetrics);
	}
	columns_pager(d, q, tr->from, shown, tr->ngroups);
	columns_controls(d, p, tr->m, q, 1);
	return (d);
}

static void *
module_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct module_result	*t;
	const char		*name = q->module;
	uint32_t		*group = NULL, n = 0, f;
	const char		**names = NULL;
	const int64_t		*key;
	int			 m, sort, sm;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->from = q->from;
	t->limit = q->limit;
	t->cmp = diff_init(&t->dd, p, q);
	if ((m = report_metric(p, q, e)) == -1 ||
	    (sort = report_sort(p, q, m, &sm, e)) == -1)
		goto fail;
	t->m = m;
	if (report_rates_check(p, e) == -1)
		goto fail;
	if ((group = malloc(p->nfuncs * sizeof *group)) == NULL ||
	    (t->idx = malloc(p->nfuncs * sizeof *t->idx)) == NULL ||
	    (names = malloc(p->nfuncs * sizeof *names)) == NULL)
		goto nomem;
	group[PROFILE_ROOT] = AGGREGATE_NONE;
	names[PROFILE_ROOT] = "";
	for (f = 1; f < p->nfuncs; f++) {
		names[f] = profile_func_name(p, f);
		if (strcmp(profile_func_module(p, f), name) == 0) {
			group[f] = 0;
			t->idx[n++] = f;
		} else
			group[f] = AGGREGATE_NONE;
	}
	t->n = n;
	if (n == 0) {
		report_error_set(e, 404, "no module %s", name);
		goto fail;
	}
	if (aggregate_groups(p, profile_index_aggregate(ctx->index,
	    ctx->cost), group, 1, &t->rows, ctx->cost) == -1)
		goto nomem;
	key = sort == REPORT_SORT_NAME ? NULL : sort == REPORT_SORT_SELF ?
	    p->metrics[sm].func_self : p->metrics[sm].func_total;
	report_order(t->idx, n, key, 1, names);
	free(group);
	free(names);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	free(group);
	free(names);
	module_free(t);
	return (NULL);
}

static void
module_free(void *v)
{
	struct module_result	*t = v;

	if (t == NULL)
		return;
	aggregate_rows_clear(&t->rows);
	free(t->idx);
	free(t);
}

/* cmd=module as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
module_json(const void *v, const struct query *q)
{
	const struct module_result	*t = v;
	const struct profile		*p = t->p;
	json_t				*j = NULL, *a, *o;
	int64_t				 i;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new_table(CMD_MODULE, p, t->m, "rows",
	    &a)) == NULL)
		goto nomem;
	o = json_pack("{s:s, s:i}", "name", q->module,
	    "functions", (json_int_t)t->n);
	if (json_object_set_new(j, "module", o) == -1 ||
	    rows_group_json(o, p, &t->rows, 0, NULL) == -1)
		goto nomem;
	json_build_set(&jb, j, "matched", json_integer(t->n));
	json_build_set(&jb, j, "from", json_integer(t->from));
	for (i = t->from; i < t->n && i < t->from + t->limit; i++)
		if (json_array_append_new(a, rows_func_json(p, t->idx[i],
		    t->cmp ? &t->dd : NULL)) == -1)
			goto nomem;
	return (json_build_end(&jb, j));
nomem:
	json_decref(j);
	return (NULL);
}

/* cmd=module's page, from the group and the profile. */
static struct display *
module_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct module_result	*tr = v;
	const struct profile		*p = tr->p;
	struct display			*d;
	struct display_block		*t, *l;
	struct columns			 c;
	const char			*name = q->module;
	size_t				 r;
	char				*s, *link;
	int				 cmp = tr->cmp;
	uint32_t			 nc, f, shown = 0;
	int64_t				 i;

	if (asprintf(&s, "Module %s", *name ? name : "(no module)") == -1)
		return (NULL);
	d = display_create(s);
	free(s);
	if (d == NULL)
		return (NULL);
	if (notes->compared)
		diff_text(d, p, &notes->diff, notes->base_name);
	display_text(d, "%lld functions in %lld contexts; the module's total "
	    "counts its call nodes once.", (long long)tr->n,
	    (long long)tr->rows.nodes[0]);
	rows_set_display(d, "module", "Module", *name ? name : "(no module)",
	    p, tr->m, q, &tr->rows, NULL);

	display_heading(d, "Functions");
	columns_init(&c, p, tr->m, q, COLUMNS_SELF | COLUMNS_TOTAL |
	    COLUMNS_SORT);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "functions");
	s = report_sort_link(q, QUERY_SORT_NAME);
	display_head(d, t, 0, "Function", s, 0);
	free(s);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	for (i = tr->from; i < tr->n && i < tr->from + tr->limit; i++) {
		f = tr->idx[i];
		shown++;
		r = display_row(d, t);
		link = report_func_link(q, f);
		display_cell(d, t, r, 0, profile_func_name(p, f), link, 0);
		free(link);
		rows_func_display(d, t, r, &c, p, f, cmp ? &tr->dd : NULL);
	}
	columns_pager(d, q, tr->from, shown, tr->n);
	l = display_links(d);
	link = report_cmd_link(q, CMD_MODULES);
	display_link(d, l, "all modules", link);
	free(link);
	columns_controls(d, p, tr->m, q, 1);
	return (d);
}

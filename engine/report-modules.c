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
#include "groups.h"
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
 * cmd=modules's result: the modules as groups (mod[g] the name's string
 * id of group g, nfunc[g] its functions), ranked and paged.
 */
struct modules_result {
	const struct profile	*p;
	int			 m;
	int			 cmp;
	struct diff		 dd;
	struct groups		 gr;
	uint32_t		*mod, *nfunc;
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
static json_t	*modules_row_json(const void *, uint32_t);
static void	 modules_row_display(struct display *, struct display_block *,
		    size_t, const void *, uint32_t, const struct query *);

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

	idmap_init(&map);
	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->gr.from = q->from;
	t->gr.limit = q->limit;
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
	if (groups_rank(&t->gr, p, ctx, group, ngroups, t->mod,
	    AGGREGATE_MODULE, sort, sm, t->cmp ? &t->dd : NULL, ds) == -1)
		goto nomem;
	idmap_clear(&map);
	free(group);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	idmap_clear(&map);
	free(group);
	modules_free(t);
	return (NULL);
}

static void
modules_free(void *v)
{
	struct modules_result	*t = v;

	if (t == NULL)
		return;
	groups_clear(&t->gr);
	free(t->mod);
	free(t->nfunc);
	free(t);
}

/* cmd=modules as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
modules_json(const void *v, const struct query *q)
{
	const struct modules_result	*t = v;
	json_t				*j, *a;

	if ((j = report_new_table(CMD_MODULES, t->p, t->m, "rows",
	    &a)) == NULL)
		return (NULL);
	if (groups_json(j, a, t->p, &t->gr, t->cmp ? &t->dd : NULL,
	    modules_row_json, t) == -1) {
		json_decref(j);
		return (NULL);
	}
	return (j);
}

/* Module g's row: its name and function count. */
static json_t *
modules_row_json(const void *v, uint32_t g)
{
	const struct modules_result	*t = v;

	return (json_pack("{s:s, s:i}", "name", t->gr.names[g],
	    "functions", (json_int_t)t->nfunc[g]));
}

/*
 * Module g's own cells: its name ("(no module)" for ""), linked to its
 * page, and its function count.
 */
static void
modules_row_display(struct display *d, struct display_block *t, size_t r,
    const void *v, uint32_t g, const struct query *q)
{
	const struct modules_result	*tr = v;
	const char			*name = tr->gr.names[g];
	char				*link;

	link = report_module_link(q, name);
	display_cell(d, t, r, 0, *name ? name : "(no module)", link, 0);
	free(link);
	display_cell_number(d, t, r, 1, tr->nfunc[g]);
}

/* cmd=modules's page, from the groups. */
static struct display *
modules_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	static const struct groups_head	 heads[] = {
		{ "Module", 1, 0 },
		{ "Functions", 0, DISPLAY_NUM },
	};
	const struct modules_result	*tr = v;
	struct display			*d;

	if ((d = display_create("Modules")) == NULL)
		return (NULL);
	if (notes->compared) {
		diff_text(d, tr->p, &notes->diff, notes->base_name);
		diff_controls(d, q, 1);
	}
	display_text(d, "%lld modules; a module's total counts its call "
	    "nodes once, however often it recurs.", (long long)tr->gr.n);
	groups_display(d, "modules", heads, 2, tr->p, tr->m, q, &tr->gr,
	    tr->cmp ? &tr->dd : NULL, modules_row_display, tr);
	return (d);
}

static void *
module_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct module_result	*t;
	const char		*name = q->module;
	uint32_t		*group = NULL, n = 0, f;
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
	    (t->idx = malloc(p->nfuncs * sizeof *t->idx)) == NULL)
		goto nomem;
	group[PROFILE_ROOT] = AGGREGATE_NONE;
	for (f = 1; f < p->nfuncs; f++) {
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
	    ctx->cost), group, 1, &t->rows, ctx->cost) == -1 ||
	    groups_members_order(t->idx, n, p, sort, sm, NULL, -1) == -1)
		goto nomem;
	free(group);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	free(group);
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

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
#include "callgraph.h"
#include "columns.h"
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "funcgraph.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "reader-view.h"
#include "report.h"
#include "rows.h"

/*
 * cmd=func: one function (func= id or exact name) merged over all its
 * contexts, as a butterfly: who calls it and what it calls, with the
 * share of its time each accounts for. Recursion is counted once: the
 * function's total adds a call node only when no ancestor node is the
 * same function, and each caller (callee) row adds a node only when no
 * ancestor node was already added to that row. A row whose function is
 * in a recursive clique with this one is marked "recursive". With base=
 * the function and every caller and callee row have "diff" (diff.h): a
 * row only one side has shows 0 on the other; sort=delta or ratio ranks
 * the rows by the change of their total.
 */

/* The result: the function, its butterfly and the two pages of rows. */
struct func_result {
	const struct profile		*p;
	const struct profile		*origin; /* its source page's */
	int				 m;
	uint32_t			 f;
	const struct callgraph		*g;
	int				 cmp;
	struct diff			 dd;
	struct aggregate_butterfly	 b;
	struct rows_page		 callers, callees;
};

static void	*func_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*func_json(const void *, const struct query *);
static struct display *func_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 func_free(void *);

const struct report_entry report_func_entry = {
	.create = func_create,
	.json = func_json,
	.display = func_display,
	.free = func_free,
};

static void *
func_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct func_result		*t;
	struct aggregate_spec		 spec;
	struct rows_spec		 rs;
	const struct callgraph		*g = NULL;
	uint8_t				*in = NULL;
	uint32_t			 f;
	int				 m, sort, sm, ds;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->origin = report_origin(p, ctx);
	t->cmp = diff_init(&t->dd, p, q);
	ds = diff_sort(t->cmp, q);
	if ((m = report_metric(p, q, e)) == -1)
		goto fail;
	if ((sort = diff_report_sort(&t->dd, ds, p, q, m, &sm, e)) == -1)
		goto fail;
	if ((f = report_func_find(p, q, e)) == PROFILE_NONE)
		goto fail;
	t->m = m;
	if (report_rates_check(p, e) == -1)
		goto fail;
	t->f = f;
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL ||
	    (in = calloc(p->nfuncs, 1)) == NULL)
		goto nomem;
	t->g = g;
	in[f] = 1;
	spec.in = in;
	spec.internal = 1;
	spec.callers_by = AGGREGATE_FUNC;
	spec.callees_by = AGGREGATE_FUNC;
	spec.clique = g->clique;
	if (aggregate_butterfly(p, profile_index_aggregate(ctx->index,
	    ctx->cost), &spec, &t->b, ctx->cost) == -1)
		goto nomem;

	memset(&rs, 0, sizeof rs);
	rs.by = AGGREGATE_FUNC;
	rs.graph = g;
	rs.clique = g->clique[f];
	rs.sort = sort;
	rs.metric = sm;
	rs.diff = t->cmp ? &t->dd : NULL;
	rs.diffsort = ds;
	rs.from = 0;
	rs.limit = q->limit;
	if (rows_page(&t->callers, p, &t->b.callers, &rs) == -1)
		goto nomem;
	rs.callee = 1;
	if (rows_page(&t->callees, p, &t->b.callees, &rs) == -1)
		goto nomem;
	free(in);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	free(in);
	func_free(t);
	return (NULL);
}

static void
func_free(void *v)
{
	struct func_result	*t = v;

	if (t == NULL)
		return;
	rows_page_clear(&t->callers);
	rows_page_clear(&t->callees);
	aggregate_butterfly_clear(&t->b);
	free(t);
}

/* cmd=func as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
func_json(const void *v, const struct query *q)
{
	const struct func_result	*t = v;
	const struct profile		*p = t->p;
	const struct callgraph		*g = t->g;
	json_t				*j = NULL, *fo, *a;
	uint32_t			 f = t->f;

	if ((j = report_new(CMD_FUNC)) == NULL ||
	    report_metrics(j, p, t->m) == -1 ||
	    (fo = rows_subject_json(p, g, f, &t->b.set, t->cmp ? &t->dd :
	    NULL)) == NULL ||
	    json_object_set_new(j, "function", fo) == -1)
		goto nomem;
	if ((a = rows_page_json(p, &t->callers)) == NULL ||
	    json_object_set_new(j, "callers", a) == -1)
		goto nomem;
	json_object_set_new(j, "ncallers", json_integer(t->callers.matched));
	if ((a = rows_page_json(p, &t->callees)) == NULL ||
	    json_object_set_new(j, "callees", a) == -1)
		goto nomem;
	json_object_set_new(j, "ncallees", json_integer(t->callees.matched));
	return (j);
nomem:
	json_decref(j);
	return (NULL);
}

/* cmd=func's page, from the butterfly and the profile. */
static struct display *
func_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct func_result	*tr = v;
	const struct profile		*p = tr->p;
	const struct aggregate_rows	*set = &tr->b.set;
	struct display			*d;
	struct display_block		*t, *l;
	struct columns			 c;
	struct reader_view_info		 vi;
	uint32_t			 f = tr->f;
	const char			*name = profile_func_name(p, f);
	const char			*module = profile_func_module(p, f);
	char				*title, *link, *s, id[32];
	size_t				 r, i;
	static const enum query_by bys[] = { QUERY_BY_SITE, QUERY_BY_MODULE,
	    QUERY_BY_CLIQUE };
	struct query			 view;
	int				 cmp = tr->cmp;
	int				 rec = callgraph_recursive(tr->g,
					    tr->g->clique[f]);
	int64_t				 contexts = set->nodes[0];
	uint32_t			 nc;

	if (asprintf(&title, "Function %s", name) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	if (*module != '\0')
		display_text(d, "Module %s.", module);
	if (f < p->nfuncs && p->func_line[f] != 0)
		display_text(d, "Defined in %s:%lld.", p->func_file[f] != 0 ?
		    profile_string(p, p->func_file[f]) : "",
		    (long long)p->func_line[f]);
	else if (f < p->nfuncs && p->func_file[f] != 0)
		display_text(d, "Defined in %s.", profile_string(p,
		    p->func_file[f]));
	columns_metrics_profile(d, q, p, tr->m, cmp);
	if (notes->compared) {
		diff_text(d, p, &notes->diff, notes->base_name);
		diff_controls(d, q, 1);
	}
	if (set->calls != NULL)
		display_text(d, "Called %lld time%s by %lld caller%s%s.",
		    (long long)set->calls[0], set->calls[0] == 1 ? "" : "s",
		    (long long)contexts, contexts == 1 ? "" : "s",
		    rec ? "; in a cycle or recursive" : "");
	else
		display_text(d, "Called in %lld context%s%s.",
		    (long long)contexts, contexts == 1 ? "" : "s",
		    rec ? "; recursive" : "");

	columns_init(&c, p, tr->m, q, COLUMNS_SELF | COLUMNS_TOTAL);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "function");
	display_head(d, t, 0, "Function", NULL, 0);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	r = display_row(d, t);
	display_cell(d, t, r, 0, name, NULL, DISPLAY_STRONG);
	columns_row(d, t, r, 1, &c, set->self, set->total);
	if (cmp)
		diff_row(d, t, r, nc, &tr->dd, set->self[tr->dd.m],
		    set->self[tr->dd.bm], set->total[tr->dd.m],
		    set->total[tr->dd.bm]);

	if (asprintf(&s, "Callers (%lld)", (long long)tr->callers.matched) !=
	    -1) {
		rows_page_display(d, s, p, &tr->callers, tr->m, q);
		free(s);
	}
	if (asprintf(&s, "Callees (%lld)", (long long)tr->callees.matched) !=
	    -1) {
		rows_page_display(d, s, p, &tr->callees, tr->m, q);
		free(s);
	}

	display_heading(d, "See also");
	l = display_links(d);
	if ((link = report_source_link(q, tr->origin, f)) != NULL) {
		display_link(d, l, "its source lines", link);
		free(link);
	}
	snprintf(id, sizeof id, "%u", f);
	report_view(&view, q, CMD_CALLERS);
	view.func = id;
	for (i = 0; i < sizeof bys / sizeof bys[0]; i++) {
		view.by = bys[i];
		link = query_format(&view);
		if (asprintf(&s, "callers by %s", query_enum_name(QUERY_BY,
		    bys[i])) != -1) {
			display_link(d, l, s, link);
			free(s);
		}
		free(link);
	}
	link = report_module_link(q, module);
	display_link(d, l, "its module", link);
	free(link);
	/* A view of ClickHouse: the function's share over time. */
	if (reader_view_info(p, &vi) == 0) {
		report_view(&view, q, CMD_SERIES);
		view.func = id;
		link = query_format(&view);
		display_link(d, l, "its share over time", link);
		free(link);
	}
	if (rec) {
		link = report_clique_link(q, tr->g->clique[f]);
		display_link(d, l, "its clique", link);
		free(link);
	}
	columns_controls(d, p, tr->m, q, 1);
	return (d);
}

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
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"
#include "rows.h"

/*
 * cmd=cliques: the recursive cliques (strongly connected components of
 * the function call graph with more than one member, or one that calls
 * itself), Mercury's recursive groups. A clique's "id" is its smallest
 * member function id (what clique= takes). Its self is the sum over its
 * members; its total adds a call node only when no ancestor is in the
 * clique, so however deep the recursion, its time is counted once.
 *
 * cmd=clique: one clique (clique=; every function is in one, clique 0 is
 * the root's): "clique" (its id, name, member count, self and total),
 * its "members", the calls into it from outside ("callers") and the
 * calls out of it ("callees"), each row counted once.
 */

static json_t	*cliques_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *cliques_display(const json_t *, const struct query *);
static json_t	*clique_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *clique_display(const json_t *, const struct query *);

const struct report_entry report_cliques_entry = {
	.name = "cliques",
	.title = "Cliques",
	.formats = "html|json|text",
	.create = cliques_create,
	.display = cliques_display,
};

const struct report_entry report_clique_entry = {
	.name = "clique",
	.title = "Clique",
	.formats = "html|json|text",
	.create = clique_create,
	.display = clique_display,
};

static json_t *
cliques_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct aggregate_rows	 rows;
	const struct callgraph	*g = NULL;
	json_t			*j = NULL, *a, *o;
	uint32_t		*group = NULL, *id = NULL, *idx = NULL;
	uint32_t		 n = 0, f, c, i;
	const char		**names = NULL;
	int			 m, sort, sm;
	int64_t			 from = query_int(q, QUERY_FROM);
	int64_t			 limit = query_int(q, QUERY_LIMIT);

	memset(&rows, 0, sizeof rows);
	if ((m = report_metric(p, q, e)) == -1 ||
	    (sort = report_sort(p, q, m, &sm, e)) == -1)
		return (NULL);
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL ||
	    (group = malloc(p->nfuncs * sizeof *group)) == NULL ||
	    (id = malloc((g->nrecursive ? g->nrecursive : 1) * sizeof *id)) ==
	    NULL)
		goto nomem;
	/*
	 * Dense numbers for the recursive cliques, in id order. A clique's
	 * id is its smallest member, so it is numbered before the others.
	 */
	for (f = 0; f < p->nfuncs; f++) {
		c = g->clique[f];
		if (!callgraph_recursive(g, c))
			group[f] = AGGREGATE_NONE;
		else if (c == f) {
			group[f] = n;
			id[n++] = f;
		} else
			group[f] = group[c];
	}
	if (aggregate_groups(p, profile_index_aggregate(ctx->index,
	    ctx->cost), group, n, &rows, ctx->cost) == -1 ||
	    (idx = malloc((n ? n : 1) * sizeof *idx)) == NULL ||
	    (names = malloc((n ? n : 1) * sizeof *names)) == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		idx[i] = i;
		names[i] = profile_func_name(p, id[i]);
	}
	report_order(idx, n, sort == REPORT_SORT_NAME ? NULL :
	    (sort == REPORT_SORT_SELF ? rows.self : rows.total) + sm,
	    p->nmetrics, names);

	if ((j = report_new("cliques")) == NULL ||
	    report_metrics(j, p, m) == -1 || (a = json_array()) == NULL ||
	    json_object_set_new(j, "rows", a) == -1)
		goto nomem;
	json_object_set_new(j, "cliques", json_integer(g->ncliques));
	json_object_set_new(j, "matched", json_integer(n));
	json_object_set_new(j, "from", json_integer(from));
	for (i = from; i < n && i < from + limit; i++) {
		c = idx[i];
		o = json_pack("{s:i, s:s, s:i, s:i, s:o*, s:o*}",
		    "id", (json_int_t)id[c],
		    "name", names[c],
		    "members", (json_int_t)g->size[id[c]],
		    "contexts", (json_int_t)rows.nodes[c],
		    "self", report_row_values(p, rows.self +
		    (size_t)c * p->nmetrics),
		    "total", report_row_values(p, rows.total +
		    (size_t)c * p->nmetrics));
		if (o == NULL || json_array_append_new(a, o) == -1)
			goto nomem;
	}
	goto done;
nomem:
	report_error_cost(e, ctx->cost);
	json_decref(j);
	j = NULL;
done:
	aggregate_rows_clear(&rows);
	free(group);
	free(id);
	free(idx);
	free(names);
	return (j);
}

static struct display *
cliques_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t;
	struct columns		 c;
	const json_t		*rows = json_object_get(j, "rows"), *row;
	size_t			 i, r;
	char			*s, *link, id[32];

	if ((d = display_create("Recursive cliques")) == NULL)
		return (NULL);
	display_text(d, "%lld of %lld cliques are recursive. A clique is a "
	    "set of functions that call each other (a strongly connected "
	    "component of the call graph), named by its first member; its "
	    "total counts its call nodes once.",
	    (long long)report_integer(j, "matched"),
	    (long long)report_integer(j, "cliques"));
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL | COLUMNS_SORT);
	t = display_table(d, 4 + columns_count(&c), "cliques");
	display_head(d, t, 0, "Clique", NULL, DISPLAY_NUM);
	s = report_link(q, QUERY_SORT, "name", QUERY_FROM, NULL, -1);
	display_head(d, t, 1, "First member", s, 0);
	free(s);
	display_head(d, t, 2, "Members", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Contexts", NULL, DISPLAY_NUM);
	columns_head(d, t, 4, &c, q);
	json_array_foreach(rows, i, row) {
		r = display_row(d, t);
		snprintf(id, sizeof id, "%lld", (long long)report_integer(row,
		    "id"));
		link = report_goto(q, "clique", QUERY_CLIQUE, id, -1);
		display_cell(d, t, r, 0, id, link, DISPLAY_NUM);
		free(link);
		link = report_func_link(q, report_integer(row, "id"));
		display_cell(d, t, r, 1, report_string(row, "name"), link, 0);
		free(link);
		s = display_number(report_integer(row, "members"));
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
		s = display_number(report_integer(row, "contexts"));
		display_cell(d, t, r, 3, s, NULL, DISPLAY_NUM);
		free(s);
		columns_row(d, t, r, 4, &c, json_object_get(row, "self"),
		    json_object_get(row, "total"));
	}
	columns_pager(d, j, q);
	columns_controls(d, j, q, 1);
	return (d);
}

static json_t *
clique_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct aggregate_butterfly	 b;
	struct aggregate_spec		 spec;
	struct rows_spec		 rs;
	const struct callgraph		*g = NULL;
	uint8_t				*in = NULL;
	json_t				*j = NULL, *a, *o;
	uint32_t			 id = query_int(q, QUERY_CLIQUE), f;
	uint32_t			*idx = NULL, n = 0, i;
	const char			**names = NULL;
	const int64_t			*key;
	int64_t				*dkey = NULL;
	int				 m, sort, sm;
	int64_t				 matched, limit = query_int(q,
					     QUERY_LIMIT);
	struct diff			 dd;
	int				 cmp = diff_init(&dd, p, q);
	int				 ds = diff_sort(cmp, q);

	memset(&b, 0, sizeof b);
	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((sort = diff_report_sort(&dd, ds, p, q, m, &sm, e)) == -1)
		return (NULL);
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL)
		goto nomem;
	if (id >= p->nfuncs || g->clique[id] != id) {
		if (id < p->nfuncs)
			report_error_set(e, 404, "no clique %u (function %u "
			    "is in clique %u)", id, id, g->clique[id]);
		else
			report_error_set(e, 404, "no clique %u", id);
		goto fail;
	}
	if ((in = calloc(p->nfuncs, 1)) == NULL ||
	    (idx = malloc(g->size[id] * sizeof *idx)) == NULL ||
	    (names = malloc(p->nfuncs * sizeof *names)) == NULL)
		goto nomem;
	for (f = 0; f < p->nfuncs; f++) {
		names[f] = profile_func_name(p, f);
		if (g->clique[f] == id) {
			in[f] = 1;
			idx[n++] = f;
		}
	}
	memset(&spec, 0, sizeof spec);
	spec.in = in;
	spec.internal = 0;
	spec.callers_by = AGGREGATE_FUNC;
	spec.callees_by = AGGREGATE_FUNC;
	spec.clique = g->clique;
	if (aggregate_butterfly(p, profile_index_aggregate(ctx->index,
	    ctx->cost), &spec, &b, ctx->cost) == -1)
		goto nomem;

	if ((j = report_new("clique")) == NULL ||
	    report_metrics(j, p, m) == -1 || (a = json_array()) == NULL ||
	    json_object_set_new(j, "members", a) == -1)
		goto nomem;
	if ((o = json_pack("{s:i, s:s, s:i, s:b, s:i, s:o*, s:o*}",
	    "id", (json_int_t)id, "name", names[id],
	    "members", (json_int_t)n,
	    "recursive", callgraph_recursive(g, id),
	    "contexts", (json_int_t)b.set.nodes[0],
	    "self", report_row_values(p, b.set.self),
	    "total", report_row_values(p, b.set.total))) == NULL ||
	    json_object_set_new(j, "clique", o) == -1 ||
	    (cmp && diff_add_values(o, &dd, b.set.self, b.set.total) == -1))
		goto nomem;
	key = sort == REPORT_SORT_NAME ? NULL : sort == REPORT_SORT_SELF ?
	    p->metrics[sm].func_self : p->metrics[sm].func_total;
	if (ds != -1) {
		if ((dkey = malloc(p->nfuncs * sizeof *dkey)) == NULL)
			goto nomem;
		diff_keys(&dd, ds, p->metrics[dd.m].func_total,
		    p->metrics[dd.bm].func_total, 1, p->nfuncs, dkey);
		key = dkey;
	}
	report_order(idx, n, key, 1, names);
	for (i = 0; i < n && i < limit; i++) {
		if ((o = report_func(p, idx[i])) == NULL ||
		    json_array_append_new(a, o) == -1 ||
		    json_object_set_new(o, "self", report_func_values(p, 0,
		    idx[i])) == -1 ||
		    json_object_set_new(o, "total", report_func_values(p, 1,
		    idx[i])) == -1 ||
		    (cmp && diff_add(o, p, &dd, 1, idx[i]) == -1))
			goto nomem;
	}

	memset(&rs, 0, sizeof rs);
	rs.by = AGGREGATE_FUNC;
	rs.graph = g;
	rs.clique = id;
	rs.sort = sort;
	rs.metric = sm;
	rs.diff = cmp ? &dd : NULL;
	rs.diffsort = ds;
	rs.limit = limit;
	if ((a = rows_json(p, &b.callers, &rs, &matched)) == NULL ||
	    json_object_set_new(j, "callers", a) == -1)
		goto nomem;
	json_object_set_new(j, "ncallers", json_integer(matched));
	rs.callee = 1;
	if ((a = rows_json(p, &b.callees, &rs, &matched)) == NULL ||
	    json_object_set_new(j, "callees", a) == -1)
		goto nomem;
	json_object_set_new(j, "ncallees", json_integer(matched));
	goto done;
nomem:
	report_error_cost(e, ctx->cost);
fail:
	json_decref(j);
	j = NULL;
done:
	aggregate_butterfly_clear(&b);
	free(dkey);
	free(in);
	free(idx);
	free(names);
	return (j);
}

static struct display *
clique_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t, *l;
	struct columns		 c;
	const json_t		*row, *co = json_object_get(j, "clique");
	size_t			 i, r;
	char			*s, *link;
	int			 cmp = json_object_get(j, "comparison") != NULL;
	uint32_t		 nc;

	if (asprintf(&s, "Clique %lld (%s)", (long long)report_integer(co,
	    "id"), report_string(co, "name")) == -1)
		return (NULL);
	d = display_create(s);
	free(s);
	if (d == NULL)
		return (NULL);
	display_text(d, "%lld %s in %lld contexts; %s. The clique's total "
	    "counts its call nodes once; a member's total counts its own "
	    "recursion once.", (long long)report_integer(co, "members"),
	    report_integer(co, "members") == 1 ? "member" : "members",
	    (long long)report_integer(co, "contexts"),
	    json_is_true(json_object_get(co, "recursive")) ? "recursive" :
	    "not recursive");
	diff_text(d, j);
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "clique");
	display_head(d, t, 0, "Clique", NULL, 0);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	r = display_row(d, t);
	display_cell(d, t, r, 0, "all members", NULL, DISPLAY_STRONG);
	columns_row(d, t, r, 1, &c, json_object_get(co, "self"),
	    json_object_get(co, "total"));
	diff_row(d, t, r, nc, co);

	display_heading(d, "Members");
	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL | COLUMNS_SORT);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "members");
	s = report_link(q, QUERY_SORT, "name", -1);
	display_head(d, t, 0, "Function", s, 0);
	free(s);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	json_array_foreach(json_object_get(j, "members"), i, row) {
		r = display_row(d, t);
		link = report_func_link(q, report_integer(row, "func"));
		s = report_label(row);
		display_cell(d, t, r, 0, s ? s : "", link, 0);
		free(s);
		free(link);
		columns_row(d, t, r, 1, &c, json_object_get(row, "self"),
		    json_object_get(row, "total"));
		diff_row(d, t, r, nc, row);
	}
	if (asprintf(&s, "Called from outside (%lld)", (long long)
	    report_integer(j, "ncallers")) != -1) {
		rows_display(d, s, json_object_get(j, "callers"), "func", q,
		    j);
		free(s);
	}
	if (asprintf(&s, "Calls out of the clique (%lld)", (long long)
	    report_integer(j, "ncallees")) != -1) {
		rows_display(d, s, json_object_get(j, "callees"), "func", q,
		    j);
		free(s);
	}
	l = display_links(d);
	link = report_goto(q, "cliques", -1);
	display_link(d, l, "all recursive cliques", link);
	free(link);
	columns_controls(d, j, q, 1);
	return (d);
}

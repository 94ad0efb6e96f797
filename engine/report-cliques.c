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
#include "groups.h"
#include "json-build.h"
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

/*
 * cmd=cliques's result: the recursive cliques as groups (id[c] the id
 * of group c), ranked and paged.
 */
struct cliques_result {
	const struct profile	*p;
	int			 m;
	const struct callgraph	*g;
	struct groups		 gr;
	uint32_t		*id;
};

/*
 * cmd=clique's result: clique id, its n members in order idx (the first
 * limit shown), its butterfly and the pages of callers and callees.
 */
struct clique_result {
	const struct profile		*p;
	int				 m;
	const struct callgraph		*g;
	uint32_t			 id;
	int				 cmp;
	struct diff			 dd;
	struct rows_butterfly		 b;
	uint32_t			*idx;
	uint32_t			 n;
	int64_t				 limit;
};

static void	*cliques_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*cliques_json(const void *, const struct query *);
static struct display *cliques_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 cliques_free(void *);
static json_t	*cliques_row_json(const void *, uint32_t);
static void	 cliques_row_display(struct display *, struct display_block *,
		    size_t, const void *, uint32_t, const struct query *);
static void	*clique_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*clique_json(const void *, const struct query *);
static struct display *clique_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 clique_free(void *);

const struct report_entry report_cliques_entry = {
	.create = cliques_create,
	.json = cliques_json,
	.display = cliques_display,
	.free = cliques_free,
};

const struct report_entry report_clique_entry = {
	.create = clique_create,
	.json = clique_json,
	.display = clique_display,
	.free = clique_free,
};

static void *
cliques_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct cliques_result	*t;
	const struct callgraph	*g = NULL;
	uint32_t		*group = NULL, n = 0, f, c;
	int			 m, sort, sm;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->gr.from = q->from;
	t->gr.limit = q->limit;
	if ((m = report_metric(p, q, e)) == -1 ||
	    (sort = report_sort(p, q, m, &sm, e)) == -1)
		goto fail;
	t->m = m;
	if (report_rates_check(p, e) == -1)
		goto fail;
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL ||
	    (group = malloc(p->nfuncs * sizeof *group)) == NULL ||
	    (t->id = malloc((g->nrecursive ? g->nrecursive : 1) *
	    sizeof *t->id)) == NULL)
		goto nomem;
	t->g = g;
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
			t->id[n++] = f;
		} else
			group[f] = group[c];
	}
	if (groups_rank(&t->gr, p, ctx, group, n, t->id, AGGREGATE_CLIQUE,
	    sort, sm, NULL, -1) == -1)
		goto nomem;
	free(group);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	free(group);
	cliques_free(t);
	return (NULL);
}

static void
cliques_free(void *v)
{
	struct cliques_result	*t = v;

	if (t == NULL)
		return;
	groups_clear(&t->gr);
	free(t->id);
	free(t);
}

/* cmd=cliques as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
cliques_json(const void *v, const struct query *q)
{
	const struct cliques_result	*t = v;
	json_t				*j, *a;

	if ((j = report_new_table(CMD_CLIQUES, t->p, t->m, "rows",
	    &a)) == NULL)
		return (NULL);
	if (json_object_set_new(j, "cliques",
	    json_integer(t->g->ncliques)) == -1 ||
	    groups_json(j, a, t->p, &t->gr, NULL, cliques_row_json, t) == -1) {
		json_decref(j);
		return (NULL);
	}
	return (j);
}

/* Clique c's row: its id, first member and member count. */
static json_t *
cliques_row_json(const void *v, uint32_t c)
{
	const struct cliques_result	*t = v;

	return (json_pack("{s:i, s:s, s:i}", "id", (json_int_t)t->id[c],
	    "name", t->gr.names[c], "members",
	    (json_int_t)t->g->size[t->id[c]]));
}

/* Clique x's own cells: its id and first member, linked, and its size. */
static void
cliques_row_display(struct display *d, struct display_block *t, size_t r,
    const void *v, uint32_t x, const struct query *q)
{
	const struct cliques_result	*tr = v;
	char				*link, id[32];

	snprintf(id, sizeof id, "%u", tr->id[x]);
	link = report_clique_link(q, tr->id[x]);
	display_cell(d, t, r, 0, id, link, DISPLAY_NUM);
	free(link);
	link = report_func_link(q, tr->id[x]);
	display_cell(d, t, r, 1, tr->gr.names[x], link, 0);
	free(link);
	display_cell_number(d, t, r, 2, tr->g->size[tr->id[x]]);
}

/* cmd=cliques's page, from the groups. */
static struct display *
cliques_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	static const struct groups_head	 heads[] = {
		{ "Clique", 0, DISPLAY_NUM },
		{ "First member", 1, 0 },
		{ "Members", 0, DISPLAY_NUM },
	};
	const struct cliques_result	*tr = v;
	struct display			*d;

	if ((d = display_create("Recursive cliques")) == NULL)
		return (NULL);
	display_text(d, "%lld of %lld cliques are recursive. A clique is a "
	    "set of functions that call each other (a strongly connected "
	    "component of the call graph), named by its first member; its "
	    "total counts its call nodes once.", (long long)tr->gr.n,
	    (long long)tr->g->ncliques);
	groups_display(d, "cliques", heads, 3, tr->p, tr->m, q, &tr->gr,
	    NULL, cliques_row_display, tr);
	return (d);
}

static void *
clique_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct clique_result		*t;
	struct rows_spec		 rs;
	const struct callgraph		*g = NULL;
	uint8_t				*in = NULL;
	uint32_t			 id = (uint32_t)q->clique, f;
	uint32_t			 n = 0;
	int				 m, sort, sm, ds;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->id = id;
	t->limit = q->limit;
	t->cmp = diff_init(&t->dd, p, q);
	ds = diff_sort(t->cmp, q);
	if ((m = report_metric(p, q, e)) == -1)
		goto fail;
	if ((sort = diff_report_sort(&t->dd, ds, p, q, m, &sm, e)) == -1)
		goto fail;
	t->m = m;
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL)
		goto nomem;
	t->g = g;
	if (id >= p->nfuncs || g->clique[id] != id) {
		if (id < p->nfuncs)
			report_error_set(e, 404, "no clique %u (function %u "
			    "is in clique %u)", id, id, g->clique[id]);
		else
			report_error_set(e, 404, "no clique %u", id);
		goto fail;
	}
	if (report_rates_check(p, e) == -1)
		goto fail;
	if ((in = calloc(p->nfuncs, 1)) == NULL ||
	    (t->idx = malloc(g->size[id] * sizeof *t->idx)) == NULL)
		goto nomem;
	for (f = 0; f < p->nfuncs; f++) {
		if (g->clique[f] == id) {
			in[f] = 1;
			t->idx[n++] = f;
		}
	}
	t->n = n;
	memset(&rs, 0, sizeof rs);
	rs.by = AGGREGATE_FUNC;
	rs.graph = g;
	rs.clique = id;
	rs.sort = sort;
	rs.metric = sm;
	rs.diff = t->cmp ? &t->dd : NULL;
	rs.diffsort = ds;
	rs.limit = t->limit;
	rs.callee = 1;
	if (rows_butterfly(&t->b, p, ctx, in, 0, &rs) == -1 ||
	    groups_members_order(t->idx, n, p, sort, sm, rs.diff, ds) == -1)
		goto nomem;
	free(in);
	return (t);
nomem:
	report_error_cost(e, ctx->cost);
fail:
	free(in);
	clique_free(t);
	return (NULL);
}

static void
clique_free(void *v)
{
	struct clique_result	*t = v;

	if (t == NULL)
		return;
	rows_butterfly_clear(&t->b);
	free(t->idx);
	free(t);
}

/* cmd=clique as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
clique_json(const void *v, const struct query *q)
{
	const struct clique_result	*t = v;
	const struct profile		*p = t->p;
	json_t				*j = NULL, *a, *o;
	uint32_t			 i;

	if ((j = report_new_table(CMD_CLIQUE, p, t->m, "members",
	    &a)) == NULL)
		goto nomem;
	o = json_pack("{s:i, s:s, s:i, s:b}", "id", (json_int_t)t->id,
	    "name", profile_func_name(p, t->id), "members", (json_int_t)t->n,
	    "recursive", callgraph_recursive(t->g, t->id));
	if (json_object_set_new(j, "clique", o) == -1 ||
	    rows_group_json(o, p, &t->b.b.set, 0, t->cmp ? &t->dd :
	    NULL) == -1)
		goto nomem;
	for (i = 0; i < t->n && i < t->limit; i++)
		if (json_array_append_new(a, rows_func_json(p, t->idx[i],
		    t->cmp ? &t->dd : NULL)) == -1)
			goto nomem;
	if (rows_butterfly_json(j, p, &t->b) == -1)
		goto nomem;
	return (j);
nomem:
	json_decref(j);
	return (NULL);
}

/* cmd=clique's page, from the butterfly, the members and the profile. */
static struct display *
clique_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct clique_result	*tr = v;
	const struct profile		*p = tr->p;
	const struct aggregate_rows	*set = &tr->b.b.set;
	struct display			*d;
	struct display_block		*t, *l;
	struct columns			 c;
	size_t				 r;
	char				*s, *link;
	struct query			 view;
	int				 cmp = tr->cmp;
	uint32_t			 nc, i, f;

	if (asprintf(&s, "Clique %u (%s)", tr->id, profile_func_name(p,
	    tr->id)) == -1)
		return (NULL);
	d = display_create(s);
	free(s);
	if (d == NULL)
		return (NULL);
	display_text(d, "%lld %s in %lld contexts; %s. The clique's total "
	    "counts its call nodes once; a member's total counts its own "
	    "recursion once.", (long long)tr->n,
	    tr->n == 1 ? "member" : "members", (long long)set->nodes[0],
	    callgraph_recursive(tr->g, tr->id) ? "recursive" :
	    "not recursive");
	if (notes->compared)
		diff_text(d, p, &notes->diff, notes->base_name);
	rows_set_display(d, "clique", "Clique", "all members", p, tr->m, q,
	    set, cmp ? &tr->dd : NULL);

	display_heading(d, "Members");
	columns_init(&c, p, tr->m, q, COLUMNS_SELF | COLUMNS_TOTAL |
	    COLUMNS_SORT);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "members");
	view = *q;
	view.sort = QUERY_SORT_NAME;
	s = query_format(&view);
	display_head(d, t, 0, "Function", s, 0);
	free(s);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	for (i = 0; i < tr->n && i < tr->limit; i++) {
		f = tr->idx[i];
		r = display_row(d, t);
		link = report_func_link(q, f);
		s = report_func_label(p, f);
		display_cell(d, t, r, 0, s ? s : "", link, 0);
		free(s);
		free(link);
		rows_func_display(d, t, r, &c, p, f, cmp ? &tr->dd : NULL);
	}
	rows_butterfly_display(d, "Called from outside",
	    "Calls out of the clique", p, &tr->b, tr->m, q);
	l = display_links(d);
	link = report_cmd_link(q, CMD_CLIQUES);
	display_link(d, l, "all recursive cliques", link);
	free(link);
	columns_controls(d, p, tr->m, q, 1);
	return (d);
}

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

static json_t	*func_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *func_display(const json_t *, const struct query *);

const struct report_entry report_func_entry = {
	.name = "func",
	.title = "Function",
	.formats = "html|json|text",
	.create = func_create,
	.display = func_display,
};

static json_t *
func_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct aggregate_butterfly	 b;
	struct aggregate_spec		 spec;
	struct rows_spec		 rs;
	const struct callgraph		*g = NULL;
	uint8_t				*in = NULL;
	json_t				*j = NULL, *fo, *a;
	uint32_t			 f;
	int				 m, sort, sm;
	int64_t				 matched;
	struct diff			 dd;
	int				 cmp = diff_init(&dd, p, q);
	int				 ds = diff_sort(cmp, q);

	memset(&b, 0, sizeof b);
	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((sort = diff_report_sort(&dd, ds, p, q, m, &sm, e)) == -1)
		return (NULL);
	if ((f = report_func_find(p, q, e)) == PROFILE_NONE)
		return (NULL);
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL ||
	    (in = calloc(p->nfuncs, 1)) == NULL)
		goto nomem;
	in[f] = 1;
	spec.in = in;
	spec.internal = 1;
	spec.callers_by = AGGREGATE_FUNC;
	spec.callees_by = AGGREGATE_FUNC;
	spec.clique = g->clique;
	if (aggregate_butterfly(p, profile_index_aggregate(ctx->index,
	    ctx->cost), &spec, &b, ctx->cost) == -1)
		goto nomem;

	if ((j = report_new("func")) == NULL ||
	    report_metrics(j, p, m) == -1 ||
	    (fo = report_func(p, f)) == NULL ||
	    json_object_set_new(j, "function", fo) == -1)
		goto nomem;
	json_object_set_new(fo, "clique", json_integer(g->clique[f]));
	json_object_set_new(fo, "recursive",
	    json_boolean(callgraph_recursive(g, g->clique[f])));
	json_object_set_new(fo, "contexts", json_integer(b.set.nodes[0]));
	/* A call graph counts the calls into the function. */
	if (b.set.calls != NULL)
		json_object_set_new(fo, "calls",
		    json_integer((json_int_t)b.set.calls[0]));
	json_object_set_new(fo, "self", report_row_values(p, b.set.self));
	json_object_set_new(fo, "total", report_row_values(p, b.set.total));
	if (cmp && diff_add_values(fo, &dd, b.set.self, b.set.total) == -1)
		goto nomem;

	memset(&rs, 0, sizeof rs);
	rs.by = AGGREGATE_FUNC;
	rs.graph = g;
	rs.clique = g->clique[f];
	rs.sort = sort;
	rs.metric = sm;
	rs.diff = cmp ? &dd : NULL;
	rs.diffsort = ds;
	rs.from = 0;
	rs.limit = query_int(q, QUERY_LIMIT);
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
	json_decref(j);
	j = NULL;
done:
	aggregate_butterfly_clear(&b);
	free(in);
	return (j);
}

static struct display *
func_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t, *l;
	struct columns		 c;
	const json_t		*fo = json_object_get(j, "function");
	const char		*name = report_string(fo, "name");
	const char		*module = report_string(fo, "module");
	char			*title, *link, *s, id[32];
	size_t			 r;
	static const char *const bys[] = { "site", "module", "clique" };
	size_t			 i;
	int			 cmp = json_object_get(j, "comparison") != NULL;
	uint32_t		 nc;

	if (asprintf(&title, "Function %s", name) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	if (*module != '\0')
		display_text(d, "Module %s.", module);
	if (json_object_get(fo, "line") != NULL)
		display_text(d, "Defined in %s:%lld.", report_string(fo,
		    "file"), (long long)report_integer(fo, "line"));
	else if (json_object_get(fo, "file") != NULL)
		display_text(d, "Defined in %s.", report_string(fo, "file"));
	columns_metrics_json(d, j, q);
	diff_text(d, j);
	diff_controls(d, j, q, 1);
	if (json_object_get(fo, "calls") != NULL)
		display_text(d, "Called %lld time%s by %lld caller%s%s.",
		    (long long)report_integer(fo, "calls"),
		    report_integer(fo, "calls") == 1 ? "" : "s",
		    (long long)report_integer(fo, "contexts"),
		    report_integer(fo, "contexts") == 1 ? "" : "s",
		    json_is_true(json_object_get(fo, "recursive")) ?
		    "; in a cycle or recursive" : "");
	else
		display_text(d, "Called in %lld context%s%s.",
		    (long long)report_integer(fo, "contexts"),
		    report_integer(fo, "contexts") == 1 ? "" : "s",
		    json_is_true(json_object_get(fo, "recursive")) ?
		    "; recursive" : "");

	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), "function");
	display_head(d, t, 0, "Function", NULL, 0);
	columns_head(d, t, 1, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	r = display_row(d, t);
	display_cell(d, t, r, 0, name, NULL, DISPLAY_STRONG);
	columns_row(d, t, r, 1, &c, json_object_get(fo, "self"),
	    json_object_get(fo, "total"));
	diff_row(d, t, r, nc, fo);

	if (asprintf(&s, "Callers (%lld)", (long long)report_integer(j,
	    "ncallers")) != -1) {
		rows_display(d, s, json_object_get(j, "callers"), "func", q,
		    j);
		free(s);
	}
	if (asprintf(&s, "Callees (%lld)", (long long)report_integer(j,
	    "ncallees")) != -1) {
		rows_display(d, s, json_object_get(j, "callees"), "func", q,
		    j);
		free(s);
	}

	display_heading(d, "See also");
	l = display_links(d);
	snprintf(id, sizeof id, "%lld", (long long)report_integer(fo,
	    "func"));
	for (i = 0; i < sizeof bys / sizeof bys[0]; i++) {
		link = report_goto(q, "callers", QUERY_FUNC, id, QUERY_BY,
		    bys[i], -1);
		if (asprintf(&s, "callers by %s", bys[i]) != -1) {
			display_link(d, l, s, link);
			free(s);
		}
		free(link);
	}
	link = report_goto(q, "module", QUERY_MODULE, *module ? module : NULL,
	    -1);
	display_link(d, l, "its module", link);
	free(link);
	if (json_is_true(json_object_get(fo, "recursive"))) {
		snprintf(id, sizeof id, "%lld", (long long)report_integer(fo,
		    "clique"));
		link = report_goto(q, "clique", QUERY_CLIQUE, id, -1);
		display_link(d, l, "its clique", link);
		free(link);
	}
	columns_controls(d, j, q, 1);
	return (d);
}

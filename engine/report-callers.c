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
 * cmd=callers: the callers of one function (func=) over all contexts,
 * grouped by=func (the calling function), module (its module), clique
 * (its clique) or site. A site is a static call site where the profile
 * has them (the extra_site hook, for Mercury), else the caller's call
 * node, shown as the calling function and its call node path. Each row
 * counts recursion once (aggregate.h); rows are paged by from= and
 * limit=, like Mercury's bunches. With base= rows compare as on the func
 * page.
 */

static json_t	*callers_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *callers_display(const json_t *, const struct query *);

const struct report_entry report_callers_entry = {
	.name = "callers",
	.title = "Callers",
	.formats = "html|json|text",
	.create = callers_create,
	.display = callers_display,
};

static json_t *
callers_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct aggregate_butterfly	 b;
	struct aggregate_spec		 spec;
	struct rows_spec		 rs;
	const struct callgraph		*g = NULL;
	uint8_t				*in = NULL;
	json_t				*j = NULL, *fo, *a;
	const char			*by = query_str(q, QUERY_BY);
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
	memset(&spec, 0, sizeof spec);
	spec.callers_by = strcmp(by, "site") == 0 ? AGGREGATE_SITE :
	    strcmp(by, "module") == 0 ? AGGREGATE_MODULE :
	    strcmp(by, "clique") == 0 ? AGGREGATE_CLIQUE : AGGREGATE_FUNC;
	/* A call graph's only call sites are the calling functions. */
	if (p->funcgraph != NULL && spec.callers_by == AGGREGATE_SITE)
		spec.callers_by = AGGREGATE_FUNC;
	spec.callees_by = AGGREGATE_FUNC;
	spec.internal = 1;
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL ||
	    (in = calloc(p->nfuncs, 1)) == NULL)
		goto nomem;
	in[f] = 1;
	spec.in = in;
	spec.clique = g->clique;
	if (aggregate_butterfly(p, profile_index_aggregate(ctx->index,
	    ctx->cost), &spec, &b, ctx->cost) == -1)
		goto nomem;

	if ((j = report_new("callers")) == NULL ||
	    report_metrics(j, p, m) == -1 ||
	    (fo = report_func(p, f)) == NULL ||
	    json_object_set_new(j, "function", fo) == -1)
		goto nomem;
	json_object_set_new(j, "by", json_string(rows_by_name(
	    spec.callers_by)));
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
	json_object_set_new(j, "sites", json_string(p->extra_site != NULL ?
	    "static" : "call nodes"));

	memset(&rs, 0, sizeof rs);
	rs.by = spec.callers_by;
	rs.graph = g;
	rs.clique = g->clique[f];
	rs.sort = sort;
	rs.metric = sm;
	rs.diff = cmp ? &dd : NULL;
	rs.diffsort = ds;
	rs.from = query_int(q, QUERY_FROM);
	rs.limit = query_int(q, QUERY_LIMIT);
	if ((a = rows_json(p, &b.callers, &rs, &matched)) == NULL ||
	    json_object_set_new(j, "rows", a) == -1)
		goto nomem;
	json_object_set_new(j, "matched", json_integer(matched));
	json_object_set_new(j, "from", json_integer(rs.from));
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
callers_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*l;
	const json_t		*fo = json_object_get(j, "function");
	const char		*by = report_string(j, "by");
	char			*title, *link, *s;
	size_t			 i;
	static const char *const bys[] = { "func", "site", "module",
	    "clique" };

	if (asprintf(&title, "Callers of %s by %s", report_string(fo, "name"),
	    strcmp(by, "func") == 0 ? "function" : by) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	diff_text(d, j);
	l = display_links(d);
	link = report_func_link(q, report_integer(fo, "func"));
	display_link(d, l, "the function", link);
	free(link);
	for (i = 0; i < sizeof bys / sizeof bys[0]; i++) {
		if (strcmp(bys[i], by) == 0)
			continue;
		link = report_link(q, QUERY_BY, bys[i], QUERY_FROM, NULL, -1);
		if (asprintf(&s, "by %s", strcmp(bys[i], "func") == 0 ?
		    "function" : bys[i]) != -1) {
			display_link(d, l, s, link);
			free(s);
		}
		free(link);
	}
	if (strcmp(by, "site") == 0)
		display_text(d, "%s", strcmp(report_string(j, "sites"),
		    "static") == 0 ? "Sites are the static call sites of the "
		    "program." : "The profile has no static call sites: a "
		    "site is the calling function at one call node path.");
	display_text(d, "%lld caller %s%s; %s is called in %lld context%s.",
	    (long long)report_integer(j, "matched"),
	    strcmp(by, "func") == 0 ? "function" : strcmp(by, "site") == 0 ?
	    "site" : by, report_integer(j, "matched") == 1 ? "" : "s",
	    report_string(fo, "name"), (long long)report_integer(fo,
	    "contexts"), report_integer(fo, "contexts") == 1 ? "" : "s");
	rows_display(d, NULL, json_object_get(j, "rows"), by, q, j);
	columns_pager(d, j, q);
	columns_controls(d, j, q, 1);
	return (d);
}

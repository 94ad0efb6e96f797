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
	struct rows_of_func		 fb;
	const struct profile		*origin; /* its source page's */
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
	struct func_result	*t;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->origin = report_origin(p, ctx);
	if (rows_of_func(&t->fb, p, q, ctx, e, AGGREGATE_FUNC, 0, 1) == -1) {
		func_free(t);
		return (NULL);
	}
	return (t);
}

static void
func_free(void *v)
{
	struct func_result	*t = v;

	if (t == NULL)
		return;
	rows_of_func_clear(&t->fb);
	free(t);
}

/* cmd=func as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
func_json(const void *v, const struct query *q)
{
	const struct func_result	*t = v;
	json_t				*j;

	(void)q;
	if ((j = report_new(CMD_FUNC)) == NULL ||
	    rows_of_func_json(j, &t->fb) == -1 ||
	    rows_butterfly_json(j, t->fb.p, &t->fb.b) == -1) {
		json_decref(j);
		return (NULL);
	}
	return (j);
}

/* cmd=func's page, from the butterfly and the profile. */
static struct display *
func_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct func_result	*r = v;
	const struct rows_of_func	*tr = &r->fb;
	const struct profile		*p = tr->p;
	const struct aggregate_rows	*set = &tr->b.b.set;
	struct display			*d;
	struct display_block		*l;
	struct reader_view_info		 vi;
	uint32_t			 f = tr->f;
	const char			*name = profile_func_name(p, f);
	const char			*module = profile_func_module(p, f);
	char				*title, *link, *s, id[32];
	size_t				 i;
	static const enum query_by bys[] = { QUERY_BY_SITE, QUERY_BY_MODULE,
	    QUERY_BY_CLIQUE };
	struct query			 view;
	int				 cmp = tr->cmp;
	int				 rec = callgraph_recursive(tr->g,
					    tr->g->clique[f]);
	int64_t				 contexts = set->nodes[0];

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

	rows_set_display(d, "function", "Function", name, p, tr->m, q, set,
	    cmp ? &tr->dd : NULL);
	rows_butterfly_display(d, "Callers", "Callees", p, &tr->b, tr->m, q);

	display_heading(d, "See also");
	l = display_links(d);
	if ((link = report_source_link(q, r->origin, f)) != NULL) {
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

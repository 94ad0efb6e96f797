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
#include "json-build.h"
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

/* The result: the function, its butterfly and the page of caller rows. */
struct callers_result {
	struct rows_of_func		 fb;
	enum aggregate_by		 by;
};

static void	*callers_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*callers_json(const void *, const struct query *);
static struct display *callers_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 callers_free(void *);

const struct report_entry report_callers_entry = {
	.create = callers_create,
	.json = callers_json,
	.display = callers_display,
	.free = callers_free,
};

static void *
callers_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct callers_result	*t;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->by = q->by == QUERY_BY_SITE ? AGGREGATE_SITE :
	    q->by == QUERY_BY_MODULE ? AGGREGATE_MODULE :
	    q->by == QUERY_BY_CLIQUE ? AGGREGATE_CLIQUE : AGGREGATE_FUNC;
	/* A call graph's only call sites are the calling functions. */
	if (p->funcgraph != NULL && t->by == AGGREGATE_SITE)
		t->by = AGGREGATE_FUNC;
	if (rows_of_func(&t->fb, p, q, ctx, e, t->by, q->from, 0) == -1) {
		callers_free(t);
		return (NULL);
	}
	return (t);
}

static void
callers_free(void *v)
{
	struct callers_result	*t = v;

	if (t == NULL)
		return;
	rows_of_func_clear(&t->fb);
	free(t);
}

/* cmd=callers as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
callers_json(const void *v, const struct query *q)
{
	const struct callers_result	*t = v;
	const struct rows_page		*pg = &t->fb.b.callers;
	const struct profile		*p = t->fb.p;
	json_t				*j;
	struct json_build		 jb = JSON_BUILD_INIT;

	(void)q;
	if ((j = report_new(CMD_CALLERS)) == NULL ||
	    rows_of_func_json(j, &t->fb) == -1)
		json_build_fail(&jb);
	else {
		json_build_set(&jb, j, "by", json_string(rows_by_name(t->by)));
		json_build_set(&jb, j, "sites", json_string(p->extra_site !=
		    NULL ? "static" : "call nodes"));
		json_build_set(&jb, j, "rows", rows_page_json(p, pg));
		json_build_set(&jb, j, "matched", json_integer(pg->matched));
		json_build_set(&jb, j, "from", json_integer(pg->spec.from));
	}
	return (json_build_end(&jb, j));
}

/* cmd=callers's page, from the rows and the profile. */
static struct display *
callers_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct callers_result	*r = v;
	const struct rows_of_func	*tr = &r->fb;
	const struct profile		*p = tr->p;
	struct display			*d;
	struct display_block		*l;
	const char			*by = rows_by_name(r->by);
	const char			*name = profile_func_name(p, tr->f);
	char				*title, *link, *s;
	int64_t				 contexts = tr->b.b.set.nodes[0];
	int64_t				 matched = tr->b.callers.matched;
	size_t				 i;
	struct query			 view = *q;
	const char			*other;

	if (asprintf(&title, "Callers of %s by %s", name,
	    strcmp(by, "func") == 0 ? "function" : by) == -1)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	if (notes->compared)
		diff_text(d, p, &notes->diff, notes->base_name);
	l = display_links(d);
	link = report_func_link(q, tr->f);
	display_link(d, l, "the function", link);
	free(link);
	/* The other groupings, from their first row. */
	for (i = 0; (other = query_enum_name(QUERY_BY, i)) != NULL; i++) {
		if (strcmp(other, by) == 0)
			continue;
		view.by = i;
		view.from = 0;
		link = query_format(&view);
		if (asprintf(&s, "by %s", i == QUERY_BY_FUNC ? "function" :
		    other) != -1) {
			display_link(d, l, s, link);
			free(s);
		}
		free(link);
	}
	if (strcmp(by, "site") == 0)
		display_text(d, "%s", p->extra_site != NULL ? "Sites are the "
		    "static call sites of the program." : "The profile has "
		    "no static call sites: a site is the calling function "
		    "at one call node path.");
	display_text(d, "%lld caller %s%s; %s is called in %lld context%s.",
	    (long long)matched, strcmp(by, "func") == 0 ? "function" :
	    strcmp(by, "site") == 0 ? "site" : by, matched == 1 ? "" : "s",
	    name, (long long)contexts, contexts == 1 ? "" : "s");
	rows_page_display(d, NULL, p, &tr->b.callers, tr->m, q);
	columns_pager(d, q, tr->b.callers.spec.from, tr->b.callers.n, matched);
	columns_controls(d, p, tr->m, q, 1);
	return (d);
}

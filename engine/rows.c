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
#include "diff.h"
#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "rows.h"

/* Caller, callee and group rows as JSON and tables (see rows.h). */

static json_t	*row_subject(const struct profile *,
		    const struct aggregate_rows *, const struct rows_spec *,
		    uint32_t);
static const char *row_name(const struct profile *,
		    const struct aggregate_rows *, const struct rows_spec *,
		    uint32_t);
static uint32_t	row_func(const struct profile *,
		    const struct aggregate_rows *, const struct rows_spec *,
		    uint32_t);

/* The by= word for a grouping. */
const char *
rows_by_name(enum aggregate_by by)
{
	switch (by) {
	case AGGREGATE_FUNC:
		return ("func");
	case AGGREGATE_MODULE:
		return ("module");
	case AGGREGATE_CLIQUE:
		return ("clique");
	case AGGREGATE_SITE:
		return ("site");
	}
	return ("func");
}

/* The function at the other end of the call a row's first node made. */
static uint32_t
row_func(const struct profile *p, const struct aggregate_rows *r,
    const struct rows_spec *s, uint32_t i)
{
	uint32_t	 n = r->node[i];

	if (!s->callee)
		n = p->node_parent[n];
	return (p->node_func[n]);
}

/* The name a row sorts by. */
static const char *
row_name(const struct profile *p, const struct aggregate_rows *r,
    const struct rows_spec *s, uint32_t i)
{
	switch (s->by) {
	case AGGREGATE_FUNC:
	case AGGREGATE_CLIQUE:
		return (profile_func_name(p, (uint32_t)r->key[i]));
	case AGGREGATE_MODULE:
		return (profile_string(p, (uint32_t)r->key[i]));
	case AGGREGATE_SITE:
		break;
	}
	return (profile_func_name(p, row_func(p, r, s, i)));
}

static json_t *
row_subject(const struct profile *p, const struct aggregate_rows *r,
    const struct rows_spec *s, uint32_t i)
{
	struct profile_site	 site;
	json_t			*o;
	uint32_t		 f, n;
	char			*path;

	switch (s->by) {
	case AGGREGATE_FUNC:
		f = (uint32_t)r->key[i];
		if ((o = report_func(p, f)) == NULL)
			return (NULL);
		if (s->graph != NULL) {
			json_object_set_new(o, "clique",
			    json_integer(s->graph->clique[f]));
			json_object_set_new(o, "recursive", json_boolean(
			    s->graph->clique[f] == s->clique &&
			    callgraph_recursive(s->graph, s->clique)));
		}
		return (o);
	case AGGREGATE_MODULE:
		return (json_pack("{s:s}", "module", profile_string(p,
		    (uint32_t)r->key[i])));
	case AGGREGATE_CLIQUE:
		f = (uint32_t)r->key[i];
		o = json_pack("{s:i, s:s}", "clique", (json_int_t)f, "name",
		    profile_func_name(p, f));
		if (o != NULL && s->graph != NULL) {
			json_object_set_new(o, "members",
			    json_integer(s->graph->size[f]));
			json_object_set_new(o, "recursive", json_boolean(
			    callgraph_recursive(s->graph, f)));
		}
		return (o);
	case AGGREGATE_SITE:
		break;
	}
	/* A call site: the caller's (callee's) call node, or the hook's. */
	n = r->node[i];
	if ((o = report_func(p, row_func(p, r, s, i))) == NULL)
		return (NULL);
	path = report_path(p, s->callee ? n : p->node_parent[n]);
	if (path != NULL)
		json_object_set_new(o, "path", json_string(path));
	free(path);
	if (!(r->key[i] & AGGREGATE_SITE_NODE) && p->extra_site != NULL &&
	    p->extra_site(p, n, &site) == 0) {
		json_object_set_new(o, "site", json_integer(site.id));
		json_object_set_new(o, "label", json_string(site.label ?
		    site.label : ""));
		if (site.line != 0)
			json_object_set_new(o, "line",
			    json_integer(site.line));
	}
	return (o);
}

/*
 * The rows sorted as the spec says, rows from .. from + limit - 1 of
 * them as a JSON array; *matched gets how many there are in all.
 */
json_t *
rows_json(const struct profile *p, const struct aggregate_rows *r,
    const struct rows_spec *s, int64_t *matched)
{
	json_t		*a = NULL, *o;
	uint32_t	*idx = NULL, i;
	const char	**names = NULL;
	const int64_t	*key = NULL;
	int64_t		*dkey = NULL;

	*matched = r->n;
	if ((a = json_array()) == NULL ||
	    (idx = malloc((r->n ? r->n : 1) * sizeof *idx)) == NULL)
		goto fail;
	for (i = 0; i < r->n; i++)
		idx[i] = i;
	if (s->diff != NULL && s->diffsort != -1) {
		/* sort=delta, ratio: by the change of the row's total. */
		if ((dkey = malloc((r->n ? r->n : 1) * sizeof *dkey)) == NULL)
			goto fail;
		diff_keys(s->diff, s->diffsort, r->total + s->diff->m,
		    r->total + s->diff->bm, r->nmetrics, r->n, dkey);
	} else if (s->sort == REPORT_SORT_NAME) {
		if ((names = malloc((r->n ? r->n : 1) * sizeof *names)) ==
		    NULL)
			goto fail;
		for (i = 0; i < r->n; i++)
			names[i] = row_name(p, r, s, i);
	} else
		key = (s->sort == REPORT_SORT_SELF ? r->self : r->total) +
		    s->metric;
	if (dkey != NULL)
		report_order(idx, r->n, dkey, 1, NULL);
	else
		report_order(idx, r->n, key, r->nmetrics, names);
	for (i = s->from; i < r->n && i < s->from + s->limit; i++) {
		if ((o = row_subject(p, r, s, idx[i])) == NULL ||
		    json_array_append_new(a, o) == -1)
			goto fail;
		if (r->calls != NULL && json_object_set_new(o, "calls",
		    json_integer((json_int_t)r->calls[idx[i]])) == -1)
			goto fail;
		if (json_object_set_new(o, "contexts",
		    json_integer(r->nodes[idx[i]])) == -1 ||
		    json_object_set_new(o, "self", report_row_values(p,
		    r->self + (size_t)idx[i] * r->nmetrics)) == -1 ||
		    json_object_set_new(o, "total", report_row_values(p,
		    r->total + (size_t)idx[i] * r->nmetrics)) == -1 ||
		    (s->diff != NULL && diff_add_values(o, s->diff,
		    r->self + (size_t)idx[i] * r->nmetrics,
		    r->total + (size_t)idx[i] * r->nmetrics) == -1))
			goto fail;
	}
	free(idx);
	free(names);
	free(dkey);
	return (a);
fail:
	free(idx);
	free(names);
	free(dkey);
	json_decref(a);
	return (NULL);
}

/*
 * A table of rows (from rows_json, grouped by `by') under a heading,
 * with the columns the preferences choose; j is the report, for them.
 */
void
rows_display(struct display *d, const char *heading, const json_t *rows,
    const char *by, const struct query *q, const json_t *j)
{
	struct display_block	*t;
	struct display_cell	*cell;
	struct columns		 c;
	const json_t		*row;
	size_t			 i, r;
	char			*link, *s, *label, id[32];
	const char		*what, *path;
	uint32_t		 nc;
	/* Rows made with rows_spec.diff (not every page compares them). */
	int			 cmp = json_object_get(json_array_get(rows, 0),
				    "diff") != NULL;
	/* Rows of a call graph count calls, not call nodes. */
	const char		*count = json_object_get(json_array_get(rows,
				    0), "calls") != NULL ? "calls" : "contexts";

	columns_init(&c, j, q, COLUMNS_SELF | COLUMNS_TOTAL | COLUMNS_SORT);
	if (heading != NULL)
		display_heading(d, heading);
	nc = 2 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), NULL);
	what = strcmp(by, "module") == 0 ? "Module" : strcmp(by, "clique") ==
	    0 ? "Clique" : strcmp(by, "site") == 0 ? "Call site" :
	    "Function";
	s = report_link(q, QUERY_SORT, "name", QUERY_FROM, NULL, -1);
	display_head(d, t, 0, what, s, 0);
	free(s);
	display_head(d, t, 1, strcmp(count, "calls") == 0 ? "Calls" :
	    "Contexts", NULL, DISPLAY_NUM);
	columns_head(d, t, 2, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	json_array_foreach(rows, i, row) {
		r = display_row(d, t);
		link = NULL;
		if (strcmp(by, "module") == 0) {
			link = report_goto(q, "module", QUERY_MODULE,
			    report_string(row, "module"), -1);
			cell = display_cell(d, t, r, 0, *report_string(row,
			    "module") ? report_string(row, "module") :
			    "(no module)", link, 0);
		} else if (strcmp(by, "clique") == 0) {
			snprintf(id, sizeof id, "%lld", (long long)
			    report_integer(row, "clique"));
			link = report_goto(q, "clique", QUERY_CLIQUE, id, -1);
			if (asprintf(&s, "%s (%s: %lld %s)", report_string(row,
			    "name"), id, (long long)report_integer(row,
			    "members"), report_integer(row, "members") == 1 ?
			    "member" : "members") == -1)
				s = NULL;
			cell = display_cell(d, t, r, 0, s ? s :
			    report_string(row, "name"), link, 0);
			free(s);
		} else if (strcmp(by, "site") == 0) {
			path = report_string(row, "path");
			if (json_object_get(row, "path") != NULL)
				link = report_goto(q, "tree", QUERY_PATH,
				    *path ? path : NULL, -1);
			label = report_label(row);
			if (json_object_get(row, "label") != NULL) {
				if (asprintf(&s, "%s (%s)", label ? label : "",
				    report_string(row, "label")) == -1)
					s = NULL;
			} else if (asprintf(&s, "%s [%s]", label ? label : "",
			    path) == -1)
				s = NULL;
			free(label);
			cell = display_cell(d, t, r, 0, s ? s :
			    report_string(row, "name"), link, 0);
			free(s);
			free(link);
			link = report_func_link(q, report_integer(row, "func"));
			display_aux(d, cell, "function", link);
		} else {
			link = report_func_link(q, report_integer(row, "func"));
			label = report_label(row);
			cell = display_cell(d, t, r, 0, label ? label : "",
			    link, json_is_true(json_object_get(row,
			    "recursive")) ? DISPLAY_STRONG : 0);
			free(label);
			if (json_is_true(json_object_get(row, "recursive"))) {
				free(link);
				snprintf(id, sizeof id, "%lld", (long long)
				    report_integer(row, "clique"));
				link = report_goto(q, "clique", QUERY_CLIQUE,
				    id, -1);
				display_aux(d, cell, "recursive", link);
			}
		}
		free(link);
		s = display_number(report_integer(row, count));
		display_cell(d, t, r, 1, s, NULL, DISPLAY_NUM);
		free(s);
		columns_row(d, t, r, 2, &c, json_object_get(row, "self"),
		    json_object_get(row, "total"));
		diff_row(d, t, r, nc, row);
	}
}

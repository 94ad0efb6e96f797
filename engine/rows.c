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
#include "json-build.h"
#include "outbuf.h"
#include "profile.h"
#include "profile-index.h"
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
	struct json_build		 jb = JSON_BUILD_INIT;

	switch (s->by) {
	case AGGREGATE_FUNC:
		f = (uint32_t)r->key[i];
		if ((o = report_func(p, f)) == NULL)
			return (NULL);
		if (s->graph != NULL) {
			json_build_set(&jb, o, "clique",
			    json_integer(s->graph->clique[f]));
			json_build_set(&jb, o, "recursive", json_boolean(
			    s->graph->clique[f] == s->clique &&
			    callgraph_recursive(s->graph, s->clique)));
		}
		return (json_build_end(&jb, o));
	case AGGREGATE_MODULE:
		return (json_pack("{s:s}", "module", profile_string(p,
		    (uint32_t)r->key[i])));
	case AGGREGATE_CLIQUE:
		f = (uint32_t)r->key[i];
		o = json_pack("{s:i, s:s}", "clique", (json_int_t)f, "name",
		    profile_func_name(p, f));
		if (o != NULL && s->graph != NULL) {
			json_build_set(&jb, o, "members",
			    json_integer(s->graph->size[f]));
			json_build_set(&jb, o, "recursive", json_boolean(
			    callgraph_recursive(s->graph, f)));
		}
		return (json_build_end(&jb, o));
	case AGGREGATE_SITE:
		break;
	}
	/* A call site: the caller's (callee's) call node, or the hook's. */
	n = r->node[i];
	if ((o = report_func(p, row_func(p, r, s, i))) == NULL)
		return (NULL);
	path = report_path(p, s->callee ? n : p->node_parent[n]);
	if (path != NULL)
		json_build_set(&jb, o, "path", json_string(path));
	free(path);
	if (!(r->key[i] & AGGREGATE_SITE_NODE) && p->extra_site != NULL &&
	    p->extra_site(p, n, &site) == 0) {
		json_build_set(&jb, o, "site", json_integer(site.id));
		json_build_set(&jb, o, "label", json_string(site.label ?
		    site.label : ""));
		if (site.line != 0)
			json_build_set(&jb, o, "line",
			    json_integer(site.line));
	}
	return (json_build_end(&jb, o));
}

#define ROWS_VIA	3	/* callers named on a site's row */

/*
 * A call site with no static site of its own (the call node of function
 * f at node n): its name, its source line where the profile knows it,
 * and the callers it is reached through, by name (the nearest
 * ROWS_VIA): "app`apply (eval.c:line 42), via main > eval" (with
 * U+203A for '>'). NULL if out of memory.
 */
static char *
rows_site_label(const struct profile *p, const char *label, uint32_t f,
    uint32_t n)
{
	struct outbuf	 ob;
	const char	*v[ROWS_VIA];
	uint32_t	 m, k = 0, more = 0;
	size_t		 len;

	outbuf_init(&ob);
	outbuf_puts(&ob, label ? label : profile_func_name(p, f));
	if (p->func_line[f] != 0) {
		outbuf_puts(&ob, " (");
		if (p->func_file[f] != 0)
			outbuf_printf(&ob, "%s:", profile_string(p,
			    p->func_file[f]));
		outbuf_printf(&ob, "line %u)", p->func_line[f]);
	}
	for (m = n < p->nnodes ? p->node_parent[n] : PROFILE_ROOT;
	    m != PROFILE_ROOT && m != PROFILE_NONE; m = p->node_parent[m]) {
		if (k == ROWS_VIA) {
			more = 1;
			break;
		}
		v[k++] = profile_func_name(p, p->node_func[m]);
	}
	if (k > 0)
		outbuf_puts(&ob, more ? ", via \xe2\x80\xa6 \xe2\x80\xba " :
		    ", via ");
	while (k > 0) {
		outbuf_puts(&ob, v[--k]);
		if (k > 0)
			outbuf_puts(&ob, " \xe2\x80\xba ");
	}
	return (outbuf_take(&ob, &len));
}

/*
 * Sort the rows r as the spec says and keep rows from .. from + limit - 1
 * of them as the page pg (r and the spec's pointers must outlive it). -1
 * if out of memory; rows_page_clear() frees pg either way.
 */
int
rows_page(struct rows_page *pg, const struct profile *p,
    const struct aggregate_rows *r, const struct rows_spec *s)
{
	uint32_t	*idx = NULL, i;
	const char	**names = NULL;
	const int64_t	*key = NULL;
	int64_t		*dkey = NULL;
	int		 rc = -1;

	memset(pg, 0, sizeof *pg);
	pg->r = r;
	pg->spec = *s;
	pg->matched = r->n;
	if ((idx = malloc((r->n ? r->n : 1) * sizeof *idx)) == NULL)
		goto done;
	for (i = 0; i < r->n; i++)
		idx[i] = i;
	if (s->diff != NULL && s->diffsort != -1) {
		/* sort=delta, ratio: by the change of the row's total. */
		if ((dkey = malloc((r->n ? r->n : 1) * sizeof *dkey)) == NULL)
			goto done;
		diff_keys(s->diff, s->diffsort, r->total + s->diff->m,
		    r->total + s->diff->bm, r->nmetrics, r->n, dkey);
	} else if (s->sort == REPORT_SORT_NAME) {
		if ((names = malloc((r->n ? r->n : 1) * sizeof *names)) ==
		    NULL)
			goto done;
		for (i = 0; i < r->n; i++)
			names[i] = row_name(p, r, s, i);
	} else
		key = (s->sort == REPORT_SORT_SELF ? r->self : r->total) +
		    s->metric;
	if (dkey != NULL)
		report_order(idx, r->n, dkey, 1, NULL);
	else
		report_order(idx, r->n, key, r->nmetrics, names);
	/* The page's rows to the front. */
	for (i = s->from; i < r->n && i < s->from + s->limit; i++)
		idx[pg->n++] = idx[i];
	pg->idx = idx;
	idx = NULL;
	rc = 0;
done:
	free(idx);
	free(names);
	free(dkey);
	return (rc);
}

void
rows_page_clear(struct rows_page *pg)
{
	free(pg->idx);
	pg->idx = NULL;
	pg->n = 0;
}

/*
 * The subject of a butterfly page (cmd=func, cmd=callers): function f's
 * object with its clique, the call nodes summed, a call graph's calls
 * into it, its values (set: the butterfly's one row) and, with dd, the
 * comparison. NULL if out of memory.
 */
json_t *
rows_subject_json(const struct profile *p, const struct callgraph *g,
    uint32_t f, const struct aggregate_rows *set, const struct diff *dd)
{
	json_t	*fo;

	if ((fo = report_func(p, f)) == NULL)
		return (NULL);
	if (json_object_set_new(fo, "clique", json_integer(g->clique[f])) ==
	    -1 || json_object_set_new(fo, "recursive",
	    json_boolean(callgraph_recursive(g, g->clique[f]))) == -1 ||
	    json_object_set_new(fo, "contexts", json_integer(set->nodes[0])) ==
	    -1 || (set->calls != NULL && json_object_set_new(fo, "calls",
	    json_integer((json_int_t)set->calls[0])) == -1) ||
	    json_object_set_new(fo, "self", report_row_values(p, set->self)) ==
	    -1 || json_object_set_new(fo, "total", report_row_values(p,
	    set->total)) == -1 ||
	    (dd != NULL && diff_add_values(fo, dd, set->self, set->total) ==
	    -1)) {
		json_decref(fo);
		return (NULL);
	}
	return (fo);
}

/* The page's rows as a JSON array (rows.h); NULL if out of memory. */
json_t *
rows_page_json(const struct profile *p, const struct rows_page *pg)
{
	const struct aggregate_rows	*r = pg->r;
	const struct rows_spec		*s = &pg->spec;
	json_t				*a, *o;
	uint32_t			 i, x;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < pg->n; i++) {
		x = pg->idx[i];
		if ((o = row_subject(p, r, s, x)) == NULL ||
		    json_array_append_new(a, o) == -1)
			goto fail;
		if (r->calls != NULL && json_object_set_new(o, "calls",
		    json_integer((json_int_t)r->calls[x])) == -1)
			goto fail;
		if (json_object_set_new(o, "contexts",
		    json_integer(r->nodes[x])) == -1 ||
		    json_object_set_new(o, "self", report_row_values(p,
		    r->self + (size_t)x * r->nmetrics)) == -1 ||
		    json_object_set_new(o, "total", report_row_values(p,
		    r->total + (size_t)x * r->nmetrics)) == -1 ||
		    (s->diff != NULL && diff_add_values(o, s->diff,
		    r->self + (size_t)x * r->nmetrics,
		    r->total + (size_t)x * r->nmetrics) == -1))
			goto fail;
	}
	return (a);
fail:
	json_decref(a);
	return (NULL);
}

/*
 * The first cell of a row: what it is keyed by, with its links. The
 * text is made as the row's JSON subject (row_subject()) has it.
 */
static void
rows_subject_cell(struct display *d, struct display_block *t, size_t r,
    const struct profile *p, const struct rows_page *pg, uint32_t x,
    const struct query *q)
{
	const struct aggregate_rows	*rw = pg->r;
	const struct rows_spec		*s = &pg->spec;
	const struct callgraph		*g = s->graph;
	struct display_cell		*cell;
	struct profile_site		 site;
	const char			*module;
	char				*link = NULL, *str, *label, *path;
	char				 id[32];
	uint32_t			 f, n, members;
	int				 rec;

	switch (s->by) {
	case AGGREGATE_MODULE:
		module = profile_string(p, (uint32_t)rw->key[x]);
		link = report_module_link(q, module);
		display_cell(d, t, r, 0, *module ? module : "(no module)",
		    link, 0);
		break;
	case AGGREGATE_CLIQUE:
		f = (uint32_t)rw->key[x];
		members = g != NULL ? g->size[f] : 0;
		snprintf(id, sizeof id, "%u", f);
		link = report_clique_link(q, f);
		if (asprintf(&str, "%s (%s: %u %s)", profile_func_name(p, f),
		    id, members, members == 1 ? "member" : "members") == -1)
			str = NULL;
		display_cell(d, t, r, 0, str ? str : profile_func_name(p, f),
		    link, 0);
		free(str);
		break;
	case AGGREGATE_SITE:
		n = rw->node[x];
		f = row_func(p, rw, s, x);
		path = report_path(p, s->callee ? n : p->node_parent[n]);
		link = report_node_link(q, p, s->callee ? n :
		    p->node_parent[n]);
		label = report_func_label(p, f);
		if (!(rw->key[x] & AGGREGATE_SITE_NODE) &&
		    p->extra_site != NULL && p->extra_site(p, n, &site) == 0) {
			if (asprintf(&str, "%s (%s)", label ? label : "",
			    site.label ? site.label : "") == -1)
				str = NULL;
		} else
			str = rows_site_label(p, label, f, s->callee ? n :
			    p->node_parent[n]);
		free(label);
		free(path);
		cell = display_cell(d, t, r, 0, str ? str :
		    profile_func_name(p, f), link, 0);
		free(str);
		free(link);
		link = report_func_link(q, f);
		display_aux(d, cell, "function", link);
		break;
	case AGGREGATE_FUNC:
		f = (uint32_t)rw->key[x];
		rec = g != NULL && g->clique[f] == s->clique &&
		    callgraph_recursive(g, s->clique);
		link = report_func_link(q, f);
		label = report_func_label(p, f);
		cell = display_cell(d, t, r, 0, label ? label : "", link,
		    rec ? DISPLAY_STRONG : 0);
		free(label);
		if (rec) {
			free(link);
			link = report_clique_link(q, g->clique[f]);
			display_aux(d, cell, "recursive", link);
		}
		break;
	}
	free(link);
}

/*
 * A table of the page's rows under a heading (or none), with the
 * columns the preferences choose for metric m (the report's).
 */
void
rows_page_display(struct display *d, const char *heading,
    const struct profile *p, const struct rows_page *pg, int m,
    const struct query *q)
{
	const struct aggregate_rows	*rw = pg->r;
	const struct rows_spec		*s = &pg->spec;
	struct display_block		*t;
	struct columns			 c;
	size_t				 r;
	char				*str;
	const char			*what;
	uint32_t			 nc, i, x;
	/* As in the JSON: compared when the rows say so, and have some. */
	int				 cmp = s->diff != NULL && pg->n > 0;
	/* Rows of a call graph count calls, not call nodes. */
	int				 calls = rw->calls != NULL &&
					    pg->n > 0;

	columns_init(&c, p, m, q, COLUMNS_SELF | COLUMNS_TOTAL |
	    COLUMNS_SORT);
	if (heading != NULL)
		display_heading(d, heading);
	nc = 2 + columns_count(&c);
	t = display_table(d, nc + (cmp ? DIFF_COLUMNS : 0), NULL);
	what = s->by == AGGREGATE_MODULE ? "Module" : s->by ==
	    AGGREGATE_CLIQUE ? "Clique" : s->by == AGGREGATE_SITE ?
	    "Call site" : "Function";
	str = report_sort_link(q, QUERY_SORT_NAME);
	display_head(d, t, 0, what, str, 0);
	free(str);
	display_head(d, t, 1, calls ? "Calls" : "Contexts", NULL,
	    DISPLAY_NUM);
	columns_head(d, t, 2, &c, q);
	if (cmp)
		diff_head(d, t, nc);
	for (i = 0; i < pg->n; i++) {
		x = pg->idx[i];
		r = display_row(d, t);
		rows_subject_cell(d, t, r, p, pg, x, q);
		str = display_number(calls ? (int64_t)rw->calls[x] :
		    rw->nodes[x]);
		display_cell(d, t, r, 1, str, NULL, DISPLAY_NUM);
		free(str);
		rows_values_display(d, t, r, 2, &c, cmp ? s->diff : NULL,
		    rw->self + (size_t)x * rw->nmetrics,
		    rw->total + (size_t)x * rw->nmetrics);
	}
}

/*
 * The values of a row from column col: the columns c chooses of self
 * and total (one value a metric), then with dd the comparison's.
 */
void
rows_values_display(struct display *d, struct display_block *t, size_t r,
    uint32_t col, const struct columns *c, const struct diff *dd,
    const int64_t *sv, const int64_t *tv)
{
	columns_row(d, t, r, col, c, sv, tv);
	if (dd != NULL)
		diff_row(d, t, r, col + columns_count(c), dd, sv[dd->m],
		    sv[dd->bm], tv[dd->m], tv[dd->bm]);
}

/*
 * Function f's values on a table of functions (cmd=top, search, a
 * module's or a clique's members), from column 1.
 */
void
rows_func_display(struct display *d, struct display_block *t, size_t r,
    const struct columns *c, const struct profile *p, uint32_t f,
    const struct diff *dd)
{
	int64_t		 sv[PROFILE_MAX_METRICS];
	int64_t		 tv[PROFILE_MAX_METRICS];
	uint32_t	 k;

	for (k = 0; k < p->nmetrics && k < PROFILE_MAX_METRICS; k++) {
		sv[k] = p->metrics[k].func_self[f];
		tv[k] = p->metrics[k].func_total[f];
	}
	rows_values_display(d, t, r, 1, c, dd, sv, tv);
}

/*
 * Function f as a row of a table of functions: report_func()'s subject,
 * "self", "total" and with dd "diff". NULL if out of memory.
 */
json_t *
rows_func_json(const struct profile *p, uint32_t f, const struct diff *dd)
{
	json_t	*o;

	if ((o = report_func(p, f)) == NULL)
		return (NULL);
	if (json_object_set_new(o, "self", report_func_values(p, 0, f)) ==
	    -1 || json_object_set_new(o, "total", report_func_values(p, 1,
	    f)) == -1 || (dd != NULL && diff_add(o, p, dd, 1, f) == -1)) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/*
 * The one-row table of a page's subject (a function, a clique, a
 * module): its label strong, the sums of set's first row, with dd
 * compared.
 */
void
rows_set_display(struct display *d, const char *id, const char *head,
    const char *label, const struct profile *p, int m, const struct query *q,
    const struct aggregate_rows *set, const struct diff *dd)
{
	struct display_block	*t;
	struct columns		 c;
	uint32_t		 nc;
	size_t			 r;

	columns_init(&c, p, m, q, COLUMNS_SELF | COLUMNS_TOTAL);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + (dd != NULL ? DIFF_COLUMNS : 0), id);
	display_head(d, t, 0, head, NULL, 0);
	columns_head(d, t, 1, &c, q);
	if (dd != NULL)
		diff_head(d, t, nc);
	r = display_row(d, t);
	display_cell(d, t, r, 0, label, NULL, DISPLAY_STRONG);
	rows_values_display(d, t, r, 1, &c, dd, set->self, set->total);
}

/*
 * Sum the butterfly of the functions in[] (internal: rows between two
 * members too) and page its callers (keyed by s->by) and, with
 * s->callee, its callees by function, from s. -1 with the budget's
 * error or out of memory (report_error_cost()).
 */
int
rows_butterfly(struct rows_butterfly *rb, const struct profile *p,
    const struct report_context *ctx, const uint8_t *in, int internal,
    const struct rows_spec *s)
{
	struct aggregate_spec	 spec;
	struct rows_spec	 rs = *s;

	memset(rb, 0, sizeof *rb);
	memset(&spec, 0, sizeof spec);
	spec.in = in;
	spec.internal = internal;
	spec.callers_by = s->by;
	spec.callees_by = AGGREGATE_FUNC;
	spec.clique = s->graph->clique;
	if (aggregate_butterfly(p, profile_index_aggregate(ctx->index,
	    ctx->cost), &spec, &rb->b, ctx->cost) == -1)
		return (-1);
	rs.callee = 0;
	if (rows_page(&rb->callers, p, &rb->b.callers, &rs) == -1)
		return (-1);
	if (!s->callee)
		return (0);
	rs.callee = 1;
	rs.by = AGGREGATE_FUNC;
	return (rows_page(&rb->callees, p, &rb->b.callees, &rs));
}

void
rows_butterfly_clear(struct rows_butterfly *rb)
{
	rows_page_clear(&rb->callers);
	rows_page_clear(&rb->callees);
	aggregate_butterfly_clear(&rb->b);
}

/*
 * "callers", "ncallers", "callees" and "ncallees" of a butterfly page
 * (cmd=func, cmd=clique). -1 if out of memory.
 */
int
rows_butterfly_json(json_t *j, const struct profile *p,
    const struct rows_butterfly *rb)
{
	if (json_object_set_new(j, "callers", rows_page_json(p,
	    &rb->callers)) == -1 ||
	    json_object_set_new(j, "ncallers",
	    json_integer(rb->callers.matched)) == -1 ||
	    json_object_set_new(j, "callees", rows_page_json(p,
	    &rb->callees)) == -1 ||
	    json_object_set_new(j, "ncallees",
	    json_integer(rb->callees.matched)) == -1)
		return (-1);
	return (0);
}

/*
 * The tables of callers and callees of a butterfly page, under their
 * headings with the row count: "Callers (12)"; metric m's columns.
 */
void
rows_butterfly_display(struct display *d, const char *callers,
    const char *callees, const struct profile *p,
    const struct rows_butterfly *rb, int m, const struct query *q)
{
	char	*s;

	if (asprintf(&s, "%s (%lld)", callers,
	    (long long)rb->callers.matched) != -1) {
		rows_page_display(d, s, p, &rb->callers, m, q);
		free(s);
	}
	if (asprintf(&s, "%s (%lld)", callees,
	    (long long)rb->callees.matched) != -1) {
		rows_page_display(d, s, p, &rb->callees, m, q);
		free(s);
	}
}

/*
 * "contexts", "self" and "total" of row x of a grouping (a module, a
 * clique) into its object o, with dd "diff". -1 if out of memory.
 */
int
rows_group_json(json_t *o, const struct profile *p,
    const struct aggregate_rows *r, uint32_t x, const struct diff *dd)
{
	const int64_t	*sv = r->self + (size_t)x * r->nmetrics;
	const int64_t	*tv = r->total + (size_t)x * r->nmetrics;

	if (o == NULL ||
	    json_object_set_new(o, "contexts", json_integer(r->nodes[x])) ==
	    -1 || json_object_set_new(o, "self", report_row_values(p, sv)) ==
	    -1 || json_object_set_new(o, "total", report_row_values(p, tv)) ==
	    -1 || (dd != NULL && diff_add_values(o, dd, sv, tv) == -1))
		return (-1);
	return (0);
}

/*
 * The butterfly of the function func= names, its callers keyed by by
 * from row from, its callees by function too with callee: ranked by
 * metric= and sort=, compared with base=. rf is zeroed by the caller;
 * -1 with *e, and rf for rows_of_func_clear(), on failure.
 */
int
rows_of_func(struct rows_of_func *rf, const struct profile *p,
    const struct query *q, const struct report_context *ctx,
    struct report_error *e, enum aggregate_by by, int64_t from, int callee)
{
	struct rows_spec	 rs;
	uint8_t			*in;
	int			 sort, sm, ds;

	rf->p = p;
	rf->cmp = diff_init(&rf->dd, p, q);
	ds = diff_sort(rf->cmp, q);
	if ((rf->m = report_metric(p, q, e)) == -1 ||
	    (sort = diff_report_sort(&rf->dd, ds, p, q, rf->m, &sm, e)) ==
	    -1 || (rf->f = report_func_find(p, q, e)) == PROFILE_NONE ||
	    report_rates_check(p, e) == -1)
		return (-1);
	if ((rf->g = profile_index_callgraph(ctx->index, ctx->cost)) ==
	    NULL || (in = calloc(p->nfuncs, 1)) == NULL)
		return (report_error_cost(e, ctx->cost));
	in[rf->f] = 1;
	memset(&rs, 0, sizeof rs);
	rs.by = by;
	rs.graph = rf->g;
	rs.clique = rf->g->clique[rf->f];
	rs.sort = sort;
	rs.metric = sm;
	rs.diff = rf->cmp ? &rf->dd : NULL;
	rs.diffsort = ds;
	rs.from = from;
	rs.limit = q->limit;
	rs.callee = callee;
	if (rows_butterfly(&rf->b, p, ctx, in, 1, &rs) == -1) {
		free(in);
		return (report_error_cost(e, ctx->cost));
	}
	free(in);
	return (0);
}

void
rows_of_func_clear(struct rows_of_func *rf)
{
	rows_butterfly_clear(&rf->b);
}

/*
 * The start of a butterfly report's JSON j: its metrics and "function"
 * (rows_subject_json()). -1 if out of memory.
 */
int
rows_of_func_json(json_t *j, const struct rows_of_func *rf)
{
	if (report_metrics(j, rf->p, rf->m) == -1 ||
	    json_object_set_new(j, "function", rows_subject_json(rf->p,
	    rf->g, rf->f, &rf->b.b.set, rf->cmp ? &rf->dd : NULL)) == -1)
		return (-1);
	return (0);
}

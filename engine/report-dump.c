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

#include "display.h"
#include "json-build.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=dump: the raw tables of the model, for debugging readers and
 * reports (Mercury's dump_* commands): the counts, the metric columns,
 * and rows from .. from + limit - 1 of the function, call node and
 * sample tables. Always bounded by limit=.
 */

/* The result: the profile's tables, rows from .. from + limit - 1. */
struct dump_result {
	const struct profile	*p;
	int			 m;
	int64_t			 from, limit;
	size_t			 memory;
};

static void	*dump_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*dump_json(const void *, const struct query *);
static struct display *dump_display(const void *,
		    const struct report_notes *, const struct query *);
static json_t	*dump_index(uint32_t);
static void	 dump_cell(struct display *, struct display_block *, size_t,
		    uint32_t, int64_t);
static void	 dump_index_cell(struct display *, struct display_block *,
		    size_t, uint32_t, uint32_t);

const struct report_entry report_dump_entry = {
	.create = dump_create,
	.json = dump_json,
	.display = dump_display,
	.free = free,
};

/* An index, or null for none. */
static json_t *
dump_index(uint32_t i)
{
	return (i == PROFILE_NONE ? json_null() : json_integer(i));
}

static void *
dump_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct dump_result	*t;
	int			 m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if (report_rates_check(p, e) == -1)
		return (NULL);
	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->m = m;
	t->from = q->from;
	t->limit = q->limit;
	t->memory = profile_memory(p);
	return (t);
}

/* cmd=dump as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
dump_json(const void *v, const struct query *q)
{
	const struct dump_result	*t = v;
	const struct profile		*p = t->p;
	json_t				*j, *funcs, *nodes, *samples, *o;
	int64_t				 from = t->from, limit = t->limit;
	uint32_t			 i;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new(CMD_DUMP)) == NULL ||
	    report_metrics(j, p, t->m) == -1 ||
	    (funcs = json_array()) == NULL ||
	    json_object_set_new(j, "functions", funcs) == -1 ||
	    (nodes = json_array()) == NULL ||
	    json_object_set_new(j, "nodes", nodes) == -1 ||
	    (samples = json_array()) == NULL ||
	    json_object_set_new(j, "samples", samples) == -1)
		goto nomem;
	json_build_set(&jb, j, "format", json_string(p->format));
	json_build_set(&jb, j, "nfuncs", json_integer(p->nfuncs));
	json_build_set(&jb, j, "nnodes", json_integer(p->nnodes));
	json_build_set(&jb, j, "nsamples", json_integer(p->nsamples));
	json_build_set(&jb, j, "memory", json_integer(t->memory));
	json_build_set(&jb, j, "extra", json_boolean(p->extra != NULL));
	json_build_set(&jb, j, "sites", json_boolean(p->extra_site != NULL));
	json_build_set(&jb, j, "from", json_integer(from));
	for (i = from; i < p->nfuncs && i < from + limit; i++) {
		o = json_pack("{s:i, s:s, s:s, s:s, s:i}", "id", (json_int_t)i,
		    "name", profile_func_name(p, i),
		    "module", profile_func_module(p, i),
		    "file", profile_string(p, p->func_file[i]),
		    "line", (json_int_t)p->func_line[i]);
		if (o == NULL || json_array_append_new(funcs, o) == -1)
			goto nomem;
	}
	for (i = from; i < p->nnodes && i < from + limit; i++) {
		o = json_pack("{s:i, s:o, s:i, s:i, s:o, s:o, s:o, s:o}",
		    "id", (json_int_t)i,
		    "parent", dump_index(p->node_parent[i]),
		    "func", (json_int_t)p->node_func[i],
		    "depth", (json_int_t)p->node_depth[i],
		    "first_child", dump_index(p->node_first_child[i]),
		    "next_sibling", dump_index(p->node_next_sibling[i]),
		    "self", report_node_values(p, 0, i),
		    "total", report_node_values(p, 1, i));
		if (o == NULL || json_array_append_new(nodes, o) == -1)
			goto nomem;
	}
	for (i = from; i < p->nsamples && i < from + limit; i++) {
		o = json_pack("{s:i, s:i, s:I}", "index", (json_int_t)i,
		    "node", (json_int_t)p->sample_node[i],
		    "weight", (json_int_t)profile_sample_weight(p, i));
		if (o == NULL || json_array_append_new(samples, o) == -1)
			goto nomem;
	}
	return (json_build_end(&jb, j));
nomem:
	json_decref(j);
	return (NULL);
}

/* A cell with an integer. */
static void
dump_cell(struct display *d, struct display_block *t, size_t r, uint32_t col,
    int64_t v)
{
	char		 s[32];

	snprintf(s, sizeof s, "%lld", (long long)v);
	display_cell(d, t, r, col, s, NULL, DISPLAY_NUM);
}

/* A cell with an index, blank for none (null in the JSON). */
static void
dump_index_cell(struct display *d, struct display_block *t, size_t r,
    uint32_t col, uint32_t i)
{
	if (i == PROFILE_NONE)
		display_cell(d, t, r, col, "", NULL, DISPLAY_NUM);
	else
		dump_cell(d, t, r, col, i);
}

/* The metrics table: name, unit, rate, sum of the last of each name. */
static void
dump_metrics(struct display *d, const struct profile *p,
    const uint32_t *last)
{
	struct display_block	*t;
	size_t			 r;
	uint32_t		 k;
	double			 rate;
	char			*s;

	display_heading(d, "Metrics");
	t = display_table(d, 4, "metrics");
	display_head(d, t, 0, "Metric", NULL, 0);
	display_head(d, t, 1, "Unit", NULL, 0);
	display_head(d, t, 2, "Per second", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Sum", NULL, DISPLAY_NUM);
	for (k = 0; k < p->nmetrics && k < PROFILE_MAX_METRICS; k++) {
		r = display_row(d, t);
		display_cell(d, t, r, 0, p->metrics[k].name, NULL, 0);
		display_cell(d, t, r, 1, p->metrics[k].unit, NULL, 0);
		s = (rate = profile_metric_rate(p, k)) > 0 ?
		    display_real(rate) : strdup("");
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
		s = display_number(p->metrics[last[k]].sum);
		display_cell(d, t, r, 3, s, NULL, DISPLAY_NUM);
		free(s);
	}
}

/* The functions table, rows from..from+limit. */
static void
dump_functions(struct display *d, const struct profile *p,
    const struct query *q, int64_t from, int64_t limit)
{
	struct display_block	*t;
	size_t			 r;
	uint32_t		 i;
	char			*link;

	display_heading(d, "Functions");
	t = display_table(d, 5, "functions");
	display_head(d, t, 0, "Id", NULL, DISPLAY_NUM);
	display_head(d, t, 1, "Name", NULL, 0);
	display_head(d, t, 2, "Module", NULL, 0);
	display_head(d, t, 3, "File", NULL, 0);
	display_head(d, t, 4, "Line", NULL, DISPLAY_NUM);
	for (i = from; i < p->nfuncs && i < from + limit; i++) {
		r = display_row(d, t);
		dump_cell(d, t, r, 0, i);
		link = i == 0 ? NULL : report_func_link(q, i);
		display_cell(d, t, r, 1, profile_func_name(p, i), link, 0);
		free(link);
		display_cell(d, t, r, 2, profile_func_module(p, i), NULL, 0);
		display_cell(d, t, r, 3, profile_string(p, p->func_file[i]),
		    NULL, 0);
		dump_cell(d, t, r, 4, p->func_line[i]);
	}
}

/* The call nodes table, with self and total of each metric name. */
static void
dump_nodes(struct display *d, const struct profile *p,
    const uint32_t *last, int64_t from, int64_t limit)
{
	struct display_block	*t;
	size_t			 r;
	uint32_t		 i, k, nm = p->nmetrics;
	char			*s;

	display_heading(d, "Call nodes");
	t = display_table(d, 6 + 2 * nm, "nodes");
	display_head(d, t, 0, "Id", NULL, DISPLAY_NUM);
	display_head(d, t, 1, "Parent", NULL, DISPLAY_NUM);
	display_head(d, t, 2, "Function", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Depth", NULL, DISPLAY_NUM);
	display_head(d, t, 4, "First child", NULL, DISPLAY_NUM);
	display_head(d, t, 5, "Next sibling", NULL, DISPLAY_NUM);
	for (k = 0; k < nm && k < PROFILE_MAX_METRICS; k++) {
		if (asprintf(&s, "%s self", p->metrics[k].name) != -1) {
			display_head(d, t, 6 + 2 * k, s, NULL, DISPLAY_NUM);
			free(s);
		}
		if (asprintf(&s, "%s total", p->metrics[k].name) != -1) {
			display_head(d, t, 7 + 2 * k, s, NULL, DISPLAY_NUM);
			free(s);
		}
	}
	for (i = from; i < p->nnodes && i < from + limit; i++) {
		r = display_row(d, t);
		dump_cell(d, t, r, 0, i);
		dump_index_cell(d, t, r, 1, p->node_parent[i]);
		dump_cell(d, t, r, 2, p->node_func[i]);
		dump_cell(d, t, r, 3, p->node_depth[i]);
		dump_index_cell(d, t, r, 4, p->node_first_child[i]);
		dump_index_cell(d, t, r, 5, p->node_next_sibling[i]);
		for (k = 0; k < nm && k < PROFILE_MAX_METRICS; k++) {
			dump_cell(d, t, r, 6 + 2 * k,
			    p->metrics[last[k]].self[i]);
			dump_cell(d, t, r, 7 + 2 * k,
			    p->metrics[last[k]].total[i]);
		}
	}
}

/* The samples table, when the page's rows reach it. */
static void
dump_samples(struct display *d, const struct profile *p, int64_t from,
    int64_t limit)
{
	struct display_block	*t;
	size_t			 r;
	uint32_t		 i;

	if (from >= p->nsamples)
		return;
	display_heading(d, "Samples");
	t = display_table(d, 3, "samples");
	display_head(d, t, 0, "Index", NULL, DISPLAY_NUM);
	display_head(d, t, 1, "Node", NULL, DISPLAY_NUM);
	display_head(d, t, 2, "Weight", NULL, DISPLAY_NUM);
	for (i = from; i < p->nsamples && i < from + limit; i++) {
		r = display_row(d, t);
		dump_cell(d, t, r, 0, i);
		dump_cell(d, t, r, 1, p->sample_node[i]);
		dump_cell(d, t, r, 2, profile_sample_weight(p, i));
	}
}

/* Previous and next rows, over the longest of the three tables. */
static void
dump_pages(struct display *d, const struct profile *p,
    const struct query *q, int64_t from, int64_t limit)
{
	struct display_block	*l;
	struct query		 view = *q;
	int64_t			 most;
	char			*link;

	most = p->nnodes;
	if (p->nfuncs > most)
		most = p->nfuncs;
	if (p->nsamples > most)
		most = p->nsamples;
	l = display_links(d);
	if (from > 0) {
		view.from = from > limit ? from - limit : 0;
		link = query_format(&view);
		display_link(d, l, "previous rows", link);
		free(link);
	}
	if (from + limit < most) {
		view.from = from + limit;
		link = query_format(&view);
		display_link(d, l, "next rows", link);
		free(link);
	}
}

/* cmd=dump's page, from the profile's tables. */
static struct display *
dump_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct dump_result	*tr = v;
	const struct profile		*p = tr->p;
	struct display			*d;
	uint32_t			 k;
	uint32_t			 last[PROFILE_MAX_METRICS];

	/* A row holds one value a name, the last metric's of that name. */
	for (k = 0; k < p->nmetrics && k < PROFILE_MAX_METRICS; k++)
		last[k] = report_metric_last(p, k);
	if ((d = display_create("Raw structures")) == NULL)
		return (NULL);
	display_text(d, "Format %s: %lld functions, %lld call nodes, %lld "
	    "samples, about %lld bytes.%s", p->format,
	    (long long)p->nfuncs, (long long)p->nnodes,
	    (long long)p->nsamples, (long long)tr->memory,
	    p->extra_site != NULL ? " Static call sites are known." : "");
	dump_metrics(d, p, last);
	dump_functions(d, p, q, tr->from, tr->limit);
	dump_nodes(d, p, last, tr->from, tr->limit);
	dump_samples(d, p, tr->from, tr->limit);
	dump_pages(d, p, q, tr->from, tr->limit);
	return (d);
}

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
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=dump: the raw tables of the model, for debugging readers and
 * reports (Mercury's dump_* commands): the counts, the metric columns,
 * and rows from .. from + limit - 1 of the function, call node and
 * sample tables. Always bounded by limit=.
 */

static json_t	*dump_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *dump_display(const json_t *, const struct query *);
static json_t	*dump_index(uint32_t);
static void	 dump_cell(struct display *, struct display_block *, size_t,
		    uint32_t, const json_t *, const char *);

const struct report_entry report_dump_entry = {
	.name = "dump",
	.title = "Raw structures",
	.formats = "html|json|text",
	.create_json = dump_create,
	.display_json = dump_display,
};

/* An index, or null for none. */
static json_t *
dump_index(uint32_t i)
{
	return (i == PROFILE_NONE ? json_null() : json_integer(i));
}

static json_t *
dump_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	json_t		*j, *funcs, *nodes, *samples, *o;
	int64_t		 from = query_int(q, QUERY_FROM);
	int64_t		 limit = query_int(q, QUERY_LIMIT);
	uint32_t	 i;
	int		 m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((j = report_new("dump")) == NULL || report_metrics(j, p, m) == -1 ||
	    (funcs = json_array()) == NULL ||
	    json_object_set_new(j, "functions", funcs) == -1 ||
	    (nodes = json_array()) == NULL ||
	    json_object_set_new(j, "nodes", nodes) == -1 ||
	    (samples = json_array()) == NULL ||
	    json_object_set_new(j, "samples", samples) == -1)
		goto nomem;
	json_object_set_new(j, "format", json_string(p->format));
	json_object_set_new(j, "nfuncs", json_integer(p->nfuncs));
	json_object_set_new(j, "nnodes", json_integer(p->nnodes));
	json_object_set_new(j, "nsamples", json_integer(p->nsamples));
	json_object_set_new(j, "memory", json_integer(profile_memory(p)));
	json_object_set_new(j, "extra", json_boolean(p->extra != NULL));
	json_object_set_new(j, "sites", json_boolean(p->extra_site != NULL));
	json_object_set_new(j, "from", json_integer(from));
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
		o = json_pack("{s:i, s:o, s:i, s:i, s:o, s:o, s:o*, s:o*}",
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
		    "weight", (json_int_t)p->sample_weight[i]);
		if (o == NULL || json_array_append_new(samples, o) == -1)
			goto nomem;
	}
	return (j);
nomem:
	json_decref(j);
	report_error_set(e, 500, "out of memory");
	return (NULL);
}

/* A cell with an integer member of o (blank if null). */
static void
dump_cell(struct display *d, struct display_block *t, size_t r, uint32_t col,
    const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);
	char		 s[32];

	if (json_is_integer(v))
		snprintf(s, sizeof s, "%lld", (long long)json_integer_value(v));
	else
		s[0] = '\0';
	display_cell(d, t, r, col, s, NULL, DISPLAY_NUM);
}

static struct display *
dump_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t, *l;
	const json_t		*metrics = json_object_get(j, "metrics");
	const json_t		*o, *m;
	const char		*name;
	size_t			 i, k, r;
	int64_t			 from = report_integer(j, "from"), most;
	int64_t			 limit = query_int(q, QUERY_LIMIT);
	char			*s, *link, v[32];

	if ((d = display_create("Raw structures")) == NULL)
		return (NULL);
	display_text(d, "Format %s: %lld functions, %lld call nodes, %lld "
	    "samples, about %lld bytes.%s", report_string(j, "format"),
	    (long long)report_integer(j, "nfuncs"),
	    (long long)report_integer(j, "nnodes"),
	    (long long)report_integer(j, "nsamples"),
	    (long long)report_integer(j, "memory"),
	    json_is_true(json_object_get(j, "sites")) ?
	    " Static call sites are known." : "");

	display_heading(d, "Metrics");
	t = display_table(d, 4, "metrics");
	display_head(d, t, 0, "Metric", NULL, 0);
	display_head(d, t, 1, "Unit", NULL, 0);
	display_head(d, t, 2, "Per second", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Sum", NULL, DISPLAY_NUM);
	json_array_foreach(metrics, i, m) {
		name = report_string(m, "name");
		r = display_row(d, t);
		display_cell(d, t, r, 0, name, NULL, 0);
		display_cell(d, t, r, 1, report_string(m, "unit"), NULL, 0);
		s = json_object_get(m, "rate") ? display_real(
		    json_number_value(json_object_get(m, "rate"))) :
		    strdup("");
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
		s = display_number(json_integer_value(json_object_get(
		    json_object_get(j, "totals"), name)));
		display_cell(d, t, r, 3, s, NULL, DISPLAY_NUM);
		free(s);
	}

	display_heading(d, "Functions");
	t = display_table(d, 5, "functions");
	display_head(d, t, 0, "Id", NULL, DISPLAY_NUM);
	display_head(d, t, 1, "Name", NULL, 0);
	display_head(d, t, 2, "Module", NULL, 0);
	display_head(d, t, 3, "File", NULL, 0);
	display_head(d, t, 4, "Line", NULL, DISPLAY_NUM);
	json_array_foreach(json_object_get(j, "functions"), i, o) {
		r = display_row(d, t);
		dump_cell(d, t, r, 0, o, "id");
		link = report_integer(o, "id") == 0 ? NULL :
		    report_func_link(q, report_integer(o, "id"));
		display_cell(d, t, r, 1, report_string(o, "name"), link, 0);
		free(link);
		display_cell(d, t, r, 2, report_string(o, "module"), NULL, 0);
		display_cell(d, t, r, 3, report_string(o, "file"), NULL, 0);
		dump_cell(d, t, r, 4, o, "line");
	}

	display_heading(d, "Call nodes");
	t = display_table(d, 6 + 2 * json_array_size(metrics), "nodes");
	display_head(d, t, 0, "Id", NULL, DISPLAY_NUM);
	display_head(d, t, 1, "Parent", NULL, DISPLAY_NUM);
	display_head(d, t, 2, "Function", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Depth", NULL, DISPLAY_NUM);
	display_head(d, t, 4, "First child", NULL, DISPLAY_NUM);
	display_head(d, t, 5, "Next sibling", NULL, DISPLAY_NUM);
	json_array_foreach(metrics, k, m) {
		if (asprintf(&s, "%s self", report_string(m, "name")) != -1) {
			display_head(d, t, 6 + 2 * k, s, NULL, DISPLAY_NUM);
			free(s);
		}
		if (asprintf(&s, "%s total", report_string(m, "name")) != -1) {
			display_head(d, t, 7 + 2 * k, s, NULL, DISPLAY_NUM);
			free(s);
		}
	}
	json_array_foreach(json_object_get(j, "nodes"), i, o) {
		r = display_row(d, t);
		dump_cell(d, t, r, 0, o, "id");
		dump_cell(d, t, r, 1, o, "parent");
		dump_cell(d, t, r, 2, o, "func");
		dump_cell(d, t, r, 3, o, "depth");
		dump_cell(d, t, r, 4, o, "first_child");
		dump_cell(d, t, r, 5, o, "next_sibling");
		json_array_foreach(metrics, k, m) {
			name = report_string(m, "name");
			dump_cell(d, t, r, 6 + 2 * k, json_object_get(o,
			    "self"), name);
			dump_cell(d, t, r, 7 + 2 * k, json_object_get(o,
			    "total"), name);
		}
	}

	if (json_array_size(json_object_get(j, "samples")) > 0) {
		display_heading(d, "Samples");
		t = display_table(d, 3, "samples");
		display_head(d, t, 0, "Index", NULL, DISPLAY_NUM);
		display_head(d, t, 1, "Node", NULL, DISPLAY_NUM);
		display_head(d, t, 2, "Weight", NULL, DISPLAY_NUM);
		json_array_foreach(json_object_get(j, "samples"), i, o) {
			r = display_row(d, t);
			dump_cell(d, t, r, 0, o, "index");
			dump_cell(d, t, r, 1, o, "node");
			dump_cell(d, t, r, 2, o, "weight");
		}
	}

	most = report_integer(j, "nnodes");
	if (report_integer(j, "nfuncs") > most)
		most = report_integer(j, "nfuncs");
	if (report_integer(j, "nsamples") > most)
		most = report_integer(j, "nsamples");
	l = display_links(d);
	if (from > 0) {
		snprintf(v, sizeof v, "%lld", (long long)(from > limit ?
		    from - limit : 0));
		link = report_link(q, QUERY_FROM, v, -1);
		display_link(d, l, "previous rows", link);
		free(link);
	}
	if (from + limit < most) {
		snprintf(v, sizeof v, "%lld", (long long)(from + limit));
		link = report_link(q, QUERY_FROM, v, -1);
		display_link(d, l, "next rows", link);
		free(link);
	}
	return (d);
}

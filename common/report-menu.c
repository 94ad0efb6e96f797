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

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=menu: the summary of a profile (metrics, totals, counts) and the
 * starting links into the other reports.
 */

static json_t	*menu_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *menu_display(const json_t *, const struct query *);

const struct report_entry report_menu_entry = {
	.name = "menu",
	.title = "Summary",
	.formats = "html|json|text",
	.create = menu_create,
	.display = menu_display,
};

static json_t *
menu_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	json_t		*j, *metrics, *totals;
	uint32_t	 k;

	if ((j = report_new("menu")) == NULL ||
	    (metrics = json_array()) == NULL ||
	    (totals = json_object()) == NULL)
		goto fail;
	json_object_set_new(j, "metrics", metrics);
	json_object_set_new(j, "totals", totals);
	for (k = 0; k < p->nmetrics; k++) {
		json_array_append_new(metrics, json_pack("{s:s, s:s}",
		    "name", p->metrics[k].name, "unit", p->metrics[k].unit));
		json_object_set_new(totals, p->metrics[k].name,
		    json_integer(p->metrics[k].sum));
	}
	json_object_set_new(j, "file", json_string(ctx->name ? ctx->name :
	    ""));
	json_object_set_new(j, "format", json_string(p->format));
	json_object_set_new(j, "nodes", json_integer(p->nnodes));
	/* The synthetic root is not a function of the program. */
	json_object_set_new(j, "functions", json_integer(p->nfuncs - 1));
	json_object_set_new(j, "samples", json_integer(p->nsamples));
	if (json_array_size(metrics) != p->nmetrics ||
	    json_object_size(j) != 9)
		goto fail;
	return (j);
fail:
	json_decref(j);
	report_error_set(e, 500, "out of memory");
	return (NULL);
}

static struct display *
menu_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t, *l;
	json_t			*metrics, *m;
	size_t			 i, r;
	const char		*name;
	char			*s, *link;

	if ((d = display_create("Summary")) == NULL)
		return (NULL);
	display_text(d, "Profile %s (format %s): %lld call nodes, %lld "
	    "functions.", report_string(j, "file"), report_string(j, "format"),
	    (long long)report_integer(j, "nodes"),
	    (long long)report_integer(j, "functions"));

	metrics = json_object_get(j, "metrics");
	t = display_table(d, 3, "metrics");
	display_head(d, t, 0, "Metric", NULL, 0);
	display_head(d, t, 1, "Unit", NULL, 0);
	display_head(d, t, 2, "Total", NULL, DISPLAY_NUM);
	json_array_foreach(metrics, i, m) {
		name = report_string(m, "name");
		r = display_row(d, t);
		display_cell(d, t, r, 0, name, NULL, 0);
		display_cell(d, t, r, 1, report_string(m, "unit"), NULL, 0);
		s = display_number(json_integer_value(json_object_get(
		    json_object_get(j, "totals"), name)));
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
	}

	display_heading(d, "Start");
	l = display_links(d);
	json_array_foreach(metrics, i, m) {
		name = report_string(m, "name");
		link = report_link(q, QUERY_CMD, "top", QUERY_METRIC,
		    i == 0 ? NULL : name, QUERY_SORT, "self", -1);
		if (asprintf(&s, "Top functions by self %s", name) != -1) {
			display_link(d, l, s, link);
			free(s);
		}
		free(link);
		link = report_link(q, QUERY_CMD, "top", QUERY_METRIC,
		    i == 0 ? NULL : name, -1);
		if (asprintf(&s, "Top functions by total %s", name) != -1) {
			display_link(d, l, s, link);
			free(s);
		}
		free(link);
	}
	link = report_link(q, QUERY_CMD, "tree", -1);
	display_link(d, l, "Call tree", link);
	free(link);
	return (d);
}

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

#include "callgraph.h"
#include "cost.h"
#include "display.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"

/*
 * cmd=menu: the summary of a profile (metrics, totals, counts) and the
 * starting links into the other reports.
 */

static json_t	*menu_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *menu_display(const json_t *, const struct query *);
static uint32_t	menu_action(const struct profile *, int);
static void	menu_link(struct display *, struct display_block *,
		    const char *, char *);

const struct report_entry report_menu_entry = {
	.name = "menu",
	.title = "Summary",
	.formats = "html|json|text",
	.create = menu_create,
	.display = menu_display,
};

/*
 * The start of the action (Mercury's root/90): from the root, descend
 * while exactly one child holds at least 90% of the total. Returns the
 * node reached (the root if none).
 */
static uint32_t
menu_action(const struct profile *p, int m)
{
	uint32_t	 n = PROFILE_ROOT, c, heavy;
	double		 want = 0.9 * (double)p->metrics[m].total[PROFILE_ROOT];

	if (want <= 0)
		return (PROFILE_ROOT);
	for (;;) {
		heavy = PROFILE_NONE;
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			if ((double)p->metrics[m].total[c] >= want) {
				if (heavy != PROFILE_NONE)
					return (n);
				heavy = c;
			}
		}
		if (heavy == PROFILE_NONE)
			return (n);
		n = heavy;
	}
}

static json_t *
menu_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	static const char *const others[] = { "flame", "folded",
	    "callgrind" };
	const struct report_entry *r;
	const struct callgraph	*g = NULL;
	json_t			*j, *views;
	char			*fmt;
	size_t			 i;
	uint32_t		 maxdepth = 0, nmod = 0;
	int			 m;
	char			*path;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((j = report_new("menu")) == NULL || report_metrics(j, p, m) == -1)
		goto fail;
	json_object_set_new(j, "file", json_string(ctx->name ? ctx->name :
	    ""));
	json_object_set_new(j, "format", json_string(p->format));
	json_object_set_new(j, "nodes", json_integer(p->nnodes));
	/* The synthetic root is not a function of the program. */
	json_object_set_new(j, "functions", json_integer(p->nfuncs - 1));
	json_object_set_new(j, "samples", json_integer(p->nsamples));
	/* Whole-profile figures, derived once and kept with the profile. */
	if (profile_index_max_depth(ctx->index, &maxdepth) == -1 ||
	    profile_index_nmodules(ctx->index, &nmod) == -1)
		goto fail;
	json_object_set_new(j, "depth", json_integer(maxdepth));
	json_object_set_new(j, "modules", json_integer(nmod));
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL)
		goto fail;
	json_object_set_new(j, "cliques", json_integer(g->nrecursive));
	if ((path = report_path(p, menu_action(p, m))) != NULL) {
		json_object_set_new(j, "action", json_string(path));
		free(path);
	}
	json_object_set_new(j, "calls", json_string(
	    profile_metric_calls(p) == -1 ? "" :
	    p->metrics[profile_metric_calls(p)].name));
	json_object_set_new(j, "server", json_boolean(ctx->status != NULL));
	/*
	 * The views built elsewhere (flame graphs, exports): linked when
	 * this build has them, in the first format each answers.
	 */
	if ((views = json_array()) == NULL ||
	    json_object_set_new(j, "views", views) == -1)
		goto fail;
	for (i = 0; i < sizeof others / sizeof others[0]; i++) {
		if ((r = report_find(others[i])) == NULL)
			continue;
		fmt = strndup(r->formats, strcspn(r->formats, "|"));
		if (fmt == NULL || json_array_append_new(views, json_pack(
		    "{s:s, s:s, s:s}", "cmd", r->name, "title", r->title,
		    "format", fmt)) == -1) {
			free(fmt);
			goto fail;
		}
		free(fmt);
	}
	return (j);
fail:
	json_decref(j);
	report_error_cost(e, ctx->cost);
	return (NULL);
}

/* Is metric i (name) the base values a comparison adds last? */
static int
base_metric(const json_t *j, size_t i, const char *name)
{
	return (json_object_get(j, "comparison") != NULL && i + 1 ==
	    json_array_size(json_object_get(j, "metrics")) &&
	    strcmp(name, "base") == 0);
}

static void
menu_link(struct display *d, struct display_block *l, const char *text,
    char *link)
{
	if (link != NULL)
		display_link(d, l, text, link);
	free(link);
}

static struct display *
menu_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t, *l;
	json_t			*metrics, *m;
	size_t			 i, r;
	int			 rated = 0;
	const char		*name, *first, *action, *calls;
	char			*s, text[256];

	if ((d = display_create("Summary")) == NULL)
		return (NULL);
	{
		char	 nn[DISPLAY_NUMBUF], nd[DISPLAY_NUMBUF];
		char	 nf[DISPLAY_NUMBUF], nm[DISPLAY_NUMBUF];
		char	 nc[DISPLAY_NUMBUF];
		int64_t	 f = report_integer(j, "functions");
		int64_t	 nmod = report_integer(j, "modules");
		int64_t	 c = report_integer(j, "cliques");

		display_number_buf(nn, report_integer(j, "nodes"));
		display_number_buf(nd, report_integer(j, "depth"));
		display_number_buf(nf, f);
		display_number_buf(nm, nmod);
		display_number_buf(nc, c);
		display_text(d, "Profile %s (format %s): %s call node%s up to "
		    "%s deep, %s function%s, %s module%s, %s recursive "
		    "clique%s.", report_string(j, "file"),
		    report_string(j, "format"), nn, report_integer(j,
		    "nodes") == 1 ? "" : "s", nd, nf, f == 1 ? "" : "s", nm,
		    nmod == 1 ? "" : "s", nc, c == 1 ? "" : "s");
	}

	metrics = json_object_get(j, "metrics");
	first = report_string(json_array_get(metrics, 0), "name");
	json_array_foreach(metrics, i, m) {
		if (json_object_get(m, "rate") != NULL)
			rated = 1;
	}
	t = display_table(d, 3 + rated, "metrics");
	display_head(d, t, 0, "Metric", NULL, 0);
	display_head(d, t, 1, "Unit", NULL, 0);
	display_head(d, t, 2, "Total", NULL, DISPLAY_NUM);
	if (rated)
		display_head(d, t, 3, "Seconds", NULL, DISPLAY_NUM);
	json_array_foreach(metrics, i, m) {
		int64_t	 v;
		double	 rate = json_number_value(json_object_get(m, "rate"));

		name = report_string(m, "name");
		v = json_integer_value(json_object_get(json_object_get(j,
		    "totals"), name));
		r = display_row(d, t);
		/* A comparison's base values: no metric to rank by. */
		s = base_metric(j, i, name) ? NULL : report_goto(q, "top",
		    QUERY_METRIC, i == 0 ? NULL : name, -1);
		display_cell(d, t, r, 0, name, s, 0);
		free(s);
		display_cell(d, t, r, 1, report_string(m, "unit"), NULL, 0);
		s = display_number(v);
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
		if (!rated)
			continue;
		s = rate > 0 ? display_seconds((double)v / rate) : strdup("");
		display_cell(d, t, r, 3, s, NULL, DISPLAY_NUM);
		free(s);
	}

	display_heading(d, "Start");
	l = display_links(d);
	menu_link(d, l, "Call tree", report_goto(q, "tree", -1));
	action = report_string(j, "action");
	if (*action != '\0')
		menu_link(d, l, "Call tree at the action (the path that "
		    "holds 90% of the total)", report_goto(q, "tree",
		    QUERY_PATH, action, -1));
	menu_link(d, l, "Modules", report_goto(q, "modules", -1));
	menu_link(d, l, "Recursive cliques", report_goto(q, "cliques", -1));
	calls = report_string(j, "calls");
	if (*calls != '\0')
		menu_link(d, l, "Top functions by calls", report_goto(q,
		    "top", QUERY_SORT, "calls", -1));

	display_heading(d, "Top functions");
	l = display_links(d);
	json_array_foreach(metrics, i, m) {
		name = report_string(m, "name");
		if (strcmp(name, calls) == 0 || base_metric(j, i, name))
			continue;
		snprintf(text, sizeof text, "by self %s", name);
		menu_link(d, l, text, report_goto(q, "top", QUERY_METRIC,
		    i == 0 ? NULL : name, QUERY_SORT, "self", -1));
		snprintf(text, sizeof text, "by total %s", name);
		menu_link(d, l, text, report_goto(q, "top", QUERY_METRIC,
		    i == 0 ? NULL : name, QUERY_SORT, "total", -1));
	}
	snprintf(text, sizeof text, "at least 1%% of %s, by total", first);
	menu_link(d, l, text, report_goto(q, "top", QUERY_METRIC, NULL,
	    QUERY_MIN, "1", QUERY_LIMIT, "1000", -1));
	snprintf(text, sizeof text, "at least 0.1%% of %s, by self", first);
	menu_link(d, l, text, report_goto(q, "top", QUERY_METRIC, NULL,
	    QUERY_SORT, "self", QUERY_MIN, "0.1", QUERY_LIMIT, "1000", -1));

	if (json_array_size(json_object_get(j, "views")) > 0) {
		display_heading(d, "Views and exports");
		l = display_links(d);
		json_array_foreach(json_object_get(j, "views"), i, m) {
			name = report_string(m, "format");
			/* The flame graph has its page in the site. */
			if (strcmp(report_string(m, "cmd"), "flame") == 0)
				name = "html";
			menu_link(d, l, report_string(m, "title"), report_goto(q,
			    report_string(m, "cmd"), QUERY_FORMAT,
			    strcmp(name, "html") == 0 ? NULL : name, -1));
		}
	}

	/* Where the page names its file, a comparison starts here. */
	if (query_isset(q, QUERY_FILE) && !query_isset(q, QUERY_BASE) &&
	    (l = display_compare(d)) != NULL)
		display_link(d, l, query_str(q, QUERY_FILE), NULL);

	display_heading(d, "Debugging");
	l = display_links(d);
	menu_link(d, l, "Raw structures", report_goto(q, "dump", -1));
	if (json_is_true(json_object_get(j, "server")))
		menu_link(d, l, "Server status", report_goto(q, "status", -1));
	return (d);
}

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
#include "reports.h"
#include "timeline.h"

/*
 * cmd=menu: the summary of a profile (metrics, totals, counts) and the
 * starting links into the other reports.
 */

/*
 * The result: the profile's figures, derived once (depth, modules,
 * recursive cliques), the path of the action (or NULL), the views this
 * build has, and whether a server answers (cmd=status exists).
 */
struct menu_result {
	const struct profile		*p;
	int				 m;
	char				*file;
	uint32_t			 depth, nmod, ncliques;
	char				*action;
	int				 server;
	const struct report_entry	*views[3];
	size_t				 nviews;
};

static void	*menu_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*menu_json(const void *, const struct query *);
static struct display *menu_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 menu_free(void *);
static uint32_t	menu_action(const struct profile *, int);
static void	menu_link(struct display *, struct display_block *,
		    const char *, char *);
static json_t	*menu_time_json(const struct profile *);
static void	 menu_time_display(struct display *, const struct profile *,
		    const struct query *);

const struct report_entry report_menu_entry = {
	.name = "menu",
	.title = "Summary",
	.formats = "html|json|text",
	.create = menu_create,
	.json = menu_json,
	.display = menu_display,
	.free = menu_free,
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

static void *
menu_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	static const char *const others[] = { "flame", "folded",
	    "callgrind" };
	const struct report_entry *r;
	const struct callgraph	*g = NULL;
	struct menu_result	*t;
	size_t			 i;
	int			 m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((t = calloc(1, sizeof *t)) == NULL)
		goto fail;
	t->p = p;
	t->m = m;
	if (report_rates_check(p, e) == -1) {
		menu_free(t);
		return (NULL);
	}
	if ((t->file = strdup(ctx->name ? ctx->name : "")) == NULL)
		goto fail;
	/* Whole-profile figures, derived once and kept with the profile. */
	if (profile_index_max_depth(ctx->index, &t->depth) == -1 ||
	    profile_index_nmodules(ctx->index, &t->nmod) == -1)
		goto fail;
	if ((g = profile_index_callgraph(ctx->index, ctx->cost)) == NULL)
		goto fail;
	t->ncliques = g->nrecursive;
	t->action = report_path(p, menu_action(p, m));
	t->server = ctx->status != NULL;
	/*
	 * The views built elsewhere (flame graphs, exports): linked when
	 * this build has them, in the first format each answers.
	 */
	for (i = 0; i < sizeof others / sizeof others[0]; i++) {
		if ((r = reports_find(others[i])) != NULL)
			t->views[t->nviews++] = r;
	}
	return (t);
fail:
	menu_free(t);
	report_error_cost(e, ctx->cost);
	return (NULL);
}

static void
menu_free(void *v)
{
	struct menu_result	*t = v;

	if (t == NULL)
		return;
	free(t->file);
	free(t->action);
	free(t);
}

/* cmd=menu as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
menu_json(const void *v, const struct query *q)
{
	const struct menu_result	*t = v;
	const struct profile		*p = t->p;
	const struct report_entry	*r;
	json_t				*j, *views;
	char				*fmt;
	size_t				 i;

	if ((j = report_new("menu")) == NULL ||
	    report_metrics(j, p, t->m) == -1)
		goto fail;
	json_object_set_new(j, "file", json_string(t->file));
	json_object_set_new(j, "format", json_string(p->format));
	json_object_set_new(j, "nodes", json_integer(p->nnodes));
	/* The synthetic root is not a function of the program. */
	json_object_set_new(j, "functions", json_integer(p->nfuncs - 1));
	json_object_set_new(j, "samples", json_integer(p->nsamples));
	json_object_set_new(j, "depth", json_integer(t->depth));
	json_object_set_new(j, "modules", json_integer(t->nmod));
	json_object_set_new(j, "cliques", json_integer(t->ncliques));
	if (t->action != NULL)
		json_object_set_new(j, "action", json_string(t->action));
	json_object_set_new(j, "calls", json_string(
	    profile_metric_calls(p) == -1 ? "" :
	    p->metrics[profile_metric_calls(p)].name));
	json_object_set_new(j, "server", json_boolean(t->server));
	if (json_object_set_new(j, "time", menu_time_json(p)) == -1)
		goto fail;
	if ((views = json_array()) == NULL ||
	    json_object_set_new(j, "views", views) == -1)
		goto fail;
	for (i = 0; i < t->nviews; i++) {
		r = t->views[i];
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
	return (NULL);
}

/*
 * Whether the profile records when its samples happened: false, or its
 * clock, the recording's length, threads, samples and markers.
 */
static json_t *
menu_time_json(const struct profile *p)
{
	const struct timeline	*tl = p->timeline;

	if (tl == NULL)
		return (json_false());
	return (json_pack("{s:s, s:f, s:f, s:I, s:I, s:I}", "unit", tl->unit,
	    "rate", tl->rate, "duration", timeline_seconds(tl, tl->end),
	    "threads", (json_int_t)tl->nthreads, "records", (json_int_t)tl->n,
	    "marks", (json_int_t)tl->nmarks));
}

/* The sentence on time, and the links to the views of it. */
static void
menu_time_display(struct display *d, const struct profile *p,
    const struct query *q)
{
	const struct timeline	*tl = p->timeline;
	struct display_block	*l;
	char			*len;

	display_heading(d, "Time");
	if (tl == NULL) {
		display_text(d, "This format (%s) records no times: there is "
		    "no timeline, and range= and thread= do not apply.",
		    p->format);
		return;
	}
	len = tl->rate > 0 ? display_seconds(timeline_seconds(tl, tl->end)) :
	    display_number(tl->end - tl->start);
	display_text(d, "Recorded over %s%s on %u thread%s.", len ? len : "?",
	    tl->rate > 0 ? "" : " ticks", tl->nthreads,
	    tl->nthreads == 1 ? "" : "s");
	free(len);
	l = display_links(d);
	menu_link(d, l, "Timeline (threads over time; select a range)",
	    report_goto(q, "timeline", -1));
	if (tl->rate > 0)
		menu_link(d, l, "Sub-second heat map", report_goto(q,
		    "heatmap", -1));
	menu_link(d, l, "Flame chart on the time axis", report_goto(q,
	    "flame", QUERY_STYLE, "chart", -1));
}

static void
menu_link(struct display *d, struct display_block *l, const char *text,
    char *link)
{
	if (link != NULL)
		display_link(d, l, text, link);
	free(link);
}

/* cmd=menu's page, from the figures and the profile's metrics. */
static struct display *
menu_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct menu_result	*tr = v;
	const struct profile		*p = tr->p;
	struct display			*d;
	struct display_block		*t, *l;
	uint32_t			 i, nm = p->nmetrics, base = nm;
	size_t				 r;
	int				 rated = 0, ci;
	const char			*name, *first, *calls, *fmt;
	char				*s, text[256];
	double				 rate;
	int64_t				 total;

	if ((d = display_create("Summary")) == NULL)
		return (NULL);
	{
		char	 nn[DISPLAY_NUMBUF], nd[DISPLAY_NUMBUF];
		char	 nf[DISPLAY_NUMBUF], nmd[DISPLAY_NUMBUF];
		char	 nc[DISPLAY_NUMBUF];
		int64_t	 f = p->nfuncs - 1;

		display_number_buf(nn, p->nnodes);
		display_number_buf(nd, tr->depth);
		display_number_buf(nf, f);
		display_number_buf(nmd, tr->nmod);
		display_number_buf(nc, tr->ncliques);
		display_text(d, "Profile %s (format %s): %s call node%s up to "
		    "%s deep, %s function%s, %s module%s, %s recursive "
		    "clique%s.", tr->file, p->format, nn, p->nnodes == 1 ?
		    "" : "s", nd, nf, f == 1 ? "" : "s", nmd,
		    tr->nmod == 1 ? "" : "s", nc, tr->ncliques == 1 ? "" : "s");
	}

	/* A comparison's base values, its last metric: no metric of its own. */
	if (notes->compared && nm > 0 &&
	    strcmp(p->metrics[nm - 1].name, "base") == 0)
		base = nm - 1;
	first = nm > 0 ? p->metrics[0].name : "";
	for (i = 0; i < nm; i++) {
		if (profile_metric_rate(p, i) > 0)
			rated = 1;
	}
	t = display_table(d, 3 + rated, "metrics");
	display_head(d, t, 0, "Metric", NULL, 0);
	display_head(d, t, 1, "Unit", NULL, 0);
	display_head(d, t, 2, "Total", NULL, DISPLAY_NUM);
	if (rated)
		display_head(d, t, 3, "Seconds", NULL, DISPLAY_NUM);
	for (i = 0; i < nm; i++) {
		name = p->metrics[i].name;
		rate = profile_metric_rate(p, i);
		total = p->metrics[report_metric_last(p, i)].sum;
		r = display_row(d, t);
		/* A comparison's base values: no metric to rank by. */
		s = i == base ? NULL : report_goto(q, "top", QUERY_METRIC,
		    i == 0 ? NULL : name, -1);
		display_cell(d, t, r, 0, name, s, 0);
		free(s);
		display_cell(d, t, r, 1, p->metrics[i].unit, NULL, 0);
		s = display_number(total);
		display_cell(d, t, r, 2, s, NULL, DISPLAY_NUM);
		free(s);
		if (!rated)
			continue;
		s = rate > 0 ? display_seconds((double)total / rate) : strdup("");
		display_cell(d, t, r, 3, s, NULL, DISPLAY_NUM);
		free(s);
	}

	display_heading(d, "Start");
	l = display_links(d);
	menu_link(d, l, "Call tree", report_goto(q, "tree", -1));
	if (tr->action != NULL && *tr->action != '\0')
		menu_link(d, l, "Call tree at the action (the path that "
		    "holds 90% of the total)", report_goto(q, "tree",
		    QUERY_PATH, tr->action, -1));
	menu_link(d, l, "Modules", report_goto(q, "modules", -1));
	menu_link(d, l, "Recursive cliques", report_goto(q, "cliques", -1));
	calls = (ci = profile_metric_calls(p)) == -1 ? "" :
	    p->metrics[ci].name;
	if (*calls != '\0')
		menu_link(d, l, "Top functions by calls", report_goto(q,
		    "top", QUERY_SORT, "calls", -1));

	display_heading(d, "Top functions");
	l = display_links(d);
	for (i = 0; i < nm; i++) {
		name = p->metrics[i].name;
		if (strcmp(name, calls) == 0 || i == base)
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

	menu_time_display(d, p, q);

	if (tr->nviews > 0) {
		display_heading(d, "Views and exports");
		l = display_links(d);
		for (i = 0; i < tr->nviews; i++) {
			const struct report_entry *e = tr->views[i];
			char	 f[32];

			snprintf(f, sizeof f, "%.*s", (int)strcspn(e->formats,
			    "|"), e->formats);
			fmt = f;
			/* The flame graph has its page in the site. */
			if (strcmp(e->name, "flame") == 0)
				fmt = "html";
			menu_link(d, l, e->title, report_goto(q, e->name,
			    QUERY_FORMAT, strcmp(fmt, "html") == 0 ? NULL :
			    fmt, -1));
		}
	}

	/* Where the page names its file, a comparison starts here. */
	if (query_isset(q, QUERY_FILE) && !query_isset(q, QUERY_BASE) &&
	    (l = display_compare(d)) != NULL)
		display_link(d, l, query_str(q, QUERY_FILE), NULL);

	display_heading(d, "Debugging");
	l = display_links(d);
	menu_link(d, l, "Raw structures", report_goto(q, "dump", -1));
	if (tr->server)
		menu_link(d, l, "Server status", report_goto(q, "status", -1));
	return (d);
}

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
#include <time.h>

#include <jansson.h>

#include "callgraph.h"
#include "catalog.h"
#include "cost.h"
#include "display.h"
#include "json-build.h"
#include "profile.h"
#include "profile-index.h"
#include "outbuf.h"
#include "query.h"
#include "reader-view.h"
#include "report.h"
#include "reports.h"
#include "timeline.h"
#include "selector.h"

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
	uint32_t			 action_node;
	int				 server;
	enum catalog_cmd		 views[CMD_N];
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
static int	menu_view_json(json_t *, const struct profile *);
static void	menu_view(struct display *, const struct profile *,
		    const struct query *);

#define MENU_VIEW_VALUES	50	/* values of one label key shown */

const struct report_entry report_menu_entry = {
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
	const struct callgraph	*g = NULL;
	struct menu_result	*t;
	char			*cause = NULL;
	int			 m, i, status = 500;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	/* A view's labels, for its picker: asked of ClickHouse once. */
	if (reader_view_labels(p, ctx->cost, &status, &cause) == -1) {
		report_error_set(e, status, "%s", cause ? cause :
		    "out of memory");
		free(cause);
		return (NULL);
	}
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
	t->action_node = menu_action(p, m);
	t->action = report_path(p, t->action_node);
	t->server = ctx->status != NULL;
	/*
	 * The views built elsewhere (flame graphs, exports: CATALOG_VIEW):
	 * linked when this build has them, in the first format each
	 * answers.
	 */
	for (i = 0; i < CMD_N; i++) {
		if ((catalog_reports[i].flags & CATALOG_VIEW) &&
		    reports_find(i) != NULL)
			t->views[t->nviews++] = i;
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
	const struct catalog_report	*r;
	const struct catalog_format	*fmt;
	json_t				*j, *views;
	size_t				 i;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new(CMD_MENU)) == NULL ||
	    report_metrics(j, p, t->m) == -1)
		goto fail;
	json_build_set(&jb, j, "file", json_string(t->file));
	json_build_set(&jb, j, "format", json_string(p->format));
	json_build_set(&jb, j, "nodes", json_integer(p->nnodes));
	/* The synthetic root is not a function of the program. */
	json_build_set(&jb, j, "functions", json_integer(p->nfuncs - 1));
	/*
	 * The time-ordered sample sequence's length: "samples" beside
	 * totals.samples read as a second, wrong, total.
	 */
	json_build_set(&jb, j, "sequence", json_integer(p->nsamples));
	json_build_set(&jb, j, "depth", json_integer(t->depth));
	json_build_set(&jb, j, "modules", json_integer(t->nmod));
	json_build_set(&jb, j, "cliques", json_integer(t->ncliques));
	if (t->action != NULL)
		json_build_set(&jb, j, "action", json_string(t->action));
	json_build_set(&jb, j, "calls", json_string(
	    profile_metric_calls(p) == -1 ? "" :
	    p->metrics[profile_metric_calls(p)].name));
	json_build_set(&jb, j, "server", json_boolean(t->server));
	/* Absent without times: the answers of those profiles as before. */
	if (p->timeline != NULL &&
	    json_object_set_new(j, "time", menu_time_json(p)) == -1)
		goto fail;
	if (menu_view_json(j, p) == -1)
		goto fail;
	if ((views = json_array()) == NULL ||
	    json_object_set_new(j, "views", views) == -1)
		goto fail;
	for (i = 0; i < t->nviews; i++) {
		r = &catalog_reports[t->views[i]];
		fmt = &catalog_formats[catalog_report_format(t->views[i])];
		if (json_array_append_new(views, json_pack("{s:s, s:s, s:s}",
		    "cmd", r->name, "title", r->title, "format",
		    fmt->name)) == -1)
			goto fail;
	}
	return (json_build_end(&jb, j));
fail:
	json_decref(j);
	return (NULL);
}

/*
 * What the profile records of when its samples happened: its clock, the
 * recording's length, threads, samples and markers (false without).
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

/*
 * The sentence on time and the links to the views of it; nothing for a
 * format without times (range= and thread= say why when asked).
 */
static void
menu_time_display(struct display *d, const struct profile *p,
    const struct query *q)
{
	const struct timeline	*tl = p->timeline;
	struct display_block	*l;
	struct query		 v;
	char			*len;

	if (tl == NULL)
		return;
	display_heading(d, "Time");
	len = tl->rate > 0 ? display_seconds(timeline_seconds(tl, tl->end)) :
	    display_number(tl->end - tl->start);
	display_text(d, "Recorded over %s%s on %u thread%s.", len ? len : "?",
	    tl->rate > 0 ? "" : " ticks", tl->nthreads,
	    tl->nthreads == 1 ? "" : "s");
	free(len);
	l = display_links(d);
	menu_link(d, l, "Timeline (threads over time; select a range)",
	    report_cmd_link(q, CMD_TIMELINE));
	if (tl->rate > 0)
		menu_link(d, l, "Sub-second heat map", report_cmd_link(q,
		    CMD_HEATMAP));
	report_view(&v, q, CMD_FLAME);
	v.style = QUERY_STYLE_CHART;
	menu_link(d, l, "Flame chart on the time axis", query_format(&v));
}

/*
 * A view's own figures (deepq-clickhouse(7)): its profiles, their times,
 * the selections in force and the labels present, each with the number
 * of profiles that have it (at most VIEW_MAX_LABELS). 0 for any other
 * profile, -1 if out of memory.
 */
static int
menu_view_json(json_t *j, const struct profile *p)
{
	struct reader_view_info	 vi;
	const struct view_summary *vs;
	json_t			*v, *labels, *l;
	const char		*eq;
	size_t			 i;

	if (reader_view_info(p, &vi) == -1)
		return (0);
	vs = vi.summary;
	if ((v = json_pack("{s:I, s:I, s:I, s:b, s:i}", "profiles",
	    (json_int_t)vs->profiles, "first", (json_int_t)vs->first, "last",
	    (json_int_t)vs->last, "labels_truncated", vs->truncated,
	    "max_labels", VIEW_MAX_LABELS)) == NULL ||
	    json_object_set_new(j, "view", v) == -1 ||
	    json_object_set_new(v, "labels", labels = json_array()) == -1)
		return (-1);
	if ((vi.select != NULL && json_object_set_new(v, "select",
	    json_string(vi.select)) == -1) || (vi.where != NULL &&
	    json_object_set_new(v, "where", json_string(vi.where)) == -1) ||
	    (vi.narrow != NULL && json_object_set_new(v, "narrow",
	    json_string(vi.narrow)) == -1))
		return (-1);
	for (i = 0; i < vs->nlabels; i++) {
		eq = strchr(vs->labels[i], '=');
		if (eq == NULL)
			continue;
		if ((l = json_pack("{s:s%, s:s, s:I}", "key", vs->labels[i],
		    (size_t)(eq - vs->labels[i]), "value", eq + 1, "profiles",
		    (json_int_t)vs->counts[i])) == NULL ||
		    json_array_append_new(labels, l) == -1)
			return (-1);
	}
	return (0);
}

/* The link that narrows the page's view by key="value" too. */
static char *
menu_view_narrow(const struct query *q, const char *key, size_t klen,
    const char *value)
{
	struct selector	*sel;
	struct outbuf	 ob;
	struct query	 v;
	char		 k[SELECTOR_MAX_KEY + 1], *s, *link;
	size_t		 len;

	if (klen > SELECTOR_MAX_KEY)
		return (NULL);
	memcpy(k, key, klen);
	k[klen] = '\0';
	if ((sel = selector_parse(q->select, NULL)) == NULL &&
	    (sel = calloc(1, sizeof *sel)) == NULL)
		return (NULL);
	if (selector_add(sel, k, SELECTOR_EQ, value, NULL) == -1) {
		selector_free(sel);
		return (NULL);
	}
	outbuf_init(&ob);
	selector_format(sel, &ob);
	selector_free(sel);
	if ((s = outbuf_take(&ob, &len)) == NULL)
		return (NULL);
	report_view(&v, q, CMD_MENU);
	v.select = s;
	link = query_format(&v);
	free(s);
	return (link);
}

/*
 * A view's label picker: each label and value present, a link that
 * narrows the view to it (select=), and how many profiles have it;
 * at most MENU_VIEW_VALUES values of one key, and the bounds said.
 */
static void
menu_view(struct display *d, const struct profile *p, const struct query *q)
{
	struct reader_view_info	 vi;
	const struct view_summary *vs;
	struct display_block	*t;
	const char		*eq, *prev = NULL;
	char			 a[32], b[32], *link, *more;
	size_t			 i, r, plen = 0, shown = 0, hidden = 0;
	struct tm		 tm;
	time_t			 tt;

	if (reader_view_info(p, &vi) == -1)
		return;
	vs = vi.summary;
	display_heading(d, "Labels");
	tt = vs->first;
	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(a, sizeof a, "%Y-%m-%d %H:%M", &tm) == 0)
		a[0] = '\0';
	tt = vs->last;
	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(b, sizeof b, "%Y-%m-%d %H:%M", &tm) == 0)
		b[0] = '\0';
	display_text(d, "A view of %llu profile%s from %s to %s UTC.%s%s%s",
	    (unsigned long long)vs->profiles, vs->profiles == 1 ? "" : "s",
	    a, b, vi.select != NULL ? " The view file selects " : "",
	    vi.select != NULL ? vi.select : "", vi.select != NULL ? "." : "");
	if (vi.narrow != NULL)
		display_text(d, "Narrowed by select=%s.", vi.narrow);
	if (vs->truncated)
		display_text(d, "More than %d labels: the first %d shown; "
		    "narrow the view to see the others.", VIEW_MAX_LABELS,
		    VIEW_MAX_LABELS);
	if ((t = display_table(d, 3, "labels")) == NULL)
		return;
	display_head(d, t, 0, "Label", NULL, 0);
	display_head(d, t, 1, "Value (narrows the view)", NULL, 0);
	display_head(d, t, 2, "Profiles", NULL, DISPLAY_NUM);
	for (i = 0; i <= vs->nlabels; i++) {
		eq = i < vs->nlabels ? strchr(vs->labels[i], '=') : NULL;
		if (i < vs->nlabels && eq == NULL)
			continue;
		if (prev == NULL || i == vs->nlabels || (size_t)(eq -
		    vs->labels[i]) != plen || memcmp(prev, vs->labels[i],
		    plen) != 0) {
			if (hidden > 0 && asprintf(&more, "%zu more", hidden) !=
			    -1) {
				r = display_row(d, t);
				display_cell_take(d, t, r, 1, more, NULL,
				    DISPLAY_DIM);
			}
			if (i == vs->nlabels)
				break;
			prev = vs->labels[i];
			plen = (size_t)(eq - prev);
			shown = hidden = 0;
		}
		if (shown == MENU_VIEW_VALUES) {
			hidden++;
			continue;
		}
		shown++;
		r = display_row(d, t);
		display_cell_take(d, t, r, 0, strndup(vs->labels[i], plen),
		    NULL, 0);
		link = menu_view_narrow(q, vs->labels[i], plen, eq + 1);
		display_cell(d, t, r, 1, eq + 1, link, 0);
		free(link);
		display_cell_take(d, t, r, 2, display_number(vs->counts[i]),
		    NULL, DISPLAY_NUM);
	}
}

static void
menu_link(struct display *d, struct display_block *l, const char *text,
    char *link)
{
	if (link != NULL)
		display_link(d, l, text, link);
	free(link);
}

/* The page's first line: the profile's size in words. */
static void
menu_summary_text(struct display *d, const struct menu_result *tr)
{
	const struct profile	*p = tr->p;
	char			 nn[DISPLAY_NUMBUF], nd[DISPLAY_NUMBUF];
	char			 nf[DISPLAY_NUMBUF], nmd[DISPLAY_NUMBUF];
	char			 nc[DISPLAY_NUMBUF];
	int64_t			 f = p->nfuncs - 1;

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

/*
 * The metrics table: each a link to the top functions by it, but a
 * comparison's base values (base), which have no metric to rank by.
 */
static void
menu_metrics(struct display *d, const struct profile *p,
    const struct query *q, uint32_t base)
{
	struct display_block	*t;
	struct query		 view;
	uint32_t		 i, nm = p->nmetrics;
	size_t			 r;
	int			 rated = 0;
	const char		*name;
	char			*s;
	double			 rate;
	int64_t			 total;

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
	report_view(&view, q, CMD_TOP);
	for (i = 0; i < nm; i++) {
		name = p->metrics[i].name;
		rate = profile_metric_rate(p, i);
		total = p->metrics[report_metric_last(p, i)].sum;
		r = display_row(d, t);
		view.metric = i == 0 ? "" : name;
		s = i == base ? NULL : query_format(&view);
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
}

/* "Start": the tree, the action, modules, cliques, calls; the calls
 * metric's name, or "", in *calls. */
static void
menu_start(struct display *d, const struct menu_result *tr,
    const struct query *q, const char **calls)
{
	const struct profile	*p = tr->p;
	struct display_block	*l;
	struct query		 view;
	int			 ci;

	display_heading(d, "Start");
	l = display_links(d);
	menu_link(d, l, "Call tree", report_cmd_link(q, CMD_TREE));
	if (tr->action != NULL && *tr->action != '\0')
		menu_link(d, l, "Call tree at the action (the path that "
		    "holds 90% of the total)", report_node_link(q, p,
		    tr->action_node));
	menu_link(d, l, "Modules", report_cmd_link(q, CMD_MODULES));
	menu_link(d, l, "Recursive cliques", report_cmd_link(q, CMD_CLIQUES));
	*calls = (ci = profile_metric_calls(p)) == -1 ? "" :
	    p->metrics[ci].name;
	if (**calls != '\0') {
		report_view(&view, q, CMD_TOP);
		view.sort = QUERY_SORT_CALLS;
		menu_link(d, l, "Top functions by calls", query_format(&view));
	}
}

/* "Top functions": by self and total of each metric, then by share. */
static void
menu_top(struct display *d, const struct profile *p,
    const struct query *q, uint32_t base, const char *calls)
{
	struct display_block	*l;
	struct query		 view;
	uint32_t		 i;
	const char		*name, *first;
	char			 text[256];

	first = p->nmetrics > 0 ? p->metrics[0].name : "";
	display_heading(d, "Top functions");
	l = display_links(d);
	for (i = 0; i < p->nmetrics; i++) {
		name = p->metrics[i].name;
		if (strcmp(name, calls) == 0 || i == base)
			continue;
		report_view(&view, q, CMD_TOP);
		view.metric = i == 0 ? "" : name;
		view.sort = QUERY_SORT_SELF;
		snprintf(text, sizeof text, "by self %s", name);
		menu_link(d, l, text, query_format(&view));
		view.sort = QUERY_SORT_TOTAL;
		snprintf(text, sizeof text, "by total %s", name);
		menu_link(d, l, text, query_format(&view));
	}
	report_view(&view, q, CMD_TOP);
	view.metric = "";
	view.min = 1;
	view.limit = 1000;
	snprintf(text, sizeof text, "at least 1%% of %s, by total", first);
	menu_link(d, l, text, query_format(&view));
	view.sort = QUERY_SORT_SELF;
	view.min = 0.1;
	snprintf(text, sizeof text, "at least 0.1%% of %s, by self", first);
	menu_link(d, l, text, query_format(&view));
}

/* "Views and exports", the comparison box, and "Debugging". */
static void
menu_views(struct display *d, const struct menu_result *tr,
    const struct query *q)
{
	struct display_block	*l;
	struct query		 view;
	enum catalog_cmd	 vc;
	uint32_t		 i;

	if (tr->nviews > 0) {
		display_heading(d, "Views and exports");
		l = display_links(d);
		for (i = 0; i < tr->nviews; i++) {
			vc = tr->views[i];
			report_view(&view, q, vc);
			/* The flame graph has its page in the site. */
			view.format = vc == CMD_FLAME ? FMT_HTML :
			    catalog_report_format(vc);
			menu_link(d, l, catalog_reports[vc].title,
			    query_format(&view));
		}
	}

	/* Where the page names its file, a comparison starts here. */
	if (*q->file != '\0' && *q->base == '\0' &&
	    (l = display_compare(d)) != NULL)
		display_link(d, l, q->file, NULL);

	display_heading(d, "Debugging");
	l = display_links(d);
	menu_link(d, l, "Raw structures", report_cmd_link(q, CMD_DUMP));
	if (tr->server)
		menu_link(d, l, "Server status", report_cmd_link(q,
		    CMD_STATUS));
}

/* cmd=menu's page, from the figures and the profile's metrics. */
static struct display *
menu_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct menu_result	*tr = v;
	const struct profile		*p = tr->p;
	struct display			*d;
	uint32_t			 nm = p->nmetrics, base = nm;
	const char			*calls;

	if ((d = display_create("Summary")) == NULL)
		return (NULL);
	menu_summary_text(d, tr);
	/* A comparison's base values, its last metric: no metric of its own. */
	if (notes->compared && nm > 0 &&
	    strcmp(p->metrics[nm - 1].name, "base") == 0)
		base = nm - 1;
	menu_metrics(d, p, q, base);
	menu_view(d, p, q);
	menu_start(d, tr, q, &calls);
	menu_top(d, p, q, base, calls);
	menu_time_display(d, p, q);
	menu_views(d, tr, q);
	return (d);
}

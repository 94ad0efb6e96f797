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

#include "columns.h"
#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/* Performance columns and the preference controls (see columns.h). */

static uint32_t	group_width(const struct columns *, const struct columns_group *);
static int	fields_has(const char *, const char *);
static void	control(struct display *, struct display_block *,
		    const char *, const struct query *);
static void	columns_cell(struct display *, struct display_block *,
		    size_t, uint32_t, const char *, int);

/* Is name one of the comma-separated list? */
static int
fields_has(const char *list, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p = list, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if ((size_t)(comma ? comma - p : (ptrdiff_t)strlen(p)) == n &&
		    strncmp(p, name, n) == 0)
			return (1);
		if (comma == NULL)
			return (0);
		p = comma + 1;
	}
}

/* Validate fields= against the profile's metrics; -1 with *e if bad. */
int
columns_check(const struct profile *p, const struct query *q,
    struct report_error *e)
{
	const char	*s = q->fields, *comma;
	char		*name;
	int		 found;

	if (*s == '\0' || strcmp(s, "all") == 0)
		return (0);
	for (;;) {
		comma = strchr(s, ',');
		if ((name = strndup(s, comma ? (size_t)(comma - s) :
		    strlen(s))) == NULL)
			return (report_error_set(e, 500, "out of memory"));
		found = profile_metric_find(p, name) != -1;
		if (!found) {
			report_error_set(e, 400, "fields: no metric %s (the "
			    "profile has %s%s)", name, p->metrics[0].name,
			    p->nmetrics > 1 ? ", ..." : "");
			free(name);
			return (-1);
		}
		free(name);
		if (comma == NULL)
			return (0);
		s = comma + 1;
	}
}

static uint32_t
group_width(const struct columns *c, const struct columns_group *g)
{
	uint32_t	 per = 1 + (c->pct ? 1 : 0) +
			     (c->avg && !g->calls ? 1 : 0);

	return (per * ((c->flags & COLUMNS_SELF ? 1 : 0) +
	    (c->flags & COLUMNS_TOTAL ? 1 : 0)));
}

/*
 * The columns from the metrics' names, units, rates (0: none) and sums,
 * n of them, metric the sort metric. index[k] is where metric k's values
 * are (the JSON holds one value a name: the last metric of that name).
 */
static void
columns_setup(struct columns *c, size_t n, const char *const *names,
    const char *const *units, const double *rates, const int64_t *sums,
    const uint32_t *index, const char *metric, const struct query *q,
    int flags)
{
	const char	*fields = q->fields, *name;
	int		 seconds;
	size_t		 i;

	memset(c, 0, sizeof *c);
	c->flags = flags;
	c->pct = q->pct;
	c->metric = metric;
	c->sort = q->sort;
	seconds = q->units == QUERY_UNITS_SECONDS;
	for (i = 0; i < n; i++) {
		if (c->calls == NULL && strcmp(names[i], "calls") == 0) {
			c->calls = names[i];
			c->calls_index = index[i];
		}
	}
	for (i = 0; i < n; i++) {
		if (c->calls == NULL && strcmp(names[i], "entries") == 0) {
			c->calls = names[i];
			c->calls_index = index[i];
		}
	}
	c->avg = q->avg && c->calls != NULL;
	for (i = 0; i < n; i++) {
		struct columns_group	*g;

		name = names[i];
		if (c->ngroups == PROFILE_MAX_METRICS)
			break;
		if (*fields == '\0' ? strcmp(name, c->metric) != 0 :
		    strcmp(fields, "all") != 0 && !fields_has(fields, name))
			continue;
		g = &c->g[c->ngroups++];
		g->metric = name;
		g->unit = units[i];
		g->rate = seconds ? rates[i] : 0;
		g->sum = sums[i];
		g->index = index[i];
		g->first = i == 0;
		g->calls = c->calls != NULL && strcmp(name, c->calls) == 0;
		/* Calls in seconds make no sense, whatever the rate. */
		if (g->calls)
			g->rate = 0;
	}
}

/*
 * The columns of a report's page on metric m: which metrics (fields=),
 * and which columns per metric (flags: COLUMNS_SELF, COLUMNS_TOTAL,
 * COLUMNS_SORT), as report_metrics() puts the metrics in the JSON; the
 * rows are then filled with columns_row().
 */
void
columns_init(struct columns *c, const struct profile *p, int m,
    const struct query *q, int flags)
{
	const char	*names[PROFILE_MAX_METRICS];
	const char	*units[PROFILE_MAX_METRICS];
	double		 rates[PROFILE_MAX_METRICS];
	int64_t		 sums[PROFILE_MAX_METRICS];
	uint32_t	 index[PROFILE_MAX_METRICS];
	uint32_t	 k, l, n = p->nmetrics;

	if (n > PROFILE_MAX_METRICS)
		n = PROFILE_MAX_METRICS;
	for (k = 0; k < n; k++) {
		names[k] = p->metrics[k].name;
		units[k] = p->metrics[k].unit;
		rates[k] = profile_metric_rate(p, k);
		if (!(rates[k] > 0))
			rates[k] = 0;
		/* In JSON a later metric of the same name wins. */
		index[k] = k;
		for (l = k + 1; l < n; l++) {
			if (strcmp(p->metrics[l].name, names[k]) == 0)
				index[k] = l;
		}
	}
	for (k = 0; k < n; k++)
		sums[k] = p->metrics[index[k]].sum;
	columns_setup(c, n, names, units, rates, sums, index,
	    p->metrics[m].name, q, flags);
}

/* How many table columns the groups take. */
uint32_t
columns_count(const struct columns *c)
{
	uint32_t	 i, n = 0;

	for (i = 0; i < c->ngroups; i++)
		n += group_width(c, &c->g[i]);
	return (n);
}

/* Headers of the groups, from table column col on. */
void
columns_head(struct display *d, struct display_block *b, uint32_t col,
    const struct columns *c, const struct query *q)
{
	const struct columns_group	*g;
	uint32_t			 i, w, which;
	char				*label, *link, *text;
	enum query_sort			 kind;
	struct query			 v;
	int				 sorted, shown;

	for (i = 0; i < c->ngroups; i++) {
		g = &c->g[i];
		w = group_width(c, g);
		/* The unit when it says more than the name ("ticks (ticks)"). */
		shown = *g->unit && strcmp(g->unit, "count") != 0 &&
		    strcmp(g->unit, g->metric) != 0;
		if (g->rate > 0)
			label = strdup(g->metric);
		else if (asprintf(&label, "%s%s%s%s", g->metric,
		    shown ? " (" : "", shown ? g->unit : "", shown ? ")" :
		    "") == -1)
			label = NULL;
		if (g->rate > 0 && label != NULL) {
			free(label);
			if (asprintf(&label, "%s (seconds)", g->metric) == -1)
				label = NULL;
		}
		/* Not the bare name instead: out of memory fails the page. */
		if (label == NULL) {
			d->failed = 1;
			return;
		}
		display_group(d, b, col, w, label);
		free(label);
		for (which = COLUMNS_SELF; which <= COLUMNS_TOTAL;
		    which <<= 1) {
			if (!(c->flags & which))
				continue;
			kind = which == COLUMNS_SELF ? QUERY_SORT_SELF :
			    QUERY_SORT_TOTAL;
			sorted = (c->flags & COLUMNS_SORT) &&
			    strcmp(c->metric, g->metric) == 0 &&
			    c->sort == kind;
			link = NULL;
			if (c->flags & COLUMNS_SORT) {
				v = *q;
				v.metric = g->first ? "" : g->metric;
				v.sort = kind;
				v.from = 0;
				link = query_format(&v);
			}
			if (asprintf(&text, "%s%s", which == COLUMNS_SELF ?
			    "Self" : "Total", sorted ? " \xe2\x96\xbc" : "") ==
			    -1) {
				free(link);
				d->failed = 1;
				return;
			}
			display_head(d, b, col++, text, link, DISPLAY_NUM);
			free(text);
			free(link);
			if (c->pct)
				display_head(d, b, col++, "%", NULL,
				    DISPLAY_NUM);
			if (c->avg && !g->calls)
				display_head(d, b, col++, "/call", NULL,
				    DISPLAY_NUM);
		}
	}
}

/* A value of group i as shown: raw with separators, or seconds. */
char *
columns_value(const struct columns *c, uint32_t i, int64_t v)
{
	if (i < c->ngroups && c->g[i].rate > 0)
		return (display_seconds((double)v / c->g[i].rate));
	return (display_number(v));
}

/*
 * Fill the groups' cells of a row from each group's self and total value
 * (either may be NULL when the flags do not show it) and the calls.
 */
static void
columns_cells(struct display *d, struct display_block *b, size_t r,
    uint32_t col, const struct columns *c, const int64_t *self,
    const int64_t *total, int64_t calls)
{
	const struct columns_group	*g;
	uint32_t			 i, which;
	int64_t				 v;
	char				*s, buf[DISPLAY_NUMBUF];
	double				 avg;
	int				 heat;

	for (i = 0; i < c->ngroups; i++) {
		g = &c->g[i];
		for (which = COLUMNS_SELF; which <= COLUMNS_TOTAL;
		    which <<= 1) {
			if (!(c->flags & which))
				continue;
			v = (which == COLUMNS_SELF ? self : total)[i];
			/* Plain numbers in a buffer: a page has hundreds. */
			if (g->rate > 0) {
				s = columns_value(c, i, v);
				columns_cell(d, b, r, col++, s,
				    DISPLAY_NUM | (v == 0 ? DISPLAY_DIM : 0));
				free(s);
			} else {
				display_number_buf(buf, v);
				display_cell(d, b, r, col++, buf, NULL,
				    DISPLAY_NUM | (v == 0 ? DISPLAY_DIM : 0));
			}
			if (c->pct) {
				/*
				 * Shaded by the share in whole percents (a bar
				 * in proportion: under 0.5 % none).
				 */
				heat = g->sum > 0 && v > 0 ? DISPLAY_HEAT(
				    v >= g->sum ? 100 : 0.5 + 100 * (double)v /
				    (double)g->sum) : 0;
				if (display_percent_buf(buf, v, g->sum) == 0)
					display_cell(d, b, r, col++, buf, NULL,
					    DISPLAY_NUM | heat |
					    (v == 0 ? DISPLAY_DIM : 0));
				else {
					s = display_percent(v, g->sum);
					columns_cell(d, b, r, col++, s,
					    DISPLAY_NUM |
					    (v == 0 ? DISPLAY_DIM : 0));
					free(s);
				}
			}
			if (c->avg && !g->calls) {
				if (calls == 0)
					s = strdup("-");
				else {
					avg = (double)v / (double)calls;
					s = g->rate > 0 ?
					    display_seconds(avg / g->rate) :
					    display_real(avg);
				}
				columns_cell(d, b, r, col++, s,
				    DISPLAY_NUM | (calls == 0 ? DISPLAY_DIM :
				    0));
				free(s);
			}
		}
	}
}

/*
 * A cell whose text was made for it; a NULL text (out of memory) fails
 * the display rather than leave the cell empty.
 */
static void
columns_cell(struct display *d, struct display_block *b, size_t r,
    uint32_t col, const char *s, int flags)
{
	if (s == NULL) {
		d->failed = 1;
		return;
	}
	display_cell(d, b, r, col, s, NULL, flags);
}

/*
 * Fill the groups' cells of a row from the values of every metric
 * (self[k], total[k] for metric k of the profile of columns_init()).
 */
void
columns_row(struct display *d, struct display_block *b, size_t r,
    uint32_t col, const struct columns *c, const int64_t *self,
    const int64_t *total)
{
	int64_t		 sv[PROFILE_MAX_METRICS], tv[PROFILE_MAX_METRICS];
	uint32_t	 i;

	for (i = 0; i < c->ngroups; i++) {
		sv[i] = self[c->g[i].index];
		tv[i] = total[c->g[i].index];
	}
	columns_cells(d, b, r, col, c, sv, tv, c->avg ?
	    self[c->calls_index] : 0);
}

/* A link to view v. */
static void
control(struct display *d, struct display_block *l, const char *text,
    const struct query *v)
{
	char	*link;

	if ((link = query_format(v)) != NULL) {
		display_link(d, l, text, link);
		free(link);
	}
}

/*
 * The preference toggles under a table: each is a link to the same page
 * with one preference changed (nothing is stored on the server). c are
 * the page's columns with both kinds, rated whether a metric other than
 * calls has a rate, n the number of metrics; lists adds row limits.
 */
static void
columns_toggles(struct display *d, const struct columns *c, int rated,
    size_t n, const struct query *q, int lists)
{
	struct display_block	*l;
	struct query		 v;
	size_t			 i;
	char			 text[64];
	int			 seconds = q->units == QUERY_UNITS_SECONDS;
	int			 all = strcmp(q->fields, "all") == 0;
	static const int64_t	 limits[] = { 20, 50, 200, 1000 };

	display_heading(d, "Preferences");
	l = display_links(d);
	v = *q;
	v.pct = !c->pct;
	control(d, l, c->pct ? "hide percentages" : "show percentages", &v);
	if (c->calls != NULL) {
		v = *q;
		v.avg = !c->avg;
		control(d, l, c->avg ? "hide per-call averages" :
		    "show per-call averages", &v);
	}
	if (rated) {
		v = *q;
		v.units = seconds ? QUERY_UNITS_RAW : QUERY_UNITS_SECONDS;
		control(d, l, seconds ? "raw units" : "seconds", &v);
	}
	if (n > 1) {
		v = *q;
		v.fields = all ? "" : "all";
		control(d, l, all ? "one metric" : "all metrics", &v);
	}
	if (!lists)
		return;
	for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		if (limits[i] == q->limit)
			continue;
		snprintf(text, sizeof text, "%lld rows",
		    (long long)limits[i]);
		v = *q;
		v.limit = limits[i];
		control(d, l, text, &v);
	}
}

/* The preference toggles (columns_toggles()) of a page on metric m. */
void
columns_controls(struct display *d, const struct profile *p, int m,
    const struct query *q, int lists)
{
	struct columns	 c;
	int		 rated = 0;
	uint32_t	 k;

	columns_init(&c, p, m, q, COLUMNS_SELF | COLUMNS_TOTAL);
	for (k = 0; k < p->nmetrics; k++) {
		if (profile_metric_rate(p, k) > 0 && (c.calls == NULL ||
		    strcmp(c.calls, p->metrics[k].name) != 0))
			rated = 1;
	}
	columns_toggles(d, &c, rated, p->nmetrics, q, lists);
}

/*
 * "Rows 51-100 of 740." with links to the previous and next pages of a
 * list report: a page of n rows from row from, of matched in all.
 */
void
columns_pager(struct display *d, const struct query *q, int64_t from,
    int64_t n, int64_t matched)
{
	struct display_block	*l;
	struct query		 v = *q;
	char			*link;

	if (n == 0)
		return;
	display_text(d, "Rows %lld-%lld of %lld.", (long long)from + 1,
	    (long long)(from + n), (long long)matched);
	if (from == 0 && from + n >= matched)
		return;
	l = display_links(d);
	if (from > 0) {
		v.from = from > q->limit ? from - q->limit : 0;
		link = query_format(&v);
		display_link(d, l, "previous rows", link);
		free(link);
	}
	if (from + n < matched) {
		v.from = from + n;
		link = query_format(&v);
		display_link(d, l, "next rows", link);
		free(link);
	}
}

/*
 * The metric switch of a page: the same page in each of the n metrics
 * (names[cur] the current one, names[0] the default). Nothing for a
 * profile of one metric.
 */
void
columns_metrics(struct display *d, const struct query *q,
    const char *const *names, size_t n, size_t cur)
{
	struct display_block	*l;
	struct query		 v = *q;
	char			*link;
	size_t			 i;

	if (n < 2)
		return;
	l = display_switch(d, "Metric");
	for (i = 0; i < n; i++) {
		if (i == cur) {
			display_link(d, l, names[i], NULL);
			continue;
		}
		/* Sorting or paging by the old metric means nothing now. */
		v.metric = i == 0 ? "" : names[i];
		v.from = 0;
		link = query_format(&v);
		if (link != NULL)
			display_link(d, l, names[i], link);
		free(link);
	}
}

/*
 * columns_metrics() from the profile and the current metric m, as the
 * report's JSON lists them: a comparison's (cmp) base values, the
 * profile's last metric, are no metric of their own; the current one is
 * the last of its name.
 */
void
columns_metrics_profile(struct display *d, const struct query *q,
    const struct profile *p, int m, int cmp)
{
	const char	*names[PROFILE_MAX_METRICS];
	uint32_t	 k, n, at = 0;

	n = p->nmetrics < PROFILE_MAX_METRICS ? p->nmetrics :
	    PROFILE_MAX_METRICS;
	if (cmp && n > 0 && n == p->nmetrics &&
	    strcmp(p->metrics[n - 1].name, "base") == 0)
		n--;
	for (k = 0; k < n; k++) {
		names[k] = p->metrics[k].name;
		if (strcmp(names[k], p->metrics[m].name) == 0)
			at = k;
	}
	columns_metrics(d, q, names, n, at);
}

/*
 * The other view of a tree page's profile: the inverted tree (callers
 * first; pushing or popping inv on t=). The flame graph of the same view
 * is the header's, its icicle and chart the flame page's. Pages only (a
 * switch); one link, as each costs a page about 1 %.
 */
void
columns_views(struct display *d, const struct query *q)
{
	struct display_block	*l;
	struct query		 v;
	const char		*cur = q->t;
	size_t			 n = strlen(cur);
	char			*link, *item;
	int			 inv = n >= 4 && strcmp(cur + n - 4, "~inv") == 0;

	l = display_switch(d, "View");
	display_link(d, l, inv ? "inverted tree" : "call tree", NULL);
	if (inv)
		item = n > 5 ? strndup(cur, n - 4) : NULL;
	else if (asprintf(&item, "%s~inv", n ? cur : "1") == -1)
		item = NULL;
	if (item != NULL || inv) {
		v = *q;
		v.t = item != NULL ? item : "";
		v.path = NULL;
		v.npath = 0;
		v.open = v.close = "";
		link = query_format(&v);
		display_link(d, l, inv ? "call tree" : "inverted (callers "
		    "first)", link);
		free(link);
	}
	free(item);
}

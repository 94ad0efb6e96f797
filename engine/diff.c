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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cause.h"
#include "diff.h"
#include "display.h"
#include "json-build.h"
#include "profile-builder.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * base= comparisons (see diff.h): the merge, and the helper every report
 * uses to add the base, delta and ratio of a row to its JSON and to its
 * table, so that no report computes a comparison its own way.
 */

static int	diff_fail(int *, int, char **, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));
static int	diff_copy(struct profile_builder *, const struct profile *,
		    const int *, const int *, uint32_t);
static int	diff_set(json_t *, const struct diff *, int64_t, int64_t,
		    int64_t, int64_t);

static int
diff_fail(int *status, int code, char **cause, const char *fmt, ...)
{
	va_list	 ap;

	*status = code;
	va_start(ap, fmt);
	cause_vset(cause, fmt, ap);
	va_end(ap);
	return (-1);
}

/*
 * Add profile p's call nodes to the builder by function path, with the
 * self values of p's metric k going to the builder's metric to[k] (-1:
 * not copied). from lists p's metrics to copy, nm of them.
 */
static int
diff_copy(struct profile_builder *b, const struct profile *p,
    const int *from, const int *to, uint32_t nm)
{
	uint32_t	*map, *fmap, n, f, k;
	const char	*name, *module;
	int64_t		 v;
	int		 rc = -1;

	if ((map = calloc(p->nnodes, sizeof *map)) == NULL ||
	    (fmap = calloc(p->nfuncs, sizeof *fmap)) == NULL) {
		free(map);
		return (-1);
	}
	fmap[PROFILE_ROOT] = PROFILE_ROOT;
	for (f = 1; f < p->nfuncs; f++) {
		name = profile_func_name(p, f);
		module = profile_func_module(p, f);
		if ((fmap[f] = profile_builder_func(b, name, strlen(name),
		    module, strlen(module))) == PROFILE_NONE)
			goto done;
		if (p->func_file[f] != 0) {
			name = profile_string(p, p->func_file[f]);
			profile_builder_func_location(b, fmap[f], name,
			    strlen(name), p->func_line[f]);
		}
	}
	map[PROFILE_ROOT] = PROFILE_ROOT;
	/* Parents come before children (profile.h). */
	for (n = 1; n < p->nnodes; n++) {
		if ((map[n] = profile_builder_child(b,
		    map[p->node_parent[n]], fmap[p->node_func[n]])) ==
		    PROFILE_NONE)
			goto done;
	}
	for (n = 0; n < p->nnodes; n++) {
		for (k = 0; k < nm; k++) {
			v = p->metrics[from[k]].self[n];
			if (v != 0 && profile_builder_add(b, map[n], to[k],
			    v) == -1)
				goto done;
		}
	}
	rc = 0;
done:
	free(map);
	free(fmap);
	return (rc);
}

/*
 * Merge cur with base for metric name ("" = cur's first metric): every
 * metric of cur, then "base" holding base's values of that metric. NULL
 * with *status and *cause on failure.
 */
struct profile *
diff_merge(const struct profile *cur, const struct profile *base,
    const char *metric, int *status, char **cause)
{
	struct profile_builder	*b;
	struct profile		*p;
	int			 from[PROFILE_MAX_METRICS], to[PROFILE_MAX_METRICS];
	int			 m, bm, k;
	char			*why = NULL;

	m = *metric == '\0' ? 0 : profile_metric_find(cur, metric);
	if (m == -1) {
		diff_fail(status, 400, cause, "unknown metric: %s", metric);
		return (NULL);
	}
	if (profile_metric_find(cur, DIFF_METRIC) != -1) {
		diff_fail(status, 400, cause, "the profile is already a "
		    "comparison (it has a %s metric)", DIFF_METRIC);
		return (NULL);
	}
	if (cur->nmetrics >= PROFILE_MAX_METRICS) {
		diff_fail(status, 400, cause, "too many metrics to compare");
		return (NULL);
	}
	if ((bm = profile_metric_find(base, cur->metrics[m].name)) == -1) {
		diff_fail(status, 400, cause, "the base profile has no metric "
		    "%s", cur->metrics[m].name);
		return (NULL);
	}
	if ((b = profile_builder_create(cur->format)) == NULL)
		goto nomem;
	for (k = 0; k < (int)cur->nmetrics; k++) {
		from[k] = k;
		if ((to[k] = profile_builder_metric(b, cur->metrics[k].name,
		    cur->metrics[k].unit)) != k)
			goto nomem;
		profile_builder_metric_rate(b, k, cur->metrics[k].rate);
	}
	/* cur first, in id order: its function ids stay valid in queries. */
	if (diff_copy(b, cur, from, to, cur->nmetrics) == -1)
		goto fail;
	if (b == NULL || (to[0] = profile_builder_metric(b, DIFF_METRIC,
	    cur->metrics[m].unit)) == -1)
		goto nomem;
	profile_builder_metric_rate(b, to[0], cur->metrics[m].rate);
	from[0] = bm;
	if (diff_copy(b, base, from, to, 1) == -1)
		goto fail;
	if ((p = profile_builder_finish(b, &why)) == NULL) {
		diff_fail(status, 500, cause, "%s", why ? why :
		    "out of memory");
		free(why);
		return (NULL);
	}
	if (p->nfuncs < cur->nfuncs) {
		profile_free(p);
		diff_fail(status, 500, cause, "comparison lost functions");
		return (NULL);
	}
	return (p);
fail:
	diff_fail(status, 500, cause, "%s", profile_builder_error(b) ?
	    profile_builder_error(b) : "out of memory");
	profile_builder_free(b);
	return (NULL);
nomem:
	profile_builder_free(b);
	diff_fail(status, 500, cause, "out of memory");
	return (NULL);
}

/*
 * Is p a comparison for the query's metric? 1 and *d filled, or 0 (no
 * base values, or the query looks at the base metric itself).
 */
int
diff_init(struct diff *d, const struct profile *p, const struct query *q)
{
	const char	*metric = q->metric;

	memset(d, 0, sizeof *d);
	if ((d->bm = profile_metric_find(p, DIFF_METRIC)) == -1)
		return (0);
	d->m = *metric == '\0' ? 0 : profile_metric_find(p, metric);
	if (d->m == -1 || d->m == d->bm)
		return (0);
	d->scale = 1.0;
	d->normalize = q->normalize;
	/* Normalised as pprof does: the base scaled to the same total. */
	if (d->normalize && p->metrics[d->bm].sum > 0)
		d->scale = (double)p->metrics[d->m].sum /
		    (double)p->metrics[d->bm].sum;
	return (1);
}

/* A base value as compared (scaled when normalize=1). */
int64_t
diff_base(const struct diff *d, int64_t b)
{
	if (d->scale == 1.0)
		return (b);
	return ((int64_t)llround((double)b * d->scale));
}

/*
 * {"value", "base", "delta", "ratio"} of one figure: base is as compared
 * (scaled when normalised), delta = value - base, ratio = value / base
 * (null when base is 0).
 */
json_t *
diff_values(const struct diff *d, int64_t v, int64_t b)
{
	int64_t	 sb = diff_base(d, b);

	return (json_pack("{s:I, s:I, s:I, s:o}", "value", (json_int_t)v,
	    "base", (json_int_t)sb, "delta", (json_int_t)(v - sb), "ratio",
	    sb != 0 ? json_real((double)v / (double)sb) : json_null()));
}

/* Set a row's "diff": {"self": ..., "total": ...}. */
static int
diff_set(json_t *row, const struct diff *d, int64_t self, int64_t bself,
    int64_t total, int64_t btotal)
{
	json_t	*o;

	if ((o = json_pack("{s:o, s:o}", "self", diff_values(d, self, bself),
	    "total", diff_values(d, total, btotal))) == NULL)
		return (-1);
	return (json_object_set_new(row, "diff", o));
}

/*
 * Add "diff": {"self": ..., "total": ...} to a row about node i (funcs
 * 0) or function i (funcs 1).
 */
int
diff_add(json_t *row, const struct profile *p, const struct diff *d,
    int funcs, uint32_t i)
{
	const struct profile_metric	*m = &p->metrics[d->m];
	const struct profile_metric	*b = &p->metrics[d->bm];

	if (funcs)
		return (diff_set(row, d, m->func_self[i], b->func_self[i],
		    m->func_total[i], b->func_total[i]));
	return (diff_set(row, d, m->self[i], b->self[i], m->total[i],
	    b->total[i]));
}

/*
 * The same for a row of aggregated values (a caller, a callee, a
 * module): self and total hold one value per metric of the profile.
 */
int
diff_add_values(json_t *row, const struct diff *d, const int64_t *self,
    const int64_t *total)
{
	return (diff_set(row, d, self[d->m], self[d->bm], total[d->m],
	    total[d->bm]));
}

/* A report's "comparison": the totals of both sides. */
int
diff_summary(json_t *j, const struct profile *p, const struct diff *d)
{
	json_t	*o;
	struct json_build	 jb = JSON_BUILD_INIT;

	if ((o = diff_values(d, p->metrics[d->m].sum,
	    p->metrics[d->bm].sum)) == NULL)
		return (-1);
	json_build_set(&jb, o, "metric", json_string(p->metrics[d->m].name));
	json_build_set(&jb, o, "normalize", json_boolean(d->normalize));
	json_build_set(&jb, o, "scale", json_real(d->scale));
	json_build_set(&jb, o, "base_raw",
	    json_integer(p->metrics[d->bm].sum));
	json_build_set(&jb, j, "comparison", o);
	return (json_build_status(&jb));
}

/*
 * Does the query sort a comparison by its change? DIFF_SORT_DELTA or
 * DIFF_SORT_RATIO for sort=delta and sort=ratio with base=, else -1
 * (the report sorts as report_sort says).
 */
int
diff_sort(int cmp, const struct query *q)
{
	if (!cmp)
		return (-1);
	/* The rows of callers and callees sort by the total's change. */
	if (q->sort == QUERY_SORT_DELTA || q->sort == QUERY_SORT_DSELF)
		return (DIFF_SORT_DELTA);
	if (q->sort == QUERY_SORT_RATIO)
		return (DIFF_SORT_RATIO);
	return (-1);
}

/*
 * The sort of a page that compares: with ds (diff_sort()) set, by the
 * total of the comparison's metric, whose index goes to *mp; otherwise
 * as report_sort() says. -1 with e set for a sort the query may not ask.
 */
int
diff_report_sort(const struct diff *d, int ds, const struct profile *p,
    const struct query *q, int m, int *mp, struct report_error *e)
{
	if (ds == -1)
		return (report_sort(p, q, m, mp, e));
	*mp = d->m;
	return (REPORT_SORT_TOTAL);
}

/*
 * Sort keys for report_order of n rows: the delta (DIFF_SORT_DELTA) or
 * the ratio (DIFF_SORT_RATIO, in millionths; new rows first) of v[i *
 * stride] against its base bv[i * stride].
 */
void
diff_keys(const struct diff *d, int how, const int64_t *v, const int64_t *bv,
    size_t stride, uint32_t n, int64_t *key)
{
	uint32_t	 i;
	int64_t		 x, b;
	double		 r;

	for (i = 0; i < n; i++) {
		x = v[i * stride];
		b = diff_base(d, bv[i * stride]);
		if (how == DIFF_SORT_DELTA)
			key[i] = x - b;
		else if (b == 0)
			key[i] = x > 0 ? INT64_MAX : 0;
		else {
			r = (double)x / (double)b * 1e6;
			key[i] = r > 9e18 ? INT64_MAX : (int64_t)r;
		}
	}
}

/*
 * Sort keys for report_order: the delta (ratio 0) or the ratio (ratio 1)
 * of the total (total 1) or self value of every function.
 */
int
diff_key(const struct diff *d, const struct profile *p, int ratio, int total,
    int64_t *key)
{
	diff_keys(d, ratio ? DIFF_SORT_RATIO : DIFF_SORT_DELTA,
	    total ? p->metrics[d->m].func_total : p->metrics[d->m].func_self,
	    total ? p->metrics[d->bm].func_total : p->metrics[d->bm].func_self,
	    1, p->nfuncs, key);
	return (0);
}

/* The comparison's column headers from column col; returns the next. */
uint32_t
diff_head(struct display *d, struct display_block *t, uint32_t col)
{
	display_head(d, t, col, "Base", NULL, DISPLAY_NUM);
	display_head(d, t, col + 1, "\xce\x94 total", NULL, DISPLAY_NUM);
	display_head(d, t, col + 2, "Ratio", NULL, DISPLAY_NUM);
	display_head(d, t, col + 3, "\xce\x94 self", NULL, DISPLAY_NUM);
	return (col + DIFF_COLUMNS);
}

static void
diff_cell(struct display *d, struct display_block *t, size_t r, uint32_t col,
    int64_t v, int sign)
{
	char	*s, *n;

	if ((n = display_number(v < 0 ? -v : v)) == NULL)
		return;
	if (asprintf(&s, "%s%s", v < 0 ? "-" : sign && v > 0 ? "+" : "",
	    n) != -1) {
		display_cell(d, t, r, col, s, NULL, DISPLAY_NUM |
		    (v == 0 ? DISPLAY_DIM : !sign ? 0 : v > 0 ? DISPLAY_UP :
		    DISPLAY_DOWN));
		free(s);
	}
	free(n);
}

/*
 * A row's comparison cells from column col: the base's total, the change
 * of the total, their ratio (has_ratio 0: "new", no base value) and the
 * change of self.
 */
static void
diff_cells(struct display *d, struct display_block *t, size_t r,
    uint32_t col, int64_t base, int64_t dtotal, int has_ratio, double ratio,
    int64_t dself)
{
	char		 buf[32];

	diff_cell(d, t, r, col, base, 0);
	diff_cell(d, t, r, col + 1, dtotal, 1);
	if (has_ratio)
		snprintf(buf, sizeof buf, "%.3f", ratio);
	else
		snprintf(buf, sizeof buf, "new");
	display_cell(d, t, r, col + 2, buf, NULL, DISPLAY_NUM);
	diff_cell(d, t, r, col + 3, dself, 1);
}

/*
 * A row's comparison cells from column col, from the compared metric's
 * values: self and total here, bself and btotal in the base (unscaled),
 * as diff_set() puts them in the row's "diff".
 */
void
diff_row(struct display *d, struct display_block *t, size_t r,
    uint32_t col, const struct diff *df, int64_t self, int64_t bself,
    int64_t total, int64_t btotal)
{
	int64_t	 sb = diff_base(df, btotal);

	diff_cells(d, t, r, col, sb, total - sb, sb != 0, sb != 0 ?
	    (double)total / (double)sb : 0, self - diff_base(df, bself));
}

/*
 * The sentence that heads a comparison page, from the comparison's
 * totals (value here, base scaled, has_ratio 0 when the base is 0).
 */
static void
diff_sentence(struct display *d, const char *name, int normalize,
    double scale, const char *metric, int64_t value, int64_t base,
    int64_t delta, int has_ratio, double ratio)
{
	char	*v, *b, *dl;

	v = display_number(value);
	b = display_number(base);
	dl = display_number(delta);
	display_text(d, "Compared with %s%s: %s %s here, %s in the base, "
	    "delta %s%s (ratio %.3f).", name ? name : "the base",
	    normalize ? " (normalised to equal totals)" : "", v ? v : "?",
	    metric, b ? b : "?", delta > 0 ? "+" : "", dl ? dl : "?",
	    has_ratio ? ratio : 0.0);
	if (normalize && scale != 1.0)
		display_text(d, "The base's figures are multiplied by %.4g so "
		    "that both totals are equal: a row's change is its change "
		    "of share. \"raw totals\" compares the counts as they "
		    "are.", scale);
	free(v);
	free(b);
	free(dl);
}

/*
 * The sentence that heads a comparison page, from the comparison (what
 * diff_summary() puts in the JSON): name is base='s, or NULL.
 */
void
diff_text(struct display *d, const struct profile *p,
    const struct diff *df, const char *name)
{
	int64_t	 v = p->metrics[df->m].sum;
	int64_t	 sb = diff_base(df, p->metrics[df->bm].sum);

	diff_sentence(d, name, df->normalize, df->scale,
	    p->metrics[df->m].name, v, sb,
	    v - sb, sb != 0, sb != 0 ? (double)v / (double)sb : 0);
}

/*
 * A comparison's controls (pages only): normalize or not, sort by the
 * change (where the report sorts, sorts), and the profile alone again.
 */
void
diff_controls(struct display *d, const struct query *q, int sorts)
{
	struct display_block	*l;
	struct query		 v = *q;
	char			*link;

	l = display_switch(d, "Comparison");
	/* Normalised is the default: raw totals are normalize=0. */
	v.normalize = !q->normalize;
	link = query_format(&v);
	display_link(d, l, q->normalize ? "raw totals" :
	    "normalize the totals", link);
	free(link);
	if (sorts) {
		link = report_sort_link(q, QUERY_SORT_DELTA);
		display_link(d, l, "sort by \xce\x94 total", link);
		free(link);
		link = report_sort_link(q, QUERY_SORT_DSELF);
		display_link(d, l, "sort by \xce\x94 self", link);
		free(link);
		link = report_sort_link(q, QUERY_SORT_RATIO);
		display_link(d, l, "sort by ratio", link);
		free(link);
	}
	/* The profile alone: its tree's nodes are no longer the same. */
	v = *q;
	v.base = "";
	query_key_reset(&v, QUERY_NORMALIZE);
	v.sort = QUERY_SORT_TOTAL;
	v.path = NULL;
	v.npath = 0;
	v.open = v.close = "";
	link = query_format(&v);
	display_link(d, l, "stop comparing", link);
	free(link);
}

/* diff_head() whose change columns sort the report by themselves. */
void
diff_head_sort(struct display *d, struct display_block *t, uint32_t col,
    const struct query *q)
{
	char	*link;

	diff_head(d, t, col);
	link = report_sort_link(q, QUERY_SORT_DELTA);
	display_head(d, t, col + 1, q->sort == QUERY_SORT_DELTA ?
	    "\xce\x94 total \xe2\x96\xbc" : "\xce\x94 total", link,
	    DISPLAY_NUM);
	free(link);
	link = report_sort_link(q, QUERY_SORT_RATIO);
	display_head(d, t, col + 2, q->sort == QUERY_SORT_RATIO ?
	    "Ratio \xe2\x96\xbc" : "Ratio", link, DISPLAY_NUM);
	free(link);
	link = report_sort_link(q, QUERY_SORT_DSELF);
	display_head(d, t, col + 3, q->sort == QUERY_SORT_DSELF ?
	    "\xce\x94 self \xe2\x96\xbc" : "\xce\x94 self", link,
	    DISPLAY_NUM);
	free(link);
}

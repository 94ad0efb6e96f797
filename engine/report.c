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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cost.h"
#include "display.h"
#include "json-build.h"
#include "lines.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * What reports build with: errors, the members every report's JSON has,
 * links to other pages, the function a query names, sorting. The table
 * of reports and the running of one are reports.c's.
 */

static uint32_t	report_func_qualified(const struct profile *, const char *);
static int	order_cmp(const void *, const void *, void *);

/* Fill an error; returns -1 so callers can `return (report_error_set())'. */
int
report_error_set(struct report_error *e, int status, const char *fmt, ...)
{
	va_list	 ap;

	if (e == NULL)
		return (-1);
	free(e->message);
	e->status = status;
	va_start(ap, fmt);
	if (vasprintf(&e->message, fmt, ap) == -1)
		e->message = NULL;
	va_end(ap);
	return (-1);
}

/*
 * The error of a pass that failed: 503 if the query's budget is spent,
 * else out of memory. Returns -1.
 */
int
report_error_cost(struct report_error *e, const struct cost *c)
{
	if (!cost_over(c))
		return (report_error_set(e, 500, "out of memory"));
	free(e->message);
	e->status = 503;
	e->message = cost_message(c);
	return (-1);
}

/*
 * An answer stopped at max bytes (outbuf_max): 413, with the limit, so
 * that the client narrows the query rather than retries it.
 */
int
report_error_too_large(struct report_error *e, size_t max)
{
	return (report_error_set(e, 413, "the answer is larger than %zu "
	    "MiB, the most one may be (max_answer in deepq.conf(5)): ask "
	    "for less (depth=, budget=, maxdepth=, a transform)", max >> 20));
}

/* A new report object with the fields every answer has. */
json_t *
report_new(enum catalog_cmd cmd)
{
	return (json_pack("{s:i, s:s}", "deepq", REPORT_VERSION, "cmd",
	    catalog_reports[cmd].name));
}

/*
 * report_new() of a table report: its metrics (metric m) and an array
 * of rows under key, in *rows. NULL if out of memory.
 */
json_t *
report_new_table(enum catalog_cmd cmd, const struct profile *p, int m,
    const char *key, json_t **rows)
{
	json_t	*j;

	if ((j = report_new(cmd)) == NULL)
		return (NULL);
	if (report_metrics(j, p, m) == -1 || (*rows = json_array()) == NULL ||
	    json_object_set_new(j, key, *rows) == -1) {
		json_decref(j);
		return (NULL);
	}
	return (j);
}

/* The metric a query names (metric=), or 0; -1 with *e if unknown. */
int
report_metric(const struct profile *p, const struct query *q,
    struct report_error *e)
{
	const char	*name = q->metric;
	int		 m;

	if (*name == '\0')
		return (0);
	if ((m = profile_metric_find(p, name)) == -1)
		return (report_error_set(e, 400, "unknown metric: %s", name));
	return (m);
}

/*
 * {metric: value} for index i of one array per metric (vals[k] is metric
 * k's array, e.g. self or total): the row of index i, gathered, written
 * by report_row_values() (one writer of the object for both forms).
 */
json_t *
report_values(const struct profile *p, const int64_t *const *vals,
    uint32_t i)
{
	int64_t		 v[PROFILE_MAX_METRICS];
	uint32_t	 k;

	for (k = 0; k < p->nmetrics && k < PROFILE_MAX_METRICS; k++)
		v[k] = vals[k][i];
	return (report_row_values(p, v));
}

/* {metric: value} from a row of nmetrics values (v[k] for metric k). */
json_t *
report_row_values(const struct profile *p, const int64_t *v)
{
	json_t		*o;
	uint32_t	 k;

	if ((o = json_object()) == NULL)
		return (NULL);
	for (k = 0; k < p->nmetrics; k++) {
		if (json_object_set_new(o, p->metrics[k].name,
		    json_integer(v[k])) == -1) {
			json_decref(o);
			return (NULL);
		}
	}
	return (o);
}

/*
 * Can the profile's metrics go into a report's JSON (report_metrics())?
 * A rate JSON cannot hold (not finite) fails every performance report,
 * its pages too: -1 with *e (500) then.
 */
int
report_rates_check(const struct profile *p, struct report_error *e)
{
	double		 rate;
	uint32_t	 k;

	for (k = 0; k < p->nmetrics; k++) {
		if ((rate = profile_metric_rate(p, k)) > 0 && !isfinite(rate))
			return (report_error_set(e, 500, "out of memory"));
	}
	return (0);
}

/*
 * The members every performance report has (deepq-query(7)): "metric"
 * (the one it sorts and scores by), its "unit" and "total", and the
 * profile's "metrics" (name, unit, rate if known) and "totals", from
 * which pages show percentages, seconds and averages. -1 if no memory.
 */
int
report_metrics(json_t *j, const struct profile *p, int m)
{
	json_t		*metrics, *totals, *o;
	uint32_t	 k;
	double		 rate;

	if ((metrics = json_array()) == NULL)
		return (-1);
	if (json_object_set_new(j, "metrics", metrics) == -1 ||
	    (totals = json_object()) == NULL ||
	    json_object_set_new(j, "totals", totals) == -1)
		return (-1);
	for (k = 0; k < p->nmetrics; k++) {
		if ((o = json_pack("{s:s, s:s}", "name", p->metrics[k].name,
		    "unit", p->metrics[k].unit)) == NULL ||
		    json_array_append_new(metrics, o) == -1)
			return (-1);
		if ((rate = profile_metric_rate(p, k)) > 0 &&
		    json_object_set_new(o, "rate", json_real(rate)) == -1)
			return (-1);
		if (json_object_set_new(totals, p->metrics[k].name,
		    json_integer(p->metrics[k].sum)) == -1)
			return (-1);
	}
	if (json_object_set_new(j, "metric",
	    json_string(p->metrics[m].name)) == -1 ||
	    json_object_set_new(j, "unit",
	    json_string(p->metrics[m].unit)) == -1 ||
	    json_object_set_new(j, "total",
	    json_integer(p->metrics[m].sum)) == -1)
		return (-1);
	return (0);
}

/*
 * The metric whose values a {metric: value} object shows for metric k:
 * the last of k's name (JSON keeps one value a name).
 */
uint32_t
report_metric_last(const struct profile *p, uint32_t k)
{
	uint32_t	 l, at = k;

	for (l = k + 1; l < p->nmetrics; l++) {
		if (strcmp(p->metrics[l].name, p->metrics[k].name) == 0)
			at = l;
	}
	return (at);
}

/* {metric: value} of node n: self (which 0) or total (1). */
json_t *
report_node_values(const struct profile *p, int which, uint32_t n)
{
	const int64_t	*v[PROFILE_MAX_METRICS];
	uint32_t	 k;

	for (k = 0; k < p->nmetrics; k++)
		v[k] = which ? p->metrics[k].total : p->metrics[k].self;
	return (report_values(p, v, n));
}

/* {metric: value} of node or function i: self (which 0) or total (1). */
json_t *
report_func_values(const struct profile *p, int which, uint32_t f)
{
	const int64_t	*v[PROFILE_MAX_METRICS];
	uint32_t	 k;

	for (k = 0; k < p->nmetrics; k++)
		v[k] = which ? p->metrics[k].func_total :
		    p->metrics[k].func_self;
	return (report_values(p, v, f));
}

/*
 * A view of q (query.h) for a link from its page to report cmd: the
 * preferences are kept (metric, sort, fields, units, pct, avg, limit,
 * transforms, file...), what addresses the page (QUERY_KEY_PAGE: path,
 * func, module, clique, by, from, open, close, min, find) is dropped,
 * and so are the other reports' own preferences (the catalog's prefs:
 * depth and budget stay with tree pages). The caller sets what the link
 * addresses (v->func = id...) and makes it with query_format(v).
 */
void
report_view(struct query *v, const struct query *q, enum catalog_cmd cmd)
{
	uint64_t	 drop = 0;
	int		 i, k;

	*v = *q;
	for (i = 0; i < CMD_N; i++) {
		if (i != (int)cmd)
			drop |= catalog_reports[i].prefs;
	}
	for (k = 0; k < QUERY_NKEYS; k++) {
		if ((drop & QUERY_BIT(k)) ||
		    (query_keyinfo(k)->flags & QUERY_KEY_PAGE))
			query_key_reset(v, k);
	}
	v->cmd = cmd;
}

/*
 * The function named "module`name", as pages show it (report_func_label), or
 * PROFILE_NONE: the name that tells two functions of one name apart.
 */
static uint32_t
report_func_qualified(const struct profile *p, const char *s)
{
	const char	*tick;
	size_t		 n;
	uint32_t	 f;

	/* A module may hold a backtick itself: try every split. */
	for (tick = strchr(s, '`'); tick != NULL; tick = strchr(tick + 1,
	    '`')) {
		n = tick - s;
		for (f = 1; f < p->nfuncs; f++) {
			if (strncmp(profile_func_module(p, f), s, n) == 0 &&
			    profile_func_module(p, f)[n] == '\0' &&
			    strcmp(profile_func_name(p, f), tick + 1) == 0)
				return (f);
		}
	}
	return (PROFILE_NONE);
}

/*
 * The function a query names, or PROFILE_NONE with *e set. Shared by
 * func and callers: a function id, an exact name, or module`name.
 */
uint32_t
report_func_find(const struct profile *p, const struct query *q,
    struct report_error *e)
{
	uint32_t	 f;

	if (*q->func == '\0') {
		report_error_set(e, 400, "func= is required (a function id "
		    "or exact name)");
		return (PROFILE_NONE);
	}
	f = profile_func_find(p, q->func);
	if (f == PROFILE_NONE)
		f = report_func_qualified(p, q->func);
	if (f == PROFILE_NONE || f == PROFILE_ROOT) {
		report_error_set(e, 404, "no function %s", q->func);
		return (PROFILE_NONE);
	}
	return (f);
}

/*
 * The link to function f's page (cmd=func); NULL for the root, which
 * has no page (a caller row of a top-level function).
 */
char *
report_func_link(const struct query *q, int64_t f)
{
	struct query	 v;
	char		 id[32];

	if (f <= 0)
		return (NULL);
	snprintf(id, sizeof id, "%lld", (long long)f);
	report_view(&v, q, CMD_FUNC);
	v.func = id;
	return (query_format(&v));
}

/* The link from q's page to report cmd (report_view()). Caller frees. */
char *
report_cmd_link(const struct query *q, enum catalog_cmd cmd)
{
	struct query	 v;

	report_view(&v, q, cmd);
	return (query_format(&v));
}

/* The link to clique c's page (cmd=clique). Caller frees. */
char *
report_clique_link(const struct query *q, uint32_t c)
{
	struct query	 v;

	report_view(&v, q, CMD_CLIQUE);
	v.clique = c;
	return (query_format(&v));
}

/* The link to a module's page (cmd=module; "" is no module). */
char *
report_module_link(const struct query *q, const char *module)
{
	struct query	 v;

	report_view(&v, q, CMD_MODULE);
	v.module = module;
	return (query_format(&v));
}

/*
 * The link to the tree rooted at node n of p; NULL if deeper than a
 * query can address or out of memory.
 */
char *
report_node_link(const struct query *q, const struct profile *p, uint32_t n)
{
	struct query	 v;
	uint32_t	*ids;
	size_t		 len;
	char		*link;

	if (report_path_ids(p, n, &ids, &len) == -1)
		return (NULL);
	report_view(&v, q, CMD_TREE);
	v.path = ids;
	v.npath = len;
	link = query_format(&v);
	free(ids);
	return (link);
}

/* The same page sorted by sort, from its first row. Caller frees. */
char *
report_sort_link(const struct query *q, enum query_sort sort)
{
	struct query	 v = *q;

	v.sort = sort;
	v.from = 0;
	return (query_format(&v));
}

/*
 * The costs by source line a report links to: the profile loaded's
 * (ctx->origin), which a derived profile shares the function ids of.
 * NULL when it has none.
 */
const struct profile_lines *
report_lines(const struct profile *p, const struct report_context *ctx)
{
	return (report_origin(p, ctx)->lines);
}

/* The profile loaded, of which p is derived (or p itself). */
const struct profile *
report_origin(const struct profile *p, const struct report_context *ctx)
{
	return (ctx != NULL && ctx->origin != NULL ? ctx->origin : p);
}

/* Has function f rows in l (lines.h)? */
int
report_has_lines(const struct profile_lines *l, uint32_t f)
{
	return (l != NULL && f != PROFILE_ROOT &&
	    lines_func_first(l, f) != lines_func_end(l, f));
}

/*
 * The anchor of function f's row in l on its source page (cmd=source):
 * "L42" in its first file, "F2-L42" in its second... into buf.
 */
void
report_source_anchor(const struct profile_lines *l, uint32_t f,
    uint32_t row, char *buf, size_t len)
{
	uint32_t	 i, k = 1;

	for (i = lines_func_first(l, f) + 1; i <= row && i < l->nrows; i++) {
		if (l->row_file[i] != l->row_file[i - 1])
			k++;
	}
	if (k == 1)
		snprintf(buf, len, "L%u", l->row_line[row]);
	else
		snprintf(buf, len, "F%u-L%u", k, l->row_line[row]);
}

/*
 * The view of q that links to a function's source page (cmd=source),
 * func= for the caller to set: the page shows the profile as loaded,
 * so the keys that change the tree (t=, base=, the filters) go.
 */
void
report_source_view(struct query *v, const struct query *q)
{
	int	 k;

	report_view(v, q, CMD_SOURCE);
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (query_keyinfo(k)->flags & QUERY_KEY_TREE)
			query_key_reset(v, k);
	}
}

/*
 * The link to function f's source page (cmd=source) at its hottest line
 * in the page's metric, or NULL when the profile loaded (origin) has no
 * lines for f.
 */
char *
report_source_link(const struct query *q, const struct profile *origin,
    uint32_t f)
{
	const struct profile_lines	*l = origin->lines;
	struct query			 v;
	char				 id[32], frag[48], *s, *t;
	int				 m;
	uint32_t			 hot;

	if (!report_has_lines(l, f))
		return (NULL);
	snprintf(id, sizeof id, "%u", f);
	report_source_view(&v, q);
	v.func = id;
	if ((s = query_format(&v)) == NULL)
		return (NULL);
	/* The page opens at the line where the cost is. */
	if ((m = profile_metric_find(origin, q->metric)) == -1)
		m = 0;
	if ((hot = lines_hottest(l, f, (uint32_t)m)) == LINES_NONE)
		return (s);
	report_source_anchor(l, f, hot, frag, sizeof frag);
	if (asprintf(&t, "%s#%s", s, frag) == -1)
		t = NULL;
	free(s);
	return (t);
}

/*
 * {"func", "name", "module"} of function f, with "file" and "line" when
 * the profile knows them: the subject of a row.
 */
json_t *
report_func(const struct profile *p, uint32_t f)
{
	json_t	*o;
	struct json_build	 jb = JSON_BUILD_INIT;

	if ((o = json_pack("{s:i, s:s, s:s}", "func", (json_int_t)f,
	    "name", profile_func_name(p, f), "module",
	    profile_func_module(p, f))) == NULL)
		return (NULL);
	if (f < p->nfuncs && p->func_file[f] != 0)
		json_build_set(&jb, o, "file", json_string(profile_string(p,
		    p->func_file[f])));
	if (f < p->nfuncs && p->func_line[f] != 0)
		json_build_set(&jb, o, "line", json_integer(p->func_line[f]));
	return (json_build_end(&jb, o));
}

/*
 * The call node path of node n ("3,7,9": function ids from the root), or
 * NULL if deeper than a query can address or out of memory.
 */
char *
report_path(const struct profile *p, uint32_t n)
{
	uint32_t	*ids;
	size_t		 d;
	char		*s;

	if (report_path_ids(p, n, &ids, &d) == -1)
		return (NULL);
	s = query_path_format(ids, d);
	free(ids);
	return (s);
}

/*
 * The call node path of node n as function ids from the root, *n of
 * them in *ids (the caller frees; NULL for the root); -1 if deeper than
 * a query can address or out of memory.
 */
int
report_path_ids(const struct profile *p, uint32_t n, uint32_t **ids,
    size_t *len)
{
	uint32_t	 d, i;

	*ids = NULL;
	*len = 0;
	if (n >= p->nnodes || (d = p->node_depth[n]) > QUERY_MAX_PATH)
		return (-1);
	if (d == 0)
		return (0);
	if ((*ids = malloc(d * sizeof **ids)) == NULL)
		return (-1);
	for (i = d; i > 0; i--) {
		(*ids)[i - 1] = p->node_func[n];
		n = p->node_parent[n];
	}
	*len = d;
	return (0);
}

/*
 * What sort= asks of a list: REPORT_SORT_SELF or _TOTAL of metric *mp
 * (metric=, or the calls metric for sort=calls), or REPORT_SORT_NAME.
 * -1 with *e for a sort the list cannot do.
 */
int
report_sort(const struct profile *p, const struct query *q, int m, int *mp,
    struct report_error *e)
{
	*mp = m;
	switch (q->sort) {
	case QUERY_SORT_SELF:
		return (REPORT_SORT_SELF);
	case QUERY_SORT_TOTAL:
		return (REPORT_SORT_TOTAL);
	case QUERY_SORT_NAME:
		return (REPORT_SORT_NAME);
	case QUERY_SORT_CALLS:
		if ((*mp = profile_metric_calls(p)) == -1)
			return (report_error_set(e, 400, "sort=calls: the "
			    "profile has no calls metric"));
		return (REPORT_SORT_SELF);
	default:
		return (report_error_set(e, 400, "sort=%s is for comparisons "
		    "(base=)", query_enum_name(QUERY_SORT, q->sort)));
	}
}

struct order_arg {
	const int64_t		*key;
	size_t			 stride;
	const char *const	*names;
};

static int
order_cmp(const void *a, const void *b, void *arg)
{
	const struct order_arg	*o = arg;
	uint32_t		 x = *(const uint32_t *)a;
	uint32_t		 y = *(const uint32_t *)b;
	int64_t			 kx, ky;
	int			 c;

	if (o->key != NULL) {
		kx = o->key[x * o->stride];
		ky = o->key[y * o->stride];
		if (kx != ky)
			return (kx > ky ? -1 : 1);
	} else if (o->names != NULL &&
	    (c = strcmp(o->names[x], o->names[y])) != 0)
		return (c);
	return (x < y ? -1 : x > y);
}

/*
 * Sort the row numbers idx[n] by key[i * stride] (largest first), or by
 * names[i] when key is NULL; ties keep row order, so pages are stable.
 */
void
report_order(uint32_t *idx, uint32_t n, const int64_t *key, size_t stride,
    const char *const *names)
{
	struct order_arg	 o;

	o.key = key;
	o.stride = stride;
	o.names = names;
	qsort_r(idx, n, sizeof *idx, order_cmp, &o);
}

/*
 * How pages name a function row: "module`name" (DTrace's and folded
 * stacks' spelling) when it has a module, else its name. Caller frees.
 */
char *
report_func_label(const struct profile *p, uint32_t f)
{
	const char	*module = profile_func_module(p, f);
	char		*s;

	if (*module == '\0')
		return (strdup(profile_func_name(p, f)));
	if (asprintf(&s, "%s`%s", module, profile_func_name(p, f)) == -1)
		return (NULL);
	return (s);
}

/*
 * report_func_label() of a row of a JSON answer (its "name" and
 * "module"), for readers of answers: deepq query --fail-on-growth.
 */
char *
report_label(const json_t *o)
{
	const char	*name = json_string_value(json_object_get(o, "name"));
	const char	*module = json_string_value(json_object_get(o,
			    "module"));
	char		*s;

	if (name == NULL)
		name = "";
	if (module == NULL || *module == '\0')
		return (strdup(name));
	if (asprintf(&s, "%s`%s", module, name) == -1)
		return (NULL);
	return (s);
}

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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/* The report table, and helpers every report uses. */

extern const struct report_entry report_menu_entry;
extern const struct report_entry report_shutdown_entry;
extern const struct report_entry report_status_entry;
extern const struct report_entry report_top_entry;
extern const struct report_entry report_tree_entry;

static const struct report_entry *report_table[] = {
	&report_menu_entry,
	&report_shutdown_entry,
	&report_status_entry,
	&report_top_entry,
	&report_tree_entry,
};
#define NREPORTS (sizeof report_table / sizeof report_table[0])

/* The report for a cmd, or NULL. */
const struct report_entry *
report_find(const char *cmd)
{
	size_t	 i;

	for (i = 0; i < NREPORTS; i++) {
		if (strcmp(report_table[i]->name, cmd) == 0)
			return (report_table[i]);
	}
	return (NULL);
}

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

/* Create the report a query asks for. NULL with *e filled on failure. */
json_t *
report_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	const struct report_entry	*r;
	json_t				*j;

	if ((r = report_find(query_str(q, QUERY_CMD))) == NULL) {
		report_error_set(e, 400, "report %s is not available",
		    query_str(q, QUERY_CMD));
		return (NULL);
	}
	if ((j = r->create(p, q, ctx, e)) == NULL && e->status == 0)
		report_error_set(e, 500, "out of memory");
	return (j);
}

/* The display of a report made by report_create. */
struct display *
report_display(const json_t *j, const struct query *q)
{
	const struct report_entry	*r;

	if ((r = report_find(report_string(j, "cmd"))) == NULL)
		return (NULL);
	return (r->display(j, q));
}

/* A new report object with the fields every answer has. */
json_t *
report_new(const char *cmd)
{
	return (json_pack("{s:i, s:s}", "deepq", REPORT_VERSION, "cmd", cmd));
}

/* The metric a query names (metric=), or 0; -1 with *e if unknown. */
int
report_metric(const struct profile *p, const struct query *q,
    struct report_error *e)
{
	const char	*name = query_str(q, QUERY_METRIC);
	int		 m;

	if (*name == '\0')
		return (0);
	if ((m = profile_metric_find(p, name)) == -1)
		return (report_error_set(e, 400, "unknown metric: %s", name));
	return (m);
}

/*
 * {metric: value} for index i of one array per metric (vals[k] is metric
 * k's array, e.g. self or total).
 */
json_t *
report_values(const struct profile *p, const int64_t *const *vals,
    uint32_t i)
{
	json_t		*o;
	uint32_t	 k;

	if ((o = json_object()) == NULL)
		return (NULL);
	for (k = 0; k < p->nmetrics; k++) {
		if (json_object_set_new(o, p->metrics[k].name,
		    json_integer(vals[k][i])) == -1) {
			json_decref(o);
			return (NULL);
		}
	}
	return (o);
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
 * The canonical link to q with some keys changed: pairs of (enum
 * query_key, const char *value) ending with -1; a NULL value removes the
 * key. Caller frees; NULL if out of memory or a value is invalid.
 */
char *
report_link(const struct query *q, ...)
{
	struct query	*c;
	va_list		 ap;
	int		 k;
	const char	*v;
	char		*s = NULL;

	if ((c = query_copy(q)) == NULL)
		return (NULL);
	va_start(ap, q);
	while ((k = va_arg(ap, int)) != -1) {
		v = va_arg(ap, const char *);
		if (v == NULL)
			query_unset(c, k);
		else if (query_set(c, k, v, NULL) == -1)
			goto done;
	}
	s = query_format(c);
done:
	va_end(ap);
	query_free(c);
	return (s);
}

/* A string member of a report, "" if absent. */
const char *
report_string(const json_t *j, const char *key)
{
	const char	*s = json_string_value(json_object_get(j, key));

	return (s != NULL ? s : "");
}

/* An integer member of a report, 0 if absent. */
int64_t
report_integer(const json_t *j, const char *key)
{
	return (json_integer_value(json_object_get(j, key)));
}

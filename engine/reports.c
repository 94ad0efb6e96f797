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

#include "columns.h"
#include "diff.h"
#include "display.h"
#include "funcgraph.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "reports.h"
#include "transform.h"

static int	reports_notes_range(json_t *, const struct report_notes *);

/*
 * The table of reports, and the running of one: its result, then its
 * JSON or its page with the notes every answer carries (reports.h).
 */

extern const struct report_entry report_callers_entry;
extern const struct report_entry report_clique_entry;
extern const struct report_entry report_cliques_entry;
extern const struct report_entry report_dump_entry;
extern const struct report_entry report_func_entry;
extern const struct report_entry report_menu_entry;
extern const struct report_entry report_module_entry;
extern const struct report_entry report_modules_entry;
extern const struct report_entry report_shutdown_entry;
extern const struct report_entry report_status_entry;
extern const struct report_entry report_top_entry;
extern const struct report_entry report_tree_entry;
extern const struct report_entry report_folded_entry;
extern const struct report_entry report_callgrind_entry;
extern const struct report_entry report_pprof_entry;
extern const struct report_entry report_speedscope_entry;
extern const struct report_entry report_flame_entry;
extern const struct report_entry report_search_entry;
extern const struct report_entry report_timeline_entry;
extern const struct report_entry report_heatmap_entry;
extern const struct report_entry report_source_entry;
extern const struct report_entry report_series_entry;

/*
 * Each report of the catalog bound to its code; NULL for those the front
 * ends answer (CATALOG_FRONT). tests/unit/test-catalog.c checks both.
 */
static const struct report_entry *const report_table[CMD_N] = {
	[CMD_MENU] = &report_menu_entry,
	[CMD_TOP] = &report_top_entry,
	[CMD_TREE] = &report_tree_entry,
	[CMD_FUNC] = &report_func_entry,
	[CMD_CALLERS] = &report_callers_entry,
	[CMD_MODULES] = &report_modules_entry,
	[CMD_MODULE] = &report_module_entry,
	[CMD_CLIQUES] = &report_cliques_entry,
	[CMD_CLIQUE] = &report_clique_entry,
	[CMD_FLAME] = &report_flame_entry,
	[CMD_FOLDED] = &report_folded_entry,
	[CMD_CALLGRIND] = &report_callgrind_entry,
	[CMD_PPROF] = &report_pprof_entry,
	[CMD_SPEEDSCOPE] = &report_speedscope_entry,
	[CMD_DUMP] = &report_dump_entry,
	[CMD_STATUS] = &report_status_entry,
	[CMD_SHUTDOWN] = &report_shutdown_entry,
	[CMD_SEARCH] = &report_search_entry,
	[CMD_TIMELINE] = &report_timeline_entry,
	[CMD_HEATMAP] = &report_heatmap_entry,
	[CMD_SOURCE] = &report_source_entry,
	[CMD_SERIES] = &report_series_entry,
};

/* The code of report cmd, or NULL (the front ends answer it). */
const struct report_entry *
reports_find(enum catalog_cmd cmd)
{
	return ((unsigned)cmd < CMD_N ? report_table[cmd] : NULL);
}

/*
 * Create the result of report r for a query: the report's own struct.
 * NULL with *e filled on failure.
 */
void *
reports_create(const struct report_entry *r, const struct profile *p,
    const struct query *q, const struct report_context *ctx,
    struct report_error *e)
{
	void	*v;

	/* Preferences every page shares are checked once, here. */
	if (report_metric(p, q, e) == -1 || columns_check(p, q, e) == -1)
		return (NULL);
	v = r->create(p, q, ctx, e);
	if (v == NULL && e->status == 0)
		report_error_set(e, 500, "out of memory");
	return (v);
}

/* The JSON answer of a result, the notes included; NULL if out of memory. */
json_t *
reports_json(const struct report_entry *r, void *v,
    const struct report_notes *n, const struct query *q)
{
	json_t	*j;

	j = r->json(v, q);
	if (j != NULL && reports_notes_json(j, n) == -1) {
		json_decref(j);
		j = NULL;
	}
	return (j);
}

/* The page of a result, the notes included; NULL if out of memory. */
struct display *
reports_display(const struct report_entry *r, void *v,
    const struct report_notes *n, const struct query *q)
{
	struct display	*d;

	d = r->display(v, n, q);
	if (d != NULL)
		reports_notes_display(d, n, q);
	return (d);
}

/* Free a result of reports_create(). */
void
reports_free(const struct report_entry *r, void *v)
{
	if (v != NULL)
		r->free(v);
}

/*
 * The notes of a report about p (the profile it saw, transforms
 * applied) for a query: base is base='s name or NULL, ts the transforms
 * (none: NULL or empty), estimated funcgraph_estimate()'s answer.
 */
void
reports_notes_init(struct report_notes *n, const struct profile *p,
    const struct query *q, const char *base, const struct transform_stack *ts,
    int estimated)
{
	memset(n, 0, sizeof *n);
	n->profile = p;
	n->base_name = base;
	n->compared = diff_init(&n->diff, p, q);
	n->transforms = ts;
	n->estimated = estimated;
	n->range = query_range_set(q->range) ? q->range : NULL;
	n->threads = *q->thread != '\0' ? q->thread : NULL;
}

/*
 * Add the notes to a report's JSON, after its own members: "base" and
 * "comparison" (every report of a comparison says what it compares),
 * "transforms", "estimated". -1 if out of memory.
 */
int
reports_notes_json(json_t *j, const struct report_notes *n)
{
	if (n->compared && ((n->base_name != NULL &&
	    json_object_set_new(j, "base", json_string(n->base_name)) == -1) ||
	    diff_summary(j, n->profile, &n->diff) == -1))
		return (-1);
	if (n->transforms != NULL && n->transforms->n > 0 &&
	    json_object_set_new(j, "transforms",
	    transform_json(n->profile, n->transforms)) == -1)
		return (-1);
	if (n->estimated && funcgraph_mark(j) == -1)
		return (-1);
	if (reports_notes_range(j, n) == -1)
		return (-1);
	return (0);
}

/*
 * "range": [A, B] (seconds) and "thread": [...] of an answer restricted
 * by range= and thread= (range.h). -1 if out of memory.
 */
static int
reports_notes_range(json_t *j, const struct report_notes *n)
{
	const char	*s, *nl;
	json_t		*t;

	if (n->range != NULL && json_object_set_new(j, "range",
	    json_pack("[f, f]", n->range[0], n->range[1])) == -1)
		return (-1);
	if (n->threads == NULL)
		return (0);
	if ((t = json_array()) == NULL ||
	    json_object_set_new(j, "thread", t) == -1)
		return (-1);
	for (s = n->threads;; s = nl + 1) {
		nl = strchr(s, '\n');
		if (json_array_append_new(t, json_stringn(s, nl ? (size_t)(nl -
		    s) : strlen(s))) == -1)
			return (-1);
		if (nl == NULL)
			break;
	}
	return (0);
}

/*
 * Add the notes every page ends or starts with: the transforms'
 * breadcrumbs and the links that push one, the estimate's warning. (A comparison's
 * sentence and controls sit among the report's own blocks: its display
 * writes them, diff_text() and diff_controls().)
 */
void
reports_notes_display(struct display *d, const struct report_notes *n,
    const struct query *q)
{
	/* cmd=source shows the profile as loaded: nothing to transform. */
	if (q->cmd != CMD_SOURCE)
		transform_display(d, n->profile, q, n->transforms);
	if (n->estimated)
		funcgraph_note(d);
}

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
#include <strings.h>

#include <jansson.h>

#include "columns.h"
#include "cost.h"
#include "display.h"
#include "json-build.h"
#include "pattern.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"
#include "rows.h"

/*
 * cmd=search: the functions whose name or "module`name" holds find= as a
 * substring (ignoring case), or matches it as a POSIX extended regex
 * (ignoring case) through the bounded regexes of pattern.c, as focus=
 * does, so a hostile find= ends in a 503 like any filter; heaviest
 * total first, paged by from= and limit=.
 * Every row links to the function's page and to the tree and flame
 * graph focused on it; the page links to the tree focused on all of
 * them (focus=, the regex filter).
 */

#define SEARCH_MAX_LABEL	4096	/* bytes of "module`name" matched */
#define SEARCH_SPECIAL	"\\^$.[]|()*+?{}"	/* makes find= a regex */

/*
 * The result: the page's functions (rows[0..nrows), heaviest first) of
 * matched, from row from, and whether find= was taken as a regex.
 */
struct search_result {
	const struct profile	*p;
	int			 m;
	int			 isre;
	int64_t			 matched, from;
	uint32_t		*rows;
	uint32_t		 nrows;
};

static void	*search_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*search_json(const void *, const struct query *);
static struct display *search_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 search_free(void *);
static int	search_match(const struct profile *, uint32_t, const char *,
		    struct pattern *, struct cost *, char **);
static char	*search_focus(const char *, int);

const struct report_entry report_search_entry = {
	.create = search_create,
	.json = search_json,
	.display = search_display,
	.free = search_free,
};

/*
 * Does function f match: substring of its label, or the regex? 1 or 0,
 * or -1 with *cause when the match was stopped by a limit or the budget.
 */
static int
search_match(const struct profile *p, uint32_t f, const char *s,
    struct pattern *re, struct cost *cost, char **cause)
{
	const char	*name = profile_func_name(p, f);
	const char	*mod = profile_func_module(p, f);
	char		 label[SEARCH_MAX_LABEL];
	int		 r, n;

	if (strcasestr(name, s) != NULL ||
	    (*mod != '\0' && strcasestr(mod, s) != NULL))
		return (1);
	if (re == NULL)
		return (0);
	if ((r = pattern_match(re, name, strlen(name), cost, cause)) != 0)
		return (r < 0 ? -1 : 1);
	if (*mod == '\0' || (n = snprintf(label, sizeof label, "%s`%s", mod,
	    name)) < 0 || n >= (int)sizeof label)
		return (0);
	if ((r = pattern_match(re, label, (size_t)n, cost, cause)) < 0)
		return (-1);
	return (r);
}

/*
 * The focus= regex for a search: the search itself when it is a regex,
 * else the substring with each letter as a bracket of both cases (POSIX
 * has no flag for that in the pattern) and the special characters
 * escaped. Caller frees.
 */
static char *
search_focus(const char *s, int isre)
{
	char	*o, *buf;

	if (isre)
		return (strdup(s));
	if ((o = buf = malloc(4 * strlen(s) + 1)) == NULL)
		return (NULL);
	for (; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
			*o++ = '[';
			*o++ = *s | 0x20;
			*o++ = *s & ~0x20;
			*o++ = ']';
			continue;
		}
		if (strchr(SEARCH_SPECIAL, *s) != NULL)
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return (buf);
}

static void *
search_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	const char		*s = q->find;
	const uint32_t		*order;
	struct search_result	*t = NULL;
	struct pattern		*re = NULL;
	char			*cause = NULL;
	uint32_t		 f, k, nall;
	int64_t			 limit = q->limit;
	int64_t			 from = q->from, n = 0;
	int			 m, r, isre = 0;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	/*
	 * A string that is no regex (an unmatched bracket, a back
	 * reference, which the bounded regexes refuse) is searched as a
	 * substring alone.
	 */
	if (*s != '\0' && s[strcspn(s, SEARCH_SPECIAL)] != '\0' &&
	    (re = pattern_create_flags(s, PATTERN_ICASE, &cause)) != NULL)
		isre = 1;
	free(cause);
	cause = NULL;
	nall = p->nfuncs > 0 ? p->nfuncs - 1 : 0;
	if ((order = profile_index_func_order(ctx->index, m, 1)) == NULL)
		goto nomem;
	if (report_rates_check(p, e) == -1)
		goto fail;
	/* limit >= 1 (query.c); a page holds at most the functions. */
	if ((t = calloc(1, sizeof *t)) == NULL ||
	    (t->rows = reallocarray(NULL, (uint64_t)limit < nall ?
	    (size_t)limit : nall ? nall : 1, sizeof *t->rows)) == NULL)
		goto nomem;
	t->p = p;
	t->m = m;
	t->isre = isre;
	t->from = from;
	for (k = 0; k < nall && *s != '\0'; k++) {
		f = order[k];
		if (cost_charge(ctx->cost, 1) == -1) {
			report_error_cost(e, ctx->cost);
			goto fail;
		}
		if ((r = search_match(p, f, s, re, ctx->cost, &cause)) == -1) {
			report_error_set(e, 503, "%s", cause ? cause :
			    "query too expensive");
			goto fail;
		}
		if (r == 0)
			continue;
		if (n++ < from || n > from + limit)
			continue;
		t->rows[t->nrows++] = f;
	}
	t->matched = n;
	pattern_free(re);
	return (t);
nomem:
	report_error_set(e, 500, "out of memory");
fail:
	free(cause);
	pattern_free(re);
	search_free(t);
	return (NULL);
}

static void
search_free(void *v)
{
	struct search_result	*t = v;

	if (t == NULL)
		return;
	free(t->rows);
	free(t);
}

/* cmd=search as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
search_json(const void *v, const struct query *q)
{
	const struct search_result	*t = v;
	const struct profile		*p = t->p;
	json_t				*j = NULL, *rows;
	uint32_t			 i, f;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new_table(CMD_SEARCH, p, t->m, "rows",
	    &rows)) == NULL ||
	    json_object_set_new(j, "find", json_string(q->find)) == -1 ||
	    json_object_set_new(j, "regex", json_boolean(t->isre)) == -1)
		goto nomem;
	json_build_set(&jb, j, "from", json_integer(t->from));
	for (i = 0; i < t->nrows; i++) {
		f = t->rows[i];
		if (json_array_append_new(rows, rows_func_json(p, f, NULL)) ==
		    -1)
			goto nomem;
	}
	json_build_set(&jb, j, "matched", json_integer(t->matched));
	return (json_build_end(&jb, j));
nomem:
	json_decref(j);
	return (NULL);
}

/* A link to cmd that pushes "focus on function f" (ff-f on t=), or NULL. */
static char *
search_push(const struct query *q, enum catalog_cmd cmd, uint32_t f)
{
	struct query	 v;
	char		*t, *link;

	if (asprintf(&t, "%s~ff-%u", *q->t ? q->t : "1", f) == -1)
		return (NULL);
	/* Its page (html), at the default length. */
	report_view(&v, q, cmd);
	query_key_reset(&v, QUERY_FORMAT);
	query_key_reset(&v, QUERY_LIMIT);
	v.t = t;
	link = query_format(&v);
	free(t);
	return (link);
}

/* cmd=search's page, from the rows and the profile. */
static struct display *
search_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct search_result	*tr = v;
	const struct profile		*p = tr->p;
	struct display			*d;
	struct display_block		*t, *l;
	struct columns			 c;
	const char			*s = q->find;
	struct query			 view;
	char				*title, *link, *label, *focus;
	size_t				 r;
	int64_t				 matched = tr->matched;
	uint32_t			 nc, i, f;

	if (*s == '\0')
		title = strdup("Search functions");
	else if (asprintf(&title, "Functions matching %s", s) == -1)
		title = NULL;
	if (title == NULL)
		return (NULL);
	d = display_create(title);
	free(title);
	if (d == NULL)
		return (NULL);
	if (*s == '\0') {
		display_text(d, "Type a part of a function's or module's "
		    "name, or a regex, in the search field.");
		return (d);
	}
	display_text(d, "%lld function%s match%s (a substring, ignoring "
	    "case%s).", (long long)matched, matched == 1 ? "" : "s",
	    matched == 1 ? "es" : "", tr->isre ? ", or a regex" : "");
	if (matched > 0 && (focus = search_focus(s, tr->isre)) != NULL) {
		l = display_links(d);
		/* The tree and the flame graph at their default length. */
		report_view(&view, q, CMD_TREE);
		query_key_reset(&view, QUERY_LIMIT);
		view.focus = focus;
		link = query_format(&view);
		display_link(d, l, "the call tree of the samples with them",
		    link);
		free(link);
		report_view(&view, q, CMD_FLAME);
		query_key_reset(&view, QUERY_LIMIT);
		view.focus = focus;
		link = query_format(&view);
		display_link(d, l, "their flame graph", link);
		free(link);
		report_view(&view, q, CMD_TOP);
		view.focus = focus;
		link = query_format(&view);
		display_link(d, l, "top functions of those samples", link);
		free(link);
		free(focus);
	}
	columns_init(&c, p, tr->m, q, COLUMNS_SELF | COLUMNS_TOTAL);
	nc = 1 + columns_count(&c);
	t = display_table(d, nc + 2, "search");
	display_head(d, t, 0, "Function", NULL, 0);
	columns_head(d, t, 1, &c, q);
	display_head(d, t, nc, "Tree", NULL, 0);
	display_head(d, t, nc + 1, "Flame", NULL, 0);
	for (i = 0; i < tr->nrows; i++) {
		f = tr->rows[i];
		r = display_row(d, t);
		link = report_func_link(q, f);
		label = report_func_label(p, f);
		display_cell(d, t, r, 0, label ? label : "", link, 0);
		free(label);
		free(link);
		rows_func_display(d, t, r, &c, p, f, NULL);
		link = search_push(q, CMD_TREE, f);
		display_cell(d, t, r, nc, "tree", link, 0);
		free(link);
		link = search_push(q, CMD_FLAME, f);
		display_cell(d, t, r, nc + 1, "flame", link, 0);
		free(link);
	}
	columns_pager(d, q, tr->from, tr->nrows, matched);
	return (d);
}

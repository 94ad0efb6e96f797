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
#include "cost.h"
#include "display.h"
#include "lines.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "srcfile.h"
#include "utf8.h"

/*
 * cmd=source: a function's cost by source line (lines.h), as `go tool
 * pprof -list' and callgrind_annotate show it: per line its self and
 * total cost, and under each line that makes calls the callees it calls
 * there with their cost, each a link to the callee's own lines. The
 * page shows the function's source where a source root holds its file
 * (srcfile.h), with the lines around the costly ones, the hottest line
 * an anchor the page links to; without the file, the same rows as a
 * table of lines. A profile of addresses (perf script without srcline)
 * gets a table of addresses.
 *
 * The rows are the profile's as loaded: a derived profile (t=, base=)
 * keeps the function ids but not the lines, so the page says that the
 * transforms do not apply to them.
 */

#define SOURCE_CONTEXT	4	/* lines shown around a costly one */
#define SOURCE_WIDTH	400	/* code points of a line shown */
#define SOURCE_TAB	8
#define SOURCE_FILES	64	/* files of one function read */
#define SOURCE_READ	(16 * 1024 * 1024)	/* bytes read for a page */
#define SOURCE_SHOWN	20000	/* lines of code a page shows */

struct source_file {
	uint32_t	 first, end;	/* its rows */
	struct srcfile	 sf;
	const char	*why;		/* why there is no text, or NULL */
	uint32_t	*starts;	/* byte offset of each line's start */
	uint32_t	 nlines;
};

struct source_result {
	const struct profile		*p;	/* whose lines */
	const struct profile_lines	*l;
	uint32_t			 f;
	int				 m;
	uint32_t			 first, end;	/* f's rows */
	uint32_t			 hot;	/* hottest row, or LINES_NONE */
	const int64_t			*shade;	/* rows shaded by these, */
	int64_t				 shademax; /* against this */
	int				 derived;
	struct source_file		*files;
	size_t				 nfiles;
	size_t				 read;	/* bytes read so far */
};

static void	*source_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*source_json(const void *, const struct query *);
static struct display *source_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 source_free(void *);
static int	 source_read(struct source_result *, struct source_file *,
		    const struct report_context *);
static char	*source_text(const struct source_file *, uint32_t);
static void	 source_values(const struct source_result *, const int64_t *,
		    uint32_t, uint32_t, int64_t *);
static void	 source_row(struct display *, struct display_block *,
		    const struct source_result *, const struct columns *,
		    const struct query *, uint32_t, size_t, uint32_t);
static void	 source_calls(struct display *, struct display_block *,
		    const struct source_result *, const struct columns *,
		    const struct query *, uint32_t);
static int64_t	 source_sum(const struct source_result *);
static void	 source_file_table(struct display *,
		    const struct source_result *, const struct columns *,
		    const struct query *, size_t, uint32_t *);

/* Its catalog row (common/catalog.c) is CATALOG_LIVE: the files change. */
const struct report_entry report_source_entry = {
	.create = source_create,
	.json = source_json,
	.display = source_display,
	.free = source_free,
};

static void
source_free(void *v)
{
	struct source_result	*r = v;
	size_t			 i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nfiles; i++) {
		srcfile_clear(&r->files[i].sf);
		free(r->files[i].starts);
	}
	free(r->files);
	free(r);
}

/*
 * The text of file sf under the source roots, and where its lines
 * start; a file that cannot be shown says why, the page shows a table.
 */
static int
source_read(struct source_result *r, struct source_file *sf,
    const struct report_context *ctx)
{
	const struct profile_lines	*l = r->l;
	const char			*path;
	const char			*t, *end;
	uint32_t			 n, last;

	if (l->row_addr != NULL || l->row_file[sf->first] == 0) {
		sf->why = "the profile names no file";
		return (0);
	}
	path = profile_string(r->p, l->row_file[sf->first]);
	/* A page reads a few files, not a tree of them. */
	if (r->read >= SOURCE_READ) {
		sf->why = "the page's other files take what it may read";
		return (0);
	}
	if (srcfile_read(ctx->source_roots, path, &sf->sf, &sf->why) == -1)
		return (0);
	r->read += sf->sf.len;
	/* Reading and splitting it is work like any page's. */
	if (ctx->cost != NULL && cost_charge(ctx->cost, sf->sf.len / 64) ==
	    -1)
		return (-1);
	/*
	 * Where lines start, up to the last one a page may show (the
	 * rows sort by line): a file of newlines costs no more index
	 * than its costly lines need.
	 */
	last = l->row_line[sf->end - 1];
	last = last > UINT32_MAX - SOURCE_CONTEXT - 1 ? UINT32_MAX - 1 :
	    last + SOURCE_CONTEXT;
	end = sf->sf.text + sf->sf.len;
	for (n = 1, t = sf->sf.text; n <= last &&
	    (t = memchr(t, '\n', end - t)) != NULL; t++)
		n++;
	if ((sf->starts = malloc(((size_t)n + 1) * sizeof *sf->starts)) ==
	    NULL)
		return (-1);
	sf->starts[0] = 0;
	for (n = 1, t = sf->sf.text; n <= last &&
	    (t = memchr(t, '\n', end - t)) != NULL; t++)
		sf->starts[n++] = (uint32_t)(t + 1 - sf->sf.text);
	if (n > last) {
		/* Lines past the index: line n ends where n + 1 starts. */
		n--;
	} else {
		/* A last line without a newline counts; an empty one not. */
		if (sf->starts[n - 1] == sf->sf.len)
			n--;
		sf->starts[n] = (uint32_t)sf->sf.len;
	}
	sf->nlines = n;
	return (0);
}

static void *
source_create(const struct profile *dp, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct source_result	*r;
	const struct profile	*p;
	const int64_t		*self, *total;
	uint32_t		 i, k;
	int			 json;

	p = ctx->origin != NULL ? ctx->origin : dp;
	if ((r = calloc(1, sizeof *r)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	r->p = p;
	r->l = p->lines;
	r->derived = p != dp;
	r->hot = LINES_NONE;
	json = q->format == FMT_JSON;
	r->f = PROFILE_NONE;
	/* Scripts may ask for every function's lines at once. */
	if ((r->m = report_metric(p, q, e)) == -1 ||
	    ((*q->func != '\0' || !json) &&
	    (r->f = report_func_find(p, q, e)) == PROFILE_NONE) ||
	    report_rates_check(p, e) == -1)
		goto fail;
	if (r->l == NULL) {
		report_error_set(e, 404, "the profile records no source lines "
		    "(format %s)", p->format);
		goto fail;
	}
	if (r->f == PROFILE_NONE)
		return (r);
	r->first = lines_func_first(r->l, r->f);
	r->end = lines_func_end(r->l, r->f);
	/* The hottest line: the most self cost, else the most total. */
	self = r->l->self + (size_t)r->m * r->l->nrows;
	total = r->l->total + (size_t)r->m * r->l->nrows;
	r->hot = lines_hottest(r->l, r->f, (uint32_t)r->m);
	/*
	 * Lines are shaded by their cost against the hottest's: self, or
	 * total for a function all of whose cost is in its calls.
	 */
	r->shade = r->hot != LINES_NONE && self[r->hot] == 0 ? total : self;
	r->shademax = r->hot != LINES_NONE ? r->shade[r->hot] : 0;
	/* The files: runs of rows of one file (rows sort by file). */
	for (i = r->first; i < r->end; i = k) {
		for (k = i + 1; k < r->end &&
		    r->l->row_file[k] == r->l->row_file[i]; k++)
			;
		if ((r->nfiles & 15) == 0) {
			struct source_file	*nf;

			if ((nf = reallocarray(r->files, r->nfiles + 16,
			    sizeof *nf)) == NULL)
				goto nomem;
			r->files = nf;
		}
		memset(&r->files[r->nfiles], 0, sizeof *r->files);
		r->files[r->nfiles].first = i;
		r->files[r->nfiles++].end = k;
	}
	/* Scripts get the rows: no file is read for JSON. */
	for (i = 0; !json && i < r->nfiles; i++) {
		if (i >= SOURCE_FILES)
			r->files[i].why = "more files than a page reads";
		else if (source_read(r, &r->files[i], ctx) == -1) {
			report_error_cost(e, ctx->cost);
			goto fail;
		}
	}
	return (r);
nomem:
	report_error_set(e, 500, "out of memory");
fail:
	source_free(r);
	return (NULL);
}

/* The values of row i of arrays v (metric-major, n rows) by metric. */
static void
source_values(const struct source_result *r, const int64_t *v, uint32_t n,
    uint32_t i, int64_t *out)
{
	uint32_t	 k;

	for (k = 0; k < r->p->nmetrics && k < PROFILE_MAX_METRICS; k++)
		out[k] = v[(size_t)k * n + i];
}

/* Rows first..end of function f into array rows; -1 if out of memory. */
static int
source_json_rows(const struct source_result *r, uint32_t first,
    uint32_t end, json_t *rows)
{
	const struct profile		*p = r->p;
	const struct profile_lines	*l = r->l;
	json_t				*row, *calls, *c;
	int64_t				 vals[PROFILE_MAX_METRICS];
	uint32_t			 i, k;
	char				 addr[32];

	for (i = first; i < end; i++) {
		if ((row = json_object()) == NULL ||
		    json_array_append_new(rows, row) == -1 ||
		    json_object_set_new(row, "file", json_string(
		    profile_string(p, l->row_file[i]))) == -1)
			return (-1);
		if (l->row_addr != NULL) {
			snprintf(addr, sizeof addr, "0x%llx",
			    (unsigned long long)l->row_addr[i]);
			if (json_object_set_new(row, "address",
			    json_string(addr)) == -1)
				return (-1);
		} else if (json_object_set_new(row, "line",
		    json_integer(l->row_line[i])) == -1)
			return (-1);
		source_values(r, l->self, l->nrows, i, vals);
		if (json_object_set_new(row, "self", report_row_values(p,
		    vals)) == -1)
			return (-1);
		source_values(r, l->total, l->nrows, i, vals);
		if (json_object_set_new(row, "total", report_row_values(p,
		    vals)) == -1)
			return (-1);
		if (l->row_calls[i] == l->row_calls[i + 1])
			continue;
		if ((calls = json_array()) == NULL ||
		    json_object_set_new(row, "calls", calls) == -1)
			return (-1);
		for (k = l->row_calls[i]; k < l->row_calls[i + 1]; k++) {
			source_values(r, l->call_total, l->ncalls, k, vals);
			if ((c = report_func(p, l->call_func[k])) == NULL ||
			    json_array_append_new(calls, c) == -1 ||
			    json_object_set_new(c, "total",
			    report_row_values(p, vals)) == -1 ||
			    (l->call_count != NULL && json_object_set_new(c,
			    "count", json_integer((json_int_t)
			    l->call_count[k])) == -1))
				return (-1);
		}
	}
	return (0);
}

/*
 * Function f as cmd=top's rows have it (its self and total), in o's
 * "func", and its rows in o's "lines". -1 if out of memory.
 */
static int
source_json_func(const struct source_result *r, uint32_t f, json_t *o)
{
	const struct profile	*p = r->p;
	json_t			*fo, *rows;

	if ((fo = report_func(p, f)) == NULL ||
	    json_object_set_new(o, "func", fo) == -1 ||
	    json_object_set_new(fo, "self", report_func_values(p, 0, f)) ==
	    -1 ||
	    json_object_set_new(fo, "total", report_func_values(p, 1, f)) ==
	    -1 ||
	    (rows = json_array()) == NULL ||
	    json_object_set_new(o, "lines", rows) == -1)
		return (-1);
	return (source_json_rows(r, lines_func_first(r->l, f),
	    lines_func_end(r->l, f), rows));
}

/*
 * cmd=source as JSON (deepq-query(7)); NULL if out of memory. Without
 * func=, every function with lines, in "functions".
 */
static json_t *
source_json(const void *v, const struct query *q)
{
	const struct source_result	*r = v;
	const struct profile		*p = r->p;
	const struct profile_lines	*l = r->l;
	json_t				*j, *h, *all, *o;
	uint32_t			 f;

	(void)q;
	if ((j = report_new(CMD_SOURCE)) == NULL ||
	    report_metrics(j, p, r->m) == -1)
		goto nomem;
	if (r->derived && json_object_set_new(j, "whole", json_true()) == -1)
		goto nomem;
	if (r->f == PROFILE_NONE) {
		if ((all = json_array()) == NULL ||
		    json_object_set_new(j, "functions", all) == -1)
			goto nomem;
		for (f = 1; f < p->nfuncs; f++) {
			if (lines_func_first(l, f) == lines_func_end(l, f))
				continue;
			if ((o = json_object()) == NULL ||
			    json_array_append_new(all, o) == -1 ||
			    source_json_func(r, f, o) == -1)
				goto nomem;
		}
		return (j);
	}
	if (source_json_func(r, r->f, j) == -1)
		goto nomem;
	if (r->hot != LINES_NONE) {
		if ((h = json_object()) == NULL ||
		    json_object_set_new(j, "hottest", h) == -1 ||
		    json_object_set_new(h, "file", json_string(
		    profile_string(p, l->row_file[r->hot]))) == -1 ||
		    json_object_set_new(h, "line",
		    json_integer(l->row_line[r->hot])) == -1)
			goto nomem;
	}
	return (j);
nomem:
	json_decref(j);
	return (NULL);
}

/*
 * Line n (1-based) of a file, as a page shows it: valid UTF-8, tabs
 * expanded, cut at SOURCE_WIDTH code points. Caller frees.
 */
static char *
source_text(const struct source_file *sf, uint32_t n)
{
	const char	*s, *e;
	char		*u, *out;
	size_t		 len, i, col = 0, o = 0, cap;

	s = sf->sf.text + sf->starts[n - 1];
	e = sf->sf.text + sf->starts[n];
	if (e > s && e[-1] == '\n')
		e--;
	if (e > s && e[-1] == '\r')
		e--;
	/*
	 * A code point takes at most 4 bytes: a line of megabytes is
	 * cut before it is copied (the ellipsis still shows it goes on).
	 */
	if (e - s > SOURCE_WIDTH * 4 + 8)
		e = s + SOURCE_WIDTH * 4 + 8;
	if ((u = utf8_sanitize(s, e - s, &len)) == NULL)
		return (NULL);
	cap = len + SOURCE_TAB * 8 + 8;
	if ((out = malloc(cap)) == NULL) {
		free(u);
		return (NULL);
	}
	for (i = 0; i < len && col < SOURCE_WIDTH; i++) {
		if (o + SOURCE_TAB + 4 >= cap) {
			char	*no;

			cap *= 2;
			if ((no = realloc(out, cap)) == NULL) {
				free(out);
				free(u);
				return (NULL);
			}
			out = no;
		}
		if (u[i] == '\t') {
			do
				out[o++] = ' ';
			while (++col % SOURCE_TAB != 0);
			continue;
		}
		out[o++] = u[i];
		if (((unsigned char)u[i] & 0xc0) != 0x80)
			col++;
	}
	/* Whole characters only: finish the one being copied. */
	while (i < len && ((unsigned char)u[i] & 0xc0) == 0x80 && o + 1 < cap)
		out[o++] = u[i++];
	if (i < len && o + 4 < cap) {
		memcpy(out + o, "\xe2\x80\xa6", 3);	/* an ellipsis */
		o += 3;
	}
	out[o] = '\0';
	free(u);
	return (out);
}

/*
 * One row of line number ln (or of row i's address, i not LINES_NONE
 * and no text): its costs (those of row i, or none), its text (file k
 * when read), the anchor of the hottest row.
 */
static void
source_row(struct display *d, struct display_block *t,
    const struct source_result *r, const struct columns *c,
    const struct query *q, uint32_t i, size_t k, uint32_t ln)
{
	const struct profile_lines	*l = r->l;
	const struct source_file	*sf = &r->files[k];
	struct display_cell		*cell;
	int64_t				 sv[PROFILE_MAX_METRICS];
	int64_t				 tv[PROFILE_MAX_METRICS];
	size_t				 row;
	char				 buf[48], *text;
	int				 heat = 0;
	uint32_t			 j;

	(void)q;
	row = display_row(d, t);
	if (l->row_addr != NULL && i != LINES_NONE)
		snprintf(buf, sizeof buf, "0x%llx",
		    (unsigned long long)l->row_addr[i]);
	else
		snprintf(buf, sizeof buf, "%u", ln);
	cell = display_cell(d, t, row, 0, buf, NULL, DISPLAY_NUM |
	    (i == LINES_NONE ? DISPLAY_DIM : 0));
	if (i != LINES_NONE && i == r->hot) {
		report_source_anchor(l, r->f, i, buf, sizeof buf);
		display_anchor(d, cell, buf);
	}
	if (i != LINES_NONE) {
		source_values(r, l->self, l->nrows, i, sv);
		source_values(r, l->total, l->nrows, i, tv);
		columns_row(d, t, row, 1, c, sv, tv);
	} else {
		/* A line without cost: blank, as the tools leave it. */
		for (j = 1; j + 1 < t->ncols; j++)
			display_cell(d, t, row, j, "", NULL, DISPLAY_NUM);
	}
	if (sf->starts == NULL || ln == 0 || ln > sf->nlines)
		return;
	if (i != LINES_NONE && r->shademax > 0 && r->shade[i] > 0)
		heat = DISPLAY_HEAT(1 + 9 * (double)r->shade[i] /
		    (double)r->shademax);
	if ((text = source_text(sf, ln)) == NULL) {
		display_cell(d, t, row, t->ncols - 1, NULL, NULL, 0);
		return;
	}
	display_cell_take(d, t, row, t->ncols - 1, text, NULL,
	    DISPLAY_CODE | heat);
}

/* The calls made at row i: one row each, linked to the callee's lines. */
static void
source_calls(struct display *d, struct display_block *t,
    const struct source_result *r, const struct columns *c,
    const struct query *q, uint32_t i)
{
	const struct profile_lines	*l = r->l;
	int64_t				 sv[PROFILE_MAX_METRICS];
	int64_t				 tv[PROFILE_MAX_METRICS];
	uint32_t			 k, g, col, per;
	size_t				 row;
	char				*label, *text, *link;

	memset(sv, 0, sizeof sv);
	for (k = l->row_calls[i]; k < l->row_calls[i + 1]; k++) {
		g = l->call_func[k];
		row = display_row(d, t);
		source_values(r, l->call_total, l->ncalls, k, tv);
		columns_row(d, t, row, 1, c, sv, tv);
		/* A call has no self cost of its own: those cells blank. */
		per = c->ngroups > 0 ? columns_count(c) / c->ngroups : 0;
		for (col = 0; col < columns_count(c); col++) {
			if (per > 0 && col % per < per / 2)
				display_cell(d, t, row, 1 + col, "", NULL,
				    DISPLAY_NUM);
		}
		label = report_func_label(r->p, g);
		if (l->call_count != NULL) {
			if (asprintf(&text, "\xe2\x86\x92 %s (%llu call%s)",
			    label ? label : "", (unsigned long long)
			    l->call_count[k], l->call_count[k] == 1 ? "" : "s")
			    == -1)
				text = NULL;
		} else if (asprintf(&text, "\xe2\x86\x92 %s", label ? label :
		    "") == -1)
			text = NULL;
		free(label);
		if ((link = report_source_link(q, r->p, g)) == NULL)
			link = report_func_link(q, g);
		display_cell(d, t, row, 0, "", NULL, 0);
		if (text == NULL)
			d->failed = 1;
		display_cell_take(d, t, row, t->ncols - 1, text, link,
		    DISPLAY_CODE);
	}
}

/*
 * File k's table: with its text, the lines around the costly ones (a
 * gap shown as "..."), at most SOURCE_SHOWN lines of code in a page
 * (*shown so far); without, its rows.
 */
static void
source_file_table(struct display *d, const struct source_result *r,
    const struct columns *c, const struct query *q, size_t k,
    uint32_t *shown)
{
	const struct source_file	*sf = &r->files[k];
	const struct profile_lines	*l = r->l;
	struct display_block		*t;
	uint32_t			 i, j, ln, from, to, def;
	size_t				 row;

	/* Addresses have no source: no column for it. */
	t = display_table(d, (l->row_addr != NULL ? 1 : 2) +
	    columns_count(c), NULL);
	display_head(d, t, 0, l->row_addr != NULL ? "Address" : "Line",
	    NULL, DISPLAY_NUM);
	columns_head(d, t, 1, c, q);
	if (l->row_addr == NULL)
		display_head(d, t, t->ncols - 1, "Source", NULL, 0);
	if (sf->starts == NULL) {
		for (i = sf->first; i < sf->end; i++) {
			source_row(d, t, r, c, q, i, k, l->row_line[i]);
			source_calls(d, t, r, c, q, i);
		}
		return;
	}
	/* Windows of context around each row, merged; the definition too. */
	i = j = sf->first;
	def = r->p->func_line[r->f];
	if (def > 0 && r->p->func_file[r->f] == l->row_file[i] &&
	    def < l->row_line[i] && l->row_line[i] - def <= 50)
		from = def;
	else
		from = l->row_line[i] > SOURCE_CONTEXT ?
		    l->row_line[i] - SOURCE_CONTEXT : 1;
	while (i < sf->end && *shown < SOURCE_SHOWN) {
		to = l->row_line[i] + SOURCE_CONTEXT;
		for (; i < sf->end && l->row_line[i] <= to + SOURCE_CONTEXT;
		    i++)
			to = l->row_line[i] + SOURCE_CONTEXT;
		if (to > sf->nlines)
			to = sf->nlines;
		for (ln = from; ln <= to && *shown < SOURCE_SHOWN; ln++,
		    (*shown)++) {
			/* Rows sort by line: a cursor finds each. */
			while (j < sf->end && l->row_line[j] < ln)
				j++;
			if (j < sf->end && l->row_line[j] == ln) {
				source_row(d, t, r, c, q, j, k, ln);
				source_calls(d, t, r, c, q, j);
			} else
				source_row(d, t, r, c, q, LINES_NONE, k, ln);
		}
		if (i < sf->end && l->row_line[i] <= sf->nlines) {
			row = display_row(d, t);
			display_cell(d, t, row, 0, "\xe2\x8b\xae", NULL,
			    DISPLAY_NUM | DISPLAY_DIM);
			from = l->row_line[i] > SOURCE_CONTEXT ?
			    l->row_line[i] - SOURCE_CONTEXT : 1;
		}
	}
	/* Rows past the file's end (a changed file) still show. */
	for (i = sf->first; i < sf->end; i++) {
		if (l->row_line[i] > sf->nlines) {
			source_row(d, t, r, c, q, i, k, l->row_line[i]);
			source_calls(d, t, r, c, q, i);
		}
	}
}

/* The self cost of metric m over the function's rows. */
static int64_t
source_sum(const struct source_result *r)
{
	const int64_t	*self = r->l->self + (size_t)r->m * r->l->nrows;
	int64_t		 sum = 0;
	uint32_t	 i;

	for (i = r->first; i < r->end; i++)
		sum += self[i];
	return (sum);
}

/* cmd=source's page. */
static struct display *
source_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct source_result	*r = v;
	const struct profile		*p = r->p;
	const struct profile_lines	*l = r->l;
	struct display			*d;
	struct display_block		*links;
	struct columns			 c;
	char				*label, *title, *link, frag[48];
	char				 n1[DISPLAY_NUMBUF], n2[DISPLAY_NUMBUF];
	char				 n3[DISPLAY_NUMBUF];
	size_t				 k;
	int				 m = r->m;
	int64_t				 unlined;
	uint32_t			 shown = 0;	/* lines of code */

	(void)notes;
	label = report_func_label(p, r->f);
	if (asprintf(&title, "Source lines of %s", label ? label : "") ==
	    -1)
		title = NULL;
	free(label);
	d = display_create(title ? title : "Source lines");
	free(title);
	if (d == NULL)
		return (NULL);
	display_number_buf(n1, p->metrics[m].func_self[r->f]);
	display_number_buf(n2, p->metrics[m].func_total[r->f]);
	display_number_buf(n3, p->metrics[m].sum);
	display_text(d, "%s (%s): self %s, total %s of %s.",
	    p->metrics[m].name, p->metrics[m].unit, n1, n2, n3);
	if (r->derived)
		display_text(d, "The line costs are the whole profile's: the "
		    "transforms and base= do not apply to them.");
	if (r->first == r->end)
		display_text(d, "No line costs for this function.");
	else if ((unlined = p->metrics[m].func_self[r->f] - source_sum(r)) >
	    0) {
		display_number_buf(n1, unlined);
		display_text(d, "%s of its self cost is at no line the profile "
		    "records.", n1);
	}
	links = display_links(d);
	if (r->hot != LINES_NONE) {
		frag[0] = '#';
		report_source_anchor(l, r->f, r->hot, frag + 1,
		    sizeof frag - 1);
		link = query_format(q);
		if (link != NULL && asprintf(&title, "%s%s", link, frag) != -1) {
			if (l->row_addr != NULL)
				snprintf(n1, sizeof n1, "the hottest address "
				    "(0x%llx)", (unsigned long long)
				    l->row_addr[r->hot]);
			else
				snprintf(n1, sizeof n1, "the hottest line (%u)",
				    l->row_line[r->hot]);
			display_link(d, links, n1, title);
			free(title);
		}
		free(link);
	}
	if ((link = report_func_link(q, r->f)) != NULL) {
		display_link(d, links, "the function's callers and callees",
		    link);
		free(link);
	}
	columns_init(&c, p, m, q, COLUMNS_SELF | COLUMNS_TOTAL);
	c.avg = 0;
	for (k = 0; k < r->nfiles; k++) {
		const struct source_file *sf = &r->files[k];

		if (l->row_addr != NULL) {
			display_heading(d, "Addresses");
			display_text(d, "The profile has no source lines: "
			    "the cost at each address of the function where "
			    "samples were taken.");
		} else
			display_heading(d, l->row_file[sf->first] != 0 ?
			    profile_string(p, l->row_file[sf->first]) :
			    "(no file)");
		if (l->row_addr != NULL)
			;
		else if (sf->starts == NULL && sf->why != NULL)
			display_text(d, "Source not shown: %s.", sf->why);
		else if (sf->starts != NULL && strcmp(sf->sf.rel,
		    profile_string(p, l->row_file[sf->first])) != 0)
			display_text(d, "Shown from %s under a source root.",
			    sf->sf.rel);
		source_file_table(d, r, &c, q, k, &shown);
		if (shown == SOURCE_SHOWN && sf->starts != NULL) {
			display_text(d, "A page shows at most %d lines of "
			    "code: the rest are left out.", SOURCE_SHOWN);
			shown++;
		}
	}
	columns_controls(d, p, m, q, 0);
	return (d);
}

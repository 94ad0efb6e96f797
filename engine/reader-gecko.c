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

#include "cause.h"
#include "input.h"
#include "json-doc.h"
#include "json-stream.h"
#include "packed.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "timeline.h"

/*
 * The Firefox Profiler's formats (docs-developer/ in its repository):
 *
 * The Gecko profile Firefox writes (MOZ_PROFILER_SHUTDOWN, about:profiling
 * "save as file"; the old DevTools performance panel's files hold one
 * in "profile"): "meta", "libs", "threads" and, per child process,
 * "processes" holding profiles of the same shape. A thread's tables are
 * schema-indexed rows (before 2017, threads and child processes were
 * JSON strings holding them): "samples" (stack, time, ...), "stackTable" (prefix,
 * frame), "frameTable" (location, ...), the location an index into the
 * thread's "stringTable". Functions are not in the file: as the Firefox
 * Profiler does, a location "name (url:line:col)" is the JS function name
 * in url (the module; "(root scope) url" without a name), "name (in lib)"
 * the native function name in lib, an address "0x..." a function of its
 * own in the library whose mapping holds it, anything else a label.
 *
 * The processed profile profiler.firefox.com saves
 * (meta.preprocessedProfileVersion): tables of column arrays, per thread
 * or, from version 60, in "shared"; strings in the thread's "stringArray"
 * or "shared.stringArray"; stacks by "prefix" or, from version 66,
 * "prefixOffset". A frame's function is frameTable.func: the funcTable
 * entry's name, its module the file of a JS function or else the name of
 * its resource (the library).
 *
 * Many frames map to one function (the lines of a JS function, the
 * addresses of a native one): stacks are call paths of functions, so
 * their frames merge, as the Firefox Profiler's call tree merges them.
 * Each thread is a child of the root named after it, its process and its
 * pid and tid. Samples without a stack are dropped, as the call tree
 * drops them. Metrics: "samples" (count; its rate is 1/meta.interval),
 * or the samples' weights: "time" (us) for weightType "tracing-ms",
 * "bytes" for "bytes". The samples are also kept in time order, thread
 * after thread, for flame charts, and each at its time (in us from the
 * root process' start, a child process' times moved by the difference
 * of the starts) on its thread, for the timeline.
 *
 * A frame's line (the raw frameTable's "line" column, the processed
 * frameTable.line) is where its function was: the sample's line in the
 * innermost frame, the call's line in the others. They make the costs by
 * source line (lines.h), the file being the function's (a JS function's
 * url); a thread none of whose frames has a line has none.
 *
 * Lost: markers, allocations, counters,
 * CPU usage, frame lines and addresses, categories, JS tracer data.
 *
 * The file is read as a stream (json-stream.h). Firefox writes a
 * thread's samples before the tables they refer to (its stringTable
 * last), and which of the two formats a file is may show only at its
 * end, so the threads are kept, packed, until the document is read: of
 * each table only the columns the profile is built from (struct
 * gecko_table: a schema's rows are cut to them as they are read), as
 * varints and reals, the strings in one text; markers and the rest are
 * read past. Then the profile is built from those as the document-tree
 * reader built it.
 */

#define GECKO_MAX_NESTING	8	/* processes within processes */
#define GECKO_MAX_THREADS	100000	/* thread objects in a file */
#define GECKO_MAX_COL		64	/* a schema's highest column */
#define GECKO_BATCH		16	/* numbers read at once */
#define GECKO_NONE		UINT32_MAX
#define GECKO_BAD		(UINT32_MAX - 1)

enum gecko_metric {
	GECKO_SAMPLES,
	GECKO_TIME,
	GECKO_BYTES,
	GECKO_NMETRICS
};

/* The columns the readings use, by their names in either format. */
enum gecko_col {
	GC_PREFIX,
	GC_FRAME,
	GC_PREFIXOFFSET,
	GC_LOCATION,
	GC_FUNC,
	GC_LINE,
	GC_NAME,
	GC_FILENAME,
	GC_SOURCE,
	GC_ISJS,
	GC_LINENUMBER,
	GC_RESOURCE,
	GC_SRCFILENAME,
	GC_STACK,
	GC_WEIGHT,
	GC_TIME,
	GC_TIMEDELTAS,
	GC_NCOLS
};

static const char *gecko_colnames[GC_NCOLS] = {
	"prefix", "frame", "prefixOffset", "location", "func", "line", "name",
	"fileName", "source", "isJS", "lineNumber", "resource", "filename",
	"stack", "weight", "time", "timeDeltas"
};

/* The tables of a thread (or of "shared"), by member name. */
enum gecko_tab {
	GT_STACK,
	GT_FRAME,
	GT_FUNC,
	GT_RESOURCE,
	GT_SOURCES,
	GT_SAMPLES,
	GT_NTABS
};

static const char *gecko_tabnames[GT_NTABS] = {
	"stackTable", "frameTable", "funcTable", "resourceTable", "sources",
	"samples"
};

/*
 * A table as read: the columns a reading uses, as packed JSON scalars
 * (packed_nums_token), whether given as arrays (processed profiles) or
 * cut from a schema's rows (Gecko profiles; rows read before their
 * schema are kept whole in rows until the table's end).
 */
struct gecko_table {
	enum packed_state	 state;		/* ARRAY: an object */
	int			 schema[GC_NCOLS]; /* column, or -1 */
	int			 schema_seen;
	struct packed_ints	*col[GC_NCOLS];
	enum packed_state	 data;		/* "data" */
	size_t			 nrows;
	struct packed_ints	*rows;		/* whole rows, for later */
	size_t			 weighttype;	/* text, or SIZE_MAX */
};

/* A string table: each element's text, or SIZE_MAX if no string. */
struct gecko_str {
	size_t		 off;
	uint32_t	 len;
};

struct gecko_strings {
	enum packed_state	 state;
	struct gecko_str	*s;
	size_t			 n, cap;
};

/* A library's mapping (those with integers start and end and a name). */
struct gecko_lib {
	int64_t		 start, end;
	size_t		 name;
	uint32_t	 namelen;
};

/*
 * An object of the document read as a profile (the top, "profile",
 * "processes" and threads given as strings), as "shared", or as a
 * thread: each keeps the members it has.
 */
struct gecko_obj {
	int			 object;	/* an object at all */
	int			 string;	/* a thread given as a string */
	int			 badstring;	/* and no JSON object */
	int			 meta_key;	/* "meta" is there */
	int			 meta;		/* and an object */
	double			 interval;	/* meta.interval, or 0 */
	double			 start;		/* meta.startTime, ms */
	int			 has_start;	/* and it is a number */
	int			 ppv;		/* meta.preprocessedProfileVersion */
	enum packed_state	 threads_state;
	struct gecko_obj	**threads;
	size_t			 nthreads, capthreads;
	struct gecko_obj	**procs;	/* "processes" */
	size_t			 nprocs, capprocs;
	struct gecko_lib	*libs;
	size_t			 nlibs, caplibs;
	struct gecko_obj	*shared;	/* "shared", an object */
	struct gecko_obj	*profile;	/* "profile", an object */
	struct gecko_strings	*strs[2];	/* stringTable, stringArray */
	struct gecko_table	*tab[GT_NTABS];
	size_t			 name, process;	/* text, or SIZE_MAX */
	char			 pid[48], tid[48];
	int64_t			 pidn, tidn;	/* as numbers, or -1 */
};

/* A thread's stacks, resolved to functions. */
struct gecko;
struct gecko_stacks {
	size_t		 n;
	uint32_t	*prefix;	/* PROFILE_NONE for a root */
	uint32_t	*func;		/* builder function */
	uint32_t	*node;		/* builder node, PROFILE_NONE if unbuilt */
	uint32_t	*line;		/* the frame's line, 0; NULL: no lines */
	uint32_t	*lnode;		/* line tree node (gecko_node) */
	/* Fills func[] on first use when set (processed profiles). */
	uint32_t	(*resolve)(struct gecko *, struct gecko_stacks *,
			    uint32_t);
	void		*arg;
};

struct gecko {
	struct profile_builder	*b;
	struct packed_text	 text;
	size_t			 nobjs;		/* thread objects read */
	int			 metric[GECKO_NMETRICS];
	double			 interval;	/* ms, 0 if unknown */
	uint32_t		*path;		/* scratch for gecko_node */
	size_t			 pathcap;
	uint32_t		 last;		/* sample sequence run */
	int64_t			 run;
	uint32_t		 thread;	/* the timeline's, this thread */
	uint32_t		 lnode;		/* gecko_node's line node */
	double			 start;		/* root meta.startTime, ms */
	double			 offset;	/* this process' times to it */
	char			 err[256];
};

static int	gecko_probe(const char *, size_t);
static struct profile *gecko_load(struct input *,
		    const struct reader_options *, char **);
static int	gecko_read_obj(struct gecko *, struct json_stream *,
		    struct gecko_obj *, int, int);
static void	gecko_obj_free(struct gecko_obj *);
static int	gecko_raw(struct gecko *, const struct gecko_obj *, int);
static uint32_t	gecko_lnode(struct gecko *, struct gecko_stacks *, uint32_t,
		    uint32_t);

const struct reader reader_gecko = {
	.name = "gecko",
	.description = "Firefox Profiler: Gecko profile or processed profile",
	.probe = gecko_probe,
	.load = gecko_load,
};

/*
 * A "meta" with the profiler's keys; or, as Firefox writes "libs" first
 * and they may fill the probe, libs with breakpad ids then.
 */
static int
gecko_probe(const char *buf, size_t len)
{
	if (json_doc_first(buf, len) != '{')
		return (0);
	if (json_doc_has_key(buf, len, 1, "meta") &&
	    json_doc_has_key(buf, len, 2, "interval") &&
	    json_doc_has_key(buf, len, 2, "startTime") &&
	    (json_doc_has_key(buf, len, 2, "version") ||
	    json_doc_has_key(buf, len, 2, "preprocessedProfileVersion")))
		return (100);
	/* Firefox's old DevTools performance panel wraps one. */
	if (json_doc_has_key(buf, len, 1, "profile") &&
	    json_doc_has_key(buf, len, 1, "duration") &&
	    (json_doc_has_key(buf, len, 2, "libs") ||
	    json_doc_has_key(buf, len, 2, "meta")))
		return (90);
	if (json_doc_has_key(buf, len, 1, "libs") &&
	    json_doc_has_key(buf, len, 3, "breakpadId") &&
	    json_doc_has_key(buf, len, 3, "debugName"))
		return (90);
	return (0);
}

/* The column of a name, or -1. */
static int
gecko_colid(const struct json_token *t)
{
	int	 i;

	for (i = 0; i < GC_NCOLS; i++) {
		if (strlen(gecko_colnames[i]) == t->len &&
		    memcmp(gecko_colnames[i], t->s, t->len) == 0)
			return (i);
	}
	return (-1);
}

/* Whether table tab's readings use column c. */
static int
gecko_wanted(int tab, int c)
{
	switch (tab) {
	case GT_STACK:
		return (c == GC_PREFIX || c == GC_FRAME || c == GC_PREFIXOFFSET);
	case GT_FRAME:
		return (c == GC_LOCATION || c == GC_FUNC || c == GC_LINE);
	case GT_FUNC:
		return (c == GC_NAME || c == GC_FILENAME || c == GC_SOURCE ||
		    c == GC_ISJS || c == GC_LINENUMBER || c == GC_RESOURCE);
	case GT_RESOURCE:
		return (c == GC_NAME);
	case GT_SOURCES:
		return (c == GC_SRCFILENAME);
	default:
		/* The times, for the timeline: up to 9 bytes a sample. */
		return (c == GC_STACK || c == GC_WEIGHT || c == GC_TIME ||
		    c == GC_TIMEDELTAS);
	}
}

/* A column's stream, made empty (made if there is none). */
static struct packed_ints *
gecko_column(struct packed_ints **colp)
{
	if (*colp == NULL) {
		if ((*colp = malloc(sizeof **colp)) == NULL)
			return (NULL);
		packed_ints_init(*colp);
	} else
		packed_ints_reset(*colp);
	return (*colp);
}

static void
gecko_table_free(struct gecko_table *tab)
{
	int	 i;

	if (tab == NULL)
		return;
	for (i = 0; i < GC_NCOLS; i++) {
		if (tab->col[i] != NULL)
			packed_ints_free(tab->col[i]);
		free(tab->col[i]);
	}
	if (tab->rows != NULL)
		packed_ints_free(tab->rows);
	free(tab->rows);
	free(tab);
}

static void
gecko_strings_free(struct gecko_strings *st)
{
	if (st == NULL)
		return;
	free(st->s);
	free(st);
}

static void
gecko_obj_free(struct gecko_obj *o)
{
	size_t	 i;

	if (o == NULL)
		return;
	for (i = 0; i < o->nthreads; i++)
		gecko_obj_free(o->threads[i]);
	for (i = 0; i < o->nprocs; i++)
		gecko_obj_free(o->procs[i]);
	free(o->threads);
	free(o->procs);
	free(o->libs);
	gecko_obj_free(o->shared);
	gecko_obj_free(o->profile);
	gecko_strings_free(o->strs[0]);
	gecko_strings_free(o->strs[1]);
	for (i = 0; i < GT_NTABS; i++)
		gecko_table_free(o->tab[i]);
	free(o);
}

/* A new object of the document (counted: a file holds so many). */
static struct gecko_obj *
gecko_obj_new(struct gecko *g)
{
	struct gecko_obj	*o;

	if (g->nobjs++ >= GECKO_MAX_THREADS) {
		snprintf(g->err, sizeof g->err, "more than %d threads and "
		    "processes", GECKO_MAX_THREADS);
		return (NULL);
	}
	if ((o = calloc(1, sizeof *o)) == NULL) {
		snprintf(g->err, sizeof g->err, "out of memory");
		return (NULL);
	}
	o->name = o->process = SIZE_MAX;
	snprintf(o->pid, sizeof o->pid, "?");
	snprintf(o->tid, sizeof o->tid, "?");
	o->pidn = o->tidn = -1;
	return (o);
}

/* A string table's elements. */
static int
gecko_read_strings(struct gecko *g, struct json_stream *js,
    struct gecko_strings *st)
{
	struct json_token	 t;
	size_t			 off;

	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR ||
		    packed_text_token(&g->text, &t, &off) == -1 ||
		    packed_grow(&st->s, &st->cap, st->n + 1,
		    sizeof *st->s) == -1)
			return (-1);
		st->s[st->n].off = off;
		st->s[st->n++].len = (uint32_t)t.len;
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
}

/* A schema: each column's index (0 to 64; else -1), the last counts. */
static int
gecko_read_schema(struct json_stream *js, struct gecko_table *tab)
{
	struct json_token	 t;
	int			 c;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		c = gecko_colid(&t);
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (c != -1)
			tab->schema[c] = t.type == JSON_TOK_INTEGER && t.i >= 0 &&
			    t.i <= GECKO_MAX_COL ? (int)t.i : -1;
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* Cell k of a row into vals[] where it is a wanted column. */
static void
gecko_row_cell(const int *at, int nwant, struct json_token *vals, size_t k,
    const struct json_token *t)
{
	int	 w;

	for (w = 0; w < nwant; w++) {
		if ((size_t)at[w] == k) {
			vals[w] = *t;
			if (t->type == JSON_TOK_STRING || t->type == JSON_TOK_KEY)
				vals[w].s = NULL;
		}
	}
}

/*
 * The cells of one row (first its first token) at the wanted columns
 * (want[0..nwant), their indices at[]) into vals[]: null where the row
 * is shorter, or no array. Cells past the last wanted are read past.
 */
static int
gecko_read_row(struct json_stream *js, const struct json_token *first,
    const int *at, int nwant, struct json_token *vals)
{
	struct json_token	 t, num[GECKO_BATCH];
	size_t			 i, n, k = 0;
	int			 w;

	for (w = 0; w < nwant; w++)
		vals[w].type = JSON_TOK_NULL;
	if (first->type != JSON_TOK_ARRAY)
		return (json_stream_skip(js, first));
	for (;;) {
		/* A row's numbers at once. */
		while ((n = json_stream_numbers(js, num, GECKO_BATCH)) > 0) {
			for (i = 0; i < n; i++, k++)
				gecko_row_cell(at, nwant, vals, k, &num[i]);
		}
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		gecko_row_cell(at, nwant, vals, k++, &t);
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
}

/* The wanted columns the schema has, and their indices. */
static int
gecko_wants(const struct gecko_table *tab, int tabid, int *want, int *at)
{
	int	 c, n = 0;

	for (c = 0; c < GC_NCOLS; c++) {
		if (gecko_wanted(tabid, c) && tab->schema_seen &&
		    tab->schema[c] != -1) {
			want[n] = c;
			at[n++] = tab->schema[c];
		}
	}
	return (n);
}

/* A row's wanted cells onto their columns. */
static int
gecko_put_row(struct gecko_table *tab, const int *want, int nwant,
    const struct json_token *vals)
{
	int	 w;

	for (w = 0; w < nwant; w++) {
		if (packed_nums_token(tab->col[want[w]], &vals[w]) == -1)
			return (-1);
	}
	tab->nrows++;
	return (0);
}

/*
 * A row kept whole: its cells up to column 64, then an end mark (or only
 * a mark that it is no array), in a stream of scalars.
 */
#define GECKO_ROW_END	5
#define GECKO_NO_ROW	6

static int
gecko_keep_row(struct json_stream *js, const struct json_token *first,
    struct packed_ints *rows)
{
	struct json_token	 t, num[GECKO_BATCH];
	size_t			 i, n, k = 0;

	if (first->type != JSON_TOK_ARRAY)
		return (packed_nums_put(rows, GECKO_NO_ROW, 0, 0) == -1 ? -1 :
		    json_stream_skip(js, first));
	for (;;) {
		while ((n = json_stream_numbers(js, num, GECKO_BATCH)) > 0) {
			for (i = 0; i < n; i++, k++) {
				if (k <= GECKO_MAX_COL &&
				    packed_nums_token(rows, &num[i]) == -1)
					return (-1);
			}
		}
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			break;
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		if (k++ <= GECKO_MAX_COL && packed_nums_token(rows, &t) == -1)
			return (-1);
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (packed_nums_put(rows, GECKO_ROW_END, 0, 0));
}

/*
 * "data", rows: cut to the wanted columns when the schema came first;
 * else kept whole (gecko_keep_row) until the table's end.
 */
static int
gecko_read_rows(struct json_stream *js, struct gecko_table *tab, int tabid)
{
	struct json_token	 t, vals[GC_NCOLS];
	int			 want[GC_NCOLS], at[GC_NCOLS], nwant, w;

	nwant = gecko_wants(tab, tabid, want, at);
	for (w = 0; w < nwant; w++) {
		if (gecko_column(&tab->col[want[w]]) == NULL)
			return (-1);
		tab->col[want[w]]->state = PACKED_ARRAY;
	}
	if (!tab->schema_seen) {
		if ((tab->rows = malloc(sizeof *tab->rows)) == NULL)
			return (-1);
		packed_ints_init(tab->rows);
	}
	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		if (tab->rows != NULL) {
			if (gecko_keep_row(js, &t, tab->rows) == -1)
				return (-1);
			tab->nrows++;
		} else if (gecko_read_row(js, &t, at, nwant, vals) == -1 ||
		    gecko_put_row(tab, want, nwant, vals) == -1)
			return (-1);
	}
}

/* The end of a table: rows kept whole are cut now the schema is known. */
static int
gecko_table_done(struct gecko_table *tab, int tabid)
{
	struct packed_cursor	 c;
	struct {
		int	 kind;
		int64_t	 i;
		double	 d;
	}			 cell[GECKO_MAX_COL + 1];
	size_t			 r;
	int			 want[GC_NCOLS], at[GC_NCOLS], nwant, w, k, kind;
	int64_t			 iv;
	double			 dv;

	if (tab->rows == NULL)
		return (0);
	nwant = gecko_wants(tab, tabid, want, at);
	for (w = 0; w < nwant; w++) {
		if (gecko_column(&tab->col[want[w]]) == NULL)
			return (-1);
		tab->col[want[w]]->state = PACKED_ARRAY;
	}
	packed_cursor_init(&c, tab->rows);
	for (r = 0; r < tab->nrows; r++) {
		for (k = 0; c.p < c.end; k++) {
			kind = packed_cursor_num(&c, &dv, &iv);
			if (kind == GECKO_ROW_END || kind == GECKO_NO_ROW)
				break;
			if (k <= GECKO_MAX_COL) {
				cell[k].kind = kind;
				cell[k].i = iv;
				cell[k].d = dv;
			}
		}
		for (w = 0; w < nwant; w++) {
			if (at[w] < k && packed_nums_put(tab->col[want[w]],
			    cell[at[w]].kind, cell[at[w]].i, cell[at[w]].d) ==
			    -1)
				return (-1);
			if (at[w] >= k && packed_nums_put(tab->col[want[w]],
			    PACKED_NUM_NULL, 0, 0) == -1)
				return (-1);
		}
	}
	packed_ints_free(tab->rows);
	free(tab->rows);
	tab->rows = NULL;
	return (0);
}

/* A table's members (tabid: which table it is). */
static int
gecko_read_table(struct gecko *g, struct json_stream *js,
    struct gecko_table *tab, int tabid)
{
	struct packed_ints	*col;
	struct json_token	 t;
	int			 c, r;

	for (c = 0; c < GC_NCOLS; c++)
		tab->schema[c] = -1;
	tab->weighttype = SIZE_MAX;
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (JSON_TOK_IS(&t, "schema")) {
			/* Given twice, the last counts. */
			for (c = 0; c < GC_NCOLS; c++)
				tab->schema[c] = -1;
			tab->schema_seen = 1;
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			if (t.type != JSON_TOK_OBJECT) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (gecko_read_schema(js, tab) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "data")) {
			tab->nrows = 0;
			if (tab->rows != NULL)
				packed_ints_free(tab->rows);
			free(tab->rows);
			tab->rows = NULL;
			if ((r = packed_array_open(js, &t, &tab->data)) == -1 ||
			    (r == 1 && gecko_read_rows(js, tab, tabid) == -1))
				return (-1);
		} else if (JSON_TOK_IS(&t, "weightType")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
			    packed_text_token(&g->text, &t,
			    &tab->weighttype) == -1 ||
			    json_stream_skip(js, &t) == -1)
				return (-1);
		} else if ((c = gecko_colid(&t)) != -1 &&
		    gecko_wanted(tabid, c)) {
			/* A column of a processed profile's table. */
			if ((col = gecko_column(&tab->col[c])) == NULL ||
			    (r = packed_array_open(js, &t, &col->state)) == -1)
				return (-1);
			if (r == 1 && packed_nums_read(col, js) == -1)
				return (-1);
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	if (t.type != JSON_TOK_OBJECT_END)
		return (-1);
	return (gecko_table_done(tab, tabid));
}

/* "libs": the mappings of those with integers start and end and a name. */
static int
gecko_read_libs(struct gecko *g, struct json_stream *js, struct gecko_obj *o)
{
	struct json_token	 t;
	struct gecko_lib	 lib;
	int			 st, en, nm;

	o->nlibs = 0;
	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		if (t.type != JSON_TOK_OBJECT) {
			if (json_stream_skip(js, &t) == -1)
				return (-1);
			continue;
		}
		st = en = nm = 0;
		memset(&lib, 0, sizeof lib);
		while (json_stream_next(js, &t) == JSON_TOK_KEY) {
			int	 k = JSON_TOK_IS(&t, "start") ? 1 :
			    JSON_TOK_IS(&t, "end") ? 2 :
			    JSON_TOK_IS(&t, "name") ? 3 : 0;

			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			if (k == 1 && (st = t.type == JSON_TOK_INTEGER))
				lib.start = t.i;
			else if (k == 2 && (en = t.type == JSON_TOK_INTEGER))
				lib.end = t.i;
			else if (k == 3) {
				if (packed_text_token(&g->text, &t, &lib.name) == -1)
					return (-1);
				nm = lib.name != SIZE_MAX;
				lib.namelen = (uint32_t)t.len;
			} else if (k == 1)
				st = 0;
			else if (k == 2)
				en = 0;
			if (json_stream_skip(js, &t) == -1)
				return (-1);
		}
		if (t.type != JSON_TOK_OBJECT_END)
			return (-1);
		if (!st || !en || !nm)
			continue;
		if (packed_grow(&o->libs, &o->caplibs, o->nlibs + 1,
		    sizeof *o->libs) == -1)
			return (-1);
		o->libs[o->nlibs++] = lib;
	}
}

/* "meta": the sampling interval, and whether it is a processed profile. */
static int
gecko_read_meta(struct json_stream *js, struct gecko_obj *o)
{
	struct json_token	 t;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		int	 iv = JSON_TOK_IS(&t, "interval");
		int	 st = JSON_TOK_IS(&t, "startTime");
		int	 ppv = JSON_TOK_IS(&t, "preprocessedProfileVersion");

		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (iv)
			o->interval = t.type == JSON_TOK_INTEGER ||
			    t.type == JSON_TOK_REAL ? t.d : 0;
		if (st) {
			o->has_start = t.type == JSON_TOK_INTEGER ||
			    t.type == JSON_TOK_REAL;
			o->start = o->has_start ? t.d : 0;
		}
		if (ppv)
			o->ppv = 1;
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* A pid or tid as the thread's label writes it. */
static void
gecko_scalar(const struct json_token *t, char *buf, size_t len)
{
	if (t->type == JSON_TOK_STRING)
		snprintf(buf, len, "%.40s", t->s);
	else if (t->type == JSON_TOK_INTEGER)
		snprintf(buf, len, "%lld", (long long)t->i);
	else
		snprintf(buf, len, "?");
}

/* A pid or tid (a number, or a string of digits), -1 if neither. */
static int64_t
gecko_id(const struct json_token *t)
{
	const char	*s;
	int64_t		 v = 0;

	if (t->type == JSON_TOK_INTEGER)
		return (t->i >= 0 ? t->i : -1);
	if (t->type != JSON_TOK_STRING || t->len == 0 || t->len > 18 ||
	    strspn(t->s, "0123456789") != t->len)
		return (-1);
	for (s = t->s; *s != '\0'; s++)
		v = v * 10 + (*s - '0');
	return (v);
}

/* What an object is read as: which members it keeps. */
#define GECKO_AS_PROFILE	0x1	/* meta, libs, threads, processes... */
#define GECKO_AS_THREAD		0x2	/* its tables, name, pid, tid */
#define GECKO_AS_ANY		(GECKO_AS_PROFILE | GECKO_AS_THREAD)

/*
 * A thread given as a string (Firefox before 2017: a thread, or a child
 * process' whole profile): its text parsed as a document of its own,
 * as the tree reader did. o->badstring if it is no JSON object.
 */
static int
gecko_read_string(struct gecko *g, const struct json_token *t,
    struct gecko_obj *o, int nesting)
{
	struct input		*in;
	struct json_stream	*js = NULL;
	struct json_token	 u;
	int			 rv = -1;

	o->badstring = 1;
	if ((in = input_memory(t->s, t->len)) == NULL ||
	    (js = json_stream_create(in, 0)) == NULL)
		goto out;
	if (json_stream_next(js, &u) == JSON_TOK_OBJECT) {
		if (gecko_read_obj(g, js, o, nesting, GECKO_AS_ANY) == -1) {
			/* A syntax error is the string's; memory is ours. */
			if (g->err[0] != '\0')
				goto out;
		} else if (json_stream_next(js, &u) == JSON_TOK_END)
			o->badstring = 0;
	}
	rv = 0;
out:
	json_stream_free(js);
	input_free(in);
	return (rv);
}

/* A "threads" or "processes" array of the object o at nesting. */
static int
gecko_read_list(struct gecko *g, struct json_stream *js, struct gecko_obj *o,
    int procs, int nesting)
{
	struct gecko_obj	*th, ***list;
	struct json_token	 t;
	size_t			*n, *cap;

	list = procs ? &o->procs : &o->threads;
	n = procs ? &o->nprocs : &o->nthreads;
	cap = procs ? &o->capprocs : &o->capthreads;
	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR ||
		    (th = gecko_obj_new(g)) == NULL)
			return (-1);
		if (packed_grow(list, cap, *n + 1, sizeof **list) == -1) {
			gecko_obj_free(th);
			return (-1);
		}
		(*list)[(*n)++] = th;
		if (t.type == JSON_TOK_OBJECT) {
			if (gecko_read_obj(g, js, th, procs ? nesting + 1 :
			    nesting, procs ? GECKO_AS_PROFILE :
			    GECKO_AS_THREAD) == -1)
				return (-1);
		} else if (t.type == JSON_TOK_STRING && !procs) {
			/*
			 * Deeper than processes go, a string's profile
			 * refuses the file anyway: not parsed.
			 */
			th->string = 1;
			if (nesting <= GECKO_MAX_NESTING &&
			    gecko_read_string(g, &t, th, nesting + 1) == -1)
				return (-1);
		} else if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
}

/* A member of a profile (meta, libs, threads...); 0 if it is no such. */
static int
gecko_read_profile_member(struct gecko *g, struct json_stream *js,
    const struct json_token *key, struct gecko_obj *o, int nesting)
{
	struct gecko_obj	**sub;
	struct json_token	 t;
	size_t			 i;
	int			 list, meta;

	list = JSON_TOK_IS(key, "threads") ? 1 : JSON_TOK_IS(key,
	    "processes") ? 2 : 0;
	sub = JSON_TOK_IS(key, "shared") ? &o->shared : JSON_TOK_IS(key,
	    "profile") ? &o->profile : NULL;
	meta = JSON_TOK_IS(key, "meta");
	if (!list && sub == NULL && !meta && !JSON_TOK_IS(key, "libs"))
		return (0);
	if (json_stream_next(js, &t) == JSON_TOK_ERROR)
		return (-1);
	/* Each member given twice: the last counts. */
	if (list == 1) {
		for (i = 0; i < o->nthreads; i++)
			gecko_obj_free(o->threads[i]);
		o->nthreads = 0;
		o->threads_state = t.type == JSON_TOK_ARRAY ? PACKED_ARRAY :
		    PACKED_OTHER;
	} else if (list == 2) {
		for (i = 0; i < o->nprocs; i++)
			gecko_obj_free(o->procs[i]);
		o->nprocs = 0;
	} else if (sub != NULL) {
		gecko_obj_free(*sub);
		*sub = NULL;
	} else if (meta) {
		o->meta_key = 1;
		o->meta = t.type == JSON_TOK_OBJECT;
		o->interval = 0;
		o->ppv = 0;
		if (o->meta)
			return (gecko_read_meta(js, o) == -1 ? -1 : 1);
	} else if (t.type == JSON_TOK_ARRAY)
		return (gecko_read_libs(g, js, o) == -1 ? -1 : 1);
	else
		o->nlibs = 0;
	if (list && t.type == JSON_TOK_ARRAY)
		return (gecko_read_list(g, js, o, list == 2, nesting) == -1 ?
		    -1 : 1);
	if (sub != NULL && t.type == JSON_TOK_OBJECT) {
		/* "shared" holds tables; "profile" a whole profile. */
		if ((*sub = gecko_obj_new(g)) == NULL)
			return (-1);
		return (gecko_read_obj(g, js, *sub, 0, sub == &o->shared ?
		    GECKO_AS_THREAD : GECKO_AS_PROFILE) == -1 ? -1 : 1);
	}
	return (json_stream_skip(js, &t) == -1 ? -1 : 1);
}

/* A member of a thread (its tables, name...); 0 if it is no such. */
static int
gecko_read_thread_member(struct gecko *g, struct json_stream *js,
    const struct json_token *key, struct gecko_obj *o)
{
	struct json_token	 t;
	int			 strs = -1, tab = -1, i;

	if (JSON_TOK_IS(key, "stringTable"))
		strs = 0;
	else if (JSON_TOK_IS(key, "stringArray"))
		strs = 1;
	for (i = 0; i < GT_NTABS && strs == -1; i++) {
		if (strlen(gecko_tabnames[i]) == key->len &&
		    memcmp(gecko_tabnames[i], key->s, key->len) == 0)
			tab = i;
	}
	if (strs != -1 || tab != -1) {
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (strs != -1) {
			gecko_strings_free(o->strs[strs]);
			if ((o->strs[strs] = calloc(1,
			    sizeof *o->strs[strs])) == NULL)
				return (-1);
			o->strs[strs]->state = t.type == JSON_TOK_ARRAY ?
			    PACKED_ARRAY : PACKED_OTHER;
			if (t.type == JSON_TOK_ARRAY)
				return (gecko_read_strings(g, js,
				    o->strs[strs]) == -1 ? -1 : 1);
		} else {
			gecko_table_free(o->tab[tab]);
			if ((o->tab[tab] = calloc(1,
			    sizeof *o->tab[tab])) == NULL)
				return (-1);
			o->tab[tab]->state = t.type == JSON_TOK_OBJECT ?
			    PACKED_ARRAY : PACKED_OTHER;
			if (t.type == JSON_TOK_OBJECT)
				return (gecko_read_table(g, js, o->tab[tab],
				    tab) == -1 ? -1 : 1);
		}
		return (json_stream_skip(js, &t) == -1 ? -1 : 1);
	}
	if (JSON_TOK_IS(key, "name") || JSON_TOK_IS(key, "processName")) {
		i = key->s[0] == 'n';
		if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    packed_text_token(&g->text, &t, i ? &o->name :
		    &o->process) == -1)
			return (-1);
		return (json_stream_skip(js, &t) == -1 ? -1 : 1);
	}
	if (JSON_TOK_IS(key, "pid") || JSON_TOK_IS(key, "tid")) {
		i = key->s[0] == 'p';
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		gecko_scalar(&t, i ? o->pid : o->tid, sizeof o->pid);
		*(i ? &o->pidn : &o->tidn) = gecko_id(&t);
		return (json_stream_skip(js, &t) == -1 ? -1 : 1);
	}
	return (0);
}

/* An object's members, those it keeps read as what it is (as). */
static int
gecko_read_obj(struct gecko *g, struct json_stream *js, struct gecko_obj *o,
    int nesting, int as)
{
	struct json_token	 t;
	int			 r;

	o->object = 1;
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		r = 0;
		if ((as & GECKO_AS_PROFILE) && (r = gecko_read_profile_member(g,
		    js, &t, o, nesting)) == -1)
			return (-1);
		if (r == 0 && (as & GECKO_AS_THREAD) &&
		    (r = gecko_read_thread_member(g, js, &t, o)) == -1)
			return (-1);
		if (r == 0 && (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1))
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}


/* Whether s[0..n) is one or more decimal digits. */
static int
gecko_digits(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (0);
	}
	return (n > 0);
}

/*
 * Split "url:line[:col]" (the shortest url, as the profiler's lazy
 * pattern takes): the url's length and the line, or -1.
 */
static int
gecko_url_line(const char *s, size_t n, size_t *urllen, uint32_t *line)
{
	size_t	 i, j;

	/* ":digits" at the end, and maybe another before it. */
	for (i = n; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	if (i == n || i < 2 || s[i - 1] != ':')
		return (-1);
	for (j = i - 1; j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9'; j--)
		;
	if (j < i - 1 && j >= 2 && s[j - 1] == ':') {
		*urllen = j - 1;
		*line = (uint32_t)strtoul(s + j, NULL, 10);
		return (0);
	}
	*urllen = i - 1;
	*line = (uint32_t)strtoul(s + i, NULL, 10);
	return (0);
}

/* The function of a Gecko frame location (see the comment on top). */
static uint32_t
gecko_location(struct gecko *g, const struct gecko_obj *prof, const char *s,
    size_t n)
{
	const char	*p, *name = s, *mod = "", *url = NULL, *arrow;
	char		*tmp = NULL;
	size_t		 i, nl = n, ml = 0, ul, k;
	uint32_t	 f, line = 0;
	int		 tries;
	unsigned long long addr;
	const struct gecko_lib *lib;

	if (n > 2 && s[0] == '0' && s[1] == 'x') {
		/* An unsymbolicated address: the library mapping it. */
		addr = strtoull(s, NULL, 16);
		for (k = 0; prof != NULL && k < prof->nlibs; k++) {
			lib = &prof->libs[k];
			if (addr >= (unsigned long long)lib->start &&
			    addr < (unsigned long long)lib->end) {
				mod = packed_text_get(&g->text, lib->name);
				ml = lib->namelen;
				break;
			}
		}
		goto found;
	}
	/*
	 * "name (in lib)", "name (in lib) + 12", "name (in lib) (f:1)": the
	 * last " (in " only, which keeps the scan linear.
	 */
	for (i = n; i-- > 0;) {
		if (i + 5 > n || memcmp(s + i, " (in ", 5) != 0)
			continue;
		if ((p = memchr(s + i + 5, ')', n - i - 5)) == NULL)
			break;
		k = n - (p + 1 - s);	/* what follows the lib */
		if (k == 0 || (k > 3 && memcmp(p + 1, " + ", 3) == 0 &&
		    gecko_digits(p + 4, k - 3)) || (k > 3 &&
		    memcmp(p + 1, " (", 2) == 0 && s[n - 1] == ')' &&
		    memchr(p + 3, ':', k - 3) != NULL)) {
			nl = i;
			mod = s + i + 5;
			ml = p - mod;
			if (nl > 21 && memcmp(s, "non-virtual thunk to ", 21) == 0) {
				name += 21;
				nl -= 21;
			}
			goto found;
		}
		break;
	}
	/* JS: "name (url:line:col)[source]" or "url:line:col". */
	k = n;
	if (k > 0 && s[k - 1] == ']') {
		for (i = k - 1; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
			;
		if (i > 0 && i < k - 1 && s[i - 1] == '[')
			k = i - 1;
	}
	url = NULL;
	if (k > 0 && s[k - 1] == ')') {
		/* The last " (" with a url before ":line" (two at most). */
		for (i = k - 1, tries = 0; i-- > 0 && tries < 2;) {
			if (i + 2 > k || s[i] != ' ' || s[i + 1] != '(')
				continue;
			tries++;
			if (i + 2 < k - 1 && gecko_url_line(s + i + 2,
			    k - 1 - i - 2, &ul, &line) == 0) {
				url = s + i + 2;
				nl = i;
				break;
			}
		}
	}
	if (url == NULL && gecko_url_line(s, k, &ul, &line) == 0) {
		url = s;
		nl = 0;
	}
	if (url != NULL) {
		/* "a -> b": the script b loaded by a. */
		for (p = url; (arrow = memmem(p, ul - (p - url), " -> ", 4)) !=
		    NULL; p = arrow + 4)
			;
		ul -= p - url;
		url = p;
		if (ul >= 7 && memcmp(url, "file://", 7) == 0) {
			url += 7;
			ul -= 7;
		}
		mod = url;
		ml = ul;
		if (nl == 0) {
			if ((tmp = malloc(ul + 14)) == NULL) {
				snprintf(g->err, sizeof g->err, "out of memory");
				return (PROFILE_NONE);
			}
			memcpy(tmp, "(root scope) ", 13);
			memcpy(tmp + 13, url, ul);
			name = tmp;
			nl = ul + 13;
		}
	} else
		nl = n;
found:
	f = profile_builder_func(g->b, name, nl, mod, ml);
	if (f != PROFILE_NONE && url != NULL)
		profile_builder_func_location(g->b, f, mod, ml, line);
	free(tmp);
	return (f);
}

/* The root child of a thread: "name (process pid P, tid T)". */
static uint32_t
gecko_thread_node(struct gecko *g, const struct gecko_obj *th)
{
	/* Room for both names cut at 80 and both ids whole: no cut id. */
	char		 label[320];
	const char	*name, *proc;
	uint32_t	 f, before, node;
	size_t		 base;
	int		 i;

	name = th->name != SIZE_MAX ? packed_text_get(&g->text, th->name) :
	    NULL;
	proc = th->process != SIZE_MAX ? packed_text_get(&g->text,
	    th->process) : NULL;
	snprintf(label, sizeof label, "%.80s (%.80s%spid %s, tid %s)",
	    name != NULL ? name : "thread", proc != NULL ? proc : "",
	    proc != NULL ? " " : "", th->pid, th->tid);
	/* The timeline's thread: its name, process and ids. */
	if ((g->thread = profile_builder_thread(g->b, name != NULL ? name : "",
	    name != NULL ? strlen(name) : 0, proc != NULL ? proc : "",
	    proc != NULL ? strlen(proc) : 0, th->pidn, th->tidn)) ==
	    PROFILE_NONE)
		return (PROFILE_NONE);
	/* Threads of one name and ids (a restarted thread) stay apart. */
	base = strlen(label);
	for (i = 2;; i++) {
		before = profile_builder_nnodes(g->b);
		if ((f = profile_builder_func(g->b, label, strlen(label), "",
		    0)) == PROFILE_NONE || (node = profile_builder_child(g->b,
		    PROFILE_ROOT, f)) == PROFILE_NONE)
			return (PROFILE_NONE);
		if (profile_builder_nnodes(g->b) > before || i > 1000)
			return (node);
		snprintf(label + base, sizeof label - base, " #%d", i);
	}
}

/* A cell of a column, as the tree reader's json_array_get saw it. */
struct gecko_cell {
	int		 kind;		/* PACKED_NUM_*; NULL past the end */
	int64_t		 i;
	double		 d;
};

/*
 * A column decoded (a table's column read as an array, or the rows' cells
 * of a schema column): *n cells, none when there is no array.
 */
static struct gecko_cell *
gecko_cells(const struct gecko_table *tab, int c, size_t *n)
{
	const struct packed_ints	*col;
	struct packed_cursor		 cur;
	struct gecko_cell		*cells;
	size_t				 i;

	col = tab != NULL && tab->state == PACKED_ARRAY ? tab->col[c] : NULL;
	*n = col != NULL && col->state == PACKED_ARRAY ? col->n : 0;
	if ((cells = calloc(*n + 1, sizeof *cells)) == NULL)
		return (NULL);
	if (*n == 0)
		return (cells);
	packed_cursor_init(&cur, col);
	for (i = 0; i < *n; i++)
		cells[i].kind = packed_cursor_num(&cur, &cells[i].d,
		    &cells[i].i);
	return (cells);
}

/*
 * No cell at all: past a column's end, or a column that is not there
 * (json_array_get's NULL, unlike a null in the array).
 */
#define GECKO_ABSENT	8

/* Cell i of a decoded column of n, or GECKO_ABSENT past its end. */
static const struct gecko_cell *
gecko_cell(const struct gecko_cell *cells, size_t n, size_t i)
{
	static const struct gecko_cell	 none = { GECKO_ABSENT, 0, 0 };

	return (i < n ? &cells[i] : &none);
}

/* String idx (a cell) of a string table, or NULL. */
static const char *
gecko_str(const struct gecko *g, const struct gecko_strings *strs,
    const struct gecko_cell *idx, size_t *len)
{
	if (strs == NULL || idx->kind != PACKED_NUM_INT || idx->i < 0 ||
	    (uint64_t)idx->i >= strs->n || strs->s[idx->i].off == SIZE_MAX)
		return (NULL);
	*len = strs->s[idx->i].len;
	return (packed_text_get(&g->text, strs->s[idx->i].off));
}

/*
 * The builder node of stack s (a cell): walk up the prefixes to a built
 * stack, then build down. Prefixes point to earlier stacks (checked when
 * read), so the walk ends.
 */
static uint32_t
gecko_node(struct gecko *g, struct gecko_stacks *st,
    const struct gecko_cell *sj)
{
	size_t		 n = 0;
	uint32_t	 cur, parent, s;

	if (sj->kind != PACKED_NUM_INT || sj->i < 0 || (uint64_t)sj->i >=
	    st->n) {
		snprintf(g->err, sizeof g->err, "a sample's stack is not one "
		    "of the %zu stacks", st->n);
		return (PROFILE_NONE);
	}
	s = (uint32_t)sj->i;
	for (cur = s; cur != PROFILE_NONE && st->node[cur] == PROFILE_NONE;
	    cur = st->prefix[cur]) {
		if (n == g->pathcap) {
			size_t	  c = g->pathcap ? g->pathcap * 2 : 256;
			uint32_t *p;

			if ((p = reallocarray(g->path, c, sizeof *p)) == NULL) {
				snprintf(g->err, sizeof g->err, "out of memory");
				return (PROFILE_NONE);
			}
			g->path = p;
			g->pathcap = c;
		}
		g->path[n++] = cur;
	}
	while (n > 0) {
		cur = g->path[--n];
		parent = st->prefix[cur] == PROFILE_NONE ? st->node[st->n] :
		    st->node[st->prefix[cur]];
		if (st->resolve != NULL && st->func[cur] == PROFILE_NONE &&
		    (st->func[cur] = st->resolve(g, st, cur)) == PROFILE_NONE)
			return (PROFILE_NONE);
		if ((st->node[cur] = profile_builder_child(g->b, parent,
		    st->func[cur])) == PROFILE_NONE)
			return (PROFILE_NONE);
		if (st->line != NULL && (st->lnode[cur] = gecko_lnode(g, st,
		    cur, st->prefix[cur] == PROFILE_NONE ? st->lnode[st->n] :
		    st->lnode[st->prefix[cur]])) == PROFILE_NONE)
			return (PROFILE_NONE);
	}
	g->lnode = st->line != NULL ? st->lnode[s] : PROFILE_NONE;
	return (st->node[s]);
}

/* Stack cur's node in the line tree, under line node parent. */
static uint32_t
gecko_lnode(struct gecko *g, struct gecko_stacks *st, uint32_t cur,
    uint32_t parent)
{
	uint32_t	 fr;

	if ((fr = profile_builder_line_frame(g->b, st->func[cur],
	    profile_builder_func_file(g->b, st->func[cur]), st->line[cur])) ==
	    PROFILE_NONE)
		return (PROFILE_NONE);
	return (profile_builder_line_child(g->b, parent, fr));
}

/*
 * With st->line filled (NULL when no frame has a line): the line tree's
 * node for the thread, under which its stacks go.
 */
static int
gecko_lines(struct gecko *g, struct gecko_stacks *st)
{
	uint32_t	 f, fr;
	size_t		 i;

	for (i = 0; i < st->n && st->line[i] == 0; i++)
		;
	if (i == st->n) {
		free(st->line);
		st->line = NULL;
		return (0);
	}
	if ((st->lnode = malloc((st->n + 1) * sizeof *st->lnode)) == NULL) {
		snprintf(g->err, sizeof g->err, "out of memory");
		return (-1);
	}
	f = profile_builder_node_func(g->b, st->node[st->n]);
	if ((fr = profile_builder_line_frame(g->b, f, 0, 0)) == PROFILE_NONE ||
	    (st->lnode[st->n] = profile_builder_line_child(g->b, PROFILE_ROOT,
	    fr)) == PROFILE_NONE)
		return (-1);
	return (0);
}

/* End the sample sequence's current run. */
static int
gecko_flush(struct gecko *g)
{
	if (g->run > 0 && profile_builder_sample(g->b, g->last, g->run) == -1)
		return (-1);
	g->run = 0;
	g->last = PROFILE_NONE;
	return (0);
}

/*
 * A sample at node of weight w in the weight type's metric (wt: a
 * GECKO_* metric), kept in the sequence, and at its time (ms, when tj
 * is a number) on the timeline, when that metric is metric 0.
 */
static int
gecko_sample(struct gecko *g, uint32_t node, int wt, double w,
    const struct gecko_cell *tj)
{
	int64_t	 v;
	double	 t;
	int	 m;

	if (wt == GECKO_TIME)
		w *= 1000;		/* tracing-ms to us */
	if (!isfinite(w) || fabs(w) >= 9e18) {
		snprintf(g->err, sizeof g->err, "a sample weight out of range");
		return (-1);
	}
	v = llround(w);
	if (g->metric[wt] == -1 && (g->metric[wt] = profile_builder_metric(
	    g->b, wt == GECKO_SAMPLES ? "samples" : wt == GECKO_TIME ? "time" :
	    "bytes", wt == GECKO_SAMPLES ? "count" : wt == GECKO_TIME ? "us" :
	    "bytes")) == -1)
		return (-1);
	m = g->metric[wt];
	if (wt == GECKO_SAMPLES && g->interval > 0)
		profile_builder_metric_rate(g->b, m, 1000 / g->interval);
	if (v == 0)
		return (0);
	if (profile_builder_add(g->b, node, m, v) == -1 ||
	    (g->lnode != PROFILE_NONE &&
	    profile_builder_line_add(g->b, g->lnode, m, v) == -1))
		return (-1);
	if (m != 0)
		return (0);
	t = tj != NULL ? (tj->d + g->offset) * 1000 : 0;
	if (tj != NULL && (tj->kind == PACKED_NUM_INT || tj->kind ==
	    PACKED_NUM_REAL) && isfinite(t) && fabs(t) < 4e18 &&
	    (profile_builder_time_mode(g->b, 0, TIMELINE_WEIGHT) == -1 ||
	    profile_builder_timed(g->b, node, g->thread, llround(t), 0, v) ==
	    -1))
		return (-1);
	if (node != g->last && gecko_flush(g) == -1)
		return (-1);
	g->run += v;
	g->last = node;
	return (0);
}

/* The weight type of a samples table. */
static int
gecko_weight_type(const struct gecko *g, const struct gecko_table *samples)
{
	const char	*t;

	if (samples == NULL || samples->state != PACKED_ARRAY ||
	    samples->weighttype == SIZE_MAX)
		return (GECKO_SAMPLES);
	t = packed_text_get(&g->text, samples->weighttype);
	if (strcmp(t, "tracing-ms") == 0)
		return (GECKO_TIME);
	if (strcmp(t, "bytes") == 0)
		return (GECKO_BYTES);
	return (GECKO_SAMPLES);
}

/* A raw table's schema column, or -1 (gecko_col of the tree reader). */
static int
gecko_schema(const struct gecko_table *tab, int c)
{
	return (tab != NULL && tab->state == PACKED_ARRAY ? tab->schema[c] :
	    -1);
}

/* Whether a raw table's "data" is an array. */
static int
gecko_has_data(const struct gecko_table *tab)
{
	return (tab != NULL && tab->state == PACKED_ARRAY &&
	    tab->data == PACKED_ARRAY);
}

/* A raw thread's frames and stacks to functions, then its samples. */
static int
gecko_raw_stacks(struct gecko *g, const struct gecko_obj *th,
    const struct gecko_obj *prof, struct gecko_stacks *st, uint32_t *byloc,
    uint32_t *byframe, size_t nframes)
{
	const struct gecko_strings	*strs = th->strs[0];
	struct gecko_cell		*loc = NULL, *pre = NULL, *fr = NULL;
	struct gecko_cell		*ln = NULL;
	const struct gecko_cell		*j, *k;
	const char			*s;
	size_t				 i, nl, np, nf, nln, len;
	int				 rv = -1;

	if ((loc = gecko_cells(th->tab[GT_FRAME], GC_LOCATION, &nl)) == NULL ||
	    (pre = gecko_cells(th->tab[GT_STACK], GC_PREFIX, &np)) == NULL ||
	    (fr = gecko_cells(th->tab[GT_STACK], GC_FRAME, &nf)) == NULL ||
	    (ln = gecko_cells(th->tab[GT_FRAME], GC_LINE, &nln)) == NULL)
		goto nomem;
	/* Frames to functions, each location parsed once. */
	for (i = 0; i < nframes; i++) {
		j = gecko_cell(loc, nl, i);
		if ((s = gecko_str(g, strs, j, &len)) == NULL) {
			snprintf(g->err, sizeof g->err, "frameTable row %zu: "
			    "location is not in the stringTable", i);
			goto out;
		}
		if (byloc[j->i] == PROFILE_NONE &&
		    (byloc[j->i] = gecko_location(g, prof, s, len)) ==
		    PROFILE_NONE)
			goto out;
		byframe[i] = byloc[j->i];
	}
	for (i = 0; i < st->n; i++) {
		j = gecko_cell(pre, np, i);
		if (j->kind == PACKED_NUM_NULL || j->kind == GECKO_ABSENT)
			st->prefix[i] = PROFILE_NONE;
		else if (j->kind == PACKED_NUM_INT && j->i >= 0 &&
		    (uint64_t)j->i < i)
			st->prefix[i] = (uint32_t)j->i;
		else {
			snprintf(g->err, sizeof g->err, "stackTable row %zu: "
			    "prefix is not an earlier stack", i);
			goto out;
		}
		j = gecko_cell(fr, nf, i);
		if (j->kind != PACKED_NUM_INT || j->i < 0 ||
		    (uint64_t)j->i >= nframes) {
			snprintf(g->err, sizeof g->err, "stackTable row %zu: "
			    "frame is not in the frameTable", i);
			goto out;
		}
		st->func[i] = byframe[j->i];
		/* The frame's line, when its row has one. */
		k = gecko_cell(ln, nln, (size_t)j->i);
		if (k->kind == PACKED_NUM_INT && k->i > 0 && k->i < UINT32_MAX)
			st->line[i] = (uint32_t)k->i;
	}
	rv = 0;
	goto out;
nomem:
	snprintf(g->err, sizeof g->err, "out of memory");
out:
	free(loc);
	free(pre);
	free(fr);
	free(ln);
	return (rv);
}

/* A raw thread's samples, in order. */
static int
gecko_raw_samples(struct gecko *g, const struct gecko_obj *th,
    struct gecko_stacks *st)
{
	const struct gecko_table	*samples = th->tab[GT_SAMPLES];
	const struct gecko_cell		*j;
	struct packed_cursor		 sc, wc, tc;
	struct gecko_cell		 sj, wj, tj;
	const struct packed_ints	*scol, *wcol, *tcol;
	uint32_t			 node;
	size_t				 i;
	int				 wt, cweight, ctime;

	wt = gecko_weight_type(g, samples);
	cweight = gecko_schema(samples, GC_WEIGHT);
	ctime = gecko_schema(samples, GC_TIME);
	scol = samples->col[GC_STACK];
	wcol = cweight != -1 ? samples->col[GC_WEIGHT] : NULL;
	tcol = ctime != -1 ? samples->col[GC_TIME] : NULL;
	/* gcc -O2 cannot see wcol's and tcol's guards */
	memset(&wc, 0, sizeof wc);
	memset(&tc, 0, sizeof tc);
	memset(&wj, 0, sizeof wj);
	memset(&tj, 0, sizeof tj);
	if (scol == NULL)
		return (gecko_flush(g));
	packed_cursor_init(&sc, scol);
	if (wcol != NULL)
		packed_cursor_init(&wc, wcol);
	if (tcol != NULL)
		packed_cursor_init(&tc, tcol);
	for (i = 0; i < scol->n; i++) {
		sj.kind = packed_cursor_num(&sc, &sj.d, &sj.i);
		wj.kind = tj.kind = PACKED_NUM_NULL;
		if (wcol != NULL)
			wj.kind = packed_cursor_num(&wc, &wj.d, &wj.i);
		if (tcol != NULL && i < tcol->n)
			tj.kind = packed_cursor_num(&tc, &tj.d, &tj.i);
		if (sj.kind == PACKED_NUM_NULL)
			continue;
		j = &sj;
		if ((node = gecko_node(g, st, j)) == PROFILE_NONE)
			return (-1);
		/* A weight column with a number weighs; else 1. */
		if (gecko_sample(g, node, wt, wj.kind == PACKED_NUM_INT ||
		    wj.kind == PACKED_NUM_REAL ? wj.d : 1, &tj) == -1)
			return (-1);
	}
	return (gecko_flush(g));
}

/* One thread of a Gecko profile (prof: its profile, with its libs). */
static int
gecko_raw_thread(struct gecko *g, const struct gecko_obj *th,
    const struct gecko_obj *prof)
{
	struct gecko_stacks	 st;
	uint32_t		*byloc = NULL, *byframe = NULL;
	size_t			 nframes, nstrings;
	int			 rv = -1;

	memset(&st, 0, sizeof st);
	if (th->strs[0] == NULL || th->strs[0]->state != PACKED_ARRAY ||
	    !gecko_has_data(th->tab[GT_STACK]) ||
	    !gecko_has_data(th->tab[GT_FRAME]) ||
	    !gecko_has_data(th->tab[GT_SAMPLES]) ||
	    gecko_schema(th->tab[GT_STACK], GC_PREFIX) == -1 ||
	    gecko_schema(th->tab[GT_STACK], GC_FRAME) == -1 ||
	    gecko_schema(th->tab[GT_FRAME], GC_LOCATION) == -1 ||
	    gecko_schema(th->tab[GT_SAMPLES], GC_STACK) == -1) {
		snprintf(g->err, sizeof g->err, "a thread without stringTable, "
		    "or stackTable, frameTable or samples with their schema");
		return (-1);
	}
	nframes = th->tab[GT_FRAME]->nrows;
	nstrings = th->strs[0]->n;
	st.n = th->tab[GT_STACK]->nrows;
	if ((byloc = malloc((nstrings + 1) * sizeof *byloc)) == NULL ||
	    (byframe = malloc((nframes + 1) * sizeof *byframe)) == NULL ||
	    (st.prefix = malloc((st.n + 1) * sizeof *st.prefix)) == NULL ||
	    (st.func = malloc((st.n + 1) * sizeof *st.func)) == NULL ||
	    (st.node = malloc((st.n + 1) * sizeof *st.node)) == NULL ||
	    (st.line = calloc(st.n + 1, sizeof *st.line)) == NULL) {
		snprintf(g->err, sizeof g->err, "out of memory");
		goto out;
	}
	memset(byloc, 0xff, (nstrings + 1) * sizeof *byloc);
	memset(st.node, 0xff, (st.n + 1) * sizeof *st.node);
	if (gecko_raw_stacks(g, th, prof, &st, byloc, byframe, nframes) == -1)
		goto out;
	if ((st.node[st.n] = gecko_thread_node(g, th)) == PROFILE_NONE ||
	    gecko_lines(g, &st) == -1)
		goto out;
	rv = gecko_raw_samples(g, th, &st);
out:
	free(byloc);
	free(byframe);
	free(st.prefix);
	free(st.func);
	free(st.node);
	free(st.line);
	free(st.lnode);
	g->lnode = PROFILE_NONE;
	return (rv);
}

/* A Gecko profile: its threads, then its child processes'. */
static int
gecko_raw(struct gecko *g, const struct gecko_obj *prof, int nesting)
{
	const struct gecko_obj	*th;
	size_t			 i;
	double			 saved;
	int			 rv;

	if (nesting > GECKO_MAX_NESTING) {
		snprintf(g->err, sizeof g->err, "processes nested more than "
		    "%d deep", GECKO_MAX_NESTING);
		return (-1);
	}
	/* A child process' times count from its own start. */
	if (nesting == 0)
		g->start = prof->meta ? prof->start : 0;
	saved = g->offset;
	if (prof->meta && prof->has_start)
		g->offset = prof->start - g->start;
	if (g->interval == 0 && prof->meta)
		g->interval = prof->interval;
	for (i = 0; i < prof->nthreads; i++) {
		th = prof->threads[i];
		if (!th->badstring && th->threads_state == PACKED_ABSENT) {
			if (gecko_raw_thread(g, th, prof) == -1)
				return (-1);
			continue;
		}
		/*
		 * Before 2017 Firefox wrote threads as JSON strings, and a
		 * child process as a string holding its whole profile.
		 */
		if (th->badstring) {
			snprintf(g->err, sizeof g->err, "threads[%zu] is a "
			    "string that is not a JSON thread", i);
			return (-1);
		}
		rv = gecko_raw(g, th, nesting + 1);
		if (rv == -1)
			return (-1);
	}
	for (i = 0; i < prof->nprocs; i++) {
		if (gecko_raw(g, prof->procs[i], nesting + 1) == -1)
			return (-1);
	}
	g->offset = saved;
	return (0);
}

/* The columns of a processed thread's tables it is built from. */
enum gecko_view {
	GV_SFRAME,		/* stackTable.frame */
	GV_SPREFIX,		/* stackTable.prefix */
	GV_SOFFSET,		/* stackTable.prefixOffset */
	GV_FFUNC,		/* frameTable.func */
	GV_NAME,		/* funcTable.name */
	GV_FILE,		/* funcTable.fileName */
	GV_SOURCE,		/* funcTable.source */
	GV_ISJS,		/* funcTable.isJS */
	GV_LINE,		/* funcTable.lineNumber */
	GV_RES,			/* funcTable.resource */
	GV_RNAME,		/* resourceTable.name */
	GV_SRCFILE,		/* sources.filename */
	GV_STACK,		/* samples.stack */
	GV_WEIGHT,		/* samples.weight */
	GV_FLINE,		/* frameTable.line */
	GV_NVIEWS
};

static const struct {
	int	 tab, col;
} gecko_views[GV_NVIEWS] = {
	{ GT_STACK, GC_FRAME }, { GT_STACK, GC_PREFIX },
	{ GT_STACK, GC_PREFIXOFFSET }, { GT_FRAME, GC_FUNC },
	{ GT_FUNC, GC_NAME }, { GT_FUNC, GC_FILENAME }, { GT_FUNC, GC_SOURCE },
	{ GT_FUNC, GC_ISJS }, { GT_FUNC, GC_LINENUMBER },
	{ GT_FUNC, GC_RESOURCE }, { GT_RESOURCE, GC_NAME },
	{ GT_SOURCES, GC_SRCFILENAME }, { GT_SAMPLES, GC_STACK },
	{ GT_SAMPLES, GC_WEIGHT }, { GT_FRAME, GC_LINE }
};

/* A processed thread's tables, and their columns decoded. */
struct gecko_tables {
	const struct gecko_strings	*strings;
	const struct gecko_table	*tab[GT_NTABS];
	struct gecko_cell		*cells[GV_NVIEWS];
	size_t				 n[GV_NVIEWS];
	uint32_t			*byfunc;	/* per funcTable row */
	size_t				 nfuncs;
};

/* Whether a processed table's column is an array. */
static int
gecko_is_array(const struct gecko_tables *t, int v)
{
	const struct gecko_table	*tab = t->tab[gecko_views[v].tab];

	return (tab != NULL && tab->state == PACKED_ARRAY &&
	    tab->col[gecko_views[v].col] != NULL &&
	    tab->col[gecko_views[v].col]->state == PACKED_ARRAY);
}

/* The builder function of a processed stack's frame's func. */
static uint32_t
gecko_processed_func(struct gecko *g, struct gecko_stacks *st, uint32_t s)
{
	struct gecko_tables	*t = st->arg;
	const struct gecko_cell	*j, *file;
	int64_t			 fr, fn, r;
	const char		*name, *mod = "";
	size_t			 nl, ml = 0;
	uint32_t		 f, line = 0;

#define GECKO_CELL(v, i) gecko_cell(t->cells[v], t->n[v], (i))
	j = GECKO_CELL(GV_SFRAME, s);
	fr = j->kind == PACKED_NUM_INT ? j->i : -1;
	j = GECKO_CELL(GV_FFUNC, fr < 0 ? SIZE_MAX : (size_t)fr);
	fn = j->kind == PACKED_NUM_INT ? j->i : -1;
	if (fr < 0 || fn < 0 || (uint64_t)fn >= t->nfuncs) {
		snprintf(g->err, sizeof g->err, "stack %u: its frame or the "
		    "frame's func is not in the tables", s);
		return (PROFILE_NONE);
	}
	if (t->byfunc[fn] != PROFILE_NONE)
		return (t->byfunc[fn]);
	if ((name = gecko_str(g, t->strings, GECKO_CELL(GV_NAME, fn), &nl)) ==
	    NULL) {
		snprintf(g->err, sizeof g->err, "func %lld: its name is not in "
		    "the string array", (long long)fn);
		return (PROFILE_NONE);
	}
	/* A JS function's file; else its resource (the library). */
	file = GECKO_CELL(GV_FILE, fn);
	if (file->kind == GECKO_ABSENT && (j = GECKO_CELL(GV_SOURCE,
	    fn))->kind == PACKED_NUM_INT && j->i >= 0)
		file = GECKO_CELL(GV_SRCFILE, (uint64_t)j->i);
	if (GECKO_CELL(GV_ISJS, fn)->kind == PACKED_NUM_TRUE &&
	    (mod = gecko_str(g, t->strings, file, &ml)) != NULL) {
		if (ml >= 7 && memcmp(mod, "file://", 7) == 0) {
			mod += 7;
			ml -= 7;
		}
		j = GECKO_CELL(GV_LINE, fn);
		if (j->kind == PACKED_NUM_INT && j->i > 0 && j->i < UINT32_MAX)
			line = (uint32_t)j->i;
	} else {
		j = GECKO_CELL(GV_RES, fn);
		r = j->kind == PACKED_NUM_INT ? j->i : -1;
		if (r < 0 || (mod = gecko_str(g, t->strings, GECKO_CELL(
		    GV_RNAME, (uint64_t)r), &ml)) == NULL) {
			mod = "";
			ml = 0;
		}
	}
#undef GECKO_CELL
	if ((f = profile_builder_func(g->b, name, nl, mod, ml)) == PROFILE_NONE)
		return (PROFILE_NONE);
	if (line != 0)
		profile_builder_func_location(g->b, f, mod, ml, line);
	t->byfunc[fn] = f;
	return (f);
}

/* A processed thread's stack prefixes ("prefixOffset" or "prefix"). */
static int
gecko_processed_prefixes(struct gecko *g, const struct gecko_tables *t,
    struct gecko_stacks *st)
{
	const struct gecko_cell	*j;
	int64_t			 v;
	size_t			 i;
	int			 offset = gecko_is_array(t, GV_SOFFSET);

	for (i = 0; i < st->n; i++) {
		j = offset ? gecko_cell(t->cells[GV_SOFFSET], t->n[GV_SOFFSET],
		    i) : gecko_cell(t->cells[GV_SPREFIX], t->n[GV_SPREFIX], i);
		v = j->kind == PACKED_NUM_INT ? j->i : -1;
		if (offset)
			st->prefix[i] = v == 0 ? PROFILE_NONE :
			    v > 0 && (uint64_t)v <= i ? (uint32_t)(i - v) :
			    GECKO_BAD;
		else if (j->kind == GECKO_ABSENT || j->kind == PACKED_NUM_NULL)
			st->prefix[i] = PROFILE_NONE;
		else
			st->prefix[i] = v >= 0 && (uint64_t)v < i ?
			    (uint32_t)v : GECKO_BAD;
		if (st->prefix[i] == GECKO_BAD) {
			snprintf(g->err, sizeof g->err, "stack %zu: its prefix "
			    "is not an earlier stack", i);
			return (-1);
		}
		/* The frame's line: frameTable.line[stackTable.frame[i]]. */
		j = gecko_cell(t->cells[GV_SFRAME], t->n[GV_SFRAME], i);
		if (j->kind == PACKED_NUM_INT && j->i >= 0)
			j = gecko_cell(t->cells[GV_FLINE], t->n[GV_FLINE],
			    (size_t)j->i);
		if (j->kind == PACKED_NUM_INT && j->i > 0 && j->i < UINT32_MAX)
			st->line[i] = (uint32_t)j->i;
	}
	return (0);
}

/* A processed thread's samples, in order. */
static int
gecko_processed_samples(struct gecko *g, const struct gecko_tables *t,
    struct gecko_stacks *st)
{
	const struct gecko_table	*samples = t->tab[GT_SAMPLES];
	const struct packed_ints	*stack, *weight = NULL, *times;
	struct packed_cursor		 sc, wc, tc;
	struct gecko_cell		 sj, wj, tj;
	uint32_t			 node;
	size_t				 i, n;
	int				 wt, deltas = 0;
	double				 at = 0;

	wt = gecko_weight_type(g, samples);
	stack = samples->col[GC_STACK];
	n = stack->n;
	/* gcc -O2 cannot see weight's and times' guards */
	memset(&wc, 0, sizeof wc);
	memset(&tc, 0, sizeof tc);
	/* Times: "time", or from version 47 or so "timeDeltas". */
	times = samples->col[GC_TIME];
	if (times == NULL || times->state != PACKED_ARRAY || times->n != n) {
		times = samples->col[GC_TIMEDELTAS];
		deltas = 1;
		if (times == NULL || times->state != PACKED_ARRAY ||
		    times->n != n)
			times = NULL;
	}
	if (times != NULL)
		packed_cursor_init(&tc, times);
	if (gecko_is_array(t, GV_WEIGHT)) {
		weight = samples->col[GC_WEIGHT];
		if (weight->n != n) {
			snprintf(g->err, sizeof g->err, "%zu sample stacks and "
			    "%zu weights", n, weight->n);
			return (-1);
		}
		packed_cursor_init(&wc, weight);
	}
	packed_cursor_init(&sc, stack);
	for (i = 0; i < n; i++) {
		sj.kind = packed_cursor_num(&sc, &sj.d, &sj.i);
		wj.d = 1;
		if (weight != NULL)
			(void)packed_cursor_num(&wc, &wj.d, &wj.i);
		tj.kind = PACKED_NUM_NULL;
		if (times != NULL) {
			tj.kind = packed_cursor_num(&tc, &tj.d, &tj.i);
			if (deltas) {
				/* A delta not a number counts as 0. */
				at += tj.kind == PACKED_NUM_INT ||
				    tj.kind == PACKED_NUM_REAL ? tj.d : 0;
				tj.kind = PACKED_NUM_REAL;
				tj.d = at;
			}
		}
		if (sj.kind == PACKED_NUM_NULL)
			continue;
		if ((node = gecko_node(g, st, &sj)) == PROFILE_NONE)
			return (-1);
		if (gecko_sample(g, node, wt, wj.d, &tj) == -1)
			return (-1);
	}
	return (gecko_flush(g));
}

/* A processed thread's tables: its own, or else the shared ones. */
static void
gecko_processed_tables(const struct gecko_obj *th,
    const struct gecko_obj *shared, struct gecko_tables *t)
{
	const struct gecko_strings	*sa;
	int				 k;

	for (k = 0; k < GT_NTABS; k++)
		t->tab[k] = th->tab[k] != NULL || shared == NULL ||
		    k == GT_SAMPLES ? th->tab[k] : shared->tab[k];
	sa = th->strs[1] != NULL || shared == NULL ? th->strs[1] :
	    shared->strs[1];
	if (sa == NULL || sa->state != PACKED_ARRAY)
		sa = th->strs[0];
	if (shared != NULL && shared->strs[1] != NULL &&
	    shared->strs[1]->state == PACKED_ARRAY)
		sa = shared->strs[1];
	t->strings = sa;
}

/* One thread of a processed profile (shared: its "shared", or NULL). */
static int
gecko_processed_thread(struct gecko *g, const struct gecko_obj *th,
    const struct gecko_obj *shared)
{
	static const struct gecko_obj	 none;
	struct gecko_stacks		 st;
	struct gecko_tables		 t;
	int				 v, rv = -1;

	memset(&st, 0, sizeof st);
	memset(&t, 0, sizeof t);
	/* A string (or no object) has no member here. */
	if (th->string || !th->object)
		th = &none;
	gecko_processed_tables(th, shared, &t);
	if (t.strings == NULL || t.strings->state != PACKED_ARRAY ||
	    !gecko_is_array(&t, GV_SFRAME) || (!gecko_is_array(&t,
	    GV_SPREFIX) && !gecko_is_array(&t, GV_SOFFSET)) ||
	    !gecko_is_array(&t, GV_FFUNC) || !gecko_is_array(&t, GV_NAME) ||
	    !gecko_is_array(&t, GV_STACK)) {
		snprintf(g->err, sizeof g->err, "a thread without a string "
		    "array, or stack, frame or func tables, or sample stacks");
		return (-1);
	}
	/* The tables, not the samples: decoded for random access. */
	for (v = 0; v < GV_NVIEWS; v++) {
		if (v == GV_STACK || v == GV_WEIGHT)
			continue;
		if ((t.cells[v] = gecko_cells(t.tab[gecko_views[v].tab],
		    gecko_views[v].col, &t.n[v])) == NULL)
			goto nomem;
	}
	st.n = t.n[GV_SFRAME];
	t.nfuncs = t.n[GV_NAME];
	st.resolve = gecko_processed_func;
	st.arg = &t;
	if ((t.byfunc = malloc((t.nfuncs + 1) * sizeof *t.byfunc)) == NULL ||
	    (st.prefix = malloc((st.n + 1) * sizeof *st.prefix)) == NULL ||
	    (st.func = malloc((st.n + 1) * sizeof *st.func)) == NULL ||
	    (st.node = malloc((st.n + 1) * sizeof *st.node)) == NULL ||
	    (st.line = calloc(st.n + 1, sizeof *st.line)) == NULL)
		goto nomem;
	memset(t.byfunc, 0xff, (t.nfuncs + 1) * sizeof *t.byfunc);
	memset(st.func, 0xff, (st.n + 1) * sizeof *st.func);
	memset(st.node, 0xff, (st.n + 1) * sizeof *st.node);
	if (gecko_processed_prefixes(g, &t, &st) == -1)
		goto out;
	if ((st.node[st.n] = gecko_thread_node(g, th)) == PROFILE_NONE ||
	    gecko_lines(g, &st) == -1)
		goto out;
	rv = gecko_processed_samples(g, &t, &st);
	goto out;
nomem:
	snprintf(g->err, sizeof g->err, "out of memory");
out:
	for (v = 0; v < GV_NVIEWS; v++)
		free(t.cells[v]);
	free(t.byfunc);
	free(st.prefix);
	free(st.func);
	free(st.node);
	free(st.line);
	free(st.lnode);
	g->lnode = PROFILE_NONE;
	return (rv);
}

/* A processed profile: every thread. */
static int
gecko_processed(struct gecko *g, const struct gecko_obj *prof)
{
	size_t	 i;

	g->interval = prof->meta ? prof->interval : 0;
	for (i = 0; i < prof->nthreads; i++) {
		if (gecko_processed_thread(g, prof->threads[i],
		    prof->shared) == -1)
			return (-1);
	}
	return (0);
}

/* Whether the profile is a processed one (the tree reader's test). */
static int
gecko_is_processed(const struct gecko_obj *prof)
{
	const struct gecko_obj	*th0;

	th0 = prof->nthreads > 0 ? prof->threads[0] : NULL;
	if (th0 != NULL && (th0->string || !th0->object))
		th0 = NULL;
	return (prof->ppv || prof->shared != NULL || (th0 != NULL &&
	    (th0->strs[1] != NULL || th0->tab[GT_FUNC] != NULL)));
}

static struct profile *
gecko_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct gecko		 g;
	struct profile		*p = NULL;
	struct json_stream	*js;
	struct json_token	 t;
	struct gecko_obj	*doc = NULL;
	const struct gecko_obj	*prof;
	int			 rv;

	/* max_json: the decoding a file may ask for. */
	if (json_doc_limit(in, "Firefox profile", cause) == -1)
		return (NULL);
	memset(&g, 0, sizeof g);
	g.metric[GECKO_SAMPLES] = g.metric[GECKO_TIME] =
	    g.metric[GECKO_BYTES] = -1;
	g.last = PROFILE_NONE;
	g.lnode = PROFILE_NONE;
	/* Integers past 64 bits are reals, as the tree reader had them. */
	if ((js = json_stream_create(in, JSON_STREAM_BIG_REALS)) == NULL ||
	    (doc = gecko_obj_new(&g)) == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	/* A thread may be a string holding a whole process' profile. */
	json_stream_set_max_string(js, (size_t)1 << 30);
	if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
	    (t.type == JSON_TOK_OBJECT ? gecko_read_obj(&g, js, doc, 0,
	    GECKO_AS_PROFILE) : json_stream_skip(js, &t)) == -1 ||
	    json_stream_next(js, &t) != JSON_TOK_END) {
		cause_set(cause, "%s: %s", in->path, g.err[0] != '\0' ? g.err :
		    json_stream_error(js));
		goto out;
	}
	/* {"label", "duration", ..., "profile": {...}}: old DevTools. */
	prof = doc->profile != NULL && doc->profile->meta && !doc->meta_key ?
	    doc->profile : doc;
	if (!doc->object || !prof->meta ||
	    prof->threads_state != PACKED_ARRAY) {
		cause_set(cause, "%s: not a Firefox profile (an object with "
		    "\"meta\" and \"threads\")", in->path);
		goto out;
	}
	if ((g.b = profile_builder_create("gecko")) == NULL ||
	    profile_builder_clock(g.b, "us", 1e6) == -1) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(g.b, opts->max_nodes);
	rv = gecko_is_processed(prof) ? gecko_processed(&g, prof) :
	    gecko_raw(&g, prof, 0);
	if (rv == -1) {
		cause_set(cause, "%s: %s", in->path, g.err[0] != '\0' ? g.err :
		    profile_builder_error(g.b));
		goto out;
	}
	if (g.metric[GECKO_SAMPLES] == -1 && g.metric[GECKO_TIME] == -1 &&
	    g.metric[GECKO_BYTES] == -1) {
		cause_set(cause, "%s: no samples with a stack in any thread",
		    in->path);
		goto out;
	}
	/*
	 * The document's tables (every sample, packed) are read: freed
	 * before the builder's finish makes the timeline, which would
	 * otherwise hold both at once at the load's peak.
	 */
	gecko_obj_free(doc);
	doc = NULL;
	p = profile_builder_finish(g.b, cause);
	g.b = NULL;
out:
	profile_builder_free(g.b);
	gecko_obj_free(doc);
	packed_text_free(&g.text);
	free(g.path);
	json_stream_free(js);
	return (p);
}

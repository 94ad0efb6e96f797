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
#include "input.h"
#include "json-doc.h"
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
 * Lost: markers, allocations, counters, CPU usage, frame addresses,
 * categories, JS tracer data.
 */

#define GECKO_MAX_NESTING	8	/* processes within processes */

enum gecko_metric {
	GECKO_SAMPLES,
	GECKO_TIME,
	GECKO_BYTES,
	GECKO_NMETRICS
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
	int			 metric[GECKO_NMETRICS];
	double			 interval;	/* ms, 0 if unknown */
	uint32_t		*path;		/* scratch for gecko_node */
	size_t			 pathcap;
	uint32_t		 last;		/* sample sequence run */
	int64_t			 run;
	uint32_t		 thread;	/* the timeline's, this thread */
	double			 start;		/* root meta.startTime, ms */
	double			 offset;	/* this process' times to it */
	uint32_t		 lnode;		/* gecko_node's line node */
	char			 err[256];
};

static int	gecko_probe(const char *, size_t);
static struct profile *gecko_load(struct input *,
		    const struct reader_options *, char **);
static int	gecko_col(json_t *, const char *);
static const char *gecko_str(json_t *, json_t *, size_t *);
static uint32_t	gecko_location(struct gecko *, json_t *, const char *,
		    size_t);
static uint32_t	gecko_thread_node(struct gecko *, json_t *);
static uint32_t	gecko_node(struct gecko *, struct gecko_stacks *, json_t *);
static int	gecko_lines(struct gecko *, struct gecko_stacks *);
static uint32_t	gecko_lnode(struct gecko *, struct gecko_stacks *, uint32_t,
		    uint32_t);
static int	gecko_sample(struct gecko *, uint32_t, int, double, json_t *);
static int64_t	gecko_id(json_t *);
static int	gecko_flush(struct gecko *);
static int	gecko_raw(struct gecko *, json_t *, int);
static int	gecko_raw_thread(struct gecko *, json_t *, json_t *);
static int	gecko_processed(struct gecko *, json_t *);
static int	gecko_processed_thread(struct gecko *, json_t *, json_t *);
static int	gecko_digits(const char *, size_t);
static int	gecko_url_line(const char *, size_t, size_t *, uint32_t *);
static void	gecko_scalar(json_t *, char *, size_t);
static int	gecko_weight_type(json_t *);
static json_t	*gecko_cell(json_t *, const char *, size_t);
static uint32_t	gecko_processed_func(struct gecko *, struct gecko_stacks *,
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

/* The column of a schema-indexed table, or -1. */
static int
gecko_col(json_t *schema, const char *name)
{
	json_t	*j = json_object_get(schema, name);

	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) > 64)
		return (-1);
	return ((int)json_integer_value(j));
}

/* String idx of a string table, or NULL. */
static const char *
gecko_str(json_t *strings, json_t *idx, size_t *len)
{
	json_t	*s;

	if (!json_is_integer(idx) || json_integer_value(idx) < 0)
		return (NULL);
	s = json_array_get(strings, (size_t)json_integer_value(idx));
	if (!json_is_string(s))
		return (NULL);
	*len = json_string_length(s);
	return (json_string_value(s));
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
gecko_location(struct gecko *g, json_t *libs, const char *s, size_t n)
{
	const char	*p, *name = s, *mod = "", *url = NULL, *arrow;
	char		*tmp = NULL;
	size_t		 i, nl = n, ml = 0, ul, k;
	uint32_t	 f, line = 0;
	int		 tries;
	unsigned long long addr;
	json_t		*lib, *st, *en, *ln;

	if (n > 2 && s[0] == '0' && s[1] == 'x') {
		/* An unsymbolicated address: the library mapping it. */
		addr = strtoull(s, NULL, 16);
		json_array_foreach(libs, k, lib) {
			st = json_object_get(lib, "start");
			en = json_object_get(lib, "end");
			ln = json_object_get(lib, "name");
			if (json_is_integer(st) && json_is_integer(en) &&
			    json_is_string(ln) &&
			    addr >= (unsigned long long)json_integer_value(st) &&
			    addr < (unsigned long long)json_integer_value(en)) {
				mod = json_string_value(ln);
				ml = json_string_length(ln);
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

/* A JSON scalar (pid, tid) as text. */
static void
gecko_scalar(json_t *j, char *buf, size_t len)
{
	if (json_is_string(j))
		snprintf(buf, len, "%.40s", json_string_value(j));
	else if (json_is_integer(j))
		snprintf(buf, len, "%lld", (long long)json_integer_value(j));
	else
		snprintf(buf, len, "?");
}

/* A pid or tid (a number, or a string of digits), -1 if neither. */
static int64_t
gecko_id(json_t *j)
{
	const char	*s;
	int64_t		 v = 0;

	if (json_is_integer(j))
		return (json_integer_value(j) >= 0 ? json_integer_value(j) : -1);
	if ((s = json_string_value(j)) == NULL || *s == '\0' ||
	    strlen(s) > 18 || s[strspn(s, "0123456789")] != '\0')
		return (-1);
	for (; *s != '\0'; s++)
		v = v * 10 + (*s - '0');
	return (v);
}

/* The root child of a thread: "name (process pid P, tid T)". */
static uint32_t
gecko_thread_node(struct gecko *g, json_t *th)
{
	json_t		*name, *proc;
	char		 label[256], pid[48], tid[48];
	uint32_t	 f, before, node;
	size_t		 base;
	int		 i;

	name = json_object_get(th, "name");
	proc = json_object_get(th, "processName");
	gecko_scalar(json_object_get(th, "pid"), pid, sizeof pid);
	gecko_scalar(json_object_get(th, "tid"), tid, sizeof tid);
	snprintf(label, sizeof label, "%.80s (%.80s%spid %s, tid %s)",
	    json_is_string(name) ? json_string_value(name) : "thread",
	    json_is_string(proc) ? json_string_value(proc) : "",
	    json_is_string(proc) ? " " : "", pid, tid);
	/* The timeline's thread: its name, process and ids. */
	if ((g->thread = profile_builder_thread(g->b, json_is_string(name) ?
	    json_string_value(name) : "", json_is_string(name) ?
	    json_string_length(name) : 0, json_is_string(proc) ?
	    json_string_value(proc) : "", json_is_string(proc) ?
	    json_string_length(proc) : 0, gecko_id(json_object_get(th, "pid")),
	    gecko_id(json_object_get(th, "tid")))) == PROFILE_NONE)
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

/*
 * The builder node of stack s: walk up the prefixes to a built stack,
 * then build down. Prefixes point to earlier stacks (checked when read),
 * so the walk ends.
 */
static uint32_t
gecko_node(struct gecko *g, struct gecko_stacks *st, json_t *sj)
{
	json_int_t	 s;
	size_t		 n = 0;
	uint32_t	 cur, parent;

	if (!json_is_integer(sj) || (s = json_integer_value(sj)) < 0 ||
	    (size_t)s >= st->n) {
		snprintf(g->err, sizeof g->err, "a sample's stack is not one "
		    "of the %zu stacks", st->n);
		return (PROFILE_NONE);
	}
	for (cur = (uint32_t)s; cur != PROFILE_NONE &&
	    st->node[cur] == PROFILE_NONE; cur = st->prefix[cur]) {
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
	uint32_t	 i, f, fr;

	for (i = 0; i < st->n && st->line[i] == 0; i++)
		;
	if (i == st->n) {
		free(st->line);
		st->line = NULL;
		return (0);
	}
	if ((st->lnode = malloc((st->n + 1) * sizeof *st->lnode)) == NULL)
		return (-1);
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
gecko_sample(struct gecko *g, uint32_t node, int wt, double w, json_t *tj)
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
	t = (json_number_value(tj) + g->offset) * 1000;
	if (json_is_number(tj) && isfinite(t) && fabs(t) < 4e18 &&
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
gecko_weight_type(json_t *samples)
{
	const char	*t = json_string_value(json_object_get(samples,
			    "weightType"));

	if (t != NULL && strcmp(t, "tracing-ms") == 0)
		return (GECKO_TIME);
	if (t != NULL && strcmp(t, "bytes") == 0)
		return (GECKO_BYTES);
	return (GECKO_SAMPLES);
}

/* One thread of a Gecko profile whose libs are libs. */
static int
gecko_raw_thread(struct gecko *g, json_t *th, json_t *libs)
{
	struct gecko_stacks	 st;
	json_t			*strings, *stacks, *frames, *samples, *row, *j;
	json_t			*sdata, *fdata;
	uint32_t		*byloc = NULL, *byframe = NULL, node, f;
	uint32_t		*lineof = NULL;
	int			 cprefix, cframe, cloc, cstack, cweight, wt;
	int			 ctime, cline;
	size_t			 i, nframes, nstrings, len;
	const char		*s;
	json_int_t		 k;
	int			 rv = -1;

	memset(&st, 0, sizeof st);
	strings = json_object_get(th, "stringTable");
	stacks = json_object_get(th, "stackTable");
	frames = json_object_get(th, "frameTable");
	samples = json_object_get(th, "samples");
	sdata = json_object_get(stacks, "data");
	fdata = json_object_get(frames, "data");
	cprefix = gecko_col(json_object_get(stacks, "schema"), "prefix");
	cframe = gecko_col(json_object_get(stacks, "schema"), "frame");
	cloc = gecko_col(json_object_get(frames, "schema"), "location");
	cline = gecko_col(json_object_get(frames, "schema"), "line");
	cstack = gecko_col(json_object_get(samples, "schema"), "stack");
	cweight = gecko_col(json_object_get(samples, "schema"), "weight");
	ctime = gecko_col(json_object_get(samples, "schema"), "time");
	if (!json_is_array(strings) || !json_is_array(sdata) ||
	    !json_is_array(fdata) || !json_is_array(json_object_get(samples,
	    "data")) || cprefix == -1 || cframe == -1 || cloc == -1 ||
	    cstack == -1) {
		snprintf(g->err, sizeof g->err, "a thread without stringTable, "
		    "or stackTable, frameTable or samples with their schema");
		return (-1);
	}
	nframes = json_array_size(fdata);
	nstrings = json_array_size(strings);
	st.n = json_array_size(sdata);
	if ((byloc = malloc((nstrings + 1) * sizeof *byloc)) == NULL ||
	    (byframe = malloc((nframes + 1) * sizeof *byframe)) == NULL ||
	    (st.prefix = malloc((st.n + 1) * sizeof *st.prefix)) == NULL ||
	    (st.func = malloc((st.n + 1) * sizeof *st.func)) == NULL ||
	    (st.node = malloc((st.n + 1) * sizeof *st.node)) == NULL ||
	    (lineof = calloc(nframes + 1, sizeof *lineof)) == NULL ||
	    (st.line = calloc(st.n + 1, sizeof *st.line)) == NULL)
		goto nomem;
	memset(byloc, 0xff, (nstrings + 1) * sizeof *byloc);
	memset(st.node, 0xff, (st.n + 1) * sizeof *st.node);

	/* Frames to functions, each location parsed once. */
	json_array_foreach(fdata, i, row) {
		j = json_array_get(row, cloc);
		if ((s = gecko_str(strings, j, &len)) == NULL) {
			snprintf(g->err, sizeof g->err, "frameTable row %zu: "
			    "location is not in the stringTable", i);
			goto out;
		}
		k = json_integer_value(j);
		if (byloc[k] == PROFILE_NONE &&
		    (byloc[k] = gecko_location(g, libs, s, len)) ==
		    PROFILE_NONE)
			goto out;
		byframe[i] = byloc[k];
		j = cline != -1 ? json_array_get(row, cline) : NULL;
		if (json_is_integer(j) && json_integer_value(j) > 0 &&
		    json_integer_value(j) < UINT32_MAX)
			lineof[i] = (uint32_t)json_integer_value(j);
	}
	json_array_foreach(sdata, i, row) {
		j = json_array_get(row, cprefix);
		if (json_is_null(j) || j == NULL)
			st.prefix[i] = PROFILE_NONE;
		else if (json_is_integer(j) && json_integer_value(j) >= 0 &&
		    (size_t)json_integer_value(j) < i)
			st.prefix[i] = (uint32_t)json_integer_value(j);
		else {
			snprintf(g->err, sizeof g->err, "stackTable row %zu: "
			    "prefix is not an earlier stack", i);
			goto out;
		}
		j = json_array_get(row, cframe);
		if (!json_is_integer(j) || json_integer_value(j) < 0 ||
		    (size_t)json_integer_value(j) >= nframes) {
			snprintf(g->err, sizeof g->err, "stackTable row %zu: "
			    "frame is not in the frameTable", i);
			goto out;
		}
		st.func[i] = byframe[json_integer_value(j)];
		st.line[i] = lineof[json_integer_value(j)];
	}
	if ((st.node[st.n] = gecko_thread_node(g, th)) == PROFILE_NONE ||
	    gecko_lines(g, &st) == -1)
		goto out;
	wt = gecko_weight_type(samples);
	json_array_foreach(json_object_get(samples, "data"), i, row) {
		j = json_array_get(row, cstack);
		if (j == NULL || json_is_null(j))
			continue;
		if ((node = gecko_node(g, &st, j)) == PROFILE_NONE)
			goto out;
		f = 1;
		if (cweight != -1 && json_is_number(json_array_get(row,
		    cweight)))
			f = 0;
		if (gecko_sample(g, node, wt, f ? 1 : json_number_value(
		    json_array_get(row, cweight)), ctime == -1 ? NULL :
		    json_array_get(row, ctime)) == -1)
			goto out;
	}
	rv = gecko_flush(g);
	goto out;
nomem:
	snprintf(g->err, sizeof g->err, "out of memory");
out:
	free(byloc);
	free(byframe);
	free(lineof);
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
gecko_raw(struct gecko *g, json_t *prof, int nesting)
{
	json_t	*th, *sub, *libs, *parsed;
	size_t	 i;
	double	 saved;
	int	 rv;

	if (nesting > GECKO_MAX_NESTING) {
		snprintf(g->err, sizeof g->err, "processes nested more than "
		    "%d deep", GECKO_MAX_NESTING);
		return (-1);
	}
	libs = json_object_get(prof, "libs");
	/* A child process' times count from its own start. */
	if (nesting == 0)
		g->start = json_number_value(json_object_get(json_object_get(
		    prof, "meta"), "startTime"));
	saved = g->offset;
	if (json_is_number(json_object_get(json_object_get(prof, "meta"),
	    "startTime")))
		g->offset = json_number_value(json_object_get(json_object_get(
		    prof, "meta"), "startTime")) - g->start;
	if (g->interval == 0)
		g->interval = json_number_value(json_object_get(json_object_get(
		    prof, "meta"), "interval"));
	json_array_foreach(json_object_get(prof, "threads"), i, th) {
		if (!json_is_string(th)) {
			if (gecko_raw_thread(g, th, libs) == -1)
				return (-1);
			continue;
		}
		/*
		 * Before 2017 Firefox wrote threads as JSON strings, and a
		 * child process as a string holding its whole profile.
		 */
		if ((parsed = json_loadb(json_string_value(th),
		    json_string_length(th), 0, NULL)) == NULL ||
		    !json_is_object(parsed)) {
			json_decref(parsed);
			snprintf(g->err, sizeof g->err, "threads[%zu] is a "
			    "string that is not a JSON thread", i);
			return (-1);
		}
		rv = json_object_get(parsed, "threads") != NULL ?
		    gecko_raw(g, parsed, nesting + 1) :
		    gecko_raw_thread(g, parsed, libs);
		json_decref(parsed);
		if (rv == -1)
			return (-1);
	}
	json_array_foreach(json_object_get(prof, "processes"), i, sub) {
		if (gecko_raw(g, sub, nesting + 1) == -1)
			return (-1);
	}
	g->offset = saved;
	return (0);
}

/* A processed thread's tables. */
struct gecko_tables {
	json_t		*strings, *stacks, *frames, *funcs, *resources;
	json_t		*sources;
	uint32_t	*byfunc;	/* builder function per funcTable row */
	size_t		 nfuncs;
};

/* Row i of a column of a column-array table, or NULL. */
static json_t *
gecko_cell(json_t *table, const char *col, size_t i)
{
	return (json_array_get(json_object_get(table, col), i));
}

/* The builder function of a processed stack's frame's func. */
static uint32_t
gecko_processed_func(struct gecko *g, struct gecko_stacks *st, uint32_t s)
{
	struct gecko_tables	*t = st->arg;
	json_t			*j, *file;
	json_int_t		 fr, fn, r;
	const char		*name, *mod = "";
	size_t			 nl, ml = 0;
	uint32_t		 f, line = 0;

	j = gecko_cell(t->stacks, "frame", s);
	fr = json_is_integer(j) ? json_integer_value(j) : -1;
	j = gecko_cell(t->frames, "func", fr < 0 ? SIZE_MAX : (size_t)fr);
	fn = json_is_integer(j) ? json_integer_value(j) : -1;
	if (fr < 0 || fn < 0 || (size_t)fn >= t->nfuncs) {
		snprintf(g->err, sizeof g->err, "stack %u: its frame or the "
		    "frame's func is not in the tables", s);
		return (PROFILE_NONE);
	}
	if (t->byfunc[fn] != PROFILE_NONE)
		return (t->byfunc[fn]);
	if ((name = gecko_str(t->strings, gecko_cell(t->funcs, "name", fn),
	    &nl)) == NULL) {
		snprintf(g->err, sizeof g->err, "func %lld: its name is not in "
		    "the string array", (long long)fn);
		return (PROFILE_NONE);
	}
	/* A JS function's file; else its resource (the library). */
	file = gecko_cell(t->funcs, "fileName", fn);
	if (file == NULL && json_is_integer(j = gecko_cell(t->funcs, "source",
	    fn)) && json_integer_value(j) >= 0)
		file = gecko_cell(t->sources, "filename", json_integer_value(j));
	if (json_is_true(gecko_cell(t->funcs, "isJS", fn)) &&
	    (mod = gecko_str(t->strings, file, &ml)) != NULL) {
		if (ml >= 7 && memcmp(mod, "file://", 7) == 0) {
			mod += 7;
			ml -= 7;
		}
		j = gecko_cell(t->funcs, "lineNumber", fn);
		if (json_is_integer(j) && json_integer_value(j) > 0 &&
		    json_integer_value(j) < UINT32_MAX)
			line = (uint32_t)json_integer_value(j);
	} else {
		j = gecko_cell(t->funcs, "resource", fn);
		r = json_is_integer(j) ? json_integer_value(j) : -1;
		if (r < 0 || (mod = gecko_str(t->strings, gecko_cell(
		    t->resources, "name", r), &ml)) == NULL) {
			mod = "";
			ml = 0;
		}
	}
	if ((f = profile_builder_func(g->b, name, nl, mod, ml)) == PROFILE_NONE)
		return (PROFILE_NONE);
	if (line != 0)
		profile_builder_func_location(g->b, f, mod, ml, line);
	t->byfunc[fn] = f;
	return (f);
}

/* One thread of a processed profile (shared: its "shared", or NULL). */
static int
gecko_processed_thread(struct gecko *g, json_t *th, json_t *shared)
{
	struct gecko_stacks	 st;
	struct gecko_tables	 t;
	json_t			*samples, *stack, *weight, *prefix, *offset;
	json_t			*j, *times, *deltas, *tj = NULL;
	double			 at;
	size_t			 i, n;
	uint32_t		 node;
	json_int_t		 v;
	int			 wt, rv = -1;

	memset(&st, 0, sizeof st);
	memset(&t, 0, sizeof t);
#define GECKO_TABLE(name) (json_object_get(th, name) != NULL ? \
	json_object_get(th, name) : json_object_get(shared, name))
	t.strings = GECKO_TABLE("stringArray");
	if (!json_is_array(t.strings))
		t.strings = json_object_get(th, "stringTable");
	if (json_is_array(json_object_get(shared, "stringArray")))
		t.strings = json_object_get(shared, "stringArray");
	t.stacks = GECKO_TABLE("stackTable");
	t.frames = GECKO_TABLE("frameTable");
	t.funcs = GECKO_TABLE("funcTable");
	t.resources = GECKO_TABLE("resourceTable");
	t.sources = GECKO_TABLE("sources");
#undef GECKO_TABLE
	samples = json_object_get(th, "samples");
	stack = json_object_get(samples, "stack");
	weight = json_object_get(samples, "weight");
	prefix = json_object_get(t.stacks, "prefix");
	offset = json_object_get(t.stacks, "prefixOffset");
	if (!json_is_array(t.strings) || !json_is_array(json_object_get(
	    t.stacks, "frame")) || (!json_is_array(prefix) &&
	    !json_is_array(offset)) || !json_is_array(json_object_get(t.frames,
	    "func")) || !json_is_array(json_object_get(t.funcs, "name")) ||
	    !json_is_array(stack)) {
		snprintf(g->err, sizeof g->err, "a thread without a string "
		    "array, or stack, frame or func tables, or sample stacks");
		return (-1);
	}
	st.n = json_array_size(json_object_get(t.stacks, "frame"));
	t.nfuncs = json_array_size(json_object_get(t.funcs, "name"));
	st.resolve = gecko_processed_func;
	st.arg = &t;
	if ((t.byfunc = malloc((t.nfuncs + 1) * sizeof *t.byfunc)) == NULL ||
	    (st.prefix = malloc((st.n + 1) * sizeof *st.prefix)) == NULL ||
	    (st.func = malloc((st.n + 1) * sizeof *st.func)) == NULL ||
	    (st.node = malloc((st.n + 1) * sizeof *st.node)) == NULL ||
	    (st.line = calloc(st.n + 1, sizeof *st.line)) == NULL) {
		snprintf(g->err, sizeof g->err, "out of memory");
		goto out;
	}
	memset(t.byfunc, 0xff, (t.nfuncs + 1) * sizeof *t.byfunc);
	memset(st.func, 0xff, (st.n + 1) * sizeof *st.func);
	memset(st.node, 0xff, (st.n + 1) * sizeof *st.node);
	for (i = 0; i < st.n; i++) {
		j = json_array_get(json_is_array(offset) ? offset : prefix, i);
		if (json_is_array(offset)) {
			v = json_is_integer(j) ? json_integer_value(j) : -1;
			st.prefix[i] = v == 0 ? PROFILE_NONE :
			    v > 0 && (size_t)v <= i ? (uint32_t)(i - v) :
			    PROFILE_NONE - 1;
		} else if (j == NULL || json_is_null(j))
			st.prefix[i] = PROFILE_NONE;
		else {
			v = json_is_integer(j) ? json_integer_value(j) : -1;
			st.prefix[i] = v >= 0 && (size_t)v < i ? (uint32_t)v :
			    PROFILE_NONE - 1;
		}
		if (st.prefix[i] == PROFILE_NONE - 1) {
			snprintf(g->err, sizeof g->err, "stack %zu: its prefix "
			    "is not an earlier stack", i);
			goto out;
		}
		/* The frame's line: frameTable.line[stackTable.frame[i]]. */
		j = json_array_get(json_object_get(t.stacks, "frame"), i);
		if (json_is_integer(j) && json_integer_value(j) >= 0)
			j = gecko_cell(t.frames, "line", json_integer_value(j));
		if (json_is_integer(j) && json_integer_value(j) > 0 &&
		    json_integer_value(j) < UINT32_MAX)
			st.line[i] = (uint32_t)json_integer_value(j);
	}
	if ((st.node[st.n] = gecko_thread_node(g, th)) == PROFILE_NONE ||
	    gecko_lines(g, &st) == -1)
		goto out;
	wt = gecko_weight_type(samples);
	n = json_array_size(stack);
	if (json_is_array(weight) && json_array_size(weight) != n) {
		snprintf(g->err, sizeof g->err, "%zu sample stacks and %zu "
		    "weights", n, json_array_size(weight));
		goto out;
	}
	/* Times: "time", or from version 47 or so "timeDeltas". */
	times = json_object_get(samples, "time");
	deltas = json_object_get(samples, "timeDeltas");
	if (!json_is_array(times) || json_array_size(times) != n)
		times = NULL;
	if (!json_is_array(deltas) || json_array_size(deltas) != n)
		deltas = NULL;
	if ((tj = json_real(0)) == NULL) {
		snprintf(g->err, sizeof g->err, "out of memory");
		goto out;
	}
	for (i = 0, at = 0; i < n; i++) {
		at += json_number_value(json_array_get(deltas, i));
		j = json_array_get(stack, i);
		if (json_is_null(j))
			continue;
		if ((node = gecko_node(g, &st, j)) == PROFILE_NONE)
			goto out;
		if (deltas != NULL)
			json_real_set(tj, at);
		if (gecko_sample(g, node, wt, json_is_array(weight) ?
		    json_number_value(json_array_get(weight, i)) : 1,
		    times != NULL ? json_array_get(times, i) : deltas != NULL ?
		    tj : NULL) == -1)
			goto out;
	}
	rv = gecko_flush(g);
out:
	json_decref(tj);
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
gecko_processed(struct gecko *g, json_t *doc)
{
	json_t	*th;
	size_t	 i;

	g->interval = json_number_value(json_object_get(json_object_get(doc,
	    "meta"), "interval"));
	json_array_foreach(json_object_get(doc, "threads"), i, th) {
		if (gecko_processed_thread(g, th, json_object_get(doc,
		    "shared")) == -1)
			return (-1);
	}
	return (0);
}

static struct profile *
gecko_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct gecko	 g;
	struct profile	*p = NULL;
	json_t		*doc, *prof, *meta, *th0;
	int		 processed, rv;

	memset(&g, 0, sizeof g);
	g.lnode = PROFILE_NONE;
	g.metric[GECKO_SAMPLES] = g.metric[GECKO_TIME] =
	    g.metric[GECKO_BYTES] = -1;
	g.last = PROFILE_NONE;
	if ((doc = json_doc_load(in, "Firefox profile", cause)) == NULL)
		return (NULL);
	/* {"label", "duration", ..., "profile": {...}}: old DevTools. */
	if (json_is_object(json_object_get(json_object_get(doc, "profile"),
	    "meta")) && json_object_get(doc, "meta") == NULL)
		prof = json_object_get(doc, "profile");
	else
		prof = doc;
	meta = json_object_get(prof, "meta");
	if (!json_is_object(doc) || !json_is_object(meta) ||
	    !json_is_array(json_object_get(prof, "threads"))) {
		cause_set(cause, "%s: not a Firefox profile (an object with "
		    "\"meta\" and \"threads\")", in->path);
		goto out;
	}
	th0 = json_array_get(json_object_get(prof, "threads"), 0);
	processed = json_object_get(meta, "preprocessedProfileVersion") !=
	    NULL || json_is_object(json_object_get(prof, "shared")) ||
	    json_object_get(th0, "stringArray") != NULL ||
	    json_object_get(th0, "funcTable") != NULL;
	if ((g.b = profile_builder_create("gecko")) == NULL ||
	    profile_builder_clock(g.b, "us", 1e6) == -1) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(g.b, opts->max_nodes);
	rv = processed ? gecko_processed(&g, prof) : gecko_raw(&g, prof, 0);
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
	p = profile_builder_finish(g.b, cause);
	g.b = NULL;
out:
	profile_builder_free(g.b);
	free(g.path);
	json_decref(doc);
	return (p);
}

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

#include "cause.h"
#include "decimal.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "timeline.h"

/*
 * Call/return event traces with tick counters (deepq-formats(5)):
 *
 *	# deepq-trace 1
 *	metric ticks count
 *	call 0 f
 *	call 10 g
 *	return 30
 *	return 160 f
 *
 * The call tree is built with the algorithm of the Tezos PVM profiler: a
 * node's self ticks are the spans between its call, its subcalls and its
 * return; a call gets the node (function, under its caller's node), so
 * repeated calls in one context merge. Every self span is also kept as a
 * sample in time order, for flame charts, and on the timeline (one
 * thread, "trace"; in seconds when the metric's unit is a time, else in
 * ticks). Ticks between top-level calls
 * are the root's self time. Calls still open at the end are closed at the
 * last tick.
 */

#define TRACE_MAGIC	"# deepq-trace"

struct trace_frame {
	uint32_t	 node;
};

static int	trace_probe(const char *, size_t);
static struct profile *trace_load(struct input *,
		    const struct reader_options *, char **);
static int	trace_tick(const char **, int64_t *);
static int	trace_span(struct profile_builder *, int, uint32_t, int64_t,
		    int64_t);
static int	trace_clock(struct profile_builder *, int);

const struct reader reader_trace = {
	.name = "trace",
	.description = "call/return event trace with tick counters",
	.probe = trace_probe,
	.load = trace_load,
};

static int
trace_probe(const char *buf, size_t len)
{
	size_t	 n = sizeof TRACE_MAGIC - 1;

	return (len >= n && memcmp(buf, TRACE_MAGIC, n) == 0 ? 100 : 0);
}

/* Parse a non-negative decimal tick and the blanks after it. */
static int
trace_tick(const char **sp, int64_t *v)
{
	const char	*s = *sp;
	uint64_t	 n;
	size_t		 k;

	while (*s == ' ' || *s == '\t')
		s++;
	k = decimal_span(s, SIZE_MAX);
	if (decimal_u64(s, k, INT64_MAX, &n) != DECIMAL_OK)
		return (-1);
	s += k;
	if (*s != '\0' && *s != ' ' && *s != '\t')
		return (-1);
	while (*s == ' ' || *s == '\t')
		s++;
	*sp = s;
	*v = (int64_t)n;
	return (0);
}

/*
 * Give node a self span of d ticks from tick t, and record it as a
 * sample, and on the timeline (its one thread is 0).
 */
static int
trace_span(struct profile_builder *b, int metric, uint32_t node, int64_t t,
    int64_t d)
{
	if (d == 0)
		return (0);
	if (profile_builder_add(b, node, metric, d) == -1 ||
	    profile_builder_sample(b, node, d) == -1 ||
	    profile_builder_timed(b, node, 0, t, d, 0) == -1)
		return (-1);
	return (0);
}

/*
 * The timeline's clock is the metric's: seconds where its unit is a
 * time ("ns", "us", "ms", "s"), else ticks of unknown rate.
 */
static int
trace_clock(struct profile_builder *b, int metric)
{
	static const struct {
		const char	*unit;
		double		 rate;
	} units[] = {
		{ "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 },
	};
	const char	*u = profile_builder_metric_unit(b, metric);
	size_t		 i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(u, units[i].unit) == 0)
			break;
	}
	if (profile_builder_clock(b, i < sizeof units / sizeof units[0] ?
	    units[i].unit : "ticks", i < sizeof units / sizeof units[0] ?
	    units[i].rate : 0) == -1 ||
	    profile_builder_time_mode(b, metric, TIMELINE_SPAN) == -1 ||
	    profile_builder_thread(b, "trace", 5, "", 0, -1, -1) !=
	    0)
		return (-1);
	return (0);
}

/* A line's outcome: a line error has its reason in *why (NULL: memory). */
#define TRACE_OK	0
#define TRACE_LINE	-1	/* "line N: why" */
#define TRACE_BUILDER	-2	/* "line N: " and the builder's error */
#define TRACE_NOMEM	-3

/* The reader's state between lines. */
struct trace {
	struct profile_builder	*b;
	uint32_t		*stack;		/* open calls' nodes */
	size_t			 depth, cap;
	int64_t			 last;		/* the last event's tick, or -1 */
	int			 metric;	/* -1 until a metric or event */
	int			 events;
};

/*
 * A "metric NAME [UNIT]" line, s after "metric ": only before the first
 * event and once.
 */
static int
trace_metric(struct trace *tr, const char *s, char **why)
{
	char	*sp, *name;

	if (tr->metric != -1) {
		*why = strdup("metric after the first event or metric line");
		return (TRACE_LINE);
	}
	while (*s == ' ')
		s++;
	if ((name = strdup(s)) == NULL)
		return (TRACE_NOMEM);
	if ((sp = strchr(name, ' ')) != NULL)
		*sp++ = '\0';
	while (sp != NULL && *sp == ' ')
		sp++;
	tr->metric = profile_builder_metric(tr->b, name, sp && *sp ? sp :
	    "count");
	free(name);
	return (tr->metric == -1 ? TRACE_BUILDER : TRACE_OK);
}

/* A call of name (a "module`function" splits) under node: pushed. */
static int
trace_call(struct trace *tr, uint32_t node, const char *name)
{
	const char	*bt;
	uint32_t	 fn, *ns;
	size_t		 n, c;

	n = strlen(name);
	while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		n--;
	if ((bt = memchr(name, '`', n)) != NULL)
		fn = profile_builder_func(tr->b, bt + 1, name + n - bt - 1,
		    name, bt - name);
	else
		fn = profile_builder_func(tr->b, name, n, "", 0);
	if (fn == PROFILE_NONE || (node = profile_builder_child(tr->b, node,
	    fn)) == PROFILE_NONE)
		return (TRACE_BUILDER);
	if (tr->depth == tr->cap) {
		c = tr->cap ? tr->cap * 2 : 64;
		if ((ns = realloc(tr->stack, c * sizeof *ns)) == NULL)
			return (TRACE_NOMEM);
		tr->stack = ns;
		tr->cap = c;
	}
	tr->stack[tr->depth++] = node;
	return (TRACE_OK);
}

/*
 * A return, name (possibly empty) after its tick: popped, once the name,
 * if given, is checked against the open call's function.
 */
static int
trace_return(struct trace *tr, const char *name, char **why)
{
	const char	*bt, *want;
	uint32_t	 fn, id;
	size_t		 n, wn;

	if (tr->depth == 0) {
		*why = strdup("return without a call");
		return (TRACE_LINE);
	}
	n = strlen(name);
	while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		n--;
	fn = profile_builder_node_func(tr->b, tr->stack[tr->depth - 1]);
	if (n > 0) {
		bt = memchr(name, '`', n);
		want = bt ? bt + 1 : name;
		wn = bt ? n - (bt + 1 - name) : n;
		id = profile_builder_func_find(tr->b, want, wn,
		    bt ? name : "", bt ? (size_t)(bt - name) : 0);
		if (id != fn) {
			*why = strdup("return does not match the open call");
			return (TRACE_LINE);
		}
	}
	tr->depth--;
	return (TRACE_OK);
}

/*
 * A "call TICK NAME" or "return TICK [NAME]" line, s at its first word:
 * the span since the last event goes to the open node, then the call is
 * pushed or the return popped.
 */
static int
trace_event(struct trace *tr, const char *s, char **why)
{
	const char	*tick;
	uint32_t	 node;
	int64_t		 t;
	int		 call;

	if (strncmp(s, "call", 4) == 0 && (s[4] == ' ' || s[4] == '\t')) {
		tick = s + 4;
		if (trace_tick(&tick, &t) == -1 || *tick == '\0') {
			*why = strdup("expected: call TICK NAME");
			return (TRACE_LINE);
		}
		call = 1;
	} else if (strncmp(s, "return", 6) == 0 &&
	    (s[6] == '\0' || s[6] == ' ' || s[6] == '\t')) {
		tick = s + 6;
		if (trace_tick(&tick, &t) == -1) {
			*why = strdup("expected: return TICK [NAME]");
			return (TRACE_LINE);
		}
		call = 0;
	} else {
		*why = strdup("expected call, return or metric");
		return (TRACE_LINE);
	}
	if (t < tr->last) {
		*why = strdup("tick goes backwards");
		return (TRACE_LINE);
	}
	node = tr->depth ? tr->stack[tr->depth - 1] : PROFILE_ROOT;
	if (tr->last != -1 && trace_span(tr->b, tr->metric, node, tr->last,
	    t - tr->last) == -1)
		return (TRACE_BUILDER);
	tr->last = t;
	tr->events++;
	return (call ? trace_call(tr, node, tick) : trace_return(tr, tick,
	    why));
}

static struct profile *
trace_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct trace		 tr;
	struct profile		*p = NULL;
	size_t			 len;
	char			*line, *why = NULL;
	const char		*s;
	int			 r = TRACE_OK;

	memset(&tr, 0, sizeof tr);
	tr.last = -1;
	tr.metric = -1;
	if ((tr.b = profile_builder_create("trace")) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(tr.b, opts->max_nodes);

	while ((line = input_line(in, &len, &why)) != NULL) {
		s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			continue;
		if (memchr(line, '\0', len) != NULL) {
			why = strdup("NUL byte (binary data?)");
			r = TRACE_LINE;
			break;
		}
		if (strncmp(s, "metric ", 7) == 0) {
			if ((r = trace_metric(&tr, s + 7, &why)) != TRACE_OK)
				break;
			continue;
		}
		if (tr.metric == -1 && (tr.metric = profile_builder_metric(tr.b,
		    "ticks", "count")) == -1) {
			r = TRACE_BUILDER;
			break;
		}
		if (tr.events == 0 && trace_clock(tr.b, tr.metric) == -1) {
			r = TRACE_BUILDER;
			break;
		}
		if ((r = trace_event(&tr, s, &why)) != TRACE_OK)
			break;
	}
	switch (r) {
	case TRACE_LINE:
		cause_set(cause, "%s: line %llu: %s", in->path,
		    (unsigned long long)in->lineno, why ? why : "out of memory");
		goto fail;
	case TRACE_BUILDER:
		cause_set(cause, "%s: line %llu: %s", in->path,
		    (unsigned long long)in->lineno, profile_builder_error(tr.b));
		goto fail;
	case TRACE_NOMEM:
		cause_set(cause, "out of memory");
		goto fail;
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (tr.events == 0) {
		cause_set(cause, "%s: no events in the trace", in->path);
		goto fail;
	}
	p = profile_builder_finish(tr.b, cause);
	tr.b = NULL;
	goto done;
fail:
	profile_builder_free(tr.b);
done:
	free(why);
	free(tr.stack);
	return (p);
}

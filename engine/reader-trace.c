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

static struct profile *
trace_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct profile_builder	*b;
	struct profile		*p = NULL;
	uint32_t		*stack = NULL, fn, node;
	size_t			 depth = 0, cap = 0, len, n;
	char			*line, *why = NULL;
	const char		*s, *name, *tick;
	int64_t			 t, last = -1;
	int			 metric = -1, events = 0;

	if ((b = profile_builder_create("trace")) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(b, opts->max_nodes);

	while ((line = input_line(in, &len, &why)) != NULL) {
		s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			continue;
		if (memchr(line, '\0', len) != NULL) {
			why = strdup("NUL byte (binary data?)");
			goto lineerr;
		}
		if (strncmp(s, "metric ", 7) == 0) {
			char	*sp, *name2;

			if (metric != -1) {
				why = strdup("metric after the first event or "
				    "metric line");
				goto lineerr;
			}
			s += 7;
			while (*s == ' ')
				s++;
			if ((name2 = strdup(s)) == NULL)
				goto nomem;
			if ((sp = strchr(name2, ' ')) != NULL)
				*sp++ = '\0';
			while (sp != NULL && *sp == ' ')
				sp++;
			metric = profile_builder_metric(b, name2,
			    sp && *sp ? sp : "count");
			free(name2);
			if (metric == -1)
				goto builderr;
			continue;
		}
		if (metric == -1 &&
		    (metric = profile_builder_metric(b, "ticks", "count")) == -1)
			goto builderr;
		if (events == 0 && trace_clock(b, metric) == -1)
			goto builderr;
		if (strncmp(s, "call", 4) == 0 && (s[4] == ' ' || s[4] == '\t')) {
			tick = s + 4;
			if (trace_tick(&tick, &t) == -1 || *tick == '\0') {
				why = strdup("expected: call TICK NAME");
				goto lineerr;
			}
			name = tick;
		} else if (strncmp(s, "return", 6) == 0 &&
		    (s[6] == '\0' || s[6] == ' ' || s[6] == '\t')) {
			tick = s + 6;
			if (trace_tick(&tick, &t) == -1) {
				why = strdup("expected: return TICK [NAME]");
				goto lineerr;
			}
			name = NULL;
		} else {
			why = strdup("expected call, return or metric");
			goto lineerr;
		}
		if (t < last) {
			why = strdup("tick goes backwards");
			goto lineerr;
		}
		node = depth ? stack[depth - 1] : PROFILE_ROOT;
		if (last != -1 && trace_span(b, metric, node, last,
		    t - last) == -1)
			goto builderr;
		last = t;
		events++;

		if (name != NULL) {
			const char	*bt;

			n = strlen(name);
			while (n > 0 && (name[n - 1] == ' ' ||
			    name[n - 1] == '\t'))
				n--;
			if ((bt = memchr(name, '`', n)) != NULL)
				fn = profile_builder_func(b, bt + 1,
				    name + n - bt - 1, name, bt - name);
			else
				fn = profile_builder_func(b, name, n, "", 0);
			if (fn == PROFILE_NONE || (node =
			    profile_builder_child(b, node, fn)) == PROFILE_NONE)
				goto builderr;
			if (depth == cap) {
				size_t	  c = cap ? cap * 2 : 64;
				uint32_t *ns;

				if ((ns = realloc(stack, c * sizeof *ns)) ==
				    NULL)
					goto nomem;
				stack = ns;
				cap = c;
			}
			stack[depth++] = node;
		} else {
			if (depth == 0) {
				why = strdup("return without a call");
				goto lineerr;
			}
			n = strlen(tick);
			while (n > 0 && (tick[n - 1] == ' ' ||
			    tick[n - 1] == '\t'))
				n--;
			fn = profile_builder_node_func(b, stack[depth - 1]);
			if (n > 0) {
				const char	*bt = memchr(tick, '`', n);
				const char	*want = bt ? bt + 1 : tick;
				size_t		 wn = bt ? n - (bt + 1 - tick) : n;
				uint32_t	 id;

				id = profile_builder_func_find(b, want, wn,
				    bt ? tick : "", bt ? (size_t)(bt - tick) : 0);
				if (id != fn) {
					why = strdup("return does not match "
					    "the open call");
					goto lineerr;
				}
			}
			depth--;
		}
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (events == 0) {
		cause_set(cause, "%s: no events in the trace", in->path);
		goto fail;
	}
	p = profile_builder_finish(b, cause);
	b = NULL;
	goto done;

lineerr:
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, why ? why : "out of memory");
	goto fail;
builderr:
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, profile_builder_error(b));
	goto fail;
nomem:
	cause_set(cause, "out of memory");
fail:
	profile_builder_free(b);
done:
	free(why);
	free(stack);
	return (p);
}

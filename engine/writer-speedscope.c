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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cause.h"
#include "outbuf.h"
#include "profile.h"
#include "utf8.h"
#include "writer.h"

/*
 * speedscope's JSON file format (its file-format-schema.json): the
 * functions are the shared frames, and each metric a profile of its own.
 * A profile with a sample sequence (a time line: V8, traces) has metric 0
 * as an "evented" profile, frames opened and closed as the sequence goes
 * from stack to stack, so speedscope's time-ordered view is the real
 * one; every other metric is "sampled": one stack per call node with a
 * self value, weighted by it. Totals are then deepq's.
 *
 * Strings go through jansson; numbers and punctuation straight to the
 * stream, so a large profile is written without a tree of JSON objects.
 */

struct sw {
	const struct writer_options *o;
	struct outbuf		*ob;
	const struct profile	*p;
	uint32_t		*path;
	uint32_t		 pathcap;
};

static int	sw_put(const char *, size_t, void *);
static int	sw_string(struct outbuf *, const char *);
static int	sw_path(struct sw *, uint32_t, uint32_t *);
static const char *sw_unit(const char *);
static int	sw_sampled(struct sw *, uint32_t);
static void	sw_event(struct sw *, int, char, uint32_t, int64_t);
static int	sw_evented(struct sw *);

/* jansson's output callback. */
static int
sw_put(const char *buf, size_t n, void *arg)
{
	outbuf_write(arg, buf, n);
	return (outbuf_failed(arg));
}

/*
 * A JSON string as jansson writes it. Most names need no escape: those
 * are copied between quotes, which is what jansson would write.
 */
static int
sw_string(struct outbuf *ob, const char *s)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n;
	json_t			*j;
	int			 r;

	for (n = 0; u[n] >= 0x20 && u[n] != '"' && u[n] != '\\'; n++)
		;
	if (u[n] == '\0' && utf8_valid(s, n)) {
		outbuf_putc(ob, '"');
		outbuf_write(ob, s, n);
		outbuf_putc(ob, '"');
		return (outbuf_failed(ob));
	}
	if ((j = json_string(s)) == NULL)
		return (-1);
	r = json_dump_callback(j, sw_put, ob, JSON_ENCODE_ANY);
	json_decref(j);
	return (r);
}

/* speedscope's unit for a deepq unit; "none" if it has none. */
static const char *
sw_unit(const char *unit)
{
	static const char *const units[][2] = {
		{ "ns", "nanoseconds" }, { "us", "microseconds" },
		{ "ms", "milliseconds" }, { "s", "seconds" },
		{ "bytes", "bytes" },
	};
	size_t	 i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(unit, units[i][0]) == 0)
			return (units[i][1]);
	}
	return ("none");
}

/* Node n's functions from below the root down to n, in w->path. */
static int
sw_path(struct sw *w, uint32_t n, uint32_t *depthp)
{
	const struct profile	*p = w->p;
	uint32_t		 d, k, *np;

	d = n == PROFILE_ROOT ? 0 : p->node_depth[n];
	if (d > w->pathcap) {
		if ((np = reallocarray(w->path, d, sizeof *np)) == NULL)
			return (-1);
		w->path = np;
		w->pathcap = d;
	}
	for (k = d; k > 0; k--, n = p->node_parent[n])
		w->path[k - 1] = p->node_func[n];
	*depthp = d;
	return (0);
}

/* Metric m as a sampled profile. */
static int
sw_sampled(struct sw *w, uint32_t m)
{
	const struct profile	*p = w->p;
	const int64_t		*self = p->metrics[m].self;
	uint32_t		 n, d, k;
	int64_t			 end = 0;
	int			 first = 1;

	for (n = 0; n < p->nnodes; n++)
		end += self[n];
	outbuf_puts(w->ob, "{\"type\":\"sampled\",\"name\":");
	if (sw_string(w->ob, p->metrics[m].name) == -1)
		return (-1);
	outbuf_printf(w->ob, ",\"unit\":\"%s\",\"startValue\":0,"
	    "\"endValue\":%" PRId64 ",\"samples\":[",
	    sw_unit(p->metrics[m].unit), end);
	for (n = 0; n < p->nnodes; n++) {
		if (self[n] == 0)
			continue;
		/* A failed buffer (a deadline) stops the walk. */
		if (outbuf_failed(w->ob) == -1)
			return (-1);
		if (sw_path(w, n, &d) == -1 ||
		    writer_charge(w->o, w->ob, (uint64_t)d + 1) == -1)
			return (-1);
		outbuf_puts(w->ob, first ? "[" : ",[");
		first = 0;
		if (d == 0)	/* the root's own value: its frame */
			outbuf_u64(w->ob, p->node_func[n]);
		for (k = 0; k < d; k++) {
			if (k > 0)
				outbuf_putc(w->ob, ',');
			outbuf_u64(w->ob, w->path[k]);
		}
		outbuf_putc(w->ob, ']');
	}
	outbuf_puts(w->ob, "],\"weights\":[");
	first = 1;
	for (n = 0; n < p->nnodes; n++) {
		if (self[n] == 0)
			continue;
		if (!first)
			outbuf_putc(w->ob, ',');
		outbuf_i64(w->ob, self[n]);
		first = 0;
	}
	outbuf_puts(w->ob, "]}");
	return (outbuf_failed(w->ob));
}

/* {"type":"O","frame":F,"at":T}, after a comma unless first. */
static void
sw_event(struct sw *w, int first, char type, uint32_t frame, int64_t t)
{
	outbuf_puts(w->ob, first ? "{\"type\":\"" : ",{\"type\":\"");
	outbuf_putc(w->ob, type);
	outbuf_puts(w->ob, "\",\"frame\":");
	outbuf_u64(w->ob, frame);
	outbuf_puts(w->ob, ",\"at\":");
	outbuf_i64(w->ob, t);
	outbuf_putc(w->ob, '}');
}

/*
 * Metric 0 from the sample sequence: frames close and open where one
 * sample's stack leaves the last one's, and time runs by each weight.
 */
static int
sw_evented(struct sw *w)
{
	const struct profile	*p = w->p;
	uint32_t		*cur = NULL, ncur = 0, i, n, d, k, c;
	int64_t			 t = 0, sw;
	int			 first = 1, r = -1;

	if ((cur = malloc(sizeof *cur)) == NULL)
		return (-1);
	outbuf_puts(w->ob, "{\"type\":\"evented\",\"name\":");
	if (sw_string(w->ob, p->metrics[0].name) == -1)
		goto done;
	outbuf_printf(w->ob, ",\"unit\":\"%s\",\"startValue\":0,"
	    "\"events\":[",
	    sw_unit(p->metrics[0].unit));
	for (i = 0; i <= p->nsamples; i++) {
		d = 0;
		if (outbuf_failed(w->ob) == -1)
			goto done;
		if (i < p->nsamples) {
			if ((n = p->sample_node[i]) >= p->nnodes)
				continue;
			if (sw_path(w, n, &d) == -1 ||
			    writer_charge(w->o, w->ob, (uint64_t)d + 1) == -1)
				goto done;
		}
		for (c = 0; c < d && c < ncur && cur[c] == w->path[c]; c++)
			;
		for (k = ncur; k > c; k--) {
			sw_event(w, first, 'C', cur[k - 1], t);
			first = 0;
		}
		for (k = c; k < d; k++) {
			sw_event(w, first, 'O', w->path[k], t);
			first = 0;
		}
		if (d > 0) {
			uint32_t	*nc;

			if ((nc = reallocarray(cur, d, sizeof *cur)) == NULL)
				goto done;
			cur = nc;
			memcpy(cur, w->path, d * sizeof *cur);
		}
		ncur = d;
		if (i < p->nsamples && (sw = profile_sample_weight(p, i)) > 0 &&
		    __builtin_add_overflow(t, sw, &t))
			goto done;
	}
	outbuf_printf(w->ob, "],\"endValue\":%" PRId64 "}", t);
	r = outbuf_failed(w->ob);
done:
	free(cur);
	return (r);
}

/* Write p as a speedscope file. */
int
writer_speedscope(struct outbuf *ob, const struct profile *p,
    const struct writer_options *o, char **cause)
{
	struct sw	 w;
	const char	*file, *name;
	uint32_t	 fn, m;
	int		 r = -1;

	memset(&w, 0, sizeof w);
	w.ob = ob;
	w.p = p;
	w.o = o;
	name = p->source != NULL ? p->source : "deepq";
	if ((file = strrchr(name, '/')) != NULL && file[1] != '\0')
		name = file + 1;
	outbuf_puts(ob, "{\"$schema\":\"https://www.speedscope.app/"
	    "file-format-schema.json\",\"exporter\":\"deepq " PACKAGE_VERSION
	    "\",\"name\":");
	if (sw_string(ob, name) == -1)
		goto done;
	outbuf_printf(ob, ",\"activeProfileIndex\":%d,"
	    "\"shared\":{\"frames\":[",
	    o->metric);
	for (fn = 0; fn < p->nfuncs; fn++) {
		if (writer_charge(o, ob, 1) == -1)
			goto done;
		outbuf_puts(ob, fn ? ",{\"name\":" : "{\"name\":");
		if (sw_string(ob, profile_func_name(p, fn)) == -1)
			goto done;
		file = p->func_file[fn] != 0 ? profile_string(p,
		    p->func_file[fn]) : profile_func_module(p, fn);
		if (*file != '\0') {
			outbuf_puts(ob, ",\"file\":");
			if (sw_string(ob, file) == -1)
				goto done;
		}
		if (p->func_line[fn] != 0)
			outbuf_printf(ob, ",\"line\":%" PRIu32,
			    p->func_line[fn]);
		outbuf_putc(ob, '}');
	}
	outbuf_puts(ob, "]},\"profiles\":[");
	for (m = 0; m < p->nmetrics; m++) {
		if (m > 0)
			outbuf_putc(ob, ',');
		if ((m == 0 && p->nsamples > 0 ? sw_evented(&w) :
		    sw_sampled(&w, m)) == -1)
			goto done;
	}
	outbuf_puts(ob, "]}\n");
	r = 0;
done:
	free(w.path);
	if (r == 0 && outbuf_failed(ob) == -1)
		r = -1;
	if (r == -1)
		cause_set(cause, "%s", outbuf_failed(ob) == -1 ?
		    "write error" : "out of memory");
	return (r);
}

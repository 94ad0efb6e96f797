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
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json,
 * src/lib/file-format-spec.ts in speedscope): "shared.frames" lists the
 * frames (name, file, line, col) and "profiles" holds sampled profiles
 * (stacks of frame indices, outermost first, with one weight each) and
 * evented profiles (open and close events of frames at non-decreasing
 * values), each with a unit.
 *
 * speedscope shows each profile as a view of its own; here each profile
 * is a child of the root named after it (" #N" added when a name repeats),
 * and an evented profile in time units a thread of the timeline, its
 * spans at their times; so each profile's node carries what speedscope shows for it: the sum of
 * the weights of a sampled profile; for an evented one, the span from
 * startValue to the later of endValue and the last event, the time no
 * frame is open being the profile node's self time. Sampled stacks that
 * are empty weigh on the profile node too. Time units become one "time"
 * metric in the finest unit the profiles use (in ns if a value would not
 * be whole in it), "bytes" becomes "bytes" and "none" "weight"; a file
 * with several kinds has one metric per kind. The order of samples and
 * events is kept as the sample sequence of the first metric's profiles,
 * for flame charts.
 *
 * A function is a frame's name in its file (the module): frames that
 * differ only by line or column merge, as lines of one function (the
 * line kept is one of theirs). Errors as speedscope's: a close event
 * that does not match the open frame, events going backwards, frames
 * left open, negative weights.
 *
 * The frames' lines make the costs by source line (lines.h) when any
 * frame has one: py-spy writes a frame per line, the sample's line in
 * the innermost frame and the call's in the others, as the Firefox
 * Profiler's frames have them (reader-gecko.c); the file is the
 * function's.
 */

#define SPEEDSCOPE_SCHEMA	"speedscope.app/file-format-schema.json"

enum speedscope_kind {
	SPEEDSCOPE_TIME,
	SPEEDSCOPE_BYTES,
	SPEEDSCOPE_NONE,
	SPEEDSCOPE_NKINDS
};

struct speedscope {
	struct profile_builder	*b;
	json_t			*frames;	/* borrowed */
	uint32_t		*funcs;		/* per frame, or PROFILE_NONE */
	uint32_t		*lframes;	/* per frame its line's; NULL:
						   no frame has a line */
	uint32_t		 ltop;		/* the profile's line node */
	size_t			 nframes;
	int			 metric[SPEEDSCOPE_NKINDS];
	double			 scale;		/* time values to the metric */
	uint32_t		 thread;	/* the timeline's, this profile */
	const char		*path;		/* the current profile, for errors */
	char			 err[256];
};

static int	speedscope_probe(const char *, size_t);
static struct profile *speedscope_load(struct input *,
		    const struct reader_options *, char **);
static int	speedscope_unit(const char *, enum speedscope_kind *,
		    double *);
static int	speedscope_value(struct speedscope *, json_t *, double,
		    int64_t *);
static uint32_t	speedscope_func(struct speedscope *, json_t *);
static uint32_t	speedscope_lnode(struct speedscope *, uint32_t, json_t *);
static int	speedscope_lines(struct speedscope *);
static int	speedscope_sampled(struct speedscope *, json_t *, uint32_t,
		    int, double);
static int	speedscope_evented(struct speedscope *, json_t *, uint32_t,
		    int, double);
static int	speedscope_time_scale(struct speedscope *, json_t *);
static int	speedscope_span(struct speedscope *, uint32_t, uint32_t, int,
		    int64_t, int64_t);

const struct reader reader_speedscope = {
	.name = "speedscope",
	.description = "speedscope JSON (sampled and evented profiles)",
	.probe = speedscope_probe,
	.load = speedscope_load,
};

static int
speedscope_probe(const char *buf, size_t len)
{
	if (json_doc_first(buf, len) != '{' ||
	    !json_doc_has_key(buf, len, 1, "$schema") ||
	    memmem(buf, len, SPEEDSCOPE_SCHEMA, strlen(SPEEDSCOPE_SCHEMA)) ==
	    NULL)
		return (0);
	return (100);
}

/* A unit's kind and its size in nanoseconds (time) or 1; -1 if unknown. */
static int
speedscope_unit(const char *u, enum speedscope_kind *kind, double *ns)
{
	static const struct {
		const char	*name;
		double		 ns;
	} units[] = {
		{ "nanoseconds", 1 }, { "microseconds", 1e3 },
		{ "milliseconds", 1e6 }, { "seconds", 1e9 },
	};
	size_t	 i;

	*ns = 1;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(u, units[i].name) == 0) {
			*kind = SPEEDSCOPE_TIME;
			*ns = units[i].ns;
			return (0);
		}
	}
	if (strcmp(u, "bytes") == 0)
		*kind = SPEEDSCOPE_BYTES;
	else if (strcmp(u, "none") == 0)
		*kind = SPEEDSCOPE_NONE;
	else
		return (-1);
	return (0);
}

/* A number times scale as a whole metric value; -1 with an error. */
static int
speedscope_value(struct speedscope *s, json_t *j, double scale, int64_t *v)
{
	double	 d;

	if (!json_is_number(j)) {
		snprintf(s->err, sizeof s->err, "%s: a value is not a number",
		    s->path);
		return (-1);
	}
	/* Within 2^62, so that the difference of two values fits. */
	d = json_number_value(j) * scale;
	if (!isfinite(d) || fabs(d) >= 4e18) {
		snprintf(s->err, sizeof s->err, "%s: a value out of range",
		    s->path);
		return (-1);
	}
	*v = llround(d);
	return (0);
}

/*
 * The unit of the time metric: the finest time unit of the profiles, or
 * nanoseconds when a value is not whole in it.
 */
static int
speedscope_time_scale(struct speedscope *s, json_t *profiles)
{
	enum speedscope_kind	 kind;
	json_t			*pr, *arr, *v, *ev;
	double			 ns, finest = 0, x;
	size_t			 i, k;
	const char		*unit, *names[] = { "nanoseconds", "ns",
				    "microseconds", "us", "milliseconds",
				    "ms", "seconds", "s" };
	int			 whole = 1;

	json_array_foreach(profiles, i, pr) {
		if (speedscope_unit(json_string_value(json_object_get(pr,
		    "unit")) ? json_string_value(json_object_get(pr, "unit")) :
		    "", &kind, &ns) == 0 && kind == SPEEDSCOPE_TIME &&
		    (finest == 0 || ns < finest))
			finest = ns;
	}
	if (finest == 0)
		return (0);
	json_array_foreach(profiles, i, pr) {
		unit = json_string_value(json_object_get(pr, "unit"));
		if (unit == NULL || speedscope_unit(unit, &kind, &ns) == -1 ||
		    kind != SPEEDSCOPE_TIME)
			continue;
		arr = json_object_get(pr, "weights");
		json_array_foreach(arr, k, v) {
			x = json_number_value(v) * ns / finest;
			if (x != floor(x))
				whole = 0;
		}
		arr = json_object_get(pr, "events");
		json_array_foreach(arr, k, ev) {
			x = json_number_value(json_object_get(ev, "at")) * ns /
			    finest;
			if (x != floor(x))
				whole = 0;
		}
		x = json_number_value(json_object_get(pr, "startValue")) * ns /
		    finest;
		if (x != floor(x))
			whole = 0;
		x = json_number_value(json_object_get(pr, "endValue")) * ns /
		    finest;
		if (x != floor(x))
			whole = 0;
	}
	if (!whole)
		finest = 1;
	for (k = 0; k < sizeof names / sizeof names[0]; k += 2) {
		if (speedscope_unit(names[k], &kind, &ns) == 0 && ns == finest)
			break;
	}
	s->scale = finest;
	if ((s->metric[SPEEDSCOPE_TIME] = profile_builder_metric(s->b, "time",
	    names[k + 1])) == -1)
		return (-1);
	/* Evented profiles' spans are on the timeline, in the same unit. */
	if (profile_builder_clock(s->b, names[k + 1], 1e9 / finest) == -1 ||
	    profile_builder_time_mode(s->b, s->metric[SPEEDSCOPE_TIME],
	    TIMELINE_SPAN) == -1)
		return (-1);
	return (0);
}

/* The function of frame j, interned on first use. */
static uint32_t
speedscope_func(struct speedscope *s, json_t *j)
{
	json_t		*fr, *name, *file, *line;
	json_int_t	 i, ln;
	uint32_t	 f;

	if (!json_is_integer(j) || (i = json_integer_value(j)) < 0 ||
	    (size_t)i >= s->nframes) {
		snprintf(s->err, sizeof s->err, "%s: a frame index is not one "
		    "of the %zu shared frames", s->path, s->nframes);
		return (PROFILE_NONE);
	}
	if (s->funcs[i] != PROFILE_NONE)
		return (s->funcs[i]);
	fr = json_array_get(s->frames, i);
	name = json_object_get(fr, "name");
	file = json_object_get(fr, "file");
	line = json_object_get(fr, "line");
	if (!json_is_string(name) || (file != NULL && !json_is_string(file) &&
	    !json_is_null(file))) {
		snprintf(s->err, sizeof s->err, "shared.frames[%lld]: no "
		    "string name and file", (long long)i);
		return (PROFILE_NONE);
	}
	if (!json_is_string(file))
		file = NULL;
	if ((f = profile_builder_func(s->b, json_string_value(name),
	    json_string_length(name), file ? json_string_value(file) : "",
	    file ? json_string_length(file) : 0)) == PROFILE_NONE)
		return (PROFILE_NONE);
	ln = json_is_integer(line) ? json_integer_value(line) : 0;
	if (ln <= 0 || ln >= UINT32_MAX)
		ln = 0;
	if (ln > 0)
		profile_builder_func_location(s->b, f, file ?
		    json_string_value(file) : NULL, file ?
		    json_string_length(file) : 0, (uint32_t)ln);
	if (s->lframes != NULL && (s->lframes[i] =
	    profile_builder_line_frame(s->b, f, profile_builder_func_file(s->b,
	    f), (uint32_t)ln)) == PROFILE_NONE)
		return (PROFILE_NONE);
	s->funcs[i] = f;
	return (f);
}

/*
 * The line node of frame j (speedscope_func's already) under line node
 * parent; parent itself when the profile keeps no lines.
 */
static uint32_t
speedscope_lnode(struct speedscope *s, uint32_t parent, json_t *j)
{
	if (s->lframes == NULL)
		return (parent);
	return (profile_builder_line_child(s->b, parent,
	    s->lframes[json_integer_value(j)]));
}

/* Lines are kept if a frame has one: s->lframes then, else NULL. */
static int
speedscope_lines(struct speedscope *s)
{
	json_t		*line;
	json_int_t	 ln;
	size_t		 i;

	for (i = 0; i < s->nframes; i++) {
		line = json_object_get(json_array_get(s->frames, i), "line");
		ln = json_is_integer(line) ? json_integer_value(line) : 0;
		if (ln > 0 && ln < UINT32_MAX)
			break;
	}
	if (i == s->nframes)
		return (0);
	if ((s->lframes = malloc((s->nframes + 1) * sizeof *s->lframes)) ==
	    NULL)
		return (-1);
	return (0);
}

/* A sampled profile under node top. */
static int
speedscope_sampled(struct speedscope *s, json_t *pr, uint32_t top, int m,
    double scale)
{
	json_t		*samples, *weights, *stack, *fj;
	size_t		 i, k, n;
	uint32_t	 node, lnode, f, last = PROFILE_NONE;
	int64_t		 w, run = 0;

	samples = json_object_get(pr, "samples");
	weights = json_object_get(pr, "weights");
	if (!json_is_array(samples) || !json_is_array(weights)) {
		snprintf(s->err, sizeof s->err, "%s: \"samples\" and "
		    "\"weights\" must be arrays", s->path);
		return (-1);
	}
	if ((n = json_array_size(samples)) != json_array_size(weights)) {
		snprintf(s->err, sizeof s->err, "%s: %zu samples and %zu "
		    "weights", s->path, n, json_array_size(weights));
		return (-1);
	}
	for (i = 0; i < n; i++) {
		if (speedscope_value(s, json_array_get(weights, i), scale,
		    &w) == -1)
			return (-1);
		if (w < 0) {
			snprintf(s->err, sizeof s->err, "%s: weights[%zu] is "
			    "negative", s->path, i);
			return (-1);
		}
		/* speedscope skips samples that weigh nothing. */
		if (w == 0)
			continue;
		if (!json_is_array(stack = json_array_get(samples, i))) {
			snprintf(s->err, sizeof s->err, "%s: samples[%zu] is "
			    "not an array", s->path, i);
			return (-1);
		}
		node = top;
		lnode = s->ltop;
		json_array_foreach(stack, k, fj) {
			if ((f = speedscope_func(s, fj)) == PROFILE_NONE ||
			    (node = profile_builder_child(s->b, node, f)) ==
			    PROFILE_NONE || (lnode = speedscope_lnode(s, lnode,
			    fj)) == PROFILE_NONE)
				return (-1);
		}
		if (profile_builder_add(s->b, node, m, w) == -1 ||
		    (s->lframes != NULL && profile_builder_line_add(s->b,
		    lnode, m, w) == -1))
			return (-1);
		if (m != 0)
			continue;
		if (node != last && run > 0 &&
		    profile_builder_sample(s->b, last, run) == -1)
			return (-1);
		run = node == last ? run + w : w;
		last = node;
	}
	if (run > 0 && profile_builder_sample(s->b, last, run) == -1)
		return (-1);
	return (0);
}

/*
 * Give node (and line node lnode) a span of d from at, and record it in
 * the sequence for metric 0 and, for time, on the timeline.
 */
static int
speedscope_span(struct speedscope *s, uint32_t node, uint32_t lnode, int m,
    int64_t at, int64_t d)
{
	if (d == 0)
		return (0);
	if (profile_builder_add(s->b, node, m, d) == -1 ||
	    (s->lframes != NULL && profile_builder_line_add(s->b, lnode, m,
	    d) == -1) ||
	    (m == 0 && profile_builder_sample(s->b, node, d) == -1) ||
	    (m == s->metric[SPEEDSCOPE_TIME] && profile_builder_timed(s->b,
	    node, s->thread, at, d, 0) == -1))
		return (-1);
	return (0);
}

/* An evented profile under node top. */
static int
speedscope_evented(struct speedscope *s, json_t *pr, uint32_t top, int m,
    double scale)
{
	json_t		*events, *ev, *type, *fj;
	uint32_t	*nodes = NULL, *lnodes = NULL, f, cur, lcur;
	json_int_t	*fidx = NULL;
	size_t		 i, n, depth = 0;
	int64_t		 start, end, at, last;
	const char	*t;
	int		 rv = -1;

	events = json_object_get(pr, "events");
	if (!json_is_array(events)) {
		snprintf(s->err, sizeof s->err, "%s: \"events\" must be an "
		    "array", s->path);
		return (-1);
	}
	if (speedscope_value(s, json_object_get(pr, "startValue"), scale,
	    &start) == -1 || speedscope_value(s, json_object_get(pr,
	    "endValue"), scale, &end) == -1)
		return (-1);
	n = json_array_size(events);
	/* At most one open frame per event. */
	if ((nodes = calloc(n + 1, sizeof *nodes)) == NULL ||
	    (lnodes = calloc(n + 1, sizeof *lnodes)) == NULL ||
	    (fidx = calloc(n + 1, sizeof *fidx)) == NULL) {
		snprintf(s->err, sizeof s->err, "out of memory");
		goto out;
	}
	last = start;
	json_array_foreach(events, i, ev) {
		type = json_object_get(ev, "type");
		fj = json_object_get(ev, "frame");
		t = json_string_value(type);
		if (t == NULL || (strcmp(t, "O") != 0 && strcmp(t, "C") != 0) ||
		    !json_is_integer(fj)) {
			snprintf(s->err, sizeof s->err, "%s: events[%zu] is "
			    "not an O or C event with a frame", s->path, i);
			goto out;
		}
		if (speedscope_value(s, json_object_get(ev, "at"), scale,
		    &at) == -1)
			goto out;
		if (at < last) {
			snprintf(s->err, sizeof s->err, "%s: events[%zu] goes "
			    "back in time", s->path, i);
			goto out;
		}
		cur = depth > 0 ? nodes[depth - 1] : top;
		lcur = depth > 0 ? lnodes[depth - 1] : s->ltop;
		if (speedscope_span(s, cur, lcur, m, last, at - last) == -1)
			goto out;
		last = at;
		if (*t == 'O') {
			if ((f = speedscope_func(s, fj)) == PROFILE_NONE ||
			    (nodes[depth] = profile_builder_child(s->b, cur,
			    f)) == PROFILE_NONE || (lnodes[depth] =
			    speedscope_lnode(s, lcur, fj)) == PROFILE_NONE)
				goto out;
			fidx[depth++] = json_integer_value(fj);
		} else {
			if (depth == 0 || fidx[depth - 1] !=
			    json_integer_value(fj)) {
				snprintf(s->err, sizeof s->err, "%s: events[%zu] "
				    "closes frame %lld, not the open one", s->path,
				    i, (long long)json_integer_value(fj));
				goto out;
			}
			depth--;
		}
	}
	if (depth > 0) {
		snprintf(s->err, sizeof s->err, "%s: %zu frames still open at "
		    "the end", s->path, depth);
		goto out;
	}
	if (end > last && speedscope_span(s, top, s->ltop, m, last,
	    end - last) == -1)
		goto out;
	rv = 0;
out:
	free(nodes);
	free(lnodes);
	free(fidx);
	return (rv);
}

static struct profile *
speedscope_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct speedscope	 s;
	struct profile		*p = NULL;
	json_t			*doc, *profiles, *pr, *name;
	enum speedscope_kind	 kind;
	const char		*unit, *type;
	char			 label[256], tname[256];
	double			 ns;
	size_t			 i;
	uint32_t		 f, top, before;
	int			 m;

	memset(&s, 0, sizeof s);
	if ((doc = json_doc_load(in, "speedscope profile", cause)) == NULL)
		return (NULL);
	s.frames = json_object_get(json_object_get(doc, "shared"), "frames");
	profiles = json_object_get(doc, "profiles");
	if (!json_is_object(doc) || !json_is_array(s.frames) ||
	    !json_is_array(profiles)) {
		cause_set(cause, "%s: not a speedscope profile (an object with "
		    "\"shared\": {\"frames\": [...]} and \"profiles\": [...])",
		    in->path);
		goto out;
	}
	s.nframes = json_array_size(s.frames);
	if ((s.funcs = malloc((s.nframes + 1) * sizeof *s.funcs)) == NULL ||
	    (s.b = profile_builder_create("speedscope")) == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	memset(s.funcs, 0xff, (s.nframes + 1) * sizeof *s.funcs);
	if (speedscope_lines(&s) == -1) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(s.b, opts->max_nodes);
	s.metric[SPEEDSCOPE_TIME] = s.metric[SPEEDSCOPE_BYTES] =
	    s.metric[SPEEDSCOPE_NONE] = -1;
	s.scale = 1;
	s.path = "profiles";
	if (speedscope_time_scale(&s, profiles) == -1)
		goto builderr;

	json_array_foreach(profiles, i, pr) {
		name = json_object_get(pr, "name");
		unit = json_string_value(json_object_get(pr, "unit"));
		type = json_string_value(json_object_get(pr, "type"));
		snprintf(label, sizeof label, "profiles[%zu]", i);
		s.path = label;
		if (!json_is_object(pr) || type == NULL || unit == NULL ||
		    speedscope_unit(unit, &kind, &ns) == -1) {
			snprintf(s.err, sizeof s.err, "%s: no type, or no "
			    "known unit", label);
			goto builderr;
		}
		if (s.metric[kind] == -1 && (s.metric[kind] =
		    profile_builder_metric(s.b, kind == SPEEDSCOPE_BYTES ?
		    "bytes" : "weight", kind == SPEEDSCOPE_BYTES ? "bytes" :
		    "count")) == -1)
			goto builderr;
		m = s.metric[kind];
		/* The profile's node, named apart from its namesakes. */
		if (json_is_string(name))
			snprintf(label, sizeof label, "%s",
			    json_string_value(name));
		else
			snprintf(label, sizeof label, "profile %zu", i + 1);
		before = profile_builder_nnodes(s.b);
		if ((f = profile_builder_func(s.b, label, strlen(label), "",
		    0)) == PROFILE_NONE || (top = profile_builder_child(s.b,
		    PROFILE_ROOT, f)) == PROFILE_NONE)
			goto builderr;
		if (profile_builder_nnodes(s.b) == before) {
			snprintf(label, sizeof label, "%.200s #%zu",
			    json_is_string(name) ? json_string_value(name) :
			    "profile", i + 1);
			if ((f = profile_builder_func(s.b, label,
			    strlen(label), "", 0)) == PROFILE_NONE ||
			    (top = profile_builder_child(s.b, PROFILE_ROOT,
			    f)) == PROFILE_NONE)
				goto builderr;
		}
		snprintf(tname, sizeof tname, "%s", label);
		snprintf(label, sizeof label, "profiles[%zu]", i);
		/* The profile's node heads its stacks' lines too. */
		if (s.lframes != NULL && ((s.ltop = profile_builder_line_frame(
		    s.b, f, 0, 0)) == PROFILE_NONE || (s.ltop =
		    profile_builder_line_child(s.b, PROFILE_ROOT, s.ltop)) ==
		    PROFILE_NONE))
			goto builderr;
		if (strcmp(type, "sampled") == 0) {
			if (speedscope_sampled(&s, pr, top, m, kind ==
			    SPEEDSCOPE_TIME ? ns / s.scale : 1) == -1)
				goto builderr;
		} else if (strcmp(type, "evented") == 0) {
			/* Each evented profile is a thread of its own. */
			if (kind == SPEEDSCOPE_TIME && (s.thread =
			    profile_builder_thread(s.b, tname, strlen(tname),
			    "", 0, -1, -1)) == PROFILE_NONE)
				goto builderr;
			if (speedscope_evented(&s, pr, top, m, kind ==
			    SPEEDSCOPE_TIME ? ns / s.scale : 1) == -1)
				goto builderr;
		} else {
			snprintf(s.err, sizeof s.err, "%s: unknown type \"%s\"",
			    label, type);
			goto builderr;
		}
	}
	if (profile_builder_nnodes(s.b) <= 1) {
		cause_set(cause, "%s: no profiles", in->path);
		goto out;
	}
	p = profile_builder_finish(s.b, cause);
	s.b = NULL;
	goto out;

builderr:
	cause_set(cause, "%s: %s", in->path, s.err[0] != '\0' ? s.err :
	    profile_builder_error(s.b));
out:
	profile_builder_free(s.b);
	free(s.funcs);
	free(s.lframes);
	json_decref(doc);
	return (p);
}

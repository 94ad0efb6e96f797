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
#include "hash.h"
#include "idmap.h"
#include "input.h"
#include "json-doc.h"
#include "json-stream.h"
#include "packed.h"
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
 * spans at their times; so each profile's node carries what speedscope
 * shows for it: the sum of the weights of a sampled profile; for an
 * evented one, the span from startValue to the later of endValue and the
 * last event, the time no frame is open being the profile node's self
 * time. Sampled stacks that are empty weigh on the profile node too. Time units become one "time"
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
 *
 * The file is read as a stream (json-stream.h). The time unit needs
 * every value of every profile, and the shared frames may come after
 * the profiles, so the profiles are kept packed until the end: each
 * distinct stack once (its frame indices), each sample as its stack's
 * number and its weight, each event as its type, frame and time
 * (varints, a real's 8 bytes where a value is not whole); the frames
 * as their names and files. Then the profile is built from those in the
 * order the document-tree reader built it.
 */

#define SPEEDSCOPE_SCHEMA	"speedscope.app/file-format-schema.json"
#define SPEEDSCOPE_BADFRAME	UINT32_MAX	/* no frame index */
#define SPEEDSCOPE_NOSTACK	UINT32_MAX	/* a sample that is no array */
#define SPEEDSCOPE_BATCH	32		/* numbers read at once */

enum speedscope_kind {
	SPEEDSCOPE_TIME,
	SPEEDSCOPE_BYTES,
	SPEEDSCOPE_NONE,
	SPEEDSCOPE_NKINDS
};

/* A shared frame as read. */
struct speedscope_frame {
	size_t		 name, file;	/* in the text, or SIZE_MAX */
	uint32_t	 namelen, filelen;
	int64_t		 line;		/* 0 unless an integer */
	int		 object;	/* a frame object with a string name */
	int		 badfile;	/* a "file" that is no string or null */
};

/* Event types of an evented profile, packed with the frame index. */
#define SPEEDSCOPE_OPEN		0
#define SPEEDSCOPE_CLOSE	1
#define SPEEDSCOPE_BADEV	2	/* no O or C with an integer frame */

/* A profile as read. */
struct speedscope_prof {
	int			 object;
	size_t			 name, unit, type;	/* text, or SIZE_MAX */
	int			 has_start, has_end;	/* numbers */
	double			 start, end;
	struct packed_ints	 samples;	/* stack numbers */
	struct packed_ints	 weights;	/* numbers */
	struct packed_ints	 events;	/* type, frame, at (number) */
	enum packed_state	 events_state;
};

struct speedscope {
	struct profile_builder	*b;
	uint32_t		 thread;	/* the timeline's, this profile */
	struct packed_text	 text;
	/* shared.frames */
	enum packed_state	 frames_state;
	struct speedscope_frame	*frames;
	size_t			 nframes, capframes;
	uint32_t		*funcs;		/* per frame, or PROFILE_NONE */
	uint32_t		*lframes;	/* per frame its line's; NULL:
						   no frame has a line */
	uint32_t		 ltop;		/* the profile's line node */
	/* The distinct stacks: their frame indices, found by hash. */
	uint32_t		*stackframes;
	size_t			 nstackframes, capstackframes;
	size_t			*stackoff;	/* [nstacks + 1] */
	size_t			 nstacks, capstacks;
	struct idmap		 bystack;
	uint32_t		*stack;		/* the sample being read */
	size_t			 depth, capstack;
	uint32_t		*stacknext;	/* the next of the same hash */
	size_t			 capnext;
	uint32_t		*leaf;		/* per stack: node, per profile */
	uint32_t		*lleaf;		/* per stack: line node, the same */
	/* profiles */
	enum packed_state	 profiles_state;
	struct speedscope_prof	*profs;
	size_t			 nprofs, capprofs;
	int			 metric[SPEEDSCOPE_NKINDS];
	double			 scale;		/* time values to the metric */
	const char		*path;		/* the current profile, for errors */
	char			 err[256];
};

static int	speedscope_probe(const char *, size_t);
static struct profile *speedscope_load(struct input *,
		    const struct reader_options *, char **);

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

/* A text member, or NULL. */
static const char *
speedscope_str(const struct speedscope *s, size_t off)
{
	return (off == SIZE_MAX ? NULL : packed_text_get(&s->text, off));
}

/* shared.frames: each frame's name, file and line. */
static int
speedscope_read_frames(struct speedscope *s, struct json_stream *js)
{
	struct speedscope_frame	*fr;
	struct json_token	 t;
	size_t			 off;

	s->nframes = 0;
	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR || s->nframes >= UINT32_MAX - 1 ||
		    packed_grow(&s->frames, &s->capframes, s->nframes + 1,
		    sizeof *s->frames) == -1)
			return (-1);
		fr = &s->frames[s->nframes++];
		memset(fr, 0, sizeof *fr);
		fr->name = fr->file = SIZE_MAX;
		if (t.type != JSON_TOK_OBJECT) {
			if (json_stream_skip(js, &t) == -1)
				return (-1);
			continue;
		}
		fr->object = 1;
		while (json_stream_next(js, &t) == JSON_TOK_KEY) {
			int	 name = JSON_TOK_IS(&t, "name");
			int	 file = JSON_TOK_IS(&t, "file");
			int	 line = JSON_TOK_IS(&t, "line");

			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			if (name || file) {
				if (packed_text_token(&s->text, &t, &off) == -1)
					return (-1);
				if (name) {
					fr->name = off;
					fr->namelen = (uint32_t)t.len;
				} else {
					fr->file = off;
					fr->filelen = (uint32_t)t.len;
					fr->badfile = t.type != JSON_TOK_STRING &&
					    t.type != JSON_TOK_NULL;
				}
			} else if (line)
				fr->line = t.type == JSON_TOK_INTEGER ? t.i : 0;
			if (json_stream_skip(js, &t) == -1)
				return (-1);
		}
		if (t.type != JSON_TOK_OBJECT_END)
			return (-1);
	}
}

/* The number of the stack s->stack[0..depth), added if new. */
static uint32_t
speedscope_stack(struct speedscope *s)
{
	size_t		 n = s->depth, off;
	uint64_t	 h;
	uint32_t	 id, k;

	h = hash_bytes(s->stack, n * sizeof *s->stack);
	for (id = idmap_get(&s->bystack, h); id != IDMAP_NONE;
	    id = s->stacknext[id]) {
		off = s->stackoff[id];
		if (s->stackoff[id + 1] - off == n && (n == 0 ||
		    memcmp(s->stackframes + off, s->stack, n *
		    sizeof *s->stack) == 0))
			return (id);
	}
	/* New: first of its hash's chain (a collision is a chain). */
	if (s->nstacks >= UINT32_MAX - 2 ||
	    packed_grow(&s->stackoff, &s->capstacks, s->nstacks + 2,
	    sizeof *s->stackoff) == -1 ||
	    packed_grow(&s->stacknext, &s->capnext, s->nstacks + 1,
	    sizeof *s->stacknext) == -1 ||
	    packed_grow(&s->stackframes, &s->capstackframes,
	    s->nstackframes + n, sizeof *s->stackframes) == -1)
		return (PROFILE_NONE);
	k = (uint32_t)s->nstacks++;
	if (s->nstacks == 1)
		s->stackoff[0] = 0;
	if (n > 0)
		memcpy(s->stackframes + s->nstackframes, s->stack, n *
		    sizeof *s->stack);
	s->nstackframes += n;
	s->stackoff[k + 1] = s->nstackframes;
	/* The map keeps the chain's head: the new one. */
	s->stacknext[k] = idmap_get(&s->bystack, h);
	if (idmap_put(&s->bystack, h, k) == -1)
		return (PROFILE_NONE);
	return (k);
}

/* A stack's element as a frame's index, or SPEEDSCOPE_BADFRAME. */
static inline uint32_t
speedscope_frame_index(const struct json_token *t)
{
	return (t->type == JSON_TOK_INTEGER && t->i >= 0 &&
	    t->i < SPEEDSCOPE_BADFRAME ? (uint32_t)t->i : SPEEDSCOPE_BADFRAME);
}

/* A sampled profile's "samples": each stack's number. */
static int
speedscope_read_samples(struct speedscope *s, struct json_stream *js,
    struct packed_ints *pi)
{
	struct json_token	 t, num[SPEEDSCOPE_BATCH];
	uint32_t		 id;
	size_t			 i, n;

	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		if (t.type != JSON_TOK_ARRAY) {
			if (json_stream_skip(js, &t) == -1 ||
			    packed_ints_put(pi, SPEEDSCOPE_NOSTACK) == -1)
				return (-1);
			continue;
		}
		s->depth = 0;
		for (;;) {
			/* The frames' numbers a batch at a time. */
			if ((n = json_stream_numbers(js, num,
			    SPEEDSCOPE_BATCH)) > 0) {
				if (packed_grow(&s->stack, &s->capstack,
				    s->depth + n, sizeof *s->stack) == -1)
					return (-1);
				for (i = 0; i < n; i++)
					s->stack[s->depth++] =
					    speedscope_frame_index(&num[i]);
				continue;
			}
			if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
				break;
			if (t.type == JSON_TOK_ERROR ||
			    packed_grow(&s->stack, &s->capstack, s->depth + 1,
			    sizeof *s->stack) == -1)
				return (-1);
			s->stack[s->depth++] = speedscope_frame_index(&t);
			if (json_stream_skip(js, &t) == -1)
				return (-1);
		}
		if ((id = speedscope_stack(s)) == PROFILE_NONE ||
		    packed_ints_put(pi, id) == -1)
			return (-1);
	}
}

/* One event object's type, frame and time (*at a number, or not). */
static int
speedscope_read_event(struct json_stream *js, int *type, int64_t *f,
    struct json_token *at)
{
	struct json_token	 t;
	int			 k, frame = 0;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		k = JSON_TOK_IS(&t, "type") ? 1 : JSON_TOK_IS(&t, "frame") ? 2 :
		    JSON_TOK_IS(&t, "at") ? 3 : 0;
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (k == 1)
			*type = t.type == JSON_TOK_STRING && t.len == 1 &&
			    (t.s[0] == 'O' || t.s[0] == 'C') ? (t.s[0] == 'C') :
			    SPEEDSCOPE_BADEV;
		else if (k == 2) {
			frame = t.type == JSON_TOK_INTEGER;
			*f = frame ? t.i : 0;
		} else if (k == 3)
			*at = t;
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	if (!frame)
		*type = SPEEDSCOPE_BADEV;
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* An evented profile's "events": type, frame and time of each. */
static int
speedscope_read_events(struct json_stream *js, struct packed_ints *pi)
{
	struct json_token	 t, at;
	int			 type;
	int64_t			 f;

	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		type = SPEEDSCOPE_BADEV;
		f = 0;
		at.type = JSON_TOK_NULL;
		if (t.type != JSON_TOK_OBJECT) {
			if (json_stream_skip(js, &t) == -1)
				return (-1);
		} else if (speedscope_read_event(js, &type, &f, &at) == -1)
			return (-1);
		if (packed_ints_put(pi, type) == -1 ||
		    packed_ints_put(pi, f) == -1 || packed_nums_token(pi, &at) == -1)
			return (-1);
	}
}

/* One element of "profiles" (t its first token), kept packed. */
static int
speedscope_read_prof(struct speedscope *s, struct json_stream *js,
    const struct json_token *first)
{
	struct speedscope_prof	*pr;
	struct packed_ints	*pi;
	struct json_token	 t;
	size_t			 off;
	int			 k;

	if (packed_grow(&s->profs, &s->capprofs, s->nprofs + 1,
	    sizeof *s->profs) == -1)
		return (-1);
	pr = &s->profs[s->nprofs++];
	memset(pr, 0, sizeof *pr);
	pr->name = pr->unit = pr->type = SIZE_MAX;
	packed_ints_init(&pr->samples);
	packed_ints_init(&pr->weights);
	packed_ints_init(&pr->events);
	if (first->type != JSON_TOK_OBJECT)
		return (json_stream_skip(js, first));
	pr->object = 1;
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		k = JSON_TOK_IS(&t, "name") ? 1 : JSON_TOK_IS(&t, "unit") ? 2 :
		    JSON_TOK_IS(&t, "type") ? 3 : JSON_TOK_IS(&t, "startValue") ?
		    4 : JSON_TOK_IS(&t, "endValue") ? 5 : JSON_TOK_IS(&t,
		    "samples") ? 6 : JSON_TOK_IS(&t, "weights") ? 7 :
		    JSON_TOK_IS(&t, "events") ? 8 : 0;
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (k >= 1 && k <= 3) {
			if (packed_text_token(&s->text, &t, &off) == -1)
				return (-1);
			*(k == 1 ? &pr->name : k == 2 ? &pr->unit :
			    &pr->type) = off;
		} else if (k == 4 || k == 5) {
			*(k == 4 ? &pr->has_start : &pr->has_end) =
			    t.type == JSON_TOK_INTEGER || t.type == JSON_TOK_REAL;
			*(k == 4 ? &pr->start : &pr->end) = t.d;
		} else if (k >= 6) {
			/* Given twice, the last counts. */
			pi = k == 6 ? &pr->samples : k == 7 ? &pr->weights :
			    &pr->events;
			packed_ints_free(pi);
			if (t.type != JSON_TOK_ARRAY) {
				pi->state = PACKED_OTHER;
			} else {
				pi->state = PACKED_ARRAY;
				if ((k == 6 && speedscope_read_samples(s, js,
				    pi) == -1) || (k == 8 &&
				    speedscope_read_events(js, pi) == -1))
					return (-1);
				if (k == 7 && packed_nums_read(pi, js) == -1)
					return (-1);
				continue;
			}
		}
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* "shared": its "frames" (the last, if given twice). */
static int
speedscope_read_shared(struct speedscope *s, struct json_stream *js)
{
	struct json_token	 t;
	int			 r;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (!JSON_TOK_IS(&t, "frames")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
			    json_stream_skip(js, &t) == -1)
				return (-1);
			continue;
		}
		s->nframes = 0;
		if ((r = packed_array_open(js, &t, &s->frames_state)) == -1 ||
		    (r == 1 && speedscope_read_frames(s, js) == -1))
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* Free the profiles kept (all, or those of a "profiles" given before). */
static void
speedscope_clear_profs(struct speedscope *s)
{
	size_t	 i;

	for (i = 0; i < s->nprofs; i++) {
		packed_ints_free(&s->profs[i].samples);
		packed_ints_free(&s->profs[i].weights);
		packed_ints_free(&s->profs[i].events);
	}
	s->nprofs = 0;
}

/* The document: 1 if it is an object, 0 if not, -1 on an error. */
static int
speedscope_read(struct speedscope *s, struct json_stream *js)
{
	struct json_token	 t;
	int			 object, r;

	if (json_stream_next(js, &t) == JSON_TOK_ERROR)
		return (-1);
	object = t.type == JSON_TOK_OBJECT;
	if (!object && json_stream_skip(js, &t) == -1)
		return (-1);
	while (object && json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (JSON_TOK_IS(&t, "shared")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			s->frames_state = PACKED_ABSENT;
			s->nframes = 0;
			if (t.type != JSON_TOK_OBJECT) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (speedscope_read_shared(s, js) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "profiles")) {
			speedscope_clear_profs(s);
			if ((r = packed_array_open(js, &t,
			    &s->profiles_state)) == -1)
				return (-1);
			if (r == 0)
				continue;
			while (json_stream_next(js, &t) != JSON_TOK_ARRAY_END) {
				if (t.type == JSON_TOK_ERROR ||
				    speedscope_read_prof(s, js, &t) == -1)
					return (-1);
			}
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	if (object && t.type != JSON_TOK_OBJECT_END)
		return (-1);
	if (json_stream_next(js, &t) != JSON_TOK_END)
		return (-1);
	return (object);
}

/* A number (kind as packed_cursor_num) times scale as a metric value. */
static int
speedscope_value(struct speedscope *s, int kind, double x, double scale,
    int64_t *v)
{
	double	 d;

	if (kind != PACKED_NUM_INT && kind != PACKED_NUM_REAL) {
		snprintf(s->err, sizeof s->err, "%s: a value is not a number",
		    s->path);
		return (-1);
	}
	/* Within 2^62, so that the difference of two values fits. */
	d = x * scale;
	if (!isfinite(d) || fabs(d) >= 4e18) {
		snprintf(s->err, sizeof s->err, "%s: a value out of range",
		    s->path);
		return (-1);
	}
	*v = llround(d);
	return (0);
}

/* Whether x, a value in units of ns, is not whole in units of finest. */
static int
speedscope_broken(double x, double ns, double finest)
{
	x = x * ns / finest;
	return (x != floor(x));
}

/*
 * The unit of the time metric: the finest time unit of the profiles, or
 * nanoseconds when a value is not whole in it.
 */
static int
speedscope_time_scale(struct speedscope *s)
{
	const struct speedscope_prof	*pr;
	enum speedscope_kind	 kind;
	struct packed_cursor	 c;
	double			 ns, finest = 0, x;
	int64_t			 iv;
	size_t			 i, k;
	const char		*unit, *names[] = { "nanoseconds", "ns",
				    "microseconds", "us", "milliseconds",
				    "ms", "seconds", "s" };
	int			 whole = 1;

	for (i = 0; i < s->nprofs; i++) {
		unit = speedscope_str(s, s->profs[i].unit);
		if (speedscope_unit(unit ? unit : "", &kind, &ns) == 0 &&
		    kind == SPEEDSCOPE_TIME && (finest == 0 || ns < finest))
			finest = ns;
	}
	if (finest == 0)
		return (0);
	for (i = 0; i < s->nprofs; i++) {
		pr = &s->profs[i];
		unit = speedscope_str(s, pr->unit);
		if (unit == NULL || speedscope_unit(unit, &kind, &ns) == -1 ||
		    kind != SPEEDSCOPE_TIME)
			continue;
		if (pr->weights.state == PACKED_ARRAY) {
			packed_cursor_init(&c, &pr->weights);
			for (k = 0; k < pr->weights.n; k++) {
				(void)packed_cursor_num(&c, &x, &iv);
				whole &= !speedscope_broken(x, ns, finest);
			}
		}
		if (pr->events.state == PACKED_ARRAY) {
			packed_cursor_init(&c, &pr->events);
			for (k = 0; k < pr->events.n; k += 3) {
				(void)packed_cursor_next(&c);
				(void)packed_cursor_next(&c);
				(void)packed_cursor_num(&c, &x, &iv);
				whole &= !speedscope_broken(x, ns, finest);
			}
		}
		whole &= !speedscope_broken(pr->has_start ? pr->start : 0, ns,
		    finest);
		whole &= !speedscope_broken(pr->has_end ? pr->end : 0, ns,
		    finest);
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

/* The function of frame i, interned on first use. */
static uint32_t
speedscope_func(struct speedscope *s, uint32_t i)
{
	const struct speedscope_frame	*fr;
	const char			*file;
	uint32_t			 f, ln;

	if (i == SPEEDSCOPE_BADFRAME || i >= s->nframes) {
		snprintf(s->err, sizeof s->err, "%s: a frame index is not one "
		    "of the %zu shared frames", s->path, s->nframes);
		return (PROFILE_NONE);
	}
	if (s->funcs[i] != PROFILE_NONE)
		return (s->funcs[i]);
	fr = &s->frames[i];
	if (fr->name == SIZE_MAX || fr->badfile) {
		snprintf(s->err, sizeof s->err, "shared.frames[%lld]: no "
		    "string name and file", (long long)i);
		return (PROFILE_NONE);
	}
	file = speedscope_str(s, fr->file);
	if ((f = profile_builder_func(s->b, speedscope_str(s, fr->name),
	    fr->namelen, file ? file : "", file ? fr->filelen : 0)) ==
	    PROFILE_NONE)
		return (PROFILE_NONE);
	ln = fr->line > 0 && fr->line < UINT32_MAX ? (uint32_t)fr->line : 0;
	if (ln > 0)
		profile_builder_func_location(s->b, f, file, file ?
		    fr->filelen : 0, ln);
	if (s->lframes != NULL && (s->lframes[i] =
	    profile_builder_line_frame(s->b, f, profile_builder_func_file(s->b,
	    f), ln)) == PROFILE_NONE)
		return (PROFILE_NONE);
	s->funcs[i] = f;
	return (f);
}

/*
 * The line node of frame i (speedscope_func's already) under line node
 * parent; parent itself when the profile keeps no lines.
 */
static uint32_t
speedscope_lnode(struct speedscope *s, uint32_t parent, uint32_t i)
{
	if (s->lframes == NULL)
		return (parent);
	return (profile_builder_line_child(s->b, parent, s->lframes[i]));
}

/* Lines are kept if a frame has one: s->lframes then, else NULL. */
static int
speedscope_lines(struct speedscope *s)
{
	size_t	 i;

	for (i = 0; i < s->nframes; i++) {
		if (s->frames[i].line > 0 && s->frames[i].line < UINT32_MAX)
			break;
	}
	if (i == s->nframes)
		return (0);
	if ((s->lframes = malloc((s->nframes + 1) * sizeof *s->lframes)) ==
	    NULL)
		return (-1);
	return (0);
}

/*
 * The node of stack id under top, and in *lnode its line node under
 * s->ltop: walked once, then remembered.
 */
static uint32_t
speedscope_walk(struct speedscope *s, uint32_t id, uint32_t top,
    uint32_t *lnode)
{
	uint32_t	 node = top, lnd = s->ltop, f;
	size_t		 k;

	if (s->leaf[id] != PROFILE_NONE) {
		*lnode = s->lleaf[id];
		return (s->leaf[id]);
	}
	for (k = s->stackoff[id]; k < s->stackoff[id + 1]; k++) {
		if ((f = speedscope_func(s, s->stackframes[k])) ==
		    PROFILE_NONE || (node = profile_builder_child(s->b, node,
		    f)) == PROFILE_NONE || (lnd = speedscope_lnode(s, lnd,
		    s->stackframes[k])) == PROFILE_NONE)
			return (PROFILE_NONE);
	}
	s->leaf[id] = node;
	*lnode = s->lleaf[id] = lnd;
	return (node);
}

/* A sampled profile under node top. */
static int
speedscope_sampled(struct speedscope *s, const struct speedscope_prof *pr,
    uint32_t top, int m, double scale)
{
	struct packed_cursor	 sc, wc;
	size_t			 i, n;
	uint32_t		 node, lnode, last = PROFILE_NONE, id;
	int64_t			 w, run = 0, iv;
	double			 x;
	int			 kind;

	if (pr->samples.state != PACKED_ARRAY ||
	    pr->weights.state != PACKED_ARRAY) {
		snprintf(s->err, sizeof s->err, "%s: \"samples\" and "
		    "\"weights\" must be arrays", s->path);
		return (-1);
	}
	if ((n = pr->samples.n) != pr->weights.n) {
		snprintf(s->err, sizeof s->err, "%s: %zu samples and %zu "
		    "weights", s->path, n, pr->weights.n);
		return (-1);
	}
	/* Each stack's node under this profile's. */
	memset(s->leaf, 0xff, (s->nstacks + 1) * sizeof *s->leaf);
	packed_cursor_init(&sc, &pr->samples);
	packed_cursor_init(&wc, &pr->weights);
	for (i = 0; i < n; i++) {
		kind = packed_cursor_num(&wc, &x, &iv);
		id = (uint32_t)packed_cursor_next(&sc);
		if (speedscope_value(s, kind, x, scale, &w) == -1)
			return (-1);
		if (w < 0) {
			snprintf(s->err, sizeof s->err, "%s: weights[%zu] is "
			    "negative", s->path, i);
			return (-1);
		}
		/* speedscope skips samples that weigh nothing. */
		if (w == 0)
			continue;
		if (id == SPEEDSCOPE_NOSTACK) {
			snprintf(s->err, sizeof s->err, "%s: samples[%zu] is "
			    "not an array", s->path, i);
			return (-1);
		}
		if ((node = speedscope_walk(s, id, top, &lnode)) ==
		    PROFILE_NONE)
			return (-1);
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
speedscope_evented(struct speedscope *s, const struct speedscope_prof *pr,
    uint32_t top, int m, double scale)
{
	struct packed_cursor	 c;
	uint32_t		*nodes = NULL, *lnodes = NULL, f, cur, lcur;
	int64_t			*fidx = NULL, start, end, at, last, fr, iv;
	size_t			 i, n, depth = 0, capnodes = 0, capfidx = 0;
	size_t			 caplnodes = 0;
	double			 x;
	int			 type, kind, rv = -1;

	if (pr->events.state != PACKED_ARRAY) {
		snprintf(s->err, sizeof s->err, "%s: \"events\" must be an "
		    "array", s->path);
		return (-1);
	}
	if (speedscope_value(s, pr->has_start ? PACKED_NUM_REAL :
	    PACKED_NUM_OTHER, pr->start, scale, &start) == -1 ||
	    speedscope_value(s, pr->has_end ? PACKED_NUM_REAL :
	    PACKED_NUM_OTHER, pr->end, scale, &end) == -1)
		return (-1);
	n = pr->events.n / 3;
	last = start;
	packed_cursor_init(&c, &pr->events);
	for (i = 0; i < n; i++) {
		type = (int)packed_cursor_next(&c);
		fr = packed_cursor_next(&c);
		kind = packed_cursor_num(&c, &x, &iv);
		if (type == SPEEDSCOPE_BADEV) {
			snprintf(s->err, sizeof s->err, "%s: events[%zu] is "
			    "not an O or C event with a frame", s->path, i);
			goto out;
		}
		if (speedscope_value(s, kind, x, scale, &at) == -1)
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
		if (type == SPEEDSCOPE_OPEN) {
			if (packed_grow(&nodes, &capnodes, depth + 1,
			    sizeof *nodes) == -1 || packed_grow(&lnodes,
			    &caplnodes, depth + 1, sizeof *lnodes) == -1 ||
			    packed_grow(&fidx, &capfidx, depth + 1,
			    sizeof *fidx) == -1) {
				snprintf(s->err, sizeof s->err, "out of memory");
				goto out;
			}
			if ((f = speedscope_func(s, fr >= 0 && fr <
			    SPEEDSCOPE_BADFRAME ? (uint32_t)fr :
			    SPEEDSCOPE_BADFRAME)) == PROFILE_NONE ||
			    (nodes[depth] = profile_builder_child(s->b, cur,
			    f)) == PROFILE_NONE || (lnodes[depth] =
			    speedscope_lnode(s, lcur, (uint32_t)fr)) ==
			    PROFILE_NONE)
				goto out;
			fidx[depth++] = fr;
		} else {
			if (depth == 0 || fidx[depth - 1] != fr) {
				snprintf(s->err, sizeof s->err, "%s: events[%zu] "
				    "closes frame %lld, not the open one", s->path,
				    i, (long long)fr);
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
	if (end > last && speedscope_span(s, top, s->ltop, m, last, end -
	    last) == -1)
		goto out;
	rv = 0;
out:
	free(nodes);
	free(lnodes);
	free(fidx);
	return (rv);
}

/*
 * Profile i's node, named apart from its namesakes; label gets its
 * name (256 bytes), *fp its function.
 */
static uint32_t
speedscope_top(struct speedscope *s, const struct speedscope_prof *pr,
    size_t i, char *label, uint32_t *fp)
{
	const char	*name = speedscope_str(s, pr->name);
	uint32_t	 f, top, before;

	if (name != NULL)
		snprintf(label, 256, "%s", name);
	else
		snprintf(label, 256, "profile %zu", i + 1);
	before = profile_builder_nnodes(s->b);
	if ((f = profile_builder_func(s->b, label, strlen(label), "", 0)) ==
	    PROFILE_NONE || (top = profile_builder_child(s->b, PROFILE_ROOT,
	    f)) == PROFILE_NONE)
		return (PROFILE_NONE);
	if (profile_builder_nnodes(s->b) == before) {
		snprintf(label, 256, "%.200s #%zu", name != NULL ?
		    name : "profile", i + 1);
		if ((f = profile_builder_func(s->b, label, strlen(label), "",
		    0)) == PROFILE_NONE || (top = profile_builder_child(s->b,
		    PROFILE_ROOT, f)) == PROFILE_NONE)
			return (PROFILE_NONE);
	}
	*fp = f;
	return (top);
}

/* Every profile, in order. */
static int
speedscope_build(struct speedscope *s)
{
	const struct speedscope_prof	*pr;
	enum speedscope_kind		 kind;
	const char			*unit, *type;
	char				 label[64], tname[256];
	double				 ns;
	size_t				 i;
	uint32_t			 top, f;
	int				 m;

	s->path = "profiles";
	if (speedscope_time_scale(s) == -1)
		return (-1);
	for (i = 0; i < s->nprofs; i++) {
		pr = &s->profs[i];
		unit = speedscope_str(s, pr->unit);
		type = speedscope_str(s, pr->type);
		snprintf(label, sizeof label, "profiles[%zu]", i);
		s->path = label;
		if (!pr->object || type == NULL || unit == NULL ||
		    speedscope_unit(unit, &kind, &ns) == -1) {
			snprintf(s->err, sizeof s->err, "%s: no type, or no "
			    "known unit", label);
			return (-1);
		}
		if (s->metric[kind] == -1 && (s->metric[kind] =
		    profile_builder_metric(s->b, kind == SPEEDSCOPE_BYTES ?
		    "bytes" : "weight", kind == SPEEDSCOPE_BYTES ? "bytes" :
		    "count")) == -1)
			return (-1);
		m = s->metric[kind];
		if ((top = speedscope_top(s, pr, i, tname, &f)) ==
		    PROFILE_NONE)
			return (-1);
		/* The profile's node heads its stacks' lines too. */
		if (s->lframes != NULL && ((s->ltop = profile_builder_line_frame(
		    s->b, f, 0, 0)) == PROFILE_NONE || (s->ltop =
		    profile_builder_line_child(s->b, PROFILE_ROOT, s->ltop)) ==
		    PROFILE_NONE))
			return (-1);
		if (strcmp(type, "sampled") == 0) {
			if (speedscope_sampled(s, pr, top, m, kind ==
			    SPEEDSCOPE_TIME ? ns / s->scale : 1) == -1)
				return (-1);
		} else if (strcmp(type, "evented") == 0) {
			/* Each evented profile is a thread of its own. */
			if (kind == SPEEDSCOPE_TIME && (s->thread =
			    profile_builder_thread(s->b, tname, strlen(tname),
			    "", 0, -1, -1)) == PROFILE_NONE)
				return (-1);
			if (speedscope_evented(s, pr, top, m, kind ==
			    SPEEDSCOPE_TIME ? ns / s->scale : 1) == -1)
				return (-1);
		} else {
			snprintf(s->err, sizeof s->err, "%s: unknown type \"%s\"",
			    label, type);
			return (-1);
		}
	}
	return (0);
}

static struct profile *
speedscope_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct speedscope	 s;
	struct profile		*p = NULL;
	struct json_stream	*js;
	int			 rv;

	/* max_json: the decoding a file may ask for. */
	if (json_doc_limit(in, "speedscope profile", cause) == -1)
		return (NULL);
	memset(&s, 0, sizeof s);
	idmap_init(&s.bystack);
	/* Integers past 64 bits are reals, as the tree reader had them. */
	if ((js = json_stream_create(in, JSON_STREAM_BIG_REALS)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if ((rv = speedscope_read(&s, js)) == -1) {
		cause_set(cause, "%s: %s", in->path, json_stream_error(js));
		goto out;
	}
	if (rv == 0 || s.frames_state != PACKED_ARRAY ||
	    s.profiles_state != PACKED_ARRAY) {
		cause_set(cause, "%s: not a speedscope profile (an object with "
		    "\"shared\": {\"frames\": [...]} and \"profiles\": [...])",
		    in->path);
		goto out;
	}
	if ((s.funcs = malloc((s.nframes + 1) * sizeof *s.funcs)) == NULL ||
	    (s.leaf = malloc((s.nstacks + 1) * sizeof *s.leaf)) == NULL ||
	    (s.lleaf = malloc((s.nstacks + 1) * sizeof *s.lleaf)) == NULL ||
	    (s.b = profile_builder_create("speedscope")) == NULL ||
	    speedscope_lines(&s) == -1) {
		cause_set(cause, "out of memory");
		goto out;
	}
	memset(s.funcs, 0xff, (s.nframes + 1) * sizeof *s.funcs);
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(s.b, opts->max_nodes);
	s.metric[SPEEDSCOPE_TIME] = s.metric[SPEEDSCOPE_BYTES] =
	    s.metric[SPEEDSCOPE_NONE] = -1;
	s.scale = 1;
	if (speedscope_build(&s) == -1) {
		cause_set(cause, "%s: %s", in->path, s.err[0] != '\0' ? s.err :
		    profile_builder_error(s.b));
		goto out;
	}
	if (profile_builder_nnodes(s.b) <= 1) {
		cause_set(cause, "%s: no profiles", in->path);
		goto out;
	}
	p = profile_builder_finish(s.b, cause);
	s.b = NULL;
out:
	profile_builder_free(s.b);
	speedscope_clear_profs(&s);
	free(s.profs);
	free(s.frames);
	free(s.funcs);
	free(s.lframes);
	free(s.stackframes);
	free(s.stackoff);
	free(s.stacknext);
	free(s.stack);
	free(s.leaf);
	free(s.lleaf);
	idmap_clear(&s.bystack);
	packed_text_free(&s.text);
	json_stream_free(js);
	return (p);
}

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
#include "reader-v8.h"
#include "strpool.h"
#include "timeline.h"

/*
 * Chrome's trace-event JSON: what DevTools' Performance panel saves,
 * what chromium --trace-startup-file and node --trace-events-enabled
 * write, Perfetto's legacy JSON export. Either an array of events or an
 * object whose "traceEvents" holds them (a truncated array, as Chrome
 * writes when stopped early, is closed). An event has a phase "ph", a
 * name, a category "cat", a process "pid" and thread "tid" and a time
 * "ts" in microseconds.
 *
 * Two readings, as the file allows or the variant word asks:
 *
 * "samples" (the default when the file has any): the V8 CPU profiles of
 * Profile and ProfileChunk events (one profile per pid and id, its nodes,
 * samples and timeDeltas spread over the chunks; the thread is the
 * Profile event's) and of the older CpuProfile events, read as the V8
 * reader reads a .cpuprofile (samples and time in us, the same numbers)
 * under a node for their thread. The chunks' "lines" (each sample's
 * source line) give the costs by line (reader-v8.c).
 *
 * "events": the duration events, B/E pairs and X complete events with
 * "dur", as a call tree per thread: a slice's node is its name (the
 * module being its category) under the slice that encloses it, its self
 * time what its children leave of its span. Metrics: time (us) and calls
 * (slices per node). A thread's time is the sum of its outermost slices:
 * the gaps between them (idle) count nowhere. The self spans are kept in
 * time order, thread after thread, for flame charts. Slices are ordered
 * as Chrome's importer does (by start, the longer first); a slice that
 * ends after its parent is cut at the parent's end; an E without an open
 * B is dropped and a B never closed ends at its thread's last time.
 * Timestamps are rounded to the microsecond.
 *
 * Each thread is a child of the root named after its thread_name and
 * process_name metadata and its pid and tid. Either reading keeps its
 * samples' or slices' times and threads (timeline.h: a sample at its
 * time, lasting until the next; a self span over its time; a slice's
 * call at its start), and the instant events (i, I, R) as markers.
 * Lost: counter, async (b/e/n, S/T/F), flow and memory events, args,
 * and the other reading's data.
 *
 * The file is read as a stream (json-stream.h), one event at a time:
 * what each reading needs is kept packed (a slice in 32 bytes, its name
 * and category interned; the CPU profiles as the V8 reader keeps them,
 * struct v8_prof), and the profile is built once the last event is
 * read, in the order the document-tree reader built it: thread names
 * and the choice of reading may come at the end of a file. The slices
 * are dropped as soon as a CPU profile shows the samples reading wins.
 */

#define CHROME_MAX_PROFILES	65536
#define CHROME_MAX_TIME		(INT64_C(1) << 62)
#define CHROME_MAX_THREADS	(UINT32_C(1) << 30)
#define CHROME_NONE		UINT32_MAX

struct chrome_thread {
	int64_t		 pid, tid;
	size_t		 name;		/* thread_name in c->text, or SIZE_MAX */
	size_t		 process;	/* process_name, with tid 0 */
	uint32_t	 mseq;		/* order made by metadata, or NONE */
	uint32_t	 eseq;		/* order of its first B/E/X, or NONE */
	uint32_t	 node;		/* PROFILE_NONE until used */
	uint32_t	 tl;		/* timeline thread, or PROFILE_NONE */
};

/* An instant event (i, I, R): a marker on its thread's timeline. */
struct chrome_mark {
	int64_t		 ts;
	uint32_t	 thread;
	size_t		 name;		/* in c->text, or SIZE_MAX */
};

/* A CPU profile of Profile and ProfileChunk events. */
struct chrome_profile {
	int64_t		 pid;
	size_t		 id;		/* in c->text */
	uint32_t	 thread;
	struct v8_prof	*vp;
};

/* A CpuProfile event: a whole CPU profile, built in event order. */
struct chrome_cpu {
	size_t		 event;
	uint32_t	 thread;
	struct v8_prof	*vp;
};

/*
 * A B, E or X event, and later a slice: a span of one thread. The
 * phase is in the thread's top bits (CHROME_MAX_THREADS).
 */
struct chrome_slice {
	int64_t		 start, end;
	uint32_t	 thread;
	uint32_t	 index;		/* in the file, for a stable order */
	uint32_t	 name, cat;	/* in c->names, or CHROME_NONE */
};

#define CHROME_PH(s)		((s)->thread >> 30)
#define CHROME_THREAD(s)	((s)->thread & (CHROME_MAX_THREADS - 1))
#define CHROME_B		1
#define CHROME_E		2
#define CHROME_X		3

/* A string member of the event being read. */
struct chrome_str {
	char		*s;
	size_t		 len, cap;
	int		 set;		/* the member is a string */
};

/* A scalar member of the event being read: number, string or other. */
struct chrome_num {
	enum { CHROME_ABSENT, CHROME_INT, CHROME_REAL, CHROME_STRING,
	    CHROME_OTHER } kind;
	int64_t		 i;
	double		 d;
	uint64_t	 hash;		/* of a string */
};

/* The event being read: what either reading may use of it. */
struct chrome_ev {
	struct chrome_str	 ph, name, cat, id, argname;
	struct chrome_num	 pid, tid, ts, dur, start, end;
	struct packed_ints	 deltas;	/* args.data.timeDeltas */
	struct packed_ints	 lines;		/* args.data.lines */
	struct v8_prof		*cpu;		/* args.data.cpuProfile */
	int			 object;
};

struct chrome {
	struct profile_builder	*b;
	const char		*variant;
	int			 samples, events;	/* readings kept */
	int			 profiles;	/* a CPU profile has nodes */
	struct chrome_ev	 ev;
	size_t			 nev;		/* events read */
	struct packed_text	 text;
	struct chrome_thread	*threads;
	size_t			 nthreads, capthreads;
	struct idmap		 bythread;
	uint32_t		 nmeta, nevthreads;
	struct chrome_profile	*profiles_;
	size_t			 nprofiles, capprofiles;
	struct idmap		 byprofile;
	struct chrome_cpu	*cpus;
	size_t			 ncpus, capcpus;
	struct chrome_slice	*slices;
	size_t			 nslices, capslices;
	struct chrome_mark	*marks;
	size_t			 nmarks, capmarks;
	struct strpool		*names;
	/* The first error of each reading's pass, by event. */
	size_t			 notobject;	/* or SIZE_MAX */
	size_t			 sampleserr_at, eventserr_at;
	char			 sampleserr[256], eventserr[256];
	int			 mtime, mcalls;
	char			 err[256];
};

static int	chrome_probe(const char *, size_t);
static struct profile *chrome_load(struct input *,
		    const struct reader_options *, char **);

const struct reader reader_chrome = {
	.name = "chrome",
	.description = "Chrome / DevTools / node trace-event JSON",
	.probe = chrome_probe,
	.load = chrome_load,
};

static int
chrome_probe(const char *buf, size_t len)
{
	switch (json_doc_first(buf, len)) {
	case '{':
		/* Above the V8 reader's 95: traces hold cpuProfile nodes. */
		return (json_doc_has_key(buf, len, 1, "traceEvents") ? 100 : 0);
	case '[':
		return (json_doc_has_key(buf, len, 2, "ph") &&
		    (json_doc_has_key(buf, len, 2, "ts") ||
		    json_doc_has_key(buf, len, 2, "pid")) ? 90 : 0);
	default:
		return (0);
	}
}

/* A JSON number as a whole number (rounded); -1 if not one or too big. */
static int
chrome_number(const struct chrome_num *n, int64_t *v)
{
	if (n->kind == CHROME_INT) {
		*v = n->i;
		return (0);
	}
	if (n->kind != CHROME_REAL || !isfinite(n->d) || fabs(n->d) >= 9e18)
		return (-1);
	*v = llround(n->d);
	return (0);
}

/* A pid or tid: its number, a string's hash, else the empty string's. */
static int64_t
chrome_id(const struct chrome_num *n)
{
	int64_t	 v = 0;

	if (n->kind == CHROME_ABSENT)
		return (0);
	if (chrome_number(n, &v) == 0)
		return (v);
	return ((int64_t)(n->kind == CHROME_STRING ? n->hash :
	    hash_bytes("", 0)));
}

/* The thread of a pid and tid, added on first sight. */
static uint32_t
chrome_thread_id(struct chrome *c, int64_t pid, int64_t tid)
{
	struct chrome_thread	*t;
	int64_t			 k[2];
	uint64_t		 h;
	uint32_t		 i;

	k[0] = pid;
	k[1] = tid;
	h = hash_bytes(k, sizeof k);
	if ((i = idmap_get(&c->bythread, h)) != IDMAP_NONE) {
		if (c->threads[i].pid == pid && c->threads[i].tid == tid)
			return (i);
		/* A collision of hashes: look the slow way. */
		for (i = 0; i < c->nthreads; i++) {
			if (c->threads[i].pid == pid &&
			    c->threads[i].tid == tid)
				return (i);
		}
	}
	if (c->nthreads >= CHROME_MAX_THREADS - 1) {
		snprintf(c->err, sizeof c->err, "more than %u threads",
		    CHROME_MAX_THREADS - 1);
		return (PROFILE_NONE);
	}
	if (packed_grow(&c->threads, &c->capthreads, c->nthreads + 1,
	    sizeof *c->threads) == -1)
		goto nomem;
	i = (uint32_t)c->nthreads++;
	t = &c->threads[i];
	t->pid = pid;
	t->tid = tid;
	t->name = t->process = SIZE_MAX;
	t->mseq = t->eseq = CHROME_NONE;
	t->node = t->tl = PROFILE_NONE;
	if (idmap_get(&c->bythread, h) == IDMAP_NONE &&
	    idmap_put(&c->bythread, h, i) == -1)
		goto nomem;
	return (i);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (PROFILE_NONE);
}

/* The thread of the event (by pid and tid), added on first sight. */
static uint32_t
chrome_thread(struct chrome *c)
{
	return (chrome_thread_id(c, chrome_id(&c->ev.pid),
	    chrome_id(&c->ev.tid)));
}

/* The name of thread i's process, kept with its thread 0, or NULL. */
static const char *
chrome_process(struct chrome *c, uint32_t i)
{
	uint32_t	 j;
	int64_t		 k[2];

	k[0] = c->threads[i].pid;
	k[1] = 0;
	if ((j = idmap_get(&c->bythread, hash_bytes(k, sizeof k))) !=
	    IDMAP_NONE && c->threads[j].pid == c->threads[i].pid &&
	    c->threads[j].tid == 0 && c->threads[j].process != SIZE_MAX)
		return (packed_text_get(&c->text, c->threads[j].process));
	return (NULL);
}

/* Thread i of the timeline (the clock declared), added on first use. */
static uint32_t
chrome_tl_thread(struct chrome *c, uint32_t i)
{
	const char	*name = NULL, *proc;

	if (c->threads[i].tl != PROFILE_NONE)
		return (c->threads[i].tl);
	if (c->threads[i].name != SIZE_MAX)
		name = packed_text_get(&c->text, c->threads[i].name);
	proc = chrome_process(c, i);
	c->threads[i].tl = profile_builder_thread(c->b, name ? name : "",
	    name ? strlen(name) : 0, proc ? proc : "", proc ? strlen(proc) : 0,
	    c->threads[i].pid, c->threads[i].tid);
	return (c->threads[i].tl);
}

/* The root child of thread i: "name (process pid P, tid T)". */
static uint32_t
chrome_thread_node(struct chrome *c, uint32_t i)
{
	const char	*proc, *name = NULL;
	char		 label[256];
	uint32_t	 f;

	if (c->threads[i].node != PROFILE_NONE)
		return (c->threads[i].node);
	if (chrome_tl_thread(c, i) == PROFILE_NONE)
		return (PROFILE_NONE);
	proc = chrome_process(c, i);
	if (c->threads[i].name != SIZE_MAX)
		name = packed_text_get(&c->text, c->threads[i].name);
	snprintf(label, sizeof label, "%.100s (%.100s%spid %lld, tid %lld)",
	    name != NULL ? name : "thread", proc != NULL ? proc : "",
	    proc != NULL ? " " : "", (long long)c->threads[i].pid,
	    (long long)c->threads[i].tid);
	if ((f = profile_builder_func(c->b, label, strlen(label), "", 0)) ==
	    PROFILE_NONE)
		return (PROFILE_NONE);
	c->threads[i].node = profile_builder_child(c->b, PROFILE_ROOT, f);
	return (c->threads[i].node);
}

/* A string member's value (a copy: tokens do not last). */
static int
chrome_str_set(struct chrome_str *s, const struct json_token *t)
{
	s->set = t->type == JSON_TOK_STRING;
	if (!s->set)
		return (0);
	if (packed_grow(&s->s, &s->cap, t->len + 1, 1) == -1)
		return (-1);
	memcpy(s->s, t->s, t->len + 1);
	s->len = t->len;
	return (0);
}

/* A scalar member's value. */
static void
chrome_num_set(struct chrome_num *n, const struct json_token *t)
{
	switch (t->type) {
	case JSON_TOK_INTEGER:
		n->kind = CHROME_INT;
		n->i = t->i;
		n->d = t->d;
		break;
	case JSON_TOK_REAL:
		n->kind = CHROME_REAL;
		n->d = t->d;
		break;
	case JSON_TOK_STRING:
		n->kind = CHROME_STRING;
		n->hash = hash_bytes(t->s, t->len);
		break;
	default:
		n->kind = CHROME_OTHER;
		break;
	}
}

/* args.data: a CPU profile chunk's members. */
static int
chrome_read_data(struct chrome *c, struct json_stream *js)
{
	struct chrome_ev	*ev = &c->ev;
	struct json_token	 t;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (JSON_TOK_IS(&t, "startTime") || JSON_TOK_IS(&t, "endTime")) {
			struct chrome_num *n = t.s[0] == 's' ? &ev->start :
			    &ev->end;

			if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
			    json_stream_skip(js, &t) == -1)
				return (-1);
			chrome_num_set(n, &t);
		} else if (JSON_TOK_IS(&t, "timeDeltas") ||
		    JSON_TOK_IS(&t, "lines")) {
			struct packed_ints *pi = t.s[0] == 't' ? &ev->deltas :
			    &ev->lines;

			packed_ints_reset(pi);
			if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
			    reader_v8_read_ints(js, &t, pi) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "cpuProfile")) {
			reader_v8_prof_reset(ev->cpu);
			if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
			    reader_v8_prof_read(js, &t, ev->cpu) == -1)
				return (-1);
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* An event's args: its name (metadata) and data (CPU profiles). */
static int
chrome_read_args(struct chrome *c, struct json_stream *js)
{
	struct chrome_ev	*ev = &c->ev;
	struct json_token	 t;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (JSON_TOK_IS(&t, "name")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
			    chrome_str_set(&ev->argname, &t) == -1 ||
			    json_stream_skip(js, &t) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "data")) {
			ev->start.kind = ev->end.kind = CHROME_ABSENT;
			packed_ints_reset(&ev->deltas);
			reader_v8_prof_reset(ev->cpu);
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			if (t.type != JSON_TOK_OBJECT) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (chrome_read_data(c, js) == -1)
				return (-1);
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* Forget the members of the event before. */
static void
chrome_ev_reset(struct chrome_ev *ev)
{
	ev->ph.set = ev->name.set = ev->cat.set = ev->id.set = 0;
	ev->argname.set = 0;
	ev->pid.kind = ev->tid.kind = ev->ts.kind = ev->dur.kind =
	    CHROME_ABSENT;
	ev->start.kind = ev->end.kind = CHROME_ABSENT;
	packed_ints_reset(&ev->deltas);
	packed_ints_reset(&ev->lines);
	reader_v8_prof_reset(ev->cpu);
	ev->object = 0;
}

/* One event object's members onto c->ev. */
static int
chrome_read_event(struct chrome *c, struct json_stream *js)
{
	struct chrome_ev	*ev = &c->ev;
	struct chrome_str	*s;
	struct chrome_num	*n;
	struct json_token	 t;

	ev->object = 1;
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		s = NULL;
		n = NULL;
		if (JSON_TOK_IS(&t, "ph"))
			s = &ev->ph;
		else if (JSON_TOK_IS(&t, "name"))
			s = &ev->name;
		else if (JSON_TOK_IS(&t, "cat"))
			s = &ev->cat;
		else if (JSON_TOK_IS(&t, "id"))
			s = &ev->id;
		else if (JSON_TOK_IS(&t, "pid"))
			n = &ev->pid;
		else if (JSON_TOK_IS(&t, "tid"))
			n = &ev->tid;
		else if (JSON_TOK_IS(&t, "ts"))
			n = &ev->ts;
		else if (JSON_TOK_IS(&t, "dur"))
			n = &ev->dur;
		else if (JSON_TOK_IS(&t, "args")) {
			/* args given twice: the last counts. */
			ev->argname.set = 0;
			ev->start.kind = ev->end.kind = CHROME_ABSENT;
			packed_ints_reset(&ev->deltas);
			reader_v8_prof_reset(ev->cpu);
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			if (t.type != JSON_TOK_OBJECT) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (chrome_read_args(c, js) == -1)
				return (-1);
			continue;
		}
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (s != NULL && chrome_str_set(s, &t) == -1)
			return (-1);
		if (n != NULL)
			chrome_num_set(n, &t);
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* Whether a string member is s. */
static int
chrome_is(const struct chrome_str *m, const char *s)
{
	return (m->set && strcmp(m->s, s) == 0);
}

/* Mark thread t made by the metadata, in that order. */
static void
chrome_meta(struct chrome *c, uint32_t t)
{
	if (c->threads[t].mseq == CHROME_NONE)
		c->threads[t].mseq = c->nmeta++;
}

/*
 * The metadata of event i: thread and process names, whether a CPU
 * profile has nodes (then the samples reading wins and the slices go).
 */
static int
chrome_event_meta(struct chrome *c, size_t i)
{
	struct chrome_ev	*ev = &c->ev;
	uint32_t		 t;
	int64_t			 pid = 0;
	size_t			 off;

	if (!ev->object) {
		if (c->notobject == SIZE_MAX)
			c->notobject = i;
		return (0);
	}
	if (!ev->name.set || !ev->ph.set)
		return (0);
	if (chrome_is(&ev->ph, "M") && chrome_is(&ev->name, "thread_name")) {
		if ((t = chrome_thread(c)) == PROFILE_NONE)
			return (-1);
		chrome_meta(c, t);
		if (ev->argname.set) {
			if ((off = packed_text_put(&c->text, ev->argname.s,
			    ev->argname.len)) == SIZE_MAX)
				goto nomem;
			c->threads[t].name = off;
		}
	} else if (chrome_is(&ev->ph, "M") &&
	    chrome_is(&ev->name, "process_name")) {
		/* Kept with thread 0 of the process. */
		if (ev->pid.kind != CHROME_ABSENT &&
		    chrome_number(&ev->pid, &pid) == -1)
			return (0);
		if ((t = chrome_thread_id(c, pid, 0)) == PROFILE_NONE)
			return (-1);
		chrome_meta(c, t);
		if (ev->argname.set) {
			if ((off = packed_text_put(&c->text, ev->argname.s,
			    ev->argname.len)) == SIZE_MAX)
				goto nomem;
			c->threads[t].process = off;
		}
	} else if ((chrome_is(&ev->name, "ProfileChunk") ||
	    chrome_is(&ev->name, "CpuProfile")) &&
	    reader_v8_prof_nodes(ev->cpu) > 0 && !c->profiles) {
		/* Only profiles with nodes: a Profile event alone is not. */
		c->profiles = 1;
		if (c->variant == NULL || strcmp(c->variant, "events") != 0) {
			c->events = 0;
			free(c->slices);
			c->slices = NULL;
			c->nslices = c->capslices = 0;
		}
	}
	return (0);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (-1);
}

/* The profile of a pid and id, added on first sight; NONE on error. */
static uint32_t
chrome_profile(struct chrome *c, int64_t pid, const char *id, size_t len,
    size_t i)
{
	struct chrome_profile	*pr;
	uint64_t		 h;
	uint32_t		 k;

	h = hash_bytes(id, len) ^ idmap_hash((uint64_t)pid);
	if ((k = idmap_get(&c->byprofile, h)) != IDMAP_NONE &&
	    (c->profiles_[k].pid != pid ||
	    strcmp(packed_text_get(&c->text, c->profiles_[k].id), id) != 0)) {
		/* A collision of hashes: look the slow way. */
		for (k = 0; k < c->nprofiles; k++) {
			if (c->profiles_[k].pid == pid && strcmp(
			    packed_text_get(&c->text, c->profiles_[k].id),
			    id) == 0)
				break;
		}
		if (k == c->nprofiles)
			k = IDMAP_NONE;
	}
	if (k != IDMAP_NONE)
		return (k);
	if (c->nprofiles == CHROME_MAX_PROFILES) {
		c->sampleserr_at = i;
		snprintf(c->sampleserr, sizeof c->sampleserr, "more than %d "
		    "CPU profiles", CHROME_MAX_PROFILES);
		return (CHROME_NONE);
	}
	if (packed_grow(&c->profiles_, &c->capprofiles, c->nprofiles + 1,
	    sizeof *c->profiles_) == -1)
		goto nomem;
	k = (uint32_t)c->nprofiles;
	pr = &c->profiles_[k];
	pr->pid = pid;
	pr->thread = PROFILE_NONE;
	if ((pr->id = packed_text_put(&c->text, id, len)) == SIZE_MAX ||
	    (pr->vp = reader_v8_prof_create()) == NULL)
		goto nomem;
	reader_v8_prof_set_object(pr->vp);
	c->nprofiles++;
	if (idmap_get(&c->byprofile, h) == IDMAP_NONE &&
	    idmap_put(&c->byprofile, h, k) == -1)
		goto nomem;
	return (k);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (PROFILE_NONE);
}

/*
 * The samples reading of event i: a CpuProfile event's profile is kept
 * whole, a Profile or ProfileChunk event's extends its profile's.
 */
static int
chrome_event_samples(struct chrome *c, size_t i)
{
	struct chrome_ev	*ev = &c->ev;
	struct chrome_profile	*pr;
	struct v8_prof		*vp;
	int64_t			 pid = 0, v;
	uint32_t		 k, t;

	if (!ev->object || !ev->name.set)
		return (0);
	if (chrome_is(&ev->name, "CpuProfile")) {
		/* A whole profile in one event (Chrome before 2018). */
		if ((t = chrome_thread(c)) == PROFILE_NONE)
			return (-1);
		if (packed_grow(&c->cpus, &c->capcpus, c->ncpus + 1,
		    sizeof *c->cpus) == -1 ||
		    (vp = reader_v8_prof_create()) == NULL)
			goto nomem;
		c->cpus[c->ncpus].event = i;
		c->cpus[c->ncpus].thread = t;
		c->cpus[c->ncpus++].vp = ev->cpu;
		ev->cpu = vp;
		return (0);
	}
	if (!chrome_is(&ev->name, "Profile") &&
	    !chrome_is(&ev->name, "ProfileChunk"))
		return (0);
	if (ev->pid.kind != CHROME_ABSENT)
		(void)chrome_number(&ev->pid, &pid);
	if ((k = chrome_profile(c, pid, ev->id.set ? ev->id.s : "",
	    ev->id.set ? ev->id.len : 0, i)) == PROFILE_NONE)
		return (-1);
	if (k == CHROME_NONE)
		return (0);
	pr = &c->profiles_[k];
	/* The Profile event's thread is the profiled one. */
	if (chrome_is(&ev->name, "Profile") || pr->thread == PROFILE_NONE) {
		if ((pr->thread = chrome_thread(c)) == PROFILE_NONE)
			return (-1);
	}
	if (chrome_number(&ev->start, &v) == 0)
		reader_v8_prof_set_time(pr->vp, 0, v);
	if (chrome_number(&ev->end, &v) == 0)
		reader_v8_prof_set_time(pr->vp, 1, v);
	switch (reader_v8_prof_chunk(pr->vp, ev->cpu, &ev->deltas,
	    &ev->lines)) {
	case -1:
		goto nomem;
	case 1:
		c->sampleserr_at = i;
		snprintf(c->sampleserr, sizeof c->sampleserr, "events[%zu]: "
		    "nodes, samples or timeDeltas not an array", i);
		break;
	default:
		break;
	}
	return (0);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (-1);
}

/* Event i's value of a number, as json_number_value: 0 if none. */
static double
chrome_value(const struct chrome_num *n)
{
	return (n->kind == CHROME_INT || n->kind == CHROME_REAL ? n->d : 0);
}

/* The events reading of event i: a B, E or X event's span. */
static int
chrome_event_slice(struct chrome *c, size_t i)
{
	struct chrome_ev	*ev = &c->ev;
	struct chrome_slice	*s;
	int64_t			 ts, dur = 0, tend;
	uint32_t		 t, ph;
	double			 d;

	if (!ev->object || !ev->ph.set || ev->ph.len != 1)
		return (0);
	ph = ev->ph.s[0] == 'B' ? CHROME_B : ev->ph.s[0] == 'E' ? CHROME_E :
	    ev->ph.s[0] == 'X' ? CHROME_X : 0;
	if (ph == 0)
		return (0);
	/* Within 2^62, so that the difference of two times fits. */
	if (chrome_number(&ev->ts, &ts) == -1 || ts <= -CHROME_MAX_TIME ||
	    ts >= CHROME_MAX_TIME) {
		snprintf(c->eventserr, sizeof c->eventserr, "events[%zu]: no "
		    "number ts within 2^62 us", i);
		goto fail;
	}
	if (ph == CHROME_X && ev->dur.kind != CHROME_ABSENT) {
		d = chrome_value(&ev->ts) + chrome_value(&ev->dur);
		if ((ev->dur.kind != CHROME_INT && ev->dur.kind !=
		    CHROME_REAL) || !isfinite(d) || fabs(d) >= 9e18 ||
		    chrome_value(&ev->dur) < 0) {
			snprintf(c->eventserr, sizeof c->eventserr,
			    "events[%zu]: dur is not a number of us", i);
			goto fail;
		}
		/* The end rounded as the start is. */
		dur = ev->ts.kind == CHROME_INT && ev->dur.kind == CHROME_INT ?
		    ev->dur.i : llround(d) - ts;
		if (dur < 0 || __builtin_add_overflow(ts, dur, &tend) ||
		    tend >= CHROME_MAX_TIME) {
			snprintf(c->eventserr, sizeof c->eventserr,
			    "events[%zu]: dur out of range", i);
			goto fail;
		}
	}
	if ((t = chrome_thread(c)) == PROFILE_NONE)
		return (-1);
	if (c->threads[t].eseq == CHROME_NONE)
		c->threads[t].eseq = c->nevthreads++;
	if (i >= UINT32_MAX || packed_grow(&c->slices, &c->capslices,
	    c->nslices + 1, sizeof *c->slices) == -1)
		goto nomem;
	s = &c->slices[c->nslices++];
	s->start = ts;
	s->end = ts + dur;
	s->thread = t | ph << 30;
	s->index = (uint32_t)i;
	s->name = s->cat = CHROME_NONE;
	if ((ev->name.set && (s->name = strpool_intern(c->names, ev->name.s,
	    ev->name.len)) == STRPOOL_NONE) || (ev->cat.set && (s->cat =
	    strpool_intern(c->names, ev->cat.s, ev->cat.len)) == STRPOOL_NONE))
		goto nomem;
	return (0);
fail:
	/* The first error stops the reading; the other may still win. */
	c->eventserr_at = i;
	c->events = 0;
	return (0);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (-1);
}

/*
 * An instant event (ph "i", "I", "R"): kept as a marker, its name at
 * its time on its thread, for the timeline of either reading.
 */
static int
chrome_event_mark(struct chrome *c)
{
	struct chrome_ev	*ev = &c->ev;
	struct chrome_mark	*m;
	int64_t			 ts;
	uint32_t		 t;

	if (!ev->object || !ev->ph.set || ev->ph.len != 1 ||
	    ev->ph.s[0] == '\0' || strchr("iIR", ev->ph.s[0]) == NULL ||
	    chrome_number(&ev->ts, &ts) == -1 || ts <= -CHROME_MAX_TIME ||
	    ts >= CHROME_MAX_TIME)
		return (0);
	if ((t = chrome_thread(c)) == PROFILE_NONE)
		return (-1);
	if (packed_grow(&c->marks, &c->capmarks, c->nmarks + 1,
	    sizeof *c->marks) == -1)
		goto nomem;
	m = &c->marks[c->nmarks];
	m->ts = ts;
	m->thread = t;
	m->name = SIZE_MAX;
	if (ev->name.set && (m->name = packed_text_put(&c->text, ev->name.s,
	    ev->name.len)) == SIZE_MAX)
		goto nomem;
	c->nmarks++;
	return (0);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (-1);
}

/* The markers, on the timeline once a reading has been built. */
static int
chrome_marks(struct chrome *c)
{
	const struct chrome_mark	*m;
	const char			*nm;
	uint32_t			 th;
	size_t				 i;

	if (profile_builder_clock(c->b, "us", 1e6) == -1)
		return (-1);
	for (i = 0; i < c->nmarks; i++) {
		m = &c->marks[i];
		nm = m->name != SIZE_MAX ? packed_text_get(&c->text, m->name) :
		    "(unnamed)";
		if ((th = chrome_tl_thread(c, m->thread)) == PROFILE_NONE ||
		    profile_builder_mark(c->b, th, m->ts, nm, strlen(nm)) == -1)
			return (-1);
	}
	return (0);
}

/* Event i, read: what each reading keeps of it. */
static int
chrome_event(struct chrome *c, size_t i)
{
	if (chrome_event_meta(c, i) == -1 || chrome_event_mark(c) == -1)
		return (-1);
	if (c->samples && c->sampleserr_at == SIZE_MAX &&
	    chrome_event_samples(c, i) == -1)
		return (-1);
	if (c->events && chrome_event_slice(c, i) == -1)
		return (-1);
	return (0);
}

/* The events array: each event read, then kept as each reading needs. */
static int
chrome_read_events(struct chrome *c, struct json_stream *js)
{
	struct json_token	 t;

	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR)
			return (-1);
		chrome_ev_reset(&c->ev);
		if (t.type == JSON_TOK_OBJECT) {
			if (chrome_read_event(c, js) == -1)
				return (-1);
		} else if (json_stream_skip(js, &t) == -1)
			return (-1);
		if (chrome_event(c, c->nev++) == -1)
			return (-1);
	}
}

/* Free what the events kept (a second "traceEvents" starts again). */
static void
chrome_clear(struct chrome *c)
{
	size_t	 i;

	for (i = 0; i < c->nprofiles; i++)
		reader_v8_prof_free(c->profiles_[i].vp);
	for (i = 0; i < c->ncpus; i++)
		reader_v8_prof_free(c->cpus[i].vp);
	free(c->profiles_);
	free(c->cpus);
	free(c->threads);
	free(c->slices);
	free(c->marks);
	packed_text_free(&c->text);
	strpool_free(c->names);
	idmap_clear(&c->bythread);
	idmap_clear(&c->byprofile);
	c->profiles_ = NULL;
	c->cpus = NULL;
	c->threads = NULL;
	c->slices = NULL;
	c->marks = NULL;
	c->nmarks = c->capmarks = 0;
	c->names = NULL;
	c->nprofiles = c->capprofiles = c->ncpus = c->capcpus = 0;
	c->nthreads = c->capthreads = c->nslices = c->capslices = 0;
	c->nmeta = c->nevthreads = 0;
	c->nev = 0;
	c->profiles = 0;
	c->notobject = c->sampleserr_at = c->eventserr_at = SIZE_MAX;
	c->samples = c->variant == NULL || strcmp(c->variant, "events") != 0;
	c->events = c->variant == NULL || strcmp(c->variant, "samples") != 0;
}

/*
 * The document: an array of events, or an object whose "traceEvents"
 * holds them (the last, if given twice). 1 if there were events, 0 if
 * not, -1 on an error.
 */
static int
chrome_read(struct chrome *c, struct json_stream *js)
{
	struct json_token	 t;
	int			 found = 0;

	if (json_stream_next(js, &t) == JSON_TOK_ERROR)
		return (-1);
	if (t.type == JSON_TOK_ARRAY) {
		if ((c->names = strpool_create()) == NULL ||
		    chrome_read_events(c, js) == -1)
			return (-1);
		found = 1;
	} else {
		while (json_stream_next(js, &t) == JSON_TOK_KEY) {
			if (!JSON_TOK_IS(&t, "traceEvents")) {
				if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
				    json_stream_skip(js, &t) == -1)
					return (-1);
				continue;
			}
			chrome_clear(c);
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			found = t.type == JSON_TOK_ARRAY;
			if (!found) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
				continue;
			}
			if ((c->names = strpool_create()) == NULL ||
			    chrome_read_events(c, js) == -1)
				return (-1);
		}
		if (t.type != JSON_TOK_OBJECT_END)
			return (-1);
	}
	if (json_stream_next(js, &t) != JSON_TOK_END)
		return (-1);
	return (found);
}

/* The CPU profiles, built as they came: CpuProfile events, then chunks. */
static int
chrome_samples(struct chrome *c)
{
	struct chrome_profile	*pr;
	char			 err[256];
	uint32_t		 node;
	size_t			 k;

	/* The V8 reader's metrics, in its order; the trace's clock. */
	if (profile_builder_metric(c->b, "samples", "count") == -1 ||
	    profile_builder_metric(c->b, "time", "us") == -1 ||
	    profile_builder_clock(c->b, "us", 1e6) == -1)
		return (-1);
	for (k = 0; k < c->ncpus && c->cpus[k].event < c->sampleserr_at; k++) {
		if ((node = chrome_thread_node(c, c->cpus[k].thread)) ==
		    PROFILE_NONE)
			return (-1);
		if (reader_v8_profile(c->b, node,
		    c->threads[c->cpus[k].thread].tl, c->cpus[k].vp, err,
		    sizeof err) == -1)
			goto v8err;
	}
	if (c->sampleserr_at != SIZE_MAX) {
		snprintf(c->err, sizeof c->err, "%s", c->sampleserr);
		return (-1);
	}
	for (k = 0; k < c->nprofiles; k++) {
		pr = &c->profiles_[k];
		/* A Profile event whose chunks never came: no samples. */
		if (!reader_v8_prof_has_nodes(pr->vp))
			continue;
		if ((node = chrome_thread_node(c, pr->thread)) == PROFILE_NONE)
			return (-1);
		if (reader_v8_profile(c->b, node, c->threads[pr->thread].tl,
		    pr->vp, err, sizeof err) == -1)
			goto v8err;
	}
	return (0);
v8err:
	if (err[0] != '\0')
		snprintf(c->err, sizeof c->err, "CPU profile: %.200s", err);
	return (-1);
}

/* B/E/X events: by thread, then time, then file order. */
static int
chrome_event_cmp(const void *a, const void *b)
{
	const struct chrome_slice	*x = a, *y = b;

	if (CHROME_THREAD(x) != CHROME_THREAD(y))
		return (CHROME_THREAD(x) < CHROME_THREAD(y) ? -1 : 1);
	if (x->start != y->start)
		return (x->start < y->start ? -1 : 1);
	return (x->index < y->index ? -1 : x->index > y->index);
}

/* Slices: by thread, then start, the longer (the parent) first. */
static int
chrome_slice_cmp(const void *a, const void *b)
{
	const struct chrome_slice	*x = a, *y = b;

	if (CHROME_THREAD(x) != CHROME_THREAD(y))
		return (CHROME_THREAD(x) < CHROME_THREAD(y) ? -1 : 1);
	if (x->start != y->start)
		return (x->start < y->start ? -1 : 1);
	if (x->end != y->end)
		return (x->end > y->end ? -1 : 1);
	return (x->index < y->index ? -1 : x->index > y->index);
}

/*
 * Give node a self span of d us from start on a (timeline) thread, and
 * record it as a sample.
 */
static int
chrome_span(struct chrome *c, uint32_t node, uint32_t thread, int64_t start,
    int64_t d)
{
	if (d <= 0)
		return (0);
	if (profile_builder_add(c->b, node, c->mtime, d) == -1 ||
	    profile_builder_sample(c->b, node, d) == -1 ||
	    profile_builder_timed(c->b, node, thread, start, d, 0) == -1)
		return (-1);
	return (0);
}

/*
 * The threads in the order the document-tree reader numbered them:
 * those its metadata pass made, then those of B/E/X events as they
 * came. *orderp gets each rank's thread; each slice's thread becomes
 * its rank.
 */
static int
chrome_rank(struct chrome *c, uint32_t **orderp)
{
	uint32_t	*rank, *order, *byeseq, r;
	size_t		 i;

	*orderp = NULL;
	rank = calloc(c->nthreads + 1, sizeof *rank);
	order = calloc(c->nthreads + 1, sizeof *order);
	byeseq = calloc(c->nevthreads + 1, sizeof *byeseq);
	if (rank == NULL || order == NULL || byeseq == NULL) {
		free(rank);
		free(order);
		free(byeseq);
		return (-1);
	}
	memset(byeseq, 0xff, (c->nevthreads + 1) * sizeof *byeseq);
	for (i = 0; i < c->nthreads; i++) {
		if (c->threads[i].mseq != CHROME_NONE) {
			rank[i] = c->threads[i].mseq;
			order[rank[i]] = (uint32_t)i;
		} else if (c->threads[i].eseq != CHROME_NONE)
			byeseq[c->threads[i].eseq] = (uint32_t)i;
	}
	for (i = 0, r = c->nmeta; i < c->nevthreads; i++) {
		if (byeseq[i] == CHROME_NONE)
			continue;
		rank[byeseq[i]] = r;
		order[r++] = byeseq[i];
	}
	for (i = 0; i < c->nslices; i++)
		c->slices[i].thread = (c->slices[i].thread &
		    ~(CHROME_MAX_THREADS - 1)) | rank[CHROME_THREAD(&c->slices[i])];
	free(rank);
	free(byeseq);
	*orderp = order;
	return (0);
}

/* Pair each thread's B and E events into slices, in time order. */
static int
chrome_pair(struct chrome *c)
{
	struct chrome_slice	*s, *open = NULL;
	size_t			 i, j, n = c->nslices, nopen, capopen = 0;
	size_t			 first;
	int64_t			 tend;

	qsort(c->slices, n, sizeof *c->slices, chrome_event_cmp);
	for (i = 0, j = 0; i < n; i = first) {
		first = i;
		nopen = 0;
		tend = c->slices[i].start;
		for (; first < n && CHROME_THREAD(&c->slices[first]) ==
		    CHROME_THREAD(&c->slices[i]); first++) {
			s = &c->slices[first];
			if (s->end > tend)
				tend = s->end;
			if (CHROME_PH(s) == CHROME_B) {
				if (packed_grow(&open, &capopen, nopen + 1,
				    sizeof *open) == -1) {
					free(open);
					return (-1);
				}
				open[nopen++] = *s;
			} else if (CHROME_PH(s) == CHROME_E) {
				/* An E with no B: tracing began inside it. */
				if (nopen == 0)
					continue;
				c->slices[j] = open[--nopen];
				c->slices[j++].end = s->start;
			} else
				c->slices[j++] = *s;
		}
		/* Slices never closed end at the thread's last time. */
		while (nopen > 0) {
			c->slices[j] = open[--nopen];
			c->slices[j++].end = tend;
		}
	}
	free(open);
	c->nslices = j;
	return (0);
}

/* The duration events as call trees, one per thread. */
static int
chrome_events(struct chrome *c)
{
	struct chrome_slice	*s;
	struct {
		uint32_t	 node;
		int64_t		 end;
	}			*stack = NULL;
	uint32_t		*order = NULL, f, node, th = PROFILE_NONE;
	size_t			 i, n, depth, capstack = 0;
	int64_t			 last = 0;
	const char		*nm, *ct;
	int			 rv = -1;

	if ((c->mtime = profile_builder_metric(c->b, "time", "us")) == -1 ||
	    (c->mcalls = profile_builder_metric(c->b, "calls", "count")) == -1 ||
	    profile_builder_clock(c->b, "us", 1e6) == -1 ||
	    profile_builder_time_mode(c->b, c->mtime, TIMELINE_SPAN) == -1 ||
	    profile_builder_time_mode(c->b, c->mcalls, TIMELINE_WEIGHT) == -1)
		return (-1);
	if (c->eventserr_at != SIZE_MAX) {
		snprintf(c->err, sizeof c->err, "%s", c->eventserr);
		return (-1);
	}
	if (c->nslices == 0) {
		snprintf(c->err, sizeof c->err, "no duration events (B/E or X) "
		    "and no CPU profile");
		return (-1);
	}
	if (chrome_rank(c, &order) == -1 || chrome_pair(c) == -1)
		goto nomem;
	n = c->nslices;

	/* Nest each thread's slices, parents first. */
	qsort(c->slices, n, sizeof *c->slices, chrome_slice_cmp);
	depth = 0;
	for (i = 0; i < n; i++) {
		s = &c->slices[i];
		if (i == 0 || CHROME_THREAD(s) != CHROME_THREAD(&c->slices[i -
		    1])) {
			while (depth > 0) {
				depth--;
				if (chrome_span(c, stack[depth].node, th, last,
				    stack[depth].end - last) == -1)
					goto out;
				last = stack[depth].end;
			}
			if ((th = chrome_tl_thread(c, order[CHROME_THREAD(s)]))
			    == PROFILE_NONE)
				goto out;
		}
		while (depth > 0 && stack[depth - 1].end <= s->start) {
			depth--;
			if (chrome_span(c, stack[depth].node, th, last,
			    stack[depth].end - last) == -1)
				goto out;
			last = stack[depth].end;
		}
		if (depth > 0) {
			if (chrome_span(c, stack[depth - 1].node, th, last,
			    s->start - last) == -1)
				goto out;
			if (s->end > stack[depth - 1].end)
				s->end = stack[depth - 1].end;
			node = stack[depth - 1].node;
		} else if ((node = chrome_thread_node(c,
		    order[CHROME_THREAD(s)])) == PROFILE_NONE)
			goto out;
		last = s->start;
		nm = s->name != CHROME_NONE ? strpool_get(c->names, s->name) :
		    "(unnamed)";
		ct = s->cat != CHROME_NONE ? strpool_get(c->names, s->cat) : "";
		if ((f = profile_builder_func(c->b, nm, strlen(nm), ct,
		    strlen(ct))) == PROFILE_NONE ||
		    (node = profile_builder_child(c->b, node, f)) ==
		    PROFILE_NONE ||
		    profile_builder_add(c->b, node, c->mcalls, 1) == -1 ||
		    profile_builder_timed(c->b, node, th, s->start, 0, 1) == -1)
			goto out;
		if (packed_grow(&stack, &capstack, depth + 1,
		    sizeof *stack) == -1)
			goto nomem;
		stack[depth].node = node;
		stack[depth++].end = s->end;
	}
	while (depth > 0) {
		depth--;
		if (chrome_span(c, stack[depth].node, th, last,
		    stack[depth].end - last) == -1)
			goto out;
		last = stack[depth].end;
	}
	rv = 0;
	goto out;
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
out:
	free(order);
	free(stack);
	return (rv);
}

static struct profile *
chrome_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct chrome		 c;
	struct profile		*p = NULL;
	struct json_stream	*js = NULL;
	const char		*v = opts->variant;
	int			 rv;

	/* max_json: the decoding a file may ask for. */
	if (json_doc_limit(in, "trace", cause) == -1)
		return (NULL);
	memset(&c, 0, sizeof c);
	idmap_init(&c.bythread);
	idmap_init(&c.byprofile);
	packed_ints_init(&c.ev.deltas);
	packed_ints_init(&c.ev.lines);
	if (v != NULL && *v == '\0')
		v = NULL;
	if (v != NULL && strcmp(v, "samples") != 0 &&
	    strcmp(v, "events") != 0) {
		cause_set(cause, "%s: unknown variant \"%s\" (samples or "
		    "events)", in->path, v);
		return (NULL);
	}
	c.variant = v;
	chrome_clear(&c);
	if ((c.ev.cpu = reader_v8_prof_create()) == NULL ||
	    (js = json_stream_create(in, JSON_STREAM_BIG_REALS |
	    JSON_STREAM_CLOSE_ARRAY)) == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if ((rv = chrome_read(&c, js)) == -1) {
		cause_set(cause, "%s: %s", in->path, c.err[0] != '\0' ? c.err :
		    json_stream_error(js));
		goto out;
	}
	if (rv == 0) {
		cause_set(cause, "%s: not a Chrome trace (an array of events "
		    "or an object with \"traceEvents\": [...])", in->path);
		goto out;
	}
	if ((c.b = profile_builder_create("chrome")) == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(c.b, opts->max_nodes);
	if (c.notobject != SIZE_MAX) {
		snprintf(c.err, sizeof c.err, "events[%zu] is not an object",
		    c.notobject);
		goto builderr;
	}
	if (v != NULL && strcmp(v, "samples") == 0 && !c.profiles) {
		cause_set(cause, "%s: no CPU profile (Profile, ProfileChunk "
		    "or CpuProfile events) in the trace", in->path);
		goto out;
	}
	if (v != NULL && strcmp(v, "events") == 0)
		c.profiles = 0;
	rv = c.profiles ? chrome_samples(&c) : chrome_events(&c);
	if (rv == -1 || chrome_marks(&c) == -1)
		goto builderr;
	p = profile_builder_finish(c.b, cause);
	c.b = NULL;
	goto out;

builderr:
	cause_set(cause, "%s: %s", in->path, c.err[0] != '\0' ? c.err :
	    profile_builder_error(c.b));
out:
	profile_builder_free(c.b);
	chrome_clear(&c);
	free(c.ev.ph.s);
	free(c.ev.name.s);
	free(c.ev.cat.s);
	free(c.ev.id.s);
	free(c.ev.argname.s);
	packed_ints_free(&c.ev.deltas);
	packed_ints_free(&c.ev.lines);
	reader_v8_prof_free(c.ev.cpu);
	json_stream_free(js);
	return (p);
}

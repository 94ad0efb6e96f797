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
#include "hash.h"
#include "idmap.h"
#include "input.h"
#include "json-doc.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "reader-v8.h"
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
 */

#define CHROME_MAX_PROFILES	65536
#define CHROME_MAX_TIME		(INT64_C(1) << 62)

struct chrome_thread {
	int64_t		 pid, tid;
	const char	*name;		/* borrowed, or NULL */
	const char	*process;	/* borrowed process_name, or NULL */
	uint32_t	 node;		/* PROFILE_NONE until used */
	uint32_t	 tl;		/* timeline thread, or PROFILE_NONE */
};

struct chrome_profile {
	int64_t		 pid;
	const char	*id;		/* borrowed */
	uint32_t	 thread;
	json_t		*doc;		/* nodes, samples, timeDeltas, ... */
};

/* A B, E or X event, and later a slice: a span of one thread. */
struct chrome_slice {
	uint32_t	 thread;
	char		 ph;
	int64_t		 start, end;
	size_t		 index;		/* in the file, for stable order */
	json_t		*ev;		/* borrowed */
};

struct chrome {
	struct profile_builder	*b;
	json_t			*events;	/* borrowed */
	struct chrome_thread	*threads;
	size_t			 nthreads, capthreads;
	struct idmap		 bythread;
	struct chrome_profile	*profiles;
	size_t			 nprofiles;
	struct idmap		 byprofile;
	struct chrome_slice	*slices;
	size_t			 nslices;
	int			 mtime, mcalls;
	char			 err[256];
};

static int	chrome_probe(const char *, size_t);
static struct profile *chrome_load(struct input *,
		    const struct reader_options *, char **);
static json_t	*chrome_parse(struct input *, char **);
static int	chrome_number(json_t *, int64_t *);
static uint32_t	chrome_thread(struct chrome *, json_t *);
static uint32_t	chrome_thread_id(struct chrome *, int64_t, int64_t);
static uint32_t	chrome_pid_thread(struct chrome *, int64_t);
static uint32_t	chrome_thread_node(struct chrome *, uint32_t);
static uint32_t	chrome_tl_thread(struct chrome *, uint32_t);
static const char *chrome_process(struct chrome *, uint32_t);
static int	chrome_marks(struct chrome *);
static int	chrome_metadata(struct chrome *);
static int	chrome_samples(struct chrome *);
static int	chrome_events(struct chrome *);
static int	chrome_slice_cmp(const void *, const void *);
static int	chrome_event_cmp(const void *, const void *);
static int	chrome_extend(json_t *, const char *, json_t *);
static int	chrome_lines(json_t *, json_t *);
static int	chrome_span(struct chrome *, uint32_t, uint32_t, int64_t,
		    int64_t);

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

/*
 * The document; an array cut short (Chrome's streaming writer leaves
 * the closing bracket off) is closed and parsed again.
 */
static json_t *
chrome_parse(struct input *in, char **cause)
{
	json_t		*doc;
	json_error_t	 jerr, jerr2;
	char		*text, *t;
	size_t		 len, n;

	if (json_doc_limit(in, "trace", cause) == -1)
		return (NULL);
	if ((text = input_slurp(in, &len, cause)) == NULL)
		return (NULL);
	if ((doc = json_doc_parse(text, len, &jerr)) == NULL &&
	    json_doc_first(text, len) == '[') {
		n = len;
		while (n > 0 && strchr(" \t\r\n", text[n - 1]) != NULL)
			n--;
		if (n > 0 && text[n - 1] == ',')
			n--;
		if ((t = realloc(text, n + 2)) != NULL) {
			text = t;
			text[n] = ']';
			doc = json_doc_parse(text, n + 1, &jerr2);
		}
	}
	free(text);
	if (doc == NULL)
		cause_set(cause, "%s: line %d column %d: %s", in->path,
		    jerr.line, jerr.column, jerr.text);
	return (doc);
}

/* A JSON number as a whole number (rounded); -1 if not one or too big. */
static int
chrome_number(json_t *j, int64_t *v)
{
	double	 d;

	if (json_is_integer(j)) {
		*v = json_integer_value(j);
		return (0);
	}
	if (!json_is_real(j))
		return (-1);
	d = json_real_value(j);
	if (!isfinite(d) || fabs(d) >= 9e18)
		return (-1);
	*v = llround(d);
	return (0);
}

/* The thread of an event (by pid and tid), added on first sight. */
static uint32_t
chrome_thread(struct chrome *c, json_t *ev)
{
	int64_t		 pid = 0, tid = 0;

	if (json_object_get(ev, "pid") != NULL &&
	    chrome_number(json_object_get(ev, "pid"), &pid) == -1)
		pid = (int64_t)hash_bytes(json_string_value(json_object_get(ev,
		    "pid")) ? json_string_value(json_object_get(ev, "pid")) :
		    "", json_string_length(json_object_get(ev, "pid")));
	if (json_object_get(ev, "tid") != NULL &&
	    chrome_number(json_object_get(ev, "tid"), &tid) == -1)
		tid = (int64_t)hash_bytes(json_string_value(json_object_get(ev,
		    "tid")) ? json_string_value(json_object_get(ev, "tid")) :
		    "", json_string_length(json_object_get(ev, "tid")));
	return (chrome_thread_id(c, pid, tid));
}

/* Thread 0 of a process, where its name is kept. */
static uint32_t
chrome_pid_thread(struct chrome *c, int64_t pid)
{
	return (chrome_thread_id(c, pid, 0));
}

/* The thread of a pid and tid, added on first sight. */
static uint32_t
chrome_thread_id(struct chrome *c, int64_t pid, int64_t tid)
{
	struct chrome_thread	*t;
	int64_t			 k[2];
	uint64_t		 h;
	uint32_t		 i;
	size_t			 cap;

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
	if (c->nthreads == c->capthreads) {
		cap = c->capthreads ? c->capthreads * 2 : 16;
		if ((t = reallocarray(c->threads, cap, sizeof *t)) == NULL)
			goto nomem;
		c->threads = t;
		c->capthreads = cap;
	}
	i = (uint32_t)c->nthreads++;
	c->threads[i].pid = pid;
	c->threads[i].tid = tid;
	c->threads[i].name = NULL;
	c->threads[i].process = NULL;
	c->threads[i].node = PROFILE_NONE;
	c->threads[i].tl = PROFILE_NONE;
	if (idmap_get(&c->bythread, h) == IDMAP_NONE &&
	    idmap_put(&c->bythread, h, i) == -1)
		goto nomem;
	return (i);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (PROFILE_NONE);
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
	    c->threads[j].tid == 0)
		return (c->threads[j].process);
	return (NULL);
}

/* Thread i of the timeline (the clock declared), added on first use. */
static uint32_t
chrome_tl_thread(struct chrome *c, uint32_t i)
{
	const char	*name = c->threads[i].name, *proc;

	if (c->threads[i].tl != PROFILE_NONE)
		return (c->threads[i].tl);
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
	const char	*proc;
	char		 label[256];
	uint32_t	 f;

	if (c->threads[i].node != PROFILE_NONE)
		return (c->threads[i].node);
	if (chrome_tl_thread(c, i) == PROFILE_NONE)
		return (PROFILE_NONE);
	proc = chrome_process(c, i);
	snprintf(label, sizeof label, "%.100s (%.100s%spid %lld, tid %lld)",
	    c->threads[i].name != NULL ? c->threads[i].name : "thread",
	    proc != NULL ? proc : "", proc != NULL ? " " : "",
	    (long long)c->threads[i].pid, (long long)c->threads[i].tid);
	if ((f = profile_builder_func(c->b, label, strlen(label), "", 0)) ==
	    PROFILE_NONE)
		return (PROFILE_NONE);
	c->threads[i].node = profile_builder_child(c->b, PROFILE_ROOT, f);
	return (c->threads[i].node);
}

/* Thread names, and whether the file has CPU profile nodes (1) or not (0). */
static int
chrome_metadata(struct chrome *c)
{
	json_t		*ev, *name, *ph, *tn;
	const char	*n;
	uint32_t	 t;
	size_t		 i;
	int64_t		 pid;
	int		 profiles = 0;

	json_array_foreach(c->events, i, ev) {
		if (!json_is_object(ev)) {
			snprintf(c->err, sizeof c->err, "events[%zu] is not an "
			    "object", i);
			return (-1);
		}
		name = json_object_get(ev, "name");
		ph = json_object_get(ev, "ph");
		if (!json_is_string(name) || !json_is_string(ph))
			continue;
		n = json_string_value(name);
		if (strcmp(json_string_value(ph), "M") == 0 &&
		    strcmp(n, "thread_name") == 0) {
			tn = json_object_get(json_object_get(ev, "args"),
			    "name");
			if ((t = chrome_thread(c, ev)) == PROFILE_NONE)
				return (-1);
			if (json_is_string(tn))
				c->threads[t].name = json_string_value(tn);
		} else if (strcmp(json_string_value(ph), "M") == 0 &&
		    strcmp(n, "process_name") == 0) {
			/* Kept with thread 0 of the process. */
			tn = json_object_get(json_object_get(ev, "args"),
			    "name");
			pid = 0;
			if (json_object_get(ev, "pid") != NULL &&
			    chrome_number(json_object_get(ev, "pid"), &pid) == -1)
				continue;
			if ((t = chrome_pid_thread(c, pid)) == PROFILE_NONE)
				return (-1);
			if (json_is_string(tn))
				c->threads[t].process = json_string_value(tn);
		} else if (strcmp(n, "ProfileChunk") == 0 ||
		    strcmp(n, "CpuProfile") == 0) {
			/* Only profiles with nodes: a Profile event alone is not. */
			if (json_array_size(json_object_get(json_object_get(
			    json_object_get(json_object_get(ev, "args"), "data"),
			    "cpuProfile"), "nodes")) > 0)
				profiles = 1;
		}
	}
	return (profiles);
}

/* Append the elements of array from to array to (both may be NULL). */
static int
chrome_extend(json_t *obj, const char *key, json_t *from)
{
	json_t	*to;

	if (from == NULL)
		return (0);
	if (!json_is_array(from))
		return (-1);
	if ((to = json_object_get(obj, key)) == NULL) {
		if (json_object_set_new(obj, key, json_array()) == -1)
			return (-1);
		to = json_object_get(obj, key);
	}
	return (json_array_extend(to, from));
}

/*
 * A chunk's "lines" after its samples, a 0 (unknown) for each sample of
 * a chunk without them, so that the lines stay the samples' (v8_lines).
 */
static int
chrome_lines(json_t *obj, json_t *from)
{
	json_t	*to;
	size_t	 n;

	if (chrome_extend(obj, "lines", from) == -1)
		return (-1);
	n = json_array_size(json_object_get(obj, "samples"));
	if ((to = json_object_get(obj, "lines")) == NULL)
		return (0);
	while (json_array_size(to) < n) {
		if (json_array_append_new(to, json_integer(0)) == -1)
			return (-1);
	}
	return (0);
}

/* The CPU profiles: Profile, ProfileChunk and CpuProfile events. */
static int
chrome_samples(struct chrome *c)
{
	struct chrome_profile	*pr;
	json_t			*ev, *data, *cpu, *idj;
	const char		*n, *id;
	char			 err[256];
	int64_t			 pid, v;
	uint64_t		 h;
	uint32_t		 i, t, node;
	size_t			 j, k;

	/* The V8 reader's metrics, in its order; the trace's clock. */
	if (profile_builder_metric(c->b, "samples", "count") == -1 ||
	    profile_builder_metric(c->b, "time", "us") == -1 ||
	    profile_builder_clock(c->b, "us", 1e6) == -1)
		return (-1);
	json_array_foreach(c->events, j, ev) {
		n = json_string_value(json_object_get(ev, "name"));
		if (n == NULL)
			continue;
		data = json_object_get(json_object_get(ev, "args"), "data");
		if (strcmp(n, "CpuProfile") == 0) {
			/* A whole profile in one event (Chrome before 2018). */
			cpu = json_object_get(data, "cpuProfile");
			if ((t = chrome_thread(c, ev)) == PROFILE_NONE ||
			    (node = chrome_thread_node(c, t)) == PROFILE_NONE)
				return (-1);
			if (reader_v8_profile(c->b, node, c->threads[t].tl,
			    cpu, err, sizeof err) == -1)
				goto v8err;
			continue;
		}
		if (strcmp(n, "Profile") != 0 && strcmp(n, "ProfileChunk") != 0)
			continue;
		idj = json_object_get(ev, "id");
		id = json_is_string(idj) ? json_string_value(idj) : "";
		pid = 0;
		if (json_object_get(ev, "pid") != NULL)
			(void)chrome_number(json_object_get(ev, "pid"), &pid);
		h = hash_bytes(id, strlen(id)) ^ idmap_hash((uint64_t)pid);
		i = idmap_get(&c->byprofile, h);
		if (i != IDMAP_NONE && (c->profiles[i].pid != pid ||
		    strcmp(c->profiles[i].id, id) != 0)) {
			snprintf(c->err, sizeof c->err, "events[%zu]: profile "
			    "ids %s and %s collide", j, id, c->profiles[i].id);
			return (-1);
		}
		if (i == IDMAP_NONE) {
			if (c->nprofiles == CHROME_MAX_PROFILES) {
				snprintf(c->err, sizeof c->err, "more than %d "
				    "CPU profiles", CHROME_MAX_PROFILES);
				return (-1);
			}
			if ((pr = reallocarray(c->profiles, c->nprofiles + 1,
			    sizeof *pr)) == NULL)
				goto nomem;
			c->profiles = pr;
			i = (uint32_t)c->nprofiles++;
			pr = &c->profiles[i];
			pr->pid = pid;
			pr->id = id;
			pr->thread = PROFILE_NONE;
			if ((pr->doc = json_object()) == NULL ||
			    idmap_put(&c->byprofile, h, i) == -1)
				goto nomem;
		}
		pr = &c->profiles[i];
		/* The Profile event's thread is the profiled one. */
		if (strcmp(n, "Profile") == 0 || pr->thread == PROFILE_NONE) {
			if ((pr->thread = chrome_thread(c, ev)) == PROFILE_NONE)
				return (-1);
		}
		if (chrome_number(json_object_get(data, "startTime"), &v) == 0 &&
		    json_object_set_new(pr->doc, "startTime",
		    json_integer(v)) == -1)
			goto nomem;
		if (chrome_number(json_object_get(data, "endTime"), &v) == 0 &&
		    json_object_set_new(pr->doc, "endTime",
		    json_integer(v)) == -1)
			goto nomem;
		cpu = json_object_get(data, "cpuProfile");
		if (chrome_extend(pr->doc, "nodes", json_object_get(cpu,
		    "nodes")) == -1 || chrome_extend(pr->doc, "samples",
		    json_object_get(cpu, "samples")) == -1 ||
		    chrome_extend(pr->doc, "timeDeltas", json_object_get(data,
		    "timeDeltas")) == -1 ||
		    chrome_lines(pr->doc, json_object_get(data, "lines")) ==
		    -1) {
			snprintf(c->err, sizeof c->err, "events[%zu]: nodes, "
			    "samples or timeDeltas not an array", j);
			return (-1);
		}
	}
	for (k = 0; k < c->nprofiles; k++) {
		pr = &c->profiles[k];
		/* A Profile event whose chunks never came: no samples. */
		if (json_object_get(pr->doc, "nodes") == NULL)
			continue;
		if ((node = chrome_thread_node(c, pr->thread)) == PROFILE_NONE)
			return (-1);
		if (reader_v8_profile(c->b, node, c->threads[pr->thread].tl,
		    pr->doc, err, sizeof err) == -1)
			goto v8err;
	}
	return (0);
v8err:
	if (err[0] != '\0')
		snprintf(c->err, sizeof c->err, "CPU profile: %.200s", err);
	return (-1);
nomem:
	snprintf(c->err, sizeof c->err, "out of memory");
	return (-1);
}

/* B/E/X events: by thread, then time, then file order. */
static int
chrome_event_cmp(const void *a, const void *b)
{
	const struct chrome_slice	*x = a, *y = b;

	if (x->thread != y->thread)
		return (x->thread < y->thread ? -1 : 1);
	if (x->start != y->start)
		return (x->start < y->start ? -1 : 1);
	return (x->index < y->index ? -1 : x->index > y->index);
}

/* Slices: by thread, then start, the longer (the parent) first. */
static int
chrome_slice_cmp(const void *a, const void *b)
{
	const struct chrome_slice	*x = a, *y = b;

	if (x->thread != y->thread)
		return (x->thread < y->thread ? -1 : 1);
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

/* The duration events as call trees, one per thread. */
static int
chrome_events(struct chrome *c)
{
	struct chrome_slice	*s, *open = NULL;
	struct {
		uint32_t	 node;
		int64_t		 end;
	}			*stack = NULL;
	json_t			*ev, *ph, *name, *cat;
	size_t			 i, j, n = 0, depth, nopen = 0, first;
	int64_t			 ts, dur, last = 0, tend;
	uint32_t		 f, node, t, th = PROFILE_NONE;
	const char		*p, *nm, *ct;
	int			 rv = -1;

	if ((c->mtime = profile_builder_metric(c->b, "time", "us")) == -1 ||
	    (c->mcalls = profile_builder_metric(c->b, "calls", "count")) == -1 ||
	    profile_builder_clock(c->b, "us", 1e6) == -1 ||
	    profile_builder_time_mode(c->b, c->mtime, TIMELINE_SPAN) == -1 ||
	    profile_builder_time_mode(c->b, c->mcalls, TIMELINE_WEIGHT) == -1)
		return (-1);
	if ((c->slices = calloc(json_array_size(c->events) + 1,
	    sizeof *c->slices)) == NULL)
		goto nomem;
	json_array_foreach(c->events, i, ev) {
		ph = json_object_get(ev, "ph");
		p = json_string_value(ph);
		if (p == NULL || (strcmp(p, "B") != 0 && strcmp(p, "E") != 0 &&
		    strcmp(p, "X") != 0))
			continue;
		/* Within 2^62, so that the difference of two times fits. */
		if (chrome_number(json_object_get(ev, "ts"), &ts) == -1 ||
		    ts <= -CHROME_MAX_TIME || ts >= CHROME_MAX_TIME) {
			snprintf(c->err, sizeof c->err, "events[%zu]: no "
			    "number ts within 2^62 us", i);
			goto out;
		}
		dur = 0;
		if (*p == 'X' && json_object_get(ev, "dur") != NULL) {
			double	 d = json_number_value(json_object_get(ev,
				    "ts")) + json_number_value(
				    json_object_get(ev, "dur"));

			if (!json_is_number(json_object_get(ev, "dur")) ||
			    !isfinite(d) || fabs(d) >= 9e18 ||
			    json_number_value(json_object_get(ev, "dur")) < 0) {
				snprintf(c->err, sizeof c->err, "events[%zu]: "
				    "dur is not a number of us", i);
				goto out;
			}
			/* The end rounded as the start is. */
			dur = json_is_integer(json_object_get(ev, "ts")) &&
			    json_is_integer(json_object_get(ev, "dur")) ?
			    json_integer_value(json_object_get(ev, "dur")) :
			    llround(d) - ts;
			if (dur < 0 || __builtin_add_overflow(ts, dur, &tend) ||
			    tend >= CHROME_MAX_TIME) {
				snprintf(c->err, sizeof c->err, "events[%zu]: "
				    "dur out of range", i);
				goto out;
			}
		}
		if ((t = chrome_thread(c, ev)) == PROFILE_NONE)
			goto out;
		s = &c->slices[n++];
		s->thread = t;
		s->ph = *p;
		s->start = ts;
		s->end = ts + dur;
		s->index = i;
		s->ev = ev;
	}
	if (n == 0) {
		snprintf(c->err, sizeof c->err, "no duration events (B/E or X) "
		    "and no CPU profile");
		goto out;
	}

	/* Pair each thread's B and E events into slices, in time order. */
	qsort(c->slices, n, sizeof *c->slices, chrome_event_cmp);
	if ((open = calloc(n, sizeof *open)) == NULL ||
	    (stack = calloc(n, sizeof *stack)) == NULL)
		goto nomem;
	for (i = 0, j = 0; i < n; i = first) {
		first = i;
		nopen = 0;
		tend = c->slices[i].start;
		for (; first < n && c->slices[first].thread ==
		    c->slices[i].thread; first++) {
			s = &c->slices[first];
			if (s->end > tend)
				tend = s->end;
			if (s->ph == 'B')
				open[nopen++] = *s;
			else if (s->ph == 'E') {
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
	n = j;
	c->nslices = n;

	/* Nest each thread's slices, parents first. */
	qsort(c->slices, n, sizeof *c->slices, chrome_slice_cmp);
	depth = 0;
	for (i = 0; i < n; i++) {
		s = &c->slices[i];
		if (i == 0 || s->thread != c->slices[i - 1].thread) {
			while (depth > 0) {
				depth--;
				if (chrome_span(c, stack[depth].node, th, last,
				    stack[depth].end - last) == -1)
					goto out;
				last = stack[depth].end;
			}
			if ((th = chrome_tl_thread(c, s->thread)) ==
			    PROFILE_NONE)
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
		} else if ((node = chrome_thread_node(c, s->thread)) ==
		    PROFILE_NONE)
			goto out;
		last = s->start;
		name = json_object_get(s->ev, "name");
		cat = json_object_get(s->ev, "cat");
		nm = json_is_string(name) ? json_string_value(name) :
		    "(unnamed)";
		ct = json_is_string(cat) ? json_string_value(cat) : "";
		if ((f = profile_builder_func(c->b, nm, json_is_string(name) ?
		    json_string_length(name) : strlen(nm), ct,
		    json_is_string(cat) ? json_string_length(cat) : 0)) ==
		    PROFILE_NONE || (node = profile_builder_child(c->b, node,
		    f)) == PROFILE_NONE ||
		    profile_builder_add(c->b, node, c->mcalls, 1) == -1 ||
		    profile_builder_timed(c->b, node, th, s->start, 0, 1) == -1)
			goto out;
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
	free(open);
	free(stack);
	return (rv);
}

/*
 * The instant events (ph "i", "I", "R"): markers on the timeline, each
 * its name at its time on its thread.
 */
static int
chrome_marks(struct chrome *c)
{
	json_t		*ev, *name;
	const char	*p;
	size_t		 i;
	int64_t		 ts;
	uint32_t	 t, th;

	if (profile_builder_clock(c->b, "us", 1e6) == -1)
		return (-1);
	json_array_foreach(c->events, i, ev) {
		p = json_string_value(json_object_get(ev, "ph"));
		if (p == NULL || (strcmp(p, "i") != 0 && strcmp(p, "I") != 0 &&
		    strcmp(p, "R") != 0) || chrome_number(json_object_get(ev,
		    "ts"), &ts) == -1 || ts <= -CHROME_MAX_TIME ||
		    ts >= CHROME_MAX_TIME)
			continue;
		name = json_object_get(ev, "name");
		if ((t = chrome_thread(c, ev)) == PROFILE_NONE ||
		    (th = chrome_tl_thread(c, t)) == PROFILE_NONE ||
		    profile_builder_mark(c->b, th, ts, json_is_string(name) ?
		    json_string_value(name) : "(unnamed)", json_is_string(name) ?
		    json_string_length(name) : 9) == -1)
			return (-1);
	}
	return (0);
}

static struct profile *
chrome_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct chrome	 c;
	struct profile	*p = NULL;
	json_t		*doc;
	const char	*v = opts->variant;
	size_t		 i;
	int		 profiles, rv;

	memset(&c, 0, sizeof c);
	idmap_init(&c.bythread);
	idmap_init(&c.byprofile);
	if (v != NULL && *v != '\0' && strcmp(v, "samples") != 0 &&
	    strcmp(v, "events") != 0) {
		cause_set(cause, "%s: unknown variant \"%s\" (samples or "
		    "events)", in->path, v);
		return (NULL);
	}
	if ((doc = chrome_parse(in, cause)) == NULL)
		return (NULL);
	c.events = json_is_array(doc) ? doc : json_object_get(doc,
	    "traceEvents");
	if (!json_is_array(c.events)) {
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
	if ((profiles = chrome_metadata(&c)) == -1)
		goto builderr;
	if (v != NULL && strcmp(v, "samples") == 0 && !profiles) {
		cause_set(cause, "%s: no CPU profile (Profile, ProfileChunk "
		    "or CpuProfile events) in the trace", in->path);
		goto out;
	}
	if (v != NULL && strcmp(v, "events") == 0)
		profiles = 0;
	rv = profiles ? chrome_samples(&c) : chrome_events(&c);
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
	for (i = 0; i < c.nprofiles; i++)
		json_decref(c.profiles[i].doc);
	free(c.profiles);
	free(c.threads);
	free(c.slices);
	idmap_clear(&c.bythread);
	idmap_clear(&c.byprofile);
	json_decref(doc);
	return (p);
}

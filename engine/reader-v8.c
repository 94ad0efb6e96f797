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

#include "cause.h"
#include "idmap.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "reader-v8.h"
#include "timeline.h"

/*
 * V8 CPU profiles (.cpuprofile: node --cpu-prof, Chrome DevTools, the
 * CDP Profiler.Profile object). "nodes" is a flat list of call-tree nodes
 * linked by "children" ids (or by "parent" ids, as in Chrome trace
 * chunks), the first being "(root)"; "samples" holds the node id of the
 * top frame of each sample in time order and "timeDeltas" the
 * microseconds since the previous sample (the first since "startTime").
 *
 * Metrics: samples (one per entry of "samples": hitCount is not used, as
 * node 20 writes hitCounts that disagree with samples) and time in
 * microseconds, each sample lasting until the next one and the last
 * until "endTime". A sample's timestamp is startTime plus the running
 * sum of the deltas. Real files have negative deltas (the sampler thread
 * and the clock race): a timestamp before the previous one is taken as
 * the previous one, so the sample before it lasts 0 us and later
 * timestamps are not shifted; the time total is exactly the span from
 * the first sample to the latest of endTime and the timestamps. Chrome
 * DevTools sorts such samples by time instead; we keep the file's order
 * (runs of one node merged) as the sample sequence for flame charts,
 * and each sample at its timestamp, lasting as its time says, on one
 * thread ("main"; the Chrome reader's thread) as the profile's timeline.
 *
 * A function is its functionName ("(anonymous)" when empty) and its url,
 * the module being the url's file ("file://" dropped); lineNumber is
 * 0-based in the file and stored 1-based, -1 becoming 0 (unknown).
 * "(root)" is our root; "(program)", "(idle)" and "(garbage collector)"
 * stay functions of their own.
 *
 * Costs by source line (lines.h): a node's "positionTicks" ({line,
 * ticks}, 1-based lines) are its samples by line of its url; the time of
 * the node is shared over its lines in proportion to their ticks (an
 * estimate: a tick has no duration of its own). Where the samples carry
 * their own lines instead (a Chrome trace's ProfileChunk "lines", 0 for
 * unknown), each sample counts at its line with its duration. The call
 * a node's parent made is not at a line the file records: the rows have
 * self costs only, and their total is their self.
 *
 * Lost: columns, scriptId, deoptReason, hitCount.
 */

#define V8_NONE		UINT32_MAX
/* jansson takes about 15 times the text: this bounds a load to ~15 GiB. */
#define V8_MAX_FILE	(1024 * 1024 * 1024)

struct v8 {
	struct profile_builder	*b;
	uint32_t		 root;		/* builder node of "(root)" */
	json_t			**nodes;	/* borrowed */
	size_t			 nnodes;
	uint32_t		*parent;	/* index, or V8_NONE */
	uint32_t		*built;		/* builder node, or V8_NONE */
	uint8_t			*state;
	uint32_t		 thread;	/* timeline thread */
	/* Per node, for the lines: its time and its function. */
	int64_t			*ntime;
	uint32_t		*func;
	int			 msamples, mtime;
	json_t			*lines;		/* the samples' lines, or NULL */
	struct idmap		 byid;
	char			 err[256];
};

static int	v8_probe(const char *, size_t);
static struct profile *v8_load(struct input *, const struct reader_options *,
		    char **);
static int	v8_link(struct v8 *, size_t, uint32_t);
static int	v8_index(struct v8 *, json_t *, uint32_t *);
static uint32_t	v8_func(struct v8 *, json_t *);
static int	v8_build(struct v8 *);
static int	v8_samples(struct v8 *, json_t *);
static uint32_t	v8_line_frame(struct v8 *, uint32_t, json_int_t);
static int	v8_sample_line(struct v8 *, size_t, uint32_t, int, int64_t);
static int	v8_ticks(struct v8 *);

const struct reader reader_v8 = {
	.name = "v8",
	.description = "V8 / node / Chrome CPU profile (.cpuprofile)",
	.probe = v8_probe,
	.load = v8_load,
};

static int
v8_probe(const char *buf, size_t len)
{
	size_t	 i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
	    buf[i] == '\r'))
		i++;
	if (i == len || buf[i] != '{')
		return (0);
	if (memmem(buf, len, "\"nodes\"", 7) != NULL &&
	    memmem(buf, len, "\"callFrame\"", 11) != NULL)
		return (95);
	if (memmem(buf, len, "\"samples\"", 9) != NULL &&
	    memmem(buf, len, "\"timeDeltas\"", 12) != NULL)
		return (70);
	return (0);
}

/* The index of the node with id j; -1 with an error if none. */
static int
v8_index(struct v8 *v, json_t *j, uint32_t *idx)
{
	if (!json_is_integer(j) || (*idx = idmap_get(&v->byid,
	    (uint64_t)json_integer_value(j))) == IDMAP_NONE) {
		if (json_is_integer(j))
			snprintf(v->err, sizeof v->err, "node id %lld is not "
			    "in \"nodes\"", (long long)json_integer_value(j));
		else
			snprintf(v->err, sizeof v->err, "a node id is not an "
			    "integer");
		return (-1);
	}
	return (0);
}

/* Make parent the parent of child; a node has one parent. */
static int
v8_link(struct v8 *v, size_t child, uint32_t parent)
{
	if (child == 0) {
		snprintf(v->err, sizeof v->err, "the first node (the root) is "
		    "a child of another");
		return (-1);
	}
	if (v->parent[child] != V8_NONE && v->parent[child] != parent) {
		snprintf(v->err, sizeof v->err, "nodes[%zu] has two parents",
		    child);
		return (-1);
	}
	v->parent[child] = parent;
	return (0);
}

/* The function of a node's callFrame. */
static uint32_t
v8_func(struct v8 *v, json_t *node)
{
	json_t		*cf, *name, *url, *line;
	const char	*n, *u;
	size_t		 nl, ul;
	uint32_t	 f;
	json_int_t	 ln = -1;

	cf = json_object_get(node, "callFrame");
	name = json_object_get(cf, "functionName");
	url = json_object_get(cf, "url");
	line = json_object_get(cf, "lineNumber");
	if (!json_is_object(cf) || (name != NULL && !json_is_string(name)) ||
	    (url != NULL && !json_is_string(url)) ||
	    (line != NULL && !json_is_integer(line))) {
		snprintf(v->err, sizeof v->err, "a node without a callFrame "
		    "of string functionName and url and integer lineNumber");
		return (PROFILE_NONE);
	}
	n = name != NULL ? json_string_value(name) : "";
	nl = name != NULL ? json_string_length(name) : 0;
	if (nl == 0) {
		n = "(anonymous)";
		nl = strlen(n);
	}
	u = url != NULL ? json_string_value(url) : "";
	ul = url != NULL ? json_string_length(url) : 0;
	if (ul >= 7 && memcmp(u, "file://", 7) == 0) {
		u += 7;
		ul -= 7;
	}
	if ((f = profile_builder_func(v->b, n, nl, u, ul)) == PROFILE_NONE)
		return (PROFILE_NONE);
	if (line != NULL)
		ln = json_integer_value(line);
	profile_builder_func_location(v->b, f, ul ? u : NULL, ul,
	    ln >= 0 && ln < UINT32_MAX ? (uint32_t)ln + 1 : 0);
	return (f);
}

/*
 * Builder nodes for every node, parents first: walk up from each node to
 * a built one, then build down that path. A path longer than the node
 * count is a cycle.
 */
static int
v8_build(struct v8 *v)
{
	uint32_t	*path = NULL, cur, f, pnode;
	size_t		 i, n;
	json_t		*name;
	int		 rv = -1;

	if ((path = calloc(v->nnodes, sizeof *path)) == NULL)
		return (-1);
	/* The first node is the root; "(root)" is ours. */
	name = json_object_get(json_object_get(v->nodes[0], "callFrame"),
	    "functionName");
	if (json_is_string(name) && strcmp(json_string_value(name), "(root)")
	    == 0)
		v->built[0] = v->root;
	for (i = 0; i < v->nnodes; i++) {
		n = 0;
		for (cur = i; cur != V8_NONE && v->built[cur] == V8_NONE;
		    cur = v->parent[cur]) {
			if (v->state[cur]) {
				snprintf(v->err, sizeof v->err, "nodes[%u] is "
				    "its own ancestor", cur);
				goto out;
			}
			v->state[cur] = 1;
			path[n++] = cur;
		}
		while (n > 0) {
			cur = path[--n];
			pnode = v->parent[cur] == V8_NONE ? v->root :
			    v->built[v->parent[cur]];
			if ((f = v8_func(v, v->nodes[cur])) == PROFILE_NONE ||
			    (v->built[cur] = profile_builder_child(v->b, pnode,
			    f)) == PROFILE_NONE)
				goto out;
			v->func[cur] = f;
		}
	}
	rv = 0;
out:
	free(path);
	return (rv);
}

/* Samples and their durations, in file order. */
static int
v8_samples(struct v8 *v, json_t *doc)
{
	json_t		*samples, *deltas, *j;
	int		 msamples, mtime = -1;
	int64_t		 raw, t, prev = 0, end = 0, d, run = 0, dur;
	uint32_t	 idx, node, last = PROFILE_NONE, prevnode = PROFILE_NONE;
	uint32_t	 previdx = V8_NONE;
	size_t		 i, n;
	int		 hasend;

	samples = json_object_get(doc, "samples");
	deltas = json_object_get(doc, "timeDeltas");
	if (samples == NULL)
		samples = json_array();		/* a profile with no samples */
	else
		json_incref(samples);
	if (!json_is_array(samples) || (deltas != NULL &&
	    !json_is_array(deltas))) {
		snprintf(v->err, sizeof v->err, "\"samples\" and \"timeDeltas\" "
		    "must be arrays");
		goto fail;
	}
	n = json_array_size(samples);
	if (deltas != NULL && json_array_size(deltas) != n) {
		snprintf(v->err, sizeof v->err, "\"timeDeltas\" has %zu "
		    "entries and \"samples\" %zu", json_array_size(deltas), n);
		goto fail;
	}
	if ((msamples = profile_builder_metric(v->b, "samples", "count")) ==
	    -1 || (deltas != NULL && (mtime = profile_builder_metric(v->b,
	    "time", "us")) == -1))
		goto fail;
	/* Each sample's time and thread, with the deltas (timeline.h). */
	if (mtime != -1 && (profile_builder_clock(v->b, "us", 1e6) == -1 ||
	    profile_builder_time_mode(v->b, msamples, TIMELINE_WEIGHT) == -1 ||
	    profile_builder_time_mode(v->b, mtime, TIMELINE_SPAN) == -1 ||
	    (v->thread == PROFILE_NONE && (v->thread = profile_builder_thread(
	    v->b, "main", 4, "", 0, -1, -1)) == PROFILE_NONE)))
		goto fail;
	v->msamples = msamples;
	v->mtime = mtime;
	v->lines = json_object_get(doc, "lines");
	if (v->lines != NULL && (!json_is_array(v->lines) ||
	    json_array_size(v->lines) != n))
		v->lines = NULL;	/* not the samples' lines */
	j = json_object_get(doc, "startTime");
	raw = json_is_integer(j) ? json_integer_value(j) : 0;
	j = json_object_get(doc, "endTime");
	hasend = json_is_integer(j);
	if (hasend)
		end = json_integer_value(j);

	for (i = 0; i < n; i++) {
		if (v8_index(v, json_array_get(samples, i), &idx) == -1) {
			snprintf(v->err + strlen(v->err), sizeof v->err -
			    strlen(v->err), " (samples[%zu])", i);
			goto fail;
		}
		if ((node = v->built[idx]) == V8_NONE)
			goto fail;
		if (profile_builder_add(v->b, node, msamples, 1) == -1 ||
		    v8_sample_line(v, i, idx, msamples, 1) == -1)
			goto fail;
		if (node != last && run > 0 &&
		    profile_builder_sample(v->b, last, run) == -1)
			goto fail;
		run = node == last ? run + 1 : 1;
		last = node;
		if (mtime == -1)
			continue;

		/* This sample's timestamp, never before the previous one. */
		j = json_array_get(deltas, i);
		if (!json_is_integer(j)) {
			snprintf(v->err, sizeof v->err, "timeDeltas[%zu] is not "
			    "an integer", i);
			goto fail;
		}
		if (__builtin_add_overflow(raw, json_integer_value(j), &raw))
			goto overflow;
		t = i > 0 && raw < prev ? prev : raw;
		if (i > 0) {
			if (__builtin_sub_overflow(t, prev, &dur))
				goto overflow;
			if (dur != 0 && (profile_builder_add(v->b, prevnode,
			    mtime, dur) == -1 || v8_sample_line(v, i - 1,
			    previdx, mtime, dur) == -1))
				goto fail;
			v->ntime[previdx] += dur;
			if (profile_builder_timed(v->b, prevnode, v->thread,
			    prev, dur, 1) == -1)
				goto fail;
		}
		prev = t;
		prevnode = node;
		previdx = idx;
	}
	d = 0;
	if (n > 0 && mtime != -1 && hasend && end > prev) {
		if (__builtin_sub_overflow(end, prev, &d))
			goto overflow;
		if (profile_builder_add(v->b, last, mtime, d) == -1 ||
		    v8_sample_line(v, n - 1, previdx, mtime, d) == -1)
			goto fail;
		v->ntime[previdx] += d;
	}
	if (n > 0 && mtime != -1 &&
	    profile_builder_timed(v->b, last, v->thread, prev, d, 1) == -1)
		goto fail;
	if (run > 0 && profile_builder_sample(v->b, last, run) == -1)
		goto fail;
	json_decref(samples);
	return (0);
overflow:
	snprintf(v->err, sizeof v->err, "timestamps overflow 64 bits");
fail:
	json_decref(samples);
	return (-1);
}

/* The line frame of function f at 1-based line ln of node idx's url. */
static uint32_t
v8_line_frame(struct v8 *v, uint32_t idx, json_int_t ln)
{
	return (profile_builder_line_frame(v->b, v->func[idx],
	    profile_builder_func_file(v->b, v->func[idx]),
	    ln > 0 && ln < UINT32_MAX ? (uint32_t)ln : 0));
}

/*
 * Sample i's line, when the samples have lines (Chrome's ProfileChunk):
 * v more of metric m at that line of node idx's function.
 */
static int
v8_sample_line(struct v8 *v, size_t i, uint32_t idx, int m, int64_t x)
{
	json_t		*j;
	uint32_t	 fr;

	if (v->lines == NULL || idx == V8_NONE || x == 0 ||
	    v->func[idx] == PROFILE_NONE)
		return (0);
	j = json_array_get(v->lines, i);
	if (!json_is_integer(j) || json_integer_value(j) <= 0)
		return (0);
	if ((fr = v8_line_frame(v, idx, json_integer_value(j))) ==
	    PROFILE_NONE || profile_builder_line_self(v->b, fr, m, x) == -1)
		return (-1);
	return (0);
}

/*
 * The nodes' positionTicks, when the samples have no lines: each
 * line's ticks as samples, and its share of the node's time (the
 * shares rounded so that they add up to the node's time).
 */
static int
v8_ticks(struct v8 *v)
{
	json_t		*pt, *e, *ln, *tk;
	size_t		 i, k;
	int64_t		 sum, cum, t, prev, now;
	uint32_t	 fr;

	if (v->lines != NULL)
		return (0);
	for (i = 0; i < v->nnodes; i++) {
		pt = json_object_get(v->nodes[i], "positionTicks");
		if (!json_is_array(pt) || v->built[i] == V8_NONE ||
		    v->func[i] == PROFILE_NONE)
			continue;
		for (sum = 0, k = 0; k < json_array_size(pt); k++) {
			tk = json_object_get(json_array_get(pt, k), "ticks");
			if (json_is_integer(tk) && json_integer_value(tk) > 0 &&
			    __builtin_add_overflow(sum,
			    json_integer_value(tk), &sum)) {
				snprintf(v->err, sizeof v->err, "nodes[%zu]: "
				    "positionTicks overflow", i);
				return (-1);
			}
		}
		for (cum = 0, prev = 0, k = 0; k < json_array_size(pt); k++) {
			e = json_array_get(pt, k);
			ln = json_object_get(e, "line");
			tk = json_object_get(e, "ticks");
			if (!json_is_integer(ln) || !json_is_integer(tk) ||
			    json_integer_value(tk) <= 0 ||
			    json_integer_value(ln) <= 0)
				continue;
			t = json_integer_value(tk);
			if ((fr = v8_line_frame(v, i, json_integer_value(ln)))
			    == PROFILE_NONE ||
			    profile_builder_line_self(v->b, fr, v->msamples,
			    t) == -1)
				return (-1);
			if (v->mtime == -1 || v->ntime[i] <= 0)
				continue;
			cum += t;
			now = (int64_t)((__int128)v->ntime[i] * cum / sum);
			if (now != prev && profile_builder_line_self(v->b, fr,
			    v->mtime, now - prev) == -1)
				return (-1);
			prev = now;
		}
	}
	return (0);
}

/*
 * Build a CPU profile object (nodes, samples, timeDeltas, startTime,
 * endTime) under builder node root, which stands for its "(root)" node:
 * the .cpuprofile loader passes the profile's root, the Chrome trace
 * reader a thread's node. 0, or -1 with the reason in err (empty when
 * the builder's error says it).
 */
int
reader_v8_profile(struct profile_builder *b, uint32_t root, uint32_t thread,
    json_t *doc, char *err, size_t errlen)
{
	struct v8	 v;
	json_t		*nodes, *node, *kids, *k, *id, *par;
	size_t		 i, c;
	uint32_t	 idx;
	int		 rv = -1;

	memset(&v, 0, sizeof v);
	v.b = b;
	v.root = root;
	v.thread = thread;
	idmap_init(&v.byid);
	nodes = json_object_get(doc, "nodes");
	if (!json_is_object(doc) || !json_is_array(nodes) ||
	    json_array_size(nodes) == 0) {
		snprintf(v.err, sizeof v.err, "not a V8 CPU profile (an object "
		    "with a non-empty \"nodes\" array)");
		goto out;
	}
	v.nnodes = json_array_size(nodes);
	if ((v.nodes = calloc(v.nnodes, sizeof *v.nodes)) == NULL ||
	    (v.parent = malloc(v.nnodes * sizeof *v.parent)) == NULL ||
	    (v.built = malloc(v.nnodes * sizeof *v.built)) == NULL ||
	    (v.state = calloc(v.nnodes, sizeof *v.state)) == NULL ||
	    (v.ntime = calloc(v.nnodes, sizeof *v.ntime)) == NULL ||
	    (v.func = malloc(v.nnodes * sizeof *v.func)) == NULL)
		goto nomem;
	memset(v.parent, 0xff, v.nnodes * sizeof *v.parent);
	memset(v.built, 0xff, v.nnodes * sizeof *v.built);
	memset(v.func, 0xff, v.nnodes * sizeof *v.func);

	/* Index the ids, then link parents from children (or parent) ids. */
	json_array_foreach(nodes, i, node) {
		id = json_object_get(node, "id");
		if (!json_is_object(node) || !json_is_integer(id)) {
			snprintf(v.err, sizeof v.err, "nodes[%zu]: not an object "
			    "with an integer id", i);
			goto out;
		}
		if (idmap_get(&v.byid, (uint64_t)json_integer_value(id)) !=
		    IDMAP_NONE) {
			snprintf(v.err, sizeof v.err, "nodes[%zu]: id %lld "
			    "appears twice", i, (long long)json_integer_value(id));
			goto out;
		}
		if (idmap_put(&v.byid, (uint64_t)json_integer_value(id),
		    (uint32_t)i) == -1)
			goto nomem;
		v.nodes[i] = node;
	}
	json_array_foreach(nodes, i, node) {
		kids = json_object_get(node, "children");
		if (kids != NULL && !json_is_array(kids)) {
			snprintf(v.err, sizeof v.err, "nodes[%zu]: \"children\" "
			    "is not an array", i);
			goto out;
		}
		json_array_foreach(kids, c, k) {
			if (v8_index(&v, k, &idx) == -1 ||
			    v8_link(&v, idx, (uint32_t)i) == -1)
				goto out;
		}
		if ((par = json_object_get(node, "parent")) != NULL) {
			if (v8_index(&v, par, &idx) == -1 ||
			    v8_link(&v, i, idx) == -1)
				goto out;
		}
	}
	if (v8_build(&v) == -1 || v8_samples(&v, doc) == -1 ||
	    v8_ticks(&v) == -1)
		goto out;
	rv = 0;
	goto out;
nomem:
	snprintf(v.err, sizeof v.err, "out of memory");
out:
	snprintf(err, errlen, "%s", v.err);
	idmap_clear(&v.byid);
	free(v.nodes);
	free(v.parent);
	free(v.built);
	free(v.state);
	free(v.ntime);
	free(v.func);
	return (rv);
}

static struct profile *
v8_load(struct input *in, const struct reader_options *opts, char **cause)
{
	struct profile_builder	*b;
	struct profile		*p = NULL;
	json_t			*doc;
	json_error_t		 jerr;
	char			*text, err[256];
	size_t			 len;

	if (in->size > V8_MAX_FILE) {
		cause_set(cause, "%s: %llu bytes, more than the %d MiB a "
		    "V8 profile may have (jansson holds it all in memory)",
		    in->path, (unsigned long long)in->size,
		    V8_MAX_FILE >> 20);
		return (NULL);
	}
	if ((text = input_slurp_max(in, V8_MAX_FILE, &len, cause)) == NULL)
		return (NULL);
	doc = json_loadb(text, len, 0, &jerr);
	free(text);
	if (doc == NULL) {
		cause_set(cause, "%s: line %d column %d: %s", in->path,
		    jerr.line, jerr.column, jerr.text);
		return (NULL);
	}
	if ((b = profile_builder_create("v8")) == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(b, opts->max_nodes);
	if (reader_v8_profile(b, PROFILE_ROOT, PROFILE_NONE, doc, err,
	    sizeof err) == -1) {
		cause_set(cause, "%s: %s", in->path, err[0] != '\0' ? err :
		    profile_builder_error(b));
		goto out;
	}
	p = profile_builder_finish(b, cause);
	b = NULL;
out:
	profile_builder_free(b);
	json_decref(doc);
	return (p);
}

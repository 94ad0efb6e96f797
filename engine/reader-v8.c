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

#include "cause.h"
#include "idmap.h"
#include "input.h"
#include "json-doc.h"
#include "json-stream.h"
#include "packed.h"
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
 * Lost: columns, scriptId, deoptReason, hitCount (the columns are read
 * and kept with each node, struct v8_node).
 *
 * The file is read as a stream (json-stream.h): the nodes, packed
 * (struct v8_node, names and urls in one text), and the samples and
 * deltas as varints, two or three bytes each, not as text; the profile
 * is built once the whole document has been read, exactly as from the
 * document tree before.
 */

#define V8_NONE		UINT32_MAX
#define V8_BATCH	32		/* numbers read at once */

/* What a node had (struct v8_node's flags). */
#define V8_N_OBJECT	0x001	/* it is an object */
#define V8_N_ID		0x002	/* with an integer "id" */
#define V8_N_FRAME	0x004	/* "callFrame" is an object */
#define V8_N_NAME	0x008	/* with a string "functionName" */
#define V8_N_URL	0x010	/* with a string "url" */
#define V8_N_LINE	0x020	/* with an integer "lineNumber" */
#define V8_N_NAMEBAD	0x040	/* "functionName" that is no string */
#define V8_N_URLBAD	0x080	/* "url" that is no string */
#define V8_N_LINEBAD	0x100	/* "lineNumber" that is no integer */
#define V8_N_PARENT	0x200	/* "parent" */
#define V8_N_PARENTINT	0x400	/* an integer "parent" */
#define V8_N_KIDSBAD	0x800	/* "children" that is no array */

/* A node as read: everything the profile is built from. */
struct v8_node {
	int64_t		 id;
	int64_t		 parent;	/* with V8_N_PARENTINT */
	int64_t		 line;		/* lineNumber, 0-based */
	int64_t		 column;	/* columnNumber, 0-based, or -1 */
	size_t		 name, url;	/* in the profile's text */
	uint32_t	 namelen, urllen;
	uint32_t	 kids, nkids;	/* its "children" in kids[] */
	uint32_t	 ticks, nticks;	/* its "positionTicks" in ticks[] */
	uint32_t	 flags;
};

/* A "children" id; ok 0 if the element was no integer. */
struct v8_kid {
	int64_t		 id;
	int		 ok;
};

/* A "positionTicks" element: ticks on a 1-based source line. */
struct v8_tick {
	int64_t		 line, ticks;
};

struct v8_prof {
	int			 object;	/* the profile is an object */
	enum packed_state	 nodes_state;
	struct v8_node		*nodes;
	size_t			 nnodes, capnodes;
	struct v8_kid		*kids;
	size_t			 nkids, capkids;
	struct v8_tick		*ticks;
	size_t			 nticks, capticks;
	struct packed_text	 text;
	struct packed_ints	 samples, deltas;
	struct packed_ints	 lines;		/* the samples' lines */
	int			 has_start, has_end;
	int64_t			 start, end;
};

/* The building of one profile. */
struct v8 {
	struct profile_builder	*b;
	const struct v8_prof	*vp;
	uint32_t		 root;		/* builder node of "(root)" */
	size_t			 nnodes;
	uint32_t		*parent;	/* index, or V8_NONE */
	uint32_t		*built;		/* builder node, or V8_NONE */
	uint8_t			*state;
	struct idmap		 byid;
	uint32_t		*dense;		/* index by id - lo, or NULL */
	int64_t			 lo;
	uint64_t		 span;
	uint32_t		 thread;	/* timeline thread */
	/* Per node, for the lines: its time and its function. */
	int64_t			*ntime;
	uint32_t		*func;
	int			 msamples, mtime;
	const struct packed_ints *lines;	/* the samples', or NULL */
	struct packed_cursor	 lc;		/* at sample nextline */
	size_t			 nextline;
	int64_t			 line[2];	/* nextline - 1's, - 2's */
	char			 err[256];
};

static int	v8_probe(const char *, size_t);
static struct profile *v8_load(struct input *, const struct reader_options *,
		    char **);
static int	v8_link(struct v8 *, size_t, uint32_t);
static int	v8_index(struct v8 *, int, int64_t, uint32_t *);
static uint32_t	v8_func(struct v8 *, const struct v8_node *);
static int	v8_build(struct v8 *);
static int	v8_samples(struct v8 *);
static int	v8_read_node(struct json_stream *, const struct json_token *,
		    struct v8_prof *);

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

struct v8_prof *
reader_v8_prof_create(void)
{
	struct v8_prof	*vp;

	if ((vp = calloc(1, sizeof *vp)) == NULL)
		return (NULL);
	packed_ints_init(&vp->samples);
	packed_ints_init(&vp->deltas);
	packed_ints_init(&vp->lines);
	return (vp);
}

void
reader_v8_prof_free(struct v8_prof *vp)
{
	if (vp == NULL)
		return;
	free(vp->nodes);
	free(vp->kids);
	free(vp->ticks);
	packed_text_free(&vp->text);
	packed_ints_free(&vp->samples);
	packed_ints_free(&vp->deltas);
	packed_ints_free(&vp->lines);
	free(vp);
}

/*
 * Read an array of integers (t its first token) onto pi, or note that
 * the member is no array. 0, or -1 on an error of the stream or memory.
 */
int
reader_v8_read_ints(struct json_stream *js, const struct json_token *t,
    struct packed_ints *pi)
{
	struct json_token	 u, num[V8_BATCH];
	size_t			 i, n;
	int			 r;

	if (t->type != JSON_TOK_ARRAY) {
		pi->state = PACKED_OTHER;
		return (json_stream_skip(js, t));
	}
	pi->state = PACKED_ARRAY;
	for (;;) {
		/* The numbers a batch at a time; a real is no integer. */
		while ((n = json_stream_numbers(js, num, V8_BATCH)) > 0) {
			for (i = 0; i < n; i++) {
				if ((num[i].type == JSON_TOK_INTEGER ?
				    packed_ints_put(pi, num[i].i) :
				    packed_ints_bad(pi)) == -1)
					return (-1);
			}
		}
		switch (json_stream_next(js, &u)) {
		case JSON_TOK_ARRAY_END:
			return (0);
		case JSON_TOK_ERROR:
			return (-1);
		case JSON_TOK_INTEGER:
			r = packed_ints_put(pi, u.i);
			break;
		default:
			r = packed_ints_bad(pi) == -1 ? -1 :
			    json_stream_skip(js, &u);
			break;
		}
		if (r == -1)
			return (-1);
	}
}

/* The string of a token onto the profile's text. */
static int
v8_text(struct v8_prof *vp, const struct json_token *t, size_t *off,
    uint32_t *len)
{
	if (t->len > UINT32_MAX ||
	    (*off = packed_text_put(&vp->text, t->s, t->len)) == SIZE_MAX)
		return (-1);
	*len = (uint32_t)t->len;
	return (0);
}

/* A callFrame object's members onto node n. */
static int
v8_read_frame(struct json_stream *js, struct v8_prof *vp, size_t n)
{
	struct json_token	 t;
	struct v8_node		*nd;
	uint32_t		 f;

	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		nd = &vp->nodes[n];
		if (JSON_TOK_IS(&t, "functionName") || JSON_TOK_IS(&t, "url")) {
			f = t.s[0] == 'f' ? V8_N_NAME : V8_N_URL;
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			nd->flags &= ~(f | f << 3);
			if (t.type != JSON_TOK_STRING) {
				nd->flags |= f << 3;
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (v8_text(vp, &t, f == V8_N_NAME ? &nd->name :
			    &nd->url, f == V8_N_NAME ? &nd->namelen :
			    &nd->urllen) == -1)
				return (-1);
			else
				nd->flags |= f;
		} else if (JSON_TOK_IS(&t, "lineNumber") ||
		    JSON_TOK_IS(&t, "columnNumber")) {
			f = t.s[0] == 'l';
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			if (f)
				nd->flags &= ~(V8_N_LINE | V8_N_LINEBAD);
			if (t.type == JSON_TOK_INTEGER) {
				if (f) {
					nd->flags |= V8_N_LINE;
					nd->line = t.i;
				} else
					nd->column = t.i;
			} else {
				if (f)
					nd->flags |= V8_N_LINEBAD;
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			}
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/* A "children" array onto node n (the last "children" counts). */
static int
v8_read_kids(struct json_stream *js, struct v8_prof *vp, size_t n)
{
	struct json_token	 t;

	vp->nodes[n].kids = (uint32_t)vp->nkids;
	vp->nodes[n].nkids = 0;
	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type == JSON_TOK_ERROR || vp->nkids >= UINT32_MAX ||
		    packed_grow(&vp->kids, &vp->capkids, vp->nkids + 1,
		    sizeof *vp->kids) == -1)
			return (-1);
		vp->kids[vp->nkids].ok = t.type == JSON_TOK_INTEGER;
		vp->kids[vp->nkids++].id = t.type == JSON_TOK_INTEGER ? t.i : 0;
		vp->nodes[n].nkids++;
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
}

/* A "positionTicks" array onto node n: the {line, ticks} objects. */
static int
v8_read_ticks(struct json_stream *js, struct v8_prof *vp, size_t n)
{
	struct json_token	 t, v;
	struct v8_tick		 tk;

	vp->nodes[n].ticks = (uint32_t)vp->nticks;
	vp->nodes[n].nticks = 0;
	for (;;) {
		if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
			return (0);
		if (t.type != JSON_TOK_OBJECT) {
			if (json_stream_skip(js, &t) == -1)
				return (-1);
			continue;
		}
		tk.line = tk.ticks = 0;
		while (json_stream_next(js, &t) == JSON_TOK_KEY) {
			int	 line = JSON_TOK_IS(&t, "line"), ticks =
			    JSON_TOK_IS(&t, "ticks");

			if (json_stream_next(js, &v) == JSON_TOK_ERROR ||
			    json_stream_skip(js, &v) == -1)
				return (-1);
			/* The last of a key counts; not an integer: none. */
			if (line)
				tk.line = v.type == JSON_TOK_INTEGER ? v.i : 0;
			else if (ticks)
				tk.ticks = v.type == JSON_TOK_INTEGER ? v.i : 0;
		}
		if (t.type != JSON_TOK_OBJECT_END || vp->nticks >= UINT32_MAX ||
		    packed_grow(&vp->ticks, &vp->capticks, vp->nticks + 1,
		    sizeof *vp->ticks) == -1)
			return (-1);
		vp->ticks[vp->nticks++] = tk;
		vp->nodes[n].nticks++;
	}
}

/* One element of "nodes" (t its first token). */
static int
v8_read_node(struct json_stream *js, const struct json_token *first,
    struct v8_prof *vp)
{
	struct json_token	 t;
	struct v8_node		*nd;
	size_t			 n = vp->nnodes;

	if (n >= UINT32_MAX - 1 || packed_grow(&vp->nodes, &vp->capnodes,
	    n + 1, sizeof *vp->nodes) == -1)
		return (-1);
	nd = &vp->nodes[vp->nnodes++];
	memset(nd, 0, sizeof *nd);
	nd->column = -1;
	if (first->type != JSON_TOK_OBJECT)
		return (json_stream_skip(js, first));
	nd->flags = V8_N_OBJECT;
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (JSON_TOK_IS(&t, "id")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			vp->nodes[n].flags &= ~V8_N_ID;
			if (t.type == JSON_TOK_INTEGER) {
				vp->nodes[n].flags |= V8_N_ID;
				vp->nodes[n].id = t.i;
			} else if (json_stream_skip(js, &t) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "callFrame")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			/* A callFrame given twice: the last counts. */
			vp->nodes[n].flags &= V8_N_OBJECT | V8_N_ID |
			    V8_N_PARENT | V8_N_PARENTINT | V8_N_KIDSBAD;
			vp->nodes[n].column = -1;
			if (t.type != JSON_TOK_OBJECT) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
				continue;
			}
			vp->nodes[n].flags |= V8_N_FRAME;
			if (v8_read_frame(js, vp, n) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "children")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			vp->nodes[n].flags &= ~V8_N_KIDSBAD;
			vp->nodes[n].nkids = 0;
			if (t.type != JSON_TOK_ARRAY) {
				vp->nodes[n].flags |= V8_N_KIDSBAD;
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (v8_read_kids(js, vp, n) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "parent")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			vp->nodes[n].flags &= ~V8_N_PARENTINT;
			vp->nodes[n].flags |= V8_N_PARENT;
			if (t.type == JSON_TOK_INTEGER) {
				vp->nodes[n].flags |= V8_N_PARENTINT;
				vp->nodes[n].parent = t.i;
			} else if (json_stream_skip(js, &t) == -1)
				return (-1);
		} else if (JSON_TOK_IS(&t, "positionTicks")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			vp->nodes[n].nticks = 0;
			if (t.type != JSON_TOK_ARRAY) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (v8_read_ticks(js, vp, n) == -1)
				return (-1);
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/*
 * One member of a CPU profile object whose key is t: "nodes", "samples",
 * "timeDeltas", "startTime" and "endTime" are read onto vp (a member
 * given twice: the last counts, as in a document). 1 if read, 0 if the
 * key is another (its value is the caller's to read), -1 on an error.
 */
int
reader_v8_prof_member(struct json_stream *js, const struct json_token *key,
    struct v8_prof *vp)
{
	struct json_token	 t;
	struct packed_ints	*pi;
	int			 end;

	if (JSON_TOK_IS(key, "nodes")) {
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		vp->nnodes = vp->nkids = vp->nticks = 0;
		vp->text.len = 0;
		if (t.type != JSON_TOK_ARRAY) {
			vp->nodes_state = PACKED_OTHER;
			return (json_stream_skip(js, &t) == -1 ? -1 : 1);
		}
		vp->nodes_state = PACKED_ARRAY;
		while (json_stream_next(js, &t) != JSON_TOK_ARRAY_END) {
			if (t.type == JSON_TOK_ERROR ||
			    v8_read_node(js, &t, vp) == -1)
				return (-1);
		}
		return (1);
	}
	if (JSON_TOK_IS(key, "samples") || JSON_TOK_IS(key, "timeDeltas") ||
	    JSON_TOK_IS(key, "lines")) {
		pi = key->s[0] == 's' ? &vp->samples : key->s[0] == 't' ?
		    &vp->deltas : &vp->lines;
		packed_ints_free(pi);
		if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    reader_v8_read_ints(js, &t, pi) == -1)
			return (-1);
		return (1);
	}
	if (JSON_TOK_IS(key, "startTime") || JSON_TOK_IS(key, "endTime")) {
		end = key->s[0] == 'e';
		if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
		/* Only an integer counts, as before. */
		if (end) {
			vp->has_end = t.type == JSON_TOK_INTEGER;
			vp->end = t.i;
		} else {
			vp->has_start = t.type == JSON_TOK_INTEGER;
			vp->start = t.i;
		}
		return (1);
	}
	return (0);
}

/*
 * A CPU profile value (t its first token): an object's members onto vp,
 * anything else skipped (vp then is no profile). 0, or -1 on an error.
 */
int
reader_v8_prof_read(struct json_stream *js, const struct json_token *first,
    struct v8_prof *vp)
{
	struct json_token	 t;
	int			 r;

	if (first->type != JSON_TOK_OBJECT)
		return (json_stream_skip(js, first));
	vp->object = 1;
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if ((r = reader_v8_prof_member(js, &t, vp)) == -1)
			return (-1);
		if (r == 0 && (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1))
			return (-1);
	}
	return (t.type == JSON_TOK_OBJECT_END ? 0 : -1);
}

/*
 * Append from's nodes, samples and deltas to vp's, as Chrome's chunks
 * of one profile extend its arrays (an array from has makes vp's an
 * array too).
 */
int
reader_v8_prof_append(struct v8_prof *vp, const struct v8_prof *from)
{
	size_t	 i, text = vp->text.len, kids = vp->nkids, ticks = vp->nticks;

	if (from->nodes_state == PACKED_ARRAY) {
		vp->nodes_state = PACKED_ARRAY;
		if (vp->nnodes + from->nnodes >= UINT32_MAX - 1 ||
		    vp->nkids + from->nkids >= UINT32_MAX ||
		    vp->nticks + from->nticks >= UINT32_MAX ||
		    packed_grow(&vp->nodes, &vp->capnodes, vp->nnodes +
		    from->nnodes, sizeof *vp->nodes) == -1 ||
		    packed_grow(&vp->kids, &vp->capkids, vp->nkids +
		    from->nkids, sizeof *vp->kids) == -1 ||
		    packed_grow(&vp->ticks, &vp->capticks, vp->nticks +
		    from->nticks, sizeof *vp->ticks) == -1 ||
		    packed_grow(&vp->text.b, &vp->text.cap, vp->text.len +
		    from->text.len, 1) == -1)
			return (-1);
		for (i = 0; i < from->nnodes; i++) {
			vp->nodes[vp->nnodes + i] = from->nodes[i];
			vp->nodes[vp->nnodes + i].name += text;
			vp->nodes[vp->nnodes + i].url += text;
			vp->nodes[vp->nnodes + i].kids += (uint32_t)kids;
			vp->nodes[vp->nnodes + i].ticks += (uint32_t)ticks;
		}
		vp->nnodes += from->nnodes;
		if (from->nkids > 0)
			memcpy(vp->kids + kids, from->kids, from->nkids *
			    sizeof *vp->kids);
		vp->nkids += from->nkids;
		if (from->nticks > 0)
			memcpy(vp->ticks + ticks, from->ticks, from->nticks *
			    sizeof *vp->ticks);
		vp->nticks += from->nticks;
		if (from->text.len > 0)
			memcpy(vp->text.b + text, from->text.b, from->text.len);
		vp->text.len += from->text.len;
	}
	if (from->samples.state == PACKED_ARRAY) {
		vp->samples.state = PACKED_ARRAY;
		if (packed_ints_append(&vp->samples, &from->samples) == -1)
			return (-1);
	}
	if (from->deltas.state == PACKED_ARRAY) {
		vp->deltas.state = PACKED_ARRAY;
		if (packed_ints_append(&vp->deltas, &from->deltas) == -1)
			return (-1);
	}
	return (0);
}

/* Empty vp, keeping its memory (Chrome reads one per event). */
void
reader_v8_prof_reset(struct v8_prof *vp)
{
	vp->object = 0;
	vp->nodes_state = PACKED_ABSENT;
	vp->nnodes = vp->nkids = vp->nticks = 0;
	vp->text.len = 0;
	packed_ints_reset(&vp->samples);
	packed_ints_reset(&vp->deltas);
	packed_ints_reset(&vp->lines);
	vp->has_start = vp->has_end = 0;
}

/* The nodes of vp if its "nodes" is an array, else 0. */
size_t
reader_v8_prof_nodes(const struct v8_prof *vp)
{
	return (vp->object && vp->nodes_state == PACKED_ARRAY ? vp->nnodes : 0);
}

/*
 * Extend vp by a Chrome ProfileChunk: the nodes and samples of its
 * cpuProfile (chunk), its timeDeltas (deltas, beside cpuProfile) and
 * its samples' lines (lines, beside them too).
 * 0; 1 if one of them is there but no array; -1 if out of memory.
 */
int
reader_v8_prof_chunk(struct v8_prof *vp, const struct v8_prof *chunk,
    const struct packed_ints *deltas, const struct packed_ints *lines)
{
	struct v8_prof	 part;

	if ((chunk->object && (chunk->nodes_state == PACKED_OTHER ||
	    chunk->samples.state == PACKED_OTHER)) ||
	    deltas->state == PACKED_OTHER || lines->state == PACKED_OTHER)
		return (1);
	if (chunk->object) {
		part = *chunk;
		packed_ints_init(&part.deltas);
		if (reader_v8_prof_append(vp, &part) == -1)
			return (-1);
	}
	if (deltas->state == PACKED_ARRAY) {
		vp->deltas.state = PACKED_ARRAY;
		if (packed_ints_append(&vp->deltas, deltas) == -1)
			return (-1);
	}
	/* Lines after the samples; a 0 (unknown) for a chunk without. */
	if (lines->state == PACKED_ARRAY) {
		vp->lines.state = PACKED_ARRAY;
		if (packed_ints_append(&vp->lines, lines) == -1)
			return (-1);
	}
	while (vp->lines.state == PACKED_ARRAY &&
	    vp->lines.n < vp->samples.n) {
		if (packed_ints_put(&vp->lines, 0) == -1)
			return (-1);
	}
	return (0);
}

/* Whether vp has nodes (a Chrome profile whose chunks came). */
int
reader_v8_prof_has_nodes(const struct v8_prof *vp)
{
	return (vp->nodes_state != PACKED_ABSENT);
}

/* Set the start or end time (Chrome's chunks carry them beside). */
void
reader_v8_prof_set_time(struct v8_prof *vp, int end, int64_t t)
{
	if (end) {
		vp->has_end = 1;
		vp->end = t;
	} else {
		vp->has_start = 1;
		vp->start = t;
	}
}

/* Mark vp an object (a profile assembled from Chrome's chunks). */
void
reader_v8_prof_set_object(struct v8_prof *vp)
{
	vp->object = 1;
}

/* The index of the node with id (an integer if ok); -1 with an error. */
static int
v8_index(struct v8 *v, int ok, int64_t id, uint32_t *idx)
{
	if (!ok) {
		snprintf(v->err, sizeof v->err, "a node id is not an integer");
		return (-1);
	}
	if (v->dense != NULL)
		*idx = (uint64_t)id - (uint64_t)v->lo < v->span ?
		    v->dense[(uint64_t)id - (uint64_t)v->lo] : IDMAP_NONE;
	else
		*idx = idmap_get(&v->byid, (uint64_t)id);
	if (*idx == IDMAP_NONE) {
		snprintf(v->err, sizeof v->err, "node id %lld is not in "
		    "\"nodes\"", (long long)id);
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
v8_func(struct v8 *v, const struct v8_node *nd)
{
	const char	*n, *u;
	size_t		 nl, ul;
	uint32_t	 f;

	if (!(nd->flags & V8_N_FRAME) || (nd->flags & (V8_N_NAMEBAD |
	    V8_N_URLBAD | V8_N_LINEBAD))) {
		snprintf(v->err, sizeof v->err, "a node without a callFrame "
		    "of string functionName and url and integer lineNumber");
		return (PROFILE_NONE);
	}
	n = nd->flags & V8_N_NAME ? packed_text_get(&v->vp->text, nd->name) :
	    "";
	nl = nd->flags & V8_N_NAME ? nd->namelen : 0;
	if (nl == 0) {
		n = "(anonymous)";
		nl = strlen(n);
	}
	u = nd->flags & V8_N_URL ? packed_text_get(&v->vp->text, nd->url) : "";
	ul = nd->flags & V8_N_URL ? nd->urllen : 0;
	if (ul >= 7 && memcmp(u, "file://", 7) == 0) {
		u += 7;
		ul -= 7;
	}
	if ((f = profile_builder_func(v->b, n, nl, u, ul)) == PROFILE_NONE)
		return (PROFILE_NONE);
	/*
	 * Here the node's column and positionTicks (nd->column, the
	 * vp->ticks of nd) are at hand for per-line costs.
	 */
	profile_builder_func_location(v->b, f, ul ? u : NULL, ul,
	    (nd->flags & V8_N_LINE) && nd->line >= 0 && nd->line < UINT32_MAX ?
	    (uint32_t)nd->line + 1 : 0);
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
	const struct v8_node	*n0 = &v->vp->nodes[0];
	uint32_t		*path = NULL, cur, f, pnode;
	size_t			 i, n;
	int			 rv = -1;

	if ((path = calloc(v->nnodes, sizeof *path)) == NULL)
		return (-1);
	/* The first node is the root; "(root)" is ours. */
	if ((n0->flags & V8_N_FRAME) && (n0->flags & V8_N_NAME) &&
	    strcmp(packed_text_get(&v->vp->text, n0->name), "(root)") == 0 &&
	    n0->namelen == 6)
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
			if ((f = v8_func(v, &v->vp->nodes[cur])) ==
			    PROFILE_NONE || (v->built[cur] =
			    profile_builder_child(v->b, pnode, f)) ==
			    PROFILE_NONE)
				goto out;
			v->func[cur] = f;
		}
	}
	rv = 0;
out:
	free(path);
	return (rv);
}

/* The line frame of node idx's function at 1-based line ln of its url. */
static uint32_t
v8_line_frame(struct v8 *v, uint32_t idx, int64_t ln)
{
	return (profile_builder_line_frame(v->b, v->func[idx],
	    profile_builder_func_file(v->b, v->func[idx]),
	    ln > 0 && ln < UINT32_MAX ? (uint32_t)ln : 0));
}

/*
 * Sample i's line, when the samples have lines (Chrome's ProfileChunk):
 * x more of metric m at that line of node idx's function. The lines
 * are read once, in order: sample i's count comes before sample i - 1's
 * time, so the last two are at hand.
 */
static int
v8_sample_line(struct v8 *v, size_t i, uint32_t idx, int m, int64_t x)
{
	int64_t		 ln;
	uint32_t	 fr;

	if (v->lines == NULL)
		return (0);
	while (v->nextline <= i) {
		v->line[1] = v->line[0];
		v->line[0] = packed_cursor_next(&v->lc);
		v->nextline++;
	}
	ln = i + 1 == v->nextline ? v->line[0] : i + 2 == v->nextline ?
	    v->line[1] : 0;
	if (idx == V8_NONE || x == 0 || v->func[idx] == PROFILE_NONE ||
	    ln <= 0)
		return (0);
	if ((fr = v8_line_frame(v, idx, ln)) == PROFILE_NONE ||
	    profile_builder_line_self(v->b, fr, m, x) == -1)
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
	const struct v8_prof	*vp = v->vp;
	const struct v8_node	*nd;
	const struct v8_tick	*tk;
	size_t			 i, k;
	int64_t			 sum, cum, t, prev, now;
	uint32_t		 fr;

	if (v->lines != NULL)
		return (0);
	for (i = 0; i < v->nnodes; i++) {
		nd = &vp->nodes[i];
		if (nd->nticks == 0 || v->built[i] == V8_NONE ||
		    v->func[i] == PROFILE_NONE)
			continue;
		for (sum = 0, k = 0; k < nd->nticks; k++) {
			tk = &vp->ticks[nd->ticks + k];
			if (tk->ticks > 0 && __builtin_add_overflow(sum,
			    tk->ticks, &sum)) {
				snprintf(v->err, sizeof v->err, "nodes[%zu]: "
				    "positionTicks overflow", i);
				return (-1);
			}
		}
		for (cum = 0, prev = 0, k = 0; k < nd->nticks; k++) {
			tk = &vp->ticks[nd->ticks + k];
			if (tk->ticks <= 0 || tk->line <= 0)
				continue;
			t = tk->ticks;
			if ((fr = v8_line_frame(v, (uint32_t)i, tk->line)) ==
			    PROFILE_NONE || profile_builder_line_self(v->b, fr,
			    v->msamples, t) == -1)
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

/* Samples and their durations, in file order. */
static int
v8_samples(struct v8 *v)
{
	const struct v8_prof	*vp = v->vp;
	struct packed_cursor	 sc, dc;
	int			 msamples, mtime = -1, deltas;
	int64_t			 raw, t, prev = 0, end = 0, d, run = 0, dur;
	uint32_t		 idx, node, last = PROFILE_NONE;
	uint32_t		 prevnode = PROFILE_NONE, previdx = V8_NONE;
	size_t			 i, n;

	/* No "samples": a profile with no samples. */
	n = vp->samples.state == PACKED_ABSENT ? 0 : vp->samples.n;
	deltas = vp->deltas.state != PACKED_ABSENT;
	if (vp->samples.state == PACKED_OTHER ||
	    vp->deltas.state == PACKED_OTHER) {
		snprintf(v->err, sizeof v->err, "\"samples\" and \"timeDeltas\" "
		    "must be arrays");
		return (-1);
	}
	if (deltas && vp->deltas.n != n) {
		snprintf(v->err, sizeof v->err, "\"timeDeltas\" has %zu "
		    "entries and \"samples\" %zu", vp->deltas.n, n);
		return (-1);
	}
	if ((msamples = profile_builder_metric(v->b, "samples", "count")) ==
	    -1 || (deltas && (mtime = profile_builder_metric(v->b, "time",
	    "us")) == -1))
		return (-1);
	v->msamples = msamples;
	v->mtime = mtime;
	/* The samples' own lines: an array of as many (else not theirs). */
	v->lines = vp->lines.state == PACKED_ARRAY && vp->lines.n == n ?
	    &vp->lines : NULL;
	if (v->lines != NULL)
		packed_cursor_init(&v->lc, v->lines);
	v->nextline = 0;
	/* Each sample's time and thread, with the deltas (timeline.h). */
	if (mtime != -1 && (profile_builder_clock(v->b, "us", 1e6) == -1 ||
	    profile_builder_time_mode(v->b, msamples, TIMELINE_WEIGHT) == -1 ||
	    profile_builder_time_mode(v->b, mtime, TIMELINE_SPAN) == -1 ||
	    (v->thread == PROFILE_NONE && (v->thread = profile_builder_thread(
	    v->b, "main", 4, "", 0, -1, -1)) == PROFILE_NONE)))
		return (-1);
	raw = vp->has_start ? vp->start : 0;
	if (vp->has_end)
		end = vp->end;

	packed_cursor_init(&sc, &vp->samples);
	packed_cursor_init(&dc, &vp->deltas);
	for (i = 0; i < n; i++) {
		d = packed_cursor_next(&sc);
		if (v8_index(v, i != vp->samples.bad, d, &idx) == -1) {
			snprintf(v->err + strlen(v->err), sizeof v->err -
			    strlen(v->err), " (samples[%zu])", i);
			return (-1);
		}
		if ((node = v->built[idx]) == V8_NONE)
			return (-1);
		if (profile_builder_add(v->b, node, msamples, 1) == -1 ||
		    v8_sample_line(v, i, idx, msamples, 1) == -1)
			return (-1);
		if (node != last && run > 0 &&
		    profile_builder_sample(v->b, last, run) == -1)
			return (-1);
		run = node == last ? run + 1 : 1;
		last = node;
		if (mtime == -1)
			continue;

		/* This sample's timestamp, never before the previous one. */
		d = packed_cursor_next(&dc);
		if (i == vp->deltas.bad) {
			snprintf(v->err, sizeof v->err, "timeDeltas[%zu] is not "
			    "an integer", i);
			return (-1);
		}
		if (__builtin_add_overflow(raw, d, &raw))
			goto overflow;
		t = i > 0 && raw < prev ? prev : raw;
		if (i > 0) {
			if (__builtin_sub_overflow(t, prev, &dur))
				goto overflow;
			if (dur != 0 && (profile_builder_add(v->b, prevnode,
			    mtime, dur) == -1 || v8_sample_line(v, i - 1,
			    previdx, mtime, dur) == -1))
				return (-1);
			v->ntime[previdx] += dur;
			if (profile_builder_timed(v->b, prevnode, v->thread,
			    prev, dur, 1) == -1)
				return (-1);
		}
		prev = t;
		prevnode = node;
		previdx = idx;
	}
	d = 0;
	if (n > 0 && mtime != -1 && vp->has_end && end > prev) {
		if (__builtin_sub_overflow(end, prev, &d))
			goto overflow;
		if (profile_builder_add(v->b, last, mtime, d) == -1 ||
		    v8_sample_line(v, n - 1, previdx, mtime, d) == -1)
			return (-1);
		v->ntime[previdx] += d;
	}
	if (n > 0 && mtime != -1 &&
	    profile_builder_timed(v->b, last, v->thread, prev, d, 1) == -1)
		return (-1);
	if (run > 0 && profile_builder_sample(v->b, last, run) == -1)
		return (-1);
	return (0);
overflow:
	snprintf(v->err, sizeof v->err, "timestamps overflow 64 bits");
	return (-1);
}

/*
 * Index the node ids: a table by id when they are dense (V8 numbers
 * nodes from 1), else a hash map. -1 with an error.
 */
static int
v8_ids(struct v8 *v)
{
	const struct v8_node	*nd;
	int64_t			 lo = INT64_MAX, hi = INT64_MIN;
	uint32_t		 j;
	size_t			 i, bad = SIZE_MAX;

	for (i = 0; i < v->nnodes; i++) {
		nd = &v->vp->nodes[i];
		if ((nd->flags & (V8_N_OBJECT | V8_N_ID)) !=
		    (V8_N_OBJECT | V8_N_ID)) {
			if (bad == SIZE_MAX)
				bad = i;
			continue;
		}
		if (nd->id < lo)
			lo = nd->id;
		if (nd->id > hi)
			hi = nd->id;
	}
	if (lo <= hi && (uint64_t)hi - (uint64_t)lo < 4 * (uint64_t)v->nnodes +
	    4096) {
		v->lo = lo;
		v->span = (uint64_t)hi - (uint64_t)lo + 1;
		if ((v->dense = malloc(v->span * sizeof *v->dense)) == NULL)
			return (-1);
		memset(v->dense, 0xff, v->span * sizeof *v->dense);
	}
	/* In file order: the first node that is wrong names the error. */
	for (i = 0; i < v->nnodes && i < bad; i++) {
		nd = &v->vp->nodes[i];
		if (v->dense != NULL)
			j = v->dense[(uint64_t)nd->id - (uint64_t)lo];
		else
			j = idmap_get(&v->byid, (uint64_t)nd->id);
		if (j != IDMAP_NONE) {
			snprintf(v->err, sizeof v->err, "nodes[%zu]: id %lld "
			    "appears twice", i, (long long)nd->id);
			return (-1);
		}
		if (v->dense != NULL)
			v->dense[(uint64_t)nd->id - (uint64_t)lo] = (uint32_t)i;
		else if (idmap_put(&v->byid, (uint64_t)nd->id, (uint32_t)i) ==
		    -1)
			return (-1);
	}
	if (bad != SIZE_MAX) {
		snprintf(v->err, sizeof v->err, "nodes[%zu]: not an object "
		    "with an integer id", bad);
		return (-1);
	}
	return (0);
}

/* Link parents from children (or parent) ids. */
static int
v8_links(struct v8 *v)
{
	const struct v8_prof	*vp = v->vp;
	const struct v8_node	*nd;
	const struct v8_kid	*k;
	uint32_t		 idx, c;
	size_t			 i;

	for (i = 0; i < v->nnodes; i++) {
		nd = &vp->nodes[i];
		if (nd->flags & V8_N_KIDSBAD) {
			snprintf(v->err, sizeof v->err, "nodes[%zu]: \"children\" "
			    "is not an array", i);
			return (-1);
		}
		for (c = 0; c < nd->nkids; c++) {
			k = &vp->kids[nd->kids + c];
			if (v8_index(v, k->ok, k->id, &idx) == -1 ||
			    v8_link(v, idx, (uint32_t)i) == -1)
				return (-1);
		}
		if (nd->flags & V8_N_PARENT) {
			if (v8_index(v, (nd->flags & V8_N_PARENTINT) != 0,
			    nd->parent, &idx) == -1 || v8_link(v, i, idx) == -1)
				return (-1);
		}
	}
	return (0);
}

/*
 * Build a CPU profile (nodes, samples, timeDeltas, startTime, endTime)
 * under builder node root, which stands for its "(root)" node: the
 * .cpuprofile loader passes the profile's root, the Chrome trace reader
 * a thread's node; thread is the timeline's (PROFILE_NONE: one named
 * "main"). 0, or -1 with the reason in err (empty when the builder's
 * error says it).
 */
int
reader_v8_profile(struct profile_builder *b, uint32_t root, uint32_t thread,
    const struct v8_prof *vp, char *err, size_t errlen)
{
	struct v8	 v;
	int		 rv = -1;

	memset(&v, 0, sizeof v);
	v.b = b;
	v.vp = vp;
	v.root = root;
	v.thread = thread;
	idmap_init(&v.byid);
	if (!vp->object || vp->nodes_state != PACKED_ARRAY ||
	    vp->nnodes == 0) {
		snprintf(v.err, sizeof v.err, "not a V8 CPU profile (an object "
		    "with a non-empty \"nodes\" array)");
		goto out;
	}
	v.nnodes = vp->nnodes;
	if ((v.parent = malloc(v.nnodes * sizeof *v.parent)) == NULL ||
	    (v.built = malloc(v.nnodes * sizeof *v.built)) == NULL ||
	    (v.state = calloc(v.nnodes, sizeof *v.state)) == NULL ||
	    (v.ntime = calloc(v.nnodes, sizeof *v.ntime)) == NULL ||
	    (v.func = malloc(v.nnodes * sizeof *v.func)) == NULL)
		goto nomem;
	memset(v.parent, 0xff, v.nnodes * sizeof *v.parent);
	memset(v.built, 0xff, v.nnodes * sizeof *v.built);
	memset(v.func, 0xff, v.nnodes * sizeof *v.func);
	if (v8_ids(&v) == -1 || v8_links(&v) == -1 || v8_build(&v) == -1 ||
	    v8_samples(&v) == -1 || v8_ticks(&v) == -1)
		goto out;
	rv = 0;
	goto out;
nomem:
	snprintf(v.err, sizeof v.err, "out of memory");
out:
	snprintf(err, errlen, "%s", v.err);
	idmap_clear(&v.byid);
	free(v.dense);
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
	struct profile_builder	*b = NULL;
	struct profile		*p = NULL;
	struct json_stream	*js;
	struct json_token	 t;
	struct v8_prof		*vp;
	char			 err[256];

	/* max_json: the decoding a file may ask for. */
	if (json_doc_limit(in, "CPU profile", cause) == -1)
		return (NULL);
	js = json_stream_create(in, 0);
	vp = reader_v8_prof_create();
	if (js == NULL || vp == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
	    reader_v8_prof_read(js, &t, vp) == -1 ||
	    json_stream_next(js, &t) != JSON_TOK_END) {
		cause_set(cause, "%s: %s", in->path, json_stream_error(js));
		goto out;
	}
	if ((b = profile_builder_create("v8")) == NULL) {
		cause_set(cause, "out of memory");
		goto out;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(b, opts->max_nodes);
	if (reader_v8_profile(b, PROFILE_ROOT, PROFILE_NONE, vp, err,
	    sizeof err) == -1) {
		cause_set(cause, "%s: %s", in->path, err[0] != '\0' ? err :
		    profile_builder_error(b));
		goto out;
	}
	p = profile_builder_finish(b, cause);
	b = NULL;
out:
	profile_builder_free(b);
	reader_v8_prof_free(vp);
	json_stream_free(js);
	return (p);
}

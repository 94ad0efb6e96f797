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
#include "reader-ghc-prof.h"
#include "strpool.h"

/*
 * GHC cost-centre profiles in JSON (+RTS -pj, rts/ProfilerReportJson.c).
 * GHC names these files .prof like the text report, so the probe looks
 * for the JSON keys. The file is one object: "cost_centres" lists every
 * cost centre (id, label, module, src_loc) and "profile" is the root of
 * the cost-centre-stack tree, each node holding a cost-centre id and its
 * individual entries, ticks and alloc, with nested "children".
 *
 * Individual values are the self values; inclusive values are their sums,
 * as GHC's inherited columns are. Unlike the text report the JSON keeps
 * the stacks GHC hides there (GC, SYSTEM, IDLE...), and its total_ticks
 * and total_alloc count them: so do we. Functions are cost centres named
 * as in the text reader (reader-ghc-prof.c), "label [SRC]" when several
 * share a label and module.
 *
 * The file is read as a stream (json-stream.h) that refuses a key given
 * twice in any object, as the jansson reader did: the cost centres and
 * the tree's nodes (in preorder, each with its parent) are kept packed,
 * and built once the document has been read, nesting bounded by the
 * stream's depth limit and no recursion.
 */

/* What a cost centre or a node had. */
#define GHC_OBJECT	0x01	/* an object */
#define GHC_ID		0x02	/* with an integer "id" */
#define GHC_STRINGS	0x04	/* cc: string label and module, src_loc */
#define GHC_BADINT	0x08	/* node: entries, ticks or alloc bad */
#define GHC_KIDSBAD	0x10	/* node: "children" that is no array */

struct ghc_json_cc {
	int64_t		 id;
	size_t		 label, module, src;	/* in the reader's text */
	uint32_t	 labellen, modlen, srclen;
	uint32_t	 flags;
	uint32_t	 plabel, pmodule;	/* ids in the reader's pool */
	uint32_t	 func;			/* PROFILE_NONE until used */
	uint32_t	 line;			/* src's, once used */
};

/* A node of the tree, in preorder. */
struct ghc_json_node {
	int64_t		 id;
	int64_t		 entries, ticks, alloc;
	uint32_t	 parent;		/* index, or PROFILE_NONE */
	uint32_t	 depth;
	uint32_t	 flags;
	uint32_t	 built;			/* builder node */
	uint32_t	 lbuilt;		/* its line tree node */
};

struct ghc_json {
	struct profile_builder	*b;
	struct strpool		*pool;
	struct packed_text	 text;
	enum packed_state	 ccs_state;
	struct ghc_json_cc	*ccs;
	size_t			 nccs, capccs;
	int			 prof;		/* "profile" is an object */
	struct ghc_json_node	*nodes;
	size_t			 nnodes, capnodes;
	struct idmap		 byid;		/* cost-centre id -> index */
	struct idmap		 lm;		/* label, module -> count */
	int			 mticks, malloc_, mentries;
	char			 err[256];
};

static int	ghc_json_probe(const char *, size_t);
static struct profile *ghc_json_load(struct input *,
		    const struct reader_options *, char **);

const struct reader reader_ghc_json = {
	.name = "ghc-json",
	.description = "GHC cost-centre profile, JSON (+RTS -pj)",
	.probe = ghc_json_probe,
	.load = ghc_json_load,
};

/* An object whose first keys are GHC's ("program", ..., "cost_centres"). */
static int
ghc_json_probe(const char *buf, size_t len)
{
	size_t	 i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
	    buf[i] == '\r'))
		i++;
	if (i == len || buf[i] != '{')
		return (0);
	if (memmem(buf, len, "\"cost_centres\"", 14) != NULL &&
	    (memmem(buf, len, "\"total_ticks\"", 13) != NULL ||
	    memmem(buf, len, "\"profile\"", 9) != NULL))
		return (100);
	if (memmem(buf, len, "\"total_ticks\"", 13) != NULL &&
	    memmem(buf, len, "\"tick_interval\"", 15) != NULL)
		return (90);
	return (0);
}

/* A string token onto the text; SIZE_MAX (and no string) if none. */
static int
ghc_json_text(struct ghc_json *g, const struct json_token *t, size_t *off,
    uint32_t *len)
{
	*len = 0;
	if (packed_text_token(&g->text, t, off) == -1)
		return (-1);
	if (*off != SIZE_MAX)
		*len = (uint32_t)t->len;
	return (0);
}

/* One element of "cost_centres" (t its first token). */
static int
ghc_json_read_cc(struct ghc_json *g, struct json_stream *js,
    const struct json_token *first)
{
	struct ghc_json_cc	*cc;
	struct json_token	 t;
	int			 id = 0, label = 0, module = 0, src = 1, k;

	if (packed_grow(&g->ccs, &g->capccs, g->nccs + 1, sizeof *g->ccs) ==
	    -1)
		return (-1);
	cc = &g->ccs[g->nccs++];
	memset(cc, 0, sizeof *cc);
	cc->label = cc->module = cc->src = SIZE_MAX;
	cc->func = PROFILE_NONE;
	if (first->type != JSON_TOK_OBJECT)
		return (json_stream_skip(js, first));
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		k = JSON_TOK_IS(&t, "id") ? 1 : JSON_TOK_IS(&t, "label") ? 2 :
		    JSON_TOK_IS(&t, "module") ? 3 : JSON_TOK_IS(&t, "src_loc") ?
		    4 : 0;
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			return (-1);
		if (k == 1 && (id = t.type == JSON_TOK_INTEGER))
			cc->id = t.i;
		if ((k == 2 && ghc_json_text(g, &t, &cc->label,
		    &cc->labellen) == -1) || (k == 3 && ghc_json_text(g, &t,
		    &cc->module, &cc->modlen) == -1) || (k == 4 &&
		    ghc_json_text(g, &t, &cc->src, &cc->srclen) == -1))
			return (-1);
		if (k == 2)
			label = t.type == JSON_TOK_STRING;
		else if (k == 3)
			module = t.type == JSON_TOK_STRING;
		else if (k == 4)
			src = t.type == JSON_TOK_STRING;
		if (json_stream_skip(js, &t) == -1)
			return (-1);
	}
	if (t.type != JSON_TOK_OBJECT_END)
		return (-1);
	cc->flags = GHC_OBJECT | (id ? GHC_ID : 0) |
	    (label && module && src ? GHC_STRINGS : 0);
	return (0);
}

/* A node's non-negative integer member: GHC_BADINT if it is not one. */
static void
ghc_json_int(struct ghc_json_node *nd, const struct json_token *t,
    int64_t *v)
{
	if (t->type == JSON_TOK_INTEGER && t->i >= 0)
		*v = t->i;
	else
		nd->flags |= GHC_BADINT;
}

/*
 * One member of node nd (its key k): 1 when it is a "children" array,
 * whose elements then follow; 0 when read; -1 on an error.
 */
static int
ghc_json_member(struct json_stream *js, struct ghc_json_node *nd,
    const struct json_token *key)
{
	struct json_token	 t;
	int			 k;

	k = JSON_TOK_IS(key, "id") ? 1 : JSON_TOK_IS(key, "entries") ? 2 :
	    JSON_TOK_IS(key, "ticks") ? 3 : JSON_TOK_IS(key, "alloc") ? 4 :
	    JSON_TOK_IS(key, "children") ? 5 : 0;
	if (json_stream_next(js, &t) == JSON_TOK_ERROR)
		return (-1);
	if (k == 1 && t.type == JSON_TOK_INTEGER) {
		nd->flags |= GHC_ID;
		nd->id = t.i;
	} else if (k >= 2 && k <= 4)
		ghc_json_int(nd, &t, k == 2 ? &nd->entries : k == 3 ?
		    &nd->ticks : &nd->alloc);
	else if (k == 5) {
		if (t.type == JSON_TOK_ARRAY)
			return (1);
		nd->flags |= GHC_KIDSBAD;
	}
	return (json_stream_skip(js, &t));
}

/*
 * The "profile" tree (root its first token), in preorder, without
 * recursion: cur is the node whose members are read, or in whose
 * "children" the next element is.
 */
static int
ghc_json_read_tree(struct ghc_json *g, struct json_stream *js,
    const struct json_token *root)
{
	enum { GHC_NODE, GHC_MEMBERS, GHC_AFTER } state = GHC_NODE;
	struct json_token	 t = *root;
	struct ghc_json_node	*nd;
	uint32_t		 cur = PROFILE_NONE, n;
	int			 r;

	for (;;) {
		switch (state) {
		case GHC_NODE:
			/* t opens a node, an element of cur's "children". */
			if (g->nnodes >= UINT32_MAX - 1 || packed_grow(&g->nodes,
			    &g->capnodes, g->nnodes + 1, sizeof *g->nodes) == -1)
				return (-1);
			n = (uint32_t)g->nnodes++;
			nd = &g->nodes[n];
			memset(nd, 0, sizeof *nd);
			nd->parent = cur;
			nd->depth = cur == PROFILE_NONE ? 0 :
			    g->nodes[cur].depth + 1;
			if (t.type != JSON_TOK_OBJECT) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
				state = GHC_AFTER;
				break;
			}
			nd->flags = GHC_OBJECT;
			cur = n;
			state = GHC_MEMBERS;
			break;
		case GHC_MEMBERS:
			if (json_stream_next(js, &t) != JSON_TOK_KEY) {
				if (t.type != JSON_TOK_OBJECT_END)
					return (-1);
				cur = g->nodes[cur].parent;
				state = GHC_AFTER;
				break;
			}
			if ((r = ghc_json_member(js, &g->nodes[cur], &t)) == -1)
				return (-1);
			if (r == 1)
				state = GHC_AFTER;
			break;
		case GHC_AFTER:
			/* The root's end, or the next of cur's children. */
			if (cur == PROFILE_NONE)
				return (0);
			if (json_stream_next(js, &t) == JSON_TOK_ARRAY_END)
				state = GHC_MEMBERS;
			else if (t.type == JSON_TOK_ERROR)
				return (-1);
			else
				state = GHC_NODE;
			break;
		}
	}
}

/* Index the cost centres by id and count label/module pairs. */
static int
ghc_json_ccs(struct ghc_json *g)
{
	struct ghc_json_cc	*cc;
	size_t			 i;
	uint64_t		 key;
	uint32_t		 n;

	if (g->ccs_state != PACKED_ARRAY) {
		snprintf(g->err, sizeof g->err, "\"cost_centres\" is not an "
		    "array");
		return (-1);
	}
	for (i = 0; i < g->nccs; i++) {
		cc = &g->ccs[i];
		if ((cc->flags & (GHC_OBJECT | GHC_ID | GHC_STRINGS)) !=
		    (GHC_OBJECT | GHC_ID | GHC_STRINGS)) {
			snprintf(g->err, sizeof g->err, "cost_centres[%zu]: "
			    "needs integer id and string label, module and "
			    "src_loc", i);
			return (-1);
		}
		if (idmap_get(&g->byid, (uint64_t)cc->id) != IDMAP_NONE) {
			snprintf(g->err, sizeof g->err, "cost_centres[%zu]: "
			    "id %lld appears twice", i, (long long)cc->id);
			return (-1);
		}
		if ((cc->plabel = strpool_intern(g->pool, packed_text_get(
		    &g->text, cc->label), cc->labellen)) == STRPOOL_NONE ||
		    (cc->pmodule = strpool_intern(g->pool, packed_text_get(
		    &g->text, cc->module), cc->modlen)) == STRPOOL_NONE ||
		    idmap_put(&g->byid, (uint64_t)cc->id, (uint32_t)i) == -1)
			return (-1);
		key = (uint64_t)cc->plabel << 32 | cc->pmodule;
		n = idmap_get(&g->lm, key);
		if (idmap_put(&g->lm, key, n == IDMAP_NONE ? 1 : n + 1) == -1)
			return (-1);
	}
	return (0);
}

/* The function of a cost centre, created when first used. */
static uint32_t
ghc_json_func(struct ghc_json *g, int64_t id)
{
	struct ghc_json_cc	*cc;
	const char		*label, *module, *src;
	char			*name = NULL;
	uint32_t		 i, f, line;
	size_t			 filelen;

	if ((i = idmap_get(&g->byid, (uint64_t)id)) == IDMAP_NONE) {
		snprintf(g->err, sizeof g->err, "profile node with cost-centre "
		    "id %lld, which is not in cost_centres", (long long)id);
		return (PROFILE_NONE);
	}
	cc = &g->ccs[i];
	if (cc->func != PROFILE_NONE)
		return (cc->func);
	label = strpool_get(g->pool, cc->plabel);
	module = strpool_get(g->pool, cc->pmodule);
	src = cc->src != SIZE_MAX ? packed_text_get(&g->text, cc->src) : "";
	if (idmap_get(&g->lm, (uint64_t)cc->plabel << 32 | cc->pmodule) > 1) {
		if (asprintf(&name, "%s [%s]", label, src) == -1)
			return (PROFILE_NONE);
		label = name;
	}
	f = profile_builder_func(g->b, label, strlen(label), module,
	    strlen(module));
	free(name);
	if (f == PROFILE_NONE)
		return (PROFILE_NONE);
	filelen = reader_ghc_prof_srcloc(src, strlen(src), &line);
	profile_builder_func_location(g->b, f, filelen ? src : NULL, filelen,
	    line);
	cc->func = f;
	cc->line = line;
	return (f);
}

/* The tree's nodes, in preorder: each under its parent's. */
static int
ghc_json_nodes(struct ghc_json *g)
{
	struct ghc_json_node	*nd;
	uint32_t		 f, parent, lparent, fr;
	size_t			 i;

	for (i = 0; i < g->nnodes; i++) {
		nd = &g->nodes[i];
		if ((nd->flags & (GHC_OBJECT | GHC_ID)) !=
		    (GHC_OBJECT | GHC_ID)) {
			snprintf(g->err, sizeof g->err, "profile node at depth "
			    "%u: not an object with an integer id", nd->depth);
			return (-1);
		}
		if (nd->flags & GHC_BADINT) {
			snprintf(g->err, sizeof g->err, "profile node at depth "
			    "%u (cost centre %lld): entries, ticks and alloc "
			    "must be non-negative integers", nd->depth,
			    (long long)nd->id);
			return (-1);
		}
		parent = nd->parent == PROFILE_NONE ? PROFILE_ROOT :
		    g->nodes[nd->parent].built;
		lparent = nd->parent == PROFILE_NONE ? PROFILE_ROOT :
		    g->nodes[nd->parent].lbuilt;
		if ((f = ghc_json_func(g, nd->id)) == PROFILE_NONE ||
		    (nd->built = profile_builder_child(g->b, parent, f)) ==
		    PROFILE_NONE)
			return (-1);
		/* The cost centre at its src_loc's line (lines.h). */
		if ((fr = profile_builder_line_frame(g->b, f,
		    profile_builder_func_file(g->b, f), g->ccs[idmap_get(
		    &g->byid, (uint64_t)nd->id)].line)) == PROFILE_NONE ||
		    (nd->lbuilt = profile_builder_line_child(g->b, lparent,
		    fr)) == PROFILE_NONE)
			return (-1);
		if ((nd->ticks != 0 && (profile_builder_add(g->b, nd->built,
		    g->mticks, nd->ticks) == -1 || profile_builder_line_add(
		    g->b, nd->lbuilt, g->mticks, nd->ticks) == -1)) ||
		    (nd->alloc != 0 && (profile_builder_add(g->b, nd->built,
		    g->malloc_, nd->alloc) == -1 || profile_builder_line_add(
		    g->b, nd->lbuilt, g->malloc_, nd->alloc) == -1)) ||
		    (nd->entries != 0 && (profile_builder_add(g->b, nd->built,
		    g->mentries, nd->entries) == -1 || profile_builder_line_add(
		    g->b, nd->lbuilt, g->mentries, nd->entries) == -1)))
			return (-1);
		if (nd->flags & GHC_KIDSBAD) {
			snprintf(g->err, sizeof g->err, "profile node at depth "
			    "%u: \"children\" is not an array", nd->depth);
			return (-1);
		}
	}
	return (0);
}

/* The document: its cost centres and its tree. */
static int
ghc_json_read(struct ghc_json *g, struct json_stream *js, int *object)
{
	struct json_token	 t;
	int			 r;

	if (json_stream_next(js, &t) == JSON_TOK_ERROR)
		return (-1);
	*object = t.type == JSON_TOK_OBJECT;
	if (!*object)
		return (json_stream_skip(js, &t) == -1 ||
		    json_stream_next(js, &t) != JSON_TOK_END ? -1 : 0);
	while (json_stream_next(js, &t) == JSON_TOK_KEY) {
		if (JSON_TOK_IS(&t, "cost_centres")) {
			if ((r = packed_array_open(js, &t,
			    &g->ccs_state)) == -1)
				return (-1);
			if (r == 0)
				continue;
			while (json_stream_next(js, &t) != JSON_TOK_ARRAY_END) {
				if (t.type == JSON_TOK_ERROR ||
				    ghc_json_read_cc(g, js, &t) == -1)
					return (-1);
			}
		} else if (JSON_TOK_IS(&t, "profile")) {
			if (json_stream_next(js, &t) == JSON_TOK_ERROR)
				return (-1);
			g->prof = t.type == JSON_TOK_OBJECT;
			if (!g->prof) {
				if (json_stream_skip(js, &t) == -1)
					return (-1);
			} else if (ghc_json_read_tree(g, js, &t) == -1)
				return (-1);
		} else if (json_stream_next(js, &t) == JSON_TOK_ERROR ||
		    json_stream_skip(js, &t) == -1)
			return (-1);
	}
	if (t.type != JSON_TOK_OBJECT_END ||
	    json_stream_next(js, &t) != JSON_TOK_END)
		return (-1);
	return (0);
}

static struct profile *
ghc_json_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct ghc_json		 g;
	struct profile		*p = NULL;
	struct json_stream	*js;
	int			 object;

	/* max_json: the decoding a file may ask for. */
	if (json_doc_limit(in, "GHC profile", cause) == -1)
		return (NULL);
	memset(&g, 0, sizeof g);
	idmap_init(&g.byid);
	idmap_init(&g.lm);
	/* Keys given twice refuse the file, as JSON_REJECT_DUPLICATES did. */
	if ((js = json_stream_create(in, JSON_STREAM_NO_DUPLICATES)) == NULL)
		goto nomem;
	if (ghc_json_read(&g, js, &object) == -1) {
		cause_set(cause, "%s: %s", in->path, json_stream_error(js));
		goto out;
	}
	if (!object || g.ccs_state == PACKED_ABSENT || !g.prof) {
		cause_set(cause, "%s: not a GHC -pj profile (an object with "
		    "\"cost_centres\" and \"profile\")", in->path);
		goto out;
	}
	if ((g.pool = strpool_create()) == NULL ||
	    (g.b = profile_builder_create("ghc-json")) == NULL)
		goto nomem;
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(g.b, opts->max_nodes);
	if ((g.mticks = profile_builder_metric(g.b, "ticks", "ticks")) == -1 ||
	    (g.malloc_ = profile_builder_metric(g.b, "alloc", "bytes")) == -1 ||
	    (g.mentries = profile_builder_metric(g.b, "entries", "count")) ==
	    -1)
		goto builderr;
	if (ghc_json_ccs(&g) == -1 || ghc_json_nodes(&g) == -1)
		goto builderr;
	p = profile_builder_finish(g.b, cause);
	g.b = NULL;
	goto out;

builderr:
	if (g.err[0] != '\0')
		cause_set(cause, "%s: %s", in->path, g.err);
	else
		cause_set(cause, "%s: %s", in->path,
		    profile_builder_error(g.b));
	goto out;
nomem:
	cause_set(cause, "out of memory");
out:
	profile_builder_free(g.b);
	strpool_free(g.pool);
	idmap_clear(&g.byid);
	idmap_clear(&g.lm);
	packed_text_free(&g.text);
	free(g.ccs);
	free(g.nodes);
	json_stream_free(js);
	return (p);
}

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
 * share a label and module. jansson loads the whole document; nesting is
 * bounded by jansson's depth limit, which bounds the recursion here.
 */

/* jansson takes about 15 times the text: this bounds a load to ~15 GiB. */
#define GHC_JSON_MAX_FILE	(1024 * 1024 * 1024)

struct ghc_json_cc {
	uint32_t	 label, module;		/* ids in the reader's pool */
	const char	*src;			/* borrowed from the document */
	uint32_t	 func;			/* PROFILE_NONE until used */
	uint32_t	 line;			/* src_loc's, once used */
};

struct ghc_json {
	struct profile_builder	*b;
	struct strpool		*pool;
	struct ghc_json_cc	*ccs;
	size_t			 nccs;
	struct idmap		 byid;		/* cost-centre id -> index */
	struct idmap		 lm;		/* label, module -> count */
	int			 mticks, malloc_, mentries;
	char			 err[256];
};

static int	ghc_json_probe(const char *, size_t);
static struct profile *ghc_json_load(struct input *,
		    const struct reader_options *, char **);
static int	ghc_json_int(json_t *, const char *, int64_t *);
static int	ghc_json_ccs(struct ghc_json *, json_t *);
static uint32_t	ghc_json_func(struct ghc_json *, json_int_t);
static int	ghc_json_node(struct ghc_json *, json_t *, uint32_t, uint32_t,
		    int);

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

/* A non-negative integer member; 0 if found, 1 if absent, -1 if bad. */
static int
ghc_json_int(json_t *o, const char *key, int64_t *v)
{
	json_t	*j;

	if ((j = json_object_get(o, key)) == NULL)
		return (1);
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return (-1);
	*v = json_integer_value(j);
	return (0);
}

/* Index the cost centres by id and count label/module pairs. */
static int
ghc_json_ccs(struct ghc_json *g, json_t *a)
{
	json_t		*o, *id, *label, *module, *src;
	struct ghc_json_cc *cc;
	size_t		 i;
	uint64_t	 key;
	uint32_t	 n;

	if (!json_is_array(a)) {
		snprintf(g->err, sizeof g->err, "\"cost_centres\" is not an "
		    "array");
		return (-1);
	}
	if ((g->ccs = calloc(json_array_size(a) + 1, sizeof *g->ccs)) == NULL)
		return (-1);
	json_array_foreach(a, i, o) {
		id = json_object_get(o, "id");
		label = json_object_get(o, "label");
		module = json_object_get(o, "module");
		src = json_object_get(o, "src_loc");
		if (!json_is_integer(id) || !json_is_string(label) ||
		    !json_is_string(module) || (src != NULL &&
		    !json_is_string(src))) {
			snprintf(g->err, sizeof g->err, "cost_centres[%zu]: "
			    "needs integer id and string label, module and "
			    "src_loc", i);
			return (-1);
		}
		if (idmap_get(&g->byid, (uint64_t)json_integer_value(id)) !=
		    IDMAP_NONE) {
			snprintf(g->err, sizeof g->err, "cost_centres[%zu]: "
			    "id %lld appears twice", i,
			    (long long)json_integer_value(id));
			return (-1);
		}
		cc = &g->ccs[g->nccs];
		cc->func = PROFILE_NONE;
		cc->src = src != NULL ? json_string_value(src) : "";
		if ((cc->label = strpool_intern(g->pool,
		    json_string_value(label), json_string_length(label))) ==
		    STRPOOL_NONE || (cc->module = strpool_intern(g->pool,
		    json_string_value(module), json_string_length(module))) ==
		    STRPOOL_NONE ||
		    idmap_put(&g->byid, (uint64_t)json_integer_value(id),
		    (uint32_t)g->nccs) == -1)
			return (-1);
		key = (uint64_t)cc->label << 32 | cc->module;
		n = idmap_get(&g->lm, key);
		if (idmap_put(&g->lm, key, n == IDMAP_NONE ? 1 : n + 1) == -1)
			return (-1);
		g->nccs++;
	}
	return (0);
}

/* The function of a cost centre, created when first used. */
static uint32_t
ghc_json_func(struct ghc_json *g, json_int_t id)
{
	struct ghc_json_cc	*cc;
	const char		*label, *module;
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
	label = strpool_get(g->pool, cc->label);
	module = strpool_get(g->pool, cc->module);
	if (idmap_get(&g->lm, (uint64_t)cc->label << 32 | cc->module) > 1) {
		if (asprintf(&name, "%s [%s]", label, cc->src) == -1)
			return (PROFILE_NONE);
		label = name;
	}
	f = profile_builder_func(g->b, label, strlen(label), module,
	    strlen(module));
	free(name);
	if (f == PROFILE_NONE)
		return (PROFILE_NONE);
	filelen = reader_ghc_prof_srcloc(cc->src, strlen(cc->src), &line);
	profile_builder_func_location(g->b, f, filelen ? cc->src : NULL,
	    filelen, line);
	cc->func = f;
	cc->line = line;
	return (f);
}

/* One node of the "profile" tree under parent, then its children. */
static int
ghc_json_node(struct ghc_json *g, json_t *o, uint32_t parent,
    uint32_t lparent, int depth)
{
	json_t		*id, *kids, *k;
	int64_t		 entries = 0, ticks = 0, alloc = 0;
	uint32_t	 f, node, fr, ln;
	size_t		 i;

	id = json_object_get(o, "id");
	if (!json_is_object(o) || !json_is_integer(id)) {
		snprintf(g->err, sizeof g->err, "profile node at depth %d: "
		    "not an object with an integer id", depth);
		return (-1);
	}
	if (ghc_json_int(o, "entries", &entries) == -1 ||
	    ghc_json_int(o, "ticks", &ticks) == -1 ||
	    ghc_json_int(o, "alloc", &alloc) == -1) {
		snprintf(g->err, sizeof g->err, "profile node at depth %d "
		    "(cost centre %lld): entries, ticks and alloc must be "
		    "non-negative integers", depth,
		    (long long)json_integer_value(id));
		return (-1);
	}
	if ((f = ghc_json_func(g, json_integer_value(id))) == PROFILE_NONE ||
	    (node = profile_builder_child(g->b, parent, f)) == PROFILE_NONE)
		return (-1);
	/* The cost centre at its src_loc's line (lines.h). */
	if ((fr = profile_builder_line_frame(g->b, f,
	    profile_builder_func_file(g->b, f), g->ccs[idmap_get(&g->byid,
	    (uint64_t)json_integer_value(id))].line)) == PROFILE_NONE ||
	    (ln = profile_builder_line_child(g->b, lparent, fr)) ==
	    PROFILE_NONE)
		return (-1);
	if ((ticks != 0 && (profile_builder_add(g->b, node, g->mticks,
	    ticks) == -1 || profile_builder_line_add(g->b, ln, g->mticks,
	    ticks) == -1)) ||
	    (alloc != 0 && (profile_builder_add(g->b, node, g->malloc_,
	    alloc) == -1 || profile_builder_line_add(g->b, ln, g->malloc_,
	    alloc) == -1)) ||
	    (entries != 0 && (profile_builder_add(g->b, node, g->mentries,
	    entries) == -1 || profile_builder_line_add(g->b, ln, g->mentries,
	    entries) == -1)))
		return (-1);
	if ((kids = json_object_get(o, "children")) == NULL)
		return (0);
	if (!json_is_array(kids)) {
		snprintf(g->err, sizeof g->err, "profile node at depth %d: "
		    "\"children\" is not an array", depth);
		return (-1);
	}
	json_array_foreach(kids, i, k) {
		if (ghc_json_node(g, k, node, ln, depth + 1) == -1)
			return (-1);
	}
	return (0);
}

static struct profile *
ghc_json_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct ghc_json	 g;
	struct profile	*p = NULL;
	json_t		*doc = NULL, *ccs, *prof;
	json_error_t	 jerr;
	char		*text;
	size_t		 len;

	memset(&g, 0, sizeof g);
	idmap_init(&g.byid);
	idmap_init(&g.lm);
	if (in->size > GHC_JSON_MAX_FILE) {
		cause_set(cause, "%s: %llu bytes, more than the %d MiB a "
		    "GHC JSON profile may have (jansson holds it all in memory)",
		    in->path, (unsigned long long)in->size,
		    GHC_JSON_MAX_FILE >> 20);
		return (NULL);
	}
	if ((text = input_slurp_max(in, GHC_JSON_MAX_FILE, &len, cause)) == NULL)
		return (NULL);
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (doc == NULL) {
		cause_set(cause, "%s: line %d column %d: %s", in->path,
		    jerr.line, jerr.column, jerr.text);
		return (NULL);
	}
	ccs = json_object_get(doc, "cost_centres");
	prof = json_object_get(doc, "profile");
	if (!json_is_object(doc) || ccs == NULL || !json_is_object(prof)) {
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
	if (ghc_json_ccs(&g, ccs) == -1 ||
	    ghc_json_node(&g, prof, PROFILE_ROOT, PROFILE_ROOT, 0) == -1)
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
	free(g.ccs);
	json_decref(doc);
	return (p);
}

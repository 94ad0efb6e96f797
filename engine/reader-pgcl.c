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

#include <sys/types.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "binary.h"
#include "cause.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"

/*
 * Clean's callgraph profile (.pgcl), written by programs built with
 * clm -pg and read by Clean's convertprofile. The format (Clean's
 * "Callgraph profiling" notes):
 *
 *	"prof"		magic, 4 bytes
 *	version		32-bit little-endian, 1 or 2
 *	#modules	32-bit little-endian
 *	#cost centres	32-bit little-endian
 *	frequency	LEB128, CPU ticks per second (version 2)
 *	overhead	LEB128, ticks per 1000 profiling calls (version 2)
 *	modules		NUL-terminated names
 *	cost centres	LEB128 module id (from 1), NUL-terminated name
 *	root entry	a call graph entry
 *
 * A call graph entry is, all LEB128: cost centre id (from 1), ticks,
 * words allocated, tail calls (and returns), strict calls, lazy calls,
 * curried calls, number of children, then the children's entries.
 *
 * The call graph is already a calling-context tree: an entry becomes a
 * call node below its parent's node (entries of one cost centre under
 * one parent merge). A root entry of cost centre 0, which no cost centre
 * can be, is taken as the synthetic root itself. The entries nest as
 * deep as the program's stacks did, so they are read with an explicit
 * stack, never by recursion.
 */

#define PGCL_MAGIC	"prof"
#define PGCL_HEADER	16
#define MIN_ENTRY	8	/* eight LEB128 numbers of one byte */

enum {
	M_TICKS,
	M_WORDS,
	M_CALLS,
	M_STRICT,
	M_LAZY,
	M_CURRIED,
	M_TAIL,
	NMETRICS
};
static const struct {
	const char	*name;
	const char	*unit;
} pgcl_metrics[NMETRICS] = {
	{ "ticks", "ticks" },
	{ "words", "words" },
	{ "calls", "count" },
	{ "strict", "count" },
	{ "lazy", "count" },
	{ "curried", "count" },
	{ "tail", "count" },
};

struct pgcl_frame {
	uint32_t	 node;
	uint64_t	 left;		/* children still to read */
};

struct pgcl {
	struct input		*in;
	struct binary		 b;
	struct profile_builder	*pb;
	int			 metric[NMETRICS];
	char			*why;
	uint32_t		 version;
	uint32_t		 nmodules;
	uint32_t		 ncc;
	uint64_t		 frequency;
	uint64_t		 overhead;

	/* Names: "module\0" per module, "name\0" per cost centre. */
	char			*text;
	size_t			 textlen, textcap;
	size_t			*mod_text;	/* [nmodules + 1] */
	size_t			*cc_text;	/* [ncc + 1] */
	uint32_t		*cc_module;	/* [ncc + 1] */
	uint32_t		*cc_func;	/* [ncc + 1], made when used */

	struct pgcl_frame	*stack;
	size_t			 nstack, stackcap;
};

static int	pgcl_probe(const char *, size_t);
static struct profile *pgcl_load(struct input *,
		    const struct reader_options *, char **);
static int	fail(struct pgcl *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static int	text_add(struct pgcl *, const char *, size_t, size_t *);
static int	rd_header(struct pgcl *);
static int	rd_names(struct pgcl *);
static uint32_t	cc_func(struct pgcl *, uint32_t);
static int	rd_entry(struct pgcl *, uint32_t, int);
static int	rd_graph(struct pgcl *);

const struct reader reader_pgcl = {
	.name = "pgcl",
	.description = "Clean callgraph profile (.pgcl, versions 1 and 2)",
	.probe = pgcl_probe,
	.load = pgcl_load,
};

/* The magic and a version we read (a text file cannot have its bytes). */
static int
pgcl_probe(const char *buf, size_t len)
{
	if (len < 8 || memcmp(buf, PGCL_MAGIC, 4) != 0)
		return (0);
	if ((buf[4] == 1 || buf[4] == 2) && buf[5] == 0 && buf[6] == 0 &&
	    buf[7] == 0)
		return (100);
	return (0);
}

/* Set p->why; always -1. */
static int
fail(struct pgcl *p, const char *fmt, ...)
{
	va_list	 ap;

	free(p->why);
	p->why = NULL;
	va_start(ap, fmt);
	cause_vset(&p->why, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Append s[0..n) and a NUL to p->text; its offset to *off. */
static int
text_add(struct pgcl *p, const char *s, size_t n, size_t *off)
{
	size_t	 cap;
	char	*t;

	if (p->textlen + n + 1 > p->textcap) {
		cap = p->textcap ? p->textcap : 4096;
		while (cap < p->textlen + n + 1)
			cap *= 2;
		if ((t = realloc(p->text, cap)) == NULL)
			return (fail(p, "out of memory"));
		p->text = t;
		p->textcap = cap;
	}
	*off = p->textlen;
	memcpy(p->text + p->textlen, s, n);
	p->text[p->textlen + n] = '\0';
	p->textlen += n + 1;
	return (0);
}

static int
rd_header(struct pgcl *p)
{
	struct binary	*b = &p->b;
	const char	*magic;
	uint64_t	 left, need;

	if (binary_bytes(b, 4, &magic) == -1 ||
	    memcmp(magic, PGCL_MAGIC, 4) != 0)
		return (fail(p, "not a Clean callgraph profile (no \"prof\" "
		    "magic)"));
	if (binary_le32(b, &p->version) == -1 ||
	    binary_le32(b, &p->nmodules) == -1 ||
	    binary_le32(b, &p->ncc) == -1)
		return (-1);
	if (p->version != 1 && p->version != 2)
		return (fail(p, "offset 4: .pgcl version %u is not supported "
		    "(deepq reads versions 1 and 2)", p->version));
	if (p->version >= 2 && (binary_leb128(b, &p->frequency) == -1 ||
	    binary_leb128(b, &p->overhead) == -1))
		return (-1);

	/* A module takes a byte at least, a cost centre two, an entry 8. */
	left = binary_left(b);
	need = (uint64_t)p->nmodules + 2 * (uint64_t)p->ncc + MIN_ENTRY;
	if (need > left)
		return (fail(p, "offset 8: the header's counts (%u modules, "
		    "%u cost centres) need at least %llu bytes, the file has "
		    "%llu left",
		    p->nmodules, p->ncc, (unsigned long long)need,
		    (unsigned long long)left));
	if ((p->mod_text = calloc((size_t)p->nmodules + 1,
	    sizeof *p->mod_text)) == NULL ||
	    (p->cc_text = calloc((size_t)p->ncc + 1, sizeof *p->cc_text)) ==
	    NULL ||
	    (p->cc_module = calloc((size_t)p->ncc + 1,
	    sizeof *p->cc_module)) == NULL ||
	    (p->cc_func = malloc(((size_t)p->ncc + 1) * sizeof *p->cc_func)) ==
	    NULL)
		return (fail(p, "out of memory"));
	memset(p->cc_func, 0xff, ((size_t)p->ncc + 1) * sizeof *p->cc_func);
	return (0);
}

/* The module names, then the cost centres. */
static int
rd_names(struct pgcl *p)
{
	struct binary	*b = &p->b;
	const char	*s;
	size_t		 len, off;
	uint64_t	 at, mod;
	uint32_t	 i;

	if (text_add(p, "", 0, &off) == -1)	/* module 0: none */
		return (-1);
	for (i = 1; i <= p->nmodules; i++) {
		if (binary_cstring(b, &s, &len) == -1 ||
		    text_add(p, s, len, &p->mod_text[i]) == -1)
			return (-1);
	}
	for (i = 1; i <= p->ncc; i++) {
		at = binary_offset(b);
		if (binary_leb128(b, &mod) == -1)
			return (-1);
		if (mod == 0 || mod > p->nmodules)
			return (fail(p, "offset %llu: cost centre %u: module "
			    "id %llu is not between 1 and %u",
			    (unsigned long long)at, i, (unsigned long long)mod,
			    p->nmodules));
		p->cc_module[i] = mod;
		if (binary_cstring(b, &s, &len) == -1 ||
		    text_add(p, s, len, &p->cc_text[i]) == -1)
			return (-1);
	}
	return (0);
}

/* The profile function of a cost centre, made on first use. */
static uint32_t
cc_func(struct pgcl *p, uint32_t cc)
{
	const char	*name, *module;
	uint32_t	 f;

	if (p->cc_func[cc] != PROFILE_NONE)
		return (p->cc_func[cc]);
	name = p->text + p->cc_text[cc];
	module = p->text + p->mod_text[p->cc_module[cc]];
	f = profile_builder_func(p->pb, name, strlen(name), module,
	    strlen(module));
	if (f == PROFILE_NONE)
		return (PROFILE_NONE);
	p->cc_func[cc] = f;
	return (f);
}

/*
 * One entry below node parent (root: the root entry); pushes a frame if
 * it has children.
 */
static int
rd_entry(struct pgcl *p, uint32_t parent, int root)
{
	struct binary		*b = &p->b;
	struct pgcl_frame	*fr;
	uint64_t		 at = binary_offset(b), cc, v[NMETRICS], nkids;
	uint64_t		 left;
	uint32_t		 node, f;
	size_t			 cap;
	int			 k;

	/*
	 * Field order of the file: ticks, words, tail, strict, lazy,
	 * curried.
	 */
	static const int order[] = { M_TICKS, M_WORDS, M_TAIL, M_STRICT,
	    M_LAZY, M_CURRIED };

	if (binary_leb128(b, &cc) == -1)
		return (-1);
	if ((cc == 0 && !root) || cc > p->ncc)
		return (fail(p, "offset %llu: cost centre id %llu is not "
		    "between 1 and %u", (unsigned long long)at,
		    (unsigned long long)cc, p->ncc));
	for (k = 0; k < (int)(sizeof order / sizeof order[0]); k++) {
		if (binary_leb128(b, &v[order[k]]) == -1)
			return (-1);
		if (v[order[k]] > INT64_MAX)
			return (fail(p, "offset %llu: %s %llu is larger than "
			    "2^63-1", (unsigned long long)at,
			    pgcl_metrics[order[k]].name,
			    (unsigned long long)v[order[k]]));
	}
	v[M_CALLS] = v[M_STRICT] + v[M_LAZY] + v[M_CURRIED];
	if (v[M_CALLS] > INT64_MAX || v[M_CALLS] < v[M_STRICT])
		return (fail(p, "offset %llu: call counts overflow 64 bits",
		    (unsigned long long)at));
	if (binary_leb128(b, &nkids) == -1)
		return (-1);
	left = binary_left(b);
	if (nkids > left / MIN_ENTRY)
		return (fail(p, "offset %llu: %llu children cannot fit in the "
		    "%llu bytes left", (unsigned long long)at,
		    (unsigned long long)nkids, (unsigned long long)left));

	if (cc == 0)
		node = PROFILE_ROOT;
	else if ((f = cc_func(p, cc)) == PROFILE_NONE ||
	    (node = profile_builder_child(p->pb, parent, f)) == PROFILE_NONE)
		return (fail(p, "offset %llu: %s", (unsigned long long)at,
		    profile_builder_error(p->pb)));
	for (k = 0; k < NMETRICS; k++) {
		if (v[k] != 0 && profile_builder_add(p->pb, node, p->metric[k],
		    (int64_t)v[k]) == -1)
			return (fail(p, "offset %llu: %s", (unsigned long long)
			    at, profile_builder_error(p->pb)));
	}
	if (nkids == 0)
		return (0);
	if (p->nstack == p->stackcap) {
		cap = p->stackcap ? p->stackcap * 2 : 256;
		if ((fr = realloc(p->stack, cap * sizeof *fr)) == NULL)
			return (fail(p, "out of memory"));
		p->stack = fr;
		p->stackcap = cap;
	}
	fr = &p->stack[p->nstack++];
	fr->node = node;
	fr->left = nkids;
	return (0);
}

/* The call graph, depth first, and nothing after it. */
static int
rd_graph(struct pgcl *p)
{
	struct pgcl_frame	*fr;
	int			 end;

	if (rd_entry(p, PROFILE_ROOT, 1) == -1)
		return (-1);
	while (p->nstack > 0) {
		fr = &p->stack[p->nstack - 1];
		if (fr->left == 0) {
			p->nstack--;
			continue;
		}
		fr->left--;
		if (rd_entry(p, fr->node, 0) == -1)
			return (-1);
	}
	if ((end = binary_at_end(&p->b)) == -1)
		return (-1);
	if (!end)
		return (fail(p, "offset %llu: data after the call graph",
		    (unsigned long long)binary_offset(&p->b)));
	return (0);
}

static struct profile *
pgcl_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct pgcl	 p;
	struct profile	*prof = NULL;
	int		 k;

	memset(&p, 0, sizeof p);
	p.in = in;
	binary_init(&p.b, in);
	if ((p.pb = profile_builder_create("pgcl")) == NULL) {
		fail(&p, "out of memory");
		goto fail;
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(p.pb, opts->max_nodes);
	for (k = 0; k < NMETRICS; k++) {
		if ((p.metric[k] = profile_builder_metric(p.pb,
		    pgcl_metrics[k].name, pgcl_metrics[k].unit)) == -1) {
			fail(&p, "out of memory");
			goto fail;
		}
	}
	if (rd_header(&p) == -1 || rd_names(&p) == -1 || rd_graph(&p) == -1)
		goto fail;
	binary_sync(&p.b);
	prof = profile_builder_finish(p.pb, &p.why);
	p.pb = NULL;
	if (prof == NULL)
		cause_set(cause, "%s: %s", in->path, p.why);
	goto done;

fail:
	if (p.why != NULL)
		cause_set(cause, "%s: %s", in->path, p.why);
	else if (p.b.error != NULL)
		cause_set(cause, "%s: offset %llu: %s", in->path,
		    (unsigned long long)p.b.error_at, p.b.error);
	else
		cause_set(cause, "%s: out of memory", in->path);
	profile_builder_free(p.pb);
done:
	free(p.why);
	free(p.text);
	free(p.mod_text);
	free(p.cc_text);
	free(p.cc_module);
	free(p.cc_func);
	free(p.stack);
	return (prof);
}

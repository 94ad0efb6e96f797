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
#include "decimal.h"
#include "funcgraph.h"
#include "idmap.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"

/*
 * GNU gprof's text output (deepq-formats(5)): the call graph (gprof -q,
 * and the second part of its default output) and the flat profile
 * (gprof -p, also by line with -l), with or without their explanations
 * (-b). gprof keeps no calling contexts, only a call graph, so every
 * function figure comes from the graph as gprof prints it: a function's
 * self and children time from its primary line ("[N]"), its total their
 * sum; each call edge from the caller line in the callee's entry, with
 * the calls and the self and children time gprof propagated along it (a
 * recursive or in-cycle call, printed with a count only, costs 0). A
 * cycle's "as a whole" entry is no function: its members form it again
 * (cmd=cliques). Without a call graph the flat profile gives each
 * function's self time (summed over the lines of -l) and its total is
 * its self. The calling-context tree is flat, each function under the
 * root with its self time, and marked estimated.
 *
 * Times are in the metric "time", microseconds: gprof prints seconds to
 * two decimals, which convert exactly.
 */

#define GPROF_MAX_FUNCS		(1U << 24)
#define GPROF_TOKEN		64

struct gp_func {
	uint32_t	 bf;		/* builder function */
	int64_t		 self, total;
	int		 primary;	/* has its call graph entry */
	int		 flat;		/* from the flat profile, no index yet */
};

struct gp_edge {
	uint32_t	 from, to;	/* gprof indices */
	uint64_t	 calls;
	int64_t		 self, children;
};

struct gprof {
	struct profile_builder	*b;
	char			*why;
	struct idmap		 byindex;	/* gprof's [N] -> func */
	struct idmap		 byname;	/* flat-only names -> func */
	struct gp_func		*funcs;
	uint32_t		 nfuncs, funccap;
	struct gp_edge		*edges;
	uint32_t		 nedges, edgecap;
	int			 graph;		/* a call graph was read */

	/* The entry being read: its lines before the primary line. */
	char			**pending;
	size_t			 npending, pendcap;
};

static int	gprof_probe(const char *, size_t);
static struct profile *gprof_load(struct input *,
		    const struct reader_options *, char **);

const struct reader reader_gprof = {
	.name = "gprof",
	.description = "GNU gprof flat profile and call graph",
	.probe = gprof_probe,
	.load = gprof_load,
};

/* Does the text have s at the start of a line within its first bytes? */
static int
gprof_has(const char *buf, size_t len, const char *s)
{
	size_t		 n = strlen(s), lim = len < 8192 ? len : 8192;
	const char	*p = buf;

	while (p + n <= buf + lim) {
		if (memcmp(p, s, n) == 0)
			return (1);
		if ((p = memchr(p, '\n', buf + lim - p)) == NULL)
			break;
		p++;
	}
	return (0);
}

static int
gprof_probe(const char *buf, size_t len)
{
	if (gprof_has(buf, len, "Flat profile:") &&
	    gprof_has(buf, len, "Each sample counts as "))
		return (95);
	if (gprof_has(buf, len, "granularity: each sample hit covers "))
		return (95);
	return (0);
}

/*
 * Seconds with up to six decimals, "0.57", to microseconds; -1 if s is
 * not one.
 */
static int
gprof_seconds(const char *s, int64_t *us)
{
	int64_t		 v = 0, scale = 1000000;
	int		 any = 0;

	for (; *s >= '0' && *s <= '9'; s++, any = 1) {
		if (v > INT64_MAX / 10 / 1000000)
			return (-1);
		v = v * 10 + (*s - '0');
	}
	v *= 1000000;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, any = 1) {
			scale /= 10;
			v += (*s - '0') * scale;
		}
	}
	if (!any || *s != '\0')
		return (-1);
	*us = v;
	return (0);
}

/* A count, or "N+M" (gprof's calls plus recursive calls): N + M. */
static int
gprof_count(const char *s, uint64_t *n, int slash)
{
	uint64_t	 v = 0, t = 0;
	size_t		 k;
	int		 any = 0;

	for (;;) {
		if ((k = decimal_span(s, SIZE_MAX)) > 0) {
			if (decimal_u64(s, k, UINT64_MAX, &v) != DECIMAL_OK)
				return (-1);
			s += k;
			any = 1;
		}
		if (*s != '+' || !any)
			break;
		if (__builtin_add_overflow(t, v, &t))
			return (-1);
		v = 0;
		s++;
	}
	/* "calls/total": the calls along this edge. */
	if (!any || (*s != '\0' && !(slash && *s == '/')) ||
	    __builtin_add_overflow(t, v, n))
		return (-1);
	return (0);
}

/*
 * The next blank-separated token of *sp, copied into tok (cut to its
 * size); *sp moves past it. 0 at the end of the line.
 */
static int
gprof_token(const char **sp, char *tok, size_t size)
{
	const char	*s = *sp, *e;
	size_t		 n;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s; *e != '\0' && *e != ' ' && *e != '\t'; e++)
		;
	if (e == s)
		return (0);
	n = (size_t)(e - s) < size - 1 ? (size_t)(e - s) : size - 1;
	memcpy(tok, s, n);
	tok[n] = '\0';
	*sp = e;
	return (1);
}

static const char *
gprof_skip(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return (s);
}

/* The function of gprof index idx and name, made on first sight. */
static uint32_t
gprof_func(struct gprof *gp, uint64_t idx, const char *name, size_t len)
{
	struct gp_func	*nf;
	uint32_t	 i, cap, bf;
	char		*alt;

	if ((i = idmap_get(&gp->byindex, idx)) != IDMAP_NONE)
		return (i);
	if (gp->nfuncs == GPROF_MAX_FUNCS) {
		cause_set(&gp->why, "more than %u functions", GPROF_MAX_FUNCS);
		return (UINT32_MAX);
	}
	bf = profile_builder_func_find(gp->b, name, len, "", 0);
	/* A function of the flat profile is the graph's of that name. */
	if (bf != PROFILE_NONE && (idx >> 40) == 0 &&
	    (i = idmap_get(&gp->byname, bf)) != IDMAP_NONE &&
	    gp->funcs[i].flat) {
		gp->funcs[i].flat = 0;
		return (idmap_put(&gp->byindex, idx, i) == -1 ? UINT32_MAX :
		    i);
	}
	/* Two functions of one name (static, in two files): the index. */
	if (bf != PROFILE_NONE) {
		if (asprintf(&alt, "%.*s [%llu]", (int)len, name,
		    (unsigned long long)idx) == -1)
			return (UINT32_MAX);
		bf = profile_builder_func(gp->b, alt, strlen(alt), "", 0);
		free(alt);
	} else
		bf = profile_builder_func(gp->b, name, len, "", 0);
	if (bf == PROFILE_NONE) {
		cause_set(&gp->why, "%s", profile_builder_error(gp->b));
		return (UINT32_MAX);
	}
	if (gp->nfuncs == gp->funccap) {
		cap = gp->funccap ? gp->funccap * 2 : 256;
		if ((nf = reallocarray(gp->funcs, cap, sizeof *nf)) == NULL)
			return (UINT32_MAX);
		gp->funcs = nf;
		gp->funccap = cap;
	}
	i = gp->nfuncs++;
	memset(&gp->funcs[i], 0, sizeof gp->funcs[i]);
	gp->funcs[i].bf = bf;
	if (idmap_put(&gp->byindex, idx, i) == -1)
		return (UINT32_MAX);
	return (i);
}

/*
 * A call graph line's name and index, "name <cycle 1> [12]": the name
 * (without the cycle) in *name, *len; -1 if there is no index.
 */
static int
gprof_name(const char *s, const char **name, size_t *len, uint64_t *idx)
{
	const char	*e = s + strlen(s), *o, *c;
	uint64_t	 v = 0;

	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == s || e[-1] != ']')
		return (-1);
	for (o = e - 1; o > s && o[-1] >= '0' && o[-1] <= '9'; o--)
		;
	if (o == e - 1 || o == s || o[-1] != '[')
		return (-1);
	if (decimal_u64(o, (size_t)(e - 1 - o), UINT64_MAX, &v) != DECIMAL_OK)
		return (-1);
	e = o - 1;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	/* " <cycle N>" after a member's name. */
	if (e > s && e[-1] == '>') {
		for (c = e - 1; c > s && *c != '<'; c--)
			;
		if (strncmp(c, "<cycle ", 7) == 0) {
			e = c;
			while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
		}
	}
	*name = s;
	*len = e - s;
	*idx = v;
	return (*len > 0 ? 0 : -1);
}

/* Keep a caller line of the entry being read, until its primary line. */
static int
gprof_pend(struct gprof *gp, const char *line)
{
	char	**np;
	size_t	 cap;

	if (gp->npending == gp->pendcap) {
		if (gp->pendcap >= GPROF_MAX_FUNCS) {
			cause_set(&gp->why, "too many callers");
			return (-1);
		}
		cap = gp->pendcap ? gp->pendcap * 2 : 64;
		if ((np = reallocarray(gp->pending, cap, sizeof *np)) == NULL)
			return (-1);
		gp->pending = np;
		gp->pendcap = cap;
	}
	if ((gp->pending[gp->npending] = strdup(line)) == NULL)
		return (-1);
	gp->npending++;
	return (0);
}

static void
gprof_unpend(struct gprof *gp)
{
	while (gp->npending > 0)
		free(gp->pending[--gp->npending]);
}

/* The call edge of a caller line into function to; -1 on error. */
static int
gprof_caller(struct gprof *gp, const char *line, uint32_t to)
{
	struct gp_edge	*ne, *e;
	const char	*s = line, *name;
	char		 t[GPROF_TOKEN];
	int64_t		 self = 0, children = 0;
	uint64_t	 calls, idx;
	uint32_t	 from, cap;
	size_t		 len;

	if (strcmp(gprof_skip(line), "<spontaneous>") == 0)
		return (0);
	if (!gprof_token(&s, t, sizeof t))
		return (0);
	if (strchr(t, '.') != NULL) {
		/* "self children called/total name [N]" */
		if (gprof_seconds(t, &self) == -1 ||
		    !gprof_token(&s, t, sizeof t) ||
		    gprof_seconds(t, &children) == -1 ||
		    !gprof_token(&s, t, sizeof t) ||
		    gprof_count(t, &calls, 1) == -1)
			goto bad;
	} else if (gprof_count(t, &calls, 0) == -1)	/* "count name [N]" */
		goto bad;
	if (gprof_name(gprof_skip(s), &name, &len, &idx) == -1)
		goto bad;
	if ((from = gprof_func(gp, idx, name, len)) == UINT32_MAX)
		return (-1);
	if (gp->nedges == gp->edgecap) {
		if (gp->edgecap >= GPROF_MAX_FUNCS * 4U) {
			cause_set(&gp->why, "too many calls");
			return (-1);
		}
		cap = gp->edgecap ? gp->edgecap * 2 : 256;
		if ((ne = reallocarray(gp->edges, cap, sizeof *ne)) == NULL)
			return (-1);
		gp->edges = ne;
		gp->edgecap = cap;
	}
	e = &gp->edges[gp->nedges++];
	e->from = from;
	e->to = to;
	e->calls = calls;
	e->self = self;
	e->children = children;
	return (0);
bad:
	cause_set(&gp->why, "bad call graph line");
	return (-1);
}

/*
 * A primary line, "[N] %time self children [called] name [N]": the
 * function's figures, and the edges of the caller lines before it. A
 * cycle's "as a whole" entry is skipped. -1 on error.
 */
static int
gprof_primary(struct gprof *gp, const char *line)
{
	const char	*s = line, *name, *before;
	char		 t[GPROF_TOKEN];
	int64_t		 self, children;
	uint64_t	 idx, calls;
	uint32_t	 f;
	size_t		 i, len;

	if (!gprof_token(&s, t, sizeof t) || !gprof_token(&s, t, sizeof t) ||
	    !gprof_token(&s, t, sizeof t) || gprof_seconds(t, &self) == -1 ||
	    !gprof_token(&s, t, sizeof t) ||
	    gprof_seconds(t, &children) == -1)
		goto bad;
	before = s;
	if (!gprof_token(&s, t, sizeof t))
		goto bad;
	if (gprof_count(t, &calls, 0) == -1)
		s = before;
	s = gprof_skip(s);
	if (strncmp(s, "<cycle ", 7) == 0 && strstr(s, " as a whole>") != NULL)
		return (0);
	if (gprof_name(s, &name, &len, &idx) == -1)
		goto bad;
	if ((f = gprof_func(gp, idx, name, len)) == UINT32_MAX)
		return (-1);
	if (gp->funcs[f].primary) {
		cause_set(&gp->why, "function [%llu] has two entries",
		    (unsigned long long)idx);
		return (-1);
	}
	gp->funcs[f].primary = 1;
	gp->funcs[f].self = self;
	if (__builtin_add_overflow(self, children, &gp->funcs[f].total))
		goto bad;
	for (i = 0; i < gp->npending; i++) {
		if (gprof_caller(gp, gp->pending[i], f) == -1)
			return (-1);
	}
	gp->graph = 1;
	return (0);
bad:
	cause_set(&gp->why, "bad call graph entry");
	return (-1);
}

/*
 * A flat profile row, "%time cumulative self [calls self/call
 * total/call] name": the name's self time (a line of -l, "name
 * (file.c:43 @ 153a)", counts to its function). -1 on error.
 */
static int
gprof_flat(struct gprof *gp, const char *line)
{
	const char	*s = line, *name, *e, *p;
	char		 t[GPROF_TOKEN];
	int64_t		 self, v;
	uint64_t	 n;
	uint32_t	 bf, f;
	int		 k;

	if (!gprof_token(&s, t, sizeof t) || gprof_seconds(t, &v) == -1 ||
	    !gprof_token(&s, t, sizeof t) || gprof_seconds(t, &v) == -1 ||
	    !gprof_token(&s, t, sizeof t) || gprof_seconds(t, &self) == -1)
		goto bad;
	/* The three call columns, present only for functions with calls. */
	p = s;
	for (k = 0; k < 3; k++) {
		if (!gprof_token(&p, t, sizeof t) || (k == 0 ?
		    gprof_count(t, &n, 0) : gprof_seconds(t, &v)) == -1)
			break;
	}
	if (k == 3)
		s = p;
	name = gprof_skip(s);
	e = name + strlen(name);
	while (e > name && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e > name && e[-1] == ')' && (p = strstr(name, " (")) != NULL &&
	    p < e && memmem(p, e - p, " @ ", 3) != NULL)
		e = p;
	if (e == name)
		goto bad;
	/*
	 * Flat rows name functions; the graph's indices are unknown here,
	 * so they take indices past any of the graph's.
	 */
	bf = profile_builder_func_find(gp->b, name, e - name, "", 0);
	if (bf == PROFILE_NONE ||
	    (f = idmap_get(&gp->byname, bf)) == IDMAP_NONE) {
		if ((f = gprof_func(gp, (uint64_t)1 << 40 | gp->nfuncs, name,
		    e - name)) == UINT32_MAX ||
		    idmap_put(&gp->byname, gp->funcs[f].bf, f) == -1)
			return (-1);
		gp->funcs[f].flat = 1;
	}
	if (__builtin_add_overflow(gp->funcs[f].self, self,
	    &gp->funcs[f].self))
		goto bad;
	gp->funcs[f].total = gp->funcs[f].self;
	return (0);
bad:
	cause_set(&gp->why, "bad flat profile line");
	return (-1);
}

static void
gprof_free(struct gprof *gp)
{
	gprof_unpend(gp);
	free(gp->pending);
	profile_builder_free(gp->b);
	idmap_clear(&gp->byindex);
	idmap_clear(&gp->byname);
	free(gp->funcs);
	free(gp->edges);
	free(gp->why);
}

/*
 * The profile: a flat tree (each function under the root with its self
 * time) and the call graph with gprof's own figures. With a call graph,
 * a function's figures are its entry's; the flat profile (read first)
 * gives those of functions the graph does not have.
 */
static struct profile *
gprof_build(struct gprof *gp, char **cause)
{
	struct funcgraph	*g = NULL;
	struct profile		*p = NULL;
	struct gp_edge		*e;
	uint32_t		 f, n, k, *bfof = NULL;
	int64_t			 cost;
	int			 m;

	if ((m = profile_builder_metric(gp->b, "time", "us")) == -1)
		goto builderr;
	profile_builder_metric_rate(gp->b, m, 1e6);
	for (f = 0; f < gp->nfuncs; f++) {
		if (gp->funcs[f].self == 0 && gp->funcs[f].total == 0 &&
		    !gp->funcs[f].primary)
			continue;
		if ((n = profile_builder_child(gp->b, PROFILE_ROOT,
		    gp->funcs[f].bf)) == PROFILE_NONE ||
		    profile_builder_add(gp->b, n, m, gp->funcs[f].self) == -1)
			goto builderr;
	}
	p = profile_builder_finish(gp->b, cause);
	gp->b = NULL;
	if (p == NULL)
		return (NULL);
	if ((g = funcgraph_create(p->nfuncs, 1, 1)) == NULL)
		goto nomem;
	for (f = 0; f < gp->nfuncs; f++) {
		if (funcgraph_self(g, gp->funcs[f].bf, &gp->funcs[f].self) ==
		    -1 || funcgraph_total(g, gp->funcs[f].bf,
		    &gp->funcs[f].total) == -1)
			goto nomem;
	}
	for (k = 0; k < gp->nedges; k++) {
		e = &gp->edges[k];
		cost = e->self + e->children;
		if (funcgraph_edge(g, gp->funcs[e->from].bf,
		    gp->funcs[e->to].bf, e->calls, &cost, &e->self) == -1)
			goto nomem;
	}
	if (funcgraph_attach(g, p, cause) == -1) {
		funcgraph_free(g);
		profile_free(p);
		return (NULL);
	}
	free(bfof);
	return (p);
builderr:
	cause_set(cause, "%s", profile_builder_error(gp->b));
	return (NULL);
nomem:
	funcgraph_free(g);
	profile_free(p);
	free(bfof);
	cause_set(cause, "out of memory");
	return (NULL);
}

#define GP_NONE		0
#define GP_FLATHEAD	1
#define GP_FLAT		2
#define GP_GRAPH	3

static struct profile *
gprof_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct gprof	 gp;
	struct profile	*p = NULL;
	const char	*s;
	char		*line;
	size_t		 len;
	int		 state = GP_NONE, inentry = 0, done = 0;

	memset(&gp, 0, sizeof gp);
	idmap_init(&gp.byindex);
	idmap_init(&gp.byname);
	if (opts->variant != NULL && *opts->variant != '\0') {
		cause_set(cause, "gprof: no variants");
		return (NULL);
	}
	if ((gp.b = profile_builder_create("gprof")) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(gp.b, opts->max_nodes);

	while ((line = input_line(in, &len, &gp.why)) != NULL) {
		if (memchr(line, '\0', len) != NULL) {
			cause_set(&gp.why, "NUL byte (binary data?)");
			goto lineerr;
		}
		s = gprof_skip(line);
		switch (state) {
		case GP_NONE:
			if (strncmp(line, "Flat profile:", 13) == 0)
				state = GP_FLATHEAD;
			else if (strncmp(s, "index % time", 12) == 0) {
				state = GP_GRAPH;
				inentry = 0;
			}
			continue;
		case GP_FLATHEAD:
			if (strncmp(s, "time ", 5) == 0)
				state = GP_FLAT;
			continue;
		case GP_FLAT:
			if (*s == '\0' || *s == '\f') {
				state = GP_NONE;
				continue;
			}
			/* The flat profile counts only without a graph. */
			if (!gp.graph && gprof_flat(&gp, line) == -1)
				goto lineerr;
			continue;
		case GP_GRAPH:
			if (*s == '\0' || *s == '\f' ||
			    strncmp(s, "Index by function name", 22) == 0) {
				gprof_unpend(&gp);
				state = GP_NONE;
				done = 1;
				continue;
			}
			if (strncmp(s, "-----", 5) == 0) {
				gprof_unpend(&gp);
				inentry = 0;
				continue;
			}
			if (inentry)
				continue;	/* its callees: their entries */
			if (*s == '[') {
				if (gprof_primary(&gp, s) == -1)
					goto lineerr;
				gprof_unpend(&gp);
				inentry = 1;
			} else if (gprof_pend(&gp, line) == -1)
				goto lineerr;
			continue;
		}
	}
	if (gp.why != NULL) {
		cause_set(cause, "%s: %s", in->path, gp.why);
		goto fail;
	}
	if (state == GP_GRAPH && !done && gp.npending > 0) {
		cause_set(cause, "%s: the call graph ends inside an entry (cut "
		    "short?)", in->path);
		goto fail;
	}
	if (gp.nfuncs == 0) {
		cause_set(cause, "%s: no flat profile or call graph rows",
		    in->path);
		goto fail;
	}
	if ((p = gprof_build(&gp, cause)) == NULL) {
		if (*cause == NULL)
			cause_set(cause, "out of memory");
		goto fail;
	}
	gprof_free(&gp);
	return (p);
lineerr:
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, gp.why ? gp.why : "out of memory");
fail:
	gprof_free(&gp);
	return (NULL);
}

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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "idmap.h"
#include "lines.h"
#include "outbuf.h"
#include "profile.h"
#include "strpool.h"
#include "writer.h"

/*
 * Callgrind out (deepq-formats(5)), for KCachegrind and
 * callgrind_annotate. Callgrind holds a call graph, not a tree: every
 * call node adds its self cost to its function, and its inclusive cost
 * and one call to the edge from its parent's function (recursive edges
 * count their inner calls again, as callgrind's own files do). Every
 * metric is an event. The call count is the "calls" or "entries" metric
 * where the profile has one, else the number of call nodes of the edge.
 * Names are compressed ("(id) name" the first time), cob= and cfl= come
 * before cfn= (KCachegrind binds them there), unknown files and objects
 * are "???" as valgrind writes them, and the synthetic root is left out.
 *
 * With costs by source line (lines.h), a function's self cost is written
 * at its lines (fi= and fe= to the file of a line in another file: an
 * inlined function's), the rest at its definition's line; a call edge
 * whose cost the lines' calls account for exactly (every edge but a
 * recursive one) is written as one call from each line that makes it,
 * with its count shared by cost when the profile does not count calls
 * by line. callgrind_annotate then annotates the source as deepq does.
 */

struct cw {
	struct outbuf		*ob;
	const struct profile	*p;
	uint32_t		 nm;
	uint32_t		*fnid;		/* [nfuncs] compressed id, 0 new */
	uint32_t		*strid;		/* [nstrings] for fl= and ob= */
	uint32_t		 nextfn, nextfl, nextob;
	uint32_t		*obid;		/* [nstrings] */
	int			 modules;	/* any function has a module */
	uint32_t		 file;		/* the cost lines' file now */
};

static void	cw_text(struct outbuf *, const char *);
static void	cw_name(struct cw *, const char *, uint32_t *, uint32_t *,
		    const char *);
static void	cw_func(struct cw *, const char *, uint32_t);
static void	cw_costs(struct cw *, uint32_t, const int64_t *, size_t);
static void	cw_file(struct cw *, uint32_t, uint32_t);
static void	cw_self(struct cw *, uint32_t);
static int	cw_edge_lines(struct cw *, uint32_t, uint32_t,
		    const int64_t *, int64_t);

/* A name on one line: line breaks become spaces. */
static void
cw_text(struct outbuf *ob, const char *s)
{
	for (; *s != '\0'; s++)
		outbuf_putc(ob, *s == '\n' || *s == '\r' ? ' ' : *s);
}

/* key=(id) name the first time, key=(id) after. */
static void
cw_name(struct cw *w, const char *key, uint32_t *slot, uint32_t *next,
    const char *name)
{
	if (*slot != 0) {
		outbuf_printf(w->ob, "%s=(%u)\n", key, *slot);
		return;
	}
	*slot = ++*next;
	outbuf_printf(w->ob, "%s=(%u) ", key, *slot);
	cw_text(w->ob, *name != '\0' ? name : "???");
	outbuf_putc(w->ob, '\n');
}

/* ob= or cob=, fl= or cfl=, fn= or cfn= for function f (prefix "" or "c"). */
static void
cw_func(struct cw *w, const char *prefix, uint32_t f)
{
	const struct profile	*p = w->p;
	char			 key[8];
	uint32_t		 file = p->func_file[f], mod = p->func_module[f];

	if (w->modules) {
		snprintf(key, sizeof key, "%sob", prefix);
		cw_name(w, key, &w->obid[mod], &w->nextob,
		    profile_string(p, mod));
	}
	snprintf(key, sizeof key, "%sfl", prefix);
	cw_name(w, key, &w->strid[file], &w->nextfl, profile_string(p, file));
	snprintf(key, sizeof key, "%sfn", prefix);
	cw_name(w, key, &w->fnid[f], &w->nextfn, profile_func_name(p, f));
}

/* A cost line: a line number and one cost per event, v[k * stride]. */
static void
cw_costs(struct cw *w, uint32_t line, const int64_t *v, size_t stride)
{
	uint32_t	 k;

	outbuf_u64(w->ob, line);
	for (k = 0; k < w->nm; k++) {
		outbuf_putc(w->ob, ' ');
		outbuf_i64(w->ob, v[k * stride]);
	}
	outbuf_putc(w->ob, '\n');
}

/* Cost lines from now in file (fi=, or fe= back to function fn's own). */
static void
cw_file(struct cw *w, uint32_t fn, uint32_t file)
{
	if (file == w->file)
		return;
	cw_name(w, file == w->p->func_file[fn] ? "fe" : "fi",
	    &w->strid[file], &w->nextfl, profile_string(w->p, file));
	w->file = file;
}

/* Function fn's self cost: at its lines where it has them, the rest at
   its definition's. */
static void
cw_self(struct cw *w, uint32_t fn)
{
	const struct profile		*p = w->p;
	const struct profile_lines	*l = p->lines;
	int64_t				 v[PROFILE_MAX_METRICS];
	uint32_t			 k, r, first = 0, end = 0;
	int				 any;

	if (l != NULL && l->row_addr == NULL)
		first = lines_func_first(l, fn), end = lines_func_end(l, fn);
	for (k = 0; k < w->nm; k++)
		v[k] = p->metrics[k].func_self[fn];
	for (r = first; r < end; r++) {
		for (k = 0, any = 0; k < w->nm; k++) {
			any |= l->self[(size_t)k * l->nrows + r] != 0;
			v[k] -= l->self[(size_t)k * l->nrows + r];
		}
		if (!any)
			continue;
		cw_file(w, fn, l->row_file[r]);
		cw_costs(w, l->row_line[r], l->self + r, l->nrows);
	}
	for (k = 0, any = first == end; k < w->nm; k++)
		any |= v[k] != 0;
	if (any) {
		cw_file(w, fn, p->func_file[fn]);
		cw_costs(w, p->func_line[fn], v, 1);
	}
}

/*
 * Edge fn -> to of inclusive cost incl and count calls, from the lines
 * that make it when their calls' costs add up to incl exactly: 0, or -1
 * when they do not (the caller writes the edge whole).
 */
static int
cw_edge_lines(struct cw *w, uint32_t fn, uint32_t to, const int64_t *incl,
    int64_t calls)
{
	const struct profile		*p = w->p;
	const struct profile_lines	*l = p->lines;
	int64_t				 sum[PROFILE_MAX_METRICS], w0 = 0, cum;
	int64_t				 c, prev = 0;
	uint32_t			 r, i, k, first, end;

	if (l == NULL || l->row_addr != NULL || l->nmetrics != w->nm)
		return (-1);
	first = lines_func_first(l, fn);
	end = lines_func_end(l, fn);
	memset(sum, 0, sizeof sum);
	for (r = first; r < end; r++) {
		for (i = l->row_calls[r]; i < l->row_calls[r + 1]; i++) {
			if (l->call_func[i] != to)
				continue;
			for (k = 0; k < w->nm; k++)
				sum[k] += l->call_total[(size_t)k * l->ncalls +
				    i];
			w0 += l->call_total[i];
		}
	}
	for (k = 0; k < w->nm; k++) {
		if (sum[k] != incl[k])
			return (-1);
	}
	if (w0 == 0 && l->call_count == NULL)
		return (-1);
	for (cum = 0, r = first; r < end; r++) {
		for (i = l->row_calls[r]; i < l->row_calls[r + 1]; i++) {
			if (l->call_func[i] != to)
				continue;
			/* The count: the line's own, or shared by cost. */
			cum += l->call_total[i];
			if (l->call_count != NULL)
				c = (int64_t)l->call_count[i];
			else {
				c = (int64_t)((__int128)calls * cum / w0) -
				    prev;
				prev += c;
			}
			cw_file(w, fn, l->row_file[r]);
			k = p->func_module[to];
			if (w->modules && k != p->func_module[fn])
				cw_name(w, "cob", &w->obid[k], &w->nextob,
				    profile_string(p, k));
			cw_name(w, "cfl", &w->strid[p->func_file[to]],
			    &w->nextfl, profile_string(p, p->func_file[to]));
			cw_name(w, "cfn", &w->fnid[to], &w->nextfn,
			    profile_func_name(p, to));
			outbuf_printf(w->ob, "calls=%" PRId64 " %u\n", c,
			    p->func_line[to]);
			cw_costs(w, l->row_line[r], l->call_total + i,
			    l->ncalls);
		}
	}
	return (0);
}

/*
 * The ne edges (caller efrom[e]) grouped by caller: fn's are order[first[fn]]
 * to order[first[fn + 1] - 1] (a counting sort keeps callee order).
 */
static void
writer_callgrind_group(const struct profile *p, const uint32_t *efrom,
    uint32_t ne, uint32_t *first, uint32_t *order)
{
	uint32_t	 e, i;

	for (e = 0; e < ne; e++)
		first[efrom[e] + 1]++;
	for (i = 0; i < p->nfuncs; i++)
		first[i + 1] += first[i];
	for (e = 0; e < ne; e++)
		order[first[efrom[e]]++] = e;
	for (i = p->nfuncs; i > 0; i--)
		first[i] = first[i - 1];
	first[0] = 0;
}

/* The header: format, version, creator, command and events. */
static void
writer_callgrind_header(struct cw *w)
{
	const struct profile	*p = w->p;
	struct outbuf		*ob = w->ob;
	const char		*s;
	uint32_t		 k;

	outbuf_puts(ob, "# callgrind format\nversion: 1\ncreator: deepq "
	    PACKAGE_VERSION "\n");
	if (p->source != NULL) {
		/* The file's name only: no server path in an answer. */
		s = strrchr(p->source, '/');
		outbuf_puts(ob, "cmd: ");
		cw_text(ob, s != NULL && s[1] != '\0' ? s + 1 : p->source);
		outbuf_putc(ob, '\n');
	}
	outbuf_puts(ob, "positions: line\nevents:");
	for (k = 0; k < w->nm; k++) {
		outbuf_putc(ob, ' ');
		/* Event names are tokens. */
		for (s = p->metrics[k].name; *s != '\0'; s++)
			outbuf_putc(ob, (*s >= 'a' && *s <= 'z') ||
			    (*s >= 'A' && *s <= 'Z') || (*s >= '0' &&
			    *s <= '9') ? *s : '_');
		if (*p->metrics[k].name == '\0')
			outbuf_printf(ob, "m%u", k);
	}
	outbuf_puts(ob, "\n");
}

/*
 * Function fn's record: its self costs, then its calls, the edges
 * order[first[fn]] to order[first[fn + 1] - 1] (callee eto[e],
 * inclusive costs incl[e * w->nm], calls[e]), by line where the lines
 * add up.
 */
static void
writer_callgrind_func(struct cw *w, uint32_t fn, const uint32_t *first,
    const uint32_t *order, const uint32_t *eto, const int64_t *incl,
    const int64_t *calls)
{
	const struct profile	*p = w->p;
	int64_t			 v[PROFILE_MAX_METRICS];
	uint32_t		 i, k, e, g, to;

	cw_func(w, "", fn);
	w->file = p->func_file[fn];
	if (p->lines != NULL && p->lines->nfuncs == p->nfuncs)
		cw_self(w, fn);
	else {
		for (k = 0; k < w->nm; k++)
			v[k] = p->metrics[k].func_self[fn];
		cw_costs(w, p->func_line[fn], v, 1);
	}
	for (i = first[fn]; i < first[fn + 1]; i++) {
		e = order[i];
		to = eto[e];
		if (p->lines != NULL && p->lines->nfuncs == p->nfuncs &&
		    cw_edge_lines(w, fn, to, incl + (size_t)e * w->nm,
		    calls[e]) == 0)
			continue;
		cw_file(w, fn, p->func_file[fn]);
		g = p->func_module[to];
		if (w->modules && g != p->func_module[fn])
			cw_name(w, "cob", &w->obid[g], &w->nextob,
			    profile_string(p, g));
		cw_name(w, "cfl", &w->strid[p->func_file[to]], &w->nextfl,
		    profile_string(p, p->func_file[to]));
		cw_name(w, "cfn", &w->fnid[to], &w->nextfn,
		    profile_func_name(p, to));
		outbuf_printf(w->ob, "calls=%" PRId64 " %u\n", calls[e],
		    p->func_line[to]);
		cw_costs(w, p->func_line[fn], incl + (size_t)e * w->nm, 1);
	}
}

/* Write p as a callgrind profile (version 1). */
int
writer_callgrind(struct outbuf *ob, const struct profile *p,
    const struct writer_options *o, char **cause)
{
	struct cw	 w;
	struct idmap	 map;
	uint32_t	*efrom = NULL, *eto = NULL, *first = NULL, *order = NULL;
	uint32_t	 ne = 0, n, e, fn, k, from, nstr;
	int64_t		*incl = NULL, *calls = NULL, *selfs = NULL;
	uint8_t		*used = NULL;
	int		 mcalls, r = -1;

	memset(&w, 0, sizeof w);
	idmap_init(&map);
	w.ob = ob;
	w.p = p;
	w.nm = p->nmetrics;
	nstr = strpool_count(p->strings);
	if ((mcalls = profile_metric_find(p, "calls")) == -1)
		mcalls = profile_metric_find(p, "entries");
	if ((w.fnid = calloc(p->nfuncs + 1, sizeof *w.fnid)) == NULL ||
	    (w.strid = calloc(nstr + 1, sizeof *w.strid)) == NULL ||
	    (w.obid = calloc(nstr + 1, sizeof *w.obid)) == NULL ||
	    (used = calloc(p->nfuncs + 1, 1)) == NULL ||
	    (efrom = malloc(p->nnodes * sizeof *efrom)) == NULL ||
	    (eto = malloc(p->nnodes * sizeof *eto)) == NULL ||
	    (calls = calloc(p->nnodes, sizeof *calls)) == NULL ||
	    (incl = calloc((size_t)p->nnodes * w.nm, sizeof *incl)) == NULL ||
	    (selfs = calloc((size_t)w.nm, sizeof *selfs)) == NULL ||
	    (first = calloc(p->nfuncs + 2, sizeof *first)) == NULL ||
	    (order = malloc(p->nnodes * sizeof *order)) == NULL)
		goto nomem;

	/* The edges: (caller, callee) -> inclusive costs and calls. */
	for (n = 1; n < p->nnodes; n++) {
		if (writer_charge(o, ob, 1) == -1) {
			cause_set(cause, "write error");
			goto done;
		}
		fn = p->node_func[n];
		used[fn] = 1;
		if (*profile_func_module(p, fn) != '\0')
			w.modules = 1;
		if (p->node_parent[n] == PROFILE_ROOT)
			continue;
		from = p->node_func[p->node_parent[n]];
		if ((e = idmap_get(&map, (uint64_t)from << 32 | fn)) ==
		    IDMAP_NONE) {
			e = ne++;
			if (idmap_put(&map, (uint64_t)from << 32 | fn, e) == -1)
				goto nomem;
			efrom[e] = from;
			eto[e] = fn;
		}
		for (k = 0; k < w.nm; k++)
			incl[(size_t)e * w.nm + k] += p->metrics[k].total[n];
		calls[e] += mcalls >= 0 && p->metrics[mcalls].self[n] > 0 ?
		    p->metrics[mcalls].self[n] : 1;
	}
	writer_callgrind_group(p, efrom, ne, first, order);
	writer_callgrind_header(&w);
	for (k = 0; k < w.nm; k++)
		selfs[k] = p->metrics[k].sum;
	outbuf_puts(ob, "summary:");
	for (k = 0; k < w.nm; k++)
		outbuf_printf(ob, " %" PRId64, selfs[k]);
	outbuf_puts(ob, "\n\n");

	for (fn = 0; fn < p->nfuncs; fn++) {
		if (fn == PROFILE_ROOT) {
			for (k = 0; k < w.nm && p->metrics[k].self[0] == 0; k++)
				;
			if (k == w.nm)
				continue;
		} else if (!used[fn])
			continue;
		/* A failed buffer (a deadline) stops the walk. */
		if (outbuf_failed(ob) == -1 || writer_charge(o, ob, 1 +
		    first[fn + 1] - first[fn]) == -1)
			break;
		writer_callgrind_func(&w, fn, first, order, eto, incl, calls);
		outbuf_putc(ob, '\n');
	}
	outbuf_puts(ob, "totals:");
	for (k = 0; k < w.nm; k++)
		outbuf_printf(ob, " %" PRId64, selfs[k]);
	outbuf_putc(ob, '\n');
	if (outbuf_failed(ob) == -1) {
		cause_set(cause, "write error");
		goto done;
	}
	r = 0;
	goto done;
nomem:
	cause_set(cause, "out of memory");
done:
	idmap_clear(&map);
	free(w.fnid);
	free(w.strid);
	free(w.obid);
	free(used);
	free(efrom);
	free(eto);
	free(calls);
	free(incl);
	free(selfs);
	free(first);
	free(order);
	(void)o;
	return (r);
}

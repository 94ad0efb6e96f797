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
#include <time.h>

#include "cause.h"
#include "hash.h"
#include "clickhouse.h"
#include "outbuf.h"
#include "profile-builder.h"
#include "profile.h"
#include "rundir.h"
#include "selector.h"
#include "view-query.h"
#include "view-schema.h"

/*
 * The queries of a view (see view-query.h). A view is the profiles of
 * T_profiles its selection picks (the file's where= and select=, a
 * query's select=, a time range), and the samples of their loads in T:
 *
 *	load_id GLOBAL IN (SELECT min(load_id) FROM T_profiles
 *	    WHERE <selection> GROUP BY profile_id)
 *
 * (min: should two ingests of one profile have raced, one counts), with
 * the label sets and days of the selection repeated for T's sorting key.
 * GLOBAL runs a subquery once on the server asked and ships its set to
 * the shards of a cluster; on one server it is a plain IN.
 *
 * The profile comes from one query: the samples summed by stack hash in
 * the database (each shard sums its rows, the server asked merges),
 * joined with T_stacks for each stack's frames, sent once:
 *
 *	SELECT stack_hash, funcs, modules, v0 [, v1...] FROM T_stacks
 *	GLOBAL ANY INNER JOIN (SELECT stack_hash, sum(value) AS v0
 *	    FROM T WHERE <samples> GROUP BY stack_hash) USING stack_hash
 *
 * and is parsed as it arrives, one row at a time, into the profile
 * builder. T_stacks is a ReplacingMergeTree: until ClickHouse merges
 * its parts a stack may come twice, with the same sums; the second is
 * known by its leaf node having had that hash already, and skipped.
 */

#define VIEW_MAX_DEPTH		65536		/* frames in one stack */
#define VIEW_MAX_METRICS	16		/* PROFILE_MAX_METRICS */
#define VIEW_SMALL		(16 << 20)	/* bytes of a small answer */

struct view_metric {
	char		*name;
	char		*unit;
	uint64_t	 index;		/* smallest metric_index */
	double		 rate;
	int		 col;		/* the builder's */
};

/* A row of the stacks' answer, its fields in the window. */
struct view_row {
	uint64_t		 hash;
	uint64_t		 depth;
	const unsigned char	*funcs;		/* the first name's length */
	const unsigned char	*modules;
	const unsigned char	*values;
	size_t			 len;		/* bytes of the row */
};

/*
 * A two-way set-associative cache of frames (a name and its module of
 * at most VIEW_FRAME_MAX bytes together) in front of the builder's
 * function lookup, which hashes the name and the module into the string
 * pool and then the pair: a view of millions of stacks repeats a few
 * thousand frames. A frame maps to one function for the whole load, so
 * an entry is only ever overwritten, never stale. It grows with the
 * frames it holds, up to 2 << VIEW_FRAME_MAXBITS entries (18 MB).
 */
#define VIEW_FRAME_MAX		54
#define VIEW_FRAME_BITS		12		/* sets of two, at first */
#define VIEW_FRAME_MAXBITS	17

struct view_frame {
	uint32_t		 fn;
	uint8_t			 nlen;
	uint8_t			 mlen;		/* nlen + mlen 0: empty */
	char			 key[VIEW_FRAME_MAX];	/* name, module */
};

/* The stacks' answer being built into a profile. */
struct view_build {
	struct profile_builder	*b;
	struct view_metric	*m;
	size_t			 nm;
	uint64_t		*leaf;		/* hash of each node's row, or 0 */
	size_t			 nleaf;
	uint64_t		 stacks;	/* distinct */
	uint64_t		 rows;
	struct view_frame	*frames;	/* [2 << framebits] */
	int			 framebits;
	size_t			 nframes;	/* frames put in the cache */
	/*
	 * The last row's functions and nodes: rows that share a prefix of
	 * frames (an answer in order) reuse its nodes.
	 */
	uint32_t		*fn;
	uint32_t		*node;
	size_t			 depth;
	size_t			 cap;
};

static void	 view_query_table(struct outbuf *, const struct view_query *,
		     const char *);
static void	 view_query_profiles(struct outbuf *,
		     const struct view_query *);
static void	 view_query_samples(struct outbuf *,
		     const struct view_query *);
static int	 view_query_run(const struct view_query *, struct outbuf *,
		     int, struct clickhouse_answer **, int *, char **);
static int	 view_query_small(const struct view_query *, struct outbuf *,
		     struct outbuf *, int *, char **);
static int	 view_query_metrics(const struct view_query *,
		     struct view_metric *, size_t *, size_t *, int *,
		     char **);
static int	 view_query_summary(const struct view_query *,
		     struct view_summary *, int *, char **);
static int	 view_query_stacks(const struct view_query *,
		     struct view_build *, size_t, int *, char **);
static int	 view_build_answer(struct clickhouse_answer *,
		     struct view_build *, long long, const char *, int *,
		     char **);
static int	 view_row_scan(const unsigned char *, const unsigned char *,
		     size_t, struct view_row *);
static int	 view_row_add(struct view_build *, const struct view_row *,
		     char **);

/* The time range in force: the file's, the load's last=, the query's. */
static void
view_query_range(const struct view_query *vq, time_t *from, time_t *to)
{
	*from = vq->conf->from;
	*to = vq->conf->to;
	if (vq->conf->last != 0 && vq->now - vq->conf->last > *from)
		*from = vq->now - vq->conf->last;
	if (vq->narrow != NULL && vq->narrow->from > *from)
		*from = vq->narrow->from;
	if (vq->narrow != NULL && vq->narrow->to != 0 &&
	    (*to == 0 || vq->narrow->to < *to))
		*to = vq->narrow->to;
}

static void
view_query_table(struct outbuf *ob, const struct view_query *vq,
    const char *suffix)
{
	view_schema_name(ob, vq->conf->database, vq->conf->table, suffix);
}

/* The selection of T_profiles: where=, the selectors, the time range. */
static void
view_query_profiles(struct outbuf *ob, const struct view_query *vq)
{
	time_t	 from, to;

	if (vq->conf->where != NULL && *vq->conf->where != '\0')
		outbuf_printf(ob, "(\n%s\n)", vq->conf->where);
	else
		outbuf_putc(ob, '1');
	outbuf_puts(ob, " AND ");
	selector_sql(vq->conf->select, "labels", ob);
	if (vq->narrow != NULL && vq->narrow->select != NULL) {
		outbuf_puts(ob, " AND ");
		selector_sql(vq->narrow->select, "labels", ob);
	}
	view_query_range(vq, &from, &to);
	if (from != 0)
		outbuf_printf(ob, " AND ts >= toDateTime(%lld)",
		    (long long)from);
	if (to != 0)
		outbuf_printf(ob, " AND ts < toDateTime(%lld)", (long long)to);
}

/* The selection of T: the loads of the profiles selected. */
static void
view_query_samples(struct outbuf *ob, const struct view_query *vq)
{
	time_t	 from, to;

	outbuf_puts(ob, "load_id GLOBAL IN (SELECT min(load_id) FROM ");
	view_query_table(ob, vq, VIEW_SCHEMA_PROFILES);
	outbuf_puts(ob, " WHERE ");
	view_query_profiles(ob, vq);
	outbuf_puts(ob, " GROUP BY profile_id)\n  AND series GLOBAL IN "
	    "(SELECT DISTINCT series FROM ");
	view_query_table(ob, vq, VIEW_SCHEMA_PROFILES);
	outbuf_puts(ob, " WHERE ");
	view_query_profiles(ob, vq);
	outbuf_putc(ob, ')');
	view_query_range(vq, &from, &to);
	if (from != 0)
		outbuf_printf(ob, " AND ts >= toDateTime(%lld)",
		    (long long)from);
	if (to != 0)
		outbuf_printf(ob, " AND ts < toDateTime(%lld)", (long long)to);
	if (vq->conf->metric != NULL) {
		outbuf_puts(ob, " AND metric = ");
		clickhouse_quote(ob, vq->conf->metric,
		    strlen(vq->conf->metric));
	}
}

/*
 * Send the SQL in sql (emptied) and open its answer. small: buffered
 * whole by ClickHouse first (wait_end_of_query), so that an error is
 * an HTTP status, not text after the rows. *status: 503 when ClickHouse
 * or a shard is unreachable or the time ran out, 422 for a refusal.
 */
static int
view_query_run(const struct view_query *vq, struct outbuf *sql, int small,
    struct clickhouse_answer **a, int *status, char **cause)
{
	char			 settings[128];
	char			*text;
	size_t			 len;
	long long		 left;
	unsigned long long	 max;
	int			 r, secs = (int)vq->conf->timeout;

	if (vq->deadline != 0) {
		if ((left = vq->deadline - rundir_now()) <= 0) {
			*status = 503;
			cause_set(cause, "%s: out of time for ClickHouse",
			    vq->path);
			outbuf_clear(sql);
			return (-1);
		}
		clickhouse_deadline(vq->ch, vq->deadline);
		if (left / 1000 + 1 < secs)
			secs = (int)(left / 1000 + 1);
	}
	snprintf(settings, sizeof settings, "max_execution_time=%d%s", secs,
	    small ? "&wait_end_of_query=1" : "");
	if ((text = outbuf_take(sql, &len)) == NULL) {
		*status = 500;
		cause_set(cause, "out of memory");
		return (-1);
	}
	max = small ? VIEW_SMALL : (unsigned long long)vq->conf->max_bytes;
	r = clickhouse_open(vq->ch, settings, text, len, max, a, cause);
	free(text);
	if (r != 0) {
		*status = r == CLICKHOUSE_UNAVAILABLE ? 503 : 422;
		return (-1);
	}
	return (0);
}

/* Run the SQL in sql; the whole answer into out. */
static int
view_query_small(const struct view_query *vq, struct outbuf *sql,
    struct outbuf *out, int *status, char **cause)
{
	struct clickhouse_answer	*a;
	int				 r;

	if (view_query_run(vq, sql, 1, &a, status, cause) == -1)
		return (-1);
	outbuf_clear(out);
	do {
		outbuf_write(out, a->p, (size_t)(a->end - a->p));
		a->p = a->end;
	} while ((r = clickhouse_fill(a, 1, cause)) == 0);
	if (r == -1)
		*status = a->error == CLICKHOUSE_UNAVAILABLE ? 503 : 422;
	clickhouse_answer_free(a);
	if (r == -1)
		return (-1);
	if (outbuf_failed(out)) {
		*status = 500;
		cause_set(cause, "out of memory");
		return (-1);
	}
	return (0);
}

/* A RowBinary string at *p (at most end); -1 if it runs past. */
static int
view_rb_string(const unsigned char **p, const unsigned char *end,
    const char **s, size_t *len)
{
	uint64_t	 n;

	if (clickhouse_get_varint(p, end, &n) == -1 ||
	    n > (uint64_t)(end - *p))
		return (-1);
	*s = (const char *)*p;
	*len = (size_t)n;
	*p += n;
	return (0);
}

static int
view_metric_cmp(const void *a, const void *b)
{
	const struct view_metric	*x = a, *y = b;

	if (x->index != y->index)
		return (x->index < y->index ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/*
 * The metrics of the selected profiles, by name: each its smallest
 * index, a unit and the largest rate, in the order of the profiles'
 * own metrics. *all: how many there are before metric= keeps one.
 */
static int
view_query_metrics(const struct view_query *vq, struct view_metric *m,
    size_t *nm, size_t *all, int *status, char **cause)
{
	struct outbuf		 sql, ans;
	const unsigned char	*p, *end;
	const char		*s, *u;
	size_t			 len, ulen;
	uint64_t		 idx;
	union { double d; uint64_t u; } rate;
	int			 r = -1;

	*nm = *all = 0;
	outbuf_init(&sql);
	outbuf_init(&ans);
	outbuf_puts(&sql, "SELECT m, toUInt64(min(i)), any(u), max(r) FROM "
	    "(SELECT metrics[i] AS m, i, units[i] AS u, rates[i] AS r FROM ");
	view_query_table(&sql, vq, VIEW_SCHEMA_PROFILES);
	outbuf_puts(&sql, " ARRAY JOIN arrayEnumerate(metrics) AS i WHERE ");
	view_query_profiles(&sql, vq);
	outbuf_printf(&sql, ") GROUP BY m ORDER BY m LIMIT %d "
	    "FORMAT RowBinary", 4 * VIEW_MAX_METRICS);
	if (view_query_small(vq, &sql, &ans, status, cause) == -1)
		goto out;
	p = (const unsigned char *)ans.b;
	end = p + ans.n;
	while (p < end) {
		if (view_rb_string(&p, end, &s, &len) == -1 || end - p < 8)
			goto bad;
		idx = clickhouse_get_fixed(p, 8);
		p += 8;
		if (view_rb_string(&p, end, &u, &ulen) == -1 || end - p < 8)
			goto bad;
		(*all)++;
		if (vq->conf->metric != NULL &&
		    (strlen(vq->conf->metric) != len ||
		    memcmp(vq->conf->metric, s, len) != 0)) {
			p += 8;
			continue;
		}
		if (*nm == VIEW_MAX_METRICS) {
			*status = 422;
			cause_set(cause, "%s: more than %d metrics; choose one "
			    "with metric=", vq->path, VIEW_MAX_METRICS);
			goto out;
		}
		memset(&m[*nm], 0, sizeof m[*nm]);
		m[*nm].index = idx;
		rate.u = clickhouse_get_fixed(p, 8);
		m[*nm].rate = rate.d;
		p += 8;
		if ((m[*nm].name = strndup(s, len)) == NULL ||
		    (m[*nm].unit = strndup(u, ulen)) == NULL) {
			free(m[*nm].name);
			goto nomem;
		}
		(*nm)++;
	}
	qsort(m, *nm, sizeof *m, view_metric_cmp);
	r = 0;
	goto out;
bad:
	*status = 422;
	cause_set(cause, "%s: ClickHouse's list of metrics is malformed",
	    vq->path);
	goto out;
nomem:
	*status = 500;
	cause_set(cause, "out of memory");
out:
	outbuf_clear(&sql);
	outbuf_clear(&ans);
	return (r);
}

void
view_summary_clear(struct view_summary *vs)
{
	size_t	 i;

	for (i = 0; i < vs->nlabels; i++)
		free(vs->labels[i]);
	free(vs->labels);
	free(vs->counts);
	memset(vs, 0, sizeof *vs);
}

/* The profiles selected and their times. */
static int
view_query_summary(const struct view_query *vq, struct view_summary *vs,
    int *status, char **cause)
{
	struct outbuf		 sql, ans;
	int			 r = -1;

	memset(vs, 0, sizeof *vs);
	outbuf_init(&sql);
	outbuf_init(&ans);
	outbuf_puts(&sql, "SELECT uniqExact(profile_id), "
	    "toUInt32(min(ts)), toUInt32(max(ts)) FROM ");
	view_query_table(&sql, vq, VIEW_SCHEMA_PROFILES);
	outbuf_puts(&sql, " WHERE ");
	view_query_profiles(&sql, vq);
	outbuf_puts(&sql, " FORMAT RowBinary");
	if (view_query_small(vq, &sql, &ans, status, cause) == -1)
		goto out;
	if (ans.n != 16) {
		*status = 422;
		cause_set(cause, "%s: ClickHouse's summary is malformed",
		    vq->path);
		goto out;
	}
	vs->profiles = clickhouse_get_fixed((unsigned char *)ans.b, 8);
	vs->first = (time_t)clickhouse_get_fixed((unsigned char *)ans.b + 8,
	    4);
	vs->last = (time_t)clickhouse_get_fixed((unsigned char *)ans.b + 12,
	    4);
	r = 0;
out:
	outbuf_clear(&sql);
	outbuf_clear(&ans);
	return (r);
}

/*
 * The labels present in the view, each with its number of profiles: at
 * most VIEW_MAX_LABELS, vs->truncated when there are more. Asked when a
 * page shows them (the summary), not with every load.
 */
int
view_query_labels(const struct view_query *vq, struct view_summary *vs,
    int *status, char **cause)
{
	struct outbuf		 sql, ans;
	const unsigned char	*p, *end;
	const char		*s;
	size_t			 len;
	int			 r = -1;

	outbuf_init(&sql);
	outbuf_init(&ans);
	outbuf_puts(&sql, "SELECT l, uniqExact(profile_id) FROM ");
	view_query_table(&sql, vq, VIEW_SCHEMA_PROFILES);
	outbuf_puts(&sql, " ARRAY JOIN labels AS l WHERE ");
	view_query_profiles(&sql, vq);
	outbuf_printf(&sql, " GROUP BY l ORDER BY l LIMIT %d "
	    "FORMAT RowBinary", VIEW_MAX_LABELS + 1);
	if (view_query_small(vq, &sql, &ans, status, cause) == -1)
		goto out;
	if ((vs->labels = calloc(VIEW_MAX_LABELS, sizeof *vs->labels)) ==
	    NULL || (vs->counts = calloc(VIEW_MAX_LABELS,
	    sizeof *vs->counts)) == NULL)
		goto nomem;
	p = (const unsigned char *)ans.b;
	end = p + ans.n;
	while (p < end) {
		if (view_rb_string(&p, end, &s, &len) == -1 || end - p < 8) {
			*status = 422;
			cause_set(cause, "%s: ClickHouse's labels are "
			    "malformed", vq->path);
			goto out;
		}
		if (vs->nlabels == VIEW_MAX_LABELS) {
			vs->truncated = 1;
			break;
		}
		if ((vs->labels[vs->nlabels] = strndup(s, len)) == NULL)
			goto nomem;
		vs->counts[vs->nlabels++] = clickhouse_get_fixed(p, 8);
		p += 8;
	}
	vs->labelled = 1;
	r = 0;
	goto out;
nomem:
	*status = 500;
	cause_set(cause, "out of memory");
out:
	if (r == -1) {
		while (vs->nlabels > 0)
			free(vs->labels[--vs->nlabels]);
		free(vs->labels);
		free(vs->counts);
		vs->labels = NULL;
		vs->counts = NULL;
		vs->truncated = 0;
	}
	outbuf_clear(&sql);
	outbuf_clear(&ans);
	return (r);
}

/*
 * The row at p: 1 complete (r filled), 0 incomplete (more bytes
 * needed), -1 malformed.
 */
static int
view_row_scan(const unsigned char *p, const unsigned char *end, size_t nv,
    struct view_row *r)
{
	const unsigned char	*start = p;
	uint64_t		 n, len, d;
	int			 pass;

	if (end - p < 8)
		return (0);
	r->hash = clickhouse_get_fixed(p, 8);
	p += 8;
	for (pass = 0; pass < 2; pass++) {
		if (clickhouse_get_varint(&p, end, &n) == -1)
			return (end - p >= 10 ? -1 : 0);
		if (pass == 0) {
			if (n > VIEW_MAX_DEPTH)
				return (-1);
			r->depth = n;
			r->funcs = p;
		} else {
			if (n != r->depth)
				return (-1);
			r->modules = p;
		}
		for (d = 0; d < n; d++) {
			if (clickhouse_get_varint(&p, end, &len) == -1)
				return (end - p >= 10 ? -1 : 0);
			if (len > (uint64_t)(end - p))
				return (0);
			p += len;
		}
	}
	if ((size_t)(end - p) < 8 * nv)
		return (0);
	r->values = p;
	r->len = (size_t)(p + 8 * nv - start);
	return (1);
}

/* The cache set of a frame, by its hash. */
static inline uint64_t
view_frame_hash(const char *name, size_t nlen, const char *mod, size_t mlen)
{
	return (hash_name(name, nlen, NULL) * 0x9e3779b97f4a7c15ULL ^
	    hash_name(mod, mlen, NULL));
}

/*
 * Make the frame cache, or double its sets, keeping the frames it holds
 * (the first entry of a set before the second, as they were).
 */
static int
view_frames_grow(struct view_build *vb)
{
	struct view_frame	*t, *old = vb->frames, *c;
	size_t			 i, nold;
	uint64_t		 h;
	int			 bits;

	bits = old == NULL ? VIEW_FRAME_BITS : vb->framebits + 1;
	if ((t = calloc((size_t)2 << bits, sizeof *t)) == NULL)
		return (-1);
	nold = old == NULL ? 0 : (size_t)2 << vb->framebits;
	vb->nframes = 0;
	for (i = 0; i < nold; i++) {
		if (old[i].nlen + old[i].mlen == 0)
			continue;
		h = view_frame_hash(old[i].key, old[i].nlen,
		    old[i].key + old[i].nlen, old[i].mlen);
		c = &t[(h >> (64 - bits)) * 2];
		c = c[0].nlen + c[0].mlen == 0 ? &c[0] : &c[1];
		if (c->nlen + c->mlen == 0) {
			*c = old[i];
			vb->nframes++;
		}
	}
	free(old);
	vb->frames = t;
	vb->framebits = bits;
	return (0);
}

static inline int
view_frame_eq(const struct view_frame *c, const char *name, size_t nlen,
    const char *mod, size_t mlen)
{
	return (c->nlen == nlen && c->mlen == mlen && nlen + mlen > 0 &&
	    memcmp(c->key, name, nlen) == 0 &&
	    memcmp(c->key + nlen, mod, mlen) == 0);
}

/*
 * The function of a frame: from the cache, or found or made by the
 * builder and then cached in its set's first entry (the one there
 * moves to the second).
 */
static uint32_t
view_frame_func(struct view_build *vb, const char *name, size_t nlen,
    const char *mod, size_t mlen)
{
	struct view_frame	*c;
	uint32_t		 fn;

	if (nlen + mlen > VIEW_FRAME_MAX || nlen + mlen == 0 ||
	    (vb->frames == NULL && view_frames_grow(vb) == -1))
		return (profile_builder_func(vb->b, name, nlen, mod, mlen));
	c = &vb->frames[(view_frame_hash(name, nlen, mod, mlen) >>
	    (64 - vb->framebits)) * 2];
	if (view_frame_eq(&c[0], name, nlen, mod, mlen))
		return (c[0].fn);
	if (view_frame_eq(&c[1], name, nlen, mod, mlen))
		return (c[1].fn);
	if ((fn = profile_builder_func(vb->b, name, nlen, mod, mlen)) ==
	    PROFILE_NONE)
		return (fn);
	if (c[0].nlen + c[0].mlen != 0)
		c[1] = c[0];
	c[0].fn = fn;
	c[0].nlen = (uint8_t)nlen;
	c[0].mlen = (uint8_t)mlen;
	memcpy(c[0].key, name, nlen);
	memcpy(c[0].key + nlen, mod, mlen);
	/* A full cache only slows the load: it may stay as it is. */
	if (++vb->nframes > ((size_t)1 << vb->framebits) &&
	    vb->framebits < VIEW_FRAME_MAXBITS)
		(void)view_frames_grow(vb);
	return (fn);
}

/* Room for the functions and nodes of a row of depth frames. */
static int
view_build_room(struct view_build *vb, size_t depth)
{
	size_t	 cap;
	void	*p;

	for (cap = vb->cap ? vb->cap : 64; cap < depth; cap *= 2)
		;
	if ((p = reallocarray(vb->fn, cap, sizeof *vb->fn)) == NULL)
		return (-1);
	vb->fn = p;
	if ((p = reallocarray(vb->node, cap, sizeof *vb->node)) == NULL)
		return (-1);
	vb->node = p;
	vb->cap = cap;
	return (0);
}

/* Room in leaf[] for node. */
static int
view_build_leaf(struct view_build *vb, uint32_t node)
{
	uint64_t	*leaf;
	size_t		 cap;

	for (cap = vb->nleaf ? vb->nleaf : 4096; cap <= node; cap *= 2)
		;
	if ((leaf = reallocarray(vb->leaf, cap, sizeof *leaf)) == NULL)
		return (-1);
	memset(leaf + vb->nleaf, 0, (cap - vb->nleaf) * sizeof *leaf);
	vb->leaf = leaf;
	vb->nleaf = cap;
	return (0);
}

/*
 * Put a complete row into the profile. Its frames first become
 * functions (through the frame cache); those the row before had in the
 * same places keep their nodes, the others are looked up, and once one
 * is new the rest are a chain of new nodes (no lookup), as the folded
 * reader does with sorted lines.
 */
static int
view_row_add(struct view_build *vb, const struct view_row *r, char **cause)
{
	const unsigned char	*fp = r->funcs, *mp = r->modules;
	const char		*name, *mod;
	size_t			 nlen, mlen, i, same = 0;
	uint64_t		 d;
	uint32_t		 node, f, made;

	if (r->depth > vb->cap && view_build_room(vb, r->depth) == -1) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	for (d = 0; d < r->depth; d++) {
		/* view_row_scan checked every length. */
		(void)view_rb_string(&fp, r->modules, &name, &nlen);
		(void)view_rb_string(&mp, r->values, &mod, &mlen);
		if ((f = view_frame_func(vb, name, nlen, mod, mlen)) ==
		    PROFILE_NONE)
			goto fail;
		if (same == d && d < vb->depth && vb->fn[d] == f)
			same++;
		vb->fn[d] = f;
	}
	vb->depth = same;	/* until the nodes past it are made */
	node = same > 0 ? vb->node[same - 1] : PROFILE_ROOT;
	made = profile_builder_nnodes(vb->b);
	for (d = same; d < r->depth && node != made; d++) {
		if ((node = profile_builder_child(vb->b, node, vb->fn[d])) ==
		    PROFILE_NONE)
			goto fail;
		vb->node[d] = node;
	}
	if (d < r->depth) {
		if (profile_builder_chain(vb->b, node, &vb->fn[d],
		    r->depth - d, &vb->node[d]) == -1)
			goto fail;
		node = vb->node[r->depth - 1];
	}
	vb->depth = r->depth;
	if (node >= vb->nleaf && view_build_leaf(vb, node) == -1) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	/* Twice the same stack (unmerged parts of T_stacks): once. */
	if (vb->leaf[node] == (r->hash | 1))
		return (0);
	vb->leaf[node] = r->hash | 1;
	vb->stacks++;
	for (i = 0; i < vb->nm; i++) {
		if (profile_builder_add(vb->b, node, vb->m[i].col,
		    (int64_t)clickhouse_get_fixed(r->values + 8 * i, 8)) == -1)
			goto fail;
	}
	return (0);
fail:
	cause_set(cause, "%s", profile_builder_error(vb->b));
	return (-1);
}

/* What a build holds besides the builder. */
static void
view_build_clear(struct view_build *vb)
{
	free(vb->leaf);
	free(vb->frames);
	free(vb->fn);
	free(vb->node);
	vb->leaf = NULL;
	vb->frames = NULL;
	vb->fn = vb->node = NULL;
	vb->nleaf = vb->cap = vb->depth = 0;
}

/*
 * The stacks' answer, parsed as it comes: each complete row in the
 * window goes into the builder; an incomplete one waits for more bytes
 * (the window grows only for a row larger than it).
 */
static int
view_query_stacks(const struct view_query *vq, struct view_build *vb,
    size_t nall, int *status, char **cause)
{
	struct clickhouse_answer	*a = NULL;
	struct outbuf			 sql;
	size_t				 i;
	int				 r;

	outbuf_init(&sql);
	outbuf_puts(&sql, "SELECT stack_hash, funcs, modules");
	for (i = 0; i < vb->nm; i++)
		outbuf_printf(&sql, ", v%zu", i);
	outbuf_puts(&sql, "\nFROM ");
	view_query_table(&sql, vq, VIEW_SCHEMA_STACKS);
	outbuf_puts(&sql, "\nGLOBAL ANY INNER JOIN (\n  SELECT stack_hash");
	for (i = 0; i < vb->nm; i++) {
		/* One metric in all: no test of each row's metric. */
		if (nall == 1)
			outbuf_printf(&sql, ", sum(value) AS v%zu", i);
		else {
			outbuf_puts(&sql, ", sumIf(value, metric = ");
			clickhouse_quote(&sql, vb->m[i].name,
			    strlen(vb->m[i].name));
			outbuf_printf(&sql, ") AS v%zu", i);
		}
	}
	outbuf_puts(&sql, "\n  FROM ");
	view_query_table(&sql, vq, VIEW_SCHEMA_SAMPLES);
	outbuf_puts(&sql, "\n  WHERE ");
	view_query_samples(&sql, vq);
	/* Twice the bound: a stack may come twice until parts merge. */
	outbuf_printf(&sql, "\n  GROUP BY stack_hash\n) USING stack_hash\n"
	    "LIMIT %lld\nFORMAT RowBinary", 2 * vq->conf->max_rows + 2);
	if (view_query_run(vq, &sql, 0, &a, status, cause) == -1)
		return (-1);
	r = view_build_answer(a, vb, vq->conf->max_rows, vq->path, status,
	    cause);
	clickhouse_answer_free(a);
	return (r);
}

/*
 * Build the stacks' answer a into vb as it comes: each complete row in
 * the window goes into the builder; an incomplete one waits for more
 * bytes (the window grows only for a row larger than it). At most
 * max_rows distinct stacks.
 */
static int
view_build_answer(struct clickhouse_answer *a, struct view_build *vb,
    long long max_rows, const char *path, int *status, char **cause)
{
	struct view_row	 row;
	char		*why = NULL, *msg = NULL;
	int		 r;

	for (;;) {
		if ((r = view_row_scan(a->p, a->end, vb->nm, &row)) == 1) {
			vb->rows++;
			if (view_row_add(vb, &row, &why) == -1) {
				*status = 422;
				cause_set(cause, "%s: %s", path, why);
				goto fail;
			}
			a->p += row.len;
			/*
			 * The LIMIT reached ends the answer at once: a stream
			 * of one stack again and again is as bounded as one of
			 * distinct stacks, not only by max_bytes or timeout.
			 */
			if (vb->stacks > (uint64_t)max_rows || vb->rows >=
			    (uint64_t)(2 * max_rows + 2))
				goto rows;
			continue;
		}
		if (r == 0 && (r = clickhouse_need(a, (size_t)(a->end -
		    a->p) + 1, &why)) == 0)
			continue;
		if (r == 1 && a->p == a->end)
			break;
		if (r == -1 && why != NULL && clickhouse_exception(a, &msg) ==
		    0) {
			/* ClickHouse said why before the answer broke off. */
			free(why);
			why = msg;
			r = 2;
		}
		if (r == -1 && why != NULL) {
			*status = a->error == CLICKHOUSE_UNAVAILABLE ? 503 :
			    422;
			cause_set(cause, "%s: %s%s", path, why,
			    a->body > a->max ? " (max_bytes=); narrow the view "
			    "with select=, where= or the time range" : "");
			goto fail;
		}
		/* Cut, malformed, or ClickHouse failed after it began. */
		*status = 422;
		if (r == 2 || clickhouse_exception(a, &why) == 0) {
			if (strncmp(why, CLICKHOUSE_UNAVAILABLE_TEXT,
			    sizeof CLICKHOUSE_UNAVAILABLE_TEXT - 1) == 0)
				*status = 503;
			cause_set(cause, "%s", why);
		} else
			cause_set(cause, "%s: ClickHouse's answer is cut or "
			    "malformed at row %llu", path,
			    (unsigned long long)vb->rows + 1);
		goto fail;
	}
	if (vb->rows >= (uint64_t)(2 * max_rows + 2))
		goto rows;
	return (0);
rows:
	*status = 422;
	cause_set(cause, "%s: the selection has more than %lld stacks "
	    "(max_rows=); narrow it with select=, where= or the time range",
	    path, max_rows);
fail:
	free(why);
	return (-1);
}

/*
 * The profile of a stacks' answer a (read to its end), its values those
 * of nmetrics metrics m0, m1...: the parse of view_query_profile without
 * the SQL, for the fuzzer and the unit tests (an answer in memory,
 * clickhouse_answer_memory, or from a server of their own). NULL with
 * *cause.
 */
struct profile *
view_query_answer(struct clickhouse_answer *a, size_t nmetrics,
    long long max_rows, char **cause)
{
	struct view_metric	 m[VIEW_MAX_METRICS];
	struct view_build	 vb;
	struct profile		*p = NULL;
	char			 name[16];
	size_t			 i;
	int			 status;

	if (nmetrics == 0 || nmetrics > VIEW_MAX_METRICS) {
		cause_set(cause, "1 to %d metrics", VIEW_MAX_METRICS);
		return (NULL);
	}
	memset(&vb, 0, sizeof vb);
	memset(m, 0, sizeof m);
	if ((vb.b = profile_builder_create("view")) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	for (i = 0; i < nmetrics; i++) {
		snprintf(name, sizeof name, "m%zu", i);
		if ((m[i].col = profile_builder_metric(vb.b, name, "count")) ==
		    -1) {
			cause_set(cause, "%s", profile_builder_error(vb.b));
			profile_builder_free(vb.b);
			return (NULL);
		}
	}
	vb.m = m;
	vb.nm = nmetrics;
	if (view_build_answer(a, &vb, max_rows, "answer", &status,
	    cause) == 0)
		p = profile_builder_finish(vb.b, cause);
	else
		profile_builder_free(vb.b);
	view_build_clear(&vb);
	return (p);
}

/*
 * The view's profile, and its summary into *vs: NULL with *status (422
 * for a refusal or no samples, 503 when ClickHouse or a shard does not
 * answer in time) and *cause.
 */
struct profile *
view_query_profile(const struct view_query *vq, struct view_summary *vs,
    int *status, char **cause)
{
	struct view_metric	 m[VIEW_MAX_METRICS];
	struct view_build	 vb;
	struct profile		*p = NULL;
	size_t			 nm = 0, nall, i;

	memset(&vb, 0, sizeof vb);
	memset(vs, 0, sizeof *vs);
	if (view_query_summary(vq, vs, status, cause) == -1)
		return (NULL);
	if (vs->profiles == 0)
		goto none;
	if (view_query_metrics(vq, m, &nm, &nall, status, cause) == -1)
		goto out;
	if (nm == 0)
		goto none;
	if ((vb.b = profile_builder_create("view")) == NULL)
		goto nomem;
	if (vq->max_nodes != 0)
		profile_builder_set_max_nodes(vb.b, vq->max_nodes);
	for (i = 0; i < nm; i++) {
		if ((m[i].col = profile_builder_metric(vb.b, m[i].name,
		    *m[i].unit ? m[i].unit : "count")) == -1) {
			*status = 422;
			cause_set(cause, "%s: %s", vq->path,
			    profile_builder_error(vb.b));
			goto out;
		}
		if (m[i].rate > 0)
			profile_builder_metric_rate(vb.b, m[i].col, m[i].rate);
	}
	vb.m = m;
	vb.nm = nm;
	if (view_query_stacks(vq, &vb, nall, status, cause) == -1)
		goto out;
	if (vb.stacks == 0)
		goto none;
	if ((p = profile_builder_finish(vb.b, cause)) == NULL)
		*status = 422;
	vb.b = NULL;
	goto out;
none:
	*status = 422;
	cause_set(cause, "%s: no samples match the view", vq->path);
	goto out;
nomem:
	*status = 500;
	cause_set(cause, "out of memory");
out:
	if (p == NULL)
		view_summary_clear(vs);
	profile_builder_free(vb.b);
	view_build_clear(&vb);
	for (i = 0; i < nm; i++) {
		free(m[i].name);
		free(m[i].unit);
	}
	return (p);
}

void
view_series_free(struct view_series *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nmetrics; i++)
		free(s->metrics[i]);
	for (i = 0; i < s->nmarkers; i++)
		free(s->mvalue[i]);
	free(s->metrics);
	free(s->start);
	free(s->all);
	free(s->self);
	free(s->total);
	free(s->marker);
	free(s->mtime);
	free(s->mvalue);
	free(s);
}

/*
 * A step of at least want seconds that counts in units people use: the
 * first of a list that is not smaller, or whole days.
 */
static long long
view_series_step(long long want)
{
	static const long long	 steps[] = { 1, 5, 10, 15, 30, 60, 120, 300,
	    600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400 };
	size_t			 i;

	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		if (steps[i] >= want)
			return (steps[i]);
	}
	return ((want + 86399) / 86400 * 86400);
}

/* The SQL of a series: per bucket and metric, all, total and self. */
static void
view_series_sql(struct outbuf *sql, const struct view_query *vq,
    const struct view_series *s, const char *func, const char *module)
{
	size_t	 i;

	outbuf_printf(sql, "SELECT toUInt32(intDiv(toUInt32(ts), %lld) * %lld) "
	    "AS b, "
	    "metric, sum(value),\n  sumIf(value, stack_hash GLOBAL IN "
	    "(SELECT stack_hash FROM ", s->step, s->step);
	view_query_table(sql, vq, VIEW_SCHEMA_STACKS);
	outbuf_puts(sql, " WHERE arrayExists((f, m) -> f = ");
	clickhouse_quote(sql, func, strlen(func));
	outbuf_puts(sql, " AND m = ");
	clickhouse_quote(sql, module, strlen(module));
	outbuf_puts(sql, ", funcs, modules))),\n  sumIf(value, stack_hash "
	    "GLOBAL IN (SELECT stack_hash FROM ");
	view_query_table(sql, vq, VIEW_SCHEMA_STACKS);
	outbuf_puts(sql, " WHERE length(funcs) > 0 AND funcs[-1] = ");
	clickhouse_quote(sql, func, strlen(func));
	outbuf_puts(sql, " AND modules[-1] = ");
	clickhouse_quote(sql, module, strlen(module));
	outbuf_puts(sql, "))\nFROM ");
	view_query_table(sql, vq, VIEW_SCHEMA_SAMPLES);
	outbuf_puts(sql, "\nWHERE ");
	view_query_samples(sql, vq);
	outbuf_puts(sql, " AND metric IN (");
	for (i = 0; i < s->nmetrics; i++) {
		if (i > 0)
			outbuf_puts(sql, ", ");
		clickhouse_quote(sql, s->metrics[i], strlen(s->metrics[i]));
	}
	outbuf_printf(sql, ")\nGROUP BY b, metric ORDER BY b, metric "
	    "LIMIT %zu FORMAT RowBinary", (VIEW_MAX_BUCKETS + 1) *
	    s->nmetrics);
}

/* The series' answer into s (buckets in time order). */
static int
view_series_parse(const struct outbuf *ans, struct view_series *s)
{
	const unsigned char	*p = (const unsigned char *)ans->b;
	const unsigned char	*end = p + ans->n;
	const char		*name;
	size_t			 len, i, k;
	int64_t			 b;

	while (p < end) {
		if (end - p < 4)
			return (-1);
		b = (int64_t)clickhouse_get_fixed(p, 4);
		p += 4;
		if (view_rb_string(&p, end, &name, &len) == -1 ||
		    end - p < 24)
			return (-1);
		if (s->nbuckets == 0 || s->start[s->nbuckets - 1] != b) {
			if (s->nbuckets == VIEW_MAX_BUCKETS)
				return (-1);
			k = s->nbuckets++;
			s->start[k] = b;
		}
		k = s->nbuckets - 1;
		for (i = 0; i < s->nmetrics; i++) {
			if (strlen(s->metrics[i]) == len &&
			    memcmp(s->metrics[i], name, len) == 0)
				break;
		}
		if (i < s->nmetrics) {
			s->all[k * s->nmetrics + i] =
			    (int64_t)clickhouse_get_fixed(p, 8);
			s->total[k * s->nmetrics + i] =
			    (int64_t)clickhouse_get_fixed(p + 8, 8);
			s->self[k * s->nmetrics + i] =
			    (int64_t)clickhouse_get_fixed(p + 16, 8);
		}
		p += 24;
	}
	return (0);
}

/* The first time each value of the marker label shows in the view. */
static int
view_series_markers(const struct view_query *vq, struct view_series *s,
    int *status, char **cause)
{
	struct outbuf		 sql, ans;
	const unsigned char	*p, *end;
	const char		*v;
	char			*key;
	size_t			 len, klen = strlen(s->marker);
	int			 r = -1;

	if ((key = malloc(klen + 2)) == NULL) {
		*status = 500;
		cause_set(cause, "out of memory");
		return (-1);
	}
	memcpy(key, s->marker, klen);
	key[klen] = '=';
	key[klen + 1] = '\0';
	outbuf_init(&sql);
	outbuf_init(&ans);
	outbuf_printf(&sql, "SELECT substring(l, %zu) AS v, "
	    "toUInt32(min(ts)) AS t FROM ", klen + 2);
	view_query_table(&sql, vq, VIEW_SCHEMA_PROFILES);
	outbuf_puts(&sql, " ARRAY JOIN labels AS l WHERE position(l, ");
	clickhouse_quote(&sql, key, klen + 1);
	outbuf_puts(&sql, ") = 1 AND ");
	view_query_profiles(&sql, vq);
	outbuf_printf(&sql, " GROUP BY v ORDER BY t, v LIMIT %d "
	    "FORMAT RowBinary", VIEW_MAX_MARKERS + 1);
	if (view_query_small(vq, &sql, &ans, status, cause) == -1)
		goto out;
	if ((s->mtime = calloc(VIEW_MAX_MARKERS, sizeof *s->mtime)) == NULL ||
	    (s->mvalue = calloc(VIEW_MAX_MARKERS, sizeof *s->mvalue)) ==
	    NULL) {
		*status = 500;
		cause_set(cause, "out of memory");
		goto out;
	}
	p = (const unsigned char *)ans.b;
	end = p + ans.n;
	while (p < end) {
		if (view_rb_string(&p, end, &v, &len) == -1 || end - p < 4) {
			*status = 422;
			cause_set(cause, "%s: ClickHouse's markers are "
			    "malformed", vq->path);
			goto out;
		}
		if (s->nmarkers == VIEW_MAX_MARKERS) {
			s->mtruncated = 1;
			break;
		}
		if ((s->mvalue[s->nmarkers] = strndup(v, len)) == NULL) {
			*status = 500;
			cause_set(cause, "out of memory");
			goto out;
		}
		s->mtime[s->nmarkers++] = (int64_t)clickhouse_get_fixed(p, 4);
		p += 4;
	}
	r = 0;
out:
	free(key);
	outbuf_clear(&sql);
	outbuf_clear(&ans);
	return (r);
}

/*
 * A function's (func, module) share of each metric per time bucket of
 * step seconds across the view, and the first time each value of the
 * label marker shows (NULL: none). The buckets span the view's time
 * range (vs: the profiles' first and last times); a step that would
 * make more than VIEW_MAX_BUCKETS of them is raised, and the one asked
 * kept in asked. 0, or -1 with *status and *cause.
 */
int
view_query_series(const struct view_query *vq, const char *func,
    const char *module, long long step, const char *marker,
    const struct view_summary *vs, const char *const *metrics,
    size_t nmetrics, struct view_series **out, int *status, char **cause)
{
	struct view_series	*s;
	struct outbuf		 sql, ans;
	long long		 span;
	size_t			 i, n;

	*out = NULL;
	outbuf_init(&sql);
	outbuf_init(&ans);
	if ((s = calloc(1, sizeof *s)) == NULL)
		goto nomem;
	span = (long long)vs->last / step - (long long)vs->first / step + 1;
	s->step = step;
	if (span > VIEW_MAX_BUCKETS) {
		s->asked = step;
		s->step = view_series_step(((long long)vs->last -
		    (long long)vs->first) / (VIEW_MAX_BUCKETS - 1) + 1);
	}
	n = nmetrics;
	if ((s->metrics = calloc(n, sizeof *s->metrics)) == NULL ||
	    (s->start = calloc(VIEW_MAX_BUCKETS, sizeof *s->start)) == NULL ||
	    (s->all = calloc(VIEW_MAX_BUCKETS * n, sizeof *s->all)) == NULL ||
	    (s->self = calloc(VIEW_MAX_BUCKETS * n, sizeof *s->self)) ==
	    NULL || (s->total = calloc(VIEW_MAX_BUCKETS * n,
	    sizeof *s->total)) == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		if ((s->metrics[i] = strdup(metrics[i])) == NULL)
			goto nomem;
		s->nmetrics++;
	}
	view_series_sql(&sql, vq, s, func, module);
	if (view_query_small(vq, &sql, &ans, status, cause) == -1)
		goto fail;
	if (view_series_parse(&ans, s) == -1) {
		*status = 422;
		cause_set(cause, "%s: ClickHouse's series is malformed",
		    vq->path);
		goto fail;
	}
	if (marker != NULL) {
		if ((s->marker = strdup(marker)) == NULL)
			goto nomem;
		if (view_series_markers(vq, s, status, cause) == -1)
			goto fail;
	}
	outbuf_clear(&ans);
	*out = s;
	return (0);
nomem:
	*status = 500;
	cause_set(cause, "out of memory");
fail:
	outbuf_clear(&sql);
	outbuf_clear(&ans);
	view_series_free(s);
	return (-1);
}

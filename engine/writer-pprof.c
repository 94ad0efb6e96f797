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

#include <zlib.h>

#include "cause.h"
#include "idmap.h"
#include "lines.h"
#include "outbuf.h"
#include "pprof.h"
#include "profile.h"
#include "writer.h"
#include "profile.pb-c.h"

/*
 * pprof's profile.proto out, gzipped, for `go tool pprof' and every tool
 * that reads it. Each metric is a sample type (its unit spelled as pprof
 * does, "ns" as "nanoseconds"), metric= the default; each function a
 * Function and a Location of one line; each module a Mapping; each call
 * node with a self value a Sample whose locations are the node's path,
 * leaf first. pprof then shows the totals and every function's flat and
 * cum as deepq does.
 *
 * A profile with costs by source line (lines.h) keeps a function's
 * per-line self costs: a Location a line (or an address) of it, and a
 * node's self cost shared over its function's lines so that, over all
 * its nodes, each line gets the function's self cost at that line (the
 * rest at no line); `go tool pprof -list' then shows deepq's flat by
 * line. The model keeps no line for a caller's frame of a given sample,
 * so callers are at no line and pprof's cum by line is its flat.
 *
 * The message is written field by field into the gzip stream (protobuf
 * concatenates a repeated field's elements wherever they appear), so a
 * profile of any size is written in constant memory beyond its deepest
 * stack: strings go out as they are first used, which keeps their
 * indices in order.
 */

struct pw {
	struct outbuf		*ob;
	const struct profile	*p;
	z_stream		 z;
	uint8_t			 out[65536];
	uint8_t			*buf;		/* one packed message */
	size_t			 bufcap;
	struct idmap		 strs;		/* pool id -> string index */
	uint64_t		 nstrs;
	int			 error;		/* 1: write, 2: memory */
};

static void	pw_bytes(struct pw *, const void *, size_t, int);
static void	pw_varint(struct pw *, uint64_t);
static void	pw_msg(struct pw *, int, const ProtobufCMessage *);
static int64_t	pw_str(struct pw *, const char *);
static int64_t	pw_pool(struct pw *, uint32_t);
static void	pw_sample(struct pw *, uint64_t *, uint32_t, int64_t *);
static int	pw_lines(struct pw *, uint32_t, const int64_t *, uint64_t *,
		    uint32_t, int64_t *, uint32_t *);

/* Compress and write len bytes; flush with Z_FINISH at the end. */
static void
pw_bytes(struct pw *w, const void *data, size_t len, int flush)
{
	int	 r;

	if (w->error)
		return;
	w->z.next_in = (Bytef *)data;
	w->z.avail_in = (uInt)len;
	do {
		w->z.next_out = w->out;
		w->z.avail_out = sizeof w->out;
		r = deflate(&w->z, flush);
		if (r == Z_STREAM_ERROR) {
			w->error = 2;
			return;
		}
		outbuf_write(w->ob, w->out, sizeof w->out - w->z.avail_out);
		if (outbuf_failed(w->ob) == -1) {
			w->error = 1;
			return;
		}
	} while (w->z.avail_out == 0 || (flush == Z_FINISH &&
	    r != Z_STREAM_END));
}

static void
pw_varint(struct pw *w, uint64_t v)
{
	uint8_t	 b[10];
	size_t	 n = 0;

	while (v >= 0x80) {
		b[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t)v;
	pw_bytes(w, b, n, Z_NO_FLUSH);
}

/* A length-delimited field holding message m. */
static void
pw_msg(struct pw *w, int field, const ProtobufCMessage *m)
{
	size_t	 n = protobuf_c_message_get_packed_size(m);
	uint8_t	*b;

	if (w->error)
		return;
	if (n > w->bufcap) {
		if ((b = realloc(w->buf, n * 2)) == NULL) {
			w->error = 2;
			return;
		}
		w->buf = b;
		w->bufcap = n * 2;
	}
	protobuf_c_message_pack(m, w->buf);
	pw_varint(w, (uint64_t)field << 3 | 2);
	pw_varint(w, n);
	pw_bytes(w, w->buf, n, Z_NO_FLUSH);
}

/* A new string table entry (field 6); its index. */
static int64_t
pw_str(struct pw *w, const char *s)
{
	size_t	 n = strlen(s);

	pw_varint(w, 6 << 3 | 2);
	pw_varint(w, n);
	pw_bytes(w, s, n, Z_NO_FLUSH);
	return ((int64_t)w->nstrs++);
}

/* The index of the profile's string id, written on first use. */
static int64_t
pw_pool(struct pw *w, uint32_t id)
{
	uint32_t	 x;
	int64_t		 i;

	if ((x = idmap_get(&w->strs, id)) != IDMAP_NONE)
		return (x);
	i = pw_str(w, profile_string(w->p, id));
	if (i >= UINT32_MAX || idmap_put(&w->strs, id, (uint32_t)i) == -1)
		w->error = 2;
	return (i);
}

/* One Sample: path[0..d) (leaf first) with the profile's values. */
static void
pw_sample(struct pw *w, uint64_t *path, uint32_t d, int64_t *values)
{
	Perftools__Profiles__Sample	 sm;

	perftools__profiles__sample__init(&sm);
	sm.n_location_id = d;
	sm.location_id = path;
	sm.n_value = w->p->nmetrics;
	sm.value = values;
	pw_msg(w, 2, &sm.base);
}

/* A share of a node's self cost: metric m's t at row (LINES_NONE: none). */
struct pw_part {
	uint32_t	 row;
	uint32_t	 m;
	int64_t		 t;
};

static int
pw_part_cmp(const void *a, const void *b)
{
	const struct pw_part	*x = a, *y = b;

	return (x->row < y->row ? -1 : x->row > y->row);
}

/*
 * Node n's self values v (non-negative) over its function's lines: for
 * each metric, the lines' self costs left in rem (metric-major) taken in
 * row order from the function's cursor cur[m * nfuncs + f], what is
 * left at no line; a Sample per line taken, path[0] its location
 * (nfuncs + 1 + row, or the function's). -1 if out of memory.
 */
static int
pw_lines(struct pw *w, uint32_t n, const int64_t *v, uint64_t *path,
    uint32_t d, int64_t *rem, uint32_t *cur)
{
	const struct profile		*p = w->p;
	const struct profile_lines	*l = p->lines;
	struct pw_part			*parts = NULL, *np;
	size_t				 nparts = 0, cap = 0, i, j;
	int64_t				 left, t, out[PROFILE_MAX_METRICS];
	uint32_t			 m, f = p->node_func[n], *c, end;

	end = lines_func_end(l, f);
	for (m = 0; m < p->nmetrics; m++) {
		c = &cur[(size_t)m * p->nfuncs + f];
		for (left = v[m]; left > 0;) {
			while (*c < end && rem[(size_t)m * l->nrows + *c] <= 0)
				(*c)++;
			t = left;
			if (*c < end && rem[(size_t)m * l->nrows + *c] < t)
				t = rem[(size_t)m * l->nrows + *c];
			if (nparts == cap) {
				cap = cap ? cap * 2 : 16;
				if ((np = reallocarray(parts, cap,
				    sizeof *np)) == NULL) {
					free(parts);
					return (-1);
				}
				parts = np;
			}
			parts[nparts].row = *c < end ? *c : LINES_NONE;
			parts[nparts].m = m;
			parts[nparts++].t = t;
			if (*c < end)
				rem[(size_t)m * l->nrows + *c] -= t;
			left -= t;
		}
	}
	qsort(parts, nparts, sizeof *parts, pw_part_cmp);
	for (i = 0; i < nparts; i = j) {
		memset(out, 0, sizeof out);
		for (j = i; j < nparts && parts[j].row == parts[i].row; j++)
			out[parts[j].m] += parts[j].t;
		path[0] = parts[i].row == LINES_NONE ? (uint64_t)f + 1 :
		    (uint64_t)p->nfuncs + 1 + parts[i].row;
		pw_sample(w, path, d, out);
	}
	free(parts);
	return (0);
}

/*
 * The mappings, a function and location per function, and a location per
 * line (or address) of the function's rows: w->error set on failure.
 */
static void
writer_pprof_locations(struct pw *w, const struct writer_options *o)
{
	Perftools__Profiles__Mapping	 mp;
	Perftools__Profiles__Function	 fn;
	Perftools__Profiles__Line	 ln, *lnp = &ln;
	Perftools__Profiles__Location	 lo;
	const struct profile		*p = w->p;
	const struct profile_lines	*l = p->lines;
	struct outbuf	*ob = w->ob;
	struct idmap	 maps;
	uint32_t	 f_, mod, nmaps = 0, row;

	idmap_init(&maps);
	/* A mapping per module: pprof shows it for frames without names. */
	for (f_ = 0; f_ < p->nfuncs && !w->error; f_++) {
		if ((mod = p->func_module[f_]) == 0 ||
		    idmap_get(&maps, mod) != IDMAP_NONE)
			continue;
		if (idmap_put(&maps, mod, ++nmaps) == -1) {
			w->error = 2;
			break;
		}
		perftools__profiles__mapping__init(&mp);
		mp.id = nmaps;
		mp.filename = pw_pool(w, mod);
		/* Symbolized already: pprof must not look for the binary. */
		mp.has_functions = mp.has_filenames = 1;
		pw_msg(w, 3, &mp.base);
	}

	/* Function and location f+1 for function f (the root included). */
	for (f_ = 0; f_ < p->nfuncs && !w->error; f_++) {
		if (writer_charge(o, ob, 1) == -1) {
			w->error = 1;
			break;
		}
		perftools__profiles__function__init(&fn);
		fn.id = (uint64_t)f_ + 1;
		fn.name = fn.system_name = pw_pool(w, p->func_name[f_]);
		if (p->func_file[f_] != 0)
			fn.filename = pw_pool(w, p->func_file[f_]);
		fn.start_line = p->func_line[f_];
		pw_msg(w, 5, &fn.base);

		perftools__profiles__location__init(&lo);
		perftools__profiles__line__init(&ln);
		lo.id = fn.id;
		if (p->func_module[f_] != 0)
			lo.mapping_id = idmap_get(&maps, p->func_module[f_]);
		ln.function_id = fn.id;
		lo.n_line = 1;
		lo.line = &lnp;
		pw_msg(w, 4, &lo.base);
	}

	/* A location for each line (or address) of a function's rows. */
	for (f_ = 0, row = 0; l != NULL && row < l->nrows && !w->error;
	    row++) {
		while (f_ + 1 < l->nfuncs && l->func_rows[f_ + 1] <= row)
			f_++;
		perftools__profiles__location__init(&lo);
		perftools__profiles__line__init(&ln);
		lo.id = (uint64_t)p->nfuncs + 1 + row;
		if (p->func_module[f_] != 0)
			lo.mapping_id = idmap_get(&maps, p->func_module[f_]);
		ln.function_id = (uint64_t)f_ + 1;
		if (l->row_addr != NULL)
			lo.address = l->row_addr[row];
		else
			ln.line = l->row_line[row];
		lo.n_line = 1;
		lo.line = &lnp;
		pw_msg(w, 4, &lo.base);
	}
	idmap_clear(&maps);
}

/*
 * The samples, their self costs over the lines left in rem and cur (see
 * pw_lines) when not NULL: w->error set on failure.
 */
static void
writer_pprof_samples(struct pw *w, const struct writer_options *o,
    int64_t *rem, uint32_t *cur)
{
	const struct profile		*p = w->p;
	const struct profile_lines	*l = p->lines;
	struct outbuf	*ob = w->ob;
	uint64_t	*path = NULL, *np;
	int64_t		 values[PROFILE_MAX_METRICS];
	uint32_t	 n, m, k, d, x, up;
	int		 any, neg;

	/* A sample per node with a value: its path, leaf first. */
	x = 1 << 16;
	if ((path = malloc(x * sizeof *path)) == NULL)
		w->error = 2;
	for (n = 0; n < p->nnodes && !w->error; n++) {
		for (m = 0, any = 0; m < p->nmetrics; m++)
			any |= (values[m] = p->metrics[m].self[n]) != 0;
		if (!any)
			continue;
		d = n == PROFILE_ROOT ? 1 : p->node_depth[n];
		/* A sample holds its whole path: the work is the depth. */
		if (writer_charge(o, ob, d) == -1) {
			w->error = 1;
			break;
		}
		if (d > x) {
			if ((np = reallocarray(path, d, sizeof *path)) ==
			    NULL) {
				w->error = 2;
				break;
			}
			path = np;
			x = d;
		}
		if (n == PROFILE_ROOT)
			path[0] = (uint64_t)p->node_func[n] + 1;
		else {
			for (k = 0, up = n; k < d; k++, up = p->node_parent[up])
				path[k] = (uint64_t)p->node_func[up] + 1;
		}
		for (m = 0, neg = 0; m < p->nmetrics; m++)
			neg |= values[m] < 0;
		if (rem == NULL || cur == NULL || neg || n == PROFILE_ROOT ||
		    lines_func_first(l, p->node_func[n]) ==
		    lines_func_end(l, p->node_func[n])) {
			pw_sample(w, path, d, values);
			continue;
		}
		if (pw_lines(w, n, values, path, d, rem, cur) == -1)
			w->error = 2;
	}
	free(path);
}

/* Write p as a gzipped profile.proto. */
int
writer_pprof(struct outbuf *ob, const struct profile *p,
    const struct writer_options *o, char **cause)
{
	Perftools__Profiles__ValueType	 vt;
	const struct profile_lines	*l = p->lines;
	struct pw	 w;
	int64_t		 dflt = 0, *rem = NULL;
	uint32_t	 f_, m;
	uint32_t	*cur = NULL;
	int		 r = -1;

	memset(&w, 0, sizeof w);
	w.ob = ob;
	w.p = p;
	idmap_init(&w.strs);
	if (deflateInit2(&w.z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	pw_str(&w, "");

	for (m = 0; m < p->nmetrics; m++) {
		perftools__profiles__value_type__init(&vt);
		vt.type = pw_str(&w, p->metrics[m].name);
		vt.unit = pw_str(&w, pprof_unit_long(p->metrics[m].unit));
		pw_msg(&w, 1, &vt.base);
		if ((int)m == o->metric)
			dflt = vt.type;
	}

	writer_pprof_locations(&w, o);

	/* The lines' self costs still to give out, by metric. */
	if (l != NULL && l->nmetrics == p->nmetrics && l->nfuncs == p->nfuncs &&
	    ((rem = malloc(((size_t)p->nmetrics * l->nrows + 1) *
	    sizeof *rem)) == NULL || (cur = malloc(((size_t)p->nmetrics *
	    p->nfuncs + 1) * sizeof *cur)) == NULL))
		w.error = 2;
	if (rem != NULL && cur != NULL) {
		memcpy(rem, l->self, (size_t)p->nmetrics * l->nrows *
		    sizeof *rem);
		for (m = 0; m < p->nmetrics; m++)
			for (f_ = 0; f_ < p->nfuncs; f_++)
				cur[(size_t)m * p->nfuncs + f_] =
				    l->func_rows[f_];
	}

	writer_pprof_samples(&w, o, rem, cur);
	if (p->nmetrics > 0) {
		pw_varint(&w, 14 << 3);		/* default_sample_type */
		pw_varint(&w, (uint64_t)dflt);
	}
	pw_bytes(&w, "", 0, Z_FINISH);
	if (w.error == 0 && outbuf_failed(ob) == -1)
		w.error = 1;
	if (w.error != 0)
		cause_set(cause, "%s", w.error == 1 ? "write error" :
		    "out of memory");
	else
		r = 0;
	free(rem);
	free(cur);
	idmap_clear(&w.strs);
	free(w.buf);
	deflateEnd(&w.z);
	return (r);
}

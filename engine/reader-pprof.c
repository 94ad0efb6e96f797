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
#include "pprof.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "profile.pb-c.h"

/*
 * pprof's profile.proto (Go's runtime/pprof, pprof itself, perf_data
 * converters), decoded by protobuf-c from the schema in proto/. Each
 * sample type is a metric named after its type, in its unit; the default
 * sample type (or the last, as pprof picks) is metric 0. A sample's
 * stack is its locations from the last (the root) to the first, and a
 * location's lines from the last (the caller the others were inlined
 * into) to the first, so an inlined function is a frame of its own,
 * innermost last, as `go tool pprof' shows it. A frame's module is the
 * basename of its location's mapping; a frame without a function name
 * is "[mapping]" or "<unknown>", pprof's names for them.
 *
 * The variant word "labels" puts each sample's labels as frames right
 * below the root ("key:value", sorted by key), like pprof's -tagroot,
 * so focus= filters by label. Gzip (the file format's normal form) is
 * undone here too, so this reader does not depend on the input layer.
 *
 * A Line's line number and its function's file make the frame's source
 * line (lines.h), so that a function's cost by line is `go tool pprof
 * -list''s; the model keeps none when no Line has a line number.
 *
 * The file is untrusted: every id and string index is checked, stacks
 * are bounded per sample and in total, and the decompressed size too.
 *
 * Memory: protobuf-c makes a struct of every message, some 100 bytes a
 * sample of 10 or 20 on the wire, so the samples are not unpacked with
 * the rest. One pass over the Profile's fields copies all but the
 * samples to be unpacked as before (pprof_split: mappings, locations,
 * functions, strings, types); each sample is unpacked on its own, in an
 * arena emptied after it, once to check it (a file protobuf-c refuses is
 * refused first, as before) and once, in order, to build from it. The
 * text itself is held whole, and the model built: about twice the
 * decompressed size at the peak, where it was ten times.
 */

#define PPROF_MAX_DEPTH		65536	/* frames in one sample */
#define PPROF_MAX_LABELS	64	/* label frames of one sample */
#define PPROF_STACK		(PPROF_MAX_DEPTH + PPROF_MAX_LABELS)

/*
 * protobuf-c allocates every message on its own: a bump arena freed at
 * once makes the unpack and its free much cheaper. It is
 * bounded to a multiple of the input, so empty submessages (two bytes on
 * the wire, a struct in memory) cannot multiply a small file, and to
 * 8 GiB in all.
 */
#define PPROF_ARENA_CHUNK	(1024 * 1024)
#define PPROF_ARENA_RATIO	32
#define PPROF_ARENA_MAX		((size_t)8 * 1024 * 1024 * 1024)

#define PPROF_ALIGN		16	/* what malloc gives on 64-bit */

struct pprof_chunk {
	struct pprof_chunk	*next;
	size_t			 used, cap;
	/* The header is padded so data is aligned as malloc's memory is. */
	union {
		long double	 ld;
		void		*p;
		uint64_t	 u;
	}			 data[];
};

struct pprof_arena {
	struct pprof_chunk	*head;
	size_t			 total, limit;
};

struct pprof_loc {
	uint32_t	 first;		/* in frames[], innermost first */
	uint32_t	 n;
};

struct pprof {
	const char			*path;
	Perftools__Profiles__Profile	*pb;	/* all but the samples */
	const uint8_t			*buf;	/* the whole message */
	size_t				 len;
	size_t				 nsamples;
	struct pprof_arena		*sarena; /* one sample at a time */
	ProtobufCAllocator		 salloc;
	struct profile_builder		*b;
	int				 labels;
	int				 order[PROFILE_MAX_METRICS]; /* pb index */
	int				 nmetrics;
	struct idmap			 locs;	/* id -> pprof_loc index */
	struct pprof_loc		*loc;
	uint32_t			*frames;
	size_t				 nframes;
	uint32_t			*stack;	/* leaf first */
	uint32_t			*prev;	/* the last sample's stack */
	uint32_t			*prevnode; /* its nodes, root first */
	size_t				 prevdepth;
	/* Source lines (lines.h), when a location has one. */
	int				 lines;
	uint32_t			*lframes;	/* as frames[] */
	uint32_t			*lstack;
	uint32_t			*lprev;
	uint32_t			*lprevnode;
	size_t				 lprevdepth;
	char				 err[256];
};

static int	pprof_probe(const char *, size_t);
static struct profile *pprof_load(struct input *,
		    const struct reader_options *, char **);
static int	pprof_probe_fields(const uint8_t *, size_t, int, int *);
static const char *pprof_str(struct pprof *, int64_t);
static int	pprof_metrics(struct pprof *);
static int	pprof_locations(struct pprof *);
static int	pprof_samples(struct pprof *);
static int	pprof_line_frame(struct pprof *, uint32_t,
		    const Perftools__Profiles__Function *, int64_t);
static int	pprof_label_frames(struct pprof *,
		    const Perftools__Profiles__Sample *, size_t *);
static int	pprof_sample_lines(struct pprof *,
		    const Perftools__Profiles__Sample *, size_t);
static void	*pprof_arena_alloc(void *, size_t);
static void	 pprof_arena_free(void *, void *);
static void	 pprof_arena_clear(struct pprof_arena *);

const struct reader reader_pprof = {
	.name = "pprof",
	.description = "pprof profile.proto, gzipped or not (Go runtime/pprof)",
	.probe = pprof_probe,
	.load = pprof_load,
};

/* A varint at *pp, below end; -1 if it does not end there. */
static int
pprof_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t	*p = *pp;
	int		 shift;

	*v = 0;
	for (shift = 0; shift < 64 && p < end; shift += 7, p++) {
		*v |= (uint64_t)(*p & 0x7f) << shift;
		if ((*p & 0x80) == 0) {
			*pp = p + 1;
			return (0);
		}
	}
	return (-1);
}

/*
 * How many top-level fields of a Profile message parse in buf, with the
 * wire type the schema gives each field number; -1 at the first that
 * does not. A field cut by the end of the head counts as parsing.
 * sample_type's body must be a ValueType (two varints). *tables is set
 * if a sample type or a string (fields 1 and 6) was seen.
 */
static int
pprof_probe_fields(const uint8_t *buf, size_t len, int nested, int *tables)
{
	const uint8_t	*p = buf, *end = buf + len, *body;
	uint64_t	 key, v;
	int		 n = 0, field, wt;

	while (p < end) {
		if (pprof_varint(&p, end, &key) == -1)
			return (n);
		field = (int)(key >> 3);
		wt = (int)(key & 7);
		if (nested) {
			/* ValueType: type = 1, unit = 2, varints. */
			if ((field != 1 && field != 2) || wt != 0)
				return (-1);
		} else if (field < 1 || field > 15)
			return (-1);
		else if (field <= 6 || field == 11) {
			if (wt != 2)
				return (-1);
		} else if (field == 13) {
			if (wt != 0 && wt != 2)
				return (-1);
		} else if (wt != 0)
			return (-1);
		if (wt == 0) {
			if (pprof_varint(&p, end, &v) == -1)
				return (n);
		} else {
			if (pprof_varint(&p, end, &v) == -1)
				return (n);
			if (v > (uint64_t)(end - p))
				return (n + 1);
			body = p;
			p += v;
			if (!nested && field == 1 &&
			    pprof_probe_fields(body, v, 1, tables) == -1)
				return (-1);
			if (!nested && (field == 1 || field == 6))
				*tables = 1;
		}
		n++;
	}
	return (n);
}

static int
pprof_probe(const char *buf, size_t len)
{
	const uint8_t	*b = (const uint8_t *)buf;
	int		 n, tables = 0;

	/* A gzipped profile reaches the probe decompressed (decompress.c). */
	/*
	 * Any field may come first (Go writes time_nanos, 'H'), so it is
	 * the whole head's shape that decides: text meets a key the schema
	 * does not have within a few bytes.
	 */
	if ((n = pprof_probe_fields(b, len, 0, &tables)) >= 3 && tables)
		return (90);
	return (0);
}

/* String index i, or NULL with an error. */
static const char *
pprof_str(struct pprof *pp, int64_t i)
{
	if (i < 0 || (uint64_t)i >= pp->pb->n_string_table) {
		snprintf(pp->err, sizeof pp->err, "string index %lld out of "
		    "range (%zu strings)", (long long)i,
		    pp->pb->n_string_table);
		return (NULL);
	}
	return (pp->pb->string_table[i]);
}

/*
 * One metric per sample type, the default first. pprof's default is the
 * type named by default_sample_type, else the last.
 */
static int
pprof_metrics(struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const char	*type, *unit, *dflt = "", *ptype, *punit;
	char		 name[256];
	size_t		 i, j;
	int		 d, m, k;

	if (pb->n_sample_type == 0) {
		snprintf(pp->err, sizeof pp->err, "no sample types");
		return (-1);
	}
	if (pb->n_sample_type > PROFILE_MAX_METRICS) {
		snprintf(pp->err, sizeof pp->err, "%zu sample types (at most "
		    "%d)", pb->n_sample_type, PROFILE_MAX_METRICS);
		return (-1);
	}
	if (pb->default_sample_type != 0 &&
	    (dflt = pprof_str(pp, pb->default_sample_type)) == NULL)
		return (-1);
	d = (int)pb->n_sample_type - 1;
	for (i = 0; i < pb->n_sample_type; i++) {
		if ((type = pprof_str(pp, pb->sample_type[i]->type)) == NULL)
			return (-1);
		if (*dflt != '\0' && strcmp(type, dflt) == 0) {
			d = (int)i;
			break;
		}
	}
	pp->order[0] = d;
	for (i = 0, k = 1; i < pb->n_sample_type; i++) {
		if ((int)i != d)
			pp->order[k++] = (int)i;
	}
	pp->nmetrics = k;
	for (k = 0; k < pp->nmetrics; k++) {
		i = (size_t)pp->order[k];
		if ((type = pprof_str(pp, pb->sample_type[i]->type)) == NULL ||
		    (unit = pprof_str(pp, pb->sample_type[i]->unit)) == NULL)
			return (-1);
		if (*type == '\0')
			type = "value";
		snprintf(name, sizeof name, "%s", type);
		/* Two types of one name would merge into one metric. */
		for (j = 0; j < (size_t)k; j++) {
			if (strcmp(type, pb->string_table[
			    pb->sample_type[pp->order[j]]->type]) == 0) {
				snprintf(name, sizeof name, "%s#%zu", type, i);
				break;
			}
		}
		if ((m = profile_builder_metric(pp->b, name,
		    pprof_unit_short(unit))) == -1)
			return (-1);
		/*
		 * A CPU profile's sample count with its period in ns: a
		 * rate, so units=seconds shows seconds. A period type out
		 * of range only goes without.
		 */
		if (pb->period > 0 && pb->period_type != NULL &&
		    strcmp(unit, "count") == 0 &&
		    (ptype = pprof_str(pp, pb->period_type->type)) != NULL &&
		    (punit = pprof_str(pp, pb->period_type->unit)) != NULL &&
		    strcmp(punit, "nanoseconds") == 0 && *ptype != '\0')
			profile_builder_metric_rate(pp->b, m,
			    1e9 / (double)pb->period);
		pp->err[0] = '\0';
	}
	return (0);
}

static void *
pprof_arena_alloc(void *arg, size_t size)
{
	struct pprof_arena	*a = arg;
	struct pprof_chunk	*c = a->head;
	size_t			 cap;

	if (size > SIZE_MAX / 2)
		return (NULL);
	size = (size + PPROF_ALIGN - 1) & ~(size_t)(PPROF_ALIGN - 1);
	if (c == NULL || c->cap - c->used < size) {
		cap = size > PPROF_ARENA_CHUNK ? size : PPROF_ARENA_CHUNK;
		if (a->total + cap > a->limit ||
		    (c = malloc(sizeof *c + cap)) == NULL)
			return (NULL);
		a->total += cap;
		c->used = 0;
		c->cap = cap;
		/* A big block goes behind the current chunk, not over it. */
		if (a->head != NULL && size > PPROF_ARENA_CHUNK / 2) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	c->used += size;
	return ((char *)c->data + c->used - size);
}

/* Freed with the whole arena. */
static void
pprof_arena_free(void *arg, void *ptr)
{
}

static void
pprof_arena_clear(struct pprof_arena *a)
{
	struct pprof_chunk	*c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->total = 0;
}

/* Empty the arena, keeping one chunk for what comes next. */
static void
pprof_arena_reset(struct pprof_arena *a)
{
	struct pprof_chunk	*c, *keep = NULL, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		if (keep == NULL && c->cap == PPROF_ARENA_CHUNK) {
			keep = c;
			continue;
		}
		a->total -= c->cap;
		free(c);
	}
	a->head = keep;
	if (keep != NULL) {
		keep->next = NULL;
		keep->used = 0;
	}
}

/* The basename of a path, as pprof's filepath.Base. */
static const char *
pprof_base(const char *s, size_t *lenp)
{
	size_t		 len = strlen(s);
	const char	*e;

	while (len > 1 && s[len - 1] == '/')
		len--;
	for (e = s + len; e > s && e[-1] != '/'; e--)
		;
	*lenp = (size_t)(s + len - e);
	return (e);
}

/*
 * Location i's frames, innermost first, appended to pp->frames (and a
 * line each to pp->lframes): mapping and function ids looked up in maps
 * and funcs. -1 on error.
 */
static int
pprof_location_frames(struct pprof *pp, const struct idmap *maps,
    const struct idmap *funcs, size_t i)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const Perftools__Profiles__Location	*l = pb->location[i];
	const Perftools__Profiles__Function	*fn;
	const char	*mod, *name, *file;
	char		 anon[512];
	size_t		 j, modlen;
	uint32_t	 x, f;

	mod = "";
	modlen = 0;
	if (l->mapping_id != 0 &&
	    (x = idmap_get(maps, l->mapping_id)) != IDMAP_NONE)
		mod = pprof_base(pb->string_table[
		    pb->mapping[x]->filename], &modlen);
	pp->loc[i].first = (uint32_t)pp->nframes;
	for (j = 0; j < (l->n_line > 0 ? l->n_line : 1); j++) {
		fn = NULL;
		if (l->n_line > 0 && (x = idmap_get(funcs,
		    l->line[j]->function_id)) != IDMAP_NONE)
			fn = pb->function[x];
		name = fn != NULL ? pb->string_table[fn->name] : "";
		if (*name == '\0') {
			/* pprof's names for a frame it cannot name. */
			if (modlen > 0)
				snprintf(anon, sizeof anon, "[%.*s]",
				    (int)modlen, mod);
			else
				snprintf(anon, sizeof anon, "<unknown>");
			name = anon;
		}
		if ((f = profile_builder_func(pp->b, name,
		    strlen(name), mod, modlen)) == PROFILE_NONE)
			return (-1);
		if (fn != NULL && fn->filename != 0) {
			file = pb->string_table[fn->filename];
			profile_builder_func_location(pp->b, f, file,
			    strlen(file), fn->start_line > 0 &&
			    fn->start_line < UINT32_MAX ?
			    (uint32_t)fn->start_line : 0);
		}
		if (pp->lines && pprof_line_frame(pp, f, fn,
		    l->n_line > 0 ? l->line[j]->line : 0) == -1)
			return (-1);
		pp->frames[pp->nframes++] = f;
	}
	pp->loc[i].n = (uint32_t)(pp->nframes - pp->loc[i].first);
	return (0);
}

/*
 * Resolve every location to its frames (deepq functions), innermost
 * first, once: samples then only look them up.
 */
static int
pprof_locations(struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const Perftools__Profiles__Location	*l;
	const Perftools__Profiles__Function	*fn;
	struct idmap	 maps, funcs;
	size_t		 i, j, total = 0;
	int		 r = -1;

	idmap_init(&maps);
	idmap_init(&funcs);
	/*
	 * An id twice would send the samples of one to the other: refused,
	 * as go tool pprof does ("multiple mappings with same id").
	 */
	for (i = 0; i < pb->n_mapping; i++) {
		if (pb->mapping[i]->id != 0 && idmap_get(&maps,
		    pb->mapping[i]->id) != IDMAP_NONE) {
			snprintf(pp->err, sizeof pp->err, "mapping id %llu "
			    "appears twice", (unsigned long long)
			    pb->mapping[i]->id);
			goto done;
		}
		if (pb->mapping[i]->id == 0 || idmap_put(&maps,
		    pb->mapping[i]->id, (uint32_t)i) == -1)
			goto done;
		if (pprof_str(pp, pb->mapping[i]->filename) == NULL)
			goto done;
	}
	for (i = 0; i < pb->n_function; i++) {
		fn = pb->function[i];
		if (fn->id != 0 && idmap_get(&funcs, fn->id) != IDMAP_NONE) {
			snprintf(pp->err, sizeof pp->err, "function id %llu "
			    "appears twice", (unsigned long long)fn->id);
			goto done;
		}
		if (fn->id == 0 || idmap_put(&funcs, fn->id, (uint32_t)i) == -1)
			goto done;
		if (pprof_str(pp, fn->name) == NULL ||
		    pprof_str(pp, fn->filename) == NULL)
			goto done;
	}
	if (pb->n_location >= UINT32_MAX) {
		snprintf(pp->err, sizeof pp->err, "too many locations");
		goto done;
	}
	for (i = 0; i < pb->n_location; i++) {
		l = pb->location[i];
		total += l->n_line > 0 ? l->n_line : 1;
		if (l->id == 0 || total >= UINT32_MAX) {
			snprintf(pp->err, sizeof pp->err, "location %zu: %s",
			    i, l->id == 0 ? "id 0" : "too many lines");
			goto done;
		}
		if (idmap_get(&pp->locs, l->id) != IDMAP_NONE) {
			snprintf(pp->err, sizeof pp->err, "location id %llu "
			    "appears twice", (unsigned long long)l->id);
			goto done;
		}
		if (idmap_put(&pp->locs, l->id, (uint32_t)i) == -1)
			goto done;
	}
	if ((pp->loc = calloc(pb->n_location + 1, sizeof *pp->loc)) == NULL ||
	    (pp->frames = calloc(total + 1, sizeof *pp->frames)) == NULL)
		goto done;
	for (i = 0; i < pb->n_location && !pp->lines; i++) {
		for (j = 0; j < pb->location[i]->n_line; j++) {
			if (pb->location[i]->line[j]->line > 0)
				pp->lines = 1;
		}
	}
	if (pp->lines && (pp->lframes = calloc(total + 1,
	    sizeof *pp->lframes)) == NULL)
		goto done;
	for (i = 0; i < pb->n_location; i++) {
		if (pprof_location_frames(pp, &maps, &funcs, i) == -1)
			goto done;
	}
	r = 0;
done:
	idmap_clear(&maps);
	idmap_clear(&funcs);
	return (r);
}

static int
pprof_label_cmp(const void *a, const void *b)
{
	const Perftools__Profiles__Label *x = *(Perftools__Profiles__Label
	    *const *)a, *y = *(Perftools__Profiles__Label *const *)b;

	return (x->key < y->key ? -1 : x->key > y->key);
}

/*
 * The line frame of frames[nframes] (function f, pprof function fn or
 * NULL, at line ln): fn's file at that line.
 */
static int
pprof_line_frame(struct pprof *pp, uint32_t f,
    const Perftools__Profiles__Function *fn, int64_t ln)
{
	const char	*file;
	uint32_t	 fid = 0, fr;

	if (fn != NULL && fn->filename != 0) {
		file = pp->pb->string_table[fn->filename];
		if ((fid = profile_builder_string(pp->b, file,
		    strlen(file))) == PROFILE_NONE)
			return (-1);
	}
	if ((fr = profile_builder_line_frame(pp->b, f, fid, ln > 0 &&
	    ln < UINT32_MAX ? (uint32_t)ln : 0)) == PROFILE_NONE)
		return (-1);
	pp->lframes[pp->nframes] = fr;
	return (0);
}

/*
 * The variant "labels": the sample's labels as frames below the root,
 * by key (string index order, which is the order the writer met them),
 * appended to pp->stack after its *depthp frames (the stack is leaf
 * first, so the first label ends up nearest the root). Sorts the
 * sample's labels in place.
 */
static int
pprof_label_frames(struct pprof *pp, const Perftools__Profiles__Sample *s,
    size_t *depthp)
{
	const Perftools__Profiles__Label	*lb;
	const char	*key, *val, *unit;
	char		 name[1024];
	size_t		 i, n;
	uint32_t	 f;

	if (s->n_label == 0)
		return (0);
	qsort(s->label, s->n_label, sizeof *s->label, pprof_label_cmp);
	n = s->n_label < PPROF_MAX_LABELS ? s->n_label : PPROF_MAX_LABELS;
	for (i = n; i > 0; i--) {
		lb = s->label[i - 1];
		if ((key = pprof_str(pp, lb->key)) == NULL ||
		    (val = pprof_str(pp, lb->str)) == NULL ||
		    (unit = pprof_str(pp, lb->num_unit)) == NULL)
			return (-1);
		if (lb->str != 0)
			snprintf(name, sizeof name, "%s:%s", key, val);
		else
			snprintf(name, sizeof name, "%s:%lld%s%s", key,
			    (long long)lb->num, *unit ? " " : "", unit);
		if ((f = profile_builder_func(pp->b, name, strlen(name), "",
		    0)) == PROFILE_NONE)
			return (-1);
		if (pp->lines && (pp->lstack[*depthp] =
		    profile_builder_line_frame(pp->b, f, 0, 0)) ==
		    PROFILE_NONE)
			return (-1);
		pp->stack[(*depthp)++] = f;
	}
	return (0);
}

/* A walk over the top-level fields of a Profile message. */
struct pprof_field {
	const uint8_t	*p, *end;
	const uint8_t	*start;		/* the field's first byte (its key) */
	const uint8_t	*body;		/* a length-delimited field's bytes */
	uint64_t	 len;		/* their count */
	int		 number, wire;
};

static void
pprof_field_init(struct pprof_field *f, const uint8_t *buf, size_t len)
{
	f->p = buf;
	f->end = buf + len;
}

/*
 * The next field: 1, 0 at the end, -1 where the wire cannot be walked
 * (protobuf-c refuses what follows: the caller lets it say so).
 */
static int
pprof_field_next(struct pprof_field *f)
{
	uint64_t	 key, v;

	if (f->p == f->end)
		return (0);
	f->start = f->p;
	if (pprof_varint(&f->p, f->end, &key) == -1 || key >> 3 == 0 ||
	    key >> 3 > INT32_MAX)
		return (-1);
	f->number = (int)(key >> 3);
	f->wire = (int)(key & 7);
	switch (f->wire) {
	case 0:
		return (pprof_varint(&f->p, f->end, &v) == -1 ? -1 : 1);
	case 1:
	case 5:
		v = f->wire == 1 ? 8 : 4;
		if (v > (uint64_t)(f->end - f->p))
			return (-1);
		f->p += v;
		return (1);
	case 2:
		if (pprof_varint(&f->p, f->end, &f->len) == -1 ||
		    f->len > (uint64_t)(f->end - f->p))
			return (-1);
		f->body = f->p;
		f->p += f->len;
		return (1);
	default:
		return (-1);
	}
}

/*
 * Copy every field of the Profile but its samples to *restp (protobuf-c
 * unpacks that), and count the samples, each unpacked on its own to see
 * that protobuf-c takes it. From a field the wire cannot be walked on,
 * the rest goes to protobuf-c whole, which then refuses it. -1 with an
 * error if a sample is refused, or out of memory.
 */
static int
pprof_split(struct pprof *pp, uint8_t **restp, size_t *restlen)
{
	struct pprof_field	 f;
	uint8_t			*rest;
	size_t			 n = 0;
	int			 r;

	if ((rest = malloc(pp->len + 1)) == NULL)
		return (-1);
	pprof_field_init(&f, pp->buf, pp->len);
	while ((r = pprof_field_next(&f)) == 1) {
		if (f.number != 2 || f.wire != 2) {
			memcpy(rest + n, f.start, f.p - f.start);
			n += f.p - f.start;
			continue;
		}
		pprof_arena_reset(pp->sarena);
		if (perftools__profiles__sample__unpack(&pp->salloc, f.len,
		    f.body) == NULL) {
			snprintf(pp->err, sizeof pp->err, "not a valid "
			    "profile.proto (or out of memory)");
			free(rest);
			return (-1);
		}
		pp->nsamples++;
	}
	if (r == -1) {
		memcpy(rest + n, f.start, f.end - f.start);
		n += f.end - f.start;
	}
	*restp = rest;
	*restlen = n;
	return (0);
}

/* The next sample of the Profile, unpacked on the emptied arena. */
static const Perftools__Profiles__Sample *
pprof_next_sample(struct pprof *pp, struct pprof_field *f)
{
	while (pprof_field_next(f) == 1) {
		if (f->number != 2 || f->wire != 2)
			continue;
		pprof_arena_reset(pp->sarena);
		return (perftools__profiles__sample__unpack(&pp->salloc,
		    f->len, f->body));
	}
	return (NULL);
}

/*
 * Each sample's stack into the tree, root first, and its values into the
 * metrics. The frames walked in all are bounded by the file's size (a
 * location of many lines referenced many times must not turn a small
 * file into hours of work).
 */
static int
pprof_samples(struct pprof *pp)
{
	const Perftools__Profiles__Profile	*pb = pp->pb;
	const Perftools__Profiles__Sample	*s;
	const struct pprof_loc	*lo;
	struct pprof_field	 it;
	uint64_t	 budget, walked = 0;
	size_t		 i, j, k, depth;
	uint32_t	 x, node;
	int		 m;

	budget = (uint64_t)1 << 28;
	if ((pp->stack = malloc(PPROF_STACK * sizeof *pp->stack)) == NULL ||
	    (pp->prev = malloc(PPROF_STACK * sizeof *pp->prev)) == NULL ||
	    (pp->prevnode = malloc(PPROF_STACK * sizeof *pp->prevnode)) ==
	    NULL)
		return (-1);
	if (pp->lines && ((pp->lstack = malloc(PPROF_STACK *
	    sizeof *pp->lstack)) == NULL || (pp->lprev = malloc(PPROF_STACK *
	    sizeof *pp->lprev)) == NULL || (pp->lprevnode = malloc(PPROF_STACK
	    * sizeof *pp->lprevnode)) == NULL))
		return (-1);
	pp->prevdepth = 0;
	pprof_field_init(&it, pp->buf, pp->len);
	for (i = 0; i < pp->nsamples; i++) {
		if ((s = pprof_next_sample(pp, &it)) == NULL) {
			snprintf(pp->err, sizeof pp->err, "sample %zu: not "
			    "unpacked again", i);
			return (-1);
		}
		if (s->n_value != pb->n_sample_type) {
			snprintf(pp->err, sizeof pp->err, "sample %zu: %zu "
			    "values for %zu sample types", i, s->n_value,
			    pb->n_sample_type);
			return (-1);
		}
		for (m = 0; m < pp->nmetrics; m++) {
			if (s->value[pp->order[m]] != 0)
				break;
		}
		if (m == pp->nmetrics)
			continue;	/* pprof skips them too */
		depth = 0;
		for (j = 0; j < s->n_location_id; j++) {
			if ((x = idmap_get(&pp->locs, s->location_id[j])) ==
			    IDMAP_NONE) {
				snprintf(pp->err, sizeof pp->err, "sample %zu: "
				    "no location with id %llu", i,
				    (unsigned long long)s->location_id[j]);
				return (-1);
			}
			lo = &pp->loc[x];
			if (depth + lo->n > PPROF_MAX_DEPTH) {
				snprintf(pp->err, sizeof pp->err, "sample %zu: "
				    "more than %d frames", i, PPROF_MAX_DEPTH);
				return (-1);
			}
			memcpy(pp->stack + depth, pp->frames + lo->first,
			    lo->n * sizeof *pp->stack);
			if (pp->lines)
				memcpy(pp->lstack + depth, pp->lframes +
				    lo->first, lo->n * sizeof *pp->lstack);
			depth += lo->n;
		}
		if (pp->labels && pprof_label_frames(pp, s, &depth) == -1)
			return (-1);
		walked += depth;
		if (walked > budget) {
			snprintf(pp->err, sizeof pp->err, "stacks of more than "
			    "%llu frames in all", (unsigned long long)budget);
			return (-1);
		}
		/*
		 * stack[] is leaf first: walk it backwards from the root,
		 * from where it leaves the last sample's stack (writers put
		 * samples of one subtree together, so most of a stack is
		 * usually the last one's).
		 */
		for (k = 0; k < depth && k < pp->prevdepth &&
		    pp->stack[depth - 1 - k] == pp->prev[pp->prevdepth - 1 - k];
		    k++)
			;
		node = k > 0 ? pp->prevnode[k - 1] : PROFILE_ROOT;
		for (; k < depth; k++) {
			if ((node = profile_builder_child(pp->b, node,
			    pp->stack[depth - 1 - k])) == PROFILE_NONE)
				return (-1);
			pp->prevnode[k] = node;
		}
		memcpy(pp->prev, pp->stack, depth * sizeof *pp->prev);
		pp->prevdepth = depth;
		for (m = 0; m < pp->nmetrics; m++) {
			if (profile_builder_add(pp->b, node, m,
			    s->value[pp->order[m]]) == -1)
				return (-1);
		}
		if (pp->lines && pprof_sample_lines(pp, s, depth) == -1)
			return (-1);
	}
	return (0);
}

/*
 * The sample's frames at lines (lstack, leaf first, depth of them) into
 * the line tree, from where they leave the last sample's, and its
 * values to the last.
 */
static int
pprof_sample_lines(struct pprof *pp, const Perftools__Profiles__Sample *s,
    size_t depth)
{
	size_t		 k;
	uint32_t	 node;
	int		 m;

	for (k = 0; k < depth && k < pp->lprevdepth && pp->lstack[depth -
	    1 - k] == pp->lprev[pp->lprevdepth - 1 - k]; k++)
		;
	node = k > 0 ? pp->lprevnode[k - 1] : PROFILE_ROOT;
	for (; k < depth; k++) {
		if ((node = profile_builder_line_child(pp->b, node,
		    pp->lstack[depth - 1 - k])) == PROFILE_NONE)
			return (-1);
		pp->lprevnode[k] = node;
	}
	memcpy(pp->lprev, pp->lstack, depth * sizeof *pp->lprev);
	pp->lprevdepth = depth;
	for (m = 0; m < pp->nmetrics; m++) {
		if (profile_builder_line_add(pp->b, node, m,
		    s->value[pp->order[m]]) == -1)
			return (-1);
	}
	return (0);
}

/* The whole input, bounded, in *bufp. */
static int
pprof_read(struct pprof *pp, struct input *in, uint8_t **bufp, size_t *lenp)
{
	uint8_t	*buf = NULL, *b;
	size_t	 len = 0, cap = 1 << 20;
	ssize_t	 n;

	for (;;) {
		if ((b = realloc(buf, cap)) == NULL) {
			free(buf);
			return (-1);
		}
		buf = b;
		if ((n = input_read(in, buf + len, cap - len)) == -1) {
			/* A decompression error says what went wrong. */
			snprintf(pp->err, sizeof pp->err, "read error: %s",
			    input_error(in));
			free(buf);
			return (-1);
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == cap) {
			if (cap >= PPROF_MAX_FILE) {
				snprintf(pp->err, sizeof pp->err, "more than "
				    "%llu bytes", (unsigned long long)
				    PPROF_MAX_FILE);
				free(buf);
				return (-1);
			}
			cap *= 2;
		}
	}
	*bufp = buf;
	*lenp = len;
	return (0);
}

static struct profile *
pprof_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct pprof		 pp;
	struct pprof_arena	 arena = { NULL, 0, 0 }, sarena = { NULL, 0, 0 };
	ProtobufCAllocator	 alloc = { pprof_arena_alloc, pprof_arena_free,
				    &arena };
	struct profile		*p = NULL;
	uint8_t			*buf = NULL, *rest = NULL;
	size_t			 len = 0, restlen;
	const char		*v, *e;

	memset(&pp, 0, sizeof pp);
	pp.path = in->path;
	pp.sarena = &sarena;
	pp.salloc = alloc;
	pp.salloc.allocator_data = &sarena;
	idmap_init(&pp.locs);
	for (v = opts->variant; v != NULL && *v != '\0'; v = *e ? e + 1 : e) {
		e = v + strcspn(v, ",");
		if (e - v == 6 && strncmp(v, "labels", 6) == 0)
			pp.labels = 1;
		else if (e > v) {
			cause_set(cause, "pprof: unknown variant %.*s",
			    (int)(e - v), v);
			return (NULL);
		}
	}
	if (pprof_read(&pp, in, &buf, &len) == -1)
		goto err;
	pp.buf = buf;
	pp.len = len;
	arena.limit = sarena.limit = len > (PPROF_ARENA_MAX -
	    PPROF_ARENA_CHUNK) / PPROF_ARENA_RATIO ? PPROF_ARENA_MAX :
	    len * PPROF_ARENA_RATIO + PPROF_ARENA_CHUNK;
	if (pprof_split(&pp, &rest, &restlen) == -1)
		goto err;
	pp.pb = perftools__profiles__profile__unpack(&alloc, restlen, rest);
	free(rest);
	rest = NULL;
	if (pp.pb == NULL) {
		snprintf(pp.err, sizeof pp.err, "not a valid profile.proto "
		    "(or out of memory)");
		goto err;
	}
	if ((pp.b = profile_builder_create("pprof")) == NULL)
		goto nomem;
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(pp.b, opts->max_nodes);
	if (pprof_metrics(&pp) == -1 || pprof_locations(&pp) == -1 ||
	    pprof_samples(&pp) == -1)
		goto err;
	/* The text goes before the finish makes the profile's arrays. */
	free(buf);
	buf = NULL;
	p = profile_builder_finish(pp.b, cause);
	pp.b = NULL;
	goto out;

err:
	if (pp.err[0] == '\0' && pp.b != NULL &&
	    profile_builder_error(pp.b) != NULL)
		snprintf(pp.err, sizeof pp.err, "%s",
		    profile_builder_error(pp.b));
	if (pp.err[0] == '\0')
		goto nomem;
	cause_set(cause, "%s: %s", in->path, pp.err);
	goto out;
nomem:
	cause_set(cause, "out of memory");
out:
	pprof_arena_clear(&arena);
	pprof_arena_clear(&sarena);
	profile_builder_free(pp.b);
	idmap_clear(&pp.locs);
	free(pp.loc);
	free(pp.frames);
	free(pp.stack);
	free(pp.prev);
	free(pp.prevnode);
	free(pp.lframes);
	free(pp.lstack);
	free(pp.lprev);
	free(pp.lprevnode);
	free(buf);
	return (p);
}

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

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "callgraph.h"
#include "cause.h"
#include "lines.h"
#include "funcgraph.h"
#include "outbuf.h"
#include "profile.h"
#include "reader.h"
#include "strpool.h"
#include "timeline.h"

/*
 * The processed-profile cache (see cache.h). The file is a header and a
 * payload of 8-byte aligned sections whose sizes follow from the header's
 * counts; the arrays are used in place from a read-only mapping. Nothing
 * in a cache is trusted before its checksum and every index are checked:
 * the cache directory is private, but a crash mid-write or a disk error
 * must still never give a wrong answer.
 */

#define CACHE_MAGIC	"DEEPQC1\n"
#define CACHE_ENDIAN	0x01020304u

struct cache_header {
	char		magic[8];
	uint32_t	version;
	uint32_t	endian;
	uint64_t	header_size;
	uint64_t	src_size;
	uint64_t	src_mtime_sec;
	uint64_t	src_mtime_nsec;
	uint64_t	src_ino;
	uint64_t	src_dev;
	uint64_t	payload_len;
	uint64_t	checksum;
	uint64_t	strdata_len;
	uint32_t	nstrings;
	uint32_t	nfuncs;
	uint32_t	nnodes;
	uint32_t	nmetrics;
	uint32_t	nsamples;
	uint32_t	sample_wsize;	/* bytes a sample's weight (1, 2, 4, 8;
					   0 without samples) */
	/* The exact function graph (funcgraph.h), if the profile has one. */
	uint32_t	graph_flags;	/* CACHE_GRAPH_* */
	uint32_t	graph_edges;
	uint32_t	graph_cycles;
	uint32_t	pad2;
};

#define CACHE_GRAPH		0x01	/* the sections are there */
#define CACHE_GRAPH_ARCSELF	0x02	/* with the edges' self parts */
#define CACHE_GRAPH_LEVEL	0x04	/* recursion levels */
#define CACHE_GRAPH_GIVEN	0x08	/* the file's own totals */
#define CACHE_GRAPH_EDGESELF	0x10	/* funcgraph.edgeself */
#define CACHE_GRAPH_CONTEXTS	0x20	/* funcgraph.contexts */
#define CACHE_GRAPH_ALL		0x3f

/*
 * The timeline's section, last in the payload (timeline.h): this head,
 * present 0 for a profile without time (and nothing after it), else its
 * arrays: the leaf nodes, the stream, the index, the threads and the
 * markers, each 8-byte aligned.
 */
struct cache_times {
	uint64_t	present;
	char		unit[8];
	double		rate;
	int64_t		start, end;
	uint32_t	flags;
	uint32_t	nthreads;
	uint8_t		mode[16];
	uint64_t	n, ndata, nindex;
	uint32_t	nmarks;
	uint32_t	pad;
};

/*
 * The checksum: the payload in blocks of CACHE_BLOCK bytes, each hashed on
 * its own (seeded by its number), the block hashes then folded after a
 * hash of the header (CACHE_VERSION 5; the blocks were made for two
 * threads to share, which the server no longer uses, and cost nothing
 * alone). A block's hash runs CACHE_LANES independent chains (word i in
 * lane i % CACHE_LANES): one chain is bound by the latency of its
 * multiplies; four keep up with reading memory.
 */
#define CACHE_LANES	4
#define CACHE_BLOCK	(1U << 20)

struct cache_out {
	struct outbuf	 ob;		/* to the file's descriptor */
	uint64_t	 len;
};

struct cache_in {
	const char	*p;
	uint64_t	 left;
};

/*
 * The section of the costs by source line (lines.h), after the cliques:
 * this head, then, when present, the rows' block as lines_layout() lays
 * it out.
 */
struct cache_lines_head {
	uint32_t	 present;
	uint32_t	 flags;
	uint32_t	 nfuncs;
	uint32_t	 nmetrics;
	uint32_t	 nrows;
	uint32_t	 ncalls;
};

static void	out_bytes(struct cache_out *, const void *, size_t);
static void	out_pad(struct cache_out *);
static void	out_string(struct cache_out *, const char *);
static const void *in_take(struct cache_in *, uint64_t, uint64_t);
static const char *in_string(struct cache_in *);
static uint64_t	checksum(const char *, uint64_t, uint64_t);
static int	cache_read(int, void *, size_t);
static int	cache_sum_file(int, struct cache_header *);
static uint64_t	cache_sum(const struct cache_header *, const char *);
static int	cache_check(struct profile *, const struct cache_header *);
static int	cache_check_nodes(const struct profile *);
static int	cache_check_cliques(const struct profile *, const uint32_t *,
		    const uint8_t *);
static void	cache_write_times(struct cache_out *, const struct timeline *);
static int	cache_take_times(struct cache_in *, struct profile *);
static void	cache_write_lines(struct cache_out *, const struct profile *);
static int	cache_take_lines(struct cache_in *, struct profile *);

/* Mix one 8-byte word into a running hash. */
static inline uint64_t
mix(uint64_t h, uint64_t w)
{
	h ^= w * 0x9e3779b97f4a7c15ULL;
	h = (h << 27 | h >> 37) * 0xc4ceb9fe1a85ec53ULL;
	return (h);
}

/* The checksum of the whole words of p[0..n), seeded. */
static uint64_t
checksum(const char *p, uint64_t n, uint64_t seed)
{
	uint64_t	 lane[CACHE_LANES], a, b, c, d, w[4], h;
	size_t		 i;

	/* Four scalars, so the chains stay in registers. */
	for (i = 0; i < CACHE_LANES; i++)
		lane[i] = 0x243f6a8885a308d3ULL + (i + 1 + seed * CACHE_LANES) *
		    0x9e3779b97f4a7c15ULL;
	a = lane[0];
	b = lane[1];
	c = lane[2];
	d = lane[3];
	for (; n >= sizeof w; p += sizeof w, n -= sizeof w) {
		memcpy(w, p, sizeof w);
		a = mix(a, w[0]);
		b = mix(b, w[1]);
		c = mix(c, w[2]);
		d = mix(d, w[3]);
	}
	lane[0] = a;
	lane[1] = b;
	lane[2] = c;
	lane[3] = d;
	for (i = 0; n >= 8; p += 8, n -= 8, i++) {
		memcpy(&w[0], p, 8);
		lane[i] = mix(lane[i], w[0]);
	}
	h = lane[0];
	for (i = 1; i < CACHE_LANES; i++)
		h = mix(h, lane[i]);
	return (h);
}

/*
 * The file's checksum: the header (its checksum field zero, so a header
 * bit flipped is caught too) then every block's hash of the payload that
 * follows it, in order.
 */
static uint64_t
cache_sum(const struct cache_header *hp, const char *payload)
{
	struct cache_header	 h = *hp;
	uint64_t		 x, off, n;
	uint32_t		 b, nblocks;

	h.checksum = 0;
	x = checksum((const char *)&h, sizeof h, UINT32_MAX);
	nblocks = (h.payload_len + CACHE_BLOCK - 1) / CACHE_BLOCK;
	for (b = 0; b < nblocks; b++) {
		off = (uint64_t)b * CACHE_BLOCK;
		n = h.payload_len - off < CACHE_BLOCK ? h.payload_len - off :
		    CACHE_BLOCK;
		x = mix(x, checksum(payload + off, n, b));
	}
	return (mix(x, nblocks));
}

static void
out_bytes(struct cache_out *o, const void *v, size_t n)
{
	outbuf_write(&o->ob, v, n);
	o->len += n;
}

static void
out_pad(struct cache_out *o)
{
	static const char	 zero[8];

	if (o->len % 8 != 0)
		out_bytes(o, zero, 8 - o->len % 8);
}

static void
out_string(struct cache_out *o, const char *s)
{
	uint32_t	 n = strlen(s) + 1;

	out_bytes(o, &n, sizeof n);
	out_bytes(o, s, n);
	out_pad(o);
}

/* Read len bytes of fd from offset 0 into buf; -1 (errno 0: short). */
static int
cache_read(int fd, void *buf, size_t len)
{
	size_t	 off = 0;
	ssize_t	 n;

	while (off < len) {
		n = pread(fd, (char *)buf + off, len - off, (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return (-1);
		}
		off += (size_t)n;
	}
	return (0);
}

/*
 * Set h->checksum to the checksum of the payload written to fd (h
 * complete but for it). -1 with errno on failure.
 */
static int
cache_sum_file(int fd, struct cache_header *h)
{
	void			*map;
	size_t			 maplen = sizeof *h + h->payload_len;

	if ((map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, 0)) ==
	    MAP_FAILED)
		return (-1);
	h->checksum = cache_sum(h, (const char *)map + sizeof *h);
	munmap(map, maplen);
	return (0);
}

/*
 * The exact function graph's sections (funcgraph.h), its arrays as they
 * are once attached; h gets their counts and flags.
 */
static void
cache_write_graph(struct cache_out *o, const struct funcgraph *g,
    uint32_t nfuncs, struct cache_header *h)
{
	size_t	 ne = g->nedges, nf = nfuncs, nm = g->nmetrics;

	h->graph_flags = CACHE_GRAPH | (g->arcself != NULL ?
	    CACHE_GRAPH_ARCSELF : 0) | (g->level != NULL ? CACHE_GRAPH_LEVEL :
	    0) | (g->given != NULL ? CACHE_GRAPH_GIVEN : 0) |
	    (g->edgeself ? CACHE_GRAPH_EDGESELF : 0) |
	    (g->contexts ? CACHE_GRAPH_CONTEXTS : 0);
	h->graph_edges = g->nedges;
	h->graph_cycles = g->ncycles;
	out_bytes(o, g->from, ne * sizeof *g->from);
	out_pad(o);
	out_bytes(o, g->to, ne * sizeof *g->to);
	out_pad(o);
	out_bytes(o, g->calls, ne * sizeof *g->calls);
	out_bytes(o, g->cost, ne * nm * sizeof *g->cost);
	if (g->arcself != NULL)
		out_bytes(o, g->arcself, ne * nm * sizeof *g->arcself);
	out_bytes(o, g->self, nf * nm * sizeof *g->self);
	out_bytes(o, g->incl, nf * nm * sizeof *g->incl);
	out_bytes(o, g->out, (nf + 1) * sizeof *g->out);
	out_pad(o);
	out_bytes(o, g->in, (nf + 1) * sizeof *g->in);
	out_pad(o);
	out_bytes(o, g->byto, ne * sizeof *g->byto);
	out_pad(o);
	out_bytes(o, g->cycle, nf * sizeof *g->cycle);
	out_pad(o);
	out_bytes(o, g->fcalls, nf * sizeof *g->fcalls);
	if (g->level != NULL) {
		out_bytes(o, g->level, nf);
		out_pad(o);
	}
	if (g->given != NULL)
		out_bytes(o, g->given, nf * nm * sizeof *g->given);
}

/*
 * The profile's own arrays: its format, the strings, the functions, the
 * call nodes, each metric and the samples (their nodes, then their
 * weights at the profile's width, the header's sample_wsize), in the
 * order cache_load reads them. *strdata_len gets the length of the
 * strings' data (the header holds it).
 */
static void
cache_write_model(struct cache_out *o, const struct profile *p,
    size_t *strdata_len)
{
	/* The function and node columns, in cache_load's order. */
	const uint32_t *const	 funcs[] = { p->func_name, p->func_module,
	    p->func_file, p->func_line };
	const uint32_t *const	 nodes[] = { p->node_parent, p->node_func,
	    p->node_depth, p->node_first_child, p->node_next_sibling };
	const char		*data;
	const uint64_t		*off;
	size_t			 len;
	uint32_t		 k;

	strpool_export(p->strings, &data, &len, &off);
	*strdata_len = len;
	out_string(o, p->format);
	out_bytes(o, data, len);
	out_pad(o);
	out_bytes(o, off, (size_t)strpool_count(p->strings) * sizeof *off);
	for (k = 0; k < sizeof funcs / sizeof funcs[0]; k++) {
		out_bytes(o, funcs[k], p->nfuncs * sizeof(uint32_t));
		out_pad(o);
	}
	for (k = 0; k < sizeof nodes / sizeof nodes[0]; k++) {
		out_bytes(o, nodes[k], p->nnodes * sizeof(uint32_t));
		out_pad(o);
	}
	for (k = 0; k < p->nmetrics; k++) {
		const struct profile_metric *m = &p->metrics[k];

		out_string(o, m->name);
		out_string(o, m->unit);
		out_bytes(o, &m->sum, sizeof m->sum);
		out_bytes(o, &m->rate, sizeof m->rate);
		out_bytes(o, m->self, p->nnodes * sizeof(int64_t));
		out_bytes(o, m->total, p->nnodes * sizeof(int64_t));
		out_bytes(o, m->func_self, p->nfuncs * sizeof(int64_t));
		out_bytes(o, m->func_total, p->nfuncs * sizeof(int64_t));
	}
	if (p->nsamples > 0) {
		out_bytes(o, p->sample_node, p->nsamples * sizeof(uint32_t));
		out_pad(o);
		out_bytes(o, p->sample_weight,
		    (size_t)p->nsamples * p->sample_wsize);
		out_pad(o);
	}
}

/*
 * The cliques: finding them is a pass over every call node with a
 * cache miss a node, and the first page (the menu counts the recursive
 * cliques) needs them. Found here, by the detached cache writer, a
 * restarted server has them at once. graph is the owner's call graph or
 * NULL (built and freed here); -1 if out of memory.
 */
static int
cache_write_cliques(struct cache_out *o, const struct profile *p,
    const struct callgraph *graph)
{
	const struct callgraph	*g = graph;
	struct callgraph	*own = NULL;

	if (g == NULL && (g = own = callgraph_create(p, NULL)) == NULL)
		return (-1);
	out_bytes(o, g->clique, p->nfuncs * sizeof *g->clique);
	out_pad(o);
	out_bytes(o, g->recursive, p->nfuncs);
	out_pad(o);
	callgraph_free(own);
	return (0);
}

/*
 * The header's counts and the source's identity (h's graph fields are
 * already set by cache_write_graph); the checksum comes last, once the
 * payload is on disk.
 */
static void
cache_write_header(struct cache_header *h, const struct profile *p,
    const struct stat *src, uint64_t payload_len, size_t strdata_len)
{
	memcpy(h->magic, CACHE_MAGIC, sizeof h->magic);
	h->version = CACHE_VERSION;
	h->endian = CACHE_ENDIAN;
	h->header_size = sizeof *h;
	h->src_size = src->st_size;
	h->src_mtime_sec = src->st_mtim.tv_sec;
	h->src_mtime_nsec = src->st_mtim.tv_nsec;
	h->src_ino = src->st_ino;
	h->src_dev = src->st_dev;
	h->payload_len = payload_len;
	h->strdata_len = strdata_len;
	h->nstrings = strpool_count(p->strings);
	h->nfuncs = p->nfuncs;
	h->nnodes = p->nnodes;
	h->nmetrics = p->nmetrics;
	h->nsamples = p->nsamples;
	h->sample_wsize = p->sample_wsize;
}

/*
 * Write a profile's cache to path, atomically (a temporary file renamed
 * into place). graph is the profile's call graph if its owner has it
 * (the server's index), else NULL: it is then built here, and freed.
 * src is the source file's stat. Profiles with reader-specific extra
 * data (Mercury's call sites) are not cached.
 */
int
cache_write(const struct profile *p, const struct callgraph *graph,
    const char *path, const struct stat *src, char **cause)
{
	struct cache_header	 h;
	struct cache_out	 o;
	size_t			 len;
	char			*tmp = NULL;
	int			 fd = -1;

	if (p->extra != NULL) {
		cause_set(cause, "format %s keeps data the cache cannot hold",
		    p->format);
		return (-1);
	}
	if (asprintf(&tmp, "%s.%ld.tmp", path, (long)getpid()) == -1) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	(void)unlink(tmp);
	/* Read and write: the checksum is read back (cache_sum_file). */
	if ((fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1) {
		cause_set(cause, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return (-1);
	}
	memset(&o, 0, sizeof o);
	outbuf_init_fd(&o.ob, fd);
	memset(&h, 0, sizeof h);
	outbuf_write(&o.ob, &h, sizeof h);	/* rewritten at the end */

	cache_write_model(&o, p, &len);
	if (cache_write_cliques(&o, p, graph) != 0) {
		cause_set(cause, "out of memory");
		outbuf_clear(&o.ob);
		close(fd);
		goto fail;
	}
	cache_write_lines(&o, p);
	memset(&h, 0, sizeof h);
	if (p->funcgraph != NULL)
		cache_write_graph(&o, p->funcgraph, p->nfuncs, &h);
	cache_write_times(&o, p->timeline);
	cache_write_header(&h, p, src, o.len, len);
	/*
	 * The checksum of the payload as written, read back from the page
	 * cache through the very blocks a loading server reads.
	 */
	errno = 0;
	if (outbuf_flush(&o.ob) != 0 ||
	    cache_sum_file(fd, &h) != 0 ||
	    pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
	    fsync(fd) != 0) {
		cause_set(cause, "%s: %s", tmp, errno ? strerror(errno) :
		    "write error");
		outbuf_clear(&o.ob);
		close(fd);
		goto fail;
	}
	outbuf_clear(&o.ob);
	if (close(fd) != 0) {
		cause_set(cause, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (rename(tmp, path) == -1) {
		cause_set(cause, "%s: %s", path, strerror(errno));
		goto fail;
	}
	free(tmp);
	return (0);
fail:
	(void)unlink(tmp);
	free(tmp);
	return (-1);
}

/* The section of the costs by source line (its head alone if none). */
static void
cache_write_lines(struct cache_out *o, const struct profile *p)
{
	struct cache_lines_head	 h;
	const struct profile_lines *l = p->lines;
	size_t			 off[LINES_ARRAYS], len;

	memset(&h, 0, sizeof h);
	if (l != NULL && lines_layout(l, off, &len) == 0) {
		h.present = 1;
		h.flags = l->flags;
		h.nfuncs = l->nfuncs;
		h.nmetrics = l->nmetrics;
		h.nrows = l->nrows;
		h.ncalls = l->ncalls;
	}
	out_bytes(o, &h, sizeof h);
	out_pad(o);
	/* The block is the arrays, laid out as lines_layout() says. */
	if (h.present)
		out_bytes(o, l->block != NULL ? l->block : (const void *)
		    l->func_rows, len);
}

/*
 * The section of the costs by source line, into p->lines when present:
 * the arrays stay in the mapping. -1 if its sizes disagree.
 */
static int
cache_take_lines(struct cache_in *in, struct profile *p)
{
	const struct cache_lines_head *h;
	struct profile_lines	*l;
	const void		*block;
	size_t			 off[LINES_ARRAYS], len;

	if ((h = in_take(in, 1, sizeof *h)) == NULL || h->present > 1)
		return (-1);
	if (!h->present)
		return (0);
	if ((l = calloc(1, sizeof *l)) == NULL)
		return (-1);
	l->flags = h->flags;
	l->nfuncs = h->nfuncs;
	l->nmetrics = h->nmetrics;
	l->nrows = h->nrows;
	l->ncalls = h->ncalls;
	if (l->nfuncs != p->nfuncs || l->nmetrics != p->nmetrics ||
	    (l->flags & ~(uint32_t)LINES_FLAGS) != 0 ||
	    lines_layout(l, off, &len) == -1 ||
	    (block = in_take(in, len, 1)) == NULL ||
	    lines_map(l, block, len) == -1) {
		free(l);
		return (-1);
	}
	p->lines = l;
	return (0);
}

/* Take n elements of size sz from the payload, 8-byte aligned after. */
static const void *
in_take(struct cache_in *in, uint64_t n, uint64_t sz)
{
	const char	*p = in->p;
	uint64_t	 bytes;

	if (sz != 0 && n > UINT64_MAX / sz)
		return (NULL);
	bytes = (n * sz + 7) & ~(uint64_t)7;
	if (bytes < n * sz || bytes > in->left)
		return (NULL);
	in->p += bytes;
	in->left -= bytes;
	return (p);
}

/* A length-prefixed NUL-terminated string. */
static const char *
in_string(struct cache_in *in)
{
	const uint32_t	*len;
	const char	*s;

	if (in->left < 8)
		return (NULL);
	len = (const uint32_t *)in->p;
	if (*len == 0 || *len > in->left - 4)
		return (NULL);
	s = in->p + 4;
	if (s[*len - 1] != '\0' || memchr(s, '\0', *len) != s + *len - 1)
		return (NULL);
	if (in_take(in, 4 + (uint64_t)*len, 1) == NULL)
		return (NULL);
	return (s);
}

/*
 * Every index in range and the tree well formed, so no query can stray:
 * the strings, functions and samples here, the call nodes in
 * cache_check_nodes.
 */
static int
cache_check(struct profile *p, const struct cache_header *h)
{
	uint32_t	 i, nstr = h->nstrings;
	const uint64_t	*off;
	const char	*data;
	size_t		 len;

	strpool_export(p->strings, &data, &len, &off);
	if (nstr == 0 || len == 0 || data[len - 1] != '\0' || off[0] != 0 ||
	    data[0] != '\0')
		return (-1);
	for (i = 0; i < nstr; i++) {
		if (off[i] >= len)
			return (-1);
	}
	if (p->nfuncs == 0 || p->nnodes == 0 || p->nmetrics == 0 ||
	    p->nmetrics > PROFILE_MAX_METRICS)
		return (-1);
	for (i = 0; i < p->nfuncs; i++) {
		if (p->func_name[i] >= nstr || p->func_module[i] >= nstr ||
		    p->func_file[i] >= nstr)
			return (-1);
	}
	for (i = 0; i < p->nsamples; i++) {
		if (p->sample_node[i] >= p->nnodes)
			return (-1);
	}
	return (0);
}

/*
 * The call nodes: each one's function in range; each parent an earlier
 * node, one level up (so depths are exact); children and siblings later
 * nodes, so walks always end. (Written with branches: the checks pass on
 * every node of a good cache, so they are predicted, and the same pass
 * without branches took a third more instructions.)
 */
static int
cache_check_nodes(const struct profile *p)
{
	uint32_t	 i;

	if (p->node_parent[0] != PROFILE_NONE || p->node_depth[0] != 0)
		return (-1);
	for (i = 0; i < p->nnodes; i++) {
		if (p->node_func[i] >= p->nfuncs)
			return (-1);
		if (i > 0 && (p->node_parent[i] >= i ||
		    p->node_depth[i] != p->node_depth[p->node_parent[i]] + 1))
			return (-1);
		if ((p->node_first_child[i] != PROFILE_NONE &&
		    (p->node_first_child[i] <= i ||
		    p->node_first_child[i] >= p->nnodes)) ||
		    (p->node_next_sibling[i] != PROFILE_NONE &&
		    (p->node_next_sibling[i] <= i ||
		    p->node_next_sibling[i] >= p->nnodes)))
			return (-1);
	}
	return (0);
}

/*
 * The cliques well formed: each named by its smallest member, which is in
 * it, and only clique ids flagged recursive (0 or 1).
 */
static int
cache_check_cliques(const struct profile *p, const uint32_t *clique,
    const uint8_t *recursive)
{
	uint32_t	 f;

	for (f = 0; f < p->nfuncs; f++) {
		if (clique[f] > f || clique[clique[f]] != clique[f] ||
		    recursive[f] > 1 || (recursive[f] && clique[f] != f))
			return (-1);
	}
	return (0);
}

/* A copy of n bytes of the payload, the graph's own (funcgraph_free). */
static void *
cache_copy(struct cache_in *in, uint64_t n, uint64_t sz, int *bad)
{
	const void	*src;
	void		*dst;

	if (*bad || (src = in_take(in, n, sz)) == NULL) {
		*bad = 1;
		return (NULL);
	}
	if ((dst = malloc(n * sz > 0 ? n * sz : 1)) == NULL) {
		*bad = 2;
		return (NULL);
	}
	memcpy(dst, src, n * sz);
	return (dst);
}

/*
 * The exact function graph's sections: a funcgraph of its own arrays,
 * every index checked (edges sorted by caller as the offsets say, the
 * callee index a permutation onto edges of that callee, cycles named by
 * a member). 0, or -1 with *oom set if memory ran out, else corrupt.
 */
static int
cache_load_graph(struct cache_in *in, const struct cache_header *h,
    struct profile *p, int *oom)
{
	struct funcgraph	*g;
	uint64_t		 ne = h->graph_edges, nf = p->nfuncs;
	uint64_t		 nm = p->nmetrics, e, f, i;
	int			 bad = 0;

	*oom = 0;
	if ((h->graph_flags & ~(uint32_t)CACHE_GRAPH_ALL) != 0 ||
	    (g = funcgraph_create(p->nfuncs, p->nmetrics,
	    (h->graph_flags & CACHE_GRAPH_EDGESELF) != 0)) == NULL) {
		*oom = (h->graph_flags & ~(uint32_t)CACHE_GRAPH_ALL) == 0;
		return (-1);
	}
	free(g->self);
	g->self = NULL;
	g->nedges = g->edgecap = h->graph_edges;
	g->ncycles = h->graph_cycles;
	g->contexts = (h->graph_flags & CACHE_GRAPH_CONTEXTS) != 0;
	g->from = cache_copy(in, ne, sizeof *g->from, &bad);
	g->to = cache_copy(in, ne, sizeof *g->to, &bad);
	g->calls = cache_copy(in, ne, sizeof *g->calls, &bad);
	g->cost = cache_copy(in, ne * nm, sizeof *g->cost, &bad);
	if (h->graph_flags & CACHE_GRAPH_ARCSELF)
		g->arcself = cache_copy(in, ne * nm, sizeof *g->arcself, &bad);
	g->self = cache_copy(in, nf * nm, sizeof *g->self, &bad);
	g->incl = cache_copy(in, nf * nm, sizeof *g->incl, &bad);
	g->out = cache_copy(in, nf + 1, sizeof *g->out, &bad);
	g->in = cache_copy(in, nf + 1, sizeof *g->in, &bad);
	g->byto = cache_copy(in, ne, sizeof *g->byto, &bad);
	g->cycle = cache_copy(in, nf, sizeof *g->cycle, &bad);
	g->fcalls = cache_copy(in, nf, sizeof *g->fcalls, &bad);
	if (h->graph_flags & CACHE_GRAPH_LEVEL)
		g->level = cache_copy(in, nf, 1, &bad);
	if (h->graph_flags & CACHE_GRAPH_GIVEN)
		g->given = cache_copy(in, nf * nm, sizeof *g->given, &bad);
	if (bad) {
		*oom = bad == 2;
		funcgraph_free(g);
		return (-1);
	}
	if (g->out[0] != 0 || g->in[0] != 0 || g->out[nf] != ne ||
	    g->in[nf] != ne || (g->arcself != NULL) != (g->edgeself != 0))
		goto corrupt;
	for (f = 0; f < nf; f++) {
		if (g->out[f] > g->out[f + 1] || g->in[f] > g->in[f + 1] ||
		    (g->cycle[f] != FUNCGRAPH_NONE && g->cycle[f] >= nf))
			goto corrupt;
		for (e = g->out[f]; e < g->out[f + 1]; e++) {
			if (g->from[e] != f || g->to[e] >= nf)
				goto corrupt;
		}
		for (i = g->in[f]; i < g->in[f + 1]; i++) {
			if (g->byto[i] >= ne || g->to[g->byto[i]] != f)
				goto corrupt;
		}
	}
	p->funcgraph = g;
	return (0);
corrupt:
	funcgraph_free(g);
	return (-1);
}

/* The timeline's section (struct cache_times). */
static void
cache_write_times(struct cache_out *o, const struct timeline *tl)
{
	struct cache_times	 c;

	memset(&c, 0, sizeof c);
	if (tl == NULL) {
		out_bytes(o, &c.present, sizeof c.present);
		return;
	}
	c.present = 1;
	memcpy(c.unit, tl->unit, sizeof c.unit);
	c.rate = tl->rate;
	c.start = tl->start;
	c.end = tl->end;
	c.flags = tl->flags;
	c.nthreads = tl->nthreads;
	memcpy(c.mode, tl->mode, sizeof c.mode);
	c.n = tl->n;
	c.ndata = tl->ndata;
	c.nindex = tl->nindex;
	c.nmarks = tl->nmarks;
	out_bytes(o, &c, sizeof c);
	out_bytes(o, tl->node, tl->n * sizeof *tl->node);
	out_pad(o);
	out_bytes(o, tl->data, tl->ndata);
	out_pad(o);
	out_bytes(o, tl->index, tl->nindex * sizeof *tl->index);
	out_bytes(o, tl->threads, tl->nthreads * sizeof *tl->threads);
	if (tl->nmarks > 0)
		out_bytes(o, tl->marks, tl->nmarks * sizeof *tl->marks);
}

/*
 * Read the timeline's section into p->timeline (its arrays in the
 * mapping; timeline_check checks them with the rest). -1 if short.
 */
static int
cache_take_times(struct cache_in *in, struct profile *p)
{
	const struct cache_times *c;
	const uint64_t		*present;
	struct timeline		*tl;

	if ((present = in_take(in, 1, sizeof *present)) == NULL)
		return (-1);
	if (*present == 0)
		return (0);
	in->p -= sizeof *present;
	in->left += sizeof *present;
	if ((c = in_take(in, 1, sizeof *c)) == NULL || c->present != 1 ||
	    c->pad != 0 || (tl = calloc(1, sizeof *tl)) == NULL)
		return (-1);
	p->timeline = tl;
	memcpy(tl->unit, c->unit, sizeof tl->unit);
	tl->rate = c->rate;
	tl->start = c->start;
	tl->end = c->end;
	tl->flags = c->flags;
	tl->nthreads = c->nthreads;
	memcpy(tl->mode, c->mode, sizeof tl->mode);
	tl->n = c->n;
	tl->ndata = c->ndata;
	tl->nindex = c->nindex;
	tl->nmarks = c->nmarks;
	if ((tl->node = in_take(in, c->n, sizeof *tl->node)) == NULL ||
	    (tl->data = in_take(in, c->ndata, 1)) == NULL ||
	    (tl->index = in_take(in, c->nindex, sizeof *tl->index)) == NULL ||
	    (tl->threads = in_take(in, c->nthreads,
	    sizeof *tl->threads)) == NULL ||
	    (tl->marks = in_take(in, c->nmarks, sizeof *tl->marks)) == NULL)
		return (-1);
	return (0);
}

/*
 * Map a cache file and return its profile, if it is a valid cache of the
 * source described by src. NULL with *cause otherwise; the caller then
 * loads the source.
 */
struct profile *
cache_load(const char *path, const struct stat *src, char **cause)
{
	struct cache_header	 h;
	struct cache_in		 in;
	struct profile		*p = NULL;
	const uint32_t		*clique;
	const uint8_t		*recursive;
	const struct reader	*r;
	struct stat		 st;
	const char		*fmt, *data;
	void			*map = MAP_FAILED;
	uint64_t		 cksum;
	uint32_t		 k;
	int			 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		cause_set(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < sizeof h ||
	    pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		cause_set(cause, "%s: not a cache", path);
		goto fail;
	}
	if (memcmp(h.magic, CACHE_MAGIC, sizeof h.magic) != 0 ||
	    h.version != CACHE_VERSION || h.endian != CACHE_ENDIAN ||
	    h.header_size != sizeof h) {
		cause_set(cause, "%s: not a cache of this version", path);
		goto fail;
	}
	if (h.src_size != (uint64_t)src->st_size ||
	    h.src_mtime_sec != (uint64_t)src->st_mtim.tv_sec ||
	    h.src_mtime_nsec != (uint64_t)src->st_mtim.tv_nsec ||
	    h.src_ino != (uint64_t)src->st_ino ||
	    h.src_dev != (uint64_t)src->st_dev) {
		cause_set(cause, "%s: stale (the source changed)", path);
		goto fail;
	}
	if (h.payload_len != (uint64_t)st.st_size - sizeof h ||
	    h.payload_len % 8 != 0) {
		cause_set(cause, "%s: truncated", path);
		goto fail;
	}
	/*
	 * Read into memory of our own, not a mapping of the file: a file
	 * truncated while mapped (another server rewriting it, a full
	 * disk, an administrator) turns the next touch of a page past its
	 * new end into SIGBUS, in the middle of some query. Read, a
	 * truncated file is a short read here, an error like any other.
	 * The checksum reads every byte anyway.
	 */
	map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		cause_set(cause, "%s: out of memory", path);
		goto fail;
	}
	if (cache_read(fd, map, st.st_size) == -1) {
		cause_set(cause, "%s: %s", path, errno == 0 ?
		    "truncated while read" : strerror(errno));
		goto fail;
	}
	(void)mprotect(map, st.st_size, PROT_READ);
	close(fd);
	fd = -1;
	in.p = (const char *)map + sizeof h;
	in.left = h.payload_len;
	if ((p = calloc(1, sizeof *p)) == NULL) {
		cause_set(cause, "out of memory");
		goto fail;
	}
	p->map = map;
	p->maplen = st.st_size;
	map = MAP_FAILED;

#define TAKE(dst, n, sz) do {						\
	if (((dst) = (void *)in_take(&in, (n), (sz))) == NULL)		\
		goto corrupt;						\
} while (0)
	if ((fmt = in_string(&in)) == NULL || (r = reader_find(fmt)) == NULL)
		goto corrupt;
	p->format = r->name;
	TAKE(data, h.strdata_len, 1);
	{
		const uint64_t	*off;

		TAKE(off, h.nstrings, sizeof *off);
		if ((p->strings = strpool_view(data, h.strdata_len, off,
		    h.nstrings)) == NULL) {
			cause_set(cause, "out of memory");
			goto fail;
		}
	}
	p->nfuncs = h.nfuncs;
	p->nnodes = h.nnodes;
	p->nmetrics = h.nmetrics;
	p->nsamples = h.nsamples;
	if (p->nmetrics == 0 || p->nmetrics > PROFILE_MAX_METRICS)
		goto corrupt;
	/* The weights' width: one profile_sample_weight() knows, or none. */
	if (h.nsamples > 0 ? h.sample_wsize != 1 && h.sample_wsize != 2 &&
	    h.sample_wsize != 4 && h.sample_wsize != 8 : h.sample_wsize != 0)
		goto corrupt;
	p->sample_wsize = h.sample_wsize;
	TAKE(p->func_name, h.nfuncs, sizeof(uint32_t));
	TAKE(p->func_module, h.nfuncs, sizeof(uint32_t));
	TAKE(p->func_file, h.nfuncs, sizeof(uint32_t));
	TAKE(p->func_line, h.nfuncs, sizeof(uint32_t));
	TAKE(p->node_parent, h.nnodes, sizeof(uint32_t));
	TAKE(p->node_func, h.nnodes, sizeof(uint32_t));
	TAKE(p->node_depth, h.nnodes, sizeof(uint32_t));
	TAKE(p->node_first_child, h.nnodes, sizeof(uint32_t));
	TAKE(p->node_next_sibling, h.nnodes, sizeof(uint32_t));
	for (k = 0; k < p->nmetrics; k++) {
		struct profile_metric	*m = &p->metrics[k];
		const int64_t		*sum;
		const double		*rate;

		if ((m->name = (char *)in_string(&in)) == NULL ||
		    (m->unit = (char *)in_string(&in)) == NULL)
			goto corrupt;
		TAKE(sum, 1, sizeof *sum);
		m->sum = *sum;
		TAKE(rate, 1, sizeof *rate);
		/* A rate is shown as time: never trust a strange one. */
		if (!(*rate >= 0 && *rate < 1e300))
			goto corrupt;
		m->rate = *rate;
		TAKE(m->self, h.nnodes, sizeof(int64_t));
		TAKE(m->total, h.nnodes, sizeof(int64_t));
		TAKE(m->func_self, h.nfuncs, sizeof(int64_t));
		TAKE(m->func_total, h.nfuncs, sizeof(int64_t));
	}
	if (p->nsamples > 0) {
		TAKE(p->sample_node, h.nsamples, sizeof(uint32_t));
		TAKE(p->sample_weight, h.nsamples, h.sample_wsize);
	}
	TAKE(clique, h.nfuncs, sizeof *clique);
	TAKE(recursive, h.nfuncs, sizeof *recursive);
#undef TAKE
	if (cache_take_lines(&in, p) == -1)
		goto corrupt;
	if ((h.graph_flags & CACHE_GRAPH) != 0) {
		int	 oom;

		if (cache_load_graph(&in, &h, p, &oom) == -1) {
			if (!oom)
				goto corrupt;
			cause_set(cause, "out of memory");
			goto fail;
		}
	} else if (h.graph_flags != 0 || h.graph_edges != 0 ||
	    h.graph_cycles != 0)
		goto corrupt;
	if (cache_take_times(&in, p) == -1 || in.left != 0 ||
	    h.pad2 != 0)
		goto corrupt;

	/*
	 * The sizes agree with the header: now every index, then the
	 * checksum. The checks only read, within the sizes above, so they
	 * may come first; the profile is used only if all pass and the
	 * checksum agrees.
	 */
	if (cache_check(p, &h) == -1 || cache_check_nodes(p) == -1 ||
	    cache_check_cliques(p, clique, recursive) == -1 ||
	    (p->timeline != NULL && timeline_check(p->timeline, p->nnodes,
	    h.nstrings, p->nmetrics) == -1) ||
	    (p->lines != NULL && lines_check(p->lines, h.nstrings) == -1))
		goto corrupt;
	cksum = cache_sum(&h, (const char *)p->map + sizeof h);
	if (cksum != h.checksum) {
		cause_set(cause, "%s: checksum mismatch", path);
		goto fail;
	}
	p->cache_clique = clique;
	p->cache_recursive = recursive;
	return (p);
corrupt:
	cause_set(cause, "%s: corrupt cache", path);
fail:
	if (fd != -1)
		close(fd);
	if (map != MAP_FAILED)
		munmap(map, st.st_size);
	profile_free(p);
	return (NULL);
}

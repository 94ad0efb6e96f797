/*
 * The processed-profile cache: a cached profile answers exactly as the
 * loaded one; a stale, truncated or corrupted cache is always refused.
 */

#include "config.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "answer-query.h"
#include "cache.h"
#include "callgraph.h"
#include "lines.h"
#include "funcgraph.h"
#include "profile.h"
#include "profile-builder.h"
#include "profile-index.h"
#include "reader.h"
#include "strpool.h"
#include "tap.h"
#include "timeline.h"

static char *
ask(const struct profile *p, const char *qs)
{
	struct answer_context	 ctx;
	struct answer		*a;
	char			*s;

	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	if ((a = answer_query(p, qs, &ctx)) == NULL)
		return (NULL);
	s = strndup(a->body, a->len);
	answer_free(a);
	return (s);
}

static int
same_answers(const struct profile *a, const struct profile *b)
{
	static const char *qs[] = { "format=json", "cmd=top&format=json",
	    "cmd=top&sort=self&format=text", "cmd=tree&depth=6&format=json",
	    "cmd=tree&path=1&format=html", "cmd=cliques&format=json",
	    "cmd=func&func=2&format=json" };
	size_t	 i;
	char	*x, *y;
	int	 same = 1;

	for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		x = ask(a, qs[i]);
		y = ask(b, qs[i]);
		if (x == NULL || y == NULL || strcmp(x, y) != 0) {
			diag("differs: %s", qs[i]);
			same = 0;
		}
		free(x);
		free(y);
	}
	return (same);
}

/*
 * The same cliques, sizes and recursive cliques, as the profiles'
 * indexes give them (a cache's from the cliques it keeps); the number
 * of recursive cliques in *nrec.
 */
static int
same_graph(const struct profile *p, const struct profile *c,
    uint32_t *nrec)
{
	struct profile_index	*x = profile_index_create(p);
	struct profile_index	*y = profile_index_create(c);
	const struct callgraph	*a = NULL, *b = NULL;
	uint32_t		 n;
	int			 same = 0;

	*nrec = 0;
	if (x != NULL && y != NULL) {
		a = profile_index_callgraph(x, NULL);
		b = profile_index_callgraph(y, NULL);
	}
	if (a != NULL && b != NULL && a->nfuncs == b->nfuncs &&
	    a->ncliques == b->ncliques && a->nrecursive == b->nrecursive) {
		n = a->nfuncs;
		*nrec = b->nrecursive;
		same = memcmp(a->clique, b->clique, n * sizeof *a->clique) ==
		    0 && memcmp(a->size, b->size, n * sizeof *a->size) == 0 &&
		    memcmp(a->recursive, b->recursive, n) == 0;
	}
	profile_index_free(x);
	profile_index_free(y);
	return (same);
}

/*
 * A profile with recursive cliques (a <-> b, c calling itself, d not
 * recursive) keeps them through its cache.
 */
static void
test_recursive(const char *dir)
{
	static const char	 text[] = "main;a;b;a;b 3\nmain;c;c 2\n"
				    "main;d 1\n";
	char			 src[256], path[256], *cause = NULL;
	struct profile		*p, *c = NULL;
	uint32_t		 nrec;
	struct stat		 st;
	FILE			*f;

	snprintf(src, sizeof src, "%s/rec.folded", dir);
	snprintf(path, sizeof path, "%s/rec.cache", dir);
	if ((f = fopen(src, "w")) == NULL)
		return;
	fputs(text, f);
	fclose(f);
	stat(src, &st);
	p = reader_load(src, NULL, NULL, &cause);
	if (p != NULL && cache_write(p, NULL, path, &st, &cause) == 0)
		c = cache_load(path, &st, &cause);
	ok(c != NULL, "recursive: cache maps back%s%s", cause ? ": " : "",
	    cause ? cause : "");
	if (c != NULL) {
		ok(same_graph(p, c, &nrec),
		    "recursive: the same cliques as the source's");
		is_int(nrec, 2,
		    "recursive: two recursive cliques from the cache");
		ok(same_answers(p, c), "recursive: every report the same");
	}
	profile_free(c);
	profile_free(p);
	free(cause);
	unlink(src);
	unlink(path);
}

static void	test_regions(const struct profile *, const char *,
		    const struct stat *);

/*
 * A profile with costs by source line (pprof with lines) keeps them
 * through its cache: the same rows, the same cmd=source answers, and
 * its regions (the lines' block among them) each checked.
 */
static void
test_lines(const char *dir, const char *top)
{
	static const char	*qs[] = {
	    "cmd=source&func=main.fib&format=json",
	    "cmd=source&func=main.recurse&format=text",
	    "cmd=source&func=main.inner&format=html&metric=samples" };
	char			 src[512], path[256], *cause = NULL, *x, *y;
	struct profile		*p, *c = NULL;
	struct stat		 st;
	size_t			 i;
	int			 same = 1;

	snprintf(src, sizeof src, "%s/tests/data/pprof/cpu.pb", top);
	snprintf(path, sizeof path, "%s/lines.cache", dir);
	if (stat(src, &st) == -1)
		return;
	p = reader_load(src, NULL, NULL, &cause);
	ok(p != NULL && p->lines != NULL && p->lines->nrows > 0,
	    "lines: %s has costs by line", src);
	if (p != NULL && cache_write(p, NULL, path, &st, &cause) == 0)
		c = cache_load(path, &st, &cause);
	ok(c != NULL && c->lines != NULL, "lines: the cache maps back with "
	    "its lines%s%s", cause ? ": " : "", cause ? cause : "");
	if (c != NULL && c->lines != NULL && p->lines != NULL) {
		is_int(c->lines->nrows, p->lines->nrows, "lines: same rows");
		is_int(c->lines->ncalls, p->lines->ncalls, "lines: same calls");
		ok(memcmp(c->lines->total, p->lines->total,
		    (size_t)p->nmetrics * p->lines->nrows * 8) == 0 &&
		    memcmp(c->lines->row_line, p->lines->row_line,
		    (size_t)p->lines->nrows * 4) == 0,
		    "lines: the same lines and totals");
		for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
			x = ask(p, qs[i]);
			y = ask(c, qs[i]);
			if (x == NULL || y == NULL || strcmp(x, y) != 0) {
				diag("differs: %s", qs[i]);
				same = 0;
			}
			free(x);
			free(y);
		}
		ok(same, "lines: cmd=source answers the same");
		ok(same_answers(p, c), "lines: every report the same");
		test_regions(p, path, &st);
	}
	profile_free(c);
	profile_free(p);
	free(cause);
	unlink(path);
}

/*
 * The regions of a cache file, as cache_write lays them out: each
 * section padded to 8 bytes. Kept here apart from cache.c on purpose: a
 * layout that drifts from this one fails the size check below.
 */
struct region {
	char		 name[32];
	size_t		 off;
	size_t		 len;
};

#define PAD8(n)		(((n) + 7) & ~(size_t)7)
#define HEADER_SIZE	128

static size_t
layout(const struct profile *p, struct region *r, size_t max, size_t *nr)
{
	static const char *node[] = { "node_parent", "node_func",
	    "node_depth", "node_first_child", "node_next_sibling" };
	static const char *func[] = { "func_name", "func_module",
	    "func_file", "func_line" };
	const char	*data;
	const uint64_t	*off;
	size_t		 len, at = 0, n = 0, i, k, loff[LINES_ARRAYS], llen;

#define ADD(nm, l) do {							\
	if (n < max) {							\
		snprintf(r[n].name, sizeof r[n].name, "%s", (nm));	\
		r[n].off = at;						\
		r[n].len = (l);						\
		n++;							\
	}								\
	at += PAD8(l);							\
} while (0)
	strpool_export(p->strings, &data, &len, &off);
	ADD("header", HEADER_SIZE);
	ADD("format", 4 + strlen(p->format) + 1);
	ADD("strings", len);
	ADD("string offsets", strpool_count(p->strings) * sizeof *off);
	for (i = 0; i < 4; i++)
		ADD(func[i], p->nfuncs * 4);
	for (i = 0; i < 5; i++)
		ADD(node[i], p->nnodes * 4);
	for (k = 0; k < p->nmetrics; k++) {
		ADD("metric name", 4 + strlen(p->metrics[k].name) + 1);
		ADD("metric unit", 4 + strlen(p->metrics[k].unit) + 1);
		ADD("metric sum", 8);
		ADD("metric rate", 8);
		ADD("metric self", p->nnodes * 8);
		ADD("metric total", p->nnodes * 8);
		ADD("metric func_self", p->nfuncs * 8);
		ADD("metric func_total", p->nfuncs * 8);
	}
	if (p->nsamples > 0) {
		ADD("sample_node", p->nsamples * 4);
		ADD("sample_weight", p->nsamples * p->sample_wsize);
	}
	ADD("cliques", p->nfuncs * 4);
	ADD("recursive", p->nfuncs);
	ADD("lines head", 24);
	if (p->lines != NULL && lines_layout(p->lines, loff, &llen) == 0)
		ADD("lines", llen);
	if (p->funcgraph != NULL) {
		const struct funcgraph	*g = p->funcgraph;
		size_t			 ne = g->nedges, nf = p->nfuncs;
		size_t			 nm = p->nmetrics;

		ADD("graph from", ne * 4);
		ADD("graph to", ne * 4);
		ADD("graph calls", ne * 8);
		ADD("graph cost", ne * nm * 8);
		if (g->arcself != NULL)
			ADD("graph arcself", ne * nm * 8);
		ADD("graph self", nf * nm * 8);
		ADD("graph incl", nf * nm * 8);
		ADD("graph out", (nf + 1) * 4);
		ADD("graph in", (nf + 1) * 4);
		ADD("graph byto", ne * 4);
		ADD("graph cycle", nf * 4);
		ADD("graph fcalls", nf * 8);
		if (g->level != NULL)
			ADD("graph level", nf);
		if (g->given != NULL)
			ADD("graph given", nf * nm * 8);
	}
	if (p->timeline == NULL)
		ADD("timeline (none)", 8);
	else {
		const struct timeline	*tl = p->timeline;

		ADD("timeline head", 96);
		if (tl->n > 0) {
			ADD("timeline nodes", tl->n * 4);
			ADD("timeline stream", tl->ndata);
			ADD("timeline index", tl->nindex * 32);
		}
		ADD("timeline threads", tl->nthreads * 24);
		if (tl->nmarks > 0)
			ADD("timeline marks", tl->nmarks * 16);
	}
#undef ADD
	*nr = n;
	return (at);
}

/* Write buf with byte i flipped to path: is the cache refused? */
static int
refused_flipped(const char *path, char *buf, size_t n, size_t i,
    const struct stat *st)
{
	struct profile	*c;
	char		*cause = NULL;
	int		 fd, ok;

	buf[i] ^= 0x20;
	fd = open(path, O_WRONLY | O_TRUNC);
	ok = fd != -1 && write(fd, buf, n) == (ssize_t)n;
	if (fd != -1)
		close(fd);
	buf[i] ^= 0x20;
	if (!ok)
		return (0);
	c = cache_load(path, st, &cause);
	profile_free(c);
	free(cause);
	return (c == NULL);
}

/*
 * A byte flipped in each region of the file (its first, middle and last
 * byte): the checksum covers the header and every section, so each is
 * refused, whatever the structural checks make of it.
 */
static void
test_regions(const struct profile *p, const char *path,
    const struct stat *st)
{
	struct region	 r[64];
	struct stat	 cst;
	size_t		 nr, total, i, j, at[3], tried = 0, refused = 0;
	char		*buf;
	FILE		*f;

	total = layout(p, r, sizeof r / sizeof r[0], &nr);
	if (stat(path, &cst) == -1)
		return;
	is_int(total, cst.st_size, "regions: the layout the test knows "
	    "is the file's (%zu regions)", nr);
	if ((buf = malloc(total)) == NULL || (f = fopen(path, "rb")) == NULL)
		return;
	if (fread(buf, 1, total, f) != total) {
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	for (i = 0; i < nr; i++) {
		if (r[i].len == 0)
			continue;
		at[0] = r[i].off;
		at[1] = r[i].off + r[i].len / 2;
		at[2] = r[i].off + r[i].len - 1;
		for (j = 0; j < 3; j++) {
			tried++;
			if (refused_flipped(path, buf, total, at[j], st))
				refused++;
			else
				diag("%s: byte %zu flipped and accepted",
				    r[i].name, at[j]);
		}
	}
	is_int(refused, tried, "regions: a byte flipped in any region "
	    "(%zu tries) is refused", tried);
	/* The file put back whole loads again: nothing else was wrong. */
	{
		struct profile	*c;
		char		*cause = NULL;
		int		 fd;

		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd == -1 || write(fd, buf, total) != (ssize_t)total)
			return;
		close(fd);
		c = cache_load(path, st, &cause);
		ok(c != NULL, "regions: the file restored maps again");
		profile_free(c);
		free(cause);
	}
	free(buf);
}

/*
 * A call graph's profile (callgrind, gprof: funcgraph.h) through its
 * cache: the same graph, every figure and report the same, and a byte
 * flipped anywhere in the graph's sections refused.
 */
static void
test_funcgraph(const char *dir, const char *top, const char *name)
{
	static const char *qs[] = { "format=json", "cmd=top&format=json",
	    "cmd=top&sort=self&format=text", "cmd=func&func=3&format=json",
	    "cmd=callers&func=3&format=json", "cmd=cliques&format=json",
	    "cmd=tree&depth=4&format=json", "cmd=modules&format=json" };
	const struct funcgraph	*g, *h;
	char			 src[4096], path[256], *cause = NULL, *x, *y;
	struct profile		*p, *c = NULL;
	struct stat		 st;
	size_t			 i, ne, nf, nm;
	int			 same = 1;

	snprintf(src, sizeof src, "%s/tests/data/%s", top, name);
	snprintf(path, sizeof path, "%s/graph.cache", dir);
	if (stat(src, &st) == -1 ||
	    (p = reader_load(src, NULL, NULL, &cause)) == NULL) {
		ok(0, "%s loads: %s", name, cause ? cause : "?");
		free(cause);
		return;
	}
	ok(p->funcgraph != NULL && cache_write(p, NULL, path, &st,
	    &cause) == 0 && (c = cache_load(path, &st, &cause)) != NULL,
	    "%s: a call graph's profile is cached%s%s", name,
	    cause ? ": " : "", cause ? cause : "");
	if (c == NULL || c->funcgraph == NULL) {
		ok(0, "%s: the graph comes back", name);
		profile_free(c);
		profile_free(p);
		free(cause);
		return;
	}
	g = p->funcgraph;
	h = c->funcgraph;
	ne = g->nedges;
	nf = p->nfuncs;
	nm = p->nmetrics;
	ok(h->nedges == ne && h->ncycles == g->ncycles &&
	    h->edgeself == g->edgeself && h->contexts == g->contexts &&
	    memcmp(h->from, g->from, ne * 4) == 0 &&
	    memcmp(h->to, g->to, ne * 4) == 0 &&
	    memcmp(h->calls, g->calls, ne * 8) == 0 &&
	    memcmp(h->cost, g->cost, ne * nm * 8) == 0 &&
	    memcmp(h->self, g->self, nf * nm * 8) == 0 &&
	    memcmp(h->incl, g->incl, nf * nm * 8) == 0 &&
	    memcmp(h->byto, g->byto, ne * 4) == 0 &&
	    memcmp(h->cycle, g->cycle, nf * 4) == 0 &&
	    (g->level == NULL) == (h->level == NULL) &&
	    (g->given == NULL) == (h->given == NULL) &&
	    (g->arcself == NULL) == (h->arcself == NULL),
	    "%s: the same graph (%zu edges, %u cycles)", name, ne,
	    g->ncycles);
	for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		x = ask(p, qs[i]);
		y = ask(c, qs[i]);
		if (x == NULL || y == NULL || strcmp(x, y) != 0) {
			diag("differs: %s", qs[i]);
			same = 0;
		}
		free(x);
		free(y);
	}
	ok(same, "%s: every report answers the same from the cache", name);
	test_regions(p, path, &st);
	profile_free(c);
	profile_free(p);
	unlink(path);
}

/*
 * A cache of several checksum blocks (1 MiB) and node chunks (2^18 call
 * nodes), checked on two threads: it maps back and answers the same, and
 * a byte flipped in its last block, or in a node of the second chunk, is
 * refused.
 */
static void
test_big(const char *dir)
{
	char		 src[256], path[256], *cause = NULL;
	struct profile	*p, *c = NULL;
	struct region	 r[64];
	struct stat	 st, cst;
	size_t		 nr, total, i;
	char		*buf = NULL;
	FILE		*f;

	snprintf(src, sizeof src, "%s/big.folded", dir);
	snprintf(path, sizeof path, "%s/big.cache", dir);
	if ((f = fopen(src, "w")) == NULL)
		return;
	for (i = 0; i < 300000; i++)
		fprintf(f, "main;a%zu;b%zu %zu\n", i / 1000, i % 1000,
		    i % 7 + 1);
	fclose(f);
	stat(src, &st);
	p = reader_load(src, NULL, NULL, &cause);
	if (p != NULL && cache_write(p, NULL, path, &st, &cause) == 0)
		c = cache_load(path, &st, &cause);
	ok(c != NULL, "big: cache of %u nodes maps back%s%s",
	    p != NULL ? p->nnodes : 0, cause ? ": " : "", cause ? cause : "");
	if (c == NULL || p->nnodes <= (1U << 18))
		goto out;
	ok(same_answers(p, c), "big: every report the same");
	profile_free(c);
	c = NULL;
	total = layout(p, r, sizeof r / sizeof r[0], &nr);
	if (stat(path, &cst) == -1 || (size_t)cst.st_size != total ||
	    total < (3U << 20) || (buf = malloc(total)) == NULL ||
	    (f = fopen(path, "rb")) == NULL)
		goto out;
	if (fread(buf, 1, total, f) != total) {
		fclose(f);
		goto out;
	}
	fclose(f);
	ok(refused_flipped(path, buf, total, total - 1, &st),
	    "big: a byte flipped in the last block is refused");
	ok(refused_flipped(path, buf, total, total / 2, &st),
	    "big: a byte flipped in a middle block is refused");
	for (i = 0; i < nr; i++) {
		if (strcmp(r[i].name, "node_parent") == 0)
			break;
	}
	ok(i < nr && refused_flipped(path, buf, total, r[i].off +
	    4 * ((1U << 18) + 5) + 3, &st),
	    "big: a parent flipped in the second node chunk is refused");
out:
	free(buf);
	profile_free(c);
	profile_free(p);
	free(cause);
	unlink(src);
	unlink(path);
}

/* Write n bytes of buf to path, with the header's word at off set to v. */
static int
refused_word(const char *path, char *buf, size_t n, size_t off, uint32_t v,
    const struct stat *st, const char *why)
{
	struct profile	*c;
	char		*cause = NULL;
	uint32_t	 old;
	int		 fd, ok, r;

	memcpy(&old, buf + off, sizeof old);
	memcpy(buf + off, &v, sizeof v);
	fd = open(path, O_WRONLY | O_TRUNC);
	ok = fd != -1 && write(fd, buf, n) == (ssize_t)n;
	if (fd != -1)
		close(fd);
	memcpy(buf + off, &old, sizeof old);
	if (!ok)
		return (0);
	c = cache_load(path, st, &cause);
	r = c == NULL && cause != NULL && strstr(cause, why) != NULL;
	if (!r)
		diag("header word %zu = %u: %s", off, v, cause ? cause : "used");
	profile_free(c);
	free(cause);
	return (r);
}

/*
 * The samples' weights are kept at the profile's width (1, 2, 4 or 8
 * bytes): each width comes back from the cache as it went in, an odd
 * count of them padded as every section is; a width the reader does
 * not know, or an old cache of 8-byte weights, is refused.
 */
static void
test_weights(const char *dir)
{
	static const int64_t	 w[][3] = { { 1, 2, 127 }, { 1, 300, -5 },
	    { 1, -70000, 3 }, { 1, (int64_t)1 << 40, INT64_MIN } };
	static const unsigned	 wsize[] = { 1, 2, 4, 8 };
	char			 src[256], path[256], *cause = NULL, *buf;
	struct profile_builder	*b;
	struct profile		*p, *c;
	struct stat		 st, cst;
	uint32_t		 f, n[3], i, k, same;
	FILE			*fp;

	snprintf(src, sizeof src, "%s/weights.src", dir);
	snprintf(path, sizeof path, "%s/weights.cache", dir);
	if ((fp = fopen(src, "w")) == NULL)
		return;
	fputs("a source\n", fp);
	fclose(fp);
	stat(src, &st);
	for (k = 0; k < 4; k++) {
		b = profile_builder_create("chrome");
		profile_builder_metric(b, "samples", "count");
		f = profile_builder_func(b, "f", 1, "", 0);
		n[0] = profile_builder_child(b, PROFILE_ROOT, f);
		f = profile_builder_func(b, "g", 1, "", 0);
		n[1] = profile_builder_child(b, n[0], f);
		n[2] = profile_builder_child(b, PROFILE_ROOT, f);
		/* Nine samples: no width fills a multiple of 8 bytes. */
		for (i = 0; i < 9; i++) {
			profile_builder_add(b, n[i % 3], 0, 1);
			profile_builder_sample(b, n[i % 3], w[k][i % 3]);
		}
		if ((p = profile_builder_finish(b, &cause)) == NULL ||
		    cache_write(p, NULL, path, &st, &cause) == -1) {
			ok(0, "weights: %u bytes written: %s", wsize[k], cause);
			profile_free(p);
			free(cause);
			return;
		}
		c = cache_load(path, &st, &cause);
		ok(c != NULL && c->sample_wsize == wsize[k] &&
		    p->sample_wsize == wsize[k], "weights: %u bytes a weight "
		    "kept through the cache", wsize[k]);
		for (i = 0, same = c != NULL && c->nsamples == 9; same &&
		    i < 9; i++)
			same = profile_sample_weight(c, i) == w[k][i % 3] &&
			    c->sample_node[i] == n[i % 3];
		ok(same, "weights: each sample the same");
		profile_free(c);
		test_regions(p, path, &st);
		profile_free(p);
	}
	/* The header's words: the version at 8, the width at 108. */
	if (stat(path, &cst) == -1 || (buf = malloc(cst.st_size)) == NULL ||
	    (fp = fopen(path, "rb")) == NULL)
		return;
	if (fread(buf, 1, cst.st_size, fp) == (size_t)cst.st_size) {
		ok(refused_word(path, buf, cst.st_size, 108, 3, &st,
		    "corrupt"), "weights: a width of 3 bytes is corrupt");
		ok(refused_word(path, buf, cst.st_size, 108, 0, &st,
		    "corrupt"), "weights: no width with samples is corrupt");
		ok(refused_word(path, buf, cst.st_size, 108, 16, &st,
		    "corrupt"), "weights: a width of 16 bytes is corrupt");
		ok(refused_word(path, buf, cst.st_size, 8, 8, &st,
		    "version"), "weights: a version 8 cache (8-byte weights) "
		    "is refused as of another version");
	}
	fclose(fp);
	free(buf);
	free(cause);
	unlink(src);
	unlink(path);
}

int
main(int argc, char **argv)
{
	const char	*top = getenv("top_srcdir");
	char		 src[4096], path[256];
	char		 dir[] = "/tmp/deepq-cache.XXXXXX";
	char		*cause = NULL, *buf;
	struct profile	*p, *c;
	uint32_t	 nrec;
	struct stat	 st, cst, stale;
	int		 fd, refused, i, n;
	FILE		*f;

	/* The file named, or the trace of the sources (another build dir). */
	snprintf(src, sizeof src, "%s", argc > 1 ? argv[1] : "");
	if (argc <= 1)
		snprintf(src, sizeof src, "%s/tests/data/tezos.trace",
		    top != NULL ? top : ".");
	if (mkdtemp(dir) == NULL || stat(src, &st) == -1)
		return (1);
	snprintf(path, sizeof path, "%s/cache", dir);
	p = reader_load(src, NULL, NULL, &cause);
	ok(p != NULL, "%s loads", src);
	if (p == NULL)
		return (tap_done());
	/* A rate the reader recorded (Mercury's quanta) must come back. */
	p->metrics[0].rate = 250.5;
	ok(cache_write(p, NULL, path, &st, &cause) == 0, "cache written");
	c = cache_load(path, &st, &cause);
	ok(c != NULL, "cache maps back");
	if (c != NULL) {
		ok(c->metrics[0].rate == 250.5, "a metric's rate is kept");
		is_int(c->nnodes, p->nnodes, "same nodes");
		is_int(c->nfuncs, p->nfuncs, "same functions");
		is_int(c->nsamples, p->nsamples, "same samples");
		is_str(c->format, p->format, "same format");
		ok(c->cache_clique != NULL && c->cache_recursive != NULL,
		    "the cliques come with it");
		ok(same_graph(p, c, &nrec),
		    "the same cliques, sizes and recursive cliques");
		ok(same_answers(p, c), "every report answers the same");
		profile_free(c);
	}

	test_recursive(dir);
	test_lines(dir, top != NULL ? top : ".");
	test_funcgraph(dir, top != NULL ? top : ".", "example.callgrind");
	test_funcgraph(dir, top != NULL ? top : ".",
	    "cpython-json.callgrind.gz");
	test_funcgraph(dir, top != NULL ? top : ".", "gprof-workload-q.txt");
	test_regions(p, path, &st);
	test_big(dir);
	test_weights(dir);

	stale = st;
	stale.st_mtim.tv_nsec ^= 1;
	c = cache_load(path, &stale, &cause);
	ok(c == NULL && strstr(cause, "stale") != NULL,
	    "a changed source makes the cache stale");
	free(cause);
	cause = NULL;
	stale = st;
	stale.st_size++;
	c = cache_load(path, &stale, &cause);
	ok(c == NULL, "a source of another size is refused");
	free(cause);
	cause = NULL;

	/* Flip bytes all over the file: each must be refused, never used. */
	stat(path, &cst);
	n = cst.st_size;
	buf = malloc(n);
	f = fopen(path, "rb");
	if (buf == NULL || f == NULL || fread(buf, 1, n, f) != (size_t)n)
		return (1);
	fclose(f);
	refused = 0;
	for (i = 0; i < n; i += (n / 97) + 1) {
		buf[i] ^= 0x5a;
		fd = open(path, O_WRONLY | O_TRUNC);
		if (write(fd, buf, n) != n)
			return (1);
		close(fd);
		buf[i] ^= 0x5a;
		if ((c = cache_load(path, &st, &cause)) == NULL)
			refused++;
		else
			diag("byte %d flipped and accepted", i);
		profile_free(c);
		free(cause);
		cause = NULL;
	}
	is_int(refused, (n + (n / 97)) / ((n / 97) + 1), "every corrupted "
	    "cache is refused");
	fd = open(path, O_WRONLY | O_TRUNC);
	if (write(fd, buf, n / 2) != n / 2)
		return (1);
	close(fd);
	c = cache_load(path, &st, &cause);
	ok(c == NULL, "a truncated cache is refused: %s", cause ? cause : "");
	free(cause);
	cause = NULL;

	/*
	 * A cache truncated while loaded: the profile is the server's own
	 * memory, not a mapping of the file (that was SIGBUS at the next
	 * touch of a page past the new end).
	 */
	fd = open(path, O_WRONLY | O_TRUNC);
	if (write(fd, buf, n) != n)
		return (1);
	close(fd);
	if ((c = cache_load(path, &st, &cause)) == NULL)
		return (1);
	if (truncate(path, 0) == -1)
		return (1);
	{
		int64_t		 sum = 0;
		uint32_t	 k;

		for (k = 0; k < c->nnodes; k++)
			sum += c->metrics[0].self[k];
		for (k = 0; k < c->nfuncs; k++)
			sum += (int64_t)strlen(profile_func_name(c, k));
		ok(sum > 0 && c->metrics[0].sum == p->metrics[0].sum,
		    "a cache truncated after loading: still read whole");
	}
	profile_free(c);
	free(buf);
	unlink(path);
	rmdir(dir);
	profile_free(p);
	return (tap_done());
}

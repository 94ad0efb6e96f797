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
#include "cache.h"
#include "callgraph.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

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

/* The same cliques, sizes and recursive cliques. */
static int
same_graph(const struct callgraph *a, const struct callgraph *b)
{
	uint32_t	 n;

	if (a == NULL || b == NULL || a->nfuncs != b->nfuncs ||
	    a->ncliques != b->ncliques || a->nrecursive != b->nrecursive)
		return (0);
	n = a->nfuncs;
	return (memcmp(a->clique, b->clique, n * sizeof *a->clique) == 0 &&
	    memcmp(a->size, b->size, n * sizeof *a->size) == 0 &&
	    memcmp(a->recursive, b->recursive, n) == 0);
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
	if (p != NULL && cache_write(p, path, &st, &cause) == 0)
		c = cache_load(path, &st, &cause);
	ok(c != NULL, "recursive: cache maps back%s%s", cause ? ": " : "",
	    cause ? cause : "");
	if (c != NULL) {
		is_int(callgraph_get(c, NULL)->nrecursive, 2,
		    "recursive: two recursive cliques from the cache");
		ok(same_graph(callgraph_get(p, NULL), callgraph_get(c, NULL)),
		    "recursive: the same cliques as the source's");
		ok(same_answers(p, c), "recursive: every report the same");
	}
	profile_free(c);
	profile_free(p);
	free(cause);
	unlink(src);
	unlink(path);
}

int
main(int argc, char **argv)
{
	const char	*top = getenv("top_srcdir");
	char		 src[4096], dir[] = "/tmp/deepq-cache.XXXXXX", path[256];
	char		*cause = NULL, *buf;
	struct profile	*p, *c;
	struct stat	 st, cst, stale;
	int		 fd, refused, i, n;
	FILE		*f;

	/* The file named, or the trace of the sources (a separate build dir). */
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
	ok(cache_write(p, path, &st, &cause) == 0, "cache written");
	c = cache_load(path, &st, &cause);
	ok(c != NULL, "cache maps back");
	if (c != NULL) {
		ok(c->metrics[0].rate == 250.5, "a metric's rate is kept");
		is_int(c->nnodes, p->nnodes, "same nodes");
		is_int(c->nfuncs, p->nfuncs, "same functions");
		is_int(c->nsamples, p->nsamples, "same samples");
		is_str(c->format, p->format, "same format");
		ok(c->derived != NULL && c->derived->graph_clique != NULL,
		    "the cliques come with it");
		ok(same_graph(callgraph_get(p, NULL), callgraph_get(c, NULL)),
		    "the same cliques, sizes and recursive cliques");
		ok(same_answers(p, c), "every report answers the same");
		profile_free(c);
	}

	test_recursive(dir);

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
	free(buf);
	unlink(path);
	rmdir(dir);
	profile_free(p);
	return (tap_done());
}

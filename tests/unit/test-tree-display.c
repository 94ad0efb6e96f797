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

#include <jansson.h>

#include "cost.h"
#include "display.h"
#include "input.h"
#include "outbuf.h"
#include "profile.h"
#include "query.h"
#include "reader.h"
#include "render.h"
#include "report.h"
#include "tap.h"

/*
 * cmd=tree's page made from the profile (report_create_display) against
 * the page made from its JSON (report_display(report_create())): the
 * same HTML and text, or the same error, for many queries on the test
 * data, the real profiles beside the repository and generated ones (deep
 * chains past the levels where scores stay exact, wide fan-outs with
 * ties, modules, several metrics).
 */

static const char *const queries[] = {
	"cmd=tree", "cmd=tree&budget=1", "cmd=tree&budget=2",
	"cmd=tree&budget=7", "cmd=tree&budget=1000", "cmd=tree&depth=100000&budget=200",
	"cmd=tree&depth=1", "cmd=tree&depth=3&budget=50",
	"cmd=tree&depth=7&budget=5000", "cmd=tree&depth=2000&budget=3000",
	"cmd=tree&pct=1", "cmd=tree&avg=1", "cmd=tree&pct=1&avg=1&fields=all",
	"cmd=tree&fields=all&units=seconds", "cmd=tree&units=seconds&avg=1",
	"cmd=tree&sort=total", "cmd=tree&sort=self&pct=1",
	"cmd=tree&metric=calls", "cmd=tree&metric=entries&fields=all",
	"cmd=tree&metric=alloc&pct=1", "cmd=tree&fields=nosuch",
	"cmd=tree&path=1", "cmd=tree&path=1,2", "cmd=tree&path=999999",
	"cmd=tree&open=1~1,2&budget=30", "cmd=tree&close=1&budget=30",
	"cmd=tree&open=1&close=1,2&depth=1", "cmd=tree&open=bad",
	"cmd=tree&close=1~x",
};

static int	 nsame, nchecked;

/* The HTML and text of a display, one after the other; caller frees. */
static char *
pages(const struct display *d)
{
	static const char *const formats[] = { "html", "text" };
	struct render_context	 rctx = { "?", "/static/", "test.folded" };
	const struct renderer	*r;
	struct outbuf		 ob;
	size_t			 len, i;

	outbuf_init(&ob);
	for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		r = render_find(formats[i]);
		if (r == NULL || r->render(&ob, NULL, d, &rctx) == -1) {
			outbuf_clear(&ob);
			return (NULL);
		}
	}
	return (outbuf_take(&ob, &len));
}

/* Does qs give the same page (or error) both ways? */
static int
same(const struct profile *p, const char *name, const char *qs,
    uint64_t max_cost)
{
	struct report_context	 rc;
	struct report_error	 e1 = { 0, NULL }, e2 = { 0, NULL };
	struct cost		 c1, c2;
	struct display		*d1 = NULL, *d2 = NULL;
	struct query		*q;
	json_t			*j = NULL;
	char			*cause = NULL, *s1 = NULL, *s2 = NULL;
	int			 status, r = 0;

	if ((q = query_parse(qs, &status, &cause)) == NULL) {
		diag("%s: %s: %s", name, qs, cause ? cause : "?");
		free(cause);
		return (0);
	}
	memset(&rc, 0, sizeof rc);
	rc.name = name;
	cost_init(&c1, max_cost, 0);
	rc.cost = &c1;
	if ((j = report_create(p, q, &rc, &e1)) != NULL)
		d1 = report_display(j, q);
	cost_init(&c2, max_cost, 0);
	rc.cost = &c2;
	d2 = report_create_display(p, q, &rc, &e2);
	if (j == NULL && d2 == NULL)
		r = e1.status == e2.status && e1.message != NULL &&
		    e2.message != NULL && strcmp(e1.message, e2.message) == 0;
	else if (d1 != NULL && d2 != NULL && !display_failed(d1) &&
	    !display_failed(d2) && (s1 = pages(d1)) != NULL &&
	    (s2 = pages(d2)) != NULL)
		r = strcmp(s1, s2) == 0;
	if (!r) {
		diag("%s: %s: %d %s / %d %s", name, qs, e1.status,
		    e1.message ? e1.message : "-", e2.status,
		    e2.message ? e2.message : "-");
		if (s1 != NULL && s2 != NULL) {
			size_t	 i;

			for (i = 0; s1[i] == s2[i]; i++)
				;
			diag("first difference at byte %zu: ...%.60s / "
			    "...%.60s", i, s1 + i, s2 + i);
		}
	}
	nchecked++;
	nsame += r;
	free(s1);
	free(s2);
	free(e1.message);
	free(e2.message);
	display_free(d1);
	display_free(d2);
	json_decref(j);
	query_free(q);
	return (r);
}

/*
 * Every query, and queries on the paths of the first shown nodes (the
 * start's heaviest child and grandchild: open=, close=, path=).
 */
static void
check(const struct profile *p, const char *name)
{
	struct report_context	 rc;
	struct report_error	 e = { 0, NULL };
	struct query		*q;
	json_t			*j, *k, *g;
	const char		*a = NULL, *b = NULL;
	char			 qs[512];
	size_t			 i;
	int			 status, bad = 0, n = 0;

	for (i = 0; i < sizeof queries / sizeof queries[0]; i++) {
		n++;
		bad += !same(p, name, queries[i], 0);
	}
	memset(&rc, 0, sizeof rc);
	if ((q = query_parse("cmd=tree&budget=3", &status, NULL)) == NULL) {
		ok(0, "%s: the query parses", name);
		return;
	}
	j = report_create(p, q, &rc, &e);
	free(e.message);
	k = json_array_get(json_object_get(json_object_get(j, "root"),
	    "children"), 0);
	g = json_array_get(json_object_get(k, "children"), 0);
	a = json_string_value(json_object_get(k, "path"));
	b = json_string_value(json_object_get(g, "path"));
	if (a != NULL) {
		snprintf(qs, sizeof qs, "cmd=tree&path=%s", a);
		n++;
		bad += !same(p, name, qs, 0);
		snprintf(qs, sizeof qs, "cmd=tree&open=%s&budget=20&pct=1", a);
		n++;
		bad += !same(p, name, qs, 0);
		snprintf(qs, sizeof qs, "cmd=tree&close=%s&budget=20", a);
		n++;
		bad += !same(p, name, qs, 0);
	}
	if (a != NULL && b != NULL) {
		snprintf(qs, sizeof qs, "cmd=tree&path=%s&depth=2", b);
		n++;
		bad += !same(p, name, qs, 0);
		snprintf(qs, sizeof qs, "cmd=tree&open=%s~%s&close=%s&"
		    "budget=15&avg=1", b, a, a);
		n++;
		bad += !same(p, name, qs, 0);
	}
	/* A query over its budget: the same 503 both ways. */
	n++;
	bad += !same(p, name, "cmd=tree&budget=5000", 300);
	n++;
	bad += !same(p, name, "cmd=tree&budget=5000&depth=50", 5000);
	ok(bad == 0, "%s: %d queries, the same page both ways (%d differ)",
	    name, n, bad);
	json_decref(j);
	query_free(q);
}

static struct profile *
load_text(const char *text, size_t len)
{
	struct input	*in;
	struct profile	*p;
	char		*cause = NULL;

	in = input_memory(text, len);
	p = reader_load_input(in, "folded", NULL, &cause);
	input_free(in);
	if (p == NULL)
		diag("load: %s", cause ? cause : "?");
	free(cause);
	return (p);
}

/* A random folded profile: modules, names that repeat, ties. */
static struct profile *
random_profile(unsigned seed)
{
	static const char *const names[] = { "main", "f", "g", "h", "<x>&",
	    "k" };
	static char	 buf[65536];
	size_t		 o = 0;
	int		 i, k, d;

	srandom(seed);
	for (i = 0; i < 200; i++) {
		d = 1 + random() % 12;
		for (k = 0; k < d && o < sizeof buf - 256; k++)
			o += snprintf(buf + o, sizeof buf - o, "%sm%ld`%s",
			    k ? ";" : "", random() % 3, names[random() % 6]);
		o += snprintf(buf + o, sizeof buf - o, " %ld\n",
		    1 + random() % (seed % 2 ? 4 : 100));
	}
	return (load_text(buf, o));
}

/*
 * A chain deeper than the levels where scores are exact, with siblings
 * (tied and not) all the way down: their scores underflow to 0 and tie.
 */
static struct profile *
deep_profile(int depth)
{
	char		*buf;
	size_t		 cap = (size_t)depth * depth * 2 + 65536, o = 0;
	int		 i, k;
	struct profile	*p;

	if ((buf = malloc(cap)) == NULL)
		return (NULL);
	for (i = 0; i < depth; i += 37) {
		for (k = 0; k < 3; k++) {
			int	 l;

			for (l = 0; l < i; l++)
				o += snprintf(buf + o, cap - o, "d%d;", l % 5);
			o += snprintf(buf + o, cap - o, "leaf%d %d\n", k,
			    k == 2 ? 7 : 3);
		}
	}
	p = load_text(buf, o);
	free(buf);
	return (p);
}

/* A root with many children, most tied: "more" rows, tie-breaks. */
static struct profile *
wide_profile(void)
{
	char		*buf;
	size_t		 cap = 1 << 20, o = 0;
	int		 i;
	struct profile	*p;

	if ((buf = malloc(cap)) == NULL)
		return (NULL);
	for (i = 0; i < 3000; i++)
		o += snprintf(buf + o, cap - o, "main;w%d;x%d %d\n", i, i % 7,
		    i % 10 == 0 ? 5 : 2);
	p = load_text(buf, o);
	free(buf);
	return (p);
}

static void
check_file(const char *path)
{
	struct profile	*p;
	char		*cause = NULL;
	FILE		*f;

	if ((f = fopen(path, "rb")) == NULL) {
		diag("%s: not here, skipped", path);
		return;
	}
	fclose(f);
	if ((p = reader_load(path, NULL, NULL, &cause)) == NULL) {
		diag("%s: %s", path, cause ? cause : "?");
		free(cause);
		return;
	}
	check(p, path);
	profile_free(p);
}

int
main(void)
{
	static const char *const data[] = { "cliques.folded",
	    "diff-new.folded", "example.callgrind", "firefox.folded",
	    "ghc-small-P.prof", "ghc-small-pj.prof", "ghc-small.prof",
	    "recursion.folded", "small.perf", "v8-small.cpuprofile",
	    "xss.folded", "clean.pgcl", "tezos.trace" };
	static const char *const shared[] = {
	    "corpus/collapsed/workload-fp.all.folded",
	    "corpus/collapsed/node-recursive.all.folded",
	    "corpus/v8/recursive.cpuprofile",
	    "corpus/v8/many-functions.cpuprofile",
	    "corpus/callgrind/callgrind.out.gzip",
	    "corpus/callgrind/callgrind.out.workload",
	    "corpus/ghc-prof/expreval-P.prof",
	    "corpus/ghc-prof/calltree.prof",
	    "corpus/perf/workload-fp.perf-script.txt",
	    "mercury-deepdata/Deep.data" };
	const char	*top = getenv("top_srcdir");
	const char	*sh = getenv("DEEPQ_SHARED");
	struct profile	*p;
	char		 path[4096], name[64];
	size_t		 i;
	unsigned	 seed;

	for (i = 0; i < sizeof data / sizeof data[0]; i++) {
		snprintf(path, sizeof path, "%s/tests/data/%s",
		    top ? top : ".", data[i]);
		check_file(path);
	}
	for (i = 0; i < sizeof shared / sizeof shared[0]; i++) {
		if (sh != NULL)
			snprintf(path, sizeof path, "%s/%s", sh, shared[i]);
		else
			snprintf(path, sizeof path, "%s/../shared/%s",
			    top ? top : ".", shared[i]);
		check_file(path);
	}
	for (seed = 1; seed <= 12; seed++) {
		snprintf(name, sizeof name, "random profile %u", seed);
		if ((p = random_profile(seed)) == NULL) {
			ok(0, "%s loads", name);
			continue;
		}
		check(p, name);
		profile_free(p);
	}
	if ((p = deep_profile(1100)) == NULL)
		ok(0, "the deep profile loads");
	else {
		check(p, "a chain 1,100 deep");
		ok(same(p, "deep", "cmd=tree&depth=100000&budget=5000", 0),
		    "the chain opened to the bottom: the same page");
		profile_free(p);
	}
	if ((p = wide_profile()) == NULL)
		ok(0, "the wide profile loads");
	else {
		check(p, "3,000 children");
		profile_free(p);
	}
	ok(nchecked > 300 && nsame == nchecked,
	    "%d of %d pages the same both ways", nsame, nchecked);
	return (tap_done());
}

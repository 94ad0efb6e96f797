/*
 * The Clean .pgcl reader on files from our encoder (pgcl-encode.c; there
 * is no Clean compiler here): decoded totals equal what was encoded, for
 * a normal profile, version 1, deep recursion, many modules, LEB128 edge
 * values and a large file; and broken files (truncated, oversized counts,
 * bad ids, overflowing numbers) fail with a cause naming the offset.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "pgcl-encode.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

static struct profile *
load(const struct pgcl_buf *b, const char *format, char **cause)
{
	struct input	*in = input_memory((const char *)b->data, b->len);
	struct profile	*p;

	*cause = NULL;
	p = reader_load_input(in, format, NULL, cause);
	input_free(in);
	return (p);
}

static int64_t
sum(const struct profile *p, const char *metric)
{
	int	 m = profile_metric_find(p, metric);

	return (m < 0 ? -1 : p->metrics[m].sum);
}

static uint32_t
max_depth(const struct profile *p)
{
	uint32_t	 i, d = 0;

	for (i = 0; i < p->nnodes; i++) {
		if (p->node_depth[i] > d)
			d = p->node_depth[i];
	}
	return (d);
}

/* The function with a name and module, or PROFILE_NONE. */
static uint32_t
func(const struct profile *p, const char *name, const char *module)
{
	uint32_t	 f;

	for (f = 0; f < p->nfuncs; f++) {
		if (strcmp(profile_func_name(p, f), name) == 0 &&
		    strcmp(profile_func_module(p, f), module) == 0)
			return (f);
	}
	return (PROFILE_NONE);
}

/* Generate, load, and compare every total; returns the profile. */
static struct profile *
roundtrip(const char *kind, uint64_t param)
{
	struct pgcl_buf		 b = { 0 };
	struct pgcl_totals	 t;
	struct profile		*p;
	char			*cause;

	if (pgcl_generate(kind, param, &b, &t) == -1)
		abort();
	p = load(&b, NULL, &cause);
	ok(p != NULL, "%s: %zu bytes load", kind, b.len);
	if (p == NULL) {
		diag("%s", cause ? cause : "?");
		free(cause);
		pgcl_buf_free(&b);
		return (NULL);
	}
	is_str(p->format, "pgcl", "%s: detected as pgcl", kind);
	is_str(p->metrics[0].name, "ticks", "%s: ticks is the default metric",
	    kind);
	is_int(sum(p, "ticks"), t.ticks, "%s: ticks", kind);
	is_int(sum(p, "words"), t.words, "%s: words", kind);
	is_int(sum(p, "tail"), t.tail, "%s: tail calls", kind);
	is_int(sum(p, "strict"), t.strict, "%s: strict calls", kind);
	is_int(sum(p, "lazy"), t.lazy, "%s: lazy calls", kind);
	is_int(sum(p, "curried"), t.curried, "%s: curried calls", kind);
	is_int(sum(p, "calls"), t.strict + t.lazy + t.curried,
	    "%s: calls = strict + lazy + curried", kind);
	is_int(max_depth(p), t.depth, "%s: depth", kind);
	pgcl_buf_free(&b);
	return (p);
}

/* Loading must fail, with want in the cause. */
static void
refused(const struct pgcl_buf *b, const char *want, const char *what)
{
	struct profile	*p;
	char		*cause;

	p = load(b, NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, want) != NULL, "%s",
	    what);
	if (cause != NULL)
		diag("cause: %s", cause);
	profile_free(p);
	free(cause);
}

/* A header and names for one module "M" and cost centres "a", "b". */
static void
small(struct pgcl_buf *b)
{
	pgcl_header(b, 2, 1, 2, 1000, 1);
	pgcl_cstring(b, "M");
	pgcl_leb128(b, 1);
	pgcl_cstring(b, "a");
	pgcl_leb128(b, 1);
	pgcl_cstring(b, "b");
}

static void
test_normal(void)
{
	struct profile	*p;
	uint32_t	 map, plus;
	int		 t;

	if ((p = roundtrip("normal", 0)) == NULL)
		return;
	t = profile_metric_find(p, "ticks");
	map = func(p, "map", "StdList");
	plus = func(p, "+", "main");
	ok(map != PROFILE_NONE && plus != PROFILE_NONE,
	    "normal: functions keep their modules");
	if (map != PROFILE_NONE && plus != PROFILE_NONE) {
		is_int(p->metrics[t].func_total[map], 1200,
		    "normal: map's recursion is counted once in its total");
		is_int(p->metrics[t].func_self[plus], 57000,
		    "normal: + self over its two contexts");
	}
	is_int(p->nfuncs, 7, "normal: six called cost centres and the root "
	    "(an unused one makes no function)");
	is_int(p->nnodes, 10, "normal: one node per entry plus the root");
	profile_free(p);

	if ((p = roundtrip("v1", 0)) != NULL)
		profile_free(p);
}

static void
test_deep(void)
{
	struct profile	*p;
	uint32_t	 loop;
	int		 t;

	if ((p = roundtrip("deep", 100000)) == NULL)
		return;
	t = profile_metric_find(p, "ticks");
	loop = func(p, "loop", "deep");
	is_int(p->nnodes, 100002, "deep: a node per level");
	if (loop != PROFILE_NONE)
		is_int(p->metrics[t].func_total[loop], 100000,
		    "deep: loop's total counts each tick once");
	profile_free(p);
}

static void
test_modules(void)
{
	struct profile	*p;
	uint32_t	 f;

	if ((p = roundtrip("modules", 5000)) == NULL)
		return;
	is_int(p->nfuncs, 10001, "modules: 10,000 functions and the root");
	f = func(p, "g", "Module4321");
	ok(f != PROFILE_NONE, "modules: g of Module4321");
	if (f != PROFILE_NONE)
		is_int(p->metrics[1].func_self[f], 4321,
		    "modules: its words");
	is_int(p->metrics[0].self[PROFILE_ROOT], 0,
	    "modules: a root entry of cost centre 0 is the root");
	profile_free(p);
}

static void
test_edges(void)
{
	struct profile	*p;

	if ((p = roundtrip("leb128", 0)) != NULL) {
		is_int(p->nnodes, 3, "leb128: entries of one cost centre "
		    "under one parent merge");
		profile_free(p);
	}
	if ((p = roundtrip("large", 4 * 1024 * 1024)) != NULL) {
		ok(p->nnodes > 100000, "large: %u nodes", p->nnodes);
		profile_free(p);
	}
}

static void
test_broken(void)
{
	struct pgcl_buf		 b = { 0 }, good = { 0 };
	struct pgcl_totals	 t = { 0 };
	struct profile		*p;
	struct input		*in;
	char			*cause;
	size_t			 i, clean, offsets;

	pgcl_put(&b, "PROF\2\0\0\0", 8);
	refused(&b, "not a profile deepq reads", "wrong magic is not detected");
	pgcl_buf_free(&b);

	pgcl_header(&b, 3, 1, 1, 0, 0);
	in = input_memory((const char *)b.data, b.len);
	cause = NULL;
	p = reader_load_input(in, "pgcl", NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "version 3 is not "
	    "supported"), "version 3 refused");
	diag("cause: %s", cause ? cause : "?");
	free(cause);
	input_free(in);
	pgcl_buf_free(&b);

	pgcl_header(&b, 2, UINT32_MAX, 1, 0, 0);
	pgcl_cstring(&b, "M");
	refused(&b, "need at least", "4 billion modules in a small file");
	pgcl_buf_free(&b);

	pgcl_header(&b, 1, 1, UINT32_MAX, 0, 0);
	refused(&b, "need at least", "4 billion cost centres in a small file");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_entry(&b, &t, 1, 1, 1, 0, 1, 0, 0, (uint64_t)1 << 40);
	pgcl_entry(&b, &t, 2, 1, 1, 0, 1, 0, 0, 0);
	refused(&b, "children cannot fit", "2^40 children in a small file");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_entry(&b, &t, 1, 1, 1, 0, 1, 0, 0, 1);
	i = b.len;
	pgcl_entry(&b, &t, 3, 1, 1, 0, 1, 0, 0, 0);
	{
		char	 want[64];

		snprintf(want, sizeof want, "offset %zu: cost centre id 3 is "
		    "not between 1 and 2", i);
		refused(&b, want, "a cost centre id out of range, with its "
		    "offset");
	}
	pgcl_buf_free(&b);

	small(&b);
	pgcl_entry(&b, &t, 1, 1, 1, 0, 1, 0, 0, 1);
	pgcl_entry(&b, &t, 0, 1, 1, 0, 1, 0, 0, 0);
	refused(&b, "cost centre id 0", "cost centre 0 below the root");
	pgcl_buf_free(&b);

	pgcl_header(&b, 2, 1, 1, 0, 0);
	pgcl_cstring(&b, "M");
	pgcl_leb128(&b, 0);
	pgcl_cstring(&b, "a");
	pgcl_entry(&b, &t, 1, 1, 1, 0, 1, 0, 0, 0);
	refused(&b, "module id 0 is not between 1 and 1", "module id 0");
	pgcl_buf_free(&b);

	pgcl_header(&b, 2, 2, 1, 0, 0);
	pgcl_put(&b, "Mod", 3);
	pgcl_put(&b, "\0\0\0\0\0\0\0\0\0\0\0", 11);
	b.len -= 11;
	pgcl_put(&b, "ule without an end", 18);
	pgcl_put(&b, "..........", 10);
	refused(&b, "unterminated string", "a module name without its NUL");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_leb128(&b, 1);
	pgcl_put(&b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 10);
	pgcl_put(&b, "\0\0\0\0\0\0", 6);
	refused(&b, "overflows 64 bits", "a LEB128 number past 64 bits");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_leb128(&b, 1);
	pgcl_leb128(&b, (uint64_t)1 << 63);
	pgcl_put(&b, "\0\0\0\0\0\0", 6);
	refused(&b, "larger than 2^63-1", "ticks of 2^63");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_entry(&b, &t, 1, 1, 1, 0, INT64_MAX, 1, 0, 0);
	refused(&b, "call counts overflow", "strict + lazy past 2^63-1");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_entry(&b, &t, 1, 1, 1, 0, 1, 0, 0, 0);
	pgcl_put(&b, "\0", 1);
	refused(&b, "data after the call graph", "trailing data");
	pgcl_buf_free(&b);

	small(&b);
	pgcl_entry(&b, &t, 1, INT64_MAX, 1, 0, 1, 0, 0, 1);
	pgcl_entry(&b, &t, 2, 1, 1, 0, 1, 0, 0, 0);
	refused(&b, "overflow", "ticks whose sum overflows");
	pgcl_buf_free(&b);

	/* Every truncation of the normal profile fails with a cause. */
	if (pgcl_generate("normal", 0, &good, &t) == -1)
		abort();
	for (i = clean = offsets = 0; i < good.len; i++) {
		b.data = good.data;
		b.len = i;
		p = load(&b, "pgcl", &cause);
		if (p == NULL && cause != NULL)
			clean++;
		if (cause != NULL && (strstr(cause, "offset ") != NULL ||
		    i < 8))
			offsets++;
		profile_free(p);
		free(cause);
	}
	is_int(clean, good.len, "all %zu truncations fail cleanly", good.len);
	is_int(offsets, good.len, "and name an offset");
	pgcl_buf_free(&good);
}

/* tests/data/clean.pgcl (golden tests) is the generated normal profile. */
static void
test_data_file(void)
{
	struct pgcl_buf		 b = { 0 };
	struct pgcl_totals	 t;
	const char		*srcdir = getenv("top_srcdir");
	char			 path[4096], buf[65536];
	FILE			*f;
	size_t			 n = 0;

	snprintf(path, sizeof path, "%s/tests/data/clean.pgcl",
	    srcdir ? srcdir : ".");
	if ((f = fopen(path, "rb")) != NULL) {
		n = fread(buf, 1, sizeof buf, f);
		fclose(f);
	}
	if (pgcl_generate("normal", 0, &b, &t) == -1)
		abort();
	ok(f != NULL && n == b.len && memcmp(buf, b.data, n) == 0,
	    "tests/data/clean.pgcl is pgcl-gen normal");
	pgcl_buf_free(&b);
}

int
main(void)
{
	test_normal();
	test_deep();
	test_modules();
	test_edges();
	test_broken();
	test_data_file();
	return (tap_done());
}

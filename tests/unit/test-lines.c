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
#include <unistd.h>

#include "lines.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "tap.h"

/*
 * Costs by source line (lines.h): the reduction of the tree of frames
 * (recursion counted once per sample, at the same line or another), the
 * rows a call graph gives, the bound past which a profile keeps none,
 * the checks a cache's rows must pass, and the readers that build rows
 * from frame lines (Gecko, perf srcline, V8 positionTicks).
 */

/* Row of function f at line ln, or LINES_NONE. */
static uint32_t
row_at(const struct profile_lines *l, uint32_t f, uint32_t ln)
{
	uint32_t	 r;

	for (r = lines_func_first(l, f); r < lines_func_end(l, f); r++) {
		if (l->row_line[r] == ln)
			return (r);
	}
	return (LINES_NONE);
}

/* The cost (metric 0) of row r's call to callee, or -1. */
static int64_t
call_cost(const struct profile_lines *l, uint32_t r, uint32_t callee)
{
	uint32_t	 k;

	for (k = l->row_calls[r]; r != LINES_NONE && k < l->row_calls[r + 1];
	    k++) {
		if (l->call_func[k] == callee)
			return (l->call_total[k]);
	}
	return (-1);
}

/*
 * A stack of frames (function a, b at lines) from the root, v samples
 * at its last: the call tree and the line tree alike.
 */
static int
stack(struct profile_builder *b, const uint32_t *fn, const uint32_t *ln,
    size_t n, uint32_t file, int64_t v)
{
	uint32_t	 node = PROFILE_ROOT, lnode = PROFILE_ROOT, fr;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if ((node = profile_builder_child(b, node, fn[i])) ==
		    PROFILE_NONE ||
		    (fr = profile_builder_line_frame(b, fn[i], file, ln[i])) ==
		    PROFILE_NONE ||
		    (lnode = profile_builder_line_child(b, lnode, fr)) ==
		    PROFILE_NONE)
			return (-1);
	}
	if (profile_builder_add(b, node, 0, v) == -1 ||
	    profile_builder_line_add(b, lnode, 0, v) == -1)
		return (-1);
	return (0);
}

/*
 * A recursive function: a sample passing a line twice counts once in
 * the line's total and in each call from it, as pprof -list counts it.
 */
static void
test_recursion(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	const struct profile_lines *l;
	char			*cause = NULL;
	uint32_t		 a, bb, file, r10, r20, r5;

	b = profile_builder_create("test");
	profile_builder_metric(b, "samples", "count");
	a = profile_builder_func(b, "a", 1, "", 0);
	bb = profile_builder_func(b, "b", 1, "", 0);
	file = profile_builder_string(b, "x.c", 3);
	stack(b, (uint32_t[]){ a, bb }, (uint32_t[]){ 10, 5 }, 2, file, 3);
	stack(b, (uint32_t[]){ a, a, bb }, (uint32_t[]){ 20, 10, 5 }, 3, file,
	    2);
	stack(b, (uint32_t[]){ a, a, bb }, (uint32_t[]){ 10, 10, 5 }, 3, file,
	    4);
	stack(b, (uint32_t[]){ a }, (uint32_t[]){ 20 }, 1, file, 1);
	stack(b, (uint32_t[]){ a }, (uint32_t[]){ 0 }, 1, file, 7);
	p = profile_builder_finish(b, &cause);
	ok(p != NULL && p->lines != NULL, "recursion: rows made");
	if (p == NULL || p->lines == NULL)
		goto out;
	l = p->lines;
	r10 = row_at(l, a, 10);
	r20 = row_at(l, a, 20);
	r5 = row_at(l, bb, 5);
	ok(r10 != LINES_NONE && r20 != LINES_NONE && r5 != LINES_NONE &&
	    lines_func_end(l, a) - lines_func_first(l, a) == 2,
	    "recursion: a has lines 10 and 20, b line 5 (line 0 has none)");
	if (r10 == LINES_NONE || r20 == LINES_NONE || r5 == LINES_NONE)
		goto out;
	is_int(l->self[r10], 0, "a:10 self");
	is_int(l->total[r10], 9, "a:10 total: 3 + 2 + 4, the 4 once");
	is_int(l->self[r20], 1, "a:20 self");
	is_int(l->total[r20], 3, "a:20 total");
	is_int(l->self[r5], 9, "b:5 self");
	is_int(l->total[r5], 9, "b:5 total");
	is_int(call_cost(l, r10, bb), 9, "a:10 -> b, once per sample");
	is_int(call_cost(l, r10, a), 4, "a:10 -> a (the same line)");
	is_int(call_cost(l, r20, a), 2, "a:20 -> a");
	is_int(call_cost(l, r20, bb), -1, "a:20 calls no b directly");
	is_int(p->metrics[0].func_self[a] - l->self[r10] - l->self[r20], 7,
	    "a's self at no line is the rest");
	ok(lines_hottest(l, a, 0) == r20 && lines_hottest(l, bb, 0) == r5,
	    "the hottest: most self");
	ok(lines_check(l, 1000) == 0, "the rows pass the cache's checks");
out:
	profile_free(p);
	free(cause);
}

/* A call graph's rows: self and calls as given, a total their sum. */
static void
test_direct(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	const struct profile_lines *l;
	char			*cause = NULL;
	uint32_t		 a, c, file, fr, r;

	b = profile_builder_create("test");
	profile_builder_metric(b, "Ir", "count");
	a = profile_builder_func(b, "a", 1, "", 0);
	c = profile_builder_func(b, "c", 1, "", 0);
	profile_builder_child(b, PROFILE_ROOT, a);
	file = profile_builder_string(b, "y.c", 3);
	fr = profile_builder_line_frame(b, a, file, 7);
	profile_builder_line_self(b, fr, 0, 5);
	profile_builder_line_call(b, fr, c, -1, 0, 3);
	profile_builder_line_call(b, fr, c, 0, 40, 0);
	profile_builder_line_call(b, fr, c, 0, 2, 1);
	/* A frame with no cost makes no row. */
	profile_builder_line_frame(b, a, file, 9);
	p = profile_builder_finish(b, &cause);
	ok(p != NULL && p->lines != NULL, "direct: rows made");
	if (p == NULL || p->lines == NULL)
		goto out;
	l = p->lines;
	r = row_at(l, a, 7);
	ok(r != LINES_NONE && row_at(l, a, 9) == LINES_NONE &&
	    (l->flags & (LINES_GRAPH | LINES_COUNTS)) ==
	    (LINES_GRAPH | LINES_COUNTS), "direct: one row, counted calls");
	if (r == LINES_NONE)
		goto out;
	is_int(l->self[r], 5, "direct: self");
	is_int(call_cost(l, r, c), 42, "direct: the call's cost");
	is_int(l->call_count[l->row_calls[r]], 4, "direct: its count");
	is_int(l->total[r], 47, "direct: total = self + calls");
out:
	profile_free(p);
	free(cause);
}

/* Past the node bound the profile loads, without lines. */
static void
test_bound(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	char			*cause = NULL;
	uint32_t		 f[40], ln[40], i, file;
	char			 name[16];

	b = profile_builder_create("test");
	profile_builder_set_max_nodes(b, 30);
	profile_builder_metric(b, "samples", "count");
	file = profile_builder_string(b, "z.c", 3);
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof name, "f%u", i);
		f[i] = profile_builder_func(b, name, strlen(name), "", 0);
		ln[i] = i + 1;
	}
	/* 20 nodes in the call tree; the lines make more (20 + 5). */
	stack(b, f, ln, 20, file, 1);
	ln[19] = 99;
	ln[18] = 98;
	ln[17] = 97;
	ln[16] = 96;
	ln[15] = 95;
	ok(stack(b, f, ln, 20, file, 1) == 0, "bound: past it, no error");
	ln[15] = 94;
	stack(b, f, ln, 20, file, 1);
	p = profile_builder_finish(b, &cause);
	ok(p != NULL && p->lines == NULL && p->metrics[0].sum == 3,
	    "bound: the profile loads whole, without lines");
	profile_free(p);
	free(cause);
}

/* Rows bent one way or another: lines_check refuses each. */
static void
test_check(const struct profile_lines *l0)
{
	struct profile_lines	 l;
	size_t			 off[LINES_ARRAYS], len;
	char			*copy;
	int			 refused = 0, tries = 0;
	uint32_t		*u;

	if (l0 == NULL || lines_layout(l0, off, &len) == -1 ||
	    (copy = malloc(len)) == NULL)
		return;
#define TRY(what) do {							\
	memcpy(copy, l0->block, len);					\
	l = *l0;							\
	lines_map(&l, copy, len);					\
	what;								\
	tries++;							\
	refused += lines_check(&l, 1000) == -1;				\
} while (0)
	TRY(u = (uint32_t *)l.func_rows; u[1] = l.nrows + 1);
	TRY(u = (uint32_t *)l.func_rows; u[l.nfuncs] = 0);
	TRY(u = (uint32_t *)l.row_calls; u[l.nrows] = l.ncalls + 1);
	TRY(u = (uint32_t *)l.call_func; u[0] = l.nfuncs);
	TRY(u = (uint32_t *)l.row_file; u[0] = 1000);
#undef TRY
	memcpy(copy, l0->block, len);
	l = *l0;
	ok(lines_map(&l, copy, len) == 0 && lines_check(&l, 1000) == 0 &&
	    lines_map(&l, copy, len - 8) == -1,
	    "check: the rows as made pass; a short block is refused");
	is_int(refused, tries, "check: every bent index refused");
	free(copy);
}

/* Load text written to a file of the temporary directory. */
static struct profile *
load(const char *dir, const char *name, const char *text)
{
	char		 path[512], *cause = NULL;
	struct profile	*p;
	FILE		*f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL)
		return (NULL);
	fputs(text, f);
	fclose(f);
	p = reader_load(path, NULL, NULL, &cause);
	if (p == NULL)
		diag("%s: %s", name, cause ? cause : "out of memory");
	free(cause);
	unlink(path);
	return (p);
}

/* The readers' frame lines: Gecko's, perf's srcline, V8's ticks. */
static void
test_readers(const char *dir)
{
	static const char gecko[] = "{\"meta\":{\"interval\":1,\"startTime\":0,"
	    "\"preprocessedProfileVersion\":47},\"threads\":[{\"name\":\"m\","
	    "\"stringArray\":[\"a\",\"b\",\"f.js\"],"
	    "\"funcTable\":{\"name\":[0,1],\"isJS\":[true,true],"
	    "\"fileName\":[2,2],\"lineNumber\":[1,9],\"resource\":[-1,-1]},"
	    "\"frameTable\":{\"func\":[0,0,1],\"line\":[3,4,10]},"
	    "\"stackTable\":{\"frame\":[0,1,2,2],\"prefix\":[null,null,0,1]},"
	    "\"samples\":{\"stack\":[2,2,3,1]}}]}";
	static const char perf[] =
	    "prog 1/1 1.000000: 1 cpu-clock:\n"
	    "\t1010 leaf+0x10 (/bin/prog)\n  prog.c:5\n"
	    "\t1100 main+0x20 (/bin/prog)\n  prog.c:12\n\n"
	    "prog 1/1 1.001000: 1 cpu-clock:\n"
	    "\t1014 leaf+0x14 (/bin/prog)\n  prog.c:6\n"
	    "\t1104 main+0x24 (/bin/prog)\n  prog.c:13\n\n"
	    "prog 1/1 1.002000: 1 cpu-clock:\n"
	    "\t1104 main+0x24 (/bin/prog)\n  ??:0\n\n";
	static const char v8[] = "{\"nodes\":[{\"id\":1,\"callFrame\":"
	    "{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1},"
	    "\"children\":[2]},{\"id\":2,\"callFrame\":{\"functionName\":\"f\","
	    "\"url\":\"file:///a.js\",\"lineNumber\":0},\"positionTicks\":"
	    "[{\"line\":3,\"ticks\":1},{\"line\":5,\"ticks\":2}]}],"
	    "\"startTime\":0,\"endTime\":100,\"samples\":[2,2,2],"
	    "\"timeDeltas\":[10,10,10]}";
	struct profile		*p;
	const struct profile_lines *l;
	uint32_t		 a, b, r;

	p = load(dir, "g.json", gecko);
	ok(p != NULL && (l = p->lines) != NULL, "gecko: lines");
	if (p != NULL && p->lines != NULL) {
		a = profile_func_find(p, "a");
		b = profile_func_find(p, "b");
		r = row_at(l, a, 3);
		ok(r != LINES_NONE && l->self[r] == 0 && l->total[r] == 2 &&
		    call_cost(l, r, b) == 2, "gecko: a calls b at line 3 (2)");
		r = row_at(l, a, 4);
		ok(r != LINES_NONE && l->self[r] == 1 && l->total[r] == 2 &&
		    call_cost(l, r, b) == 1,
		    "gecko: a at line 4: 1 self, calls b once");
		r = row_at(l, b, 10);
		ok(r != LINES_NONE && l->self[r] == 3,
		    "gecko: b's samples at its line 10");
	}
	profile_free(p);

	p = load(dir, "s.perf", perf);
	ok(p != NULL && (l = p->lines) != NULL && l->row_addr == NULL,
	    "perf srcline: lines");
	if (p != NULL && p->lines != NULL) {
		a = profile_func_find(p, "main");
		b = profile_func_find(p, "leaf");
		r = row_at(l, a, 12);
		ok(r != LINES_NONE && call_cost(l, r, b) == 1 &&
		    row_at(l, a, 13) != LINES_NONE &&
		    l->total[row_at(l, a, 13)] == 1,
		    "perf srcline: main's call lines 12 and 13; ??:0 at none");
		ok(row_at(l, b, 5) != LINES_NONE && row_at(l, b, 6) !=
		    LINES_NONE, "perf srcline: leaf's lines 5 and 6");
	}
	profile_free(p);

	p = load(dir, "s2.perf", "prog 1/1 1.0: 1 cpu-clock:\n"
	    "\t1010 leaf+0x10 (/bin/prog)\n\t1100 main+0x20 (/bin/prog)\n\n");
	ok(p != NULL && (l = p->lines) != NULL && l->row_addr != NULL &&
	    l->nrows == 1 && l->row_addr[0] == 0x1010,
	    "perf without srcline: the leaf's address");
	profile_free(p);

	p = load(dir, "v.cpuprofile", v8);
	ok(p != NULL && (l = p->lines) != NULL, "v8: lines");
	if (p != NULL && p->lines != NULL) {
		a = profile_func_find(p, "f");
		r = row_at(l, a, 5);
		ok(r != LINES_NONE && l->self[r] == 2 &&
		    l->self[row_at(l, a, 3)] == 1,
		    "v8: positionTicks as samples by line");
		ok(r != LINES_NONE && l->self[l->nrows + r] +
		    l->self[l->nrows + row_at(l, a, 3)] ==
		    p->metrics[1].func_self[a],
		    "v8: the node's time shared over its lines, whole");
	}
	profile_free(p);
}

int
main(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	char			 dir[] = "/tmp/deepq-lines.XXXXXX", *cause = NULL;
	uint32_t		 a, file;

	test_recursion();
	test_direct();
	test_bound();

	b = profile_builder_create("test");
	profile_builder_metric(b, "samples", "count");
	a = profile_builder_func(b, "a", 1, "", 0);
	file = profile_builder_string(b, "x.c", 3);
	stack(b, (uint32_t[]){ a, a }, (uint32_t[]){ 1, 2 }, 2, file, 1);
	p = profile_builder_finish(b, &cause);
	test_check(p != NULL ? p->lines : NULL);
	profile_free(p);
	free(cause);

	b = profile_builder_create("test");
	profile_builder_metric(b, "samples", "count");
	a = profile_builder_func(b, "a", 1, "", 0);
	stack(b, &a, (uint32_t[]){ 0 }, 1, 0, 1);
	p = profile_builder_finish(b, &cause);
	ok(p != NULL && p->lines == NULL,
	    "no frame at a line: no lines, nothing kept");
	profile_free(p);

	if (mkdtemp(dir) != NULL) {
		test_readers(dir);
		rmdir(dir);
	}
	return (tap_done());
}

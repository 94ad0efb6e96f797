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

#include <jansson.h>

#include "answer.h"
#include "answer-query.h"
#include "input.h"
#include "json-build.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

/*
 * Checked JSON setters (json-build.h): an allocation that fails while a
 * report writes its JSON gives an error answer (500), never an answer
 * with a member or a row missing. jansson's allocator is the hook: each
 * query is asked again and again with one allocation failing, the 1st,
 * the 2nd, ... until a run no longer reaches the failure; every run must
 * answer the whole answer byte for byte, or 500.
 */

#define MAX_RUNS	20000	/* allocations of one answer, at most */

static long	fail_at = -1;	/* which allocation fails; -1 none */
static long	nalloc;
static int	failed;

static void *
hook_malloc(size_t n)
{
	if (nalloc++ == fail_at) {
		failed = 1;
		return (NULL);
	}
	return (malloc(n));
}

static struct answer *
ask(const struct profile *p, const char *qs)
{
	struct answer_context	 ctx;

	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	ctx.report.name = "test";
	return (answer_query(p, qs, &ctx));
}

/* Ask qs with each allocation failing in turn; 0 if never a half answer. */
static int
ask_failing(const struct profile *p, const char *qs, long *runs,
    long *errors)
{
	struct answer	*whole, *a;
	int		 bad = 0;

	if ((whole = ask(p, qs)) == NULL)
		return (-1);
	*runs = *errors = 0;
	for (fail_at = 0; fail_at < MAX_RUNS; fail_at++) {
		nalloc = 0;
		failed = 0;
		json_set_alloc_funcs(hook_malloc, free);
		a = ask(p, qs);
		json_set_alloc_funcs(malloc, free);
		if (!failed) {
			answer_free(a);
			break;
		}
		(*runs)++;
		if (a == NULL || a->status == 500)
			(*errors)++;
		else if (a->status != whole->status || a->len != whole->len ||
		    memcmp(a->body, whole->body, a->len) != 0) {
			if (bad++ == 0)
				diag("%s: allocation %ld failed: %d, %zu bytes "
				    "(whole: %d, %zu)", qs, fail_at, a->status,
				    a->len, whole->status, whole->len);
		}
		answer_free(a);
	}
	fail_at = -1;
	answer_free(whole);
	return (bad);
}

int
main(void)
{
	/* Two counts a line: metric "base", a comparison. */
	static const char text[] = "main;f;g 10 5\nmain;g 20 30\n"
	    "main;f;f;g 3 1\nm`main;h 7 0\nm`main;m`k;h 2 2\n";
	static const char *const queries[] = {
		"cmd=menu", "cmd=top", "cmd=top&sort=delta", "cmd=func&func=2",
		"cmd=callers&func=3&by=site", "cmd=callers&func=3&by=module",
		"cmd=callers&func=3&by=clique", "cmd=modules",
		"cmd=module&module=m", "cmd=cliques", "cmd=clique&clique=2",
		"cmd=search&find=f", "cmd=tree", "cmd=tree&t=1~inv",
		"cmd=flame", "cmd=dump", "cmd=top&metric=base&t=1~ff-2",
	};
	struct input	*in;
	struct profile	*p;
	struct json_build jb = JSON_BUILD_INIT;
	json_t		*o;
	char		*cause = NULL, qs[256];
	long		 runs = 0, errors = 0;
	size_t		 i;

	/* The builder itself: a NULL value fails the build, once for all. */
	o = json_object();
	ok(json_build_set(&jb, o, "a", json_integer(1)) == 0 &&
	    json_build_status(&jb) == 0, "json_build: a member is set");
	ok(json_build_set(&jb, o, "b", NULL) == -1 &&
	    json_build_status(&jb) == -1, "json_build: a NULL value fails");
	json_build_set(&jb, o, "c", json_integer(3));
	ok(json_build_end(&jb, o) == NULL,
	    "json_build: a failed build ends in NULL, never the object");

	in = input_memory(text, sizeof text - 1);
	p = reader_load_input(in, "folded", NULL, &cause);
	input_free(in);
	free(cause);
	if (p == NULL) {
		ok(0, "the profile loads");
		return (tap_done());
	}
	for (i = 0; i < sizeof queries / sizeof queries[0]; i++) {
		snprintf(qs, sizeof qs, "%s&format=json", queries[i]);
		ok(ask_failing(p, qs, &runs, &errors) == 0 && runs > 0 &&
		    errors > 0, "%s: %ld allocations failed in turn, %ld "
		    "error answers, never a half answer", qs, runs, errors);
	}
	profile_free(p);
	return (tap_done());
}

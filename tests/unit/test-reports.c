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

#include "answer.h"
#include "answer-query.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "tap.h"

/*
 * Reports on built profiles: rates (units=seconds), per-call averages,
 * the call-site hook, invariants of the once-counted sums checked on
 * random recursive profiles and on a 100,000-deep recursion, and the
 * notes of an answer in its JSON and its page alike.
 */

static json_t *
ask(const struct profile *p, const char *qs)
{
	struct answer_context	 ctx;
	struct answer		*a;
	json_t			*j;
	json_error_t		 err;

	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	ctx.report.name = "test";
	if ((a = answer_query(p, qs, &ctx)) == NULL)
		return (NULL);
	j = json_loadb(a->body, a->len, 0, &err);
	if (a->status != 200)
		diag("%s: %d %s", qs, a->status, a->message ? a->message : "");
	answer_free(a);
	return (j);
}

static char *
page(const struct profile *p, const char *qs)
{
	struct answer_context	 ctx;
	struct answer		*a;
	char			*s = NULL;

	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	if ((a = answer_query(p, qs, &ctx)) == NULL)
		return (NULL);
	if (a->status == 200)
		s = strndup(a->body, a->len);
	answer_free(a);
	return (s);
}

/* Value of metric m in member key ("self"/"total") of o. */
static int64_t
val(const json_t *o, const char *key, const char *m)
{
	return (json_integer_value(json_object_get(json_object_get(o, key),
	    m)));
}

struct site_extra {
	const struct profile	*p;
};

/* The test hook: every call from main is site 100, others site 200. */
static int
test_site(const struct profile *p, uint32_t n, struct profile_site *s)
{
	uint32_t	 parent = p->node_parent[n];

	if (parent == PROFILE_NONE || parent == PROFILE_ROOT)
		return (-1);
	if (strcmp(profile_func_name(p, p->node_func[parent]), "main") == 0) {
		s->id = 100;
		s->label = "main.m:10";
		s->line = 10;
	} else {
		s->id = 200;
		s->label = "other.m:20";
		s->line = 20;
	}
	return (0);
}

/*
 * main -> f (2 calls, 50 ticks self) -> g (4 calls, 30 ticks self);
 * main -> g (1 call, 20 ticks self). 100 ticks a second.
 */
static struct profile *
timed(void)
{
	struct profile_builder	*b = profile_builder_create("test");
	uint32_t		 fm, ff, fg, nm, nf, ng, ng2;
	int			 t, c;
	char			*cause = NULL;
	struct profile		*p;

	t = profile_builder_metric(b, "time", "ticks");
	c = profile_builder_metric(b, "calls", "count");
	profile_builder_metric_rate(b, t, 100);
	fm = profile_builder_func(b, "main", 4, "m", 1);
	ff = profile_builder_func(b, "f", 1, "m", 1);
	fg = profile_builder_func(b, "g", 1, "lib", 3);
	nm = profile_builder_child(b, PROFILE_ROOT, fm);
	nf = profile_builder_child(b, nm, ff);
	ng = profile_builder_child(b, nf, fg);
	ng2 = profile_builder_child(b, nm, fg);
	profile_builder_add(b, nm, c, 1);
	profile_builder_add(b, nf, t, 50);
	profile_builder_add(b, nf, c, 2);
	profile_builder_add(b, ng, t, 30);
	profile_builder_add(b, ng, c, 4);
	profile_builder_add(b, ng2, t, 20);
	profile_builder_add(b, ng2, c, 1);
	profile_builder_set_site(b, test_site);
	p = profile_builder_finish(b, &cause);
	free(cause);
	return (p);
}

static void
test_timed(void)
{
	struct profile	*p = timed();
	json_t		*j, *rows, *r;
	char		*s;
	size_t		 i;

	ok(p != NULL, "timed profile builds");
	if (p == NULL)
		return;
	j = ask(p, "format=json");
	r = json_array_get(json_object_get(j, "metrics"), 0);
	ok(json_real_value(json_object_get(r, "rate")) == 100,
	    "menu: time has its rate, 100 a second");
	ok(json_object_get(json_array_get(json_object_get(j, "metrics"), 1),
	    "rate") == NULL, "menu: calls has no rate");
	is_str(json_string_value(json_object_get(j, "calls")), "calls",
	    "menu: calls metric found");
	json_decref(j);

	j = ask(p, "cmd=top&format=json");
	rows = json_object_get(j, "rows");
	is_int(json_array_size(rows), 3, "top: three functions");
	r = json_array_get(rows, 0);
	is_str(json_string_value(json_object_get(r, "name")), "main",
	    "top: main first");
	is_int(val(r, "total", "time"), 100, "top: main total 100 ticks");
	r = json_array_get(rows, 1);
	is_str(json_string_value(json_object_get(r, "name")), "f",
	    "top: f second");
	is_int(val(r, "total", "time"), 80, "top: f total 80");
	is_int(val(r, "self", "calls"), 2, "top: f called twice");
	json_decref(j);

	j = ask(p, "cmd=top&sort=calls&format=json");
	is_str(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "rows"), 0), "name")), "g",
	    "top sort=calls: g (5 calls) first");
	json_decref(j);

	/* 80 ticks at 100/s = 0.80 s; per call over 2 calls = 0.40 s. */
	s = page(p, "cmd=top&format=text&units=seconds&avg=1");
	ok(s != NULL && strstr(s, "time (seconds)") != NULL,
	    "seconds: the group says so");
	ok(s != NULL && strstr(s, "800 ms") != NULL, "seconds: f's 80 ticks "
	    "are 800 ms");
	ok(s != NULL && strstr(s, "400 ms") != NULL,
	    "avg: f's total per call is 400 ms");
	ok(s != NULL && strstr(s, "/call") != NULL, "avg: /call columns");
	free(s);
	s = page(p, "cmd=top&format=text&avg=1");
	ok(s != NULL && strstr(s, "40.00") != NULL,
	    "avg raw: f's 80 ticks over 2 calls is 40.00");
	ok(s != NULL && strstr(s, "time (ticks)") != NULL,
	    "raw: the group names the unit");
	free(s);
	s = page(p, "cmd=top&format=text&fields=all");
	ok(s != NULL && strstr(s, "calls") != NULL && strstr(s, "time") !=
	    NULL, "fields=all: both metrics shown");
	free(s);

	/* g's callers by site: the hook's sites 100 (main) and 200 (f). */
	j = ask(p, "cmd=callers&func=g&by=site&format=json");
	rows = json_object_get(j, "rows");
	is_str(json_string_value(json_object_get(j, "sites")), "static",
	    "callers: static sites from the hook");
	is_int(json_array_size(rows), 2, "callers by site: two sites");
	for (i = 0; i < json_array_size(rows); i++) {
		r = json_array_get(rows, i);
		if (json_integer_value(json_object_get(r, "site")) == 200) {
			is_str(json_string_value(json_object_get(r, "label")),
			    "other.m:20", "site 200 labelled");
			is_int(val(r, "total", "time"), 30,
			    "site 200: g under f, 30 ticks");
			is_str(json_string_value(json_object_get(r, "name")),
			    "f", "site 200's caller is f");
		} else {
			is_int(json_integer_value(json_object_get(r, "site")),
			    100, "the other site is 100");
			is_int(val(r, "total", "time"), 20,
			    "site 100: g under main, 20 ticks");
		}
	}
	json_decref(j);

	j = ask(p, "cmd=modules&format=json");
	rows = json_object_get(j, "rows");
	is_int(json_array_size(rows), 2, "modules: m and lib");
	r = json_array_get(rows, 0);
	is_str(json_string_value(json_object_get(r, "name")), "m",
	    "modules: m first");
	is_int(val(r, "self", "time"), 50, "modules: m's self 50");
	is_int(val(r, "total", "time"), 100, "modules: m's total 100");
	json_decref(j);
	profile_free(p);
}

/* Random stacks over few names, so recursion of every kind appears. */
static struct profile *
random_profile(unsigned seed)
{
	static const char *names[] = { "a", "b", "c", "d", "e", "f" };
	char		 buf[65536];
	size_t		 o = 0;
	int		 i, k, d;
	struct input	*in;
	struct profile	*p;
	char		*cause = NULL;

	srandom(seed);
	for (i = 0; i < 60; i++) {
		d = 1 + random() % 9;
		for (k = 0; k < d; k++)
			o += snprintf(buf + o, sizeof buf - o, "%sm%ld`%s",
			    k ? ";" : "", random() % 3, names[random() % 6]);
		o += snprintf(buf + o, sizeof buf - o, " %ld\n",
		    1 + random() % 100);
	}
	in = input_memory(buf, o);
	p = reader_load_input(in, "folded", NULL, &cause);
	input_free(in);
	free(cause);
	return (p);
}

/* Sum over rows of member key/metric. */
static int64_t
sum(const json_t *rows, const char *key)
{
	int64_t	 s = 0;
	size_t	 i;

	for (i = 0; i < json_array_size(rows); i++)
		s += val(json_array_get(rows, i), key, "samples");
	return (s);
}

static void
test_invariants(void)
{
	struct profile	*p;
	json_t		*j, *fo, *rows;
	char		 q[128];
	unsigned	 seed;
	uint32_t	 f;
	int		 bad_total = 0, bad_self = 0, bad_callee = 0, nf = 0;
	int		 bad_mod = 0, bad_clq = 0, bad_site = 0;

	for (seed = 1; seed <= 30; seed++) {
		if ((p = random_profile(seed)) == NULL) {
			ok(0, "random profile %u loads", seed);
			continue;
		}
		for (f = 1; f < p->nfuncs; f++) {
			nf++;
			snprintf(q, sizeof q, "cmd=func&func=%u&limit=1000&"
			    "format=json", f);
			j = ask(p, q);
			fo = json_object_get(j, "function");
			/* The set row counts recursion once, like the model. */
			if (val(fo, "total", "samples") !=
			    p->metrics[0].func_total[f] ||
			    val(fo, "self", "samples") !=
			    p->metrics[0].func_self[f])
				bad_total++;
			/* Self splits exactly over the callers. */
			if (sum(json_object_get(j, "callers"), "self") !=
			    p->metrics[0].func_self[f])
				bad_self++;
			/* No callee row exceeds the function's total. */
			rows = json_object_get(j, "callees");
			for (size_t i = 0; i < json_array_size(rows); i++)
				if (val(json_array_get(rows, i), "total",
				    "samples") > p->metrics[0].func_total[f])
					bad_callee++;
			json_decref(j);
			snprintf(q, sizeof q, "cmd=callers&func=%u&by=site&"
			    "limit=100000&format=json", f);
			j = ask(p, q);
			/* Sites are distinct call nodes: self splits too. */
			if (sum(json_object_get(j, "rows"), "self") !=
			    p->metrics[0].func_self[f])
				bad_site++;
			json_decref(j);
		}
		j = ask(p, "cmd=modules&limit=1000&format=json");
		if (sum(json_object_get(j, "rows"), "self") !=
		    p->metrics[0].sum)
			bad_mod++;
		json_decref(j);
		/* A clique's self is its members'; its total at most theirs. */
		j = ask(p, "cmd=cliques&limit=1000&format=json");
		rows = json_object_get(j, "rows");
		for (size_t i = 0; i < json_array_size(rows); i++) {
			json_t	*c = json_array_get(rows, i), *cj;
			int64_t	 s = 0, mx = 0;
			size_t	 k;

			snprintf(q, sizeof q, "cmd=clique&clique=%" PRId64
			    "&limit=1000&format=json",
			    (int64_t)json_integer_value(json_object_get(c,
			    "id")));
			cj = ask(p, q);
			for (k = 0; k < json_array_size(json_object_get(cj,
			    "members")); k++) {
				json_t	*m = json_array_get(json_object_get(cj,
				    "members"), k);

				s += val(m, "self", "samples");
				if (val(m, "total", "samples") > mx)
					mx = val(m, "total", "samples");
			}
			if (s != val(c, "self", "samples") ||
			    val(c, "total", "samples") < mx ||
			    val(json_object_get(cj, "clique"), "total",
			    "samples") != val(c, "total", "samples"))
				bad_clq++;
			json_decref(cj);
		}
		json_decref(j);
		profile_free(p);
	}
	is_int(bad_total, 0, "func: total and self equal the model's, %d "
	    "functions of 30 random profiles", nf);
	is_int(bad_self, 0, "func: callers' self adds up to the function's");
	is_int(bad_callee, 0, "func: no callee row exceeds the total");
	is_int(bad_site, 0, "callers by site: self adds up");
	is_int(bad_mod, 0, "modules: self adds up to the profile total");
	is_int(bad_clq, 0, "cliques: self is the members', total at least "
	    "the heaviest member's, same on the clique page");
}

/* main -> (a -> b) x 50,000: 100,000 deep, one sample at the bottom. */
static void
test_deep(void)
{
	struct profile_builder	*b = profile_builder_create("test");
	uint32_t		 fa, fb, fm, n;
	int			 m, i;
	struct profile		*p;
	json_t			*j;
	char			*cause = NULL, *s;

	m = profile_builder_metric(b, "samples", "count");
	fm = profile_builder_func(b, "main", 4, "", 0);
	fa = profile_builder_func(b, "a", 1, "x", 1);
	fb = profile_builder_func(b, "b", 1, "y", 1);
	n = profile_builder_child(b, PROFILE_ROOT, fm);
	profile_builder_add(b, n, m, 1);
	for (i = 0; i < 100000; i++)
		n = profile_builder_child(b, n, i % 2 ? fb : fa);
	profile_builder_add(b, n, m, 7);
	p = profile_builder_finish(b, &cause);
	free(cause);
	ok(p != NULL, "100,000-deep recursion builds");
	if (p == NULL)
		return;
	j = ask(p, "cmd=func&func=a&format=json");
	is_int(val(json_object_get(j, "function"), "total", "samples"), 7,
	    "deep: a's total counted once");
	is_int(json_integer_value(json_object_get(json_object_get(j,
	    "function"), "contexts")), 50000, "deep: a in 50,000 contexts");
	is_int(val(json_array_get(json_object_get(j, "callers"), 0), "total",
	    "samples"), 7, "deep: each caller row counted once");
	json_decref(j);
	j = ask(p, "cmd=cliques&format=json");
	is_int(json_array_size(json_object_get(j, "rows")), 1,
	    "deep: one recursive clique");
	is_int(val(json_array_get(json_object_get(j, "rows"), 0), "total",
	    "samples"), 7, "deep: the clique's total counted once");
	json_decref(j);
	j = ask(p, "cmd=modules&format=json");
	is_int(sum(json_object_get(j, "rows"), "total"), 22,
	    "deep: modules x, y and main's: 7 + 7 + 8, each once");
	json_decref(j);
	s = page(p, "cmd=tree&depth=100000&budget=1000");
	ok(s != NULL, "deep: a 1,000-node tree page of a deep tree");
	free(s);
	s = page(p, "cmd=callers&func=b&by=site&from=49990&format=json");
	ok(s != NULL && strstr(s, "\"path\"") == NULL &&
	    strstr(s, "\"contexts\":1") != NULL,
	    "deep: sites too deep for a path= have none");
	free(s);
	profile_free(p);
}

/*
 * The notes every answer carries (a comparison, the transforms) reach
 * both renderings of every report: the JSON ends with "comparison" and
 * "transforms" after the report's own members, and the text page says
 * what it compares (where the report shows a comparison) and shows the
 * transforms' breadcrumbs. The JSON and the page are made apart from
 * one result: this is what keeps them saying the same.
 */
static void
test_notes(void)
{
	static const struct {
		const char	*qs;
		int		 compares;	/* its page says so */
	} cases[] = {
		{ "cmd=tree", 1 }, { "cmd=top", 1 }, { "cmd=func&func=f", 1 },
		{ "cmd=callers&func=g", 1 }, { "cmd=modules", 1 },
		{ "cmd=module&module=", 1 }, { "cmd=clique&clique=0", 1 },
		{ "cmd=cliques", 0 }, { "cmd=dump", 0 }, { "cmd=menu", 0 },
		{ "cmd=search&find=g", 0 },
	};
	/* Two counts a line: the second is metric "base", a comparison. */
	static const char text[] = "main;f;g 10 5\nmain;g 20 30\n"
	    "m`main;h 7 0\n";
	struct input	*in;
	struct profile	*p;
	const char	*key;
	json_t		*j, *v;
	char		*cause = NULL, qs[256], *s;
	size_t		 i;
	int		 last, good;

	in = input_memory(text, sizeof text - 1);
	p = reader_load_input(in, "folded", NULL, &cause);
	input_free(in);
	free(cause);
	if (p == NULL) {
		ok(0, "notes: the differential profile loads");
		return;
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(qs, sizeof qs, "%s&t=1~inv&format=json", cases[i].qs);
		j = ask(p, qs);
		/* The last two members, in order. */
		last = 0;
		good = j != NULL && json_object_get(j, "error") == NULL;
		json_object_foreach(j, key, v) {
			if (strcmp(key, "comparison") == 0)
				last = 1;
			else if (strcmp(key, "transforms") == 0 && last == 1)
				last = 2;
			else
				last = 0;
		}
		ok(good && last == 2, "notes: %s: JSON ends with comparison, "
		    "transforms", cases[i].qs);
		json_decref(j);
		snprintf(qs, sizeof qs, "%s&t=1~inv&format=text", cases[i].qs);
		s = page(p, qs);
		ok(s != NULL && strstr(s, "Complete profile") != NULL &&
		    (strstr(s, "Compared with the base") != NULL) ==
		    cases[i].compares, "notes: %s: the page %s and shows the "
		    "transforms", cases[i].qs, cases[i].compares ?
		    "compares" : "does not compare");
		free(s);
	}
	profile_free(p);
}

int
main(void)
{
	test_timed();
	test_invariants();
	test_deep();
	test_notes();
	return (tap_done());
}

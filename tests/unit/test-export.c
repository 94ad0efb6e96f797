/*
 * The export reports (engine/report-export.c): each export's own format,
 * which its writer streams into the answer's body, is the same bytes as
 * the writer gives into a buffer of its own and as the JSON form's text
 * (base64 decoded for pprof); a profile the format cannot hold is a 400
 * in both forms; an export past the query's deadline stops with a 503
 * in both forms.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer-query.h"
#include "base64.h"
#include "outbuf.h"
#include "profile-builder.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"
#include "writer.h"

static const struct {
	const char	*cmd;
	int		 (*write)(struct outbuf *, const struct profile *,
			    const struct writer_options *, char **);
} exports[] = {
	{ "folded", writer_folded },
	{ "callgrind", writer_callgrind },
	{ "pprof", writer_pprof },
	{ "speedscope", writer_speedscope },
};

static struct answer *
ask_with(const struct profile *p, const char *qs, uint64_t max_msec,
    uint64_t max_cost, size_t max_body)
{
	struct answer_context	 ctx;

	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	ctx.report.name = "test";
	ctx.report.max_msec = max_msec;
	ctx.report.max_cost = max_cost;
	ctx.report.max_body = max_body;
	return (answer_query(p, qs, &ctx));
}

static struct answer *
ask(const struct profile *p, const char *qs, uint64_t max_msec)
{
	return (ask_with(p, qs, max_msec, 0, 0));
}

/*
 * A chain 20,000 calls deep, a tick (and a sample, in order) at each
 * node: the folded text is
 * about 20,000^2 / 2 frames (a gigabyte), pprof and speedscope hold as
 * many ids.
 */
static struct profile *
chain_profile(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	char			 name[32], *cause = NULL;
	uint32_t		 n = PROFILE_ROOT, f, d;
	int			 m;

	if ((b = profile_builder_create("test")) == NULL)
		return (NULL);
	m = profile_builder_metric(b, "ticks", "count");
	for (d = 0; d < 20000; d++) {
		snprintf(name, sizeof name, "function_%u", d);
		f = profile_builder_func(b, name, strlen(name), "", 0);
		n = profile_builder_child(b, n, f);
		profile_builder_add(b, n, m, 1);
		profile_builder_sample(b, n, 1);
	}
	p = profile_builder_finish(b, &cause);
	free(cause);
	return (p);
}

/*
 * The deep chain: every export bounded by the answer's most (413, the
 * folded text refused before it is written) or the cost budget (503),
 * never a gigabyte.
 */
static void
test_deep(void)
{
	struct profile	*p;
	struct answer	*a;
	char		 qs[128];
	size_t		 i;

	if ((p = chain_profile()) == NULL) {
		ok(0, "the chain builds");
		return;
	}
	a = ask_with(p, "cmd=folded&format=folded", 0, 0, 1 << 20);
	ok(a != NULL && a->status == 413 && strstr(a->body, "maxdepth=") !=
	    NULL && strstr(a->body, "20000 frames deep") != NULL,
	    "folded of a deep chain: 413 before writing, naming maxdepth=");
	answer_free(a);
	a = ask_with(p, "cmd=folded&format=json", 0, 0, 1 << 20);
	ok(a != NULL && a->status == 413, "and its JSON form");
	answer_free(a);
	a = ask_with(p, "cmd=folded&format=folded&maxdepth=10", 0, 0, 1 << 20);
	ok(a != NULL && a->status == 200 && a->len < (1 << 20),
	    "maxdepth=10 fits (%zu bytes)", a != NULL ? a->len : 0);
	answer_free(a);
	a = ask_with(p, "cmd=speedscope&format=speedscope", 0, 0, 1 << 20);
	ok(a != NULL && a->status == 413 && strstr(a->body, "1 MiB") != NULL,
	    "speedscope: stopped at the answer's 1 MiB, 413");
	answer_free(a);
	for (i = 0; i < sizeof exports / sizeof exports[0]; i++) {
		snprintf(qs, sizeof qs, "cmd=%s&format=%s", exports[i].cmd,
		    exports[i].cmd);
		a = ask_with(p, qs, 0, 1000000, 0);
		ok(a != NULL && (a->status == 503 || a->status == 200) &&
		    (a->status == 200 || strstr(a->body, "1000000 node "
		    "visits") != NULL) && (exports[i].write == writer_callgrind ?
		    a->status == 200 : a->status == 503),
		    "%s charges its work: %d", qs, a != NULL ? a->status : 0);
		answer_free(a);
	}
	a = ask_with(p, "cmd=flame&format=json&style=chart", 0, 1000000, 0);
	ok(a != NULL && a->status == 503, "a flame chart charges each "
	    "sample's stack");
	answer_free(a);
	a = ask_with(p, "cmd=flame&format=json", 0, 10000, 0);
	ok(a != NULL && a->status == 503, "a flame graph charges its nodes");
	answer_free(a);
	/*
	 * The inversion is built bounded for the page (transform-invert.c):
	 * its work is capped by half of what is left of the budget (the
	 * page comes next), so it answers with the callers past the bound
	 * merged, or is refused; it never runs past the budget.
	 * test-transform-invert checks the bounded inversion's figures.
	 */
	a = ask_with(p, "cmd=tree&format=json&t=1~inv", 0, 1000000, 0);
	ok(a != NULL && (a->status == 503 || a->status == 200),
	    "an inverted tree is bounded by its budget: %d",
	    a != NULL ? a->status : 0);
	answer_free(a);
	profile_free(p);
}

/* The same bytes three ways, for each export. */
static void
test_same(const struct profile *p, const char *name)
{
	struct writer_options	 o;
	struct outbuf		 ob;
	struct answer		*raw, *js;
	json_t			*j;
	json_error_t		 err;
	const char		*text;
	char			 qs[128], *cause = NULL, *mine;
	void			*dec = NULL;
	size_t			 i, len, n;

	for (i = 0; i < sizeof exports / sizeof exports[0]; i++) {
		memset(&o, 0, sizeof o);
		outbuf_init(&ob);
		if (exports[i].write(&ob, p, &o, &cause) == -1)
			ok(0, "%s: %s", exports[i].cmd, cause);
		mine = outbuf_take(&ob, &len);
		snprintf(qs, sizeof qs, "cmd=%s&format=%s", exports[i].cmd,
		    exports[i].cmd);
		raw = ask(p, qs, 0);
		snprintf(qs, sizeof qs, "cmd=%s&format=json", exports[i].cmd);
		js = ask(p, qs, 0);
		ok(raw != NULL && raw->status == 200 && mine != NULL &&
		    raw->len == len && memcmp(raw->body, mine, len) == 0,
		    "%s: %s streamed is the writer's %zu bytes", name,
		    exports[i].cmd, len);
		j = js != NULL ? json_loadb(js->body, js->len, 0, &err) : NULL;
		text = json_string_value(json_object_get(j, "text"));
		n = json_string_length(json_object_get(j, "text"));
		if (text != NULL && json_object_get(j, "encoding") != NULL) {
			dec = base64_decode(text, n, &n);
			text = dec;
		}
		ok(text != NULL && raw != NULL && n == raw->len &&
		    memcmp(text, raw->body, n) == 0,
		    "%s: %s's JSON text is the same bytes", name,
		    exports[i].cmd);
		free(dec);
		dec = NULL;
		json_decref(j);
		answer_free(raw);
		answer_free(js);
		free(mine);
	}
}

/*
 * 4000 stacks 50 deep over 2000 functions, each stack its own after its
 * first frames: about 190,000 call nodes, exports of megabytes.
 */
static struct profile *
big_profile(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	char			 name[64], *cause = NULL;
	uint32_t		 f[2000], n, k, d;
	int			 m;

	if ((b = profile_builder_create("test")) == NULL)
		return (NULL);
	m = profile_builder_metric(b, "samples", "count");
	for (k = 0; k < 2000; k++) {
		snprintf(name, sizeof name, "namespace::Class%u::method_%u",
		    k % 97, k);
		f[k] = profile_builder_func(b, name, strlen(name), "", 0);
	}
	for (k = 0; k < 4000; k++) {
		n = PROFILE_ROOT;
		for (d = 0; d < 50; d++)
			n = profile_builder_child(b, n, f[(((k + 1) *
			    2654435761u + d * 2246822519u) >> 13) % 2000]);
		profile_builder_add(b, n, m, 1 + k % 7);
	}
	/* finish frees the builder, whether it fails or not. */
	p = profile_builder_finish(b, &cause);
	free(cause);
	return (p);
}

/* A file of tests/data. */
static struct profile *
load(const char *name)
{
	const char	*top = getenv("top_srcdir");
	struct profile	*p;
	char		 src[4096], *cause = NULL;

	snprintf(src, sizeof src, "%s/tests/data/%s", top != NULL ? top : ".",
	    name);
	if ((p = reader_load(src, NULL, NULL, &cause)) == NULL)
		ok(0, "%s loads: %s", src, cause);
	free(cause);
	return (p);
}

int
main(int argc, char **argv)
{
	struct profile	*p;
	struct answer	*a;
	char		 qs[128];
	size_t		 i;

	/* With a sample order (v8): speedscope's evented profile. */
	if ((p = load("v8-small.cpuprofile")) == NULL)
		return (tap_done());
	test_same(p, "v8-small.cpuprofile");
	a = ask(p, "cmd=folded&format=folded&order=time", 0);
	ok(a != NULL && a->status == 200 && a->len > 0, "order=time: %zu "
	    "bytes", a != NULL ? a->len : 0);
	answer_free(a);
	profile_free(p);

	if ((p = load("firefox.folded")) == NULL)
		return (tap_done());
	test_same(p, "firefox.folded");

	/* Folded's order=time needs a sample order this file has not. */
	a = ask(p, "cmd=folded&format=folded&order=time", 0);
	ok(a != NULL && a->status == 400 && a->len > 10 &&
	    strncmp(a->body, "error 400: ", 11) == 0,
	    "no sample order: a 400 in the format's own error line");
	answer_free(a);
	a = ask(p, "cmd=folded&format=json&order=time", 0);
	ok(a != NULL && a->status == 400, "and as JSON");
	answer_free(a);
	profile_free(p);

	if ((p = big_profile()) == NULL) {
		ok(0, "the big profile builds");
		return (tap_done());
	}
	ok(p->nnodes > 180000, "a big profile: %u nodes", p->nnodes);
	test_same(p, "big");
	/*
	 * A deadline of 3 ms: the export stops, the answer says why. The
	 * clock is the test hook's (DEEPQ_TEST_CLOCK), 1 ms a reading, so
	 * the deadline passes at the fourth reading, some 12,000 units of
	 * work in, whatever the machine's speed; on the real clock a fast
	 * machine wrote a whole export within 1 ms.
	 */
#ifdef TESTHOOK_ENABLED
	setenv("DEEPQ_TEST_CLOCK", "1", 1);
	for (i = 0; i < sizeof exports / sizeof exports[0]; i++) {
		snprintf(qs, sizeof qs, "cmd=%s&format=%s", exports[i].cmd,
		    exports[i].cmd);
		a = ask(p, qs, 3);
		ok(a != NULL && a->status == 503, "%s past its deadline: 503",
		    qs);
		answer_free(a);
		snprintf(qs, sizeof qs, "cmd=%s&format=json", exports[i].cmd);
		a = ask(p, qs, 3);
		ok(a != NULL && a->status == 503, "%s past its deadline: 503",
		    qs);
		answer_free(a);
	}
	unsetenv("DEEPQ_TEST_CLOCK");
#else
	ok(0, "the deadline's clock needs ./configure --enable-test-hooks");
#endif
	profile_free(p);
	test_deep();
	(void)argc;
	(void)argv;
	return (tap_done());
}

/*
 * The pprof reader's variant "labels" (label frames below the root), a
 * variant it does not know, and the pprof writer read back by the
 * reader: the same totals, functions, flat and cum, on the Go samples
 * of tests/data/pprof.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "outbuf.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"
#include "writer.h"

static struct profile *
load(const char *name, const char *variant, char **cause)
{
	struct reader_options	 o = { 0, variant };
	const char		*top = getenv("top_srcdir");
	char			 path[4096];

	snprintf(path, sizeof path, "%s/tests/data/pprof/%s",
	    top != NULL ? top : ".", name);
	*cause = NULL;
	return (reader_load(path, "pprof", &o, cause));
}

static int64_t
func_total(const struct profile *p, int m, const char *name)
{
	uint32_t	 f;

	for (f = 0; f < p->nfuncs; f++) {
		if (strcmp(profile_func_name(p, f), name) == 0)
			return (p->metrics[m].func_total[f]);
	}
	return (-1);
}

/* Every function of a has b's flat and cum in every metric. */
static int
same(const struct profile *a, const struct profile *b)
{
	uint32_t	 f, g, m;

	if (a->nmetrics != b->nmetrics || a->nfuncs != b->nfuncs)
		return (0);
	for (m = 0; m < a->nmetrics; m++) {
		if (strcmp(a->metrics[m].name, b->metrics[m].name) != 0 ||
		    strcmp(a->metrics[m].unit, b->metrics[m].unit) != 0 ||
		    a->metrics[m].sum != b->metrics[m].sum)
			return (0);
		for (f = 1; f < a->nfuncs; f++) {
			for (g = 1; g < b->nfuncs; g++) {
				if (strcmp(profile_func_name(a, f),
				    profile_func_name(b, g)) == 0 &&
				    strcmp(profile_func_module(a, f),
				    profile_func_module(b, g)) == 0)
					break;
			}
			if (g == b->nfuncs ||
			    a->metrics[m].func_self[f] !=
			    b->metrics[m].func_self[g] ||
			    a->metrics[m].func_total[f] !=
			    b->metrics[m].func_total[g])
				return (0);
		}
	}
	return (1);
}

int
main(void)
{
	static const char *const files[] = { "cpu.pb", "heap.pb.gz" };
	struct profile	*p, *q;
	struct input	*in;
	char		*cause, *buf = NULL;
	size_t		 len = 0, i;
	struct outbuf	 ob;
	int		 m;

	p = load("cpu.pb", "labels", &cause);
	ok(p != NULL, "cpu.pb loads with the variant labels");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return (tap_done());
	}
	m = 0;
	ok(func_total(p, m, "phase:spin") > 0 &&
	    func_total(p, m, "phase:spin") ==
	    func_total(p, m, "main.main.func1"),
	    "phase:spin holds what main.main.func1 (its pprof.Do) does");
	ok(func_total(p, m, "phase:recurse") ==
	    func_total(p, m, "main.main.func2"),
	    "phase:recurse holds what main.main.func2 does");
	q = load("cpu.pb", NULL, &cause);
	ok(q != NULL && q->metrics[0].sum == p->metrics[0].sum &&
	    func_total(q, m, "phase:spin") == -1,
	    "without the variant: the same total, no label frames");
	profile_free(p);
	profile_free(q);

	p = load("cpu.pb", "labels,tags", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "tags") != NULL,
	    "an unknown variant word is refused");
	free(cause);

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct writer_options	 wo = { 0 };

		if ((p = load(files[i], NULL, &cause)) == NULL) {
			ok(0, "%s loads: %s", files[i], cause);
			free(cause);
			continue;
		}
		outbuf_init(&ob);
		ok(writer_pprof(&ob, p, &wo, &cause) == 0 &&
		    (buf = outbuf_take(&ob, &len)) != NULL,
		    "%s: written as pprof", files[i]);
		/* The export is gzipped: decoded as a file would be. */
		in = input_memory_decoded(buf, len, &cause);
		q = in == NULL ? NULL : reader_load_input(in, NULL, NULL,
		    &cause);
		ok(q != NULL && strcmp(q->format, "pprof") == 0,
		    "%s: the export is detected and read as pprof", files[i]);
		ok(q != NULL && same(p, q), "%s: read back with the same "
		    "metrics, totals, and flat and cum per function", files[i]);
		input_free(in);
		profile_free(p);
		profile_free(q);
		free(buf);
		buf = NULL;
	}

	/* Two functions of one id: refused, not the sample given to one. */
	p = load("dup-func.pb", NULL, &cause);
	ok(p == NULL && cause != NULL &&
	    strstr(cause, "function id 1 appears twice") != NULL,
	    "duplicate function ids: refused (%s)", cause ? cause : "loaded");
	profile_free(p);
	free(cause);
	return (tap_done());
}

/*
 * libFuzzer harness for one reader, chosen at build time with
 * -DFUZZ_READER='"name"' (tests/fuzz/include.am builds one per reader), or
 * all readers through detection when FUZZ_READER is NULL. A profile that
 * records times is also cut (range.h) to a middle third of its recording
 * and to its first thread, as range= and thread= cut it: the timeline a
 * reader built from hostile input must decode and cut, or say why.
 * With FUZZ_TRICKLE (the streaming JSON readers), each input is read
 * again a few bytes at a time and must give the same outcome.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "range.h"
#include "reader.h"
#include "timeline.h"

#ifndef FUZZ_READER
#define FUZZ_READER NULL
#endif

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#ifdef FUZZ_TRICKLE
/*
 * The streaming JSON readers: the same input coming a few bytes at a
 * time (tokens cut by refills) gives the same profile or the same
 * error, word for word.
 */
static void
fuzz_trickle(const uint8_t *data, size_t len, const struct profile *p,
    const char *cause, const struct reader_options *opts)
{
	struct input	*in;
	struct profile	*q;
	char		*why = NULL;
	uint32_t	 m;

	if ((in = input_memory_trickle((const char *)data, len, 1 +
	    (len > 0 ? data[len / 2] % 61 : 0))) == NULL)
		abort();
	q = reader_load_input(in, FUZZ_READER, opts, &why);
	if ((p == NULL) != (q == NULL))
		abort();
	if (p == NULL && strcmp(cause, why) != 0)
		abort();
	if (p != NULL && (p->nnodes != q->nnodes || p->nfuncs != q->nfuncs ||
	    p->nmetrics != q->nmetrics || p->nsamples != q->nsamples))
		abort();
	for (m = 0; p != NULL && m < p->nmetrics; m++) {
		if (p->metrics[m].sum != q->metrics[m].sum)
			abort();
	}
	profile_free(q);
	free(why);
	input_free(in);
}
#endif
static void
fuzz_range(const struct profile *p, int timed, int thread)
{
	const struct timeline	*tl = p->timeline;
	struct range		 r = { 0 };
	struct profile		*cut;
	char			*label = NULL, *cause = NULL;
	double			 len = timeline_seconds(tl, tl->end);
	int			 status = 0;

	if (timed) {
		r.timed = 1;
		r.a = len / 3;
		r.b = len * 2 / 3 > r.a ? len * 2 / 3 : r.a + 1;
	}
	if (thread) {
		if (tl->nthreads == 0 ||
		    (label = timeline_thread_label(tl, p->strings, 0)) == NULL)
			return;
		r.threads = &label;
		r.nthreads = 1;
	}
	cut = range_apply(p, &r, timed, NULL, &status, &cause);
	if (cut == NULL && (cause == NULL || status == 0))
		abort();	/* every failure must say why */
	profile_free(cut);
	free(cause);
	free(label);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct reader_options	 opts = { .max_nodes = 1 << 20 };
	struct input		*in;
	struct profile		*p;
	char			*cause = NULL;

	if ((in = input_memory((const char *)data, len)) == NULL)
		return (0);
	p = reader_load_input(in, FUZZ_READER, &opts, &cause);
	if (p == NULL && cause == NULL)
		abort();	/* every failure must say why */
#ifdef FUZZ_TRICKLE
	fuzz_trickle(data, len, p, cause, &opts);
#endif
	if (p != NULL && p->timeline != NULL) {
		fuzz_range(p, 1, 0);
		fuzz_range(p, 0, 1);
		fuzz_range(p, 1, 1);
	}
	profile_free(p);
	free(cause);
	input_free(in);
	return (0);
}

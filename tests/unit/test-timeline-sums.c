/*
 * range= for cmd=top (range_apply_funcs, timeline-sums.c) against the
 * whole derived profile (range_apply): for point samples on six threads
 * with recursive stacks, enough records for checkpoint sums, spans read
 * the other way, and weights below zero (which go back to the whole
 * profile), every function's self and total and every metric's total
 * are the same, over random ranges, ranges ending on a checkpoint or
 * between equal times, empty ones, ranges past the recording, and one
 * thread or two, whichever way the figures are found: the sums, the
 * records in the range, or those outside it (or, with many records a
 * node, the whole profile after all).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile-builder.h"
#include "range.h"
#include "tap.h"
#include "timeline.h"
#include "timeline-sums.h"

#define NTHREAD	6
#define NSTACK	300

static uint64_t	 seed = 0x243f6a8885a308d3ULL;
static int64_t	*times;		/* each record's time, in order */
static uint64_t	 ntimes;

/*
 * n records on six threads, times in order (ties too). kind 0: point
 * samples weighted and counted; 1: the same with some weights below
 * zero; 2: spans and a count.
 */
static struct profile *
make(uint64_t n, int kind)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 leaf[NSTACK], th[NTHREAD], st[24], i, k, d;
	uint32_t		 node, f;
	uint64_t		 j;
	int64_t			 t = 5000, w, dur;
	char			 name[32], *cause = NULL;

	b = profile_builder_create("perf");
	profile_builder_metric(b, kind == 2 ? "time" : "period", "us");
	profile_builder_metric(b, "samples", "count");
	profile_builder_clock(b, "us", 1e6);
	profile_builder_time_mode(b, 0, kind == 2 ? TIMELINE_SPAN :
	    TIMELINE_WEIGHT);
	profile_builder_time_mode(b, 1, TIMELINE_COUNT);
	for (i = 0; i < NTHREAD; i++) {
		snprintf(name, sizeof name, "t%u", i);
		th[i] = profile_builder_thread(b, name, strlen(name), "p", 1,
		    7, 100 + i);
	}
	/* Stacks that call back into functions above them. */
	for (i = 0; i < NSTACK; i++) {
		node = PROFILE_ROOT;
		d = 1 + tap_xorshift(&seed) % 24;
		for (k = 0; k < d; k++) {
			st[k] = k > 2 && tap_xorshift(&seed) % 4 == 0 ?
			    st[tap_xorshift(&seed) % k] :
			    (uint32_t)(tap_xorshift(&seed) % 60);
			snprintf(name, sizeof name, "f%u", st[k]);
			f = profile_builder_func(b, name, strlen(name), "m",
			    1);
			node = profile_builder_child(b, node, f);
		}
		leaf[i] = node;
	}
	free(times);
	times = calloc(n, sizeof *times);
	ntimes = n;
	for (j = 0; j < n; j++) {
		t += (int64_t)(tap_xorshift(&seed) % 4);
		times[j] = t;
		node = leaf[tap_xorshift(&seed) % NSTACK * (tap_xorshift(&seed) %
		    NSTACK) / NSTACK];
		w = 1 + (int64_t)(tap_xorshift(&seed) % 1000);
		if (tap_xorshift(&seed) % 50 == 0)
			w = kind == 1 ? -w : 0;
		dur = kind == 2 ? (int64_t)(tap_xorshift(&seed) % 9) : 0;
		if (kind == 2)
			t += dur;
		profile_builder_add(b, node, 0, kind == 2 ? dur : w);
		profile_builder_add(b, node, 1, w != 0);
		if (profile_builder_timed(b, node, th[j % NTHREAD], times[j],
		    dur, w) == -1)
			diag("timed: %s", profile_builder_error(b));
	}
	if ((p = profile_builder_finish(b, &cause)) == NULL)
		diag("finish: %s", cause);
	return (p);
}

/* Do two profiles' function figures and totals differ? Say where. */
static int
differ(const struct profile *x, const struct profile *y, const char *what)
{
	uint32_t	 k, f;

	for (k = 0; k < x->nmetrics; k++) {
		if (x->metrics[k].sum != y->metrics[k].sum) {
			diag("%s: metric %u total %lld, want %lld", what, k,
			    (long long)y->metrics[k].sum,
			    (long long)x->metrics[k].sum);
			return (1);
		}
		for (f = 0; f < x->nfuncs; f++) {
			if (x->metrics[k].func_self[f] !=
			    y->metrics[k].func_self[f] ||
			    x->metrics[k].func_total[f] !=
			    y->metrics[k].func_total[f]) {
				diag("%s: metric %u function %u: %lld/%lld, "
				    "want %lld/%lld", what, k, f,
				    (long long)y->metrics[k].func_self[f],
				    (long long)y->metrics[k].func_total[f],
				    (long long)x->metrics[k].func_self[f],
				    (long long)x->metrics[k].func_total[f]);
				return (1);
			}
		}
	}
	return (0);
}

/* Seconds from the start of record j's time (j past the end: after). */
static double
at(const struct profile *p, uint64_t j)
{
	const struct timeline	*tl = p->timeline;

	return (timeline_seconds(tl, j < ntimes ? times[j] : tl->end + 10));
}

/*
 * Range k of the test: random, on a checkpoint, between equal times,
 * empty, past the end, the whole; some with one thread or two.
 */
static void
pick(const struct profile *p, const struct timeline_sums *s, uint32_t k,
    struct range *r, char **names)
{
	uint64_t	 step = s != NULL ? s->step : 4096, i, j;

	memset(r, 0, sizeof *r);
	r->timed = 1;
	i = tap_xorshift(&seed) % ntimes;
	j = i + tap_xorshift(&seed) % (k % 2 ? ntimes / 50 : ntimes);
	switch (k % 7) {
	case 1:		/* on checkpoints, give or take a record */
		i = (tap_xorshift(&seed) % (ntimes / step + 1)) * step;
		j = i + (1 + tap_xorshift(&seed) % 3) * step - 1 + k % 3;
		break;
	case 2:		/* empty */
		j = i;
		break;
	case 3:		/* past the end */
		j = ntimes + 5;
		break;
	case 4:		/* everything */
		r->timed = k % 2;
		i = 0;
		j = ntimes + 5;
		break;
	}
	r->a = at(p, i);
	r->b = at(p, j);
	if (r->b < r->a)
		r->b = r->a;
	if (k % 3 == 0) {
		r->threads = names;
		r->nthreads = 1 + k % 2;
		snprintf(names[0], 8, "t%u", k % NTHREAD);
		snprintf(names[1], 8, "t%u", (k + 3) % NTHREAD);
	}
}

/* The figures through the sums, the scan and the whole, for n ranges. */
static void
compare(const struct profile *p, const struct timeline_sums *s, int n,
    const char *what)
{
	struct profile	*whole, *fs, *fn;
	struct range	 r;
	char		 t0[8], t1[8], *names[2] = { t0, t1 }, *cause = NULL;
	char		 label[128];
	int		 k, st, bad = 0, back = 0, fails = 0, sparse = 0;

	for (k = 0; k < n; k++) {
		pick(p, s, (uint32_t)k, &r, names);
		snprintf(label, sizeof label, "%s: range %.6f,%.6f%s", what,
		    r.a, r.b, r.nthreads ? " threads" : "");
		whole = range_apply(p, &r, 0, NULL, &st, &cause);
		fs = range_apply_funcs(p, &r, s, NULL, &st, &cause);
		if (fs == NULL && st != 0)
			fails++;
		fn = range_apply_funcs(p, &r, NULL, NULL, &st, &cause);
		if (fn == NULL && st != 0)
			fails++;
		if (whole == NULL)
			fails++;
		else if ((fs != NULL && differ(whole, fs, label)) ||
		    (fn != NULL && differ(whole, fn, label)))
			bad++;
		back += fs == NULL;
		sparse += fn != NULL;
		profile_free(whole);
		profile_free(fs);
		profile_free(fn);
		free(cause);
		cause = NULL;
	}
	ok(fails == 0 && bad == 0, "%s: %d ranges and threads, the figures "
	    "of the whole derived profile (%d differ, %d failed; without a "
	    "tree: %d with %s, %d with none)", what, n, bad, fails, n - back,
	    s != NULL ? "the sums" : "no sums", sparse);
	if (strstr(what, "below zero") != NULL)
		ok(back > 0 && sparse < n, "%s: values below zero go to the "
		    "whole profile", what);
	else
		ok((s == NULL || back == 0) && sparse > 0, "%s: the sums "
		    "answer every range they have; the sparse way some", what);
}

int
main(void)
{
	struct profile		*p;
	struct timeline_sums	*s;

	p = make(TIMELINE_SUMS_MIN_RECORDS + 40000, 0);
	s = timeline_sums_create(p, NULL);
	ok(s != NULL && s->ngroups == NTHREAD && s->nchk >= 3,
	    "point samples: checkpoint sums, a set per thread");
	ok(s != NULL && timeline_sums_memory(s) <= TIMELINE_SUMS_MAX_BYTES &&
	    timeline_sums_memory(s) <= timeline_memory(p->timeline) / 2 +
	    sizeof *s, "the sums within their bound");
	compare(p, s, 120, "point samples");
	timeline_sums_free(s);
	profile_free(p);

	p = make(TIMELINE_SUMS_MIN_RECORDS + 1000, 1);
	ok(timeline_sums_create(p, NULL) == NULL, "weights below zero: no "
	    "sums");
	compare(p, NULL, 40, "weights below zero");
	profile_free(p);

	p = make(40000, 2);
	ok((p->timeline->flags & TIMELINE_F_COMPLETE) &&
	    timeline_sums_create(p, NULL) == NULL, "spans: no sums");
	compare(p, NULL, 60, "spans");
	profile_free(p);

	p = make(5000, 0);
	ok(timeline_sums_create(p, NULL) == NULL, "a few records: no sums");
	compare(p, NULL, 30, "a few point samples");
	profile_free(p);
	free(times);
	return (tap_done());
}

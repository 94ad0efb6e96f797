/*
 * The timeline (timeline.c) and range= (range.c) against brute force:
 * random profiles whose records come out of order on several threads,
 * with spans, instants and any weights, decode in time order to exactly
 * what was recorded; a seek finds every record that reaches its time;
 * perf's microseconds read as nanoseconds are kept as microseconds; the
 * records are found complete when they give every value, and not when a
 * value came without one. Then range= and thread= give, node by node,
 * the sums of the records within (spans cut), whichever way range.c
 * reads them, and a profile through the processed-profile cache keeps
 * its timeline, while a corrupted one is refused.
 */

#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "profile.h"
#include "profile-builder.h"
#include "range.h"
#include "tap.h"
#include "timeline.h"

#define NREC	5000
#define NLEAF	40

struct rec {
	int64_t		 t, d, w;
	uint32_t	 node, thread;
	uint64_t	 seq;
};

static uint64_t	 seed = 0x1234567887654321ULL;
static struct rec recs[NREC];
static uint32_t	 nrec;

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec	*x = a, *y = b;

	if (x->t != y->t)
		return (x->t < y->t ? -1 : 1);
	return (x->seq < y->seq ? -1 : x->seq > y->seq);
}

/*
 * A profile of three threads whose records come thread after thread
 * (so out of order), spans and instants, metric 0 weighted, metric 1 the
 * spans, metric 2 a count. extra: a value without a record.
 */
static struct profile *
make(int extra, int spans)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 leaf[NLEAF], th[3], i, k, node, f;
	int64_t			 t;
	char			 name[32], *cause = NULL;

	b = profile_builder_create("trace");
	profile_builder_metric(b, "weight", "count");
	profile_builder_metric(b, "time", "us");
	profile_builder_metric(b, "samples", "count");
	profile_builder_clock(b, "us", 1e6);
	profile_builder_time_mode(b, 0, TIMELINE_WEIGHT);
	profile_builder_time_mode(b, 1, TIMELINE_SPAN);
	profile_builder_time_mode(b, 2, TIMELINE_COUNT);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "t%u", i);
		th[i] = profile_builder_thread(b, name, strlen(name), "p", 1,
		    7, 100 + i);
	}
	for (i = 0; i < NLEAF; i++) {
		node = PROFILE_ROOT;
		for (k = 0; k < 1 + tap_xorshift(&seed) % 5; k++) {
			snprintf(name, sizeof name, "f%u",
			    (unsigned)(tap_xorshift(&seed) % 12));
			f = profile_builder_func(b, name, strlen(name), "", 0);
			node = profile_builder_child(b, node, f);
		}
		leaf[i] = node;
	}
	nrec = 0;
	for (k = 0; k < 3; k++) {
		t = 1000 * k;
		for (i = 0; i < NREC / 3; i++) {
			struct rec	*r = &recs[nrec];

			t += (int64_t)(tap_xorshift(&seed) % 50);
			r->t = t;
			r->d = spans && tap_xorshift(&seed) % 3 ?
			    (int64_t)(tap_xorshift(&seed) % 400) : 0;
			r->w = (int64_t)(tap_xorshift(&seed) % 7) - 1;
			if (i % 97 == 0)
				r->w = INT64_C(1) << 40;
			r->node = leaf[tap_xorshift(&seed) % NLEAF];
			r->thread = th[k];
			r->seq = nrec++;
			profile_builder_add(b, r->node, 0, r->w);
			profile_builder_add(b, r->node, 1, r->d);
			profile_builder_add(b, r->node, 2, r->w != 0);
			if (profile_builder_timed(b, r->node, r->thread, r->t,
			    r->d, r->w) == -1)
				diag("timed: %s", profile_builder_error(b));
		}
	}
	if (extra)
		profile_builder_add(b, leaf[0], 0, 1);
	if ((p = profile_builder_finish(b, &cause)) == NULL)
		diag("finish: %s", cause);
	qsort(recs, nrec, sizeof recs[0], rec_cmp);
	return (p);
}

/* Every record decoded, in time order, as recorded. */
static void
test_decode(const struct profile *p)
{
	const struct timeline	*tl = p->timeline;
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint32_t		 i = 0, bad = 0;

	ok(tl != NULL && tl->n == nrec, "%u records kept", nrec);
	timeline_iter_init(&it, tl);
	while (timeline_next(&it, &r)) {
		if (i >= nrec || r.t != recs[i].t || r.d != recs[i].d ||
		    r.w != recs[i].w || r.node != recs[i].node ||
		    r.thread != recs[i].thread) {
			if (bad++ == 0 && i < nrec)
				diag("record %u: %lld %lld %lld %u %u, want "
				    "%lld %lld %lld %u %u", i, (long long)r.t,
				    (long long)r.d, (long long)r.w, r.node,
				    r.thread, (long long)recs[i].t,
				    (long long)recs[i].d, (long long)recs[i].w,
				    recs[i].node, recs[i].thread);
		}
		i++;
	}
	ok(i == nrec && bad == 0, "decoded in time order, each as recorded "
	    "(%u differ)", bad);
	ok(tl->nthreads == 3 && (tl->flags & TIMELINE_F_THREAD) &&
	    (tl->flags & TIMELINE_F_WEIGHT), "three threads, weights");
	diag("%.2f bytes a record's time, duration, weight and thread",
	    (double)(tl->ndata + tl->nindex * sizeof *tl->index) / tl->n);
}

/* A seek to a finds every record that ends at or after a. */
static void
test_seek(const struct profile *p)
{
	const struct timeline	*tl = p->timeline;
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint32_t		 k, i, missed = 0;
	int64_t			 a;

	for (k = 0; k < 200; k++) {
		a = tl->start + (int64_t)(tap_xorshift(&seed) %
		    (uint64_t)(tl->end - tl->start + 2));
		timeline_seek(&it, tl, a);
		/* The first record reached must come before any that ends
		 * at or after a. */
		if (!timeline_next(&it, &r))
			r.t = INT64_MAX;
		for (i = 0; i < nrec; i++) {
			if (recs[i].t + recs[i].d >= a && rec_cmp(&recs[i],
			    &recs[0]) >= 0 && recs[i].t < r.t) {
				missed++;
				break;
			}
		}
	}
	ok(missed == 0, "a seek misses no record reaching its time (%u of 200 "
	    "missed)", missed);
}

/* range_apply against the sums of the records, for ranges and threads. */
static void
test_range(const struct profile *p, const char *what)
{
	const struct timeline	*tl = p->timeline;
	struct range		 rg;
	struct profile		*d;
	char			*cause = NULL, tname[8], *tnames[1];
	int64_t			 a, e, want[3], got[3];
	uint32_t		 k, i, n, f, bad = 0, fails = 0;
	int			 status, times;
	double			 x, y;

	for (k = 0; k < 60; k++) {
		memset(&rg, 0, sizeof rg);
		x = (double)(tap_xorshift(&seed) % 1000) / 1000 *
		    timeline_seconds(tl, tl->end);
		y = (double)(tap_xorshift(&seed) % 1000) / 1000 *
		    timeline_seconds(tl, tl->end);
		rg.timed = 1;
		rg.a = x < y ? x : y;
		rg.b = (x < y ? y : x) + 1e-6;
		/* Wide ones too: read the other way. */
		if (k % 3 == 0) {
			rg.a = 0.00001 * k;
			rg.b = timeline_seconds(tl, tl->end) * 0.98;
		}
		if (k % 5 == 1) {
			snprintf(tname, sizeof tname, "t%u", k % 3);
			tnames[0] = tname;
			rg.threads = tnames;
			rg.nthreads = 1;
		}
		times = k % 4 == 2;
		(void)range_clock(p, &rg, &a, &e);
		if ((d = range_apply(p, &rg, times, NULL, &status,
		    &cause)) == NULL) {
			fails++;
			diag("range %f,%f: %s", rg.a, rg.b, cause);
			free(cause);
			cause = NULL;
			continue;
		}
		/* Per function (ids are kept): the self values. */
		for (f = 1; f < p->nfuncs; f++) {
			for (n = 0; n < 3; n++) {
				want[n] = 0;
				got[n] = d->metrics[n].func_self[f];
			}
			for (i = 0; i < nrec; i++) {
				struct timeline_rec r = { recs[i].t, recs[i].d,
				    recs[i].w, recs[i].thread, recs[i].node };

				if (p->node_func[r.node] != f ||
				    (rg.nthreads > 0 && r.thread != k % 3))
					continue;
				for (n = 0; n < 3; n++)
					want[n] += timeline_value(tl, n, &r, a,
					    e);
			}
			for (n = 0; n < 3; n++) {
				if (want[n] != got[n]) {
					if (bad++ < 5)
						diag("%s range %f,%f%s: function "
						    "%u metric %u: %lld, want "
						    "%lld", what, rg.a, rg.b,
						    rg.nthreads ? " thread" : "",
						    f, n, (long long)got[n],
						    (long long)want[n]);
				}
			}
		}
		if (times && (d->timeline == NULL || d->timeline->start !=
		    tl->start))
			bad++;
		profile_free(d);
	}
	ok(fails == 0 && bad == 0, "%s: 60 ranges and threads, every "
	    "function's values the records' sums (%u differ)", what, bad);
}

/* Through the processed-profile cache: the same records; corrupt: refused. */
static void
test_cache(const struct profile *p)
{
	char			 dir[] = "/tmp/deepq-tl.XXXXXX", path[64];
	char			 src[64], *cause = NULL;
	struct profile		*c;
	struct timeline_iter	 i1, i2;
	struct timeline_rec	 r1, r2;
	struct stat		 st;
	FILE			*f;
	int			 same = 1;

	if (mkdtemp(dir) == NULL)
		return;
	snprintf(path, sizeof path, "%s/cache", dir);
	snprintf(src, sizeof src, "%s/src", dir);
	if ((f = fopen(src, "w")) != NULL)
		fclose(f);
	stat(src, &st);
	ok(cache_write(p, NULL, path, &st, &cause) == 0, "cache written");
	c = cache_load(path, &st, &cause);
	ok(c != NULL && c->timeline != NULL, "cache maps back, with times");
	if (c == NULL)
		diag("%s", cause);
	if (c != NULL && c->timeline != NULL) {
		timeline_iter_init(&i1, p->timeline);
		timeline_iter_init(&i2, c->timeline);
		while (timeline_next(&i1, &r1)) {
			if (!timeline_next(&i2, &r2) || memcmp(&r1, &r2,
			    sizeof r1) != 0)
				same = 0;
		}
		ok(same && c->timeline->flags == p->timeline->flags,
		    "the same records and flags");
		/* A stream whose thread is out of range: not a timeline. */
		struct timeline	 bad = *c->timeline;

		bad.nthreads = 1;
		ok(timeline_check(&bad, c->nnodes, UINT32_MAX,
		    c->nmetrics) == -1, "a thread out of range is refused");
		bad = *c->timeline;
		bad.n--;
		ok(timeline_check(&bad, c->nnodes, UINT32_MAX,
		    c->nmetrics) == -1, "a count that disagrees is refused");
		bad = *c->timeline;
		ok(timeline_check(&bad, 2, UINT32_MAX, c->nmetrics) == -1,
		    "a node out of range is refused");
	}
	profile_free(c);
	unlink(path);
	unlink(src);
	rmdir(dir);
	free(cause);
}

/* Microseconds read as nanoseconds are kept as microseconds. */
static void
test_units(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 t, f, n;
	char			*cause = NULL;

	b = profile_builder_create("trace");
	profile_builder_metric(b, "samples", "count");
	profile_builder_clock(b, "ns", 1e9);
	profile_builder_time_mode(b, 0, TIMELINE_COUNT);
	t = profile_builder_thread(b, "x", 1, "", 0, -1, -1);
	f = profile_builder_func(b, "f", 1, "", 0);
	n = profile_builder_child(b, PROFILE_ROOT, f);
	profile_builder_add(b, n, 0, 2);
	profile_builder_timed(b, n, t, 100000001000, 0, 1);
	profile_builder_timed(b, n, t, 100000251000, 0, 1);
	p = profile_builder_finish(b, &cause);
	ok(p != NULL && strcmp(p->timeline->unit, "us") == 0 &&
	    p->timeline->rate == 1e6 && p->timeline->start == 100000001,
	    "perf's microseconds kept as microseconds");
	ok(p != NULL && (p->timeline->flags & TIMELINE_F_COMPLETE),
	    "records that give every value: complete");
	ok(p != NULL && timeline_seconds(p->timeline, p->timeline->end) ==
	    0.00025, "the recording lasts 250 us");
	profile_free(p);
}

int
main(void)
{
	struct profile	*p;

	test_units();
	p = make(0, 1);
	test_decode(p);
	ok(p->timeline->flags & TIMELINE_F_COMPLETE, "spans and weights: "
	    "complete");
	test_seek(p);
	test_range(p, "spans");
	test_cache(p);
	profile_free(p);
	p = make(1, 0);
	ok(!(p->timeline->flags & TIMELINE_F_COMPLETE), "a value without a "
	    "record: not complete");
	test_range(p, "instants, incomplete");
	profile_free(p);
	p = make(0, 0);
	test_range(p, "instants");
	profile_free(p);
	return (tap_done());
}

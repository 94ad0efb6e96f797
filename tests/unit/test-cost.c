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

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cost.h"
#include "tap.h"

/* The query budget: exact at the unit limit, the clock every 4096. */

static int	 gone_now, asked;

static int
gone(void *arg)
{
	(void)arg;
	asked++;
	return (gone_now);
}

int
main(void)
{
	struct cost	 c;
	struct timespec	 ts = { 0, 20 * 1000000 };
	char		*s;
	int		 i, r = 0;

	ok(cost_charge(NULL, UINT64_MAX) == 0 && !cost_over(NULL),
	    "no budget never runs out");

	cost_init(&c, 10000, 0);
	ok(cost_charge(&c, 9999) == 0 && cost_charge(&c, 1) == 0,
	    "exactly the limit is allowed");
	ok(cost_charge(&c, 1) == -1 && cost_over(&c), "one more is not");
	ok(cost_charge(&c, 0) == -1, "and it stays spent");
	s = cost_message(&c);
	is_str(s, "query too expensive (over 10000 node visits)", "message");
	free(s);

	cost_init(&c, 0, 1000000);
	for (i = 0; i < 100000 && r == 0; i++)
		r = cost_charge(&c, 1);
	ok(r == 0 && !cost_over(&c), "within the time, no unit limit");

	cost_init(&c, 0, 10);
	nanosleep(&ts, NULL);
	ok(cost_charge(&c, COST_CLOCK_EVERY - 1) == 0,
	    "the clock is not read before %d units", COST_CLOCK_EVERY);
	ok(cost_charge(&c, 1) == -1 && cost_over(&c),
	    "past the deadline at the next look");
	s = cost_message(&c);
	is_str(s, "query too expensive (over 10 ms)", "message");
	free(s);

	/* The client's watch: asked at most every COST_WATCH_MS. */
	gone_now = 0;
	asked = 0;
	cost_init(&c, 0, 0);
	cost_watch(&c, gone, NULL);
	for (i = 0; i < 10 * COST_CLOCK_EVERY && r == 0; i++)
		r = cost_charge(&c, 1);
	ok(r == 0 && asked >= 1 && asked <= 2,
	    "a client still there: asked %d times in a burst", asked);
	gone_now = 1;
	ts.tv_nsec = (COST_WATCH_MS + 20) * 1000000L;
	nanosleep(&ts, NULL);
	for (i = 0; i < 2 * COST_CLOCK_EVERY && r == 0; i++)
		r = cost_charge(&c, 1);
	ok(r == -1 && cost_over(&c) && c.over == COST_GONE,
	    "a client gone: the query stops at its next look");
	s = cost_message(&c);
	is_str(s, "the client is gone: query stopped", "message");
	free(s);
	return (tap_done());
}

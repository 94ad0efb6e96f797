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
#include <time.h>

#include "cost.h"
#include "testhook.h"

/* A query's budget of work and time (see cost.h). */

static int64_t	cost_now(void);

/* Milliseconds on the monotonic clock (the tests may step it). */
static int64_t
cost_now(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		return (0);
	return (testhook_clock((int64_t)ts.tv_sec * 1000 +
	    ts.tv_nsec / 1000000));
}

/* A budget of limit units (0: none) and msec milliseconds (0: none). */
void
cost_init(struct cost *c, uint64_t limit, uint64_t msec)
{
	c->used = 0;
	c->limit = limit;
	c->msec = msec;
	c->deadline = msec != 0 ? cost_now() + (int64_t)msec : 0;
	c->over = COST_OK;
	c->next = 0;
	c->gone = NULL;
	c->gone_arg = NULL;
	c->gone_next = 0;
	(void)cost_check(c);
}

/*
 * Ask gone(arg) at the clock's checks, at most every COST_WATCH_MS: once
 * it says 1 (the client that asked has left), the budget is spent, so a
 * query nobody waits for stops at its next charge instead of running
 * its whole budget (NULL: never asked).
 */
void
cost_watch(struct cost *c, int (*gone)(void *), void *arg)
{
	c->gone = gone;
	c->gone_arg = arg;
	c->gone_next = 0;
	if (gone != NULL && c->over == COST_OK)
		c->next = c->used;
}

/*
 * The slow path of cost_charge: is the budget spent? Sets when to look
 * again: at the limit exactly, and at the clock every COST_CLOCK_EVERY
 * units.
 */
int
cost_check(struct cost *c)
{
	int64_t	 now = 0;

	if (c->over != COST_OK)
		return (-1);
	if (c->limit != 0 && c->used > c->limit) {
		c->over = COST_UNITS;
		c->next = 0;
		return (-1);
	}
	if (c->deadline != 0 || c->gone != NULL)
		now = cost_now();
	if (c->deadline != 0 && now > c->deadline) {
		c->over = COST_TIME;
		c->next = 0;
		return (-1);
	}
	if (c->gone != NULL && now >= c->gone_next) {
		c->gone_next = now + COST_WATCH_MS;
		if (c->gone(c->gone_arg)) {
			c->over = COST_GONE;
			c->next = 0;
			return (-1);
		}
	}
	if (c->deadline != 0 || c->gone != NULL)
		c->next = c->used + COST_CLOCK_EVERY;
	else
		c->next = UINT64_MAX;
	if (c->limit != 0 && c->next > c->limit + 1)
		c->next = c->limit + 1;
	return (0);
}

/*
 * Charge n units and look at the clock at once: for work one unit does
 * not bound in time (a regex match), so that the deadline is kept
 * within one piece of it.
 */
int
cost_charge_now(struct cost *c, uint64_t n)
{
	if (c == NULL)
		return (0);
	c->used += n;
	return (cost_check(c));
}

/* Is the budget spent? A NULL budget never is. */
int
cost_over(const struct cost *c)
{
	return (c != NULL && c->over != COST_OK);
}

/* Why the budget is spent, for a 503; NULL if out of memory. */
char *
cost_message(const struct cost *c)
{
	char	*s;
	int	 r;

	if (c != NULL && c->over == COST_TIME)
		r = asprintf(&s, "query too expensive (over %llu ms)",
		    (unsigned long long)c->msec);
	else if (c != NULL && c->over == COST_GONE)
		r = asprintf(&s, "the client is gone: query stopped");
	else
		r = asprintf(&s, "query too expensive (over %llu node "
		    "visits)", (unsigned long long)(c ? c->limit : 0));
	return (r == -1 ? NULL : s);
}

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

#ifndef COST_H
#define COST_H

/*
 * A query's budget: units of work (about one call node visited each)
 * and optionally wall-clock time. Every pass over a profile charges it,
 * so a pathological query stops with 503 "too expensive" instead of
 * holding the server from its other clients. Charging is an add and a
 * compare; the clock is read only every COST_CLOCK_EVERY units.
 *
 * A NULL struct cost is no budget at all (the CLI's convert, tests).
 */

#include <stdint.h>

#define COST_CLOCK_EVERY	4096
#define COST_WATCH_MS		100	/* between two asks of gone() */

#define COST_OK		0
#define COST_UNITS	1	/* over limit units */
#define COST_TIME	2	/* over the deadline */
#define COST_GONE	3	/* nobody waits for the answer any more */

struct cost {
	uint64_t	 used;		/* units charged so far */
	uint64_t	 limit;		/* 0: none */
	uint64_t	 next;		/* used at which to look again */
	int64_t		 deadline;	/* monotonic ms, 0: none */
	uint64_t	 msec;		/* the time budget, for the message */
	int		 over;		/* COST_OK, COST_UNITS, COST_TIME */
	int		 (*gone)(void *);	/* 1: the client left */
	void		*gone_arg;
	int64_t		 gone_next;	/* monotonic ms of the next ask */
};

void	 cost_init(struct cost *, uint64_t, uint64_t);
void	 cost_watch(struct cost *, int (*)(void *), void *);
int	 cost_check(struct cost *);
int	 cost_charge_now(struct cost *, uint64_t);
int	 cost_over(const struct cost *);
char	*cost_message(const struct cost *);

/* Charge n units: 0, or -1 once the budget is spent (and from then on). */
static inline int
cost_charge(struct cost *c, uint64_t n)
{
	if (c == NULL)
		return (0);
	c->used += n;
	if (c->used < c->next)
		return (0);
	return (cost_check(c));
}

#endif /* COST_H */

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


#ifndef TESTHOOK_H
#define TESTHOOK_H

/*
 * Fault-injection points for the tests, compiled only with ./configure
 * --enable-test-hooks (TESTHOOK_ENABLED): with DEEPQ_TEST_HOOKS=DIR in
 * the environment, a process reaching point P while the file
 * DIR/pause-P exists writes its pid to DIR/P.PID and stops itself with
 * SIGSTOP, so a test can kill it at that exact point (or SIGCONT it).
 * Without the variable this is one getenv(); in a release build a pause
 * point is nothing at all.
 *
 * A clock for the budgets: testhook_clock(ms) returns ms, the monotonic
 * clock just read, unless DEEPQ_TEST_CLOCK=STEP is set; then it returns
 * a process-wide virtual clock that starts at the first reading and
 * moves STEP ms at each call, so a deadline fires after a known number
 * of clock reads, not after however long the machine took.
 */

#include <stdint.h>

#ifdef TESTHOOK_ENABLED
void	testhook_pause(const char *);
int64_t	testhook_clock(int64_t);
#else
#define testhook_pause(point)	((void)0)
#define testhook_clock(ms)	(ms)
#endif

#endif /* TESTHOOK_H */

/*
 * A small TAP emitter for the unit tests (Test Anything Protocol, read by
 * automake's tap-driver.sh). The plan goes at the end, so tests need not
 * count themselves.
 */

#ifndef TAP_H
#define TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) do {						\
	int c_ = (cond) != 0;						\
	printf("%s %d - ", c_ ? "ok" : "not ok", ++tap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!c_) {							\
		tap_failed++;						\
		printf("# failed at %s:%d\n", __FILE__, __LINE__);	\
	}								\
} while (0)

#define is_int(got, want, ...) do {					\
	int64_t g_ = (got), w_ = (want);				\
	ok(g_ == w_, __VA_ARGS__);					\
	if (g_ != w_)							\
		printf("#   got %" PRId64 ", want %" PRId64 "\n", g_, w_);	\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *g_ = (got), *w_ = (want);				\
	int e_ = g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0;	\
	ok(e_, __VA_ARGS__);						\
	if (!e_)							\
		printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)",\
		    w_ ? w_ : "(null)");				\
} while (0)

#define diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return (tap_failed ? 1 : 0);
}

/*
 * xorshift64: the tests' random profiles and strings, the same on every
 * run and machine, so that a failure can be replayed. *s must not be 0.
 */
static inline uint64_t
tap_xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s);
}

#endif /* TAP_H */

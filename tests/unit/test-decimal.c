/*
 * common/decimal.h, the readers' one decimal parser: every bound exactly
 * (the largest value taken, one more refused), signs, empty fields,
 * leading and trailing junk, leading zeros, and the span that finds a
 * number's end; then random numbers against snprintf.
 */

#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "tap.h"

static int
u64(const char *s, uint64_t max, uint64_t *v)
{
	return (decimal_u64(s, strlen(s), max, v));
}

static int
i64(const char *s, int64_t *v)
{
	return (decimal_i64(s, strlen(s), v));
}

static void
test_u64(void)
{
	uint64_t	 v;

	v = 7;
	is_int(u64("0", UINT64_MAX, &v), DECIMAL_OK, "0");
	is_int(v, 0, "0 is 0");
	is_int(u64("000042", UINT64_MAX, &v), DECIMAL_OK, "leading zeros");
	is_int(v, 42, "000042 is 42");
	ok(u64("18446744073709551615", UINT64_MAX, &v) == DECIMAL_OK &&
	    v == UINT64_MAX, "UINT64_MAX is taken");
	is_int(u64("18446744073709551616", UINT64_MAX, &v), DECIMAL_OVERFLOW,
	    "UINT64_MAX + 1 overflows");
	is_int(u64("99999999999999999999", UINT64_MAX, &v), DECIMAL_OVERFLOW,
	    "twenty nines overflow (the multiplication)");
	is_int(u64("000000000000000000000000018446744073709551615",
	    UINT64_MAX, &v), DECIMAL_OK, "leading zeros do not overflow");
	ok(u64("9223372036854775807", INT64_MAX, &v) == DECIMAL_OK &&
	    v == INT64_MAX, "INT64_MAX under the bound INT64_MAX");
	is_int(u64("9223372036854775808", INT64_MAX, &v), DECIMAL_OVERFLOW,
	    "INT64_MAX + 1 over the bound INT64_MAX");
	ok(u64("4294967295", UINT32_MAX, &v) == DECIMAL_OK && v == UINT32_MAX,
	    "UINT32_MAX under the bound UINT32_MAX");
	is_int(u64("4294967296", UINT32_MAX, &v), DECIMAL_OVERFLOW,
	    "UINT32_MAX + 1 over the bound");
	is_int(u64("0", 0, &v), DECIMAL_OK, "bound 0 takes 0");
	is_int(u64("1", 0, &v), DECIMAL_OVERFLOW, "bound 0 refuses 1");

	v = 7;
	is_int(u64("", UINT64_MAX, &v), DECIMAL_NONE, "empty");
	is_int(v, 7, "*v untouched on a fault");
	is_int(u64(" 1", UINT64_MAX, &v), DECIMAL_NONE, "a leading blank");
	is_int(u64("1 ", UINT64_MAX, &v), DECIMAL_NONE, "a trailing blank");
	is_int(u64("+1", UINT64_MAX, &v), DECIMAL_NONE, "no sign unsigned");
	is_int(u64("-1", UINT64_MAX, &v), DECIMAL_NONE, "no minus unsigned");
	is_int(u64("0x10", UINT64_MAX, &v), DECIMAL_NONE, "no base prefix");
	is_int(u64("1.5", UINT64_MAX, &v), DECIMAL_NONE, "no fraction");
	is_int(u64("12a", UINT64_MAX, &v), DECIMAL_NONE, "trailing junk");
	is_int(u64("\xd9\xa1", UINT64_MAX, &v), DECIMAL_NONE,
	    "not an Arabic-Indic digit (bytes above 0x7f)");
	is_int(u64("99999999999999999999x", UINT64_MAX, &v), DECIMAL_OVERFLOW,
	    "the first fault from the left: overflow before junk");
	is_int(u64("x99999999999999999999", UINT64_MAX, &v), DECIMAL_NONE,
	    "the first fault from the left: junk before overflow");
	/* n bounds the read: the digits past it are not looked at. */
	is_int(decimal_u64("12345", 2, UINT64_MAX, &v), DECIMAL_OK, "n = 2");
	is_int(v, 12, "n = 2 reads \"12\"");
}

static void
test_i64(void)
{
	int64_t	 v;

	ok(i64("-9223372036854775808", &v) == DECIMAL_OK && v == INT64_MIN,
	    "INT64_MIN is taken");
	is_int(i64("-9223372036854775809", &v), DECIMAL_OVERFLOW,
	    "INT64_MIN - 1 overflows");
	ok(i64("9223372036854775807", &v) == DECIMAL_OK && v == INT64_MAX,
	    "INT64_MAX is taken");
	is_int(i64("9223372036854775808", &v), DECIMAL_OVERFLOW,
	    "INT64_MAX + 1 overflows");
	ok(i64("+9223372036854775807", &v) == DECIMAL_OK && v == INT64_MAX,
	    "a plus sign");
	is_int(i64("+9223372036854775808", &v), DECIMAL_OVERFLOW,
	    "a plus sign does not widen the bound");
	ok(i64("-0", &v) == DECIMAL_OK && v == 0, "-0 is 0");
	ok(i64("-17", &v) == DECIMAL_OK && v == -17, "-17");
	is_int(i64("-", &v), DECIMAL_NONE, "a sign alone");
	is_int(i64("+", &v), DECIMAL_NONE, "a plus alone");
	is_int(i64("--1", &v), DECIMAL_NONE, "two signs");
	is_int(i64("+-1", &v), DECIMAL_NONE, "two signs, mixed");
	is_int(i64(" -1", &v), DECIMAL_NONE, "a blank before the sign");
	is_int(i64("- 1", &v), DECIMAL_NONE, "a blank after the sign");
	is_int(i64("1-", &v), DECIMAL_NONE, "a sign after the digits");
	is_int(i64("", &v), DECIMAL_NONE, "empty");
}

static void
test_span(void)
{
	is_int(decimal_span("123abc", 6), 3, "span of 123abc");
	is_int(decimal_span("abc", 3), 0, "span of abc");
	is_int(decimal_span("123", 2), 2, "span bounded by n");
	is_int(decimal_span("", 0), 0, "span of nothing");
	is_int(decimal_span("4096", SIZE_MAX), 4, "span stops at the NUL");
	is_int(decimal_span("-1", 2), 0, "a sign is not a digit");
}

/* Random values of every length, printed by libc and read back. */
static void
test_random(void)
{
	uint64_t	 seed = 0x9e3779b97f4a7c15ULL, x, v;
	int64_t		 sv;
	char		 buf[32];
	int		 i, bad = 0, n;

	for (i = 0; i < 20000; i++) {
		x = tap_xorshift(&seed) >> (tap_xorshift(&seed) % 64);
		n = snprintf(buf, sizeof(buf), "%" PRIu64, x);
		if (decimal_u64(buf, (size_t)n, UINT64_MAX, &v) != DECIMAL_OK ||
		    v != x)
			bad++;
		if (decimal_u64(buf, (size_t)n, x - (x > 0), &v) !=
		    (x > 0 ? DECIMAL_OVERFLOW : DECIMAL_OK))
			bad++;
		n = snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)x);
		if (decimal_i64(buf, (size_t)n, &sv) != DECIMAL_OK ||
		    sv != (int64_t)x)
			bad++;
	}
	is_int(bad, 0, "20000 random values read back, and one over the bound");
}

int
main(void)
{
	test_u64();
	test_i64();
	test_span();
	test_random();
	return (tap_done());
}

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

#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cost.h"
#include "pattern.h"
#include "tap.h"

/*
 * The bounded regexes: POSIX extended syntax kept (the same answers as
 * glibc's regexec on the patterns users write), and the bombs that
 * crashed, grew or stalled a server with glibc each refused or stopped
 * within a fraction of a second.
 */

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/* Match with no budget: 1, 0, or a PATTERN_ERR_*; -9 if refused. */
static int
one(const char *re, const char *s)
{
	struct pattern	*pt;
	char		*cause = NULL;
	int		 r;

	if ((pt = pattern_create(re, &cause)) == NULL) {
		free(cause);
		return (-9);
	}
	r = pattern_match(pt, s, strlen(s), NULL, &cause);
	free(cause);
	pattern_free(pt);
	return (r);
}

int
main(void)
{
	/* Patterns in the syntax both engines share, and names. */
	static const char *const res[] = {
		"main", "^main$", "^ma", "in$", "a|b", "(foo|bar)+",
		"[[:digit:]]+", "[^a-z]", "std::.*<", "\\.c$", "[]x]",
		"[a-]", "x{2,3}", "^$", ".", "(ab)*c", "[[:space:]]",
		"\\(", "a.c", "[.]", "\\w+\\(", "^[A-Z][a-z]+::",
	};
	static const char *const names[] = {
		"main", "mainly", "domain", "foo", "barfoo", "f1", "123",
		"std::vector<int>", "x.c", "]", "-", "xx", "xxxx", "", "abc",
		"a\nb", "call(x)", "Foo::bar", "a-b", "ababc",
	};
	/* The bombs of glibc, on names of 50,000 characters. */
	static const char *const bombs[] = {
		"(.*){1,32767}", "(((.{255}){255}){255}){255}",
		"(.{0,255}){255}z", "(a|aa)*c", "(a+)+$b", "(a|aa)*(c|d)",
		"(a+)+($b|c)", "(.*a){20}z", "((a*)*)*b",
	};
	struct pattern	*pt;
	struct cost	 c;
	regex_t		 rx;
	char		*cause = NULL, *s, *longa, *longz;
	size_t		 i, j, bad = 0;
	double		 t0, t;
	int		 r, g;

	/* Translation of what POSIX and PCRE2 write differently. */
	s = pattern_translate("[\\]\\<x\\>\\`\\'[[:alpha:]\\]", NULL);
	is_str(s, "[\\\\]\\b(?=\\w)x\\b(?<=\\w)\\A\\z[[:alpha:]\\\\]",
	    "backslash in brackets, GNU anchors");
	free(s);
	ok(pattern_translate("(a)\\1", &cause) == NULL &&
	    strstr(cause, "back references") != NULL,
	    "back references refused: %s", cause);
	free(cause);
	cause = NULL;

	/* The same answers as glibc on the shared syntax. */
	for (i = 0; i < sizeof res / sizeof res[0]; i++) {
		if (regcomp(&rx, res[i], REG_EXTENDED | REG_NOSUB) != 0) {
			ok(0, "glibc compiles %s", res[i]);
			continue;
		}
		for (j = 0; j < sizeof names / sizeof names[0]; j++) {
			g = regexec(&rx, names[j], 0, NULL, 0) == 0;
			if ((r = one(res[i], names[j])) != g) {
				diag("%s on \"%s\": %d, glibc %d", res[i],
				    names[j], r, g);
				bad++;
			}
		}
		regfree(&rx);
	}
	is_int(bad, 0, "%zu patterns x %zu names as glibc answers",
	    sizeof res / sizeof res[0], sizeof names / sizeof names[0]);
	ok(one("\\<main\\>", "int main(void)") == 1 &&
	    one("\\<main\\>", "domain") == 0, "\\< and \\> are word edges");
	ok(one("[\\]", "a\\b") == 1 && one("[\\]", "ab") == 0,
	    "[\\] is a backslash");

	/* Refused at compile time. */
	if ((s = malloc(PATTERN_MAX_LEN + 2)) == NULL)
		return (1);
	memset(s, 'a', PATTERN_MAX_LEN + 1);
	s[PATTERN_MAX_LEN + 1] = '\0';
	ok(pattern_create(s, &cause) == NULL && strstr(cause, "longer"),
	    "a pattern over %d bytes: %s", PATTERN_MAX_LEN, cause);
	free(cause);
	cause = NULL;
	free(s);
	if ((s = malloc(2 * 40 + 2)) == NULL)
		return (1);
	memset(s, '(', 40);
	s[40] = 'a';
	memset(s + 41, ')', 40);
	s[81] = '\0';
	ok(pattern_create(s, &cause) == NULL, "40 nested groups: %s", cause);
	free(cause);
	cause = NULL;
	free(s);
	ok(pattern_create("(", &cause) == NULL && strstr(cause, "bad regex"),
	    "a syntax error: %s", cause);
	free(cause);
	cause = NULL;

	/*
	 * The bombs: refused, or stopped by the match limits, not by the
	 * query's deadline (60 s here: a bound for a hang only). How long
	 * each took is a figure of the machine, printed, not checked.
	 */
	if ((longa = malloc(50001)) == NULL || (longz = malloc(50002)) ==
	    NULL)
		return (1);
	memset(longa, 'a', 50000);
	longa[50000] = '\0';
	memcpy(longz, longa, 50000);
	longz[50000] = 'z';
	longz[50001] = '\0';
	for (i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
		t0 = now();
		if ((pt = pattern_create(bombs[i], &cause)) == NULL) {
			ok(1, "%s refused: %s", bombs[i], cause);
			diag("  in %.3f s", now() - t0);
			free(cause);
			cause = NULL;
			continue;
		}
		cost_init(&c, 0, 60000);
		r = pattern_match(pt, longa, 35, &c, &cause);
		if (r >= 0)
			r = pattern_match(pt, longz, 50001, &c, &cause);
		t = now() - t0;
		ok(r >= PATTERN_ERR_LIMIT, "%s on 50,000 characters: %d%s%s",
		    bombs[i], r, cause ? ": " : "", cause ? cause : "");
		diag("  in %.3f s", t);
		free(cause);
		cause = NULL;
		pattern_free(pt);
	}

	/*
	 * The budget: every match charged and the clock read after each,
	 * so a slow pattern on many names stops at the deadline. The
	 * clock is the test hook's (DEEPQ_TEST_CLOCK): 10 ms a reading,
	 * cost_init reads it twice, so a 200 ms budget is over at the
	 * 20th match; read every COST_CLOCK_EVERY units instead, it would
	 * run past 1,000.
	 */
	if ((pt = pattern_create("^(.*a){3}(b|$c)", &cause)) == NULL)
		return (1);
#ifdef TESTHOOK_ENABLED
	setenv("DEEPQ_TEST_CLOCK", "10", 1);
	cost_init(&c, 0, 200);
	for (i = 0, r = 0; i < 100000 && r >= 0; i++)
		r = pattern_match(pt, longa, 35, &c, &cause);
	unsetenv("DEEPQ_TEST_CLOCK");
	ok(r == PATTERN_ERR_BUDGET && i == 20, "200 ms budget over slow "
	    "matches: stopped at the deadline, after %zu (%d: %s)", i, r,
	    cause ? cause : "");
#else
	ok(0, "the budget's clock needs ./configure --enable-test-hooks");
#endif
	free(cause);
	cause = NULL;
	cost_init(&c, 100, 0);
	for (i = 0, r = 0; i < 1000 && r >= 0; i++)
		r = pattern_match(pt, "abc", 3, &c, &cause);
	ok(r == PATTERN_ERR_BUDGET && i == 101, "100 units: %zu matches",
	    i);
	free(cause);
	pattern_free(pt);
	free(longa);
	free(longz);
	return (tap_done());
}

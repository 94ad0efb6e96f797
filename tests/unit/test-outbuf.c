/*
 * The output buffer (common/outbuf.c) in both its kinds: a body that grows
 * and is taken as a string, and a sink that flushes to a callback or a
 * file descriptor; random writes of every size across the edges against
 * a reference copy, the deadline check's period and its failure, printf
 * and the number formatters against libc.
 */

#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outbuf.h"
#include "tap.h"

/* What a sink was given, and when it should fail. */
struct got {
	char	*b;
	size_t	 n, cap;
	int	 calls, fail_at;
};

static int
sink(void *arg, const void *p, size_t len)
{
	struct got	*g = arg;

	if (++g->calls == g->fail_at)
		return (-1);
	if (g->n + len > g->cap) {
		g->cap = (g->n + len) * 2;
		if ((g->b = realloc(g->b, g->cap)) == NULL)
			abort();
	}
	memcpy(g->b + g->n, p, len);
	g->n += len;
	return (0);
}

static int	 checks, check_fail_at;

static int
check(void *arg)
{
	(void)arg;
	return (++checks == check_fail_at ? -1 : 0);
}

/* Random pieces of random sizes, some larger than a sink's buffer. */
static size_t
scribble(struct outbuf *ob, char *ref, size_t max, uint64_t *seed)
{
	size_t		 n = 0, len, i;
	uint64_t	 v;
	char		 c;

	while (n < max) {
		switch (tap_xorshift(seed) % 5) {
		case 0:
			len = tap_xorshift(seed) % 3 == 0 ?
			    tap_xorshift(seed) % (3 * OUTBUF_SIZE) :
			    tap_xorshift(seed) % 100;
			if (len > max - n)
				len = max - n;
			for (i = 0; i < len; i++)
				ref[n + i] = (char)('a' + (n + i) % 26);
			outbuf_write(ob, ref + n, len);
			n += len;
			break;
		case 1:
			c = (char)('A' + tap_xorshift(seed) % 26);
			ref[n++] = c;
			outbuf_putc(ob, c);
			break;
		case 2:
			if (max - n < 40)
				break;
			v = tap_xorshift(seed);
			n += (size_t)snprintf(ref + n, 40, "<%" PRIu64 ">", v);
			outbuf_printf(ob, "<%" PRIu64 ">", v);
			break;
		default:
			if (max - n < 25)
				break;
			v = tap_xorshift(seed);
			n += (size_t)snprintf(ref + n, 25, "%" PRId64,
			    (int64_t)v);
			outbuf_i64(ob, (int64_t)v);
			break;
		}
	}
	return (n);
}

static void
test_body(void)
{
	struct outbuf	 ob;
	uint64_t	 seed = 42;
	size_t		 max = 600000, n, len;
	char		*ref, *s;
	int		 round, bad = 0;

	if ((ref = malloc(max + 64)) == NULL)
		abort();
	for (round = 0; round < 20; round++) {
		outbuf_init(&ob);
		n = scribble(&ob, ref, tap_xorshift(&seed) % max, &seed);
		is_int(outbuf_len(&ob), n, "body %d: %zu bytes counted", round,
		    n);
		if ((s = outbuf_take(&ob, &len)) == NULL || len != n ||
		    memcmp(s, ref, n) != 0 || s[n] != '\0')
			bad++;
		free(s);
	}
	ok(bad == 0, "a body holds what was written, NUL-terminated");

	outbuf_init(&ob);
	s = outbuf_take(&ob, &len);
	ok(s != NULL && len == 0 && *s == '\0', "an empty body is \"\"");
	free(s);

	outbuf_init(&ob);
	outbuf_printf(&ob, "%s", "");
	outbuf_printf(&ob, "%0300d|%s", 7, "x");
	s = outbuf_take(&ob, &len);
	ok(s != NULL && len == 302 && s[299] == '7' && strcmp(s + 300, "|x")
	    == 0, "a printf longer than its first try");
	free(s);

	outbuf_init(&ob);
	outbuf_i64(&ob, INT64_MIN);
	outbuf_putc(&ob, ' ');
	outbuf_u64(&ob, UINT64_MAX);
	outbuf_putc(&ob, ' ');
	outbuf_i64(&ob, 0);
	s = outbuf_take(&ob, &len);
	is_str(s, "-9223372036854775808 18446744073709551615 0",
	    "the number formatters' edges");
	free(s);

	outbuf_init(&ob);
	outbuf_puts(&ob, "lost");
	outbuf_fail(&ob);
	outbuf_puts(&ob, "more");
	ok(outbuf_failed(&ob) == -1 && outbuf_take(&ob, &len) == NULL,
	    "a failed body gives nothing");
	free(ref);
}

static void
test_sink(void)
{
	struct outbuf	 ob;
	struct got	 g;
	uint64_t	 seed = 7;
	size_t		 max = 900000, n;
	char		*ref;
	int		 round, bad = 0, fds[2];
	char		 buf[64];
	ssize_t		 k;

	if ((ref = malloc(max + 64)) == NULL)
		abort();
	for (round = 0; round < 10; round++) {
		memset(&g, 0, sizeof g);
		outbuf_init_sink(&ob, sink, &g);
		n = scribble(&ob, ref, tap_xorshift(&seed) % max, &seed);
		if (outbuf_flush(&ob) == -1 || g.n != n ||
		    memcmp(g.b, ref, n) != 0 || outbuf_len(&ob) != n)
			bad++;
		outbuf_clear(&ob);
		free(g.b);
	}
	ok(bad == 0, "a sink is given what was written, in order");

	memset(&g, 0, sizeof g);
	g.fail_at = 2;
	outbuf_init_sink(&ob, sink, &g);
	scribble(&ob, ref, 4 * OUTBUF_SIZE, &seed);
	ok(outbuf_flush(&ob) == -1 && g.calls == 2,
	    "a sink's failure fails the buffer, and it stops calling");
	outbuf_clear(&ob);
	free(g.b);

	if (pipe(fds) == -1)
		abort();
	outbuf_init_fd(&ob, fds[1]);
	outbuf_puts(&ob, "through ");
	outbuf_printf(&ob, "a pipe %d", 1);
	ok(outbuf_flush(&ob) == 0, "an fd sink flushes");
	close(fds[1]);
	k = read(fds[0], buf, sizeof buf - 1);
	buf[k > 0 ? k : 0] = '\0';
	is_str(buf, "through a pipe 1", "an fd sink writes to its fd");
	close(fds[0]);
	outbuf_clear(&ob);

	if (pipe(fds) == -1)
		abort();
	close(fds[0]);
	outbuf_init_fd(&ob, fds[1]);
	outbuf_puts(&ob, "nobody reads");
	ok(outbuf_flush(&ob) == -1, "a write error is a failure");
	close(fds[1]);
	outbuf_clear(&ob);
	free(ref);
}

static void
test_check(void)
{
	struct outbuf	 ob;
	struct got	 g;
	size_t		 i, len;
	char		*s;

	/* Small writes: the check comes every OUTBUF_CHECK bytes. */
	checks = 0;
	check_fail_at = 0;
	outbuf_init(&ob);
	outbuf_check(&ob, check, NULL);
	for (i = 0; i < 10 * OUTBUF_CHECK; i++)
		outbuf_putc(&ob, 'x');
	is_int(checks, 9, "a body's check every %d bytes", OUTBUF_CHECK);
	s = outbuf_take(&ob, &len);
	ok(s != NULL && len == 10 * OUTBUF_CHECK, "and it keeps them all");
	free(s);

	checks = 0;
	memset(&g, 0, sizeof g);
	outbuf_init_sink(&ob, sink, &g);
	outbuf_check(&ob, check, NULL);
	for (i = 0; i < 10 * OUTBUF_CHECK / 8; i++)
		outbuf_write(&ob, "abcdefgh", 8);
	outbuf_flush(&ob);
	is_int(checks, 9, "a sink's check as often");
	ok(g.n == 10 * OUTBUF_CHECK, "and all reach the sink");
	outbuf_clear(&ob);
	free(g.b);

	/* The check's -1 stops the body where it is. */
	checks = 0;
	check_fail_at = 3;
	outbuf_init(&ob);
	outbuf_check(&ob, check, NULL);
	for (i = 0; i < 10 * OUTBUF_CHECK; i++)
		outbuf_putc(&ob, 'x');
	is_int(checks, 3, "no check after the failing one");
	ok(outbuf_failed(&ob) == -1 && outbuf_take(&ob, &len) == NULL,
	    "a body past its deadline gives nothing");
}

/* A most: the write that would pass it fails the body, at once. */
static void
test_max(void)
{
	struct outbuf	 ob;
	size_t		 len, i;
	char		*b;

	outbuf_init(&ob);
	outbuf_max(&ob, 100000);
	for (i = 0; i < 100000; i++)
		outbuf_putc(&ob, 'x');
	ok(outbuf_failed(&ob) == 0 && outbuf_len(&ob) == 100000,
	    "exactly the most is fine");
	outbuf_putc(&ob, 'y');
	ok(outbuf_failed(&ob) == -1 && outbuf_too_large(&ob),
	    "one byte more fails it as too large");
	ok(ob.cap <= 131072, "the buffer never grew past the most (%zu)",
	    ob.cap);
	ok(outbuf_take(&ob, &len) == NULL, "and it gives nothing");

	outbuf_init(&ob);
	outbuf_max(&ob, 1000);
	outbuf_printf(&ob, "%0999d", 7);
	outbuf_write(&ob, "ab", 2);
	ok(outbuf_too_large(&ob) && outbuf_len(&ob) == 999,
	    "a write that would pass it is not made at all");
	outbuf_clear(&ob);

	outbuf_init(&ob);
	outbuf_max(&ob, 1 << 20);
	outbuf_write(&ob, "abc", 3);
	outbuf_fail_size(&ob);
	ok(outbuf_too_large(&ob), "a writer may refuse in advance");
	outbuf_clear(&ob);

	/* The check's failure is not a size. */
	outbuf_init(&ob);
	outbuf_max(&ob, 10);
	outbuf_fail(&ob);
	outbuf_write(&ob, "0123456789abc", 13);
	ok(outbuf_failed(&ob) == -1 && !outbuf_too_large(&ob),
	    "a failed body stays failed for its first reason");
	outbuf_clear(&ob);
	outbuf_init(&ob);
	for (i = 0; i < 3 * OUTBUF_MIN; i++)
		outbuf_putc(&ob, 'z');
	outbuf_max(&ob, OUTBUF_MIN);
	ok(outbuf_too_large(&ob), "a most below what is held fails at once");
	b = outbuf_take(&ob, &len);
	ok(b == NULL, "...and gives nothing");
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_body();
	test_sink();
	test_check();
	test_max();
	return (tap_done());
}

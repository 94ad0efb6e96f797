/*
 * The ClickHouse client's SQL text: clickhouse_quote() on hostile
 * and random bytes (read back by ClickHouse's escape rules, the literal
 * gives exactly the input, holds only printable ASCII and no quote that
 * could end it early), names,
 * times, durations and URLs. With "quote FILE...", a helper: each
 * file's literal and its bytes in hex, which the clickhouse integration
 * test sends to a real server.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clickhouse.h"
#include "outbuf.h"
#include "tap.h"

/*
 * ClickHouse's reading of a quoted literal (readQuotedString: backslash
 * escapes \\ \' \xHH \n \t \0..., '' for a quote): the bytes, or -1 if
 * the literal ends before its last byte or is malformed.
 */
static int
unquote(const char *q, size_t n, char *out, size_t *outlen)
{
	size_t	 i, o = 0;
	int	 v;

	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		return (-1);
	for (i = 1; i < n - 1; i++) {
		if (q[i] == '\'')
			return (-1);	/* ends early: the rest is SQL */
		if ((unsigned char)q[i] < 0x20 || (unsigned char)q[i] >= 0x7f)
			return (-1);
		if (q[i] != '\\') {
			out[o++] = q[i];
			continue;
		}
		if (++i >= n - 1)
			return (-1);
		if (q[i] == 'x') {
			if (i + 2 >= n - 1 || sscanf(q + i + 1, "%2x", &v) != 1)
				return (-1);
			out[o++] = (char)v;
			i += 2;
		} else if (q[i] == '\\' || q[i] == '\'')
			out[o++] = q[i];
		else
			return (-1);
	}
	*outlen = o;
	return (0);
}

/* The literal of len bytes at s, NUL-terminated; NULL if out of memory. */
static char *
quote(const char *s, size_t len, size_t *n)
{
	struct outbuf	 ob;

	outbuf_init(&ob);
	clickhouse_quote(&ob, s, len);
	return (outbuf_take(&ob, n));
}

static int
roundtrip(const char *s, size_t len)
{
	char	 out[4096], *q;
	size_t	 olen = 0, n;
	int	 r;

	if ((q = quote(s, len, &n)) == NULL)
		return (0);
	r = n == strlen(q) && unquote(q, n, out, &olen) == 0 && olen == len &&
	    memcmp(out, s, len) == 0;
	free(q);
	return (r);
}

/*
 * "quote FILE...": for each file, its bytes' literal, a tab and the
 * bytes in lower-case hex, a line each (a literal holds no newline).
 */
static int
quote_files(int argc, char **argv)
{
	char	 buf[65536], *q;
	size_t	 n, i;
	FILE	*f;
	int	 k;

	for (k = 0; k < argc; k++) {
		if ((f = fopen(argv[k], "rb")) == NULL)
			return (1);
		n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		if ((q = quote(buf, n, &i)) == NULL ||
		    fwrite(q, 1, i, stdout) != i)
			return (1);
		free(q);
		putchar('\t');
		for (i = 0; i < n; i++)
			printf("%02x", (unsigned char)buf[i]);
		putchar('\n');
	}
	return (fflush(stdout) == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	static const char *const hostile[] = {
		"", "'", "\\", "\\'", "'\\", "''", "x' OR 1=1 --",
		"'; DROP TABLE prof; --", "\\'; DROP TABLE prof; --",
		"a\nb\rc\td", "/* c */", "-- c", "\xff\xfe invalid utf-8",
		"\xe2\x80\x8b zero width", "%27%3B", "{name:String}",
		"`backquoted`", "\"double\"",
	};
	struct outbuf		 ob;
	struct clickhouse	*ch;
	char			 s[256], *cause = NULL, *q;
	uint64_t		 seed = 0x2545f4914f6cdd1dULL;
	size_t			 i, j, len;
	time_t			 t;
	long long		 d;
	int			 bad = 0;

	if (argc >= 2 && strcmp(argv[1], "quote") == 0)
		return (quote_files(argc - 2, argv + 2));

	for (i = 0; i < sizeof hostile / sizeof hostile[0]; i++)
		ok(roundtrip(hostile[i], strlen(hostile[i])),
		    "quote: hostile %zu round-trips and stays one literal", i);
	ok(roundtrip("a\0b", 3), "quote: a NUL byte");
	for (i = 0; i < 100000; i++) {
		len = tap_xorshift(&seed) % sizeof s;
		for (j = 0; j < len; j++) {
			/* Half the bytes from the dangerous few. */
			if (tap_xorshift(&seed) & 1)
				s[j] = "'\\\n\0;-/*x%"[tap_xorshift(&seed) %
				    10];
			else
				s[j] = (char)tap_xorshift(&seed);
		}
		if (!roundtrip(s, len))
			bad++;
	}
	is_int(bad, 0, "quote: 100000 random strings round-trip");
	q = quote("it's", 4, &len);
	is_str(q, "'it\\'s'", "quote: a quote gets a backslash");
	free(q);
	outbuf_init(&ob);
	clickhouse_urlencode(&ob, "INSERT INTO t FORMAT RowBinary&x=1");
	q = outbuf_take(&ob, &len);
	is_str(q, "INSERT%20INTO%20t%20FORMAT%20RowBinary%26x%3D1",
	    "urlencode");
	free(q);

	ok(clickhouse_name_ok("prof") && clickhouse_name_ok("_x9"),
	    "names: plain");
	ok(!clickhouse_name_ok("") && !clickhouse_name_ok("9x") &&
	    !clickhouse_name_ok("a.b") && !clickhouse_name_ok("a b") &&
	    !clickhouse_name_ok("a;drop") && !clickhouse_name_ok("t`") &&
	    !clickhouse_name_ok("\xc3\xa9t\xc3\xa9") &&
	    !clickhouse_name_ok("a123456789012345678901234567890123456789"
	    "012345678901234567890123456789"), "names: refused");

	ok(clickhouse_time_parse("2026-11-25T10:00:00Z", &t) == 0 &&
	    t == 1795600800, "time: UTC");
	ok(clickhouse_time_parse("2026-11-25T12:00:00+02:00", &t) == 0 &&
	    t == 1795600800, "time: an offset");
	ok(clickhouse_time_parse("2026-11-25 10:00", &t) == 0 &&
	    t == 1795600800, "time: a space, no seconds");
	ok(clickhouse_time_parse("2026-11-25", &t) == 0 && t == 1795564800,
	    "time: a date");
	ok(clickhouse_time_parse("@1795600800", &t) == 0 && t == 1795600800,
	    "time: @seconds");
	ok(clickhouse_time_parse("2026-13-01", &t) == -1 &&
	    clickhouse_time_parse("2026-11-25T10:00:00Zjunk", &t) == -1 &&
	    clickhouse_time_parse("yesterday", &t) == -1 &&
	    clickhouse_time_parse("@-1", &t) == -1 &&
	    clickhouse_time_parse("1969-12-31", &t) == -1,
	    "time: refused");
	ok(clickhouse_duration_parse("90", &d) == 0 && d == 90 &&
	    clickhouse_duration_parse("15m", &d) == 0 && d == 900 &&
	    clickhouse_duration_parse("2h", &d) == 0 && d == 7200 &&
	    clickhouse_duration_parse("7d", &d) == 0 && d == 604800,
	    "durations");
	ok(clickhouse_duration_parse("-1", &d) == -1 &&
	    clickhouse_duration_parse("1w", &d) == -1 &&
	    clickhouse_duration_parse("", &d) == -1 &&
	    clickhouse_duration_parse("99999999999999d", &d) == -1,
	    "durations: refused");

	ok((ch = clickhouse_create("http://127.0.0.1:8123/", NULL)) != NULL,
	    "url: host and port");
	clickhouse_free(ch);
	ok((ch = clickhouse_create("http://[::1]/ch/", NULL)) != NULL,
	    "url: IPv6, default port, a path");
	clickhouse_free(ch);
	ok(clickhouse_create("https://h/", &cause) == NULL && cause != NULL,
	    "url: https refused: %s", cause);
	free(cause);
	cause = NULL;
	ok(clickhouse_create("http://u:p@h/", &cause) == NULL,
	    "url: credentials refused: %s", cause);
	free(cause);
	ok(clickhouse_create("http://h/?query=DROP", NULL) == NULL &&
	    clickhouse_create("http://h:99999999/", NULL) == NULL &&
	    clickhouse_create("http://h/a b", NULL) == NULL &&
	    clickhouse_create("http:///", NULL) == NULL,
	    "url: a query, bad port, space, no host refused");
	return (tap_done());
}

/*
 * Readers on bad input: every case must give a clear error (with a line
 * number where there is one), never a crash. Truncations of a good trace
 * at every byte must load or fail cleanly.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "profile.h"
#include "reader.h"
#include "strpool.h"
#include "tap.h"

static void
refused(const char *data, size_t len, const char *format, const char *want,
    const char *what)
{
	struct input	*in = input_memory(data, len);
	struct profile	*p;
	char		*cause = NULL;

	p = reader_load_input(in, format, NULL, &cause);
	ok(p == NULL && cause != NULL && (want == NULL ||
	    strstr(cause, want) != NULL), "%s", what);
	if (cause != NULL)
		diag("cause: %s", cause);
	profile_free(p);
	free(cause);
	input_free(in);
}

/* A folded profile from memory, or NULL with the cause in diag. */
static struct profile *
folded(const char *data, size_t len)
{
	struct input	*in = input_memory(data, len);
	struct profile	*p;
	char		*cause = NULL;

	p = reader_load_input(in, "folded", NULL, &cause);
	if (p == NULL)
		diag("cause: %s", cause ? cause : "?");
	free(cause);
	input_free(in);
	return (p);
}

/* Whether two profiles have the same nodes, functions and values. */
static int
same(const struct profile *p, const struct profile *q)
{
	uint32_t	 i;

	if (p == NULL || q == NULL || p->nnodes != q->nnodes ||
	    p->nfuncs != q->nfuncs || p->nmetrics != q->nmetrics ||
	    memcmp(p->node_parent, q->node_parent, p->nnodes * 4) != 0 ||
	    memcmp(p->node_func, q->node_func, p->nnodes * 4) != 0)
		return (0);
	for (i = 0; i < p->nmetrics; i++) {
		if (memcmp(p->metrics[i].self, q->metrics[i].self,
		    p->nnodes * 8) != 0)
			return (0);
	}
	for (i = 0; i < p->nfuncs; i++) {
		if (strcmp(strpool_get(p->strings, p->func_name[i]),
		    strpool_get(q->strings, q->func_name[i])) != 0 ||
		    strcmp(strpool_get(p->strings, p->func_module[i]),
		    strpool_get(q->strings, q->func_module[i])) != 0)
			return (0);
	}
	return (1);
}

/* Whether a folded text loads as the same profile as another. */
static void
loads_as(const char *a, const char *b, const char *what)
{
	struct profile	*p = folded(a, strlen(a)), *q = folded(b, strlen(b));

	ok(same(p, q), "%s", what);
	profile_free(p);
	profile_free(q);
}

/*
 * NUL bytes, last lines without a newline, CRLF, counts of every length
 * up to the overflow: the single-pass scans and the word-at-a-time count
 * of the folded reader.
 */
static void
folded_edges(void)
{
	static const struct {
		const char	*line;
		int64_t		 v;
	} counts[] = {
		{ "a 0\n", 0 }, { "a 7\n", 7 }, { "a 0000042\n", 42 },
		{ "a 1234567\n", 1234567 }, { "a 9999999\n", 9999999 },
		{ "a 12345678\n", 12345678 }, { "a 99999999\n", 99999999 },
		{ "a\t305419896\n", 305419896 },
		{ "longer_name_2169 4321\n", 4321 },
		{ "x;y;zz 1 2\n", 2 },
		{ "x 999999999999999999\n", 999999999999999999LL },
		{ "x 9223372036854775807\n", INT64_MAX },
		{ "x 2.5\n", 3 }, { "x 1\r\n", 1 }, { "abcdefghijk 77", 77 },
	};
	static const char *nul[] = {
		"a\0b;c 1\n",
		"a;b 1\na;b\0 1\n",
		"a;b 1\na;b;c\0d 1\n",
		"main;function_name\0_more 1\n",
		"main;function_name_more\0 1\n",
		"abcdefgh;ijklmnop 1\nabcdefgh;ijklmnop;\0 1\n",
		"a;mod`fu\0nc 1\n",
		"a;b 1\0\n",
		"a;b 1\na;b 12345\0\n",
		"a;b \0 1\n",
	};
	struct profile	*p;
	size_t		 i, len;

	for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		p = folded(counts[i].line, strlen(counts[i].line));
		ok(p != NULL && p->metrics[0].sum == counts[i].v,
		    "count of \"%.*s\"", (int)strcspn(counts[i].line, "\r\n"),
		    counts[i].line);
		profile_free(p);
	}
	refused("x 9223372036854775808\n", 22, "folded", "overflows",
	    "a count of 2^63 overflows");
	refused("x 18446744073709551616\n", 23, "folded", "overflows",
	    "a count of 2^64 overflows");
	refused("a;b 1\nx 99999999999999999999.5\n", 31, "folded",
	    "line 2: count overflows", "a decimal count overflows");

	for (i = 0; i < sizeof nul / sizeof nul[0]; i++) {
		/* The strings hold a NUL: their length is up to the '\n'. */
		len = strlen(nul[i]);
		len += strlen(nul[i] + len + 1) + 1;
		refused(nul[i], len, "folded", "NUL byte", "a NUL byte");
	}
	refused("a;b 1\nabcdefgh\0ijklmnop 2\n", 26, "folded",
	    "line 2: NUL byte", "a NUL byte in a long name, on its line");

	loads_as("a;b 1\na;c 2", "a;b 1\na;c 2\n",
	    "a last line without a newline");
	loads_as("a;b 1\r\na;c 2\r\na;c;d 3\r\n", "a;b 1\na;c 2\na;c;d 3\n",
	    "CRLF lines as LF lines");
	loads_as("a;b 1\r\na;c 2", "a;b 1\na;c 2\n",
	    "CRLF, then a last line without a newline");
	loads_as("abcdefghij;klmnopqrst 1\nabcdefghij;klmnopqrsu 2\n"
	    "abcdefghij;klmnopqrst 3\nabcdefghij;klmnopqrst;uv 4\n"
	    "abcdefghij;klmnopqrst 5\n",
	    "abcdefghij;klmnopqrst 1\nabcdefghij;klmnopqrst 3\n"
	    "abcdefghij;klmnopqrst 5\nabcdefghij;klmnopqrsu 2\n"
	    "abcdefghij;klmnopqrst;uv 4\n",
	    "names alike in their first and last words");
	/* Functions <root>, a, b`x, c, c`y, b`x`z (module b, name x`z). */
	p = folded("a;b`x;c 1\na;b`x;c`y 2\na;b`x`z;c 3\n", 33);
	ok(p != NULL && p->nnodes == 7 && p->nfuncs == 6 &&
	    strcmp(strpool_get(p->strings, p->func_name[5]), "x`z") == 0 &&
	    strcmp(strpool_get(p->strings, p->func_module[5]), "b") == 0,
	    "module frames");
	profile_free(p);
}

/*
 * Lines straddling the refills of a file read in blocks: the line before
 * each is compared in the buffer, which a refill moves. The file loads
 * as the same profile as its bytes in memory.
 */
static void
folded_refill(void)
{
	struct input	*in;
	struct profile	*p, *q;
	char		 path[] = "/tmp/test-readers.XXXXXX", *data, *cause;
	size_t		 len = 0, cap = 6 * INPUT_BLOCK, i, k;
	FILE		*fp;
	int		 fd;

	if ((data = malloc(cap)) == NULL)
		return;
	/* Long shared prefixes, a few very long lines, comments. */
	for (i = 0; len + INPUT_BLOCK / 2 < cap; i++) {
		if (i % 5000 == 4999) {
			k = INPUT_BLOCK / 3 + i % 1000;
			len += snprintf(data + len, cap - len, "root;");
			memset(data + len, 'L', k);
			len += k;
			len += snprintf(data + len, cap - len, ";x%zu 1\n",
			    i % 7);
			continue;
		}
		if (i % 997 == 0)
			len += snprintf(data + len, cap - len,
			    "# comment %zu\n\n", i);
		len += snprintf(data + len, cap - len,
		    "root;%.*s;frame_%zu;leaf_%zu %zu%s", (int)(i % 40),
		    "a_rather_long_shared_frame_name_repeated", i / 13 % 50,
		    i % 11, i % 9 + 1, i % 3 == 0 ? "\r\n" : "\n");
	}
	fd = mkstemp(path);
	if (fd == -1 || (fp = fdopen(fd, "w")) == NULL) {
		ok(0, "temporary file");
		free(data);
		return;
	}
	fwrite(data, 1, len, fp);
	fclose(fp);
	cause = NULL;
	p = reader_load(path, "folded", NULL, &cause);
	if (p == NULL)
		diag("cause: %s", cause);
	free(cause);
	in = input_memory(data, len);
	cause = NULL;
	q = reader_load_input(in, "folded", NULL, &cause);
	free(cause);
	input_free(in);
	ok(p != NULL && same(p, q), "%zu MB read in 1 MB blocks loads as "
	    "in memory", len >> 20);
	profile_free(p);
	profile_free(q);
	unlink(path);
	free(data);
}

int
main(void)
{
	static const char trace[] = "# deepq-trace 1\ncall 0 f\ncall 10 g\n"
	    "return 30 g\ncall 40 h\nreturn 50\nreturn 90 f\n";
	struct input	*in;
	struct profile	*p;
	char		*big, *cause;
	size_t		 i, n, clean = 0;
	unsigned char	 garbage[4096];

	refused("", 0, NULL, "empty", "empty file");
	refused("\n\n# only comments\n", 18, "folded", "no stacks",
	    "no stacks");
	for (i = 0; i < sizeof garbage; i++)
		garbage[i] = (unsigned char)(i * 7919 + 13);
	refused((char *)garbage, sizeof garbage, NULL, NULL, "binary garbage");
	refused((char *)garbage, sizeof garbage, "folded", NULL,
	    "binary garbage as folded");
	refused("a;b 5\na;c -3\n", 13, "folded", "line 2: negative",
	    "negative count");
	refused("a;b 99999999999999999999\n", 25, "folded", "overflows",
	    "overflowing count");
	refused("a;b 9223372036854775807\nc 1\n", 28, "folded", "overflow",
	    "overflowing total");
	refused("a;b 5\na;b\n", 10, "folded", "line 2: no count",
	    "line without a count");
	refused("a;b 5\n 7\n", 9, "folded", "line 2: no stack",
	    "count without a stack");
	refused("a;b 1\na\0b 2\n", 12, "folded", "NUL", "NUL byte");
	folded_edges();
	folded_refill();

	n = 1024 * 1024 + 10;
	if ((big = malloc(n)) != NULL) {
		memset(big, 'x', n);
		memcpy(big + n - 3, " 1\n", 3);
		in = input_memory(big, n);
		cause = NULL;
		p = reader_load_input(in, "folded", NULL, &cause);
		ok(p != NULL, "a 1 MB line loads (one frame of a million "
		    "bytes)");
		profile_free(p);
		free(cause);
		input_free(in);
		big[n - 3] = 'x';
		refused(big, n, "folded", "line 1: no count",
		    "a 1 MB line without a count");
		free(big);
	}
	n = 5 * 1024 * 1024;
	if ((big = malloc(n)) != NULL) {
		memset(big, 'y', n);
		refused(big, n, "folded", "longer than",
		    "a 5 MB line is over the limit");
		free(big);
	}

	refused("# deepq-trace 1\nreturn 5\n", 25, NULL,
	    "line 2: return without a call", "trace: return without call");
	refused("# deepq-trace 1\ncall 5 f\ncall 3 g\n", 34, NULL,
	    "line 3: tick goes backwards", "trace: time going backwards");
	refused("# deepq-trace 1\ncall 5 f\nreturn 6 g\n", 36, NULL,
	    "does not match", "trace: mismatched return");
	refused("# deepq-trace 1\njump 5 f\n", 25, NULL, "expected",
	    "trace: unknown event");
	refused("# deepq-trace 1\ncall x f\n", 25, NULL, "expected",
	    "trace: bad tick");
	refused("# deepq-trace 1\n", 16, NULL, "no events", "trace: empty");

	for (i = 0; i < sizeof trace - 1; i++) {
		in = input_memory(trace, i);
		cause = NULL;
		p = reader_load_input(in, NULL, NULL, &cause);
		if (p != NULL || cause != NULL)
			clean++;
		profile_free(p);
		free(cause);
		input_free(in);
	}
	is_int(clean, sizeof trace - 1, "every truncation of a trace loads "
	    "or fails with a cause");

	cause = NULL;
	p = reader_load("/nonexistent/profile", NULL, NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "No such file"),
	    "missing file");
	free(cause);
	cause = NULL;
	p = reader_load("/", NULL, NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "not a regular file"),
	    "a directory is refused");
	free(cause);
	return (tap_done());
}

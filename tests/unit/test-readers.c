/*
 * Readers on bad input: every case must give a clear error (with a line
 * number where there is one), never a crash. Truncations of a good trace
 * at every byte must load or fail cleanly.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "reader.h"
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

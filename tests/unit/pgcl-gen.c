/*
 * pgcl-gen KIND [PARAM]: write a generated Clean callgraph profile to
 * standard output (kinds in pgcl-encode.c), and its expected totals to
 * standard error as "ticks=N words=N ... entries=N depth=N".
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "pgcl-encode.h"

int
main(int argc, char **argv)
{
	struct pgcl_buf		 b = { 0 };
	struct pgcl_totals	 t;
	uint64_t		 param = 0;
	char			*end;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: pgcl-gen normal|v1|deep|modules|leb128|"
		    "large [param]\n");
		return (1);
	}
	if (argc == 3) {
		param = strtoull(argv[2], &end, 10);
		if (*argv[2] == '\0' || *end != '\0') {
			fprintf(stderr, "pgcl-gen: bad parameter: %s\n",
			    argv[2]);
			return (1);
		}
	}
	if (pgcl_generate(argv[1], param, &b, &t) == -1) {
		fprintf(stderr, "pgcl-gen: unknown kind: %s\n", argv[1]);
		return (1);
	}
	if (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
		perror("pgcl-gen");
		return (1);
	}
	fprintf(stderr, "ticks=%llu words=%llu tail=%llu strict=%llu lazy=%llu "
	    "curried=%llu entries=%llu depth=%u\n", (unsigned long long)t.ticks,
	    (unsigned long long)t.words, (unsigned long long)t.tail,
	    (unsigned long long)t.strict, (unsigned long long)t.lazy,
	    (unsigned long long)t.curried, (unsigned long long)t.entries,
	    t.depth);
	pgcl_buf_free(&b);
	return (0);
}

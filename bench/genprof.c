/*
 * genprof: a synthetic profile generator for benchmarks.
 *
 *	genprof [-s shape] [-n nodes] [-S seed] [-o order]
 *
 * Writes folded stacks to standard output: one line per call node of a
 * random calling-context tree of about `nodes' nodes, in depth-first order
 * (as sorted stackcollapse output is) or shuffled (-o random).
 * Shapes: `mixed' (fan-out 1-8, depth to ~40, 2000 functions with names
 * like C++/Java symbols), `deep' (recursion chains thousands of frames
 * deep), `wide' (a root with fan-out 1000 over two levels), `many' (every
 * node a different function). -f sets the number of distinct functions.
 */

#include "config.h"

#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t	rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng);
}

static const char *parts[] = { "std::", "core::", "app::", "net::",
    "io::", "json::", "Vector<", "HashMap<", "Parser::", "Lexer::",
    "Server::", "Client::", "run", "parse", "read", "write", "alloc",
    "dispatch", "handle_request", "visit", "eval", "compile", "emit" };
#define NPARTS (sizeof parts / sizeof parts[0])

struct frame {
	char	name[96];
};

static struct frame *funcs;
static size_t nfuncs;

static void
make_funcs(size_t n)
{
	size_t	 i;

	nfuncs = n;
	if ((funcs = calloc(n, sizeof *funcs)) == NULL)
		err(1, NULL);
	for (i = 0; i < n; i++)
		snprintf(funcs[i].name, sizeof funcs[i].name, "%s%s%s_%zu",
		    parts[next() % NPARTS], parts[next() % NPARTS],
		    parts[next() % NPARTS], i);
}

/* The stack being generated, as offsets into one line buffer. */
static char	 line[1 << 20];
static size_t	 stackoff[8192];
static size_t	 depth;
static uint64_t	 budget;
static char	**lines;
static size_t	 nlines, caplines;
static int	 shuffle;
static int	 trace;		/* -F trace: deepq-trace call/return events */
static uint64_t	 ticks;

static void
emit(size_t len)
{
	char	*s;

	if (trace) {
		/* The node's self time passes before its first child. */
		ticks += 1 + next() % 1000;
		return;
	}
	if (!shuffle) {
		printf("%.*s %llu\n", (int)len, line,
		    (unsigned long long)(1 + next() % 1000));
		return;
	}
	if (nlines == caplines) {
		caplines = caplines ? caplines * 2 : 1024;
		if ((lines = realloc(lines, caplines * sizeof *lines)) == NULL)
			err(1, NULL);
	}
	if (asprintf(&s, "%.*s %llu", (int)len, line,
	    (unsigned long long)(1 + next() % 1000)) == -1)
		err(1, NULL);
	lines[nlines++] = s;
}

static size_t
push(size_t len, const char *name)
{
	size_t	 n = strlen(name);

	if (len + n + 2 >= sizeof line || depth + 1 >= 8192)
		return (0);
	if (len > 0)
		line[len++] = ';';
	memcpy(line + len, name, n);
	stackoff[depth++] = len;
	return (len + n);
}

/* Depth-first generation with an explicit fan-out per level. */
static void
gen(size_t len, int fanmax, int maxdepth, int deep)
{
	int	 k, i;
	size_t	 l;

	if (budget == 0)
		return;
	budget--;
	emit(len);
	if ((int)depth >= maxdepth)
		return;
	k = deep ? 1 + (next() % 4 == 0) : 1 + (int)(next() % fanmax);
	for (i = 0; i < k && budget > 0; i++) {
		const char *name = funcs[deep && next() % 8 ?
		    depth % 3 : next() % nfuncs].name;

		if ((l = push(len, name)) == 0)
			return;
		if (trace)
			printf("call %llu %s\n", (unsigned long long)ticks,
			    name);
		gen(l, fanmax, maxdepth, deep);
		if (trace)
			printf("return %llu\n", (unsigned long long)ticks);
		depth--;
	}
}

int
main(int argc, char **argv)
{
	const char	*shape = "mixed";
	uint64_t	 nodes = 100000, nf = 0;
	int		 ch, fan = 8, maxd = 40, deep = 0;
	size_t		 i, j, l;

	while ((ch = getopt(argc, argv, "F:f:n:o:s:S:")) != -1) {
		switch (ch) {
		case 'F':
			trace = strcmp(optarg, "trace") == 0;
			if (!trace && strcmp(optarg, "folded") != 0)
				errx(1, "-F folded|trace");
			break;
		case 'n':
			nodes = strtoull(optarg, NULL, 10);
			break;
		case 'o':
			shuffle = strcmp(optarg, "random") == 0;
			break;
		case 's':
			shape = optarg;
			break;
		case 'S':
			rng ^= strtoull(optarg, NULL, 10) * 0xff51afd7ed558ccdULL;
			break;
		case 'f':
			nf = strtoull(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: genprof [-F folded|trace] "
			    "[-s mixed|deep|wide|many] [-n nodes] [-f functions] "
			    "[-S seed] [-o dfs|random]\n");
			return (1);
		}
	}
	/*
	 * -f: the shape's number of distinct functions. The wide shape's
	 * two levels hold at most f * f call nodes (4000: 1.6e7), so 10^8
	 * nodes need more functions.
	 */
	if (nf > 0 && nf <= 100000000) {
		make_funcs(nf);
		if (strcmp(shape, "wide") == 0) {
			fan = 2000;
			maxd = 3;
		} else if (strcmp(shape, "deep") == 0) {
			fan = 2;
			maxd = 8000;
			deep = 1;
		}
	} else if (strcmp(shape, "deep") == 0) {
		make_funcs(64);
		fan = 2;
		maxd = 8000;
		deep = 1;
	} else if (strcmp(shape, "wide") == 0) {
		make_funcs(4000);
		fan = 2000;
		maxd = 3;
	} else if (strcmp(shape, "many") == 0)
		make_funcs(nodes < 4000000 ? nodes + 1 : 4000000);
	else
		make_funcs(2000);
	budget = nodes;
	if (trace) {
		shuffle = 0;
		printf("# deepq-trace 1\nmetric ticks count\n");
	}
	/* Restart from the root until the node budget is spent. */
	while (budget > 0) {
		depth = 0;
		l = push(0, "main");
		if (trace)
			printf("call %llu main\n", (unsigned long long)ticks);
		gen(l, fan, maxd, deep);
		if (trace)
			printf("return %llu\n", (unsigned long long)ticks);
	}
	if (shuffle) {
		for (i = nlines; i > 1; i--) {
			char *t;

			j = next() % i;
			t = lines[i - 1];
			lines[i - 1] = lines[j];
			lines[j] = t;
		}
		for (i = 0; i < nlines; i++)
			puts(lines[i]);
	}
	return (ferror(stdout) ? 1 : 0);
}

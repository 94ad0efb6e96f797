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
 * node a different function), `tails' (the stacks of big C++ and JVM
 * programs: every line 8-40 frames deep over 20,000 names of ~30 bytes,
 * sharing only its first few frames with any other line, so nearly every
 * frame of a line is a new call node). -f sets the number of distinct
 * functions; for `tails', -d MIN:MAX the depth range, -l the name length
 * (or MIN:MAX, a range) and -p the most frames a line shares with others.
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
	char	name[256];
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

/*
 * Names of about minlen to maxlen bytes (each its own length in that
 * range): parts joined until long enough, then a number that makes each
 * distinct (the names of templated C++ and Java methods differ in their
 * tails).
 */
static void
make_long_funcs(size_t n, size_t minlen, size_t maxlen)
{
	size_t	 i, len, namelen;
	char	*s;

	nfuncs = n;
	if (minlen < 8)
		minlen = 8;
	if (maxlen > sizeof funcs[0].name - 16)
		maxlen = sizeof funcs[0].name - 16;
	if (maxlen < minlen)
		maxlen = minlen;
	if ((funcs = calloc(n, sizeof *funcs)) == NULL)
		err(1, NULL);
	for (i = 0; i < n; i++) {
		s = funcs[i].name;
		len = 0;
		namelen = minlen < maxlen ? minlen + next() % (maxlen - minlen +
		    1) : minlen;
		while (len + 8 < namelen) {
			const char *p = parts[next() % NPARTS];
			size_t pl = strlen(p);

			if (len + pl > namelen - 8)
				pl = namelen - 8 - len;
			memcpy(s + len, p, pl);
			len += pl;
		}
		snprintf(s + len, sizeof funcs[i].name - len, "_%zu", i);
	}
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

/*
 * The tails shape: a line is a root, up to `share' frames drawn from a
 * small pool (so lines meet only near the root), then random names to a
 * depth in [dmin, dmax]. Its only call node with cost is the leaf.
 */
static void
gen_tails(uint64_t nodes, unsigned dmin, unsigned dmax, unsigned share)
{
	uint64_t	 made = 0;
	unsigned	 d, k, i;
	size_t		 len;

	while (made < nodes) {
		depth = 0;
		len = push(0, "main");
		d = dmin + (unsigned)(next() % (dmax - dmin + 1));
		k = share ? (unsigned)(next() % (share + 1)) : 0;
		for (i = 1; i < d; i++) {
			/* The shared frames: 16 choices a level. */
			size_t f = i <= k ? (i * 16 + next() % 16) % nfuncs :
			    next() % nfuncs;
			size_t l = push(len, funcs[f].name);

			if (l == 0)
				break;
			len = l;
		}
		emit(len);
		made += d > k ? d - k : 1;
	}
}

int
main(int argc, char **argv)
{
	const char	*shape = "mixed";
	uint64_t	 nodes = 100000, nf = 0;
	int		 ch, fan = 8, maxd = 40, deep = 0;
	size_t		 i, j, l, namelen = 30, namemax = 0;
	unsigned	 dmin = 8, dmax = 40, share = 3;

	while ((ch = getopt(argc, argv, "d:F:f:l:n:o:p:s:S:")) != -1) {
		switch (ch) {
		case 'd':
			if (sscanf(optarg, "%u:%u", &dmin, &dmax) != 2 ||
			    dmin < 2 || dmax < dmin || dmax > 4000)
				errx(1, "-d MIN:MAX, 2 <= MIN <= MAX <= 4000");
			break;
		case 'l':
			/* N, or MIN:MAX */
			if (sscanf(optarg, "%zu:%zu", &namelen, &namemax) < 1)
				errx(1, "-l LEN or -l MIN:MAX");
			break;
		case 'p':
			share = (unsigned)strtoul(optarg, NULL, 10);
			break;
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
			    "[-s mixed|deep|wide|many|tails] [-n nodes] "
			    "[-f functions] [-S seed] [-o dfs|random]\n"
			    "\t[-d mindepth:maxdepth] [-l namelen[:max]] "
			    "[-p shared]\n");
			return (1);
		}
	}
	/*
	 * -f: the shape's number of distinct functions. The wide shape's
	 * two levels hold at most f * f call nodes (4000: 1.6e7), so 10^8
	 * nodes need more functions.
	 */
	if (strcmp(shape, "tails") == 0) {
		if (trace)
			errx(1, "-s tails writes folded stacks only");
		if (shuffle)
			errx(1, "-s tails is unordered already");
		make_long_funcs(nf > 0 && nf <= 100000000 ? nf : 20000,
		    namelen, namemax > namelen ? namemax : namelen);
		gen_tails(nodes, dmin, dmax, share);
		return (ferror(stdout) ? 1 : 0);
	}
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

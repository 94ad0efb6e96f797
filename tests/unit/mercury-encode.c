/*
 * The Deep.data encoder and its example profile (see mercury-encode.h).
 * Tests abort on allocation failure.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mercury-encode.h"

void
menc_free(struct menc *e)
{
	free(e->data);
	e->data = NULL;
	e->len = e->cap = 0;
}

void
menc_put(struct menc *e, const void *p, size_t n)
{
	size_t	 cap;

	if (e->len + n > e->cap) {
		cap = e->cap ? e->cap : 4096;
		while (cap < e->len + n)
			cap *= 2;
		if ((e->data = realloc(e->data, cap)) == NULL)
			abort();
		e->cap = cap;
	}
	memcpy(e->data + e->len, p, n);
	e->len += n;
}

void
menc_byte(struct menc *e, uint8_t c)
{
	menc_put(e, &c, 1);
}

/* Mercury's number: 7-bit groups, most significant first. */
void
menc_num(struct menc *e, uint64_t v)
{
	unsigned char	 c[10];
	int		 n = 0, i;

	do {
		c[n++] = v & 0x7f;
		v >>= 7;
	} while (v != 0);
	for (i = n - 1; i >= 0; i--)
		menc_byte(e, c[i] | (i > 0 ? 0x80 : 0));
}

void
menc_fixed(struct menc *e, uint64_t v)
{
	int	 i;

	for (i = 0; i < 8; i++)
		menc_byte(e, v >> (8 * i));
}

void
menc_string(struct menc *e, const char *s)
{
	menc_num(e, strlen(s));
	menc_put(e, s, strlen(s));
}

/* The id line and header fields; e->version and e->coverage are used. */
void
menc_header(struct menc *e, const struct menc_header *h)
{
	const char	*id = e->version == 9 ?
	    "Mercury deep profiler data version 9\n" :
	    "Mercury deep profiler data version 8\n";

	menc_put(e, id, strlen(id));
	menc_string(e, h->program);
	menc_fixed(e, h->flags | (uint64_t)e->coverage << 12);
	menc_fixed(e, h->ncsd);
	menc_fixed(e, h->ncss);
	menc_fixed(e, h->npd);
	menc_fixed(e, h->nps);
	menc_num(e, h->ticks_per_second);
	menc_num(e, h->instrument_quanta);
	menc_num(e, h->user_quanta);
	menc_num(e, h->callseqs);
	menc_num(e, h->root_pd);
}

/* A CallSiteStatic; file is written only in version 9. */
void
menc_css(struct menc *e, uint32_t id, int kind, uint32_t callee,
    const char *subst, const char *file, uint32_t line, const char *gp)
{
	menc_byte(e, MERCURY_TOKEN_CSS);
	menc_num(e, id);
	menc_byte(e, kind);
	if (kind == MERCURY_CALL_NORMAL) {
		menc_num(e, callee);
		menc_string(e, subst);
	}
	if (e->version >= 9)
		menc_string(e, file);
	menc_num(e, line);
	menc_string(e, gp);
}

/*
 * A ProcStatic. For kinds 0 and 1 the strings are decl module, def
 * module, name (s4 unused); for kind 2 type name, type module, def
 * module, predicate name. ncov coverage points are made up.
 */
void
menc_ps(struct menc *e, uint32_t id, int kind, const char *s1,
    const char *s2, const char *s3, const char *s4, uint32_t arity,
    uint32_t mode, const char *file, uint32_t line, int iface,
    uint32_t nsites, const uint32_t *sites, uint32_t ncov)
{
	uint32_t	 i;

	menc_byte(e, MERCURY_TOKEN_PS);
	menc_num(e, id);
	menc_byte(e, kind);
	menc_string(e, s1);
	menc_string(e, s2);
	menc_string(e, s3);
	if (kind == MERCURY_PROC_SPECIAL)
		menc_string(e, s4);
	menc_num(e, arity);
	menc_num(e, mode);
	menc_string(e, file);
	menc_num(e, line);
	menc_byte(e, iface);
	menc_num(e, nsites);
	for (i = 0; i < nsites; i++)
		menc_num(e, sites[i]);
	if (e->coverage != 0) {
		menc_num(e, ncov);
		for (i = 0; i < ncov; i++) {
			menc_string(e, i % 2 ? "s1;d2;" : "c1;?;t;");
			menc_num(e, i % 2);
			if (e->coverage == 1)
				menc_num(e, 1000 + i);
		}
	}
}

/* A CallSiteDynamic: the mask has a bit per non-zero measurement. */
void
menc_csd(struct menc *e, uint32_t id, uint32_t callee,
    const struct mercury_own *o)
{
	uint64_t	 mask = 0;

	menc_byte(e, MERCURY_TOKEN_CSD);
	menc_num(e, id);
	menc_num(e, callee);
	mask |= o->exits ? 0x0002 : 0;
	mask |= o->fails ? 0x0004 : 0;
	mask |= o->redos ? 0x0040 : 0;
	mask |= o->excps ? 0x0080 : 0;
	mask |= o->quanta ? 0x0100 : 0;
	mask |= o->callseqs ? 0x0008 : 0;
	mask |= o->allocs ? 0x0010 : 0;
	mask |= o->words ? 0x0020 : 0;
	menc_num(e, mask);
	if (o->exits)
		menc_num(e, o->exits);
	if (o->fails)
		menc_num(e, o->fails);
	if (o->redos)
		menc_num(e, o->redos);
	if (o->excps)
		menc_num(e, o->excps);
	if (o->quanta)
		menc_num(e, o->quanta);
	if (o->callseqs)
		menc_num(e, o->callseqs);
	if (o->allocs)
		menc_num(e, o->allocs);
	if (o->words)
		menc_num(e, o->words);
}

/* A ProcDynamic's start; its nslots slots follow (menc_slot_*). */
void
menc_pd(struct menc *e, uint32_t id, uint32_t ps, uint32_t nslots,
    uint32_t ncov)
{
	uint32_t	 i;

	menc_byte(e, MERCURY_TOKEN_PD);
	menc_num(e, id);
	menc_num(e, ps);
	menc_num(e, nslots);
	if (e->coverage == 2) {
		menc_num(e, ncov);
		for (i = 0; i < ncov; i++)
			menc_num(e, 7 * i);
	}
}

void
menc_slot_normal(struct menc *e, uint32_t csd)
{
	menc_byte(e, MERCURY_CALL_NORMAL);
	menc_num(e, csd);
}

void
menc_slot_multi(struct menc *e, int kind, const uint32_t *csds, uint32_t n)
{
	uint32_t	 i;

	menc_byte(e, kind);
	for (i = 0; i < n; i++)
		menc_num(e, csds[i]);
	menc_byte(e, 0);
}

/*
 * The example program (test-mercury.c draws it): the runtime's root calls
 * main; main calls f, and through a higher-order call site h (a special
 * predicate) and f again; f recurses directly and calls g, which calls f
 * back (mutual recursion: f and g form one clique). PS 6 is never called.
 * The sum of every CSD's measurements goes to *total.
 */
void
menc_example(struct menc *e, int version, int coverage,
    struct mercury_own *total)
{
	static const struct mercury_own own[8] = {
		{ 0 },
		/* exits fails redos excps quanta callseqs allocs words */
		{ 1, 0, 0, 0, 1, 3, 2, 10 },		/* root -> main */
		{ 5, 1, 0, 0, 7, 50, 4, 20 },		/* main -> f */
		{ 100, 2, 3, 0, 20, 100, 8, 40 },	/* f -> f */
		{ 10, 0, 0, 0, 3, 30, 0, 6 },		/* f -> g */
		{ 2, 0, 0, 1, 0, 2, 0, 0 },		/* main -ho-> h */
		{ 4, 0, 0, 0, 1, 4, 1, 3 },		/* main -ho-> f' */
		{ 9, 0, 0, 0, 2, 9, 1, 2 },		/* g -> f */
	};
	static const uint32_t s1[] = { 1 }, s2[] = { 2, 3 }, s3[] = { 4, 5 },
	    s4[] = { 6 }, ho[] = { 5, 6 }, cb[] = { 1 };
	struct menc_header	 h = {
		"./example", 0x0108, 7, 6, 6, 6, 100, 5, 34, 198, 1
	};
	int			 i;

	e->version = version;
	e->coverage = coverage;
	menc_header(e, &h);

	/* Dynamic nodes first, as the runtime writes them. */
	menc_pd(e, 1, 1, 1, 0);
	menc_slot_multi(e, MERCURY_CALL_CALLBACK, cb, 1);
	menc_csd(e, 1, 2, &own[1]);
	menc_pd(e, 2, 2, 2, 2);
	menc_slot_normal(e, 2);
	menc_slot_multi(e, MERCURY_CALL_HO, ho, 2);
	menc_csd(e, 2, 3, &own[2]);
	menc_pd(e, 3, 3, 2, 1);
	menc_slot_normal(e, 3);
	menc_slot_normal(e, 4);
	menc_csd(e, 3, 3, &own[3]);
	menc_csd(e, 4, 4, &own[4]);
	menc_pd(e, 4, 4, 1, 0);
	menc_slot_normal(e, 7);
	menc_csd(e, 7, 3, &own[7]);
	menc_csd(e, 5, 5, &own[5]);
	menc_pd(e, 5, 5, 0, 0);
	menc_csd(e, 6, 6, &own[6]);
	menc_pd(e, 6, 3, 2, 1);
	menc_slot_normal(e, 0);
	menc_slot_normal(e, 0);

	menc_ps(e, 1, MERCURY_PROC_PRED, "Mercury runtime", "Mercury runtime",
	    "Mercury runtime", NULL, 0, 0, "Mercury runtime", 0, 1, 1, s1, 0);
	menc_css(e, 1, MERCURY_CALL_CALLBACK, 0, "", "", 0, "");
	menc_ps(e, 2, MERCURY_PROC_PRED, "prog", "prog", "main", NULL, 2, 0,
	    "prog.m", 10, 1, 2, s2, 2);
	menc_css(e, 2, MERCURY_CALL_NORMAL, 3, "", "", 11, "c1;");
	menc_css(e, 3, MERCURY_CALL_HO, 0, "", "inlined.opt.m", 12, "c2;");
	menc_ps(e, 3, MERCURY_PROC_FUNC, "prog", "prog", "f", NULL, 2, 0,
	    "prog.m", 20, 0, 2, s3, 1);
	menc_css(e, 4, MERCURY_CALL_NORMAL, 3, "", "", 21, "s1;");
	menc_css(e, 5, MERCURY_CALL_NORMAL, 4, "T = int", "", 22, "s2;");
	menc_ps(e, 4, MERCURY_PROC_PRED, "prog", "prog",
	    "TypeSpecOf__pred__g__[T = int]_0_1", NULL, 3, 1, "prog.m", 30, 0,
	    1, s4, 0);
	menc_css(e, 6, MERCURY_CALL_NORMAL, 3, "", "", 31, "");
	menc_ps(e, 5, MERCURY_PROC_SPECIAL, "tree", "prog", "prog",
	    "__Unify__", 0, 0, "prog.m", 40, 0, 0, NULL, 0);
	menc_ps(e, 6, MERCURY_PROC_PRED, "lib", "lib",
	    "IntroducedFrom__pred__foo__55__1", NULL, 1, 0, "lib.m", 55, 0, 0,
	    NULL, 0);

	memset(total, 0, sizeof *total);
	for (i = 1; i < 8; i++) {
		total->exits += own[i].exits;
		total->fails += own[i].fails;
		total->redos += own[i].redos;
		total->excps += own[i].excps;
		total->quanta += own[i].quanta;
		total->callseqs += own[i].callseqs;
		total->allocs += own[i].allocs;
		total->words += own[i].words;
	}
}

/* A deterministic pseudo-random number (xorshift64). */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s);
}

#define LARGE_PS	3000
#define LARGE_SITES	4

struct large {
	struct menc	 body;
	uint64_t	 seed;
	uint32_t	 npd, ncsd;
	size_t		 target;
};

/* A PD of procedure ps and, depth first, what it calls. */
static uint32_t
large_pd(struct large *l, uint32_t ps, int depth, struct mercury_own *total)
{
	struct mercury_own	 o;
	uint32_t		 id = ++l->npd, csd[LARGE_SITES], callee, pd, i;
	uint64_t		 r;

	/* Decide the calls first: a PD's slots name its CSDs. */
	for (i = 0; i < LARGE_SITES; i++) {
		r = next(&l->seed);
		csd[i] = 0;
		if (depth < 12 && r % 3 != 0 && l->body.len < l->target)
			csd[i] = ++l->ncsd;
	}
	menc_pd(&l->body, id, ps, LARGE_SITES, 0);
	for (i = 0; i < LARGE_SITES; i++)
		menc_slot_normal(&l->body, csd[i]);
	for (i = 0; i < LARGE_SITES; i++) {
		if (csd[i] == 0)
			continue;
		r = next(&l->seed);
		callee = 1 + (ps * LARGE_SITES + i) % LARGE_PS;
		memset(&o, 0, sizeof o);
		o.exits = 1 + r % 1000;
		o.callseqs = o.exits + (r >> 10) % 5000;
		o.quanta = (r >> 24) % 3;
		o.allocs = (r >> 30) % 100;
		o.words = o.allocs * 3;
		/* A procedure calling itself: the runtime reuses the PD. */
		pd = callee == ps ? id : large_pd(l, callee, depth + 1, total);
		menc_csd(&l->body, csd[i], pd, &o);
		total->exits += o.exits;
		total->callseqs += o.callseqs;
		total->quanta += o.quanta;
		total->allocs += o.allocs;
		total->words += o.words;
	}
	return (id);
}

/*
 * About size bytes of a plausible Deep.data (version 9): LARGE_PS
 * procedures of LARGE_SITES first-order call sites each, and a random
 * dynamic tree below the root. For the benchmark.
 */
void
menc_large(struct menc *e, size_t size, struct mercury_own *total)
{
	struct large		 l;
	struct menc_header	 h;
	static const struct mercury_own one = { .exits = 1, .callseqs = 1 };
	uint32_t		 i, j, sites[LARGE_SITES], root_csd;
	uint32_t		*root = NULL, nroot = 0, rootcap = 0;
	char			 name[64];

	memset(&l, 0, sizeof l);
	memset(total, 0, sizeof *total);
	l.seed = 88172645463325252ULL;
	l.target = size;
	l.body.version = e->version = 9;
	l.body.coverage = e->coverage = 0;

	/*
	 * The root PD (procedure LARGE_PS + 1) calls main (procedure 1)
	 * through its callback site, again and again until the size.
	 */
	l.npd = 1;
	while (l.body.len < size) {
		root_csd = ++l.ncsd;
		if (nroot == rootcap) {
			rootcap = rootcap ? rootcap * 2 : 64;
			if ((root = realloc(root, rootcap * sizeof *root)) ==
			    NULL)
				abort();
		}
		root[nroot++] = root_csd;
		menc_csd(&l.body, root_csd, l.npd + 1, &one);
		total->exits++;
		total->callseqs++;
		large_pd(&l, 1, 0, total);
	}
	menc_pd(&l.body, 1, LARGE_PS + 1, 1, 0);
	menc_slot_multi(&l.body, MERCURY_CALL_CALLBACK, root, nroot);
	free(root);

	for (i = 1; i <= LARGE_PS; i++) {
		for (j = 0; j < LARGE_SITES; j++)
			sites[j] = (i - 1) * LARGE_SITES + j + 1;
		snprintf(name, sizeof name, "proc_%u", i);
		menc_ps(&l.body, i, MERCURY_PROC_PRED, "bench", "bench", name,
		    NULL, 2, 0, "bench.m", i, 0, LARGE_SITES, sites, 0);
		for (j = 0; j < LARGE_SITES; j++)
			menc_css(&l.body, sites[j], MERCURY_CALL_NORMAL,
			    1 + ((i - 1) * LARGE_SITES + j) % LARGE_PS, "", "",
			    i + j, "c1;");
	}
	sites[0] = LARGE_PS * LARGE_SITES + 1;
	menc_ps(&l.body, LARGE_PS + 1, MERCURY_PROC_PRED, "Mercury runtime",
	    "Mercury runtime", "Mercury runtime", NULL, 0, 0,
	    "Mercury runtime", 0, 1, 1, sites, 0);
	menc_css(&l.body, sites[0], MERCURY_CALL_CALLBACK, 0, "", "", 0, "");

	memset(&h, 0, sizeof h);
	h.program = "./bench";
	h.flags = 0x0108;
	h.ncsd = l.ncsd;
	h.ncss = LARGE_PS * LARGE_SITES + 1;
	h.npd = l.npd;
	h.nps = LARGE_PS + 1;
	h.ticks_per_second = 100;
	h.user_quanta = total->quanta;
	h.callseqs = total->callseqs;
	h.root_pd = 1;
	menc_header(e, &h);
	menc_put(e, l.body.data, l.body.len);
	menc_free(&l.body);
}

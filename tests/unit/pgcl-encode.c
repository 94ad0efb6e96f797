/*
 * The .pgcl encoder and the generated test profiles (see pgcl-encode.h).
 * Tests abort on allocation failure; nothing here reads input.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgcl-encode.h"

static void	gen_normal(struct pgcl_buf *, struct pgcl_totals *, uint32_t);
static void	gen_deep(struct pgcl_buf *, struct pgcl_totals *, uint64_t);
static void	gen_modules(struct pgcl_buf *, struct pgcl_totals *, uint64_t);
static void	gen_leb128(struct pgcl_buf *, struct pgcl_totals *);
static void	gen_large(struct pgcl_buf *, struct pgcl_totals *, uint64_t);

void
pgcl_buf_free(struct pgcl_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

void
pgcl_put(struct pgcl_buf *b, const void *p, size_t n)
{
	size_t	 cap;

	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		if ((b->data = realloc(b->data, cap)) == NULL)
			abort();
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void
pgcl_le32(struct pgcl_buf *b, uint32_t v)
{
	unsigned char	 c[4];

	c[0] = v;
	c[1] = v >> 8;
	c[2] = v >> 16;
	c[3] = v >> 24;
	pgcl_put(b, c, 4);
}

/* Unsigned LEB128, shortest form. */
void
pgcl_leb128(struct pgcl_buf *b, uint64_t v)
{
	unsigned char	 c;

	do {
		c = v & 0x7f;
		v >>= 7;
		if (v != 0)
			c |= 0x80;
		pgcl_put(b, &c, 1);
	} while (v != 0);
}

/* LEB128 padded to n bytes with zero groups (legal, if unusual). */
void
pgcl_leb128_padded(struct pgcl_buf *b, uint64_t v, int n)
{
	unsigned char	 c;
	int		 i;

	for (i = 0; i < n; i++) {
		c = v & 0x7f;
		v >>= 7;
		if (i < n - 1)
			c |= 0x80;
		pgcl_put(b, &c, 1);
	}
}

void
pgcl_cstring(struct pgcl_buf *b, const char *s)
{
	pgcl_put(b, s, strlen(s) + 1);
}

/* Magic, version, counts, and (version 2) frequency and overhead. */
void
pgcl_header(struct pgcl_buf *b, uint32_t version, uint32_t nmodules,
    uint32_t ncc, uint64_t freq, uint64_t overhead)
{
	pgcl_put(b, "prof", 4);
	pgcl_le32(b, version);
	pgcl_le32(b, nmodules);
	pgcl_le32(b, ncc);
	if (version >= 2) {
		pgcl_leb128(b, freq);
		pgcl_leb128(b, overhead);
	}
}

/* One call graph entry (its children follow); t collects the totals. */
void
pgcl_entry(struct pgcl_buf *b, struct pgcl_totals *t, uint64_t cc,
    uint64_t ticks, uint64_t words, uint64_t tail, uint64_t strict,
    uint64_t lazy, uint64_t curried, uint64_t nchildren)
{
	pgcl_leb128(b, cc);
	pgcl_leb128(b, ticks);
	pgcl_leb128(b, words);
	pgcl_leb128(b, tail);
	pgcl_leb128(b, strict);
	pgcl_leb128(b, lazy);
	pgcl_leb128(b, curried);
	pgcl_leb128(b, nchildren);
	t->ticks += ticks;
	t->words += words;
	t->tail += tail;
	t->strict += strict;
	t->lazy += lazy;
	t->curried += curried;
	t->entries++;
}

/*
 * A small program: Start calls map (lazily, recursing into itself),
 * foldl with a curried (+), and sum; modules main, StdList, StdEnum.
 * Cost centres: 1 Start, 2 map, 3 foldl, 4 +, 5 sum, 6 fromTo, 7 unused.
 */
static void
gen_normal(struct pgcl_buf *b, struct pgcl_totals *t, uint32_t version)
{
	pgcl_header(b, version, 3, 7, 3000000000ULL, 1234);
	pgcl_cstring(b, "main");
	pgcl_cstring(b, "StdList");
	pgcl_cstring(b, "StdEnum");
	pgcl_leb128(b, 1); pgcl_cstring(b, "Start");
	pgcl_leb128(b, 2); pgcl_cstring(b, "map");
	pgcl_leb128(b, 2); pgcl_cstring(b, "foldl");
	pgcl_leb128(b, 1); pgcl_cstring(b, "+");
	pgcl_leb128(b, 2); pgcl_cstring(b, "sum");
	pgcl_leb128(b, 3); pgcl_cstring(b, "fromTo");
	pgcl_leb128(b, 1); pgcl_cstring(b, "unused");

	/* Start: 4 children */
	pgcl_entry(b, t, 1, 100, 10, 0, 1, 0, 0, 4);
	/*  fromTo */
	pgcl_entry(b, t, 6, 2000, 3000, 1000, 1, 999, 0, 0);
	/*  map, recursing twice */
	pgcl_entry(b, t, 2, 500, 600, 0, 1, 0, 0, 1);
	pgcl_entry(b, t, 2, 400, 500, 0, 0, 10, 0, 1);
	pgcl_entry(b, t, 2, 300, 400, 5, 0, 90, 0, 0);
	/*  foldl, applying a curried + */
	pgcl_entry(b, t, 3, 700, 0, 100, 1, 0, 0, 1);
	pgcl_entry(b, t, 4, 50000, 0, 0, 0, 0, 100, 0);
	/*  sum, calling + strictly */
	pgcl_entry(b, t, 5, 60, 0, 0, 1, 0, 0, 1);
	pgcl_entry(b, t, 4, 7000, 0, 0, 100, 0, 0, 0);
	t->depth = 4;
}

/* Start -> loop -> loop -> ... n deep, as a non-tail recursion leaves. */
static void
gen_deep(struct pgcl_buf *b, struct pgcl_totals *t, uint64_t n)
{
	uint64_t	 i;

	pgcl_header(b, 2, 1, 2, 1000000, 0);
	pgcl_cstring(b, "deep");
	pgcl_leb128(b, 1); pgcl_cstring(b, "Start");
	pgcl_leb128(b, 1); pgcl_cstring(b, "loop");
	pgcl_entry(b, t, 1, 5, 1, 0, 1, 0, 0, 1);
	for (i = 0; i < n; i++)
		pgcl_entry(b, t, 2, 1, 2, i + 1 == n, 1, 0, 0, i + 1 < n);
	t->depth = n + 1;
}

/* n modules of two cost centres each, all called from the root. */
static void
gen_modules(struct pgcl_buf *b, struct pgcl_totals *t, uint64_t n)
{
	char		 name[64];
	uint64_t	 i;

	pgcl_header(b, 2, n, 2 * n, 2400000000ULL, 99);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "Module%llu",
		    (unsigned long long)i);
		pgcl_cstring(b, name);
	}
	for (i = 0; i < n; i++) {
		pgcl_leb128(b, i + 1);
		pgcl_cstring(b, "f");
		pgcl_leb128(b, i + 1);
		pgcl_cstring(b, "g");
	}
	/* The root entry of cost centre 0: the synthetic root. */
	pgcl_entry(b, t, 0, 0, 0, 0, 0, 0, 0, n);
	for (i = 0; i < n; i++) {
		pgcl_entry(b, t, 2 * i + 1, i, 1, 0, 1, 0, 0, 1);
		pgcl_entry(b, t, 2 * i + 2, 1, i, 0, 0, 1, 0, 0);
	}
	t->depth = 2;
}

/*
 * Numbers at the edges of LEB128 groups, in shortest and padded forms,
 * and the largest value a metric can hold.
 */
static void
gen_leb128(struct pgcl_buf *b, struct pgcl_totals *t)
{
	static const uint64_t v[] = {
		0, 1, 127, 128, 16383, 16384, 2097151, 2097152,
		268435455, 268435456, 4294967295ULL, 4294967296ULL,
		34359738367ULL, 34359738368ULL, 72057594037927935ULL,
		72057594037927936ULL,
	};
	size_t		 i, n = sizeof v / sizeof v[0];

	pgcl_header(b, 2, 1, 1, UINT64_MAX, 127);
	pgcl_cstring(b, "edge");
	pgcl_leb128(b, 1);
	pgcl_cstring(b, "f");
	/*
	 * Root: its words are 2^63 - 1, with a 10-byte and a padded
	 * encoding among the others.
	 */
	pgcl_leb128(b, 1);
	pgcl_leb128(b, 0);
	pgcl_leb128(b, INT64_MAX);
	pgcl_leb128_padded(b, 3, 12);
	pgcl_leb128_padded(b, 0, 10);
	pgcl_leb128_padded(b, 128, 5);
	pgcl_leb128(b, 0);
	pgcl_leb128(b, n);
	t->words += INT64_MAX;
	t->tail += 3;
	t->lazy += 128;
	t->entries++;
	for (i = 0; i < n; i++) {
		/* The same cost centre n times below one parent: merged. */
		pgcl_leb128(b, 1);
		if (i % 2)
			pgcl_leb128_padded(b, v[i], 10);
		else
			pgcl_leb128(b, v[i]);
		pgcl_leb128(b, 0);
		pgcl_leb128(b, 0);
		pgcl_leb128(b, i);
		pgcl_leb128(b, 0);
		pgcl_leb128(b, v[n - 1 - i] >> 8);
		pgcl_leb128(b, 0);
		t->ticks += v[i];
		t->strict += i;
		t->curried += v[n - 1 - i] >> 8;
		t->entries++;
	}
	t->depth = 2;
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

#define LARGE_MODULES	200
#define LARGE_CCS	4000

static void
large_tree(struct pgcl_buf *b, struct pgcl_totals *t, uint64_t *s,
    uint32_t depth, size_t target)
{
	uint64_t	 kids, i, r = next(s);

	if (depth > t->depth)
		t->depth = depth;
	kids = depth < 3 ? 8 : depth < 14 ? r % 4 : 0;
	if (b->len >= target)
		kids = 0;
	pgcl_entry(b, t, 1 + r % LARGE_CCS, r >> 40 & 0xffff, r >> 20 & 0xfff,
	    r >> 8 & 3, 1 + (r >> 12 & 0xff), r >> 16 & 0xf, r >> 4 & 1, kids);
	for (i = 0; i < kids; i++)
		large_tree(b, t, s, depth + 1, target);
}

/* About size bytes of a plausible profile, for the benchmark. */
static void
gen_large(struct pgcl_buf *b, struct pgcl_totals *t, uint64_t size)
{
	char		 name[64];
	uint64_t	 s = 88172645463325252ULL;
	uint32_t	 i;

	pgcl_header(b, 2, LARGE_MODULES, LARGE_CCS, 3000000000ULL, 2000);
	for (i = 0; i < LARGE_MODULES; i++) {
		snprintf(name, sizeof name, "Data.Module%u", i);
		pgcl_cstring(b, name);
	}
	for (i = 0; i < LARGE_CCS; i++) {
		pgcl_leb128(b, 1 + i % LARGE_MODULES);
		snprintf(name, sizeof name, "function_%u", i);
		pgcl_cstring(b, name);
	}
	/* The root, of cost centre 0: children until the size is reached. */
	{
		struct pgcl_buf	 kids = { 0 };
		struct pgcl_totals root = { 0 };
		uint64_t	 n = 0;

		while (kids.len < size) {
			large_tree(&kids, t, &s, 1, size);
			n++;
		}
		pgcl_entry(b, &root, 0, 0, 0, 0, 0, 0, 0, n);
		t->entries++;
		pgcl_put(b, kids.data, kids.len);
		pgcl_buf_free(&kids);
	}
}

/*
 * Generate a profile: "normal" (version 2), "v1", "deep" (param levels),
 * "modules" (param modules), "leb128", "large" (about param bytes).
 * Returns -1 for an unknown kind.
 */
int
pgcl_generate(const char *kind, uint64_t param, struct pgcl_buf *b,
    struct pgcl_totals *t)
{
	memset(t, 0, sizeof *t);
	if (strcmp(kind, "normal") == 0)
		gen_normal(b, t, 2);
	else if (strcmp(kind, "v1") == 0)
		gen_normal(b, t, 1);
	else if (strcmp(kind, "deep") == 0)
		gen_deep(b, t, param ? param : 100000);
	else if (strcmp(kind, "modules") == 0)
		gen_modules(b, t, param ? param : 5000);
	else if (strcmp(kind, "leb128") == 0)
		gen_leb128(b, t);
	else if (strcmp(kind, "large") == 0)
		gen_large(b, t, param ? param : 64 * 1024 * 1024);
	else
		return (-1);
	return (0);
}

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

#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "hash.h"
#include "decimal.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"

/*
 * Folded stacks ("a;b;c 42"), as written by FlameGraph's stackcollapse
 * tools, inferno, async-profiler and many others. The count is split off
 * the right end, so frame names may hold spaces but never ';'. A line
 * with two counts is differential (difffolded.pl): the first count goes
 * to metric "base", the second to "samples". "mod`func" frames (DTrace
 * style) give the function a module.
 *
 * Consecutive lines usually share a prefix of frames (stackcollapse
 * output is sorted), so the nodes of the previous line are reused for as
 * long as its bytes match: most lines then intern only their last frames.
 *
 * Each line goes in two steps, FOLDED_AHEAD lines apart: folded_parse
 * interns the frames of a line and starts loading the child set's slot
 * for its first new node (its parent is usually a node an earlier line
 * reuses, already known; else as soon as the line that makes it is
 * walked); half way, the node that slot points at is loaded too; then
 * folded_walk finds or makes the nodes of the line. In
 * a wide profile each of those is a cache miss, and one line ahead was
 * too short to hide it. Interning first changes no id: functions are
 * still interned, and nodes made, in the order of the lines.
 *
 * The line before is compared where it lies in the input's buffer (the
 * input holds it across a refill), and a NUL byte, refused, is looked
 * for in the same passes that find the frames and the count.
 */

/* Lines parsed ahead of the walk (a power of two). */
#define FOLDED_AHEAD		8

/*
 * A line parsed and not yet walked: only its new frames, the others
 * are those of the line before.
 */
struct folded_line {
	uint32_t		*fn;		/* function of each new frame */
	size_t			 cap;
	size_t			 depth;
	size_t			 reuse;		/* frames as in the last line */
	int64_t			 v, v2;
	uint64_t		 lineno;
	/*
	 * The line whose walk makes the first new node's parent: once it
	 * is walked, the parent is known and the slot can be loaded.
	 */
	uint64_t		 origin;
	int			 hashed;	/* h and hparent are set */
	uint32_t		 hparent;
	uint64_t		 h;
};

/*
 * A two-way set-associative cache of frame names of FOLDED_NAME_MIN to
 * FOLDED_NAME_MAX bytes without a module, in front of the string pool
 * and function lookups: a wide profile repeats a few thousand names in
 * every order, and a hit costs two loads and a compare where the pool
 * hashes every byte. A name maps to one function for the whole load, so
 * an entry is only ever overwritten, never stale. Direct-mapped, the
 * same 16384 entries missed one lookup in nine of a wide profile's
 * (4000 names): two names in one slot took turns. The cache grows with
 * the names it holds, two sets a name, up to FOLDED_NAME_MAXBITS: at a
 * fixed 16384 entries, the 20,000 names of a big C++ program's stacks
 * missed most lookups, and the pool's hashing took a quarter of the load.
 */
#define FOLDED_NAME_MIN		8
#define FOLDED_NAME_MAX		32
#define FOLDED_NAME_BITS	13		/* sets of two, at first */
#define FOLDED_NAME_MAXBITS	18		/* 20 MB */

struct folded_name {
	uint32_t		 fn;
	uint32_t		 len;		/* 0 = empty slot */
	char			 name[FOLDED_NAME_MAX];
};

struct folded {
	struct profile_builder	*b;
	int			 metric;
	int			 base;		/* metric "base", or -1 */
	const char		*prev;		/* last stack, in the input */
	size_t			 prevlen;	/* 0 = none */
	struct folded_name	*names;		/* [2 << namebits] */
	int			 namebits;
	size_t			 nnames;	/* names put in the cache */
	/* Of the last line parsed, for each frame: */
	size_t			*end;		/* its end offset */
	size_t			*tick;		/* its '`', or SIZE_MAX */
	uint64_t		*origin;	/* last line it was new in */
	size_t			 depth, ecap;
	/* Line k (from 1) is line[k % FOLDED_AHEAD]. */
	struct folded_line	 line[FOLDED_AHEAD];
	uint64_t		 parsed;	/* lines parsed */
	uint64_t		 walked;	/* the first lines walked */
	uint32_t		*pnode;		/* node of each walked frame */
	size_t			 pcap;
};

static int	folded_probe(const char *, size_t);
static struct profile *folded_load(struct input *,
		    const struct reader_options *, char **);
static int	folded_blank_number(const char *, size_t);
static int	folded_count_slow(const char *, size_t *, int64_t *,
		    char **);
static uint32_t	folded_func(struct folded *, const char *, size_t);
static int	folded_names_grow(struct folded *);
static inline void folded_name_prefetch(const struct folded *,
		    const char *, size_t);
static int	folded_parse(struct folded *, const char *, size_t);
static void	folded_hash(struct folded *, struct folded_line *);
static int	folded_walk(struct folded *, struct folded_line *);
static int	folded_walk_one(struct folded *, const char *, char **);
static int	folded_flush(struct folded *, const char *, char **);
static inline void folded_keep_prev(struct folded *, struct input *,
		    uint64_t);
static inline int folded_base_count(struct folded *, const char *,
		    size_t *, int64_t *);
static void	folded_clear(struct folded *);

const struct reader reader_folded = {
	.name = "folded",
	.description = "folded stacks (stackcollapse, inferno, async-profiler)",
	.probe = folded_probe,
	.load = folded_load,
};

/* A first line like "frame;frame 123" (Firefox profiler's test, loosened). */
static int
folded_probe(const char *buf, size_t len)
{
	const char	*nl, *p;
	size_t		 n, digits = 0;

	/* Skip blank and comment lines. */
	while (len > 0) {
		nl = memchr(buf, '\n', len);
		n = nl ? (size_t)(nl - buf) : len;
		if (n > 0 && buf[0] != '#' && !(n == 1 && buf[0] == '\r'))
			break;
		if (nl == NULL)
			return (0);
		buf += n + 1;
		len -= n + 1;
	}
	if (len == 0 || buf[0] == '{' || buf[0] == '[')
		return (0);
	nl = memchr(buf, '\n', len);
	n = nl ? (size_t)(nl - buf) : len;
	if (memchr(buf, '\0', n) != NULL)
		return (0);
	p = buf + n;
	while (p > buf && (p[-1] == '\r' || p[-1] == ' ' || p[-1] == '\t'))
		p--;
	while (p > buf && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.')) {
		p--;
		digits++;
	}
	if (digits == 0 || p == buf || (p[-1] != ' ' && p[-1] != '\t'))
		return (0);
	/* Any text ending in a number would do; a ';' makes it likely. */
	return (memchr(buf, ';', p - buf) != NULL ? 60 : 20);
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * How many of the 8 bytes of w, read from memory, are decimal digits at
 * its end (the high bytes). A byte's high nibble and that of the byte
 * plus 6 are both 3 only for '0' to '9'; a carry out of a byte above
 * 0xf9 can only make the byte above look like no digit, never the
 * reverse, so the answer may be short but is never long.
 */
static inline int
folded_trailing_digits(uint64_t w)
{
	uint64_t	 nd;

	nd = ((w & 0xf0f0f0f0f0f0f0f0ULL) ^ 0x3030303030303030ULL) |
	    (((w + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) ^
	    0x3030303030303030ULL);
	return (nd == 0 ? 8 : __builtin_clzll(nd) / 8);
}
#endif

/*
 * Whether s[0..len) ends in a number after a blank, as a count does:
 * the cheap test before folded_count, which explains its refusals.
 */
static int
folded_blank_number(const char *s, size_t len)
{
	size_t	 i = len;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Names often end in digits ("foo_2169"): when the byte before up
	 * to 7 of them is no blank, digit or '.', the answer is no.
	 */
	if (len >= 8) {
		uint64_t	 w;
		char		 c;
		int		 k;

		memcpy(&w, s + len - 8, 8);
		k = folded_trailing_digits(w);
		if (k < 8) {
			c = s[len - k - 1];
			if (c != ' ' && c != '\t' && c != '.' &&
			    (c < '0' || c > '9'))
				return (0);
		}
	}
#endif

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
	    s[i - 1] == '.'))
		i--;
	return (i < len && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'));
}

/*
 * Split the count off the end of s[0..*len): on return *len is the length
 * of what is left (the one separating blank removed). Decimal counts are
 * rounded. In line, the common count; folded_count_slow the rest.
 */
static inline int
folded_count(const char *s, size_t *len, int64_t *v, char **cause)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	size_t		 e = *len;

	/*
	 * Nearly every count: 1 to 7 digits after a blank, read from the
	 * last eight bytes of the line at once. The line's last byte is the
	 * word's top byte: the digits are its top bytes up to the first
	 * byte that is none, which must be the blank.
	 */
	if (e >= 8) {
		uint64_t	 w, d;
		int		 k;

		memcpy(&w, s + e - 8, 8);
		/*
		 * A carry (folded_trailing_digits) can only end the count
		 * early; the blank test then sends it below.
		 */
		k = folded_trailing_digits(w);
		if (k > 0 && k < 8 && (s[e - k - 1] == ' ' ||
		    s[e - k - 1] == '\t')) {
			/* The digits alone, as an eight-digit number. */
			d = (w & (~0ULL << (8 * (8 - k)))) -
			    (0x3030303030303030ULL << (8 * (8 - k)));
			d = d * 10 + (d >> 8);
			d = ((d & 0x000000ff000000ffULL) *
			    (100 + (1000000ULL << 32)) +
			    ((d >> 16) & 0x000000ff000000ffULL) *
			    (1 + (10000ULL << 32))) >> 32;
			*v = (int64_t)(uint32_t)d;
			*len = e - k - 1;
			return (0);
		}
	}
#endif
	return (folded_count_slow(s, len, v, cause));
}

static int
folded_count_slow(const char *s, size_t *len, int64_t *v, char **cause)
{
	size_t		 e = *len, i, start, dot, dots = 0;
	int64_t		 n = 0;
	int		 round = 0;
	uint64_t	 pw = 1, u = 0;

	/*
	 * Up to 18 digits after a blank, read in the one backward scan.
	 * Anything else takes the checked way below.
	 */
	for (i = e; i > 0 && e - i < 18 && s[i - 1] >= '0' && s[i - 1] <= '9';
	    i--) {
		u += (uint64_t)(s[i - 1] - '0') * pw;
		pw *= 10;
	}
	if (i < e && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
		*v = (int64_t)u;
		*len = i - 1;
		return (0);
	}

	i = e;
	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
	    s[i - 1] == '.')) {
		dots += s[i - 1] == '.';
		i--;
	}
	start = i;
	if (i == e || (i > 0 && s[i - 1] != ' ' && s[i - 1] != '\t')) {
		if (i > 0 && s[i - 1] == '-')
			cause_set(cause, "negative count");
		else
			cause_set(cause, "no count at the end of the line");
		return (-1);
	}
	if (s[i] == '.' || dots > 1) {
		cause_set(cause, "bad count");
		return (-1);
	}
	/* Up to 18 digits and no fraction cannot overflow: no checks. */
	if (dots == 0 && e - i <= 18) {
		for (; i < e; i++)
			n = n * 10 + (s[i] - '0');
	} else {
		/* The whole part, checked; the first decimal rounds it. */
		dot = dots > 0 ? (size_t)((const char *)memchr(s + i, '.',
		    e - i) - s) : e;
		if (decimal_u64(s + i, dot - i, INT64_MAX, &u) != DECIMAL_OK) {
			cause_set(cause, "count overflows 64 bits");
			return (-1);
		}
		n = (int64_t)u;
		round = dot + 1 < e && s[dot + 1] >= '5';
	}
	if (round && __builtin_add_overflow(n, 1, &n)) {
		cause_set(cause, "count overflows 64 bits");
		return (-1);
	}
	*v = n;
	i = start;
	/*
	 * One blank separates the count, as in flamegraph.pl's
	 * /^(.*)\s+?(\d+)$/: more blanks belong to the last frame's name,
	 * so writing a stack back gives the same line.
	 */
	if (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	*len = i;
	return (0);
}

/*
 * The first ';', '`' or NUL in s[pos..len), or len: one pass for the
 * bytes a frame ends at or splits at and the byte no line may hold,
 * eight bytes at a time.
 */
static inline uint64_t
folded_delim_word(uint64_t x)
{
	uint64_t	 a, b;

	a = x ^ (HASH_ONES * ';');
	b = x ^ (HASH_ONES * '`');
	/* A zero byte of a, b or x; the lowest one found is exact. */
	return ((((a - HASH_ONES) & ~a) | ((b - HASH_ONES) & ~b) |
	    ((x - HASH_ONES) & ~x)) & HASH_HIGHS);
}

/*
 * The same, exact in every byte (no borrow from a byte below): for the
 * last word, whose low bytes are masked off, and may hold a match.
 */
static inline uint64_t
folded_delim_exact(uint64_t x)
{
	const uint64_t	 t = 0x7f7f7f7f7f7f7f7fULL;
	uint64_t	 a, b;

	a = x ^ (HASH_ONES * ';');
	b = x ^ (HASH_ONES * '`');
	/* A byte's high bit: set when any of its low seven or itself is. */
	return (~((((a & t) + t) | a) & (((b & t) + t) | b) &
	    (((x & t) + t) | x)) & HASH_HIGHS);
}

static inline size_t
folded_delim(const char *s, size_t pos, size_t len)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t	 x, z;

	for (; pos + 8 <= len; pos += 8) {
		memcpy(&x, s + pos, 8);
		if ((z = folded_delim_word(x)) != 0)
			return (pos + __builtin_ctzll(z) / 8);
	}
	/*
	 * The last bytes as the top of the line's last word, the bytes
	 * before pos (already scanned, or another frame's) masked off.
	 */
	if (pos < len && len >= 8) {
		memcpy(&x, s + len - 8, 8);
		z = folded_delim_exact(x) & (~0ULL << (8 * (8 - (len - pos))));
		return (z != 0 ? len - 8 + __builtin_ctzll(z) / 8 : len);
	}
#endif
	for (; pos < len; pos++) {
		if (s[pos] == ';' || s[pos] == '`' || s[pos] == '\0')
			return (pos);
	}
	return (len);
}

/* Whether entry c holds s[0..n), n >= 8, whose last word is z. */
static inline int
folded_name_eq(const struct folded_name *c, const char *s, size_t n,
    uint64_t z)
{
	uint64_t	 x, y;
	size_t		 i;

	if (c->len != n)
		return (0);
	for (i = 0; i + 8 < n; i += 8) {
		memcpy(&x, c->name + i, 8);
		memcpy(&y, s + i, 8);
		if (x != y)
			return (0);
	}
	memcpy(&x, c->name + n - 8, 8);
	return (x == z);
}

/*
 * The function of a frame without a module: from the name cache, or
 * found or made by the builder and then cached, in the set's first
 * entry (the one there moves to the second).
 */
static uint32_t
folded_func(struct folded *f, const char *s, size_t n)
{
	struct folded_name	*c;
	uint64_t		 z, h;
	uint32_t		 fn;

	if (n < FOLDED_NAME_MIN || n > FOLDED_NAME_MAX)
		return (profile_builder_func(f->b, s, n, "", 0));
	if (f->names == NULL && folded_names_grow(f) == -1)
		return (profile_builder_func(f->b, s, n, "", 0));
	h = hash_ends(s, n, &z);
	c = &f->names[(h >> (64 - f->namebits)) * 2];
	if (folded_name_eq(&c[0], s, n, z))
		return (c[0].fn);
	if (folded_name_eq(&c[1], s, n, z))
		return (c[1].fn);
	if ((fn = profile_builder_func(f->b, s, n, "", 0)) != PROFILE_NONE) {
		if (c[0].len != 0)
			c[1] = c[0];
		c[0].fn = fn;
		c[0].len = n;
		memcpy(c[0].name, s, n);
		/* A full cache only slows the load: it may stay as it is. */
		if (++f->nnames > ((size_t)1 << f->namebits) &&
		    f->namebits < FOLDED_NAME_MAXBITS)
			(void)folded_names_grow(f);
	}
	return (fn);
}

/* Start loading the cache set of a name folded_func will look up. */
static inline void
folded_name_prefetch(const struct folded *f, const char *s, size_t n)
{
	const struct folded_name	*c;
	uint64_t			 h, z;

	if (n < FOLDED_NAME_MIN || n > FOLDED_NAME_MAX || f->names == NULL)
		return;
	h = hash_ends(s, n, &z);
	c = &f->names[(h >> (64 - f->namebits)) * 2];
	/* A set is 80 bytes: its end may lie in the next cache line. */
	__builtin_prefetch(c);
	__builtin_prefetch((const char *)(c + 2) - 1);
}

/*
 * Make the name cache, or double its sets, keeping the names it holds
 * (the first entry of a set before the second, as they were).
 */
static int
folded_names_grow(struct folded *f)
{
	struct folded_name	*t, *old = f->names, *c;
	size_t			 i, nold;
	int			 bits;
	uint64_t		 h, z;

	bits = old == NULL ? FOLDED_NAME_BITS : f->namebits + 1;
	if ((t = calloc((size_t)2 << bits, sizeof *t)) == NULL)
		return (-1);
	nold = old == NULL ? 0 : (size_t)2 << f->namebits;
	f->nnames = 0;
	for (i = 0; i < nold; i++) {
		if (old[i].len == 0)
			continue;
		h = hash_ends(old[i].name, old[i].len, &z);
		c = &t[(h >> (64 - bits)) * 2];
		c = c[0].len == 0 ? &c[0] : &c[1];
		if (c->len == 0) {
			*c = old[i];
			f->nnames++;
		}
	}
	free(old);
	f->names = t;
	f->namebits = bits;
	return (0);
}

/* Room for n frames of the last line, and of the walked nodes. */
static int
folded_room(struct folded *f, size_t n)
{
	size_t		 cap;
	void		*p;

	if (n > f->ecap) {
		cap = f->ecap ? f->ecap : 64;
		while (cap < n)
			cap *= 2;
		if ((p = realloc(f->end, cap * sizeof *f->end)) == NULL)
			return (-1);
		f->end = p;
		if ((p = realloc(f->origin, cap * sizeof *f->origin)) == NULL)
			return (-1);
		f->origin = p;
		if ((p = realloc(f->tick, cap * sizeof *f->tick)) == NULL)
			return (-1);
		f->tick = p;
		f->ecap = cap;
	}
	if (n > f->pcap) {
		cap = f->pcap ? f->pcap : 64;
		while (cap < n)
			cap *= 2;
		if ((p = realloc(f->pnode, cap * sizeof *f->pnode)) == NULL)
			return (-1);
		f->pnode = p;
		f->pcap = cap;
	}
	return (0);
}

/* Room for n new frames in a parsed line. */
static int
folded_line_room(struct folded_line *l, size_t n)
{
	size_t		 cap;
	void		*p;

	cap = l->cap ? l->cap : 16;
	while (cap < n)
		cap *= 2;
	if ((p = realloc(l->fn, cap * sizeof *l->fn)) == NULL)
		return (-1);
	l->fn = p;
	l->cap = cap;
	return (0);
}

/*
 * Intern the frames of one stack into the next line slot; its nodes are
 * found by folded_walk after the lines before are walked. -2 for a NUL
 * byte in the stack.
 *
 * No NUL is missed: the bytes that match the line before were checked
 * with it, and the scan for frames starts at most one byte after them,
 * at a byte that was ';'.
 *
 * The ends and origins of the frames the line reuses are those of the
 * line before: only the new frames' are written.
 */
static int
folded_parse(struct folded *f, const char *s, size_t len)
{
	uint64_t		 seq = f->parsed + 1;
	struct folded_line	*l = &f->line[seq % FOLDED_AHEAD];
	size_t			 c = 0, pos = 0, i = 0, end, lim, first, start, k;
	uint32_t		 fn;
	const char		*tick;

	/* The common prefix with the previous line, a word at a time. */
	lim = len < f->prevlen ? len : f->prevlen;
	while (c + 8 <= lim) {
		uint64_t	 x, y;

		memcpy(&x, s + c, 8);
		memcpy(&y, f->prev + c, 8);
		if (x != y) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* The first differing byte is the lowest set. */
			c += __builtin_ctzll(x ^ y) / 8;
			lim = c;
#endif
			break;
		}
		c += 8;
	}
	while (c < lim && s[c] == f->prev[c])
		c++;
	while (i < f->depth && f->end[i] <= c &&
	    (f->end[i] == len || s[f->end[i]] == ';')) {
		pos = f->end[i] + 1;
		i++;
	}
	l->reuse = i;
	l->origin = i > 0 ? f->origin[i - 1] : 0;
	/*
	 * First the frames' bounds, starting to load each name's cache set:
	 * in a program with tens of thousands of names the sets do not fit
	 * the processor's caches, and looked up one after another every
	 * frame waited for its own miss.
	 */
	first = i;
	start = pos;
	while (pos <= len) {
		end = folded_delim(s, pos, len);
		tick = NULL;
		if (end < len && s[end] == '`') {
			tick = s + end;
			/* The frame ends at the next ';'; more '`' are name. */
			do
				end = folded_delim(s, end + 1, len);
			while (end < len && s[end] == '`');
		}
		if (end < len && s[end] == '\0')
			return (-2);
		if (i >= f->ecap && folded_room(f, i + 1) == -1)
			return (-1);
		f->end[i] = end;
		f->tick[i] = tick != NULL ? (size_t)(tick - s) : SIZE_MAX;
		i++;
		pos = end + 1;
	}
	/* A line of one or two new frames (sorted input) waits anyway. */
	if (i - first > 2) {
		for (k = first, pos = start; k < i; pos = f->end[k] + 1, k++)
			if (f->tick[k] == SIZE_MAX)
				folded_name_prefetch(f, s + pos,
				    f->end[k] - pos);
	}
	for (k = first, pos = start; k < i; pos = f->end[k] + 1, k++) {
		end = f->end[k];
		if (f->tick[k] != SIZE_MAX) {
			tick = s + f->tick[k];
			fn = profile_builder_func(f->b, tick + 1,
			    s + end - tick - 1, s + pos, tick - s - pos);
		} else
			fn = folded_func(f, s + pos, end - pos);
		if (fn == PROFILE_NONE)
			return (-1);
		if (k - l->reuse >= l->cap &&
		    folded_line_room(l, k - l->reuse + 1) == -1)
			return (-1);
		l->fn[k - l->reuse] = fn;
		f->origin[k] = seq;
	}
	/* The walk writes a node for every frame. */
	if (i > f->pcap && folded_room(f, i) == -1)
		return (-1);
	l->depth = f->depth = i;
	l->hashed = 0;
	folded_hash(f, l);
	f->parsed = seq;
	f->prev = s;
	f->prevlen = len;
	return (0);
}

/*
 * Once the line that makes the first new node's parent is walked, the
 * parent is the walked node of that frame (every line since shares it):
 * hash the pair and start loading its slot.
 */
static void
folded_hash(struct folded *f, struct folded_line *l)
{
	if (l->hashed || l->reuse >= l->depth || l->origin > f->walked)
		return;
	l->hparent = l->reuse > 0 ? f->pnode[l->reuse - 1] : PROFILE_ROOT;
	l->h = profile_builder_prefetch(f->b, l->hparent, l->fn[0]);
	l->hashed = 1;
}

/* Find or make the nodes of a parsed line and add its counts. */
static int
folded_walk(struct folded *f, struct folded_line *l)
{
	size_t		 i;
	uint32_t	 node, made;

	node = l->reuse > 0 ? f->pnode[l->reuse - 1] : PROFILE_ROOT;
	i = l->reuse;
	/* A node made here is new: the frames after it are a chain. */
	made = profile_builder_nnodes(f->b);
	if (i < l->depth && l->hashed && node == l->hparent) {
		if ((node = profile_builder_child_hashed(f->b, node, l->fn[0],
		    l->h)) == PROFILE_NONE)
			return (-1);
		f->pnode[i++] = node;
	}
	for (; i < l->depth && node != made; i++) {
		if ((node = profile_builder_child(f->b, node,
		    l->fn[i - l->reuse])) == PROFILE_NONE)
			return (-1);
		f->pnode[i] = node;
	}
	if (i < l->depth) {
		if (profile_builder_chain(f->b, node, &l->fn[i - l->reuse],
		    l->depth - i, &f->pnode[i]) == -1)
			return (-1);
		node = f->pnode[l->depth - 1];
	}
	if (l->v != 0 && profile_builder_add(f->b, node, f->metric, l->v) ==
	    -1)
		return (-1);
	if (l->v2 > 0 && profile_builder_add(f->b, node, f->base, l->v2) ==
	    -1)
		return (-1);
	return (0);
}

/*
 * Walk the oldest line parsed; then a line half way through the
 * pipeline, whose slot is loaded by now, has the node there loaded.
 */
static int
folded_walk_one(struct folded *f, const char *path, char **cause)
{
	struct folded_line	*l;

	l = &f->line[(f->walked + 1) % FOLDED_AHEAD];
	if (folded_walk(f, l) == -1) {
		cause_set(cause, "%s: line %llu: %s", path,
		    (unsigned long long)l->lineno, profile_builder_error(f->b));
		return (-1);
	}
	/* A line of thousands of frames gives its room back. */
	if (l->cap > 4096) {
		free(l->fn);
		l->fn = NULL;
		l->cap = 0;
	}
	f->walked++;
	/*
	 * In a deep profile the first new node's parent is often made by
	 * the line just before: the next line's slot is loaded from here
	 * at least, one line ahead.
	 */
	if (f->walked < f->parsed &&
	    !f->line[(f->walked + 1) % FOLDED_AHEAD].hashed)
		folded_hash(f, &f->line[(f->walked + 1) % FOLDED_AHEAD]);
	if (f->walked + FOLDED_AHEAD / 2 <= f->parsed) {
		/* A slot loading only from now would be waited for here. */
		l = &f->line[(f->walked + FOLDED_AHEAD / 2) % FOLDED_AHEAD];
		if (l->hashed)
			profile_builder_prefetch_node(f->b, l->h);
		else
			folded_hash(f, l);
	}
	return (0);
}

/*
 * Walk the lines still pending, before anything later is reported: an
 * error there comes first, as it would have without the pipeline.
 */
static int
folded_flush(struct folded *f, const char *path, char **cause)
{
	while (f->walked < f->parsed) {
		if (folded_walk_one(f, path, cause) == -1) {
			f->walked = f->parsed;
			return (-1);
		}
	}
	return (0);
}

/*
 * Keep the last stack (at prevoff in the file) in the input's buffer for
 * the next to compare with, unless comment lines put it far behind.
 */
static inline void
folded_keep_prev(struct folded *f, struct input *in, uint64_t prevoff)
{
	uint64_t	 hold;

	if (f->prevlen == 0)
		return;
	hold = in->offset + in->pos - prevoff;
	if (hold > INPUT_MAX_LINE) {
		f->prevlen = 0;
		hold = 0;
	}
	in->hold = hold;
}

/*
 * A second number before the first: a differential line, whose first
 * number is the "base" metric's; *slen is cut to before it. *v2 is -1
 * when there is none. Most names that end in a digit ("foo_2169") have
 * no blank before the digits: that is tested first, so the common case
 * never builds (and frees) an error string. -1 if out of memory.
 */
static inline int
folded_base_count(struct folded *f, const char *line, size_t *slen,
    int64_t *v2)
{
	size_t	 l2 = *slen;
	char	*why2 = NULL;

	if (!(*slen > 0 && line[*slen - 1] >= '0' && line[*slen - 1] <= '9' &&
	    folded_blank_number(line, *slen))) {
		*v2 = -1;
		return (0);
	}
	if (folded_count(line, &l2, v2, &why2) == 0 && l2 > 0) {
		if (f->base == -1 && (f->base = profile_builder_metric(f->b,
		    "base", "count")) == -1) {
			free(why2);
			return (-1);
		}
		*slen = l2;
	} else
		*v2 = -1;
	free(why2);
	return (0);
}

/* Free what the parse allocated (not the builder). */
static void
folded_clear(struct folded *f)
{
	int	 i;

	free(f->names);
	for (i = 0; i < FOLDED_AHEAD; i++)
		free(f->line[i].fn);
	free(f->end);
	free(f->origin);
	free(f->tick);
	free(f->pnode);
}

static struct profile *
folded_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct folded		 f;
	struct folded_line	*l;
	struct profile		*p = NULL;
	char			*line, *why = NULL;
	size_t			 len, slen;
	int64_t			 v, v2;
	uint64_t		 nlines = 0, prevoff = 0;
	int			 rc;

	memset(&f, 0, sizeof f);
	f.base = -1;
	if ((f.b = profile_builder_create("folded")) == NULL)
		goto nomem;
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(f.b, opts->max_nodes);
	if ((f.metric = profile_builder_metric(f.b, "samples", "count")) ==
	    -1)
		goto nomem;

	for (;;) {
		folded_keep_prev(&f, in, prevoff);
		if ((line = input_line_fast(in, &len, &why)) == NULL)
			break;
		if (f.prevlen > 0)
			f.prev = in->buf + (prevoff - in->offset);
		while (len > 0 && (line[len - 1] == ' ' ||
		    line[len - 1] == '\t'))
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		slen = len;
		if (folded_count(line, &slen, &v, &why) == -1) {
			/* A NUL byte says more than what it broke. */
			if (memchr(line, '\0', len) != NULL)
				goto nulerr;
			goto lineerr;
		}
		if (folded_base_count(&f, line, &slen, &v2) == -1) {
			if (folded_flush(&f, in->path, cause) == -1)
				goto fail;
			goto nomem;
		}
		if (slen == 0) {
			why = NULL;
			cause_set(&why, "no stack before the count");
			goto lineerr;
		}
		/* Room in the pipeline for this line. */
		if (f.parsed - f.walked == FOLDED_AHEAD &&
		    folded_walk_one(&f, in->path, cause) == -1)
			goto fail;
		if ((rc = folded_parse(&f, line, slen)) == -2)
			goto nulerr;
		if (rc == -1)
			goto builderr;
		prevoff = in->offset + (line - in->buf);
		l = &f.line[f.parsed % FOLDED_AHEAD];
		l->v = v;
		l->v2 = v2;
		l->lineno = in->lineno;
		nlines++;
	}
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (nlines == 0) {
		cause_set(cause, "%s: no stacks in the file", in->path);
		goto fail;
	}
	p = profile_builder_finish(f.b, cause);
	f.b = NULL;
	goto done;

nulerr:
	free(why);
	why = NULL;
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	cause_set(cause, "%s: line %llu: NUL byte (binary data?)", in->path,
	    (unsigned long long)in->lineno);
	goto fail;
lineerr:
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, why ? why : "out of memory");
	goto fail;
builderr:
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, profile_builder_error(f.b));
	goto fail;
nomem:
	cause_set(cause, "out of memory");
fail:
	profile_builder_free(f.b);
done:
	free(why);
	in->hold = 0;
	folded_clear(&f);
	return (p);
}

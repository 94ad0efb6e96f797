/*
 * The builder's lookup structures: the child set (childset.c), the string
 * pool's interning with its fused ASCII check (strpool.c), and the
 * builder's nodes and self values over them (profile-builder.c), each
 * against a brute-force answer.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "childset.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"
#include "strpool.h"
#include "tap.h"

#define NODES	200000

/* A small deterministic generator (xorshift), so failures reproduce. */
static uint32_t
rnd(uint64_t *s)
{
	return ((uint32_t)(tap_xorshift(s) >> 16));
}

/*
 * A set that leaves out the children of lazy parents: every tenth node
 * lazy; nodes added in order, except each lazy parent's, which are not
 * added at all; rebuilds (from 1024 slots up) put back exactly the
 * others.
 */
static void
test_childset_lazy(uint32_t *par, uint32_t *fn)
{
	struct childset	 s;
	uint64_t	*lazy, seed = 7;
	uint32_t	 n, bad = 0, wrong = 0, in = 0;

	lazy = calloc(NODES / 64 + 1, sizeof *lazy);
	for (n = 0; n <= NODES; n += 10)
		lazy[n / 64] |= (uint64_t)1 << (n % 64);
	childset_init(&s);
	for (n = 1; n <= NODES; n++) {
		par[n] = n < 100 ? 0 : rnd(&seed) % n;
		fn[n] = n;		/* distinct keys */
		if (childset_lazy(lazy, par[n]))
			continue;
		if (childset_add(&s, par, fn, lazy, n + 1, n) == -1)
			bad++;
		in++;
	}
	is_int(bad, 0, "nodes of busy parents added");
	is_int(s.len, in, "the set holds %u of %d nodes", in, NODES);
	for (n = 1; n <= NODES; n++) {
		if (childset_find(&s, par, fn, par[n], fn[n]) !=
		    (childset_lazy(lazy, par[n]) ? CHILDSET_NONE : n))
			wrong++;
	}
	is_int(wrong, 0, "found exactly when the parent is not lazy");
	is_int(childset_reserve(&s, par, fn, lazy, NODES + 1, s.len * 3), 0,
	    "a reserve rebuilds");
	for (n = 1, wrong = 0; n <= NODES; n++) {
		if (childset_find(&s, par, fn, par[n], fn[n]) !=
		    (childset_lazy(lazy, par[n]) ? CHILDSET_NONE : n))
			wrong++;
	}
	is_int(wrong + (s.len != in), 0, "... and puts back the same nodes");
	for (n = 1; n < NODES && !childset_lazy(lazy, par[n]); n++)
		;
	is_int(childset_add(&s, par, fn, lazy, NODES + 1, n), -1,
	    "a lazy parent's child is refused");
	childset_clear(&s);
	free(lazy);
}

static void
test_childset(void)
{
	struct childset	 s;
	uint32_t	*par, *fn, n, bad = 0, wrong = 0;
	uint64_t	 seed = 88172645463325252ULL;

	par = calloc(NODES + 1, sizeof *par);
	fn = calloc(NODES + 1, sizeof *fn);
	childset_init(&s);
	is_int(childset_find(&s, par, fn, 0, 1), CHILDSET_NONE,
	    "an empty set finds nothing");
	is_int(childset_memory(&s), 0, "an empty set holds no memory");
	/*
	 * Node n: parent a random earlier node, function random among few
	 * (many equal functions under different parents) and made distinct
	 * per parent by retrying, as the builder guarantees.
	 */
	for (n = 1; n <= NODES; n++) {
		do {
			par[n] = n < 1000 ? 0 : rnd(&seed) % n;
			fn[n] = rnd(&seed) % 5000;
		} while (childset_find(&s, par, fn, par[n], fn[n]) !=
		    CHILDSET_NONE);
		if (childset_add(&s, par, fn, NULL, n + 1, n) == -1)
			bad++;
	}
	is_int(bad, 0, "%d nodes added", NODES);
	is_int(s.len, NODES, "the set counts them");
	ok(s.len * 2 <= s.cap && s.cap <= s.len * 4,
	    "load between 1/4 and 1/2 (%zu in %zu slots)", s.len, s.cap);
	is_int(childset_memory(&s), s.cap * 4, "four bytes a slot");
	for (n = 1; n <= NODES; n++) {
		if (childset_find(&s, par, fn, par[n], fn[n]) != n)
			wrong++;
	}
	is_int(wrong, 0, "every node found by its parent and function");
	for (n = 1, wrong = 0; n <= 10000; n++) {
		/* Function 5000 and up was never used. */
		if (childset_find(&s, par, fn, par[n], 5000 + n) !=
		    CHILDSET_NONE ||
		    childset_find(&s, par, fn, NODES + n, fn[n]) !=
		    CHILDSET_NONE)
			wrong++;
	}
	is_int(wrong, 0, "absent pairs are not found");
	for (n = 0, wrong = 0; n < s.cap; n++) {
		/* Ids fit under the tag bits: at most cap / 2. */
		if ((s.slots[n] & s.idmask) > s.len ||
		    (s.slots[n] != 0 && (s.slots[n] & s.idmask) == 0))
			wrong++;
	}
	is_int(wrong, 0, "every slot's id fits in its %d id bits",
	    __builtin_popcount(s.idmask));
	ok(s.idmask != UINT32_MAX, "slots have tag bits at %zu slots",
	    s.cap);
	for (n = 1; n <= 1000; n++)
		childset_prefetch(&s, par[n], fn[n] + 1);
	for (n = 1, wrong = 0; n <= NODES; n++) {
		if (childset_find(&s, par, fn, par[n], fn[n]) != n)
			wrong++;
	}
	is_int(wrong, 0, "prefetching changes nothing");
	is_int(childset_add(&s, par, fn, NULL, NODES + 1, NODES + 5), -1,
	    "adding a node past the ids given is refused");
	childset_clear(&s);
	is_int(childset_find(&s, par, fn, par[1], fn[1]), CHILDSET_NONE,
	    "a cleared set finds nothing");
	childset_prefetch(&s, 1, 2);
	/*
	 * Keys whose hashes share the slot bits: many pairs of one parent,
	 * in a small set (1024 slots, 22 tag bits), all found.
	 */
	for (n = 1; n <= 500; n++) {
		par[n] = 0;
		fn[n] = n * 1024;
		if (childset_add(&s, par, fn, NULL, n + 1, n) == -1)
			bad++;
	}
	for (n = 1, wrong = 0; n <= 500; n++) {
		if (childset_find(&s, par, fn, 0, n * 1024) != n ||
		    childset_find(&s, par, fn, 0, n * 1024 + 1) !=
		    CHILDSET_NONE)
			wrong++;
	}
	is_int(bad + wrong, 0, "a small set with tags finds its 500 nodes");
	/* A miss remembers its empty slot; adding another pair ignores it. */
	par[501] = 0;
	fn[501] = 7;
	is_int(childset_find(&s, par, fn, 0, 999999), CHILDSET_NONE,
	    "a miss");
	ok(childset_add(&s, par, fn, NULL, 502, 501) == 0 &&
	    childset_find(&s, par, fn, 0, 7) == 501 &&
	    childset_find(&s, par, fn, 0, 999999) == CHILDSET_NONE,
	    "a pair other than the missed one goes where it hashes");
	par[502] = 0;
	fn[502] = 999999;
	ok(childset_add(&s, par, fn, NULL, 503, 502) == 0 &&
	    childset_find(&s, par, fn, 0, 999999) == 502 &&
	    childset_find(&s, par, fn, 0, 7) == 501,
	    "the missed pair added later is found");
	childset_clear(&s);
	test_childset_lazy(par, fn);
	free(par);
	free(fn);
}

static void
test_strpool(void)
{
	struct strpool	*p;
	char		 name[64];
	uint32_t	 a, b, c, id, ids[3000], wrong = 0, i;
	int		 odd = -1;

	p = strpool_create();
	is_int(strpool_intern(p, "", 0), 0, "the empty string is id 0");
	is_int(strpool_intern_ascii(p, "", 0, &odd), 0,
	    "... also through the ASCII path");
	is_int(odd, 0, "... which is plain");
	a = strpool_intern_ascii(p, "abcdefgh", 8, &odd);
	b = strpool_intern_ascii(p, "abcdefghi", 9, &odd);
	c = strpool_intern_ascii(p, "abcdefg", 7, &odd);
	ok(a != b && b != c && a != c && a != STRPOOL_NONE &&
	    b != STRPOOL_NONE && c != STRPOOL_NONE,
	    "prefixes of each other are distinct strings");
	is_int(strpool_intern(p, "abcdefghi", 9), b,
	    "both paths give the same id");
	is_int(strpool_intern(p, "abcdefg", 7), c, "... for a shorter one");
	is_str(strpool_get(p, a), "abcdefgh", "stored whole");
	is_int(strpool_intern(p, "abcdefgh\0xyz", 12), a,
	    "strpool_intern cuts at a NUL");
	odd = 0;
	is_int(strpool_intern_ascii(p, "abcdefgh\0xyz", 12, &odd),
	    STRPOOL_NONE, "the ASCII path refuses a NUL");
	is_int(odd, 1, "... and says why");
	odd = 0;
	is_int(strpool_intern_ascii(p, "ab\0", 3, &odd), STRPOOL_NONE,
	    "... a NUL in the tail too");
	odd = 0;
	is_int(strpool_intern_ascii(p, "caf\xc3\xa9", 5, &odd), STRPOOL_NONE,
	    "the ASCII path refuses a byte above 0x7f");
	is_int(odd, 1, "... and says why");
	odd = 0;
	is_int(strpool_intern_ascii(p, "0123456789abcdef\x80", 17, &odd),
	    STRPOOL_NONE, "... after two words too");
	is_int(odd, 1, "... and says why");
	is_int(strpool_intern_ascii(p, "\x7f\x01~ 0123456789", 14, &odd) ==
	    STRPOOL_NONE, 0, "0x01 and 0x7f are plain ASCII");
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "f%u_%.*s", i, (int)(i % 40),
		    "0123456789012345678901234567890123456789");
		ids[i] = strpool_intern_ascii(p, name, strlen(name), &odd);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "f%u_%.*s", i, (int)(i % 40),
		    "0123456789012345678901234567890123456789");
		id = strpool_intern(p, name, strlen(name));
		if (id != ids[i] || strcmp(strpool_get(p, id), name) != 0)
			wrong++;
	}
	is_int(wrong, 0, "3,000 strings found again after the table grew");
	/*
	 * Every length to 40 and every place of an odd byte: the tail of a
	 * name of 8 bytes or more is read as the top of its last word.
	 */
	for (a = 1, wrong = 0; a <= 40; a++) {
		for (b = 0; b < a; b++) {
			memset(name, 'x', a);
			name[b] = b % 2 ? '\0' : '\x90';
			odd = 0;
			if (strpool_intern_ascii(p, name, a, &odd) !=
			    STRPOOL_NONE || odd != 1)
				wrong++;
		}
		memset(name, 'x', a);
		name[a - 1] = 'a' + a % 26;
		id = strpool_intern_ascii(p, name, a, &odd);
		if (id == STRPOOL_NONE || odd != 0 ||
		    strpool_intern(p, name, a) != id ||
		    strlen(strpool_get(p, id)) != a)
			wrong++;
	}
	is_int(wrong, 0, "odd bytes found at every place of 1..40 bytes");
	strpool_free(p);
}

static void
test_builder(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 f[100], n, k, wrong = 0;
	int			 m;
	char			*cause = NULL, name[16];
	uint64_t		 seed = 42;

	b = profile_builder_create("test");
	m = profile_builder_metric(b, "samples", "count");
	for (k = 0; k < 100; k++) {
		snprintf(name, sizeof name, "f%u", k);
		f[k] = profile_builder_func(b, name, strlen(name), "", 0);
	}
	/* Three levels of fan-out 100: a million possible nodes, some made. */
	for (k = 0; k < 300000; k++) {
		n = profile_builder_child(b, PROFILE_ROOT,
		    f[rnd(&seed) % 100]);
		n = profile_builder_child(b, n, f[rnd(&seed) % 100]);
		n = profile_builder_child(b, n, f[rnd(&seed) % 100]);
		if (n == PROFILE_NONE)
			wrong++;
		profile_builder_add(b, n, m, 1);
		if (profile_builder_sample(b, n, k) == -1)
			wrong++;
	}
	is_int(wrong, 0, "every stack found or made");
	n = profile_builder_nnodes(b);
	ok(n > 100000 && n < 1000000, "%u nodes", n);
	for (k = 1, wrong = 0; k < n; k++) {
		if (profile_builder_child(b, profile_builder_node_parent(b, k),
		    profile_builder_node_func(b, k)) != k)
			wrong++;
	}
	is_int(wrong, 0, "every node found again by parent and function");
	is_int(profile_builder_nnodes(b), n, "... making none");
	/* A metric declared late starts at zero on every node. */
	is_int(profile_builder_metric(b, "late", "count"), 1, "a late metric");
	p = profile_builder_finish(b, &cause);
	ok(p != NULL, "finished");
	if (p == NULL)
		return;
	is_int(p->metrics[0].sum, 300000, "self values add up");
	is_int(p->nsamples, 300000, "every sample kept");
	for (k = 0, wrong = 0; k < p->nsamples; k++) {
		if (profile_sample_weight(p, k) != k ||
		    p->sample_node[k] >= p->nnodes ||
		    p->node_depth[p->sample_node[k]] != 3)
			wrong++;
	}
	is_int(wrong, 0, "samples in order, each at a leaf");
	is_int(p->sample_wsize, 4, "weights up to 299999 kept in 4 bytes");
	for (k = 0, wrong = 0; k < p->nnodes; k++) {
		if (p->metrics[1].self[k] != 0 ||
		    (p->node_depth[k] != 3 && p->metrics[0].self[k] != 0))
			wrong++;
	}
	is_int(wrong, 0, "nodes start at zero; only leaves have self values");
	profile_free(p);
}

/*
 * Deep stacks from random places: chains (profile_builder_chain) and
 * single children off nodes made long before, so lazy parents (one
 * child, the next node) get second children at any time. Every
 * (parent, function) pair must stay unique and be found again.
 */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * The run weights stay at the narrowest width that holds them all,
 * widened as a wider one comes, and every one reads back the same.
 */
static void
test_builder_weights(void)
{
	static const struct {
		unsigned	 wsize;
		int64_t		 w[4];
	} cases[] = {
		{ 1, { 1, -128, 127, 0 } },
		{ 2, { 1, 127, 128, -32768 } },
		{ 4, { -1, 32767, -32769, INT32_MAX } },
		{ 8, { 3, INT32_MIN, INT64_MIN, INT64_MAX } },
	};
	struct profile_builder	*b;
	struct profile		*p;
	char			*cause = NULL;
	size_t			 c, k;
	uint32_t		 f, n;
	int			 same;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		b = profile_builder_create("test");
		profile_builder_metric(b, "samples", "count");
		f = profile_builder_func(b, "f", 1, "", 0);
		n = profile_builder_child(b, PROFILE_ROOT, f);
		/* Enough samples that the array grows past its first size. */
		for (k = 0; k < 3000; k++)
			profile_builder_sample(b, n, cases[c].w[k * 4 / 3000]);
		p = profile_builder_finish(b, &cause);
		ok(p != NULL, "weights of %u bytes: finished", cases[c].wsize);
		if (p == NULL)
			continue;
		is_int(p->sample_wsize, cases[c].wsize, "... kept in %u bytes",
		    cases[c].wsize);
		for (k = 0, same = p->nsamples == 3000; same && k < 3000; k++)
			same = profile_sample_weight(p, k) ==
			    cases[c].w[k * 4 / 3000];
		ok(same, "... each read back the same");
		profile_free(p);
	}
	b = profile_builder_create("test");
	profile_builder_metric(b, "samples", "count");
	p = profile_builder_finish(b, &cause);
	ok(p != NULL && p->nsamples == 0 && p->sample_wsize == 0 &&
	    p->sample_weight == NULL, "no samples: no weights, width 0");
	profile_free(p);
	free(cause);
}

static void
test_builder_lazy(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 f[50], fn[40], out[40], n, q, k, d, i;
	uint32_t		 wrong = 0, dup = 0;
	uint64_t		 seed = 4242, *keys;
	char			*cause = NULL, name[16];

	b = profile_builder_create("test");
	for (k = 0; k < 50; k++) {
		snprintf(name, sizeof name, "g%u", k);
		f[k] = profile_builder_func(b, name, strlen(name), "", 0);
	}
	for (k = 0; k < 20000; k++) {
		n = profile_builder_nnodes(b);
		q = rnd(&seed) % 4 == 0 ? PROFILE_ROOT : rnd(&seed) % n;
		d = 1 + rnd(&seed) % 30;
		for (i = 0; i < d; i++)
			fn[i] = f[rnd(&seed) % 50];
		if (rnd(&seed) % 2 == 0) {
			/* Frame by frame: finds what exists, makes the rest. */
			for (i = 0; i < d && q != PROFILE_NONE; i++)
				q = profile_builder_child(b, q, fn[i]);
			wrong += q == PROFILE_NONE;
		} else {
			/* A child, then a chain under it if it is new. */
			q = profile_builder_child(b, q, fn[0]);
			if (q == n && d > 1)
				wrong += profile_builder_chain(b, q, fn + 1,
				    d - 1, out) == -1;
		}
	}
	is_int(wrong, 0, "every stack made");
	n = profile_builder_nnodes(b);
	for (k = 1, wrong = 0; k < n; k++) {
		if (profile_builder_child(b, profile_builder_node_parent(b, k),
		    profile_builder_node_func(b, k)) != k)
			wrong++;
	}
	is_int(wrong, 0, "all %u nodes found again by parent and function", n);
	is_int(profile_builder_nnodes(b), n, "... making none");
	keys = malloc(n * sizeof *keys);
	for (k = 1; k < n; k++)
		keys[k - 1] = (uint64_t)profile_builder_node_parent(b, k) <<
		    32 | profile_builder_node_func(b, k);
	qsort(keys, n - 1, sizeof *keys, cmp_u64);
	for (k = 1; k < n - 1; k++)
		dup += keys[k] == keys[k - 1];
	is_int(dup, 0, "no two nodes with one parent and function");
	free(keys);
	p = profile_builder_finish(b, &cause);
	ok(p != NULL, "finished");
	profile_free(p);
	free(cause);
}

/* Load folded text; NULL with *cause set on error. */
static struct profile *
folded(const char *text, char **cause)
{
	struct input	*in = input_memory(text, strlen(text));
	struct profile	*p;

	*cause = NULL;
	p = reader_load_input(in, "folded", NULL, cause);
	input_free(in);
	return (p);
}

/* The folded reader's count parsing, fast path and checked path. */
static void
test_folded_counts(void)
{
	struct profile	*p;
	char		*cause;

	p = folded("a;b_12 999999999999999999\na;c 8000000000000000001\n"
	    "a;d 2.5\n", &cause);
	ok(p != NULL, "18 and 19 digits and a fraction load: %s",
	    cause ? cause : "ok");
	if (p != NULL) {
		is_int(p->metrics[0].self[2], 999999999999999999LL,
		    "18 digits exact (a name ending in digits is no base)");
		is_int(p->metrics[0].self[3], 8000000000000000001LL,
		    "19 digits exact");
		is_int(p->metrics[0].self[4], 3, "2.5 rounds to 3");
		is_int(p->nmetrics, 1, "no base metric");
		profile_free(p);
	}
	free(cause);
	p = folded("a;b 99999999999999999999\n", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "line 1: count "
	    "overflows 64 bits") != NULL, "20 digits overflow: %s",
	    cause ? cause : "?");
	free(cause);
	p = folded("a;b 1.2.3\n", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "bad count") != NULL,
	    "two dots: %s", cause ? cause : "?");
	free(cause);
	p = folded("a;b 3 4\na;c_7 5\n", &cause);
	ok(p != NULL && p->nmetrics == 2, "two counts: a differential line");
	if (p != NULL) {
		is_int(p->metrics[0].self[2], 4, "second count is samples");
		is_int(p->metrics[1].self[2], 3, "first count is base");
		is_int(p->metrics[0].self[3], 5, "c_7 has one count");
		is_int(p->metrics[1].self[3], 0, "... and no base");
		profile_free(p);
	}
	free(cause);
}

/*
 * The folded reader's pipeline (frames interned a line ahead, node slots
 * prefetched, nodes reused from the line before) against brute force:
 * random stacks over few names, some lines repeated or prefixes of the
 * one before, give the same self value per path as summing the lines.
 */
static void
test_folded_pipeline(void)
{
	static const char *const names[] = { "a", "b", "c", "m`d", "e_1",
	    "", "ff", "b`a" };
	struct profile	*p;
	char		*text, *cause, **want, **got, buf[256];
	size_t		 len = 0, nwant = 0, ngot = 0, i, j;
	uint64_t	 seed = 1234567;
	uint32_t	 n, m, path[64];
	int		 depth, k, wrong = 0;

	text = malloc(4000 * 64);
	want = calloc(4000, sizeof *want);
	buf[0] = '\0';
	for (i = 0; i < 4000; i++) {
		/* Half the lines extend or cut the line before. */
		if (i > 0 && rnd(&seed) % 2 == 0) {
			j = strlen(buf);
			if (rnd(&seed) % 2 == 0 && j < 40)
				snprintf(buf + j, sizeof buf - j, ";%s",
				    names[rnd(&seed) % 8]);
			else if (strrchr(buf, ';') != NULL)
				*strrchr(buf, ';') = '\0';
		} else {
			depth = 1 + rnd(&seed) % 5;
			buf[0] = '\0';
			for (k = 0; k < depth; k++) {
				j = strlen(buf);
				snprintf(buf + j, sizeof buf - j, "%s%s",
				    k ? ";" : "", names[rnd(&seed) % 8]);
			}
		}
		if (buf[0] == '\0')
			snprintf(buf, sizeof buf, "a");
		len += sprintf(text + len, "%s %u\n", buf,
		    1 + rnd(&seed) % 9);
		want[nwant++] = strdup(text + len - (strlen(buf) + 3));
	}
	text[len] = '\0';
	p = folded(text, &cause);
	ok(p != NULL, "4000 random lines load: %s", cause ? cause : "ok");
	free(cause);
	if (p == NULL)
		goto out;
	/* Sum the wanted lines per path: sort, then merge equal paths. */
	for (i = 0; i < nwant; i++)
		*strrchr(want[i], '\n') = '\0';
	got = calloc(p->nnodes, sizeof *got);
	for (n = 1; n < p->nnodes; n++) {
		if (p->metrics[0].self[n] == 0)
			continue;
		for (k = 0, m = n; m != PROFILE_ROOT; m = p->node_parent[m])
			path[k++] = m;
		j = 0;
		depth = k;
		while (k-- > 0) {
			uint32_t	 f = p->node_func[path[k]];
			const char	*mod;

			mod = strpool_get(p->strings, p->func_module[f]);
			j += snprintf(buf + j, sizeof buf - j, "%s%s%s%s",
			    k + 1 < depth ? ";" : "", mod, *mod ? "`" : "",
			    strpool_get(p->strings, p->func_name[f]));
		}
		snprintf(buf + j, sizeof buf - j, " %lld",
		    (long long)p->metrics[0].self[n]);
		got[ngot++] = strdup(buf);
	}
	for (i = 0; i < ngot; i++) {
		int64_t	 sum = 0;
		size_t	 pl;
		char	*sp = strrchr(got[i], ' ');

		pl = sp - got[i];
		for (j = 0; j < nwant; j++) {
			if (strncmp(want[j], got[i], pl) == 0 &&
			    want[j][pl] == ' ')
				sum += strtoll(want[j] + pl + 1, NULL, 10);
		}
		if (sum != strtoll(sp + 1, NULL, 10) && wrong++ < 3)
			diag("%s: lines sum to %lld", got[i], (long long)sum);
	}
	is_int(wrong, 0, "each of %zu paths has the sum of its lines", ngot);
	for (j = 0, wrong = 0; j < nwant; j++) {
		size_t	 pl = strrchr(want[j], ' ') - want[j];

		for (i = 0; i < ngot; i++) {
			if (strncmp(want[j], got[i], pl) == 0 &&
			    got[i][pl] == ' ')
				break;
		}
		if (i == ngot)
			wrong++;
	}
	is_int(wrong, 0, "every line's path is a node with a value");
	for (i = 0; i < ngot; i++)
		free(got[i]);
	free(got);
	profile_free(p);
out:
	for (i = 0; i < nwant; i++)
		free(want[i]);
	free(want);
	free(text);
}

/* Errors keep the order of the lines though nodes are made a line late. */
static void
test_folded_errors(void)
{
	struct reader_options	 o = { 3, NULL };
	struct input		*in;
	struct profile		*p;
	char			*cause = NULL;
	const char		*t = "a;b 1\na;c;d 2\nx y\n";

	in = input_memory(t, strlen(t));
	p = reader_load_input(in, "folded", &o, &cause);
	input_free(in);
	ok(p == NULL && cause != NULL &&
	    strstr(cause, "line 2: too many call nodes") != NULL,
	    "the node limit on line 2 comes before line 3's bad count: %s",
	    cause ? cause : "?");
	free(cause);
	o.max_nodes = 5;
	in = input_memory(t, strlen(t));
	p = reader_load_input(in, "folded", &o, &cause);
	input_free(in);
	ok(p == NULL && cause != NULL &&
	    strstr(cause, "line 3: no count") != NULL,
	    "lines 1-2 fit in 5 nodes; line 3 has no count: %s",
	    cause ? cause : "?");
	free(cause);
	t = "a;b 1\na;b;c;d 2\n";
	o.max_nodes = 4;
	in = input_memory(t, strlen(t));
	p = reader_load_input(in, "folded", &o, &cause);
	input_free(in);
	ok(p == NULL && cause != NULL &&
	    strstr(cause, "line 2: too many call nodes") != NULL,
	    "the last line is walked too: %s", cause ? cause : "?");
	free(cause);
}

int
main(void)
{
	test_childset();
	test_strpool();
	test_builder();
	test_builder_weights();
	test_builder_lazy();
	test_folded_counts();
	test_folded_pipeline();
	test_folded_errors();
	return (tap_done());
}

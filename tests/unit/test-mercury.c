/*
 * The Mercury Deep.data reader. On the real test profile (mdprof's own
 * mandelbrot Deep.data, tests/data/samples/Deep.data): the totals
 * equal the header's and mdprof's figures, and the structure kept for the clique
 * and call-site views is complete. On files from our encoder
 * (mercury-encode.c), versions 8 and 9 with every coverage mode: direct
 * and mutual recursion counted once, cliques, propagation, names; the
 * real file re-encoded as version 9 gives the same figures; broken files
 * fail with a clear cause.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "mercury.h"
#include "mercury-encode.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

static struct profile *
load_mem(const struct menc *e, const char *format, char **cause)
{
	struct input	*in = input_memory((const char *)e->data, e->len);
	struct profile	*p;

	*cause = NULL;
	p = reader_load_input(in, format, NULL, cause);
	input_free(in);
	return (p);
}

static int64_t
sum(const struct profile *p, const char *metric)
{
	int	 m = profile_metric_find(p, metric);

	return (m < 0 ? -1 : p->metrics[m].sum);
}

static int64_t
func_value(const struct profile *p, const char *name, const char *metric,
    int total)
{
	uint32_t	 f = profile_func_find(p, name);
	int		 m = profile_metric_find(p, metric);

	if (f == PROFILE_NONE || m < 0)
		return (-1);
	return (total ? p->metrics[m].func_total[f] :
	    p->metrics[m].func_self[f]);
}

/* The node at a path of function names (NULL-terminated). */
static uint32_t
node_at(const struct profile *p, ...)
{
	va_list		 ap;
	const char	*name;
	uint32_t	 n = PROFILE_ROOT, c;

	va_start(ap, p);
	while ((name = va_arg(ap, const char *)) != NULL) {
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			if (strcmp(profile_func_name(p, p->node_func[c]),
			    name) == 0)
				break;
		}
		if ((n = c) == PROFILE_NONE)
			break;
	}
	va_end(ap);
	return (n);
}

/* The profile totals equal the sums in *o, metric by metric. */
static void
totals_are(const struct profile *p, const struct mercury_own *o,
    const char *what)
{
	is_int(sum(p, "callseqs"), o->callseqs, "%s: callseqs", what);
	is_int(sum(p, "quanta"), o->quanta, "%s: quanta", what);
	is_int(sum(p, "allocs"), o->allocs, "%s: allocs", what);
	is_int(sum(p, "words"), o->words, "%s: words", what);
	is_int(sum(p, "exits"), o->exits, "%s: exits", what);
	is_int(sum(p, "fails"), o->fails, "%s: fails", what);
	is_int(sum(p, "redos"), o->redos, "%s: redos", what);
	is_int(sum(p, "excps"), o->excps, "%s: excps", what);
	is_int(sum(p, "calls"), mercury_calls(o),
	    "%s: calls = exits + fails + excps - redos", what);
}

/* No function's total exceeds the program's: recursion counted once. */
static void
no_double_count(const struct profile *p, const char *what)
{
	uint32_t	 f, k, bad = 0;

	for (k = 0; k < p->nmetrics; k++) {
		for (f = 0; f < p->nfuncs; f++) {
			if (p->metrics[k].func_total[f] > p->metrics[k].sum ||
			    p->metrics[k].func_self[f] >
			    p->metrics[k].func_total[f])
				bad++;
		}
	}
	is_int(bad, 0, "%s: self <= total <= the program's, every function "
	    "and metric", what);
}

/* The example of mercury-encode.c, in one version and coverage mode. */
static void
test_example(int version, int coverage)
{
	struct menc		 e = { 0 };
	struct mercury_own	 want;
	struct profile		*p;
	const struct mercury	*m;
	const struct mercury_clique *cl;
	char			*cause, what[64];
	uint32_t		 f, n;

	snprintf(what, sizeof what, "example v%d coverage %d", version,
	    coverage);
	menc_example(&e, version, coverage, &want);
	p = load_mem(&e, NULL, &cause);
	ok(p != NULL, "%s loads", what);
	if (p == NULL) {
		diag("%s", cause ? cause : "?");
		free(cause);
		menc_free(&e);
		return;
	}
	is_str(p->format, "mercury", "%s: detected", what);
	totals_are(p, &want, what);
	no_double_count(p, what);

	/*
	 * f: direct recursion, mutual recursion with g, and a second PD
	 * of f reached through a higher-order call share one node.
	 */
	is_int(func_value(p, "f/2+1-0", "callseqs", 0), 50 + 100 + 9 + 4,
	    "%s: f's self: its calls, recursive ones included", what);
	is_int(func_value(p, "f/2+1-0", "callseqs", 1), 193,
	    "%s: f's total counts the recursion once", what);
	is_int(func_value(p, "g/3-1 [T = int]", "callseqs", 1), 30 + 9,
	    "%s: g (a type specialisation) total: its own and its call of "
	    "f", what);
	is_int(func_value(p, "main/2-0", "callseqs", 1), 198,
	    "%s: main's total is the program's", what);
	f = profile_func_find(p, "Unify for tree/0");
	ok(f != PROFILE_NONE && strcmp(profile_func_module(p, f), "prog") ==
	    0, "%s: special predicate name and module", what);
	is_int(p->nnodes, 7, "%s: root, main, f, f, g, f, h", what);
	n = node_at(p, "main/2-0", "f/2+1-0", NULL);
	is_int(n != PROFILE_NONE ? p->metrics[0].self[n] : -1, 50 + 4,
	    "%s: main>f: CSD 2 and, through the higher-order site, CSD 6",
	    what);
	n = node_at(p, "main/2-0", "f/2+1-0", "f/2+1-0", NULL);
	is_int(n != PROFILE_NONE ? p->metrics[0].self[n] : -1, 100,
	    "%s: main>f>f: the direct recursion, a leaf", what);
	n = node_at(p, "main/2-0", "f/2+1-0", "g/3-1 [T = int]", "f/2+1-0",
	    NULL);
	is_int(n != PROFILE_NONE ? p->metrics[0].self[n] : -1, 9,
	    "%s: main>f>g>f: the mutual recursion, a leaf", what);
	ok(n != PROFILE_NONE && p->node_first_child[n] == PROFILE_NONE,
	    "%s: recursive calls make no deeper nodes", what);
	is_int(p->nfuncs, 5, "%s: four procedures called and the root", what);

	m = mercury_of(p);
	ok(m != NULL, "%s: Mercury structure kept", what);
	if (m == NULL)
		goto out;
	is_int(m->version, version, "%s: version", what);
	is_int(m->coverage, coverage, "%s: coverage mode", what);
	is_int(m->num_callseqs, 198, "%s: header callseqs", what);
	is_int(m->user_quanta, 34, "%s: header quanta", what);
	is_int(m->ncliques, 5, "%s: five cliques", what);
	cl = &m->clique[m->pd[3].clique];
	ok(m->pd[3].clique == m->pd[4].clique && cl->nmembers == 2 &&
	    m->clique_pd[cl->members] == 3 && cl->entry == 2,
	    "%s: f and g form one clique, entered at f through CSD 2", what);
	ok(m->pd[2].clique > m->pd[3].clique && m->pd[1].clique ==
	    m->ncliques && m->root_clique == m->pd[1].clique,
	    "%s: cliques numbered bottom-up, the root's last", what);
	is_int(m->pd[3].own.callseqs, 159, "%s: PD f own: CSDs 2, 3 and 7",
	    what);
	is_int(m->csd[2].desc.callseqs, 189 - 50,
	    "%s: CSD main->f desc: the clique's total minus its own", what);
	is_int(m->pd[1].own.callseqs + m->pd[1].desc.callseqs, 198,
	    "%s: the root PD's total is the header's callseqs", what);
	is_int(m->csd[7].caller, 4, "%s: CSD 7's caller derived", what);
	is_int(m->csd[7].css, 6, "%s: CSD 7's call site derived", what);
	is_int(m->css[5].ps * 100 + m->css[5].slot, 301,
	    "%s: CSS 5 is slot 1 of PS 3", what);
	is_str(profile_string(p, m->css[5].type_subst), "T = int",
	    "%s: type substitution", what);
	is_str(profile_string(p, m->css[3].file), version == 9 ?
	    "inlined.opt.m" : "prog.m", "%s: call site file", what);
	is_str(profile_string(p, m->css[2].file), "prog.m",
	    "%s: empty call site file is the procedure's", what);
	is_str(profile_string(p, m->ps[6].name), "foo lambda line 55/1",
	    "%s: lambda name", what);
	is_int(m->ps[6].func, PROFILE_NONE,
	    "%s: a procedure never called makes no function", what);
	is_int(m->ps[2].ncoverage, coverage ? 2 : 0,
	    "%s: coverage points counted", what);
	ok(m->pd[6].node == m->pd[3].node && m->func_ps[m->ps[3].func] == 3,
	    "%s: PDs and functions map to nodes and procedures", what);
out:
	profile_free(p);
	menc_free(&e);
}

/* Every single-bit flip and truncation loads or fails with a cause. */
static void
test_mutations(void)
{
	struct menc		 e = { 0 }, c = { 0 };
	struct mercury_own	 want;
	struct profile		*p;
	char			*cause;
	size_t			 i, n = 0, clean = 0;

	menc_example(&e, 9, 2, &want);
	c.data = malloc(e.len);
	for (i = 0; i < e.len * 8; i++) {
		memcpy(c.data, e.data, e.len);
		c.data[i / 8] ^= 1 << (i % 8);
		c.len = e.len;
		p = load_mem(&c, "mercury", &cause);
		clean += p != NULL || cause != NULL;
		n++;
		profile_free(p);
		free(cause);
	}
	memcpy(c.data, e.data, e.len);
	for (i = 0; i < e.len; i++) {
		c.len = i;
		p = load_mem(&c, "mercury", &cause);
		clean += p != NULL || cause != NULL;
		n++;
		profile_free(p);
		free(cause);
	}
	is_int(clean, n, "%zu bit flips and truncations of the example load "
	    "or fail with a cause", n);
	free(c.data);
	menc_free(&e);
}

static void
refused(struct menc *e, const char *want, const char *what)
{
	struct profile	*p;
	char		*cause;

	p = load_mem(e, NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, want) != NULL, "%s",
	    what);
	if (cause != NULL)
		diag("cause: %s", cause);
	profile_free(p);
	free(cause);
	menc_free(e);
}

static void
test_broken(void)
{
	struct menc		 e = { 0 };
	struct menc_header	 h = {
		"./x", 0x0108, 1, 1, 1, 1, 100, 0, 1, 1, 1
	};
	struct mercury_own	 o = { .exits = 1, .callseqs = 1 };
	static const uint32_t	 one[] = { 1 };

	menc_put(&e, "Mercury deep profiler data version 7\n", 37);
	refused(&e, "version 7 is not supported", "version 7");

	e.version = 8;
	h.ncsd = h.ncss = h.npd = h.nps = 0;
	menc_header(&e, &h);
	refused(&e, "did not finish writing", "zero counts");

	e.version = 8;
	h.ncsd = h.ncss = h.npd = h.nps = 1000000;
	menc_header(&e, &h);
	refused(&e, "need at least 24000000 bytes", "counts larger than the "
	    "file");

	h.ncsd = h.ncss = h.npd = h.nps = 1;
	e.version = 8;
	h.flags = 0x0508;
	menc_header(&e, &h);
	refused(&e, "compressed", "compressed flag");
	h.flags = 0x0108;

	e.version = 8;
	menc_header(&e, &h);
	menc_csd(&e, 2, 1, &o);
	menc_put(&e, "padding padding padding", 23);
	refused(&e, "offset 87: CSD id 2 is beyond the header's count of 1",
	    "an id beyond the header's count, with its offset");

	e.version = 8;
	menc_header(&e, &h);
	menc_csd(&e, 1, 1, &o);
	menc_csd(&e, 1, 1, &o);
	menc_put(&e, "padding padding padding", 23);
	refused(&e, "CSD 1 is defined twice", "a node defined twice");

	e.version = 8;
	menc_header(&e, &h);
	menc_byte(&e, 9);
	menc_put(&e, "padding padding padding", 23);
	refused(&e, "unknown node token 9", "unknown token");

	e.version = 8;
	menc_header(&e, &h);
	menc_byte(&e, MERCURY_TOKEN_CSD);
	menc_num(&e, 1);
	menc_num(&e, 1);
	menc_num(&e, 0x0003);
	menc_put(&e, "\1\1\1padding padding padding", 26);
	refused(&e, "explicit call counts are not supported",
	    "explicit call counts");

	e.version = 8;
	menc_header(&e, &h);
	menc_pd(&e, 1, 1, 2, 0);
	menc_slot_normal(&e, 0);
	menc_slot_normal(&e, 0);
	menc_ps(&e, 1, 0, "m", "m", "p", NULL, 0, 0, "m.m", 1, 1, 1, one, 0);
	menc_css(&e, 1, 0, 1, "", "", 1, "");
	refused(&e, "PD 1 has 2 call site slots, its PS 1 has 1",
	    "slot count differing from the procedure's");

	e.version = 8;
	menc_header(&e, &h);
	menc_pd(&e, 1, 1, 0, 0);
	menc_css(&e, 1, MERCURY_CALL_HO, 0, "", "", 1,
	    "a goal path as padding");
	refused(&e, "PD 1: its PS 1 is not in the file", "missing PS");

	e.version = 8;
	h.root_pd = 0;
	menc_header(&e, &h);
	menc_put(&e, "padding padding padding", 23);
	refused(&e, "no root PD", "root PD 0");
}

/*
 * Write the loaded real profile back as a version 9 file (every call
 * site naming its file, as the version 9 runtime may), from the kept
 * structure alone; it must give the same figures.
 */
static void
test_reencode(const struct profile *p, const struct mercury *m)
{
	struct menc		 e = { 0 };
	struct menc_header	 h;
	struct profile		*q;
	const struct mercury	*n;
	const struct mercury_ps	*ps;
	const struct mercury_css *css;
	const struct mercury_pd	*pd;
	const struct mercury_slot *sl;
	char			*cause;
	uint32_t		 i, j;

	memset(&h, 0, sizeof h);
	h.program = profile_string(p, m->program);
	h.flags = m->flags & 0xfff;
	h.ncsd = m->ncsd;
	h.ncss = m->ncss;
	h.npd = m->npd;
	h.nps = m->nps;
	h.ticks_per_second = m->ticks_per_second;
	h.instrument_quanta = m->instrument_quanta;
	h.user_quanta = m->user_quanta;
	h.callseqs = m->num_callseqs;
	h.root_pd = m->root_pd;
	e.version = 9;
	e.coverage = 0;
	menc_header(&e, &h);
	for (i = 1; i <= m->npd; i++) {
		pd = &m->pd[i];
		menc_pd(&e, i, pd->ps, pd->nslots, 0);
		for (j = 0; j < pd->nslots; j++) {
			sl = &m->slot[pd->slots + j];
			if (sl->kind == MERCURY_CALL_NORMAL)
				menc_slot_normal(&e, sl->ncsds ?
				    m->slot_csd[sl->csds] : 0);
			else
				menc_slot_multi(&e, sl->kind, m->slot_csd +
				    sl->csds, sl->ncsds);
		}
	}
	for (i = 1; i <= m->ncsd; i++)
		menc_csd(&e, i, m->csd[i].callee, &m->csd[i].own);
	for (i = 1; i <= m->nps; i++) {
		ps = &m->ps[i];
		if (ps->kind == MERCURY_PROC_SPECIAL)
			menc_ps(&e, i, ps->kind, profile_string(p,
			    ps->type_name), profile_string(p, ps->module),
			    profile_string(p, ps->def_module),
			    profile_string(p, ps->raw_name), ps->arity,
			    ps->mode, profile_string(p, ps->file), ps->line,
			    ps->exported, ps->nsites, m->ps_site + ps->sites,
			    0);
		else
			menc_ps(&e, i, ps->kind, profile_string(p,
			    ps->module), profile_string(p, ps->def_module),
			    profile_string(p, ps->raw_name), NULL, ps->arity,
			    ps->mode, profile_string(p, ps->file), ps->line,
			    ps->exported, ps->nsites, m->ps_site + ps->sites,
			    0);
	}
	for (i = 1; i <= m->ncss; i++) {
		css = &m->css[i];
		menc_css(&e, i, css->kind, css->callee, profile_string(p,
		    css->type_subst), profile_string(p, css->file), css->line,
		    profile_string(p, css->goal_path));
	}
	q = load_mem(&e, NULL, &cause);
	ok(q != NULL, "the real profile re-encoded as version 9 (%zu bytes) "
	    "loads", e.len);
	if (q == NULL)
		diag("%s", cause ? cause : "?");
	if (q != NULL && (n = mercury_of(q)) != NULL) {
		is_int(n->version, 9, "re-encoded: version 9");
		is_int(sum(q, "callseqs"), 202594363, "re-encoded: callseqs");
		is_int(sum(q, "quanta"), 110, "re-encoded: quanta");
		is_int(sum(q, "allocs"), 140837, "re-encoded: allocs");
		is_int(sum(q, "words"), 221479, "re-encoded: words");
		is_int(q->nnodes, p->nnodes, "re-encoded: same tree size");
		is_int(n->ncliques, m->ncliques, "re-encoded: same cliques");
	}
	free(cause);
	profile_free(q);
	menc_free(&e);
}

/* mdprof's test profile: the figures mdprof itself shows for it. */
static void
test_real(const char *path)
{
	struct profile		*p;
	const struct mercury	*m;
	struct mercury_own	 want = {
		.exits = 202594389, .fails = 13, .redos = 8, .excps = 0,
		.quanta = 110, .callseqs = 202594363, .allocs = 140837,
		.words = 221479
	};
	char			*cause = NULL;
	uint32_t		 i, n, bad, singles;

	p = reader_load(path, NULL, NULL, &cause);
	ok(p != NULL, "%s loads", path);
	if (p == NULL) {
		diag("%s", cause ? cause : "?");
		free(cause);
		return;
	}
	is_str(p->format, "mercury", "detected as mercury");
	is_str(p->metrics[0].name, "callseqs", "callseqs is the default "
	    "metric");
	totals_are(p, &want, "mandelbrot");
	no_double_count(p, "mandelbrot");
	is_int(func_value(p, "sqrt/2+1-0", "callseqs", 0), 100996502,
	    "math.sqrt self callseqs (mdprof's top procedure)");
	is_int(func_value(p, "escape/7-0", "callseqs", 0), 100976685,
	    "mandelbrot.escape self callseqs");
	is_int(func_value(p, "escape/7-0", "callseqs", 1), 201933309,
	    "escape (directly recursive) total counts the recursion once");
	ok(strcmp(profile_func_module(p, profile_func_find(p, "escape/7-0")),
	    "mandelbrot") == 0, "escape's module");
	n = node_at(p, "main/2-0", "real_main/3-0", "my_map/3-0",
	    "draw_row/3-0", "draw_row_2/4-0", "escape/7-0", NULL);
	is_int(n != PROFILE_NONE ? p->metrics[0].self[n] : -1, 40000,
	    "escape's 40,000 calls from draw_row_2");
	if (n != PROFILE_NONE)
		n = node_at(p, "main/2-0", "real_main/3-0", "my_map/3-0",
		    "draw_row/3-0", "draw_row_2/4-0", "escape/7-0",
		    "escape/7-0", NULL);
	is_int(n != PROFILE_NONE ? p->metrics[0].self[n] : -1, 100936685,
	    "and its recursive calls, a leaf below it");

	m = mercury_of(p);
	ok(m != NULL, "Mercury structure kept");
	if (m == NULL) {
		profile_free(p);
		return;
	}
	is_int(m->version, 8, "version 8");
	is_str(profile_string(p, m->program), "./mandelbrot", "program name");
	is_int(m->flags, 0x2108, "flags word");
	is_int(m->bytes_per_word, 8, "8 bytes per word");
	is_int(m->coverage, 2, "dynamic coverage data");
	is_int(m->ncsd, 211, "211 CSD");
	is_int(m->ncss, 21992, "21,992 CSS");
	is_int(m->npd, 185, "185 PD");
	is_int(m->nps, 8584, "8,584 PS");
	is_int(m->ticks_per_second, 100, "100 ticks per second");
	is_int(m->instrument_quanta, 46, "46 instrumentation quanta");
	is_int(m->user_quanta, 110, "110 user quanta = root quanta");
	is_int(m->num_callseqs, 202594363, "header callseqs = root callseqs");
	is_int(m->root_pd, 1, "root PD 1");
	is_int(m->pd[m->root_pd].own.callseqs + m->pd[m->root_pd].desc.callseqs,
	    202594363, "root PD own + desc (mdprof's propagation) = header");
	is_int(m->pd[m->root_pd].own.quanta + m->pd[m->root_pd].desc.quanta,
	    110, "root PD quanta");
	is_int(m->pd[m->root_pd].desc.allocs, 140837, "root PD allocs");
	is_int(m->pd[m->root_pd].desc.words, 221479, "root PD words");
	for (i = 1, singles = 0; i <= m->ncliques; i++)
		singles += m->clique[i].nmembers == 1;
	is_int(m->ncliques, 185, "185 cliques");
	is_int(singles, 185, "all singletons");
	for (i = 1, bad = 0; i <= m->ncsd; i++) {
		if (m->csd[i].caller == 0 || m->csd[i].css == 0 ||
		    m->css[m->csd[i].css].ps != m->pd[m->csd[i].caller].ps ||
		    m->csd[i].node == PROFILE_NONE)
			bad++;
	}
	is_int(bad, 0, "every CSD has its caller, call site and node");
	for (i = 1, bad = 0; i <= m->npd; i++) {
		if (m->pd[i].node == PROFILE_NONE || m->ps[m->pd[i].ps].func ==
		    PROFILE_NONE)
			bad++;
	}
	is_int(bad, 0, "every PD has a node and a function");
	test_reencode(p, m);
	profile_free(p);
}

int
main(int argc, char **argv)
{
	char		 path[4096];
	FILE		*f;
	int		 v, c;

	for (v = 8; v <= 9; v++) {
		for (c = 0; c <= 2; c++)
			test_example(v, c);
	}
	test_mutations();
	test_broken();

	/*
	 * The real file: an argument, or the repository's sample
	 * (tests/data/samples/Deep.data, the Mercury deep profiler's own
	 * test profile).
	 */
	path[0] = '\0';
	if (argc > 1)
		snprintf(path, sizeof path, "%s", argv[1]);
	else
		snprintf(path, sizeof path, "%s/tests/data/samples/Deep.data",
		    getenv("top_srcdir") != NULL ? getenv("top_srcdir") : ".");
	if ((f = fopen(path, "rb")) != NULL) {
		fclose(f);
		test_real(path);
	} else
		ok(0, "%s: the real test profile is there", path);
	return (tap_done());
}

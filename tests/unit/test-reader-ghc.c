/*
 * The GHC readers: column offsets of the .prof text (spaces in SRC and
 * labels, labels padded past 150 columns, UTF-8 names padded in code
 * points), SRC spans, hidden stacks, -p reconstruction, cost centres that
 * share a label, and clear errors with line numbers (text) or JSON
 * positions (-pj).
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "reader.h"
#include "reader-ghc-prof.h"
#include "tap.h"

static struct profile *
load(const char *text, const char *format, char **cause)
{
	struct input	*in = input_memory(text, strlen(text));
	struct profile	*p;

	*cause = NULL;
	p = reader_load_input(in, format, NULL, cause);
	input_free(in);
	return (p);
}

/* Append s to the string in buf (tests only: no overflow here). */
static void
cat(char *buf, const char *s, size_t len)
{
	size_t	 n = strlen(buf);

	snprintf(buf + n, len - n, "%s", s);
}

static size_t
cplen(const char *s)
{
	size_t	 n = 0;

	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x80 || (unsigned char)*s > 0xbf)
			n++;
	}
	return (n);
}

/* Append s padded with spaces to w code points, as the RTS does. */
static void
pad(char *buf, size_t len, const char *s, size_t w)
{
	size_t	 n = cplen(s);

	cat(buf, s, len);
	while (n++ < w)
		cat(buf, " ", len);
}

/* A tree table line laid out like rts/ProfilerReport.c's logCCS. */
static void
row(char *buf, size_t len, size_t depth, const char *label,
    const char *module, const char *src, const size_t *w, const char *nums)
{
	size_t	 i;

	for (i = 0; i < depth; i++)
		cat(buf, " ", len);
	pad(buf, len, label, w[0] - depth);
	cat(buf, " ", len);
	pad(buf, len, module, w[1]);
	cat(buf, " ", len);
	pad(buf, len, src, w[2]);
	cat(buf, " ", len);
	cat(buf, nums, len);
	cat(buf, "\n", len);
}

static void
header(char *buf, size_t len, const size_t *w, int verbose)
{
	pad(buf, len, "COST CENTRE", w[0]);
	cat(buf, " ", len);
	pad(buf, len, "MODULE", w[1]);
	cat(buf, " ", len);
	pad(buf, len, "SRC", w[2]);
	cat(buf, " no.      entries  %time %alloc   %time %alloc", len);
	if (verbose)
		cat(buf, "  ticks     bytes", len);
	cat(buf, "\n\n", len);
}

static void
test_columns(void)
{
	struct ghc_prof_columns	 c;
	struct ghc_prof_row	 r;
	const char		*why = NULL, *line;
	char			 buf[4096], label[200];
	size_t			 w[3] = { 30, 10, 25 }, i;
	uint32_t		 ln;

	buf[0] = '\0';
	header(buf, sizeof buf, w, 0);
	ok(reader_ghc_prof_columns(buf, strcspn(buf, "\n"), &c) == 0 &&
	    c.module == 31 && c.src == 42 && !c.verbose && c.nnum == 6,
	    "header: MODULE and SRC columns found");
	line = "COST CENTRE MODULE SRC %time %alloc";
	ok(reader_ghc_prof_columns(line, strlen(line), &c) == -1,
	    "the per-cost-centre summary header is not the tree's");
	line = "COST CENTRE  MODULE   no.  entries  %time %alloc   %time %alloc";
	ok(reader_ghc_prof_columns(line, strlen(line), &c) == 0 &&
	    c.src == 0 && c.module == 13, "GHC 7 header without SRC");
	buf[0] = '\0';
	header(buf, sizeof buf, w, 1);
	ok(reader_ghc_prof_columns(buf, strcspn(buf, "\n"), &c) == 0 &&
	    c.verbose && c.nnum == 8, "-P header: ticks and bytes columns");

	/* SRC with spaces, label with spaces. */
	buf[0] = '\0';
	header(buf, sizeof buf, w, 0);
	reader_ghc_prof_columns(buf, strcspn(buf, "\n"), &c);
	buf[0] = '\0';
	row(buf, sizeof buf, 2, "my cost centre", "Main", "<no location info>",
	    w, "12  3  1.0  2.0  3.0  4.0");
	ok(reader_ghc_prof_row(&c, buf, strcspn(buf, "\n"), &r, &why) == 0 &&
	    r.aligned && r.depth == 2 && r.labellen == 14 &&
	    memcmp(r.label, "my cost centre", 14) == 0 && r.modlen == 4 &&
	    r.srclen == 18 && memcmp(r.src, "<no location info>", 18) == 0 &&
	    r.no == 12 && r.entries == 3 && r.pct[0] == 10 && r.pct[3] == 40,
	    "a label and a SRC holding spaces");

	/* UTF-8: padding counts code points, not bytes. */
	buf[0] = '\0';
	row(buf, sizeof buf, 1, "\xce\xbb\xe2\x86\x92" "f", "M\xc3\xb6" "d",
	    "\xc3\x9c.hs:3:1-9", w, "7  0  0.0  0.0  0.0  0.0");
	ok(reader_ghc_prof_row(&c, buf, strcspn(buf, "\n"), &r, &why) == 0 &&
	    r.aligned && r.labellen == 6 &&
	    memcmp(r.label, "\xce\xbb\xe2\x86\x92" "f", 6) == 0 &&
	    r.modlen == 4 && memcmp(r.module, "M\xc3\xb6" "d", 4) == 0 &&
	    r.srclen == 11, "UTF-8 label, module and SRC by code points");

	/* A label column padded past 150, a row 158 deep. */
	w[0] = 175;
	buf[0] = '\0';
	header(buf, sizeof buf, w, 1);
	ok(reader_ghc_prof_columns(buf, strcspn(buf, "\n"), &c) == 0 &&
	    c.module == 176, "a COST CENTRE column 175 wide");
	for (i = 0; i < 11; i++)
		label[i] = 'x';
	memcpy(label + 11, "_0_0", 5);
	buf[0] = '\0';
	row(buf, sizeof buf, 158, label, "Main", "CallTree.hs:(1,1)-(2,2)", w,
	    "9999  150  0.0  0.0  0.0  0.0      0   1234567890");
	ok(reader_ghc_prof_row(&c, buf, strcspn(buf, "\n"), &r, &why) == 0 &&
	    r.aligned && r.depth == 158 && r.labellen == 15 &&
	    r.ticks == 0 && r.bytes == 1234567890 && r.entries == 150,
	    "a row indented 158 levels with -P columns");

	/* Bytes wider than their 9 columns still split on the space. */
	buf[0] = '\0';
	row(buf, sizeof buf, 0, "MAIN", "MAIN", "<built-in>", w,
	    "1  0  0.0  0.0  100.0  100.0  12345 123456789012");
	ok(reader_ghc_prof_row(&c, buf, strcspn(buf, "\n"), &r, &why) == 0 &&
	    r.ticks == 12345 && r.bytes == 123456789012LL && r.pct[2] == 1000,
	    "bytes wider than the column");

	/* A label longer than its column: first words instead. */
	line = "averyveryverylonglabel Main F.hs:1:1 3 1 0.0 0.0 0.0 0.0 0 8";
	w[0] = 10;
	buf[0] = '\0';
	header(buf, sizeof buf, w, 1);
	reader_ghc_prof_columns(buf, strcspn(buf, "\n"), &c);
	ok(reader_ghc_prof_row(&c, line, strlen(line), &r, &why) == 0 &&
	    !r.aligned && r.labellen == 22 && r.modlen == 4 &&
	    r.srclen == 8 && r.bytes == 8,
	    "a row that overflows its column is split by words");

	line = " f Main F.hs:1:1 3 1 0.0 0.0 0.0 zero 0 8";
	why = NULL;
	ok(reader_ghc_prof_row(&c, line, strlen(line), &r, &why) == -1 &&
	    why != NULL && strstr(why, "percentage") != NULL,
	    "a bad percentage is refused");
	line = "f Main 1 2 3";
	why = NULL;
	ok(reader_ghc_prof_row(&c, line, strlen(line), &r, &why) == -1 &&
	    why != NULL && strstr(why, "8 numbers") != NULL,
	    "a row with too few numbers is refused");

	/* SRC spans. */
	line = "ExprEval.hs:(25,1)-(30,33)";
	ok(reader_ghc_prof_srcloc(line, strlen(line), &ln) == 11 && ln == 25,
	    "SRC file:(l,c)-(l,c)");
	line = "ExprEval.hs:150:1-73";
	ok(reader_ghc_prof_srcloc(line, strlen(line), &ln) == 11 && ln == 150,
	    "SRC file:l:c-c");
	line = "C:\\src\\A.hs:7:3";
	ok(reader_ghc_prof_srcloc(line, strlen(line), &ln) == 11 && ln == 7,
	    "SRC with a drive letter");
	line = "<entire-module>";
	ok(reader_ghc_prof_srcloc(line, strlen(line), &ln) == 0 && ln == 0,
	    "SRC <entire-module>");
	line = "weird";
	ok(reader_ghc_prof_srcloc(line, strlen(line), &ln) == 0 && ln == 0,
	    "SRC without a location");
}

static uint32_t
child_named(const struct profile *p, uint32_t n, const char *name)
{
	uint32_t	 c;

	for (c = p->node_first_child[n]; c != PROFILE_NONE;
	    c = p->node_next_sibling[c]) {
		if (strcmp(profile_func_name(p, p->node_func[c]), name) == 0)
			return (c);
	}
	return (PROFILE_NONE);
}

static void
test_load_text(void)
{
	static const char head[] = "\tSat Nov 21 23:09 2026 Time and "
	    "Allocation Profiling Report  (Final)\n\n\t   t +RTS -P -RTS\n\n"
	    "\ttotal time  =        0.01 secs   (10 ticks @ 1000 us, 1 "
	    "processor)\n\ttotal alloc =       1,000 bytes  (excludes "
	    "profiling overheads)\n\n";
	char		 buf[8192], *cause;
	size_t		 w[3] = { 20, 8, 22 };
	struct profile	*p;
	uint32_t	 n, m, f;
	int		 t, a;

	/* -P with UTF-8, spaces, a hidden stack and a shared label. */
	buf[0] = '\0';
	cat(buf, head, sizeof buf);
	header(buf, sizeof buf, w, 1);
	row(buf, sizeof buf, 0, "MAIN", "MAIN", "<built-in>", w,
	    "1  0  0.0  0.0  100.0  100.0  0  0");
	row(buf, sizeof buf, 1, "\xce\xbb" " go", "M\xc3\xb6" "d", "A.hs:(3,1)-(4,2)",
	    w, "2  5  40.0  40.0  100.0  80.0  4  400");
	row(buf, sizeof buf, 2, "f.(...)", "M\xc3\xb6" "d", "A.hs:9:1-5", w,
	    "3  1  30.0  20.0  30.0  20.0  3  200");
	row(buf, sizeof buf, 2, "f.(...)", "M\xc3\xb6" "d", "A.hs:10:1-5", w,
	    "4  1  30.0  20.0  30.0  20.0  3  200");
	row(buf, sizeof buf, 4, "g", "M", "<no location info>", w,
	    "5  2  0.0  20.0  0.0  20.0  0  200");
	p = load(buf, NULL, &cause);
	ok(p != NULL && strcmp(p->format, "ghc-prof") == 0,
	    "-P file with UTF-8, spaces and a hidden stack loads as ghc-prof");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return;
	}
	t = profile_metric_find(p, "ticks");
	a = profile_metric_find(p, "alloc");
	is_int(p->metrics[t].sum, 10, "ticks total");
	is_int(p->metrics[a].sum, 1000, "alloc total");
	n = child_named(p, PROFILE_ROOT, "MAIN");
	m = n != PROFILE_NONE ? child_named(p, n, "\xce\xbb" " go") :
	    PROFILE_NONE;
	ok(m != PROFILE_NONE && strcmp(profile_func_module(p,
	    p->node_func[m]), "M\xc3\xb6" "d") == 0 &&
	    p->metrics[t].self[m] == 4 && p->metrics[t].total[m] == 10,
	    "UTF-8 label with a space, its module and values");
	f = m != PROFILE_NONE ? p->node_func[m] : 0;
	ok(strcmp(profile_string(p, p->func_file[f]), "A.hs") == 0 &&
	    p->func_line[f] == 3, "SRC gives file and line");
	ok(m != PROFILE_NONE &&
	    child_named(p, m, "f.(...) [A.hs:9:1-5]") != PROFILE_NONE &&
	    (n = child_named(p, m, "f.(...) [A.hs:10:1-5]")) != PROFILE_NONE,
	    "cost centres sharing a label and module keep apart by SRC");
	ok(n != PROFILE_NONE && (n = child_named(p, n, "(hidden)")) !=
	    PROFILE_NONE && child_named(p, n, "g") != PROFILE_NONE,
	    "a depth jump goes through a (hidden) node");
	profile_free(p);

	/* -p: percentages only; values rebuilt to match every figure. */
	buf[0] = '\0';
	cat(buf, head, sizeof buf);
	header(buf, sizeof buf, w, 0);
	row(buf, sizeof buf, 0, "MAIN", "MAIN", "<built-in>", w,
	    "1  0  0.0  0.0  100.0  100.0");
	row(buf, sizeof buf, 1, "main", "Main", "A.hs:1:1", w,
	    "2  1  30.0  33.3  100.0  100.0");
	row(buf, sizeof buf, 2, "a", "Main", "A.hs:2:1", w,
	    "3  1  40.0  33.3  40.0  33.3");
	row(buf, sizeof buf, 2, "b", "Main", "A.hs:3:1", w,
	    "4  1  30.0  33.3  30.0  33.3");
	p = load(buf, NULL, &cause);
	ok(p != NULL, "-p file loads");
	if (p != NULL) {
		t = profile_metric_find(p, "ticks");
		a = profile_metric_find(p, "alloc");
		n = child_named(p, child_named(p, PROFILE_ROOT, "MAIN"),
		    "main");
		is_int(p->metrics[t].sum, 10, "-p: ticks total is the header's");
		is_int(p->metrics[a].sum, 1000, "-p: alloc total is the "
		    "header's");
		is_int(p->metrics[t].self[child_named(p, n, "a")], 4,
		    "-p: 40.0%% of 10 ticks is 4");
		ok(p->metrics[a].self[n] % 8 == 0 &&
		    p->metrics[a].self[child_named(p, n, "a")] % 8 == 0,
		    "-p: bytes are whole 8-byte words");
		profile_free(p);
	} else {
		diag("%s", cause);
		free(cause);
	}

	/* Percentages that no values can give: totals still the header's. */
	buf[0] = '\0';
	cat(buf, head, sizeof buf);
	header(buf, sizeof buf, w, 0);
	row(buf, sizeof buf, 0, "MAIN", "MAIN", "<built-in>", w,
	    "1  0  90.0  0.0  10.0  100.0");
	row(buf, sizeof buf, 1, "a", "Main", "A.hs:2:1", w,
	    "3  1  70.0  1000.0  5.0  0.0");
	p = load(buf, NULL, &cause);
	ok(p != NULL && p->metrics[0].sum == 10 && p->metrics[1].sum == 1000,
	    "-p with impossible percentages: totals are the header's");
	profile_free(p);
	if (p == NULL)
		free(cause);

	/* Errors name the line. */
	buf[0] = '\0';
	cat(buf, head, sizeof buf);
	header(buf, sizeof buf, w, 0);
	cat(buf, "MAIN MAIN <built-in> 1 0 0.0 0.0 100.0 x\n", sizeof buf);
	p = load(buf, "ghc-prof", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "line 10:") != NULL,
	    "a bad row is refused with its line number");
	if (cause != NULL)
		diag("%s", cause);
	free(cause);
	p = load("COST CENTRE MODULE SRC no. entries %time %alloc %time "
	    "%alloc\n\nMAIN MAIN <built-in> 1 0 0.0 0.0 100.0 100.0\n",
	    "ghc-prof", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "total") != NULL,
	    "-p without header totals is refused");
	free(cause);
	p = load("\tx Time and Allocation Profiling Report  (Final)\n",
	    NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "no call-tree") != NULL,
	    "a file without a call tree is refused");
	free(cause);
}

static void
test_load_json(void)
{
	static const char good[] = "{\"program\": \"t\", \"total_ticks\": 3,"
	    " \"total_alloc\": 80, \"cost_centres\": ["
	    "{\"id\": 1, \"label\": \"MAIN\", \"module\": \"MAIN\", "
	    "\"src_loc\": \"<built-in>\", \"is_caf\": false},"
	    "{\"id\": 2, \"label\": \"f\", \"module\": \"M\", "
	    "\"src_loc\": \"M.hs:4:1-9\", \"is_caf\": false},"
	    "{\"id\": 3, \"label\": \"GC\", \"module\": \"GC\", "
	    "\"src_loc\": \"<built-in>\", \"is_caf\": false}],"
	    "\"profile\": {\"id\": 1, \"entries\": 0, \"alloc\": 8, "
	    "\"ticks\": 0, \"children\": [{\"id\": 2, \"entries\": 5, "
	    "\"alloc\": 64, \"ticks\": 2, \"children\": []}, {\"id\": 3, "
	    "\"entries\": 0, \"alloc\": 8, \"ticks\": 1, \"children\": []}]}}";
	struct profile	*p;
	char		*cause, *bad;
	uint32_t	 m, f;

	p = load(good, NULL, &cause);
	ok(p != NULL && strcmp(p->format, "ghc-json") == 0,
	    "-pj detected by content and loaded");
	if (p != NULL) {
		is_int(p->metrics[profile_metric_find(p, "ticks")].sum, 3,
		    "-pj ticks total, hidden stacks (GC) included");
		m = child_named(p, child_named(p, PROFILE_ROOT, "MAIN"), "f");
		f = m != PROFILE_NONE ? p->node_func[m] : 0;
		ok(m != PROFILE_NONE && p->func_line[f] == 4 &&
		    p->metrics[profile_metric_find(p, "entries")].self[m] == 5,
		    "-pj node: cost centre joined, entries and SRC line");
		profile_free(p);
	} else
		free(cause);

	p = load("{\"cost_centres\": [], \"total_ticks\": 1,\n\"profile\": "
	    "{\"id\": 1,,}}", "ghc-json", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "line 2 column") !=
	    NULL, "-pj syntax error gives jansson's line and column");
	if (cause != NULL)
		diag("%s", cause);
	free(cause);
	bad = strdup(good);
	memcpy(strstr(bad, "{\"id\": 2, \"entries\""), "{\"id\": 9", 8);
	p = load(bad, "ghc-json", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "id 9") != NULL,
	    "-pj node with an unknown cost centre is refused");
	free(cause);
	strcpy(bad, good);
	memcpy(strstr(bad, "\"ticks\": 2"), "\"ticks\":-2", 10);
	p = load(bad, "ghc-json", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "non-negative") !=
	    NULL, "-pj negative ticks are refused");
	free(cause);
	free(bad);
}

int
main(void)
{
	test_columns();
	test_load_text();
	test_load_json();
	return (tap_done());
}

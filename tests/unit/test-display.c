/*
 * The fast paths of page formatting against the libc formatting they
 * replace: thousands separators, "%.2f%%" percentages (ties included, where
 * the exact decimal rounding of printf decides), the run-copying HTML
 * escaper against a byte-at-a-time reference, and query_format() of a view
 * against copying the query and setting the keys; the JSON renderer's
 * buffered output, DEL escaped across its buffer's edge, against
 * json_dumps().
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "escape.h"
#include "outbuf.h"
#include "query.h"
#include "render.h"
#include "tap.h"
#include "utf8.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t
next(void)
{
	return (tap_xorshift(&rng));
}

static void
ref_number(int64_t v, char *out)
{
	char	 digits[32];
	int	 n, i, o = 0;

	n = snprintf(digits, sizeof digits, "%" PRId64, v);
	for (i = 0; i < n; i++) {
		if (i > 0 && digits[i - 1] != '-' && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

static void
test_number(void)
{
	static const int64_t edge[] = { 0, 1, -1, 9, 10, 999, 1000, -1000,
	    999999, 1000000, INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	char	 want[64], *got;
	size_t	 i;
	int	 bad = 0, n = 0;
	int64_t	 v;

	for (i = 0; i < sizeof edge / sizeof edge[0] + 200000; i++) {
		if (i < sizeof edge / sizeof edge[0])
			v = edge[i];
		else
			v = (int64_t)(next() >> (next() % 64)) *
			    (next() & 1 ? -1 : 1);
		ref_number(v, want);
		got = display_number(v);
		if (got == NULL || strcmp(got, want) != 0) {
			if (bad++ < 5)
				diag("%" PRId64 ": %s, want %s", v,
				    got ? got : "NULL", want);
		}
		free(got);
		n++;
	}
	ok(bad == 0, "display_number equals printf with separators (%d values)",
	    n);
}

static void
test_percent(void)
{
	char	 want[64], *got;
	int	 bad = 0, n = 0, i;
	int64_t	 v, t;

	for (i = 0; i < 400000; i++) {
		switch (i % 4) {
		case 0:		/* anything */
			t = (int64_t)(next() >> (next() % 63)) + 1;
			v = (int64_t)(next() % (uint64_t)t);
			break;
		case 1:		/* ties of the second decimal: k / 800 */
			t = 800 * (int64_t)(1 + next() % 1000);
			v = (int64_t)(next() % (uint64_t)t);
			break;
		case 2:		/* small totals, all their fractions */
			t = 1 + (int64_t)(next() % 4000);
			v = (int64_t)(next() % (uint64_t)(t + 1));
			break;
		default:	/* beyond the total, and negative */
			t = 1 + (int64_t)(next() % 100000);
			v = (int64_t)(next() % 10000000) - 5000000;
			break;
		}
		snprintf(want, sizeof want, "%.2f%%",
		    100.0 * (double)v / (double)t);
		got = display_percent(v, t);
		if (got == NULL || strcmp(got, want) != 0) {
			if (bad++ < 5)
				diag("%" PRId64 "/%" PRId64 ": %s, want %s",
				    v, t, got ? got : "NULL", want);
		}
		free(got);
		n++;
	}
	ok(bad == 0, "display_percent equals printf %%.2f (%d values)", n);
}

/* The escaper as it was before it copied runs: one call per byte. */
static char *
ref_escape(const char *s)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n = strlen(s), i = 0, k, len = 0;
	unsigned int		 cp;
	char			*buf = NULL;
	FILE			*f = open_memstream(&buf, &len);

	while (i < n) {
		switch (u[i]) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
		case '\n':
			fputc(u[i], f);
			break;
		default:
			if (u[i] < 0x20 || u[i] == 0x7f) {
				fputs("\xef\xbf\xbd", f);
				break;
			}
			if (u[i] < 0x80) {
				fputc(u[i], f);
				break;
			}
			if ((k = utf8_decode(u + i, n - i, &cp)) == 0 ||
			    (cp >= 0x80 && cp < 0xa0)) {
				fputs("\xef\xbf\xbd", f);
				i += k ? k : 1;
				continue;
			}
			fwrite(u + i, 1, k, f);
			i += k;
			continue;
		}
		i++;
	}
	fclose(f);
	return (buf);
}

static void
test_escape(void)
{
	static const char alphabet[] = "ab <>&\"'\t\n\x01\x7f\xc3\xa9\xe2\x82"
	    "\xac\xff\xc2\x85";
	char	 s[64], *want, *got;
	int	 bad = 0, i, j, len;

	for (i = 0; i < 20000; i++) {
		len = (int)(next() % (sizeof s - 1));
		for (j = 0; j < len; j++)
			s[j] = alphabet[next() % (sizeof alphabet - 1)];
		s[len] = '\0';
		want = ref_escape(s);
		got = escape_html_string(s);
		if (got == NULL || strcmp(got, want) != 0)
			bad++;
		free(want);
		free(got);
	}
	ok(bad == 0, "escape_html copies runs as the per-byte escaper did");
}

static void
test_edit(void)
{
	struct query		*q, *c, v;
	char			*a, *b, *cause = NULL;
	int			 status;

	q = query_parse("file=x%20y.folded&cmd=tree&open=1,2~1,3&metric=m&"
	    "path=1,2", &status, &cause);
	ok(q != NULL, "query parses");
	if (q == NULL)
		return;
	v = *q;
	v.cmd = CMD_FUNC;
	query_key_reset(&v, QUERY_PATH);
	v.func = "<7>";
	a = query_format(&v);
	c = query_copy(q);
	query_set(c, QUERY_CMD, "func", NULL);
	query_unset(c, QUERY_PATH);
	query_set(c, QUERY_FUNC, "<7>", NULL);
	b = query_format(c);
	ok(a != NULL && b != NULL && strcmp(a, b) == 0,
	    "a view's link equals copy, set and format");
	diag("%s", a ? a : "NULL");
	free(a);
	free(b);
	v = *q;
	v.limit = 0;
	ok(query_format(&v) == NULL, "a view's value out of range is refused");
	v = *q;
	v.npath = QUERY_MAX_PATH + 1;
	ok(query_format(&v) == NULL, "a view's path too deep is refused");
	query_free(c);
	query_free(q);
}

/* The JSON renderer is json_dumps() with DEL escaped, whatever the size. */
static void
test_json(void)
{
	static const size_t sizes[] = { 0, 1, 16377, 16378, 16379, 16383,
	    16384, 16385, 40000 };
	const struct renderer	*r = render_find(FMT_JSON);
	json_t			*j;
	char			*s, *want, *got = NULL, *o;
	size_t			 i, k, len = 0, good = 0;
	struct outbuf		 ob;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		/* DELs around the 16 KB edge, where a piece is flushed. */
		if ((s = malloc(sizes[i] + 8)) == NULL)
			break;
		memset(s, 'a', sizes[i] + 7);
		s[sizes[i] + 7] = '\0';
		for (k = 0; k < 7; k += 2)
			s[sizes[i] + k] = 0x7f;
		j = json_pack("{s:s, s:i}", "s", s, "n", 1);
		want = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
		free(s);
		if (j == NULL || want == NULL)
			break;
		outbuf_init(&ob);
		r->render(&ob, j, NULL, NULL);
		got = outbuf_take(&ob, &len);
		/* The reference, DEL escaped by hand. */
		if ((s = malloc(strlen(want) * 6 + 2)) == NULL)
			break;
		for (o = s, k = 0; want[k] != '\0'; k++) {
			if (want[k] == 0x7f) {
				memcpy(o, "\\u007f", 6);
				o += 6;
			} else
				*o++ = want[k];
		}
		*o++ = '\n';
		*o = '\0';
		if (len == strlen(s) && memcmp(got, s, len) == 0)
			good++;
		else
			diag("size %zu: %zu bytes, want %zu", sizes[i], len,
			    strlen(s));
		free(s);
		free(want);
		free(got);
		got = NULL;
		json_decref(j);
	}
	is_int(good, sizeof sizes / sizeof sizes[0],
	    "JSON rendered in pieces as json_dumps() writes it");
}

/* Cells and aux links that take their strings: held, or freed (ASan). */
static void
test_take(void)
{
	struct display		*d = display_create("t");
	struct display_block	*b = display_table(d, 2, NULL);
	struct display_cell	*c;
	size_t			 r = display_row(d, b);

	c = display_cell_take(d, b, r, 0, strdup("name"), strdup("cmd=top"),
	    DISPLAY_TREE);
	ok(c != NULL && strcmp(c->text, "name") == 0 &&
	    strcmp(c->link, "cmd=top") == 0 && c->flags == DISPLAY_TREE,
	    "a cell takes its text and link");
	c = display_cell_take(d, b, r, 0, strdup("other"), NULL, 0);
	ok(c != NULL && strcmp(c->text, "other") == 0 && c->link == NULL,
	    "a cell taken again frees what it held");
	ok(display_cell_take(d, b, r, 2, strdup("x"), strdup("y"), 0) ==
	    NULL, "a column out of the table: the strings are freed");
	display_aux_take(d, c, "root here", strdup("path=1"));
	ok(strcmp(c->aux, "path=1") == 0 && strcmp(c->auxtext,
	    "root here") == 0, "an aux link is taken");
	display_aux_take(d, NULL, "x", strdup("y"));
	display_free(d);
}

int
main(void)
{
	test_number();
	test_take();
	test_json();
	test_percent();
	test_escape();
	test_edit();
	return (tap_done());
}

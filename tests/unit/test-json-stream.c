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

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "input.h"
#include "json-stream.h"
#include "packed.h"
#include "tap.h"

/*
 * json-stream.c against jansson, the loader the JSON readers had: the
 * same texts accepted and refused, and for each accepted one the same
 * values in the same order, strings byte for byte and numbers bit for
 * bit. Texts are read from memory (one window) and from a file (the
 * input's 128 KB blocks, so that tokens are cut by refills): the
 * fixed cases below, thousands of random documents and their
 * mutations, and the JSON files of tests/data. Then what the streaming
 * readers keep of the numbers (packed.h): the same values, bit for bit.
 */

static char	 tmpl[] = "/tmp/test-json-stream.XXXXXX";
static int	 tmpfd = -1;

/*
 * The numbers json_stream_numbers gives, batch at a time (0: every
 * token from json_stream_next), served one by one: each text is read
 * both ways and must give the same tokens and errors.
 */
static size_t		 batch;
static struct json_token queue[8];
static size_t		 queued, served;

static enum json_tok
next_tok(struct json_stream *js, struct json_token *t)
{
	if (served == queued && batch > 0) {
		served = 0;
		queued = json_stream_numbers(js, queue, batch);
	}
	if (served < queued) {
		*t = queue[served++];
		return (t->type);
	}
	return (json_stream_next(js, t));
}

/* Walk a jansson value as the stream reads it; 0 if all tokens match. */
static int
walk(json_t *j, struct json_stream *js, int keyed, const char *key)
{
	struct json_token	 t;
	const char		*k;
	json_t			*v;
	size_t			 i;

	if (keyed) {
		if (next_tok(js, &t) != JSON_TOK_KEY ||
		    strlen(key) != t.len || memcmp(t.s, key, t.len) != 0)
			return (-1);
	}
	next_tok(js, &t);
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		if (t.type != JSON_TOK_OBJECT)
			return (-1);
		json_object_foreach(j, k, v) {
			if (walk(v, js, 1, k) == -1)
				return (-1);
		}
		return (next_tok(js, &t) == JSON_TOK_OBJECT_END ? 0 : -1);
	case JSON_ARRAY:
		if (t.type != JSON_TOK_ARRAY)
			return (-1);
		json_array_foreach(j, i, v) {
			if (walk(v, js, 0, NULL) == -1)
				return (-1);
		}
		return (next_tok(js, &t) == JSON_TOK_ARRAY_END ? 0 : -1);
	case JSON_STRING:
		return (t.type == JSON_TOK_STRING &&
		    t.len == json_string_length(j) &&
		    memcmp(t.s, json_string_value(j), t.len) == 0 ? 0 : -1);
	case JSON_INTEGER:
		return (t.type == JSON_TOK_INTEGER &&
		    t.i == json_integer_value(j) &&
		    t.d == (double)json_integer_value(j) ? 0 : -1);
	case JSON_REAL:
		return (t.type == JSON_TOK_REAL &&
		    memcmp(&t.d, &(double){ json_real_value(j) },
		    sizeof t.d) == 0 ? 0 : -1);
	case JSON_TRUE:
		return (t.type == JSON_TOK_TRUE ? 0 : -1);
	case JSON_FALSE:
		return (t.type == JSON_TOK_FALSE ? 0 : -1);
	default:
		return (t.type == JSON_TOK_NULL ? 0 : -1);
	}
}

/* An input of text: in memory, or (file) through a temporary file. */
static struct input *
open_text(const char *text, size_t len, int file)
{
	char	*cause = NULL;
	struct input *in;

	if (!file)
		return (input_memory(text, len));
	if (ftruncate(tmpfd, 0) == -1 || pwrite(tmpfd, text, len, 0) !=
	    (ssize_t)len)
		return (NULL);
	if ((in = input_open(tmpl, &cause)) == NULL)
		free(cause);
	return (in);
}

/*
 * Whether the stream and jansson agree on text: both refuse it, or both
 * read it with the same values. -1 if they disagree; else 1 if it was
 * read, 0 if refused. Keys given twice make jansson drop values, so a
 * text jansson refuses for them (JSON_REJECT_DUPLICATES) is compared
 * for acceptance only.
 */
static int
agree_flags(const char *text, size_t len, int file, int flags, char *why,
    size_t whylen)
{
	struct input		*in;
	struct json_stream	*js;
	struct json_token	 t;
	json_error_t		 jerr;
	json_t			*doc;
	int			 dup = 0, rv = -1, ok;

	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL && json_error_code(&jerr) ==
	    json_error_duplicate_key && !(flags & JSON_STREAM_NO_DUPLICATES)) {
		dup = 1;
		doc = json_loadb(text, len, 0, &jerr);
	}
	queued = served = 0;
	if ((in = open_text(text, len, file)) == NULL ||
	    (js = json_stream_create(in, flags)) == NULL) {
		snprintf(why, whylen, "no input");
		input_free(in);
		json_decref(doc);
		return (-1);
	}
	if (doc == NULL) {
		/* Every token until an error, which must come. */
		while ((ok = next_tok(js, &t)) != JSON_TOK_ERROR &&
		    ok != JSON_TOK_END)
			;
		if (ok == JSON_TOK_ERROR)
			rv = 0;
		else
			snprintf(why, whylen, "read, jansson: %s", jerr.text);
	} else if (dup) {
		while ((ok = next_tok(js, &t)) != JSON_TOK_ERROR &&
		    ok != JSON_TOK_END)
			;
		if (ok == JSON_TOK_END)
			rv = 1;
		else
			snprintf(why, whylen, "refused: %s",
			    json_stream_error(js));
	} else if (walk(doc, js, 0, NULL) == 0 &&
	    next_tok(js, &t) == JSON_TOK_END)
		rv = 1;
	else
		snprintf(why, whylen, "differs: %s", json_stream_error(js));
	json_stream_free(js);
	input_free(in);
	json_decref(doc);
	return (rv);
}

static int
agree(const char *text, size_t len, int file, char *why, size_t whylen)
{
	int	 r = -1, r0 = -1, r2;

	/* Token by token, then numbers three at a time: the same. */
	for (batch = 0; batch <= 3; batch += 3) {
		if ((r = agree_flags(text, len, file, 0, why, whylen)) == -1)
			break;
		/* And with JSON_REJECT_DUPLICATES: the same, exactly. */
		if ((r2 = agree_flags(text, len, file,
		    JSON_STREAM_NO_DUPLICATES, why, whylen)) == -1) {
			r = -1;
			break;
		}
		if (batch == 0)
			r0 = r;
		else if (r != r0) {
			snprintf(why, whylen, "read %d token by token, %d "
			    "in batches", r0, r);
			r = -1;
		}
	}
	batch = 0;
	return (r);
}

/* Both ways of reading agree, and accept (want 1) or refuse (0). */
static void
same(const char *text, int want, const char *what)
{
	char	 why[512] = "", padded[1024];
	int	 m, f, p;

	m = agree(text, strlen(text), 0, why, sizeof why);
	f = m == -1 ? -1 : agree(text, strlen(text), 1, why, sizeof why);
	/* Blanks after it: the window's margin, where batches are read. */
	p = snprintf(padded, sizeof padded, "%s%80s", text, "");
	if (m == f && p > 0 && (size_t)p < sizeof padded)
		f = agree(padded, (size_t)p, 0, why, sizeof why);
	ok(m == want && f == want, "%s: %s", what, want ? "read as jansson "
	    "reads it" : "refused as jansson refuses it");
	if (m != want || f != want)
		diag("%s (memory %d, file or padded %d)", why, m, f);
}

/* A random JSON value of depth at most d into b. */
static void
gen(char *b, size_t *n, size_t cap, int d, uint64_t *rs)
{
	static const char *atoms[] = { "0", "-0", "1", "-1", "12", "3.5",
	    "-2.25e3", "1e22", "1E-7", "0.1", "123456789012345678",
	    "9223372036854775807", "-9223372036854775808", "4.9e-324",
	    "1.7976931348623157e308", "2.2250738585072014e-308", "true",
	    "false", "null", "\"\"", "\"a\"", "\"\\u00e9\\n\"",
	    "\"\\ud83d\\ude00\"", "\"\xc3\xa9t\xc3\xa9\"", "\"\\\"\\\\\\/\"",
	    "0.30000000000000004", "123456789012345678901234567890e-10",
	    "1.00000000000000011102230246251565404236316680908203125" };
	size_t	 i, k;
	int	 c = (int)(tap_xorshift(rs) % (d > 0 ? 4 : 1));

	if (*n + 64 >= cap)
		c = 0;
	if (c < 2) {
		const char *a = atoms[tap_xorshift(rs) % (sizeof atoms /
		    sizeof atoms[0])];

		k = strlen(a);
		memcpy(b + *n, a, k);
		*n += k;
		return;
	}
	b[(*n)++] = c == 2 ? '[' : '{';
	k = tap_xorshift(rs) % 5;
	for (i = 0; i < k && *n + 64 < cap; i++) {
		if (i > 0)
			b[(*n)++] = ',';
		if (tap_xorshift(rs) % 7 == 0)
			b[(*n)++] = '\n';
		if (c == 3) {
			*n += snprintf(b + *n, cap - *n, "\"k%d\":",
			    (int)(tap_xorshift(rs) % 6));
		}
		gen(b, n, cap, d - 1, rs);
	}
	b[(*n)++] = c == 2 ? ']' : '}';
}

/* Random documents and their mutations: the same verdict each time. */
static void
random_texts(void)
{
	static const char	 bytes[] = "{}[],:\"\\ 0-.eE+ux\x80\xff\n\t\x01";
	char			 b[4096], why[512];
	uint64_t		 rs = 0x1234567;
	size_t			 n, i, k;
	int			 r, read = 0, refused = 0, bad = 0;

	for (i = 0; i < 6000; i++) {
		n = 0;
		b[n++] = tap_xorshift(&rs) % 2 ? '[' : '{';
		if (b[0] == '{')
			n += snprintf(b + n, sizeof b - n, "\"a\":");
		gen(b, &n, sizeof b - 8, 6, &rs);
		b[n++] = b[0] == '[' ? ']' : '}';
		/* Half are mutated: a byte changed, cut, or doubled. */
		if (i % 2 == 1 && n > 2) {
			k = tap_xorshift(&rs) % n;
			switch (tap_xorshift(&rs) % 3) {
			case 0:
				b[k] = bytes[tap_xorshift(&rs) %
				    (sizeof bytes - 1)];
				break;
			case 1:
				n = k;
				break;
			default:
				memmove(b + k + 1, b + k, n - k);
				n++;
				break;
			}
		}
		b[n] = '\0';
		if ((r = agree(b, n, 0, why, sizeof why)) == -1) {
			if (bad++ < 5)
				diag("%s: %.*s", why, (int)n, b);
		} else if (r == 1)
			read++;
		else
			refused++;
	}
	ok(bad == 0, "6000 random texts: %d read, %d refused, %d disagree",
	    read, refused, bad);
}

/*
 * Texts longer than the input's block, through a file, so that refills
 * cut strings, escapes, UTF-8 sequences and numbers at every offset.
 */
static void
long_texts(void)
{
	static const char	*items[] = { "\"\\u00e9x\"", "12345678901234",
	    "-0.5e-3", "\"abc\\\"\"", "\"\xe2\x82\xac\"", "true", "null",
	    "\"\\ud83d\\ude00\"", "1.5", "\"0123456789abcdef\"" };
	char			*b, why[512];
	size_t			 n, cap = 3 * 1024 * 1024, i, k, len;
	int			 r, shift;

	if ((b = malloc(cap)) == NULL)
		return;
	for (shift = 0; shift < 7; shift++) {
		n = 0;
		b[n++] = '[';
		for (i = 0; i < (size_t)shift; i++)
			b[n++] = ' ';
		for (i = 0; n + 300 < 2 * 1024 * 1024; i++) {
			if (i > 0)
				b[n++] = ',';
			k = (i * 7 + (size_t)shift) % (sizeof items /
			    sizeof items[0]);
			len = strlen(items[k]);
			memcpy(b + n, items[k], len);
			n += len;
		}
		/* One long string, escaped, across several blocks. */
		b[n++] = ',';
		b[n++] = '"';
		for (i = 0; i < 300000; i++)
			b[n++] = i % 1000 == 999 ? '/' : 'a' + i % 26;
		memcpy(b + n, "\\n\"]", 4);
		n += 4;
		r = agree(b, n, 1, why, sizeof why);
		ok(r == 1, "2.3 MB read through 128 KB blocks, shift %d", shift);
		if (r != 1)
			diag("%s", why);
	}
	free(b);
}

/*
 * A key is still there once its value's first token is read, when the
 * buffer has moved in between (a refill at every offset).
 */
static void
long_keys(void)
{
	struct input		*in;
	struct json_stream	*js;
	struct json_token	 t;
	char			*b, *cause = NULL, want[64];
	size_t			 n = 0, cap = 1024 * 1024;
	int			 i, bad = 0, keys = 0;

	if ((b = malloc(cap)) == NULL)
		return;
	n += snprintf(b + n, cap - n, "{");
	for (i = 0; n + 100 < cap - 100; i++)
		n += snprintf(b + n, cap - n, "%s\"key%d\":%s", i ? "," : "",
		    i, i % 3 ? "\"value value value value value\"" : "[1,2]");
	n += snprintf(b + n, cap - n, "}");
	if (ftruncate(tmpfd, 0) == -1 || pwrite(tmpfd, b, n, 0) != (ssize_t)n ||
	    (in = input_open(tmpl, &cause)) == NULL) {
		free(cause);
		free(b);
		ok(0, "a temporary file");
		return;
	}
	js = json_stream_create(in, 0);
	json_stream_next(js, &t);
	for (i = 0; json_stream_next(js, &t) == JSON_TOK_KEY; i++) {
		const struct json_token	 k = t;

		snprintf(want, sizeof want, "key%d", i);
		if (json_stream_next(js, &t) == JSON_TOK_ERROR)
			break;
		if (strcmp(k.s, want) != 0)
			bad++;
		keys++;
		if (json_stream_skip(js, &t) == -1)
			break;
	}
	ok(t.type == JSON_TOK_OBJECT_END && bad == 0 && keys > 10000,
	    "%d keys outlive their values' first tokens across refills", keys);
	json_stream_free(js);
	input_free(in);
	free(b);
}

/* The JSON files of tests/data, read as jansson reads them. */
static void
data_files(void)
{
	const char	*top = getenv("top_srcdir");
	char		 dir[4096], path[8192], why[512], *text;
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	long		 len;
	int		 n = 0, bad = 0;

	snprintf(dir, sizeof dir, "%s/tests/data/json", top ? top : ".");
	if ((d = opendir(dir)) == NULL) {
		ok(0, "no %s", dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strstr(de->d_name, ".json") == NULL)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		if ((text = malloc(len + 1)) != NULL &&
		    fread(text, 1, len, f) == (size_t)len) {
			n++;
			if (agree(text, len, 1, why, sizeof why) != 1) {
				bad++;
				diag("%s: %s", de->d_name, why);
			}
		}
		free(text);
		fclose(f);
	}
	closedir(d);
	ok(n > 5 && bad == 0, "%d files of tests/data/json read as jansson "
	    "reads them", n);
}

/* Flags, limits and positions. */
static void
options(void)
{
	struct input		*in;
	struct json_stream	*js;
	struct json_token	 t;
	char			*deep;
	int			 i, n;

	in = input_memory("[{\"a\":1} , 2,\n ", 15);
	js = json_stream_create(in, JSON_STREAM_CLOSE_ARRAY);
	for (n = 0; json_stream_next(js, &t) > JSON_TOK_END; n++)
		;
	ok(t.type == JSON_TOK_END && n == 7, "a top-level array cut after "
	    "a ',' is closed with JSON_STREAM_CLOSE_ARRAY");
	json_stream_free(js);
	input_free(in);

	in = input_memory("[1,{\"a\":", 8);
	js = json_stream_create(in, JSON_STREAM_CLOSE_ARRAY);
	while (json_stream_next(js, &t) > JSON_TOK_END)
		;
	ok(t.type == JSON_TOK_ERROR && strstr(json_stream_error(js),
	    "premature end") != NULL, "but not one cut inside an element");
	json_stream_free(js);
	input_free(in);

	in = input_memory("[18446744073709551616,-99999999999999999999]", 44);
	js = json_stream_create(in, JSON_STREAM_BIG_REALS);
	json_stream_next(js, &t);
	json_stream_next(js, &t);
	ok(t.type == JSON_TOK_REAL && t.d == 18446744073709551616.0,
	    "an integer past 64 bits is a real with JSON_STREAM_BIG_REALS");
	json_stream_next(js, &t);
	ok(t.type == JSON_TOK_REAL && t.d == -1e20, "a negative one too");
	json_stream_free(js);
	input_free(in);

	in = input_memory("[\"abcdefgh\",\"abcdefghi\"]", 24);
	js = json_stream_create(in, 0);
	json_stream_set_max_string(js, 8);
	json_stream_next(js, &t);
	ok(json_stream_next(js, &t) == JSON_TOK_STRING &&
	    json_stream_next(js, &t) == JSON_TOK_ERROR &&
	    strstr(json_stream_error(js), "longer than 8") != NULL,
	    "strings are bounded");
	json_stream_free(js);
	input_free(in);

	/* 2048 values deep is jansson's limit; 2049 is refused. */
	if ((deep = malloc(5000)) == NULL)
		return;
	for (i = 0; i < 2048; i++)
		deep[i] = '[';
	for (i = 0; i < 2048; i++)
		deep[2048 + i] = ']';
	deep[4096] = '\0';
	same(deep, 1, "2048 arrays deep");
	memmove(deep + 1, deep, 4097);
	deep[0] = '[';
	deep[4097] = ']';
	deep[4098] = '\0';
	same(deep, 0, "2049 arrays deep");
	in = input_memory(deep, strlen(deep));
	js = json_stream_create(in, 0);
	while (json_stream_next(js, &t) > JSON_TOK_END)
		;
	ok(strstr(json_stream_error(js), "maximum parsing depth") != NULL,
	    "with jansson's words: %s", json_stream_error(js));
	json_stream_free(js);
	input_free(in);
	free(deep);

	/* Many keys: a map finds the one given twice, among others. */
	if ((deep = malloc(4000)) == NULL)
		return;
	n = 0;
	n += snprintf(deep + n, 4000 - n, "{");
	for (i = 0; i < 100; i++)
		n += snprintf(deep + n, 4000 - n, "%s\"k%d\":{\"k%d\":%d}",
		    i ? "," : "", i, i + 1, i);
	snprintf(deep + n, 4000 - n, "}");
	same(deep, 1, "an object of 100 keys");
	snprintf(deep + n, 4000 - n, ",\"k57\":1}");
	same(deep, 1, "an object of 100 keys and one twice");
	in = input_memory(deep, strlen(deep));
	js = json_stream_create(in, JSON_STREAM_NO_DUPLICATES);
	while (json_stream_next(js, &t) > JSON_TOK_END)
		;
	ok(strstr(json_stream_error(js), "duplicate object key") != NULL,
	    "refused with JSON_STREAM_NO_DUPLICATES: %s", json_stream_error(js));
	json_stream_free(js);
	input_free(in);
	free(deep);

	in = input_memory("{\"a\":\n  [1,\n   x]}", 18);
	js = json_stream_create(in, 0);
	while (json_stream_next(js, &t) > JSON_TOK_END)
		;
	is_str(json_stream_error(js), "line 3 column 4: invalid token",
	    "errors say their line and column");
	json_stream_free(js);
	input_free(in);

	in = input_memory("{\"a\":[1,2,3],\"b\":{\"c\":[{}]},\"d\":4}", 35);
	js = json_stream_create(in, 0);
	json_stream_next(js, &t);
	json_stream_next(js, &t);
	json_stream_next(js, &t);
	ok(json_stream_skip(js, &t) == 0 && json_stream_next(js, &t) ==
	    JSON_TOK_KEY && JSON_TOK_IS(&t, "b") && json_stream_next(js, &t) ==
	    JSON_TOK_OBJECT && json_stream_skip(js, &t) == 0 &&
	    json_stream_next(js, &t) == JSON_TOK_KEY && JSON_TOK_IS(&t, "d"),
	    "json_stream_skip passes a value");
	json_stream_free(js);
	input_free(in);
}

/*
 * Numbers through packed_nums_token and back (packed.h): reals kept as
 * digits and places must come back bit for bit, as must the others;
 * the decimals of a sampler's times take fewer bytes than a double.
 */
static void
packed_reals(void)
{
	static const char *fixed[] = { "0.0", "-0.0", "0.1", "-0.1", "1.5",
	    "506.149184", "0.30000000000000004", "1e-10", "1.5e-3", "2.5E3",
	    "123456789.123456789", "1125899906842.623", "-1125899906842.624",
	    "4.9e-324", "1.7976931348623157e308", "0.000000001",
	    "0.0000000001", "9007199254740993.5", "17", "-3", "null", "true" };
	struct packed_ints	 pi, tc;
	struct packed_cursor	 c;
	struct json_stream	*js = NULL;
	struct json_token	 t;
	struct input		*in;
	char			*b;
	double			*want, d;
	int64_t			 iv;
	uint64_t		 rs = 0xdec1a1, u;
	size_t			 n = 0, cap = 1 << 20, i, nv = 0, bad = 0;
	int			 k, kind, kinds[20000];

	packed_ints_init(&pi);
	packed_ints_init(&tc);
	if ((b = malloc(cap)) == NULL || (want = malloc(20000 *
	    sizeof *want)) == NULL) {
		free(b);
		ok(0, "packed reals: out of memory");
		return;
	}
	b[n++] = '[';
	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		n += snprintf(b + n, cap - n, "%s,", fixed[i]);
	/* Random doubles, random decimals of 0 to 12 places. */
	for (i = 0; i < 6000; i++) {
		u = tap_xorshift(&rs);
		memcpy(&d, &u, sizeof d);
		if (isfinite(d))
			n += snprintf(b + n, cap - n, "%.17g,", d);
		k = (int)(tap_xorshift(&rs) % 13);
		u = tap_xorshift(&rs);
		n += snprintf(b + n, cap - n, "%s%" PRIu64 "e-%d,",
		    i % 2 ? "-" : "", u >> (11 + u % 50), k);
	}
	b[n - 1] = ']';
	in = input_memory(b, n);
	if (in == NULL || (js = json_stream_create(in,
	    JSON_STREAM_BIG_REALS)) == NULL ||
	    json_stream_next(js, &t) != JSON_TOK_ARRAY) {
		ok(0, "packed reals: the text read");
		goto out;
	}
	while (json_stream_next(js, &t) != JSON_TOK_ARRAY_END && nv < 20000) {
		want[nv] = t.type == JSON_TOK_INTEGER ||
		    t.type == JSON_TOK_REAL ? t.d : 0;
		kinds[nv++] = t.type == JSON_TOK_INTEGER ? PACKED_NUM_INT :
		    t.type == JSON_TOK_REAL ? PACKED_NUM_REAL : -1;
		if (packed_nums_token(&pi, &t) == -1)
			break;
	}
	ok(nv == pi.n && nv > 6000, "packed reals: %zu numbers packed", nv);
	packed_cursor_init(&c, &pi);
	for (i = 0; i < pi.n; i++) {
		kind = packed_cursor_num(&c, &d, &iv);
		if (kinds[i] != -1 && (kind != kinds[i] ||
		    memcmp(&d, &want[i], sizeof d) != 0) && bad++ < 5)
			diag("number %zu: %.17g (kind %d), not %.17g", i, d,
			    kind, want[i]);
	}
	ok(bad == 0 && c.p == c.end, "packed reals: every value back bit "
	    "for bit");
	/*
	 * A sampler's times in ms with us ("%.3f", as a JSON reader reads
	 * them: the digits over 10^3): 4 bytes each, not 9.
	 */
	for (i = 0; i < 4000; i++)
		packed_nums_put(&tc, PACKED_NUM_REAL, 0, (double)(i * 117) /
		    1e3);
	packed_cursor_init(&c, &tc);
	for (i = 0, bad = 0; i < tc.n; i++) {
		kind = packed_cursor_num(&c, &d, &iv);
		bad += kind != PACKED_NUM_REAL || d != (double)(i * 117) / 1e3;
	}
	ok(bad == 0 && tc.n == 4000 && tc.len <= 4 * tc.n,
	    "packed reals: 4000 times in %zu bytes, each the same", tc.len);
out:
	packed_ints_free(&pi);
	packed_ints_free(&tc);
	json_stream_free(js);
	input_free(in);
	free(b);
	free(want);
}

int
main(void)
{
	static const struct {
		const char	*text;
		int		 want;
	} cases[] = {
		{ "{}", 1 }, { "[]", 1 }, { " [ 1 , 2 ] \n", 1 },
		{ "{\"a\":{\"b\":[true,false,null]}}", 1 },
		{ "[0,-0,0.0,-0.0,1e5,1E+5,1e-5,123.456e-7]", 1 },
		{ "[9223372036854775807,-9223372036854775808]", 1 },
		{ "[9223372036854775808]", 0 }, { "[-9223372036854775809]", 0 },
		{ "[1e400]", 0 }, { "[1e-400]", 1 }, { "[01]", 0 },
		{ "[1.]", 0 }, { "[.5]", 0 }, { "[1e]", 0 }, { "[-]", 0 },
		{ "[+1]", 0 }, { "[1.5e+]", 0 }, { "[0x10]", 0 },
		{ "[\"\\u0041\\u00e9\\u20ac\\ud834\\udd1e\"]", 1 },
		{ "[\"\\u0000\"]", 0 }, { "{\"\\u0000\":1}", 0 },
		{ "[\"\\ud800\"]", 0 }, { "[\"\\udc00\"]", 0 },
		{ "[\"\\ud800\\u0041\"]", 0 }, { "[\"\\x\"]", 0 },
		{ "[\"\\u12g4\"]", 0 }, { "[\"a\nb\"]", 0 }, { "[\"a\tb\"]", 0 },
		{ "[\"\xc3\xa9\"]", 1 }, { "[\"\xc3\"]", 0 },
		{ "[\"\xe0\x80\xaf\"]", 0 }, { "[\"\xed\xa0\x80\"]", 0 },
		{ "[\"\xf4\x90\x80\x80\"]", 0 }, { "[\"\xf0\x9f\x98\x80\"]", 1 },
		{ "[\"\xff\"]", 0 }, { "[1,]", 0 }, { "[,1]", 0 },
		{ "{\"a\":1,}", 0 }, { "{\"a\" 1}", 0 }, { "{1:2}", 0 },
		{ "{\"a\":1 \"b\":2}", 0 }, { "[1 2]", 0 }, { "[1]]", 0 },
		{ "[1] x", 0 }, { "[1]\n\t ", 1 }, { "1", 0 }, { "\"a\"", 0 },
		{ "", 0 }, { "  ", 0 }, { "[tru]", 0 }, { "[truex]", 0 },
		{ "[nul]", 0 }, { "[True]", 0 }, { "\xef\xbb\xbf[]", 0 },
		{ "[\"a\"", 0 }, { "{\"a\"", 0 }, { "{\"a\":", 0 },
		{ "{\"a\":1,\"a\":2}", 1 }, { "[1,{\"a\":[2,{\"b\":\"c\"}]}]", 1 },
		{ "{\"a\":{\"a\":1},\"b\":{\"a\":2,\"b\":[{\"a\":3}]}}", 1 },
		{ "{\"a\":{\"b\":1,\"c\":{},\"b\":2}}", 1 },
		/* Numbers in a row, as json_stream_numbers reads them. */
		{ "[1,2,3,4,5,6,7,8,9,10]", 1 }, { "[1,-2,3.5,1e3,-0,0,\"x\",4]", 1 },
		{ "[1 ,2, 3]", 1 }, { "[1,\n2]", 1 }, { "[[1,2],[3],[]]", 1 },
		{ "[1,[2,3],4,{\"a\":5}]", 1 }, { "[123456789012345678,1234567890123456789]", 1 },
		{ "[1,2,]", 0 }, { "[1,-]", 0 }, { "[1,00]", 0 }, { "[1,2.]", 0 },
		{ "[1,2,true,3,null,-4.25e-2]", 1 }, { "[1,2", 0 }, { "[1,2,", 0 },
	};
	char	 label[64];
	size_t	 i;

	if ((tmpfd = mkstemp(tmpl)) == -1) {
		ok(0, "mkstemp");
		return (tap_done());
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(label, sizeof label, "case %zu", i);
		same(cases[i].text, cases[i].want, label);
	}
	random_texts();
	long_texts();
	long_keys();
	data_files();
	options();
	packed_reals();
	close(tmpfd);
	unlink(tmpl);
	return (tap_done());
}

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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hash.h"
#include "input.h"
#include "json-stream.h"

/*
 * json-stream.c, differentially. The first byte picks the flags, the
 * second how many bytes at a time the text comes (1 to 97, so that a
 * refill cuts long tokens anywhere); the rest is the text. Properties:
 * the tokens (and the error, if any, word for word) are the same whole
 * and in pieces; and without the flags that change what is accepted,
 * the text is read if and only if jansson reads it (with
 * JSON_REJECT_DUPLICATES for JSON_STREAM_NO_DUPLICATES), to the same
 * values in the same order.
 */

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A digest of every token of the text, and how it ended. */
/*
 * Every token of in, hashed; with batch > 0 the numbers that
 * json_stream_numbers gives (at most batch at a time) come from it, the
 * rest from json_stream_next: the same tokens either way.
 */
static uint64_t
fuzz_tokens(struct input *in, int flags, size_t batch, int *end, char *err,
    size_t errlen)
{
	struct json_stream	*js;
	struct json_token	 t, num[8];
	uint64_t		 h = 0;
	size_t			 queued = 0, served = 0;

	*end = 0;
	err[0] = '\0';
	if ((js = json_stream_create(in, flags)) == NULL)
		abort();
	for (;;) {
		if (served == queued && batch > 0) {
			served = 0;
			queued = json_stream_numbers(js, num, batch);
		}
		if (served < queued)
			t = num[served++];
		else
			json_stream_next(js, &t);
		h = (h ^ (uint64_t)(t.type + 2)) * 0x100000001b3ULL;
		if (t.type == JSON_TOK_ERROR) {
			snprintf(err, errlen, "%s", json_stream_error(js));
			break;
		}
		if (t.type == JSON_TOK_END) {
			*end = 1;
			break;
		}
		if (t.type == JSON_TOK_KEY || t.type == JSON_TOK_STRING)
			h ^= hash_bytes(t.s, t.len);
		if (t.type == JSON_TOK_INTEGER)
			h ^= hash_u64((uint64_t)t.i);
		if (t.type == JSON_TOK_REAL || t.type == JSON_TOK_INTEGER)
			h ^= hash_bytes(&t.d, sizeof t.d);
	}
	json_stream_free(js);
	return (h);
}

/* Walk jansson's value as the stream reads it; 0 if every token matches. */
static int
fuzz_walk(json_t *j, struct json_stream *js, const char *key)
{
	struct json_token	 t;
	const char		*k;
	json_t			*v;
	size_t			 i;

	if (key != NULL && (json_stream_next(js, &t) != JSON_TOK_KEY ||
	    strlen(key) != t.len || memcmp(t.s, key, t.len) != 0))
		return (-1);
	json_stream_next(js, &t);
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		if (t.type != JSON_TOK_OBJECT)
			return (-1);
		json_object_foreach(j, k, v) {
			if (fuzz_walk(v, js, k) == -1)
				return (-1);
		}
		return (json_stream_next(js, &t) == JSON_TOK_OBJECT_END ? 0 : -1);
	case JSON_ARRAY:
		if (t.type != JSON_TOK_ARRAY)
			return (-1);
		json_array_foreach(j, i, v) {
			if (fuzz_walk(v, js, NULL) == -1)
				return (-1);
		}
		return (json_stream_next(js, &t) == JSON_TOK_ARRAY_END ? 0 : -1);
	case JSON_STRING:
		return (t.type == JSON_TOK_STRING &&
		    t.len == json_string_length(j) &&
		    memcmp(t.s, json_string_value(j), t.len) == 0 ? 0 : -1);
	case JSON_INTEGER:
		return (t.type == JSON_TOK_INTEGER &&
		    t.i == json_integer_value(j) ? 0 : -1);
	case JSON_REAL:
		return (t.type == JSON_TOK_REAL &&
		    t.d == json_real_value(j) ? 0 : -1);
	case JSON_TRUE:
		return (t.type == JSON_TOK_TRUE ? 0 : -1);
	case JSON_FALSE:
		return (t.type == JSON_TOK_FALSE ? 0 : -1);
	default:
		return (t.type == JSON_TOK_NULL ? 0 : -1);
	}
}

/* The stream against jansson on text (no flag that changes the verdict). */
static void
fuzz_jansson(const char *text, size_t len, int flags, int end)
{
	struct input		*in;
	struct json_stream	*js;
	struct json_token	 t;
	json_error_t		 jerr;
	json_t			*doc;

	/*
	 * jansson 2.14 reads a NUL byte right after a number or a literal
	 * as nothing ("[1\0]" loads); JSON allows none outside strings
	 * (nor a raw one inside), and the stream refuses it: no verdict
	 * of jansson's to compare with.
	 */
	if (memchr(text, '\0', len) != NULL)
		return;
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL && json_error_code(&jerr) == json_error_duplicate_key) {
		/*
		 * Refused with the flag, as it must be; without it read
		 * when jansson reads it without the check (the text after
		 * the key given twice may be no JSON at all). The values
		 * differ: jansson keeps one of the two.
		 */
		if (flags & JSON_STREAM_NO_DUPLICATES) {
			if (end)
				abort();
		} else {
			doc = json_loadb(text, len, 0, &jerr);
			if ((doc != NULL) != end)
				abort();
			json_decref(doc);
		}
		return;
	}
	if ((doc != NULL) != end)
		abort();
	if (doc == NULL)
		return;
	if ((in = input_memory(text, len)) == NULL ||
	    (js = json_stream_create(in, flags)) == NULL)
		abort();
	if (fuzz_walk(doc, js, NULL) == -1 ||
	    json_stream_next(js, &t) != JSON_TOK_END)
		abort();
	json_stream_free(js);
	input_free(in);
	json_decref(doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input	*whole, *pieces, *again;
	const char	*text;
	char		 err1[256], err2[256], err3[256];
	uint64_t	 h1, h2, h3;
	size_t		 n;
	int		 flags, end1, end2, end3;

	if (len < 2)
		return (0);
	flags = data[0] & (JSON_STREAM_BIG_REALS | JSON_STREAM_CLOSE_ARRAY |
	    JSON_STREAM_NO_DUPLICATES);
	text = (const char *)data + 2;
	n = len - 2;
	if ((whole = input_memory(text, n)) == NULL ||
	    (pieces = input_memory_trickle(text, n, 1 + data[1] % 97)) ==
	    NULL || (again = input_memory_trickle(text, n, 1 + data[1] % 89))
	    == NULL)
		abort();
	h1 = fuzz_tokens(whole, flags, 0, &end1, err1, sizeof err1);
	h2 = fuzz_tokens(pieces, flags, 0, &end2, err2, sizeof err2);
	/* Numbers in batches of 1 to 8 (the flags' other bits). */
	h3 = fuzz_tokens(again, flags, 1 + (data[0] >> 5), &end3, err3,
	    sizeof err3);
	if (h1 != h2 || end1 != end2 || strcmp(err1, err2) != 0 ||
	    h1 != h3 || end1 != end3 || strcmp(err1, err3) != 0)
		abort();
	input_free(whole);
	input_free(pieces);
	input_free(again);
	if (!(flags & (JSON_STREAM_BIG_REALS | JSON_STREAM_CLOSE_ARRAY)))
		fuzz_jansson(text, n, flags, end1);
	return (0);
}

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
#include "input.h"
#include "json-doc.h"

/* Probing JSON profiles' first bytes by structure. */

/* Deeper than any key a probe asks for; deeper text is skipped. */
#define JSON_DOC_PROBE_DEPTH	16

/* The first byte after blanks, or -1 if there is none. */
int
json_doc_first(const char *buf, size_t len)
{
	size_t	 i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
	    buf[i] == '\r'))
		i++;
	if (i + 3 <= len && memcmp(buf + i, "\xef\xbb\xbf", 3) == 0)
		return (json_doc_first(buf + i + 3, len - i - 3));
	return (i < len ? (unsigned char)buf[i] : -1);
}

/*
 * Whether an object key equal to key appears at the given depth in the
 * first len bytes, every open object or array being one level: 1 is the
 * members of the top-level object, 2 those of an object it holds or of
 * the objects of a top-level array, 3 those of the objects in an array
 * the top-level object holds ({"libs":[{"name":...}]}). A scan of the
 * tokens, not a parse: strings are skipped with their escapes, so a key
 * name inside a string or at another depth does not count.
 */
int
json_doc_has_key(const char *buf, size_t len, int depth, const char *key)
{
	char	 stack[JSON_DOC_PROBE_DEPTH];	/* '{' or '[' per level */
	int	 level = 0, expect_key = 0;
	size_t	 i, start, klen = strlen(key);

	for (i = 0; i < len; i++) {
		switch (buf[i]) {
		case '{':
		case '[':
			if (level < JSON_DOC_PROBE_DEPTH)
				stack[level] = buf[i];
			level++;
			expect_key = buf[i] == '{';
			break;
		case '}':
		case ']':
			if (level == 0)
				return (0);
			level--;
			expect_key = 0;
			break;
		case ',':
			expect_key = level > 0 && level <= JSON_DOC_PROBE_DEPTH &&
			    stack[level - 1] == '{';
			break;
		case '"':
			start = ++i;
			while (i < len && buf[i] != '"') {
				if (buf[i] == '\\')
					i++;
				i++;
			}
			if (i >= len)
				return (0);
			if (expect_key && level == depth && i - start == klen &&
			    memcmp(buf + start, key, klen) == 0)
				return (1);
			expect_key = 0;
			break;
		default:
			break;
		}
	}
	return (0);
}

/* The bound of json_doc_limit (json_doc_set_max). */
static uint64_t	json_doc_max = JSON_DOC_MAX_FILE;

/*
 * The most a JSON profile may be, in bytes (deepq.conf's max_json); 0 or
 * more than JSON_DOC_MAX_FILE: JSON_DOC_MAX_FILE.
 */
void
json_doc_set_max(uint64_t max)
{
	json_doc_max = max != 0 && max < JSON_DOC_MAX_FILE ? max :
	    JSON_DOC_MAX_FILE;
}

/*
 * The bound of a JSON reader's input: the file on disk no larger than
 * json_doc_max, and, decompressed, no more of it than that either
 * (input_limit: the bytes are counted as they are decoded, so a small
 * compressed bomb stops at the bound instead of costing minutes of
 * decoding). Every JSON reader's input goes through here before its
 * stream is made. 0, or -1 with *cause (the input then too_large: a
 * 413, as for a compressed one).
 */
int
json_doc_limit(struct input *in, const char *what, char **cause)
{
	if (in->size > json_doc_max) {
		in->too_large = 1;
		cause_set(cause, "%s: %llu bytes, more than the %llu MiB a %s "
		    "may be (max_json)", in->path,
		    (unsigned long long)in->size,
		    (unsigned long long)(json_doc_max >> 20), what);
		return (-1);
	}
	input_limit(in, json_doc_max, what);
	return (0);
}

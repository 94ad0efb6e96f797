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

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

#ifndef JSON_STREAM_H
#define JSON_STREAM_H

/*
 * A JSON document read as a stream of tokens from a struct input, for
 * the JSON profile readers: no document tree, only a window of the
 * input (a block, or one token cut by a refill) and the string being
 * read. The reader pulls tokens and keeps what it needs.
 *
 * The stream accepts exactly what jansson's json_loadb(flags 0) does,
 * so that a file either loader refuses the other refuses too: an
 * object or array at the top and nothing but blanks after it, strings
 * of valid UTF-8 without control characters or \u0000, numbers in
 * JSON's syntax (an integer beyond 64 bits is refused, or with
 * JSON_STREAM_BIG_REALS read as a real), nesting at most
 * JSON_STREAM_MAX_DEPTH values deep, and every string at most
 * JSON_STREAM_MAX_STRING bytes (json_stream_set_max_string); with
 * JSON_STREAM_NO_DUPLICATES, as JSON_REJECT_DUPLICATES, no object may
 * have a key twice. Errors say "line L column C: what".
 */

#include <stddef.h>
#include <stdint.h>

struct input;
struct json_stream;

/* jansson's JSON_PARSER_MAX_DEPTH: values within values. */
#define JSON_STREAM_MAX_DEPTH	2048
#define JSON_STREAM_MAX_STRING	((size_t)64 * 1024 * 1024)

/* Flags of json_stream_create. */
#define JSON_STREAM_BIG_REALS	0x1	/* integers past 64 bits as reals */
#define JSON_STREAM_CLOSE_ARRAY	0x2	/* a top-level array cut short ends */
#define JSON_STREAM_NO_DUPLICATES 0x4	/* a key twice in an object: error */

enum json_tok {
	JSON_TOK_ERROR = -1,
	JSON_TOK_END,		/* nothing after the top-level value */
	JSON_TOK_OBJECT,	/* '{': its members follow */
	JSON_TOK_OBJECT_END,	/* '}' */
	JSON_TOK_ARRAY,		/* '[': its elements follow */
	JSON_TOK_ARRAY_END,	/* ']' */
	JSON_TOK_KEY,		/* a member's name: its value follows */
	JSON_TOK_STRING,
	JSON_TOK_INTEGER,
	JSON_TOK_REAL,
	JSON_TOK_TRUE,
	JSON_TOK_FALSE,
	JSON_TOK_NULL
};

/*
 * A token. A string's bytes are NUL-terminated and valid until the next
 * call (they may lie in the input's buffer), a key's until the next key
 * is read (the first token of its value may be read before the key is
 * looked at); a number has its value as a double in d (an integer's
 * too, as jansson's json_number_value gives it) and an integer's in i.
 */
struct json_token {
	enum json_tok	 type;
	const char	*s;
	size_t		 len;
	int64_t		 i;
	double		 d;
};

struct json_stream *json_stream_create(struct input *, int);
void		 json_stream_free(struct json_stream *);
void		 json_stream_set_max_string(struct json_stream *, size_t);
enum json_tok	 json_stream_next(struct json_stream *, struct json_token *);
int		 json_stream_skip(struct json_stream *, const struct json_token *);
size_t		 json_stream_numbers(struct json_stream *, struct json_token *,
		    size_t);
int		 json_stream_end(struct json_stream *);
const char	*json_stream_error(const struct json_stream *);
uint32_t	 json_stream_depth(const struct json_stream *);

/*
 * json_stream_numbers(js, t, max) reads the numbers that follow in the
 * array open (after its '[' or an element), at most max, each into t[]
 * as json_stream_next gives it, and returns how many. It stops before
 * anything else (the array's end, another value, a blank, the window's
 * edge), which json_stream_next then reads, and after an error, which
 * the next json_stream_next returns. The readers' long arrays of
 * numbers (samples, time deltas, table rows) so cost a loop, not a call
 * and a state switch per token.
 */

/* Whether a key (or string) token is s. */
static inline int
json_token_is(const struct json_token *t, const char *s, size_t len)
{
	return (t->len == len && __builtin_memcmp(t->s, s, len) == 0);
}

#define JSON_TOK_IS(t, lit)	json_token_is((t), (lit), sizeof (lit) - 1)

/* Whether a token opens a value that json_stream_skip must close. */
#define JSON_TOK_NESTED(t)	((t)->type == JSON_TOK_OBJECT || \
	(t)->type == JSON_TOK_ARRAY)

#endif /* JSON_STREAM_H */

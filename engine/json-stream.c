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

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "idmap.h"
#include "input.h"
#include "json-stream.h"
#include "packed.h"
#include "utf8.h"

/*
 * JSON tokens from a struct input (see json-stream.h). The window is
 * the input's own buffer: tokens are read where they lie, and a token
 * the buffer's end cuts is read again from its start once the buffer
 * holds more (the buffer doubles for a long one, so a string is
 * scanned at most about twice). Before each token at least
 * JSON_STREAM_MARGIN bytes are made available, so that numbers, names
 * and short strings, nearly every token, never meet the buffer's end
 * in the middle.
 *
 * The state says what may come next; a value's depth is checked as
 * jansson counts it (a scalar inside N containers is N + 1 deep).
 */

#define JSON_STREAM_MARGIN	64

enum json_state {
	JS_START,	/* the top-level value, '{' or '[' */
	JS_VALUE,	/* a value: after ':', or ',' in an array */
	JS_FIRST,	/* after '[': a value or ']' */
	JS_KEY_FIRST,	/* after '{': a key or '}' */
	JS_KEY,		/* after ',' in an object: a key */
	JS_COLON,	/* after a key: ':' and its value */
	JS_NEXT,	/* after a value: ',' or its container's end */
	JS_DONE,	/* the top-level value is closed */
	JS_END,		/* and nothing but blanks followed it */
	JS_FAIL
};

struct json_stream {
	struct input	*in;
	char		*p, *end;	/* the unread bytes of in->buf */
	int		 flags;
	enum json_state	 state;
	uint32_t	 depth;		/* containers open */
	int		 inobj;		/* the innermost is an object */
	uint8_t		 object[JSON_STREAM_MAX_DEPTH / 8 + 1];
	size_t		 maxstr;
	uint64_t	 line;		/* from 1 */
	uint64_t	 linestart;	/* input offset of its first byte */
	char		*scratch;	/* a string with escapes, decoded */
	size_t		 slen, scap;
	char		*key;		/* the last key */
	size_t		 kcap;
	struct json_keys *keys;		/* JSON_STREAM_NO_DUPLICATES */
	char		 err[256];
};

/*
 * The keys of the objects open, for JSON_STREAM_NO_DUPLICATES: their
 * bytes one after another, a hash of each, where each object's begin,
 * and a hash map for an object of many keys (a scan for the others).
 */
#define JSON_KEYS_SCAN	32

struct json_key {
	uint64_t	 h;
	size_t		 off;
	size_t		 len;
};

struct json_keys {
	char		*text;
	size_t		 len, cap;
	struct json_key	*key;
	size_t		 n, capkey;
	size_t		 first[JSON_STREAM_MAX_DEPTH + 1];
	size_t		 text0[JSON_STREAM_MAX_DEPTH + 1];
	struct idmap	*map[JSON_STREAM_MAX_DEPTH + 1];
};

static const double json_stream_pow10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

static enum json_tok json_stream_fail(struct json_stream *, const char *,
		    const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static int	json_stream_more(struct json_stream *, char **);
static char	*json_stream_blank(struct json_stream *, char *);
static enum json_tok json_stream_number(struct json_stream *, char *,
		    struct json_token *);
static enum json_tok json_stream_string(struct json_stream *, char *,
		    struct json_token *, enum json_tok);
static enum json_tok json_stream_value(struct json_stream *, char *,
		    struct json_token *);
static enum json_tok json_stream_eof(struct json_stream *, struct json_token *);
static enum json_tok json_stream_close(struct json_stream *, char *,
		    struct json_token *);

/* A stream of the JSON text of in, from its current position. */
struct json_stream *
json_stream_create(struct input *in, int flags)
{
	struct json_stream	*js;

	if ((js = calloc(1, sizeof *js)) == NULL)
		return (NULL);
	if ((flags & JSON_STREAM_NO_DUPLICATES) &&
	    (js->keys = calloc(1, sizeof *js->keys)) == NULL) {
		free(js);
		return (NULL);
	}
	js->in = in;
	js->flags = flags;
	js->p = in->buf + in->pos;
	js->end = in->buf + in->len;
	js->maxstr = JSON_STREAM_MAX_STRING;
	js->line = 1;
	js->linestart = in->offset + in->pos;
	in->hold = 0;
	return (js);
}

void
json_stream_free(struct json_stream *js)
{
	int	 i;

	if (js == NULL)
		return;
	js->in->pos = js->p - js->in->buf;
	free(js->scratch);
	free(js->key);
	if (js->keys != NULL) {
		for (i = 0; i <= JSON_STREAM_MAX_DEPTH; i++) {
			if (js->keys->map[i] != NULL)
				idmap_clear(js->keys->map[i]);
			free(js->keys->map[i]);
		}
		free(js->keys->text);
		free(js->keys->key);
		free(js->keys);
	}
	free(js);
}

/* The longest string accepted from now on. */
void
json_stream_set_max_string(struct json_stream *js, size_t max)
{
	js->maxstr = max;
}

/*
 * "line L column C: what" of the error that stopped the stream; when it
 * did not stop, what stopped its reader can only have been memory.
 */
const char *
json_stream_error(const struct json_stream *js)
{
	return (js->err[0] != '\0' ? js->err : "out of memory");
}

/* The containers open around the next token. */
uint32_t
json_stream_depth(const struct json_stream *js)
{
	return (js->depth);
}

/* Stop with an error at p (NULL: where the stream is). */
static enum json_tok
json_stream_fail(struct json_stream *js, const char *p, const char *fmt, ...)
{
	va_list		 ap;
	uint64_t	 off;
	int		 n;

	if (js->state == JS_FAIL)
		return (JSON_TOK_ERROR);
	if (p == NULL)
		p = js->p;
	off = js->in->offset + (uint64_t)(p - js->in->buf);
	n = snprintf(js->err, sizeof js->err, "line %llu column %llu: ",
	    (unsigned long long)js->line,
	    (unsigned long long)(off - js->linestart + 1));
	if (n > 0 && (size_t)n < sizeof js->err) {
		va_start(ap, fmt);
		vsnprintf(js->err + n, sizeof js->err - n, fmt, ap);
		va_end(ap);
	}
	js->state = JS_FAIL;
	return (JSON_TOK_ERROR);
}

/*
 * More bytes from *start on (the first byte the caller still needs):
 * 1 if there are more than before, 0 at the end of the input, -1 on a
 * read error (the stream has failed). *start and js->p move with the
 * buffer; js->p must not be before *start.
 */
static int
json_stream_more(struct json_stream *js, char **start)
{
	struct input	*in = js->in;
	size_t		 have, want, p;
	const char	*q;

	if (in->eof)
		return (0);
	have = js->end - *start;
	p = js->p - *start;
	in->pos = *start - in->buf;
	in->hold = 0;
	want = have < INPUT_BLOCK ? have + input_block(in) : have * 2;
	if (input_peek(in, &q, want) == -1) {
		json_stream_fail(js, *start, "%s", in->error ?
		    input_error(in) : "out of memory");
		return (-1);
	}
	*start = in->buf + in->pos;
	js->p = *start + p;
	js->end = in->buf + in->len;
	return ((size_t)(js->end - *start) > have);
}

/*
 * The first byte from p on that is no blank, counting lines, with at
 * least JSON_STREAM_MARGIN bytes after it unless the input ends first;
 * js->end at the end of the input, NULL on a read error.
 */
static char *
json_stream_blank(struct json_stream *js, char *p)
{
	int	 r;

	for (;;) {
		while (p < js->end) {
			if (*p == ' ' || *p == '\t' || *p == '\r')
				p++;
			else if (*p == '\n') {
				p++;
				js->line++;
				js->linestart = js->in->offset +
				    (uint64_t)(p - js->in->buf);
			} else
				break;
		}
		if (js->end - p >= JSON_STREAM_MARGIN || js->in->eof)
			return (p);
		js->p = p;
		if ((r = json_stream_more(js, &js->p)) == -1)
			return (NULL);
		p = js->p;
		if (r == 0)
			return (p);
	}
}

/*
 * A number at p (a '-' or a digit): an integer if it has no fraction or
 * exponent and fits 64 bits, else a real, as jansson reads it (strtod's
 * correctly rounded value; the common short forms are computed here the
 * same way, exactly).
 */
static enum json_tok
json_stream_number(struct json_stream *js, char *p, struct json_token *t)
{
	char		*s = p, buf[64], *copy, *e;
	uint64_t	 m = 0;
	int		 neg, sig = 0, e10 = 0, exp = 0, eneg = 0, real = 0;
	int		 cut = 0, r;
	double		 d;

again:
	neg = *p == '-';
	if (neg)
		p++;
	if (p < js->end && *p == '0') {
		p++;
		if (p < js->end && *p >= '0' && *p <= '9')
			return (json_stream_fail(js, s, "invalid token"));
	} else if (p < js->end && *p >= '1' && *p <= '9') {
		for (; p < js->end && *p >= '0' && *p <= '9'; p++) {
			if (sig < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				sig++;
			} else {
				cut = 1;
				e10++;
			}
		}
	} else if (p < js->end || js->in->eof)
		return (json_stream_fail(js, s, "invalid token"));
	if (p < js->end && *p == '.') {
		real = 1;
		p++;
		if (p < js->end && (*p < '0' || *p > '9'))
			return (json_stream_fail(js, s, "invalid token"));
		for (; p < js->end && *p >= '0' && *p <= '9'; p++) {
			if (m == 0 && *p == '0')
				e10--;
			else if (sig < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				sig++;
				e10--;
			} else
				cut = 1;
		}
	}
	if (p < js->end && (*p == 'e' || *p == 'E')) {
		real = 1;
		p++;
		if (p < js->end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p < js->end && (*p < '0' || *p > '9'))
			return (json_stream_fail(js, s, "invalid token"));
		for (; p < js->end && *p >= '0' && *p <= '9'; p++) {
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
		}
	}
	if (p == js->end && !js->in->eof) {
		/* The buffer cut it: again from its start, with more. */
		if ((size_t)(p - s) > js->maxstr)
			return (json_stream_fail(js, s, "a number longer than "
			    "%zu bytes", js->maxstr));
		js->p = s;
		if ((r = json_stream_more(js, &js->p)) == -1)
			return (JSON_TOK_ERROR);
		p = s = js->p;
		m = 0;
		sig = e10 = exp = eneg = real = cut = 0;
		if (r == 1 || p < js->end)
			goto again;
	}
	if (p == js->end && (p[-1] < '0' || p[-1] > '9'))
		return (json_stream_fail(js, s, "invalid token"));
	js->p = p;
	t->s = NULL;
	t->len = 0;
	if (!real) {
		if (!cut && (m <= INT64_MAX || (neg && m == (uint64_t)INT64_MAX
		    + 1))) {
			t->i = neg ? (int64_t)(0 - m) : (int64_t)m;
			t->d = (double)t->i;
			return (t->type = JSON_TOK_INTEGER);
		}
		if (!(js->flags & JSON_STREAM_BIG_REALS))
			return (json_stream_fail(js, s, neg ? "too big negative "
			    "integer" : "too big integer"));
	}
	if (eneg)
		exp = -exp;
	e10 += exp;
	if (!cut && m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
		/* Both exact: their product or quotient is rounded once. */
		d = e10 >= 0 ? (double)m * json_stream_pow10[e10] :
		    (double)m / json_stream_pow10[-e10];
	} else if (m == 0 && !cut)
		d = 0;
	else {
		copy = (size_t)(p - s) < sizeof buf ? buf : malloc(p - s + 1);
		if (copy == NULL)
			return (json_stream_fail(js, s, "out of memory"));
		memcpy(copy, s, p - s);
		copy[p - s] = '\0';
		d = strtod(copy, &e);
		if (copy != buf)
			free(copy);
		if (isinf(d))
			return (json_stream_fail(js, s, "real number overflow"));
		neg = 0;
	}
	t->d = neg ? -d : d;
	t->i = 0;
	return (t->type = JSON_TOK_REAL);
}

/* Append n bytes to the scratch string. */
static int
json_stream_put(struct json_stream *js, const char *s, size_t n)
{
	size_t	 cap;
	char	*b;

	if (js->slen + n + 1 > js->scap) {
		cap = js->scap ? js->scap : 256;
		while (cap < js->slen + n + 1)
			cap *= 2;
		if ((b = realloc(js->scratch, cap)) == NULL)
			return (-1);
		js->scratch = b;
		js->scap = cap;
	}
	memcpy(js->scratch + js->slen, s, n);
	js->slen += n;
	return (0);
}

/* Four hex digits at p, or -1. */
static int
json_stream_hex4(const char *p)
{
	int	 v = 0, i, c;

	for (i = 0; i < 4; i++) {
		c = (unsigned char)p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return (-1);
	}
	return (v);
}

/*
 * The escape at p (its '\\') decoded onto the scratch string: its
 * length in the text, 0 if the buffer cuts it, -1 on an error.
 */
static int
json_stream_escape(struct json_stream *js, char *p, enum json_tok type)
{
	char	 u[4];
	int	 v, v2, n;

	if (js->end - p < 2)
		return (0);
	switch (p[1]) {
	case '"': case '\\': case '/':
		return (json_stream_put(js, p + 1, 1) == -1 ? -1 : 2);
	case 'b':
		return (json_stream_put(js, "\b", 1) == -1 ? -1 : 2);
	case 'f':
		return (json_stream_put(js, "\f", 1) == -1 ? -1 : 2);
	case 'n':
		return (json_stream_put(js, "\n", 1) == -1 ? -1 : 2);
	case 'r':
		return (json_stream_put(js, "\r", 1) == -1 ? -1 : 2);
	case 't':
		return (json_stream_put(js, "\t", 1) == -1 ? -1 : 2);
	case 'u':
		break;
	default:
		json_stream_fail(js, p, "invalid escape");
		return (-1);
	}
	if (js->end - p < 6)
		return (0);
	if ((v = json_stream_hex4(p + 2)) == -1) {
		json_stream_fail(js, p, "invalid escape");
		return (-1);
	}
	n = 6;
	if (v >= 0xd800 && v <= 0xdbff) {
		if (js->end - p < 12)
			return (0);
		if (p[6] != '\\' || p[7] != 'u') {
			json_stream_fail(js, p, "invalid Unicode '\\u%04X'", v);
			return (-1);
		}
		if ((v2 = json_stream_hex4(p + 8)) == -1) {
			json_stream_fail(js, p + 6, "invalid escape");
			return (-1);
		}
		if (v2 < 0xdc00 || v2 > 0xdfff) {
			json_stream_fail(js, p, "invalid Unicode '\\u%04X\\u%04X'",
			    v, v2);
			return (-1);
		}
		v = ((v - 0xd800) << 10) + (v2 - 0xdc00) + 0x10000;
		n = 12;
	} else if (v >= 0xdc00 && v <= 0xdfff) {
		json_stream_fail(js, p, "invalid Unicode '\\u%04X'", v);
		return (-1);
	} else if (v == 0) {
		json_stream_fail(js, p, type == JSON_TOK_KEY ? "NUL byte in object "
		    "key not supported" : "\\u0000 is not allowed");
		return (-1);
	}
	if (v < 0x80) {
		u[0] = (char)v;
		v2 = 1;
	} else if (v < 0x800) {
		u[0] = (char)(0xc0 | v >> 6);
		u[1] = (char)(0x80 | (v & 0x3f));
		v2 = 2;
	} else if (v < 0x10000) {
		u[0] = (char)(0xe0 | v >> 12);
		u[1] = (char)(0x80 | (v >> 6 & 0x3f));
		u[2] = (char)(0x80 | (v & 0x3f));
		v2 = 3;
	} else {
		u[0] = (char)(0xf0 | v >> 18);
		u[1] = (char)(0x80 | (v >> 12 & 0x3f));
		u[2] = (char)(0x80 | (v >> 6 & 0x3f));
		u[3] = (char)(0x80 | (v & 0x3f));
		v2 = 4;
	}
	return (json_stream_put(js, u, v2) == -1 ? -1 : n);
}

/*
 * The bytes of a word a string scan stops at: '"', '\\', a control
 * character or a byte above 0x7f (checked as UTF-8). Only the lowest
 * is exact (a borrow may mark bytes above it), and it is the one used.
 */
static inline uint64_t
json_stream_special(uint64_t x)
{
	uint64_t	 q = x ^ (HASH_ONES * '"'), b = x ^ (HASH_ONES * '\\');

	return (((q - HASH_ONES) & ~q) | ((b - HASH_ONES) & ~b) |
	    (x - HASH_ONES * 0x20) | x) & HASH_HIGHS;
}

/*
 * A string at p (its '"'), as a key or a value. Without escapes its
 * bytes stay in the buffer, NUL-terminated over the closing quote.
 */
static enum json_tok
json_stream_string(struct json_stream *js, char *p, struct json_token *t,
    enum json_tok type)
{
	char		*s = p, *run;
	unsigned int	 cp;
	size_t		 k;
	uint64_t	 x, z;
	int		 esc = 0, r;
	unsigned char	 c;

again:
	p = s + 1;
	run = p;
	for (;;) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		while (js->end - p >= 8) {
			memcpy(&x, p, 8);
			if ((z = json_stream_special(x)) != 0) {
				p += __builtin_ctzll(z) / 8;
				break;
			}
			p += 8;
		}
#endif
		while (p < js->end && (c = (unsigned char)*p) != '"' &&
		    c != '\\' && c >= 0x20 && c < 0x80)
			p++;
		if ((size_t)(p - s - 1) > js->maxstr)
			return (json_stream_fail(js, s, "a string longer than "
			    "%zu bytes", js->maxstr));
		if (p == js->end)
			goto more;
		c = (unsigned char)*p;
		if (c == '"')
			break;
		if (c < 0x20)
			return (json_stream_fail(js, p, c == '\n' ?
			    "unexpected newline" : "control character 0x%x", c));
		if (c >= 0x80) {
			if (js->end - p < 4 && !js->in->eof)
				goto more;
			if ((k = utf8_decode((unsigned char *)p, js->end - p,
			    &cp)) == 0)
				return (json_stream_fail(js, p, "unable to "
				    "decode byte 0x%x", c));
			p += k;
			continue;
		}
		/* An escape: the string is decoded onto the scratch. */
		if (!esc) {
			esc = 1;
			js->slen = 0;
		}
		if (json_stream_put(js, run, p - run) == -1)
			return (json_stream_fail(js, p, "out of memory"));
		if ((r = json_stream_escape(js, p, type)) == -1)
			return (JSON_TOK_ERROR);
		if (r == 0) {
			if (js->in->eof)
				return (json_stream_fail(js, p, "invalid escape"));
			goto more;
		}
		p += r;
		run = p;
	}
	if (esc) {
		if (json_stream_put(js, run, p - run) == -1)
			return (json_stream_fail(js, p, "out of memory"));
		if (js->slen > js->maxstr)
			return (json_stream_fail(js, s, "a string longer than "
			    "%zu bytes", js->maxstr));
		js->scratch[js->slen] = '\0';
		t->s = js->scratch;
		t->len = js->slen;
	} else {
		*p = '\0';
		t->s = s + 1;
		t->len = p - (s + 1);
	}
	js->p = p + 1;
	/*
	 * A key outlives its value's token: it is copied. Most keys are
	 * short, and in the window with room after them: 16 bytes (its NUL
	 * among them) in one fixed-size copy, not a call.
	 */
	if (type == JSON_TOK_KEY) {
		if (t->len < 16 && !esc && js->end - t->s >= 16 &&
		    js->kcap >= 16)
			memcpy(js->key, t->s, 16);
		else if ((t->len + 1 > js->kcap && packed_grow(&js->key,
		    &js->kcap, t->len + 1 < 16 ? 16 : t->len + 1, 1) == -1))
			return (json_stream_fail(js, s, "out of memory"));
		else
			memcpy(js->key, t->s, t->len + 1);
		t->s = js->key;
	}
	return (t->type = type);

more:
	/* The buffer cuts the string: again from its start, with more. */
	if (js->in->eof)
		return (json_stream_fail(js, p, "premature end of input"));
	js->p = s;
	if ((r = json_stream_more(js, &js->p)) == -1)
		return (JSON_TOK_ERROR);
	/*
	 * No more bytes: the input has ended. Once more with that known,
	 * so that a cut escape or UTF-8 sequence fails as it does when the
	 * whole input is in the buffer, not as a premature end.
	 */
	if (r == 0 && !js->in->eof)
		return (json_stream_fail(js, js->end, "premature end of input"));
	s = js->p;
	esc = 0;
	goto again;
}

/*
 * Key t of the innermost object, which must not have it already: kept
 * until the object ends. -1 with the error if it is there, or out of
 * memory.
 */
static int
json_stream_key(struct json_stream *js, const struct json_token *t)
{
	struct json_keys	*k = js->keys;
	struct json_key		*e;
	size_t			 i, lvl = js->depth - 1, first = k->first[lvl];
	uint64_t		 h = hash_bytes(t->s, t->len);
	uint32_t		 j;

	if (k->map[lvl] != NULL && (j = idmap_get(k->map[lvl], h)) !=
	    IDMAP_NONE && k->key[j].len == t->len &&
	    memcmp(k->text + k->key[j].off, t->s, t->len) == 0)
		goto dup;
	/* A scan: of a small object, or for a collision of hashes. */
	if (k->map[lvl] == NULL || j != IDMAP_NONE) {
		for (i = first; i < k->n; i++) {
			e = &k->key[i];
			if (e->h == h && e->len == t->len &&
			    memcmp(k->text + e->off, t->s, t->len) == 0)
				goto dup;
		}
	}
	if (packed_grow(&k->key, &k->capkey, k->n + 1, sizeof *k->key) == -1 ||
	    packed_grow(&k->text, &k->cap, k->len + t->len + 1, 1) == -1)
		goto nomem;
	e = &k->key[k->n];
	e->h = h;
	e->off = k->len;
	e->len = t->len;
	memcpy(k->text + k->len, t->s, t->len);
	k->len += t->len;
	if (k->n - first == JSON_KEYS_SCAN && k->map[lvl] == NULL) {
		/* Many keys: a map of them from now on. */
		if ((k->map[lvl] = malloc(sizeof *k->map[lvl])) == NULL)
			goto nomem;
		idmap_init(k->map[lvl]);
		for (i = first; i < k->n; i++) {
			if (idmap_put(k->map[lvl], k->key[i].h,
			    (uint32_t)i) == -1)
				goto nomem;
		}
	}
	if (k->map[lvl] != NULL && idmap_get(k->map[lvl], h) == IDMAP_NONE &&
	    idmap_put(k->map[lvl], h, (uint32_t)k->n) == -1)
		goto nomem;
	k->n++;
	return (0);
dup:
	/* At the key's closing quote, as jansson says it. */
	json_stream_fail(js, js->p - 1, "duplicate object key");
	return (-1);
nomem:
	json_stream_fail(js, NULL, "out of memory");
	return (-1);
}

/*
 * Most numbers: an integer of up to 18 digits at p, no fraction or
 * exponent, with at least 24 bytes after p. Its token in *t and its
 * end, or NULL for anything else (json_stream_number reads that).
 */
static inline char *
json_stream_int(char *p, struct json_token *t)
{
	const char	*q = p + (*p == '-');
	uint64_t	 u = (unsigned char)*q - '0', d = 0;
	int		 nd = 1;

	if (u > 9 || (u == 0 && (unsigned char)(q[1] - '0') <= 9))
		return (NULL);
	for (q++; nd < 18 && (d = (unsigned char)*q - '0') <= 9; q++, nd++)
		u = u * 10 + d;
	if (d <= 9 || *q == '.' || *q == 'e' || *q == 'E')
		return (NULL);
	t->i = *p == '-' ? -(int64_t)u : (int64_t)u;
	t->d = (double)t->i;
	t->s = NULL;
	t->len = 0;
	t->type = JSON_TOK_INTEGER;
	return ((char *)q);
}

/* The value that starts at p. */
static enum json_tok
json_stream_value(struct json_stream *js, char *p, struct json_token *t)
{
	char	*s;
	size_t	 n;

	if (js->depth + 1 > JSON_STREAM_MAX_DEPTH)
		return (json_stream_fail(js, p, "maximum parsing depth "
		    "reached"));
	switch (*p) {
	case '{':
	case '[':
		if (*p == '{')
			js->object[js->depth / 8] |= 1 << (js->depth % 8);
		else
			js->object[js->depth / 8] &= ~(1 << (js->depth % 8));
		if (js->keys != NULL && *p == '{') {
			js->keys->first[js->depth] = js->keys->n;
			js->keys->text0[js->depth] = js->keys->len;
		}
		js->depth++;
		js->inobj = *p == '{';
		js->p = p + 1;
		js->state = *p == '{' ? JS_KEY_FIRST : JS_FIRST;
		t->s = NULL;
		t->len = 0;
		return (t->type = *p == '{' ? JSON_TOK_OBJECT : JSON_TOK_ARRAY);
	case '"':
		js->state = JS_NEXT;
		return (json_stream_string(js, p, t, JSON_TOK_STRING));
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		js->state = JS_NEXT;
		if (js->end - p >= 24 && (s = json_stream_int(p, t)) != NULL) {
			js->p = s;
			return (t->type);
		}
		return (json_stream_number(js, p, t));
	default:
		break;
	}
	/* A name: true, false, null, or an invalid token. */
	for (s = p; s < js->end && ((*s >= 'a' && *s <= 'z') ||
	    (*s >= 'A' && *s <= 'Z')); s++)
		;
	n = s - p;
	t->s = NULL;
	t->len = 0;
	js->state = JS_NEXT;
	js->p = s;
	if (n == 4 && memcmp(p, "true", 4) == 0)
		return (t->type = JSON_TOK_TRUE);
	if (n == 5 && memcmp(p, "false", 5) == 0)
		return (t->type = JSON_TOK_FALSE);
	if (n == 4 && memcmp(p, "null", 4) == 0)
		return (t->type = JSON_TOK_NULL);
	if (n == 0 && (*p == ']' || *p == '}' || *p == ',' || *p == ':'))
		return (json_stream_fail(js, p, "unexpected token"));
	return (json_stream_fail(js, p, "invalid token"));
}

/* The end of the innermost container, at p. */
static enum json_tok
json_stream_close(struct json_stream *js, char *p, struct json_token *t)
{
	int	 obj;

	js->depth--;
	obj = js->inobj;
	if (obj && js->keys != NULL) {
		/* The object's keys go. */
		js->keys->n = js->keys->first[js->depth];
		js->keys->len = js->keys->text0[js->depth];
		if (js->keys->map[js->depth] != NULL) {
			idmap_clear(js->keys->map[js->depth]);
			free(js->keys->map[js->depth]);
			js->keys->map[js->depth] = NULL;
		}
	}
	js->inobj = js->depth > 0 &&
	    (js->object[(js->depth - 1) / 8] >> ((js->depth - 1) % 8) & 1);
	js->p = p + 1;
	js->state = js->depth == 0 ? JS_DONE : JS_NEXT;
	t->s = NULL;
	t->len = 0;
	return (t->type = obj ? JSON_TOK_OBJECT_END : JSON_TOK_ARRAY_END);
}

/*
 * The input ends before the top-level value does: an error, or with
 * JSON_STREAM_CLOSE_ARRAY the end of a top-level array whose last ']'
 * is missing (Chrome leaves it off a trace it stopped writing), where
 * an element or a ',' could have been followed by it.
 */
static enum json_tok
json_stream_eof(struct json_stream *js, struct json_token *t)
{
	if ((js->flags & JSON_STREAM_CLOSE_ARRAY) && js->depth == 1 &&
	    !js->inobj && (js->state == JS_NEXT || js->state == JS_VALUE ||
	    js->state == JS_FIRST)) {
		js->depth = 0;
		js->state = JS_DONE;
		t->s = NULL;
		t->len = 0;
		return (t->type = JSON_TOK_ARRAY_END);
	}
	return (json_stream_fail(js, js->end, "premature end of input"));
}

/* The next token, or JSON_TOK_ERROR (json_stream_error says why). */
enum json_tok
json_stream_next(struct json_stream *js, struct json_token *t)
{
	char	*p;

	t->type = JSON_TOK_ERROR;
	for (;;) {
		p = js->p;
		/* Blanks, the window's margin or its end: out of line. */
		if (js->end - p < JSON_STREAM_MARGIN ||
		    (unsigned char)*p <= ' ') {
			if (js->state >= JS_DONE) {
				if (js->state == JS_FAIL)
					return (JSON_TOK_ERROR);
				return (json_stream_end(js) == 0 ?
				    (t->type = JSON_TOK_END) : JSON_TOK_ERROR);
			}
			if ((p = json_stream_blank(js, p)) == NULL)
				return (JSON_TOK_ERROR);
			js->p = p;
			if (p == js->end)
				return (json_stream_eof(js, t));
		}
		switch (js->state) {
		case JS_NEXT:
			if (*p == ',') {
				js->p = p + 1;
				js->state = js->inobj ? JS_KEY : JS_VALUE;
				continue;
			}
			if (*p == (js->inobj ? '}' : ']'))
				return (json_stream_close(js, p, t));
			return (json_stream_fail(js, p, js->inobj ?
			    "'}' expected" : "']' expected"));
		case JS_VALUE:
			return (json_stream_value(js, p, t));
		case JS_KEY_FIRST:
			if (*p == '}')
				return (json_stream_close(js, p, t));
			/* FALLTHROUGH */
		case JS_KEY:
			if (*p != '"')
				return (json_stream_fail(js, p, "string or '}' "
				    "expected"));
			js->state = JS_COLON;
			if (json_stream_string(js, p, t, JSON_TOK_KEY) ==
			    JSON_TOK_KEY && js->keys != NULL &&
			    json_stream_key(js, t) == -1)
				return (JSON_TOK_ERROR);
			return (t->type);
		case JS_COLON:
			if (*p != ':')
				return (json_stream_fail(js, p, "':' expected"));
			js->p = p + 1;
			js->state = JS_VALUE;
			continue;
		case JS_FIRST:
			if (*p == ']')
				return (json_stream_close(js, p, t));
			return (json_stream_value(js, p, t));
		case JS_START:
			if (*p != '{' && *p != '[')
				return (json_stream_fail(js, p, "'[' or '{' "
				    "expected"));
			return (json_stream_value(js, p, t));
		case JS_FAIL:
			return (JSON_TOK_ERROR);
		default:
			return (json_stream_end(js) == 0 ?
			    (t->type = JSON_TOK_END) : JSON_TOK_ERROR);
		}
	}
}

/*
 * The numbers that follow in the array open, at most max (json-stream.h):
 * the states and checks json_stream_next would go through for them, in
 * one loop. Anything else is left where it is, at a state
 * json_stream_next goes on from.
 */
size_t
json_stream_numbers(struct json_stream *js, struct json_token *t, size_t max)
{
	char	*p = js->p, *q;
	size_t	 n = 0;

	if (js->inobj || js->depth + 1 > JSON_STREAM_MAX_DEPTH ||
	    (js->state != JS_FIRST && js->state != JS_VALUE &&
	    js->state != JS_NEXT))
		return (0);
	while (n < max && js->end - p >= JSON_STREAM_MARGIN) {
		if (js->state == JS_NEXT) {
			if (*p != ',')
				break;
			js->state = JS_VALUE;
			if (js->end - ++p < JSON_STREAM_MARGIN)
				break;
		}
		if (*p != '-' && (*p < '0' || *p > '9'))
			break;
		js->state = JS_NEXT;
		if ((q = json_stream_int(p, &t[n])) != NULL) {
			p = q;
			n++;
			continue;
		}
		if (json_stream_number(js, p, &t[n]) == JSON_TOK_ERROR)
			return (n);
		p = js->p;
		n++;
	}
	js->p = p;
	return (n);
}

/*
 * Skip the rest of the value whose first token is t: nothing for a
 * scalar, up to its end for an object or array. 0, or -1 on an error.
 */
int
json_stream_skip(struct json_stream *js, const struct json_token *t)
{
	struct json_token	 u;
	uint32_t		 depth;

	if (t->type != JSON_TOK_OBJECT && t->type != JSON_TOK_ARRAY)
		return (t->type == JSON_TOK_ERROR ? -1 : 0);
	depth = js->depth - 1;
	for (;;) {
		switch (json_stream_next(js, &u)) {
		case JSON_TOK_ERROR:
			return (-1);
		case JSON_TOK_OBJECT_END:
		case JSON_TOK_ARRAY_END:
			if (js->depth == depth)
				return (0);
			break;
		default:
			break;
		}
	}
}

/*
 * After the top-level value: nothing but blanks to the end of the
 * input. 0, or -1 with the error.
 */
int
json_stream_end(struct json_stream *js)
{
	char	*p;

	if (js->state == JS_END)
		return (0);
	if (js->state != JS_DONE) {
		json_stream_fail(js, NULL, "the document is not over");
		return (-1);
	}
	for (;;) {
		if ((p = json_stream_blank(js, js->p)) == NULL)
			return (-1);
		js->p = p;
		if (p < js->end) {
			json_stream_fail(js, p, "end of file expected");
			return (-1);
		}
		if (js->in->eof)
			break;
	}
	js->state = JS_END;
	return (0);
}

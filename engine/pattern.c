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

#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "cause.h"
#include "cost.h"
#include "pattern.h"

/*
 * Bounded regexes (see pattern.h). glibc's regcomp/regexec, used before,
 * has no limit at all: "(.*){1,32767}" overflowed its stack while
 * compiling, "(((.{255}){255}){255}){255}" grew the server by gigabytes,
 * and "(a|aa)*c" took half a minute on a long name with nothing able to
 * stop it. PCRE2 lets a caller bound all of that: the pattern's length
 * and nesting at compile time, its compiled size after, and per match
 * the steps, the backtracking depth and the heap. Its memory comes from
 * an allocator of ours that counts, so no other way in can grow it.
 */

/* What one pattern's PCRE2 allocations hold at the moment. */
struct pattern_memory {
	size_t		 used;
};

struct pattern {
	struct pattern_memory	 mem;
	pcre2_general_context	*gcx;
	pcre2_code		*code;
	pcre2_match_context	*mcx;
	pcre2_match_data	*md;
};

/* A size prefix in front of each block, aligned for anything. */
#define PATTERN_HDR	16

static void	*pattern_malloc(size_t, void *);
static void	 pattern_mfree(void *, void *);
static int	 pattern_copy(char *, size_t *, size_t, const char *);
static uint32_t	 pattern_limit(size_t);

/* PCRE2's malloc: refuses past PATTERN_MAX_MEMORY in all. */
static void *
pattern_malloc(size_t n, void *arg)
{
	struct pattern_memory	*m = arg;
	unsigned char		*b;

	if (n > PATTERN_MAX_MEMORY || m->used > PATTERN_MAX_MEMORY - n)
		return (NULL);
	if ((b = malloc(n + PATTERN_HDR)) == NULL)
		return (NULL);
	memcpy(b, &n, sizeof n);
	m->used += n;
	return (b + PATTERN_HDR);
}

/* PCRE2's free. */
static void
pattern_mfree(void *p, void *arg)
{
	struct pattern_memory	*m = arg;
	unsigned char		*b;
	size_t			 n;

	if (p == NULL)
		return;
	b = (unsigned char *)p - PATTERN_HDR;
	memcpy(&n, b, sizeof n);
	m->used -= n;
	free(b);
}

/* Append s to out (of size cap, *len used); -1 if it does not fit. */
static int
pattern_copy(char *out, size_t *len, size_t cap, const char *s)
{
	size_t	 n = strlen(s);

	if (n >= cap - *len)
		return (-1);
	memcpy(out + *len, s, n);
	*len += n;
	out[*len] = '\0';
	return (0);
}

/*
 * A POSIX extended regex in PCRE2's syntax, where the two differ in what
 * users of the POSIX form write: a backslash in a bracket expression is
 * an ordinary character ("[\]" is a backslash), and GNU's word and
 * buffer anchors \< \> \` \' become \b(?=\w) \b(?<=\w) \A \z. Back
 * references (\1 to \9) are refused, as they always were. NULL with
 * *cause if refused or out of memory.
 */
char *
pattern_translate(const char *s, char **cause)
{
	size_t	 len = 0, cap, n = strlen(s);
	char	*out, one[3];
	int	 r = 0;

	if (n > PATTERN_MAX_LEN) {
		cause_set(cause, "regex longer than %d bytes",
		    PATTERN_MAX_LEN);
		return (NULL);
	}
	/* At worst "\<" (2 bytes) becomes 8. */
	cap = 4 * n + 1;
	if ((out = malloc(cap)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	out[0] = '\0';
	while (*s != '\0' && r == 0) {
		if (*s == '\\') {
			switch (s[1]) {
			case '1': case '2': case '3': case '4': case '5':
			case '6': case '7': case '8': case '9':
				free(out);
				cause_set(cause, "back references are not "
				    "supported");
				return (NULL);
			case '<':
				r = pattern_copy(out, &len, cap, "\\b(?=\\w)");
				break;
			case '>':
				r = pattern_copy(out, &len, cap, "\\b(?<=\\w)");
				break;
			case '`':
				r = pattern_copy(out, &len, cap, "\\A");
				break;
			case '\'':
				r = pattern_copy(out, &len, cap, "\\z");
				break;
			case '\0':
				/* PCRE2 says what is wrong with it. */
				r = pattern_copy(out, &len, cap, "\\");
				s++;
				continue;
			default:
				one[0] = '\\';
				one[1] = s[1];
				one[2] = '\0';
				r = pattern_copy(out, &len, cap, one);
				break;
			}
			s += 2;
			continue;
		}
		if (*s != '[') {
			one[0] = *s++;
			one[1] = '\0';
			r = pattern_copy(out, &len, cap, one);
			continue;
		}
		/*
		 * A bracket expression: "[", an optional "^", a "]" that is
		 * a member if first, then up to the closing "]", with
		 * "[:class:]", "[=e=]" and "[.e.]" copied whole.
		 */
		r = pattern_copy(out, &len, cap, "[");
		s++;
		if (*s == '^') {
			r = r ? r : pattern_copy(out, &len, cap, "^");
			s++;
		}
		if (*s == ']') {
			r = r ? r : pattern_copy(out, &len, cap, "]");
			s++;
		}
		while (*s != '\0' && *s != ']' && r == 0) {
			if (*s == '[' && (s[1] == ':' || s[1] == '=' ||
			    s[1] == '.')) {
				const char	*end;
				char		 close[3] = { s[1], ']', '\0' };

				if ((end = strstr(s + 2, close)) != NULL) {
					for (; s < end + 2 && r == 0; s++) {
						one[0] = *s;
						one[1] = '\0';
						r = pattern_copy(out, &len, cap,
						    one);
					}
					continue;
				}
			}
			if (*s == '\\')
				r = pattern_copy(out, &len, cap, "\\\\");
			else {
				one[0] = *s;
				one[1] = '\0';
				r = pattern_copy(out, &len, cap, one);
			}
			s++;
		}
		if (*s == ']') {
			r = r ? r : pattern_copy(out, &len, cap, "]");
			s++;
		}
	}
	if (r != 0) {
		free(out);
		cause_set(cause, "regex too long");
		return (NULL);
	}
	return (out);
}

/* Compile a pattern; NULL with *cause if refused (a 400). */
struct pattern *
pattern_create(const char *src, char **cause)
{
	return (pattern_create_flags(src, 0, cause));
}

/* pattern_create, with PATTERN_ICASE to ignore the case of letters. */
struct pattern *
pattern_create_flags(const char *src, int flags, char **cause)
{
	struct pattern		*pt;
	pcre2_compile_context	*ccx = NULL;
	PCRE2_UCHAR		 msg[256];
	PCRE2_SIZE		 off;
	size_t			 size;
	char			*pcre = NULL;
	int			 error;

	if ((pt = calloc(1, sizeof *pt)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if ((pcre = pattern_translate(src, cause)) == NULL)
		goto fail;
	if ((pt->gcx = pcre2_general_context_create(pattern_malloc,
	    pattern_mfree, &pt->mem)) == NULL ||
	    (ccx = pcre2_compile_context_create(pt->gcx)) == NULL)
		goto oom;
	pcre2_set_max_pattern_length(ccx, 4 * PATTERN_MAX_LEN);
	pcre2_set_parens_nest_limit(ccx, PATTERN_MAX_NEST);
	/*
	 * POSIX's "." matches a newline and its "$" only the very end; no
	 * pattern may turn on UTF (names need not be valid UTF-8) or \C.
	 */
	pt->code = pcre2_compile((PCRE2_SPTR)pcre, PCRE2_ZERO_TERMINATED,
	    PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_UTF |
	    PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C |
	    (flags & PATTERN_ICASE ? PCRE2_CASELESS : 0), &error, &off, ccx);
	pcre2_compile_context_free(ccx);
	ccx = NULL;
	if (pt->code == NULL) {
		if (error == PCRE2_ERROR_HEAP_FAILED ||
		    error == PCRE2_ERROR_PATTERN_TOO_LARGE ||
		    error == PCRE2_ERROR_PATTERN_TOO_COMPLICATED) {
			cause_set(cause, "regex too large");
			goto fail;
		}
		if (pcre2_get_error_message(error, msg, sizeof msg) < 0)
			strcpy((char *)msg, "unknown error");
		cause_set(cause, "bad regex: %s", (char *)msg);
		goto fail;
	}
	if (pcre2_pattern_info(pt->code, PCRE2_INFO_SIZE, &size) != 0 ||
	    size > PATTERN_MAX_CODE) {
		cause_set(cause, "regex too large (over %d bytes compiled)",
		    PATTERN_MAX_CODE);
		goto fail;
	}
	if ((pt->mcx = pcre2_match_context_create(pt->gcx)) == NULL ||
	    (pt->md = pcre2_match_data_create(1, pt->gcx)) == NULL)
		goto oom;
	pcre2_set_depth_limit(pt->mcx, PATTERN_DEPTH_LIMIT);
	pcre2_set_heap_limit(pt->mcx, PATTERN_HEAP_LIMIT);
	free(pcre);
	return (pt);

oom:
	cause_set(cause, "out of memory");
fail:
	free(pcre);
	pattern_free(pt);
	return (NULL);
}

/* Free a pattern. */
void
pattern_free(struct pattern *pt)
{
	if (pt == NULL)
		return;
	pcre2_match_data_free(pt->md);
	pcre2_match_context_free(pt->mcx);
	pcre2_code_free(pt->code);
	pcre2_general_context_free(pt->gcx);
	free(pt);
}

/*
 * The step limit for a name of len bytes. PCRE2 counts steps afresh at
 * each start position it tries, so its limit alone lets one match of
 * a long name take len times as long: "(a+)+$b" on a name of 155,000
 * bytes with "b" in it ran half a minute under the fuzzer. The limit
 * per start is therefore PATTERN_MATCH_TOTAL shared among the starts,
 * at most PATTERN_MATCH_LIMIT and at least PATTERN_MATCH_FLOOR.
 */
static uint32_t
pattern_limit(size_t len)
{
	size_t	 n = PATTERN_MATCH_TOTAL / (len + 1);

	if (n > PATTERN_MATCH_LIMIT)
		n = PATTERN_MATCH_LIMIT;
	if (n < PATTERN_MATCH_FLOOR)
		n = PATTERN_MATCH_FLOOR;
	return ((uint32_t)n);
}

/*
 * Does the pattern match s (len bytes)? 1 or 0; PATTERN_ERR_LIMIT or
 * PATTERN_ERR_BUDGET with *cause, both meaning the query is too
 * expensive. Each match is charged a unit and one more per 16 bytes of
 * s, and the budget's clock is read after every match: one match is
 * bounded by the limits, so the query stops within one match of its
 * deadline however slow the pattern is on each name.
 */
int
pattern_match(struct pattern *pt, const char *s, size_t len,
    struct cost *c, char **cause)
{
	uint32_t	 limit = pattern_limit(len);
	int		 r;

	pcre2_set_match_limit(pt->mcx, limit);
	r = pcre2_match(pt->code, (PCRE2_SPTR)s, len, 0, 0, pt->md,
	    pt->mcx);
	if (cost_charge_now(c, 1 + len / 16) == -1) {
		cause_set(cause, "budget spent");
		return (PATTERN_ERR_BUDGET);
	}
	if (r >= 0)
		return (1);
	switch (r) {
	case PCRE2_ERROR_NOMATCH:
		return (0);
	case PCRE2_ERROR_MATCHLIMIT:
		cause_set(cause, "regex needs over %u steps from one start "
		    "in a %zu-byte name", limit, len);
		break;
	case PCRE2_ERROR_DEPTHLIMIT:
		cause_set(cause, "regex backtracks deeper than %d in a "
		    "%zu-byte name", PATTERN_DEPTH_LIMIT, len);
		break;
	case PCRE2_ERROR_HEAPLIMIT:
	case PCRE2_ERROR_NOMEMORY:
		cause_set(cause, "regex needs over %d KiB in a %zu-byte name",
		    PATTERN_HEAP_LIMIT, len);
		break;
	default:
		cause_set(cause, "regex match failed (PCRE2 error %d)", r);
		break;
	}
	return (PATTERN_ERR_LIMIT);
}

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
#include "clickhouse.h"
#include "outbuf.h"
#include "selector.h"

/*
 * Label selectors (see selector.h). The grammar, PromQL's:
 *
 *	selector = [ "{" ] [ matcher { "," matcher } [ "," ] ] [ "}" ]
 *	matcher  = key ( "=" | "!=" | "=~" | "!~" ) value
 *	key      = 1*( ALPHA / DIGIT / "_" / "." / "-" )
 *	value    = '"' ... '"' | "'" ... "'" | "`" raw "`"
 *
 * with the escapes \\ \" \' \n \r \t in quoted values. An empty value
 * of = or != stands for an absent label, and a regex matches the whole
 * value, as Prometheus does; a regex that matches the empty string also
 * matches an absent label.
 */

#define SELECTOR_SPACE	" \t\r\n"
#define SELECTOR_KEY	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
			"0123456789_.-"
#define SELECTOR_MAX_REPEAT 1000	/* RE2's limit on {n,m} */

static int	 selector_value(const char **, char **, char **);
static int	 selector_regex_check(const char *, char **);
static void	 selector_has(const struct selector_matcher *, const char *,
		     struct outbuf *);
static void	 selector_match(const struct selector_matcher *, const char *,
		     struct outbuf *);

/* Is s (len bytes) a label key as deepq ingest takes them? */
int
selector_key_ok(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0 || len > SELECTOR_MAX_KEY)
		return (0);
	for (i = 0; i < len; i++) {
		if (s[i] == '\0' || strchr(SELECTOR_KEY, s[i]) == NULL)
			return (0);
	}
	return (1);
}

void
selector_free(struct selector *sel)
{
	size_t	 i;

	if (sel == NULL)
		return;
	for (i = 0; i < sel->n; i++) {
		free(sel->m[i].key);
		free(sel->m[i].value);
	}
	free(sel->m);
	free(sel);
}

/*
 * Refuse what RE2 does not take (its syntax page: backreferences,
 * lookaround, atomic and possessive forms, recursion, conditionals,
 * callouts, \X \R \K \G \Z and the like, counts over 1000), then let
 * PCRE2 check the rest (balance, classes, escapes) with its nesting
 * bounded. Both bounded by the length.
 */
static int
selector_regex_check(const char *re, char **cause)
{
	static const char	 esc[] = "AbBdDsSwWpPQEfnrtvxaz0";
	pcre2_compile_context	*ccx;
	pcre2_code		*code;
	PCRE2_UCHAR		 msg[160];
	PCRE2_SIZE		 off;
	size_t			 len = strlen(re), i;
	char			*end;
	unsigned long		 count;
	int			 error, inclass = 0;

	if (len > SELECTOR_MAX_REGEX) {
		cause_set(cause, "a regex of more than %d bytes",
		    SELECTOR_MAX_REGEX);
		return (-1);
	}
	for (i = 0; i < len; i++) {
		if (re[i] == '\\') {
			if (++i == len)
				break;
			if ((unsigned char)re[i] < 0x80 &&
			    ((re[i] >= 'a' && re[i] <= 'z') ||
			    (re[i] >= 'A' && re[i] <= 'Z') ||
			    (re[i] >= '0' && re[i] <= '9')) &&
			    strchr(esc, re[i]) == NULL) {
				cause_set(cause, "regex: \\%c is not taken by "
				    "ClickHouse (RE2)", re[i]);
				return (-1);
			}
			continue;
		}
		if (inclass) {
			if (re[i] == ']')
				inclass = 0;
			continue;
		}
		if (re[i] == '[') {
			inclass = 1;
			/* "[]" and "[^]" start with a literal ]. */
			if (re[i + 1] == '^')
				i++;
			if (re[i + 1] == ']')
				i++;
			continue;
		}
		if (re[i] == '(' && re[i + 1] == '?') {
			if (strchr("=!<>|(R&#C0123456789+-", re[i + 2]) !=
			    NULL || strncmp(re + i + 2, "P>", 2) == 0 ||
			    strncmp(re + i + 2, "P=", 2) == 0) {
				cause_set(cause, "regex: (?%c is not taken by "
				    "ClickHouse (RE2)", re[i + 2]);
				return (-1);
			}
			continue;
		}
		if (strchr("*+?}", re[i]) != NULL && re[i + 1] == '+') {
			cause_set(cause, "regex: possessive %c+ is not taken "
			    "by ClickHouse (RE2)", re[i]);
			return (-1);
		}
		if (re[i] == '{' && re[i + 1] >= '0' && re[i + 1] <= '9') {
			count = strtoul(re + i + 1, &end, 10);
			if (*end == ',' && end[1] >= '0' && end[1] <= '9' &&
			    count <= SELECTOR_MAX_REPEAT)
				count = strtoul(end + 1, &end, 10);
			if (count > SELECTOR_MAX_REPEAT) {
				cause_set(cause, "regex: a count over %d",
				    SELECTOR_MAX_REPEAT);
				return (-1);
			}
		}
	}
	if ((ccx = pcre2_compile_context_create(NULL)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	pcre2_set_parens_nest_limit(ccx, 32);
	code = pcre2_compile((PCRE2_SPTR)re, len, PCRE2_NEVER_UTF |
	    PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C, &error, &off, ccx);
	pcre2_compile_context_free(ccx);
	if (code == NULL) {
		if (pcre2_get_error_message(error, msg, sizeof msg) < 0)
			strcpy((char *)msg, "unknown error");
		cause_set(cause, "regex: %s at byte %zu", (char *)msg,
		    (size_t)off);
		return (-1);
	}
	pcre2_code_free(code);
	return (0);
}

/* Add a matcher; a regex is checked first. */
int
selector_add(struct selector *sel, const char *key, enum selector_op op,
    const char *value, char **cause)
{
	struct selector_matcher	*m;

	if (!selector_key_ok(key, strlen(key))) {
		cause_set(cause, "a label key is letters, digits, _ . -, at "
		    "most %d", SELECTOR_MAX_KEY);
		return (-1);
	}
	if (strlen(value) > SELECTOR_MAX_VALUE) {
		cause_set(cause, "%s: a value of more than %d bytes", key,
		    SELECTOR_MAX_VALUE);
		return (-1);
	}
	if ((op == SELECTOR_RE || op == SELECTOR_NRE) &&
	    selector_regex_check(value, cause) == -1)
		return (-1);
	if (sel->n == SELECTOR_MAX_MATCHERS) {
		cause_set(cause, "more than %d matchers",
		    SELECTOR_MAX_MATCHERS);
		return (-1);
	}
	if ((m = reallocarray(sel->m, sel->n + 1, sizeof *m)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	sel->m = m;
	m += sel->n;
	m->op = op;
	m->key = strdup(key);
	m->value = strdup(value);
	if (m->key == NULL || m->value == NULL) {
		free(m->key);
		free(m->value);
		cause_set(cause, "out of memory");
		return (-1);
	}
	sel->n++;
	return (0);
}

/* A quoted value at *pp: the bytes in *out (allocated), *pp past it. */
static int
selector_value(const char **pp, char **out, char **cause)
{
	const char	*p = *pp;
	char		 q = *p, *o;

	if (q != '"' && q != '\'' && q != '`') {
		cause_set(cause, "a value in quotes expected");
		return (-1);
	}
	if ((*out = o = malloc(strlen(p))) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	for (p++; *p != q; p++) {
		if (*p == '\0') {
			cause_set(cause, "a value without its closing %c", q);
			goto fail;
		}
		if (*p != '\\' || q == '`') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case '\\': case '"': case '\'':
			*o++ = *p;
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		default:
			cause_set(cause, "unknown escape \\%c in a value (use "
			    "\\\\ or `raw`)", *p ? *p : '0');
			goto fail;
		}
	}
	*o = '\0';
	*pp = p + 1;
	return (0);
fail:
	free(*out);
	*out = NULL;
	return (-1);
}

/* Parse a selector; NULL with *cause naming the byte where it failed. */
struct selector *
selector_parse(const char *s, char **cause)
{
	struct selector		*sel;
	const char		*p = s;
	char			 key[SELECTOR_MAX_KEY + 1], *value = NULL;
	char			*why = NULL;
	enum selector_op	 op;
	size_t			 klen;
	int			 brace;

	if (strlen(s) > SELECTOR_MAX_LEN) {
		cause_set(cause, "select: more than %d bytes",
		    SELECTOR_MAX_LEN);
		return (NULL);
	}
	if ((sel = calloc(1, sizeof *sel)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	p += strspn(p, SELECTOR_SPACE);
	if ((brace = *p == '{'))
		p++;
	for (;;) {
		p += strspn(p, SELECTOR_SPACE);
		if ((brace && *p == '}') || (!brace && *p == '\0'))
			break;
		klen = strspn(p, SELECTOR_KEY);
		if (klen == 0 || klen > SELECTOR_MAX_KEY) {
			why = strdup("a label key expected");
			goto fail;
		}
		memcpy(key, p, klen);
		key[klen] = '\0';
		p += klen + strspn(p + klen, SELECTOR_SPACE);
		if (p[0] == '=' && p[1] == '~')
			op = SELECTOR_RE;
		else if (p[0] == '!' && p[1] == '~')
			op = SELECTOR_NRE;
		else if (p[0] == '!' && p[1] == '=')
			op = SELECTOR_NE;
		else if (p[0] == '=')
			op = SELECTOR_EQ;
		else {
			why = strdup("=, !=, =~ or !~ expected");
			goto fail;
		}
		p += op == SELECTOR_EQ ? 1 : 2;
		p += strspn(p, SELECTOR_SPACE);
		if (selector_value(&p, &value, &why) == -1 ||
		    selector_add(sel, key, op, value, &why) == -1)
			goto fail;
		free(value);
		value = NULL;
		p += strspn(p, SELECTOR_SPACE);
		if (*p == ',')
			p++;
		else if ((brace && *p != '}') || (!brace && *p != '\0')) {
			why = strdup(brace ? ", or } expected" :
			    ", expected");
			goto fail;
		}
	}
	if (brace)
		p++;
	p += strspn(p, SELECTOR_SPACE);
	if (*p != '\0') {
		why = strdup("nothing may follow }");
		goto fail;
	}
	return (sel);
fail:
	cause_set(cause, "select: byte %zu: %s", (size_t)(p - s) + 1,
	    why ? why : "out of memory");
	free(why);
	free(value);
	selector_free(sel);
	return (NULL);
}

/* "has the label key=value", or for an empty value "has it or none". */
static void
selector_has(const struct selector_matcher *m, const char *col,
    struct outbuf *ob)
{
	size_t	 klen = strlen(m->key), vlen = strlen(m->value);
	char	*kv;

	if ((kv = malloc(klen + vlen + 2)) == NULL) {
		outbuf_fail(ob);
		return;
	}
	memcpy(kv, m->key, klen);
	kv[klen] = '=';
	memcpy(kv + klen + 1, m->value, vlen + 1);
	outbuf_printf(ob, "has(%s, ", col);
	clickhouse_quote(ob, kv, klen + vlen + 1);
	outbuf_putc(ob, ')');
	if (vlen == 0) {
		outbuf_printf(ob, " OR NOT arrayExists(l -> position(l, ");
		clickhouse_quote(ob, kv, klen + 1);
		outbuf_printf(ob, ") = 1, %s)", col);
	}
	free(kv);
}

/*
 * "some label key=value with value matching the whole regex", or the
 * label absent when the regex matches the empty string (ClickHouse
 * tells that from the constant match('', ...)).
 */
static void
selector_match(const struct selector_matcher *m, const char *col,
    struct outbuf *ob)
{
	struct outbuf	 re;
	const char	*k;
	char		*s;
	size_t		 len;

	outbuf_init(&re);
	outbuf_putc(&re, '^');
	for (k = m->key; *k != '\0'; k++) {
		if (*k == '.')
			outbuf_putc(&re, '\\');
		outbuf_putc(&re, *k);
	}
	outbuf_printf(&re, "=(?:%s)$", m->value);
	if ((s = outbuf_take(&re, &len)) == NULL) {
		outbuf_fail(ob);
		return;
	}
	outbuf_printf(ob, "arrayExists(l -> match(l, ");
	clickhouse_quote(ob, s, len);
	outbuf_printf(ob, "), %s) OR (match('', ", col);
	free(s);
	outbuf_init(&re);
	outbuf_printf(&re, "^(?:%s)$", m->value);
	if ((s = outbuf_take(&re, &len)) == NULL) {
		outbuf_fail(ob);
		return;
	}
	clickhouse_quote(ob, s, len);
	free(s);
	outbuf_printf(ob, ") AND NOT arrayExists(l -> position(l, ");
	outbuf_init(&re);
	outbuf_printf(&re, "%s=", m->key);
	if ((s = outbuf_take(&re, &len)) == NULL) {
		outbuf_fail(ob);
		return;
	}
	clickhouse_quote(ob, s, len);
	free(s);
	outbuf_printf(ob, ") = 1, %s))", col);
}

/*
 * The condition on col (a constant name of ours, an Array(String) of
 * "key=value") that the selector stands for: "1" when it is empty.
 */
void
selector_sql(const struct selector *sel, const char *col, struct outbuf *ob)
{
	const struct selector_matcher	*m;
	size_t				 i;

	if (sel == NULL || sel->n == 0) {
		outbuf_putc(ob, '1');
		return;
	}
	outbuf_putc(ob, '(');
	for (i = 0; i < sel->n; i++) {
		m = &sel->m[i];
		if (i > 0)
			outbuf_puts(ob, " AND ");
		if (m->op == SELECTOR_NE || m->op == SELECTOR_NRE)
			outbuf_puts(ob, "NOT ");
		outbuf_putc(ob, '(');
		if (m->op == SELECTOR_EQ || m->op == SELECTOR_NE)
			selector_has(m, col, ob);
		else
			selector_match(m, col, ob);
		outbuf_putc(ob, ')');
	}
	outbuf_putc(ob, ')');
}

/* The selector as text that selector_parse reads back the same. */
void
selector_format(const struct selector *sel, struct outbuf *ob)
{
	static const char *const ops[] = { "=", "!=", "=~", "!~" };
	const char		*v;
	size_t			 i;

	outbuf_putc(ob, '{');
	for (i = 0; sel != NULL && i < sel->n; i++) {
		outbuf_printf(ob, "%s%s%s\"", i ? "," : "", sel->m[i].key,
		    ops[sel->m[i].op]);
		for (v = sel->m[i].value; *v != '\0'; v++) {
			if (*v == '"' || *v == '\\')
				outbuf_putc(ob, '\\');
			if (*v == '\n')
				outbuf_puts(ob, "\\n");
			else if (*v == '\r')
				outbuf_puts(ob, "\\r");
			else if (*v == '\t')
				outbuf_puts(ob, "\\t");
			else
				outbuf_putc(ob, *v);
		}
		outbuf_putc(ob, '"');
	}
	outbuf_putc(ob, '}');
}

/*
 * Label selectors (engine/selector.c): what parses and what is refused
 * (with the byte where), the SQL each matcher becomes (every value a
 * quoted literal, every regex anchored and checked), hostile values in
 * every position of a matcher, and the text a selector formats to,
 * which parses back the same.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "selector.h"
#include "tap.h"

/* The SQL of s, or "refused: CAUSE". Caller frees. */
static char *
sql(const char *s)
{
	struct selector	*sel;
	struct outbuf	 ob;
	char		*cause = NULL, *r;
	size_t		 n;

	outbuf_init(&ob);
	if ((sel = selector_parse(s, &cause)) == NULL) {
		outbuf_printf(&ob, "refused: %s", cause ? cause : "?");
		free(cause);
	} else
		selector_sql(sel, "labels", &ob);
	selector_free(sel);
	r = outbuf_take(&ob, &n);
	return (r);
}

/* The text s formats to, parsed again and formatted: the same? */
static int
roundtrip(const char *s, char **out)
{
	struct selector	*a, *b;
	struct outbuf	 ob;
	char		*x, *y;
	size_t		 n;
	int		 r;

	*out = NULL;
	if ((a = selector_parse(s, NULL)) == NULL)
		return (0);
	outbuf_init(&ob);
	selector_format(a, &ob);
	x = outbuf_take(&ob, &n);
	b = selector_parse(x, NULL);
	selector_format(b, &ob);
	y = outbuf_take(&ob, &n);
	r = x != NULL && y != NULL && strcmp(x, y) == 0 && b != NULL &&
	    a->n == b->n;
	selector_free(a);
	selector_free(b);
	free(y);
	*out = x;
	return (r);
}

/* Is every quote of sql inside a closed literal (backslash escapes)? */
static int
closed(const char *s)
{
	int	 in = 0;

	for (; *s != '\0'; s++) {
		if (!in) {
			in = *s == '\'';
			continue;
		}
		if (*s == '\\')
			s++;
		else if (*s == '\'')
			in = 0;
	}
	return (!in);
}

int
main(void)
{
	static const char *const refused[] = {
		"{service'--=\"a\"}", "{\"x\"=\"a\"}", "{a b=\"c\"}",
		"{a==\"b\"}", "{a~=\"b\"}", "{a;=\"b\"}", "{a=\"b\"};DROP",
		"{a=\"b\" OR 1=1}", "a=\"b\"}", "{a=\"b\"", "{a=b}",
		"{a=\"b}", "{a=\"\\x27\"}", "{a=~\"(\"}", "{a=~\"(?=x)\"}",
		"{a=~\"(?!x)\"}", "{a=~\"(?<=x)y\"}", "{a=~\"(?>x)\"}",
		"{a=~\"x++\"}", "{a=~\"a{1001}\"}", "{a=~\"a{2,5000}\"}",
		"{a=~\"\\\\1\"}", "{a=~\"(a)\\\\1\"}", "{a=~\"\\\\K\"}",
		"{a=~\"')); DROP TABLE prof; --\"}", "{=\"a\"}",
	};
	static const char *const hostile[] = {
		"{a=\"x' OR 1=1 --\"}", "{a!=\"\\\\'); DROP TABLE t; --\"}",
		"{a=~\".*' OR '1'='1\"}", "{a!~\"\\\\\\\\'\"}",
		"{a=`'; --`}", "{a='\\'\\\"'}", "{a=\"\\n\\r\\t\"}",
		"{a.b-c_9=\"\xff\xfe\x01\"}",
	};
	char		*s, *f, big[5000];
	size_t		 i;
	int		 bad;

	s = sql("{service=\"api\"}");
	is_str(s, "((has(labels, 'service=api')))", "= is has()");
	free(s);
	s = sql("service!=\"api\"");
	is_str(s, "(NOT (has(labels, 'service=api')))", "!= without braces");
	free(s);
	s = sql("{zone=\"\"}");
	is_str(s, "((has(labels, 'zone=') OR NOT arrayExists(l -> "
	    "position(l, 'zone=') = 1, labels)))",
	    "an empty value also matches an absent label");
	free(s);
	s = sql("{region=~\"eu-.*\"}");
	is_str(s, "((arrayExists(l -> match(l, '^region=(?:eu-.*)$'), "
	    "labels) OR (match('', '^(?:eu-.*)$') AND NOT arrayExists(l -> "
	    "position(l, 'region=') = 1, labels))))",
	    "=~ matches the whole value, or an absent label if it matches ''");
	free(s);
	s = sql("{a.b=~\"x\"}");
	ok(strstr(s, "'^a\\\\.b=(?:x)$'") != NULL,
	    "a dot of a key is escaped in the regex: %s", s);
	free(s);
	s = sql("{host!~\"db[0-9]+\", service=\"api\",}");
	ok(strncmp(s, "(NOT (arrayExists", 17) == 0 &&
	    strstr(s, " AND (has(labels, 'service=api'))") != NULL,
	    "!~ and a trailing comma: %s", s);
	free(s);
	s = sql("{}");
	is_str(s, "1", "an empty selector selects all");
	free(s);
	s = sql("  ");
	is_str(s, "1", "so does nothing");
	free(s);
	s = sql("{a=\"it's\"}");
	is_str(s, "((has(labels, 'a=it\\'s')))", "a quote in a value");
	free(s);

	bad = 0;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		s = sql(refused[i]);
		if (strncmp(s, "refused: select: byte ", 22) != 0) {
			diag("%s: %s", refused[i], s);
			bad++;
		}
		free(s);
	}
	is_int(bad, 0, "%zu bad selectors refused, naming the byte",
	    sizeof refused / sizeof refused[0]);
	bad = 0;
	for (i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		s = sql(hostile[i]);
		if (strncmp(s, "refused", 7) == 0 || !closed(s) ||
		    strchr(s, '\n') != NULL || !roundtrip(hostile[i], &f)) {
			diag("%s: %s", hostile[i], s);
			bad++;
		} else
			free(f);
		free(s);
	}
	is_int(bad, 0, "%zu hostile values stay inside their literals and "
	    "format back", sizeof hostile / sizeof hostile[0]);
	ok(roundtrip(" { a = \"1\" , b !~ `x\\d` } ", &f) &&
	    strcmp(f, "{a=\"1\",b!~\"x\\\\d\"}") == 0, "format: %s", f);
	free(f);
	memset(big, 'a', sizeof big);
	memcpy(big, "{a=~\"", 5);
	memcpy(big + 300, "\"}", 3);
	s = sql(big);
	ok(strstr(s, "more than 256 bytes") != NULL, "a long regex: %s", s);
	free(s);
	memset(big, 'a', sizeof big);
	big[sizeof big - 1] = '\0';
	s = sql(big);
	ok(strstr(s, "more than 4096 bytes") != NULL, "a long selector");
	free(s);
	return (tap_done());
}

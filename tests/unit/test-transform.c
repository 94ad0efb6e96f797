/*
 * The notation of the transforms (transform.c): a query's filters and
 * t= parsed into a stack, filters first; the errors of a malformed
 * stack; items, the t= prefixes the breadcrumbs link to, labels and the
 * JSON printed back.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile.h"
#include "query.h"
#include "tap.h"
#include "transform.h"
#include "transform-test.h"

/* A=1, B=2, C=3, D=4, E=5, F=6, G=7, H=8; main=9 is in module libc. */
#define FIREFOX	"A;B;C;D;E 1\nA;B;C;F;G 1\nA;B;H;F 1\nlibc`main 1\n"

#define JSON_WANT	"[{\"kind\":\"hide\",\"key\":\"hide\",\"item\":null," \
	"\"label\":\"hide=^C$\"},{\"kind\":\"prune\",\"key\":\"min_ticks\"," \
	"\"item\":null,\"label\":\"min_ticks=2 min_words=3\"}," \
	"{\"kind\":\"merge-call-node\",\"key\":\"t\",\"item\":\"mcn-1,2\"," \
	"\"label\":\"Merge node: B\"},{\"kind\":\"invert\",\"key\":\"t\"," \
	"\"item\":\"inv\",\"label\":\"Inverted\"}]"

static void
test_parse(void)
{
	struct transform_stack	*s;
	int			 st;

	s = tt_stack("hide=^C$&min_ticks=2&exclude=D&focus=x&"
	    "t=1~mcn-1,2,3~rec~drec-4~inv", &st, 0);
	ok(s != NULL, "filters and t= parse");
	if (s == NULL)
		return;
	is_int(s->n, 8, "eight entries");
	is_int(s->nfilters, 4, "four filters, first");
	ok(s->v[0].kind == TRANSFORM_FOCUS_RE && s->v[1].kind ==
	    TRANSFORM_HIDE_RE && s->v[2].kind == TRANSFORM_PRUNE &&
	    s->v[3].kind == TRANSFORM_EXCLUDE,
	    "filters in the order they apply: regexes, prune, exclude");
	ok(s->v[0].re != NULL && strcmp(s->v[0].arg, "x") == 0,
	    "a regex filter keeps its source, compiled");
	is_int(s->v[2].min_ticks, 2, "prune keeps min_ticks");
	ok(s->v[4].kind == TRANSFORM_MERGE_CALL_NODE && s->v[4].npath == 3 &&
	    s->v[4].path[2] == 3, "mcn-1,2,3: a path");
	ok(s->v[5].kind == TRANSFORM_COLLAPSE_REC &&
	    s->v[5].func == PROFILE_NONE, "rec: every function");
	ok(s->v[6].kind == TRANSFORM_COLLAPSE_DIRECT_REC &&
	    s->v[6].func == 4, "drec-4: one function");
	ok(s->v[7].kind == TRANSFORM_INVERT, "inv");
	transform_stack_free(s);

	s = tt_stack("t=", &st, 0);
	ok(s != NULL && s->n == 0, "an empty t= is an empty stack");
	transform_stack_free(s);
}

static void
test_errors(void)
{
	static const struct {
		const char	*qs;
		int		 status;
		const char	*what;
	} bad[] = {
		{ "focus=a(", 400, "a bad regex" },
		{ "focus=(a)\\1", 400, "a back reference" },
		{ "t=mcn-1", 400, "t= without a version" },
		{ "t=2~inv", 400, "an unknown version" },
		{ "t=1~zz-1", 400, "an unknown transform" },
		{ "t=1~mf", 400, "a missing function" },
		{ "t=1~mf-x", 400, "a function that is no number" },
		{ "t=1~mf-4294967295", 400, "a function id beyond 32 bits" },
		{ "t=1~mf-0", 400, "the root function" },
		{ "t=1~fs-1,,2", 400, "an empty path element" },
		{ "t=1~fs", 400, "a missing path" },
		{ "t=1~inv-3", 400, "an argument to inv" },
	};
	struct transform_stack	*s;
	char			 qs[512];
	size_t			 i, len;
	int			 st;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		s = tt_stack(bad[i].qs, &st, 1);
		ok(s == NULL && st == bad[i].status, "%s is a %d", bad[i].what,
		    bad[i].status);
		transform_stack_free(s);
	}
	/* TRANSFORM_MAX entries at most, filters and t= together. */
	len = (size_t)snprintf(qs, sizeof qs, "hide=x&t=1");
	for (i = 1; i < TRANSFORM_MAX; i++)
		len += (size_t)snprintf(qs + len, sizeof qs - len, "~inv");
	s = tt_stack(qs, &st, 0);
	ok(s != NULL && s->n == TRANSFORM_MAX, "%d entries parse",
	    TRANSFORM_MAX);
	transform_stack_free(s);
	snprintf(qs + len, sizeof qs - len, "~inv");
	s = tt_stack(qs, &st, 1);
	ok(s == NULL && st == 400, "one more is a 400");
	transform_stack_free(s);
}

/* The stack as every answer under transforms carries it. */
static void
test_json(const struct profile *p, const struct transform_stack *s)
{
	json_t	*j;
	char	*str;

	j = transform_json(p, s);
	str = j ? json_dumps(j, JSON_COMPACT) : NULL;
	is_str(str, JSON_WANT, "the stack as JSON");
	free(str);
	json_decref(j);
}

static void
test_print(void)
{
	static const char *const items[] = { "fs-1,2,3", "ff-3", "mcn-1",
	    "ms-1,2", "mf-6", "df-3", "cfs-3", "drec", "drec-4", "rec",
	    "rec-7", "cm-9", "inv" };
	static const struct {
		const char	*item;
		const char	*label;
	} labels[] = {
		{ "fs-1,2,3", "Focus on subtree: C" },
		{ "ff-3", "Focus on function: C" },
		{ "mcn-1,2", "Merge node: B" },
		{ "ms-1,2", "Merge subtree: B" },
		{ "mf-6", "Merge function: F" },
		{ "df-3", "Drop samples with: C" },
		{ "cfs-3", "Collapse: C" },
		{ "drec", "Collapse direct recursion: all functions" },
		{ "drec-4", "Collapse direct recursion: D" },
		{ "rec", "Collapse recursion: all functions" },
		{ "rec-7", "Collapse recursion: G" },
		{ "cm-9", "Collapse module: libc" },
		{ "inv", "Inverted" },
		{ "mf-99", "Merge function: #99" },
	};
	struct transform	 t;
	struct transform_stack	*s;
	struct profile		*p;
	char			*cause = NULL, *str;
	size_t			 i;
	int			 st;

	for (i = 0; i < sizeof items / sizeof items[0]; i++) {
		ok(transform_parse_item(items[i], &t, &cause) == 0,
		    "item %s parses", items[i]);
		str = transform_item(&t);
		is_str(str, items[i], "item %s formats back", items[i]);
		free(str);
		ok(strcmp(transform_kind_key(t.kind), items[i]) == 0 ||
		    strncmp(items[i], transform_kind_key(t.kind),
		    strlen(transform_kind_key(t.kind))) == 0,
		    "item %s: its kind's key", items[i]);
		transform_clear(&t);
	}

	if ((p = tt_load(FIREFOX)) == NULL)
		return;
	for (i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		transform_parse_item(labels[i].item, &t, &cause);
		str = transform_label(p, &t);
		is_str(str, labels[i].label, "label of %s", labels[i].item);
		free(str);
		transform_clear(&t);
	}

	if ((s = tt_stack("hide=^C$&min_ticks=2&min_words=3&t=1~mcn-1,2~inv",
	    &st, 0)) != NULL) {
		str = transform_item(&s->v[0]);
		ok(str == NULL, "a filter has no t= item");
		str = transform_label(p, &s->v[0]);
		is_str(str, "hide=^C$", "a filter's label is its key=value");
		free(str);
		str = transform_label(p, &s->v[1]);
		is_str(str, "min_ticks=2 min_words=3", "the prune label");
		free(str);
		str = transform_stack_format(s, 0);
		is_str(str, "1", "no t= item: the version alone");
		free(str);
		str = transform_stack_format(s, 1);
		is_str(str, "1~mcn-1,2", "the first t= item");
		free(str);
		str = transform_stack_format(s, 9);
		is_str(str, "1~mcn-1,2~inv", "past the end: the whole t=");
		free(str);
		test_json(p, s);
		transform_stack_free(s);
	}
	is_str(transform_kind_name(TRANSFORM_MERGE_CALL_NODE),
	    "merge-call-node", "a kind's name");
	ok(transform_kind_key(TRANSFORM_HIDE_RE) == NULL &&
	    transform_kind_arg(TRANSFORM_HIDE_RE) == TRANSFORM_ARG_FILTER &&
	    transform_kind_query_key(TRANSFORM_HIDE_RE) == QUERY_HIDE,
	    "a filter: no t= key, its own query key");
	profile_free(p);
}

int
main(void)
{
	test_parse();
	test_errors();
	test_print();
	return (tap_done());
}

/*
 * Query parsing and the canonical query string: errors for bad input,
 * and query -> string -> query being the identity over generated queries.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "tap.h"

static void
bad(const char *qs, int want_status, const char *what)
{
	struct query	*q;
	char		*cause = NULL;
	int		 status = 0;

	q = query_parse(qs, &status, &cause);
	ok(q == NULL && cause != NULL && status == want_status, "%s", what);
	if (cause != NULL)
		diag("cause: %s", cause);
	query_free(q);
	free(cause);
}

static void
test_parse(void)
{
	struct query	*q;
	char		*cause = NULL, *s, *big;
	int		 status;

	q = query_parse("cmd=top&metric=samples&sort=self&limit=20&format=json",
	    &status, &cause);
	ok(q != NULL, "the example query parses");
	if (q != NULL) {
		ok(q->cmd == CMD_TOP, "cmd");
		is_int(q->limit, 20, "limit");
		is_int(q->depth, 3, "depth default");
		ok(q->cmd == CMD_TOP && q->sort == QUERY_SORT_SELF &&
		    q->format == FMT_JSON && q->limit == 20 &&
		    strcmp(q->metric, "samples") == 0 && q->pct == 1 &&
		    q->minwidth == 0.1 && *q->func == '\0',
		    "typed fields, given and default");
		s = query_format(q);
		is_str(s, "cmd=top&metric=samples&sort=self&limit=20&"
		    "format=json", "canonical string");
		free(s);
		query_free(q);
	}
	q = query_parse("file=a%20b%2Fc.prof&path=1,2,3&func=%3Cscript%3E",
	    &status, &cause);
	ok(q != NULL, "escapes and paths parse");
	if (q != NULL) {
		is_str(q->file, "a b/c.prof", "decoded file");
		is_int(q->npath, 3, "three path ids");
		is_int(q->path[2], 3, "path id");
		is_str(q->func, "<script>", "decoded func");
		query_free(q);
	}
	q = query_parse("", &status, &cause);
	ok(q != NULL && q->cmd == CMD_MENU,
	    "empty query is the menu");
	query_free(q);
	q = query_parse("cmd=top&&limit=5&", &status, &cause);
	ok(q != NULL, "empty pairs are skipped");
	query_free(q);

	bad("cmd=nope", 400, "unknown cmd");
	bad("bogus=1", 400, "unknown key");
	bad("limit=5&limit=6", 400, "duplicate key");
	bad("limit=-1", 400, "negative limit");
	bad("limit=0x10", 400, "hex limit");
	bad("limit=99999999999999999999999", 400, "overflowing limit");
	bad("min=1e3", 400, "exponent in a number");
	bad("min=nan", 400, "nan");
	bad("func=a%00b", 400, "NUL byte");
	bad("func=%zz", 400, "bad escape");
	bad("func=%4", 400, "short escape");
	bad("path=1,,2", 400, "empty path element");
	bad("path=1,2,", 400, "trailing comma in path");
	bad("path=-1", 400, "negative path id");
	bad("pct=2", 400, "bool out of range");
	if ((big = malloc(QUERY_MAX_LEN + 10)) != NULL) {
		memset(big, 'a', QUERY_MAX_LEN + 9);
		big[QUERY_MAX_LEN + 9] = '\0';
		memcpy(big, "func=", 5);
		bad(big, 414, "query too long");
		free(big);
	}
}

/* Random valid values for every key, formatted and parsed back. */
static void
test_roundtrip(void)
{
	static const char *strs[] = { "", "a", "a b", "x&y=z", "%", "+",
	    "<script>", "caf\xc3\xa9", "a/b:c,d", "~", "#", "1" };
	struct query		*q, *r;
	const struct query_keyinfo *ki;
	char			 v[64], *s, *cause = NULL;
	int			 i, k, status, good = 0, n = 2000;

	srandom(42);
	for (i = 0; i < n; i++) {
		q = query_create();
		for (k = 0; k < QUERY_NKEYS; k++) {
			if (random() % 3 != 0)
				continue;
			ki = query_keyinfo(k);
			switch (ki->type) {
			case QUERY_TYPE_STRING:
				snprintf(v, sizeof v, "%s", strs[random() %
				    (sizeof strs / sizeof strs[0])]);
				break;
			case QUERY_TYPE_ENUM: {
				char		*list;
				const char	*p, *bar;
				int		 pick = random() % 4;

				p = list = query_keyinfo_list(ki);
				while (pick-- > 0 && (bar = strchr(p, '|')))
					p = bar + 1;
				snprintf(v, sizeof v, "%.*s",
				    (int)strcspn(p, "|"), p);
				free(list);
				break;
			}
			case QUERY_TYPE_INT:
				snprintf(v, sizeof v, "%lld", (long long)
				    (ki->min + random() % 1000));
				break;
			case QUERY_TYPE_NUMBER:
				snprintf(v, sizeof v, "%ld.%ld", random() % 50,
				    random() % 100);
				break;
			case QUERY_TYPE_BOOL:
				snprintf(v, sizeof v, "%ld", random() % 2);
				break;
			case QUERY_TYPE_PATH:
				snprintf(v, sizeof v, "%ld,%ld", random() % 9,
				    random() % 99999);
				break;
			case QUERY_TYPE_RANGE:
				snprintf(v, sizeof v, "%ld.%ld,%ld.%ld",
				    random() % 50, random() % 1000,
				    50 + random() % 50, random() % 1000);
				break;
			}
			if (query_set(q, k, v, NULL) == -1)
				diag("cannot set %s=%s", ki->name, v);
		}
		s = query_format(q);
		r = query_parse(s, &status, &cause);
		if (r != NULL && query_equal(q, r))
			good++;
		else
			diag("round trip failed: %s (%s)", s, cause ? cause :
			    "differs");
		free(cause);
		cause = NULL;
		free(s);
		query_free(q);
		query_free(r);
	}
	is_int(good, n, "query -> string -> query is the identity (%d "
	    "generated queries)", n);
}

/* The keys added for the reports: close=, from=, and every default valid. */
static void
test_keys(void)
{
	struct query		*q;
	const struct query_keyinfo *ki;
	char			*cause = NULL, *s;
	int			 status, k, good = 0;

	q = query_parse("cmd=tree&open=1,2~1,3&close=1,2,4&from=100&"
	    "fields=samples,calls&units=seconds&avg=1&pct=0", &status, &cause);
	ok(q != NULL, "tree and preference keys parse");
	if (q != NULL) {
		is_str(q->close, "1,2,4", "close");
		is_int(q->from, 100, "from");
		is_str(q->fields, "samples,calls", "fields");
		s = query_format(q);
		is_str(s, "cmd=tree&from=100&open=1,2~1,3&close=1,2,4&"
		    "fields=samples,calls&units=seconds&pct=0&avg=1",
		    "canonical order keeps from by limit, close by open");
		free(s);
		query_free(q);
	}
	q = query_parse("from=0&pct=1&limit=50&units=raw", &status, &cause);
	s = q ? query_format(q) : NULL;
	is_str(s, "", "defaults are left out of the canonical string");
	free(s);
	query_free(q);
	bad("from=-1", 400, "negative from");
	bad("units=furlongs", 400, "unknown units");
	for (k = 0; k < QUERY_NKEYS; k++) {
		ki = query_keyinfo(k);
		q = query_create();
		s = query_key_text(q, k);
		if (ki->help != NULL && *ki->help != '\0' && s != NULL &&
		    query_set(q, k, s, NULL) == 0 && !query_key_isset(q, k))
			good++;
		else
			diag("key %s: bad default or no help", ki->name);
		free(s);
		query_free(q);
	}
	is_int(good, QUERY_NKEYS, "every key has help and a valid default");
}

/* Key k of view w out of its key's range: no link may be made of it. */
static void
spoil(struct query *w, int k)
{
	static char		 longs[20000];
	static const uint32_t	 ids[1];
	const struct query_keyinfo *ki = query_keyinfo(k);

	memset(longs, 'x', sizeof longs - 1);
	switch (ki->type) {
	case QUERY_TYPE_STRING:
		*(const char **)(void *)((char *)w + ki->offset) = longs;
		break;
	case QUERY_TYPE_ENUM:
		*(int *)(void *)((char *)w + ki->offset) = ki->nnames;
		break;
	case QUERY_TYPE_BOOL:
		*(int *)(void *)((char *)w + ki->offset) = 2;
		break;
	case QUERY_TYPE_INT:
		*(int64_t *)(void *)((char *)w + ki->offset) = ki->min - 1;
		break;
	case QUERY_TYPE_NUMBER:
		*(double *)(void *)((char *)w + ki->offset) = ki->max + 1;
		break;
	case QUERY_TYPE_PATH:
		w->path = ids;
		w->npath = QUERY_MAX_PATH + 1;
		break;
	case QUERY_TYPE_RANGE:
		((double *)(void *)((char *)w + ki->offset))[0] = 2;
		((double *)(void *)((char *)w + ki->offset))[1] = 1;
		break;
	}
}

/* range= and base_range=, a pair of numbers; thread=, a repeated key. */
static void
test_time(void)
{
	struct query	*q;
	char		*cause = NULL, *s;
	int		 status;

	q = query_parse("cmd=timeline&range=0.5,1.25&thread=main&"
	    "thread=a%20b&base_range=0,0.5", &status, &cause);
	ok(q != NULL, "range=, thread= twice, base_range= parse");
	if (q != NULL) {
		ok(q->cmd == CMD_TIMELINE, "cmd=timeline");
		ok(q->range[0] == 0.5 && q->range[1] == 1.25, "range's pair");
		ok(q->base_range[0] == 0 && q->base_range[1] == 0.5,
		    "base_range's pair");
		is_str(q->thread, "main\na b", "threads joined by newlines");
		s = query_format(q);
		is_str(s, "cmd=timeline&range=0.5,1.25&thread=main&"
		    "thread=a%20b&base_range=0,0.5",
		    "a pair written back, a repeated key as many pairs");
		free(s);
		query_free(q);
	}
	q = query_parse("cmd=heatmap", &status, &cause);
	ok(q != NULL && q->cmd == CMD_HEATMAP && !query_range_set(q->range) &&
	    *q->thread == '\0', "cmd=heatmap; no range, no thread");
	query_free(q);
	bad("range=2,1", 400, "range= A after B refused");
	bad("range=1,1", 400, "range= empty refused");
	bad("range=-1,2", 400, "range= negative refused");
	bad("range=1", 400, "range= one number refused");
	bad("range=1e3,2e3", 400, "range= exponent refused");
	bad("range=0,1&range=1,2", 400, "range= twice refused");
	bad("base_range=0,1,2", 400, "base_range= three numbers refused");
	bad("thread=a&thread=", 400, "thread= an empty repeat refused");
	bad("thread=&thread=a", 400, "thread= an empty first refused");
	bad("thread=a%0Ab&thread=c", 400, "thread= a newline in a repeat "
	    "refused");
	bad("thread=a%0A", 400, "thread= a newline in its only value");
}

/*
 * A template filled in is the link query_format() makes of the same
 * view, for every page query, edit, cut and value tried: present or
 * absent keys on either side, defaults, values to escape, and values out
 * of their key's range (NULL both).
 */
static void
test_tmpl(void)
{
	static const char *qs[] = { "", "cmd=tree", "file=a%20b&cmd=tree",
	    "cmd=tree&path=1,2&open=1~1,2&close=3&fields=all&pct=0",
	    "base=x&cmd=func&func=7&depth=5&budget=10&format=json",
	    "open=9&close=9", "format=text" };
	/* Edits of the page's view: these keys as in the query. */
	static const char *eds[] = { "", "cmd=func", "cmd=func&pct=0" };
	/* The fills: keys key .. key + n - 1 as in the query. */
	static const struct {
		int		 key, n;
		const char	*qs;
	} fills[] = {
		{ QUERY_FUNC, 1, "func=12" },
		{ QUERY_FUNC, 1, "" },
		{ QUERY_PATH, 1, "" },
		{ QUERY_PATH, 1, "path=1,2,3" },
		{ QUERY_DEPTH, 1, "depth=3" },
		{ QUERY_DEPTH, 1, "depth=4" },
		{ QUERY_OPEN, 2, "open=1~1,2" },
		{ QUERY_OPEN, 2, "close=4,5" },
		{ QUERY_OPEN, 2, "open=a%20b%26c&close=%C3%A9" },
		{ QUERY_OPEN, 2, "" },
		{ QUERY_FILE, 2, "file=f" },
		{ QUERY_CMD, 1, "cmd=top" },
		{ QUERY_FORMAT, 1, "format=json" },
		{ QUERY_FORMAT, 1, "format=html" },
		{ QUERY_MIN, 2, "min=0.5&depth=7" },
	};
	struct query_tmpl	 t;
	struct query		*q, *e, *f, v, w;
	size_t			 i, x, y;
	char			*want, *got, *cause = NULL;
	int			 k, status, same = 0, tries = 0, bad;

	for (i = 0; i < sizeof qs / sizeof qs[0]; i++)
	for (x = 0; x < sizeof eds / sizeof eds[0]; x++)
	for (y = 0; y < sizeof fills / sizeof fills[0] + 1; y++)
	for (bad = 0; bad < 2; bad++) {
		q = query_parse(qs[i], &status, &cause);
		e = query_parse(eds[x], &status, &cause);
		f = query_parse(y < sizeof fills / sizeof fills[0] ?
		    fills[y].qs : "", &status, &cause);
		if (q == NULL || e == NULL || f == NULL) {
			diag("%s: %s", qs[i], cause);
			free(cause);
			cause = NULL;
			goto next;
		}
		v = *q;
		for (k = 0; k < QUERY_NKEYS; k++) {
			if (query_key_isset(e, k))
				query_key_copy(&v, e, k);
		}
		if (x > 0)
			query_key_reset(&v, QUERY_OPEN);
		/* The last: a view the parser would refuse (depth=0). */
		if (y == sizeof fills / sizeof fills[0]) {
			w = v;
			w.depth = 0;
			ok(query_format(&w) == NULL &&
			    query_tmpl_init(&t, &w, QUERY_FUNC, 1) == -1,
			    "no link or template of a view the parser would "
			    "refuse");
			query_tmpl_clear(&t);
			goto next;
		}
		w = v;
		for (k = fills[y].key; k < fills[y].key + fills[y].n; k++)
			query_key_copy(&w, f, k);
		if (bad)
			spoil(&w, fills[y].key);
		want = query_format(&w);
		got = NULL;
		if (query_tmpl_init(&t, &v, fills[y].key, fills[y].n) == 0)
			got = query_tmpl_fill(&t, &w);
		query_tmpl_clear(&t);
		tries++;
		if ((want == NULL && got == NULL) || (want != NULL &&
		    got != NULL && strcmp(want, got) == 0))
			same++;
		else
			diag("%s, fill %zu, edit %zu: want %s, got %s",
			    qs[i], y, x, want ? want : "NULL",
			    got ? got : "NULL");
		free(want);
		free(got);
next:
		query_free(q);
		query_free(e);
		query_free(f);
	}
	is_int(same, tries, "templates fill in as query_format makes links");
	ok(tries == (int)(sizeof qs / sizeof qs[0] * sizeof eds /
	    sizeof eds[0] * 2 * (sizeof fills / sizeof fills[0])),
	    "every query parsed");
	query_init(&v);
	ok(query_tmpl_init(&t, &v, QUERY_NKEYS - 1, 2) == -1,
	    "a cut past the last key is refused");
	query_tmpl_clear(&t);
}

int
main(void)
{
	test_parse();
	test_tmpl();
	test_keys();
	test_roundtrip();
	test_time();
	return (tap_done());
}

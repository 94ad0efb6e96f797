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

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cause.h"
#include "outbuf.h"
#include "query.h"
#include "utf8.h"

/*
 * Query parsing, validation and the canonical query string.
 *
 * To add a key: its field in struct query (query.h), its enum
 * query_key in the order its links should show it, and its row here
 * (type, field, range, default, flags, help; an ENUM's names with
 * QUERY_NAMES and its enum in query.h, its default first). Then
 * `make regen-man'. Nothing else lists keys.
 */

#define QUERY_FIELD(f)	offsetof(struct query, f)
#define QUERY_NAMES(a)	.names = (a), .stride = sizeof (a)[0], \
			.nnames = (int)(sizeof (a) / sizeof (a)[0])
#define QUERY_NUM_MAX	1200	/* bytes of a NUMBER's text, at most */

static const char *const query_by_names[] = {
	[QUERY_BY_FUNC] = "func",
	[QUERY_BY_SITE] = "site",
	[QUERY_BY_MODULE] = "module",
	[QUERY_BY_CLIQUE] = "clique",
};
static const char *const query_sort_names[] = {
	[QUERY_SORT_TOTAL] = "total",
	[QUERY_SORT_SELF] = "self",
	[QUERY_SORT_NAME] = "name",
	[QUERY_SORT_CALLS] = "calls",
	[QUERY_SORT_DELTA] = "delta",
	[QUERY_SORT_DSELF] = "dself",
	[QUERY_SORT_RATIO] = "ratio",
};
static const char *const query_units_names[] = {
	[QUERY_UNITS_RAW] = "raw",
	[QUERY_UNITS_SECONDS] = "seconds",
};
static const char *const query_style_names[] = {
	[QUERY_STYLE_FLAME] = "flame",
	[QUERY_STYLE_ICICLE] = "icicle",
	[QUERY_STYLE_CHART] = "chart",
};
static const char *const query_palette_names[] = {
	[QUERY_PALETTE_HOT] = "hot",
	[QUERY_PALETTE_MODULE] = "module",
	[QUERY_PALETTE_MEM] = "mem",
	[QUERY_PALETTE_BLUE] = "blue",
	[QUERY_PALETTE_GREEN] = "green",
};
static const char *const query_order_names[] = {
	[QUERY_ORDER_NAME] = "name",
	[QUERY_ORDER_TIME] = "time",
};

#define S	QUERY_KEY_STATE
#define T	(QUERY_KEY_STATE | QUERY_KEY_TREE)
#define F	(QUERY_KEY_STATE | QUERY_KEY_TREE | QUERY_KEY_FILTER)
#define P	QUERY_KEY_PAGE

static const struct query_keyinfo query_keys[QUERY_NKEYS] = {
	[QUERY_FILE] = { "file", QUERY_TYPE_STRING, QUERY_FIELD(file),
	    0, 4096, 0, 0, "profile, relative to the profile root" },
	[QUERY_BASE] = { "base", QUERY_TYPE_STRING, QUERY_FIELD(base),
	    0, 4096, 0, T, "second profile to compare with" },
	[QUERY_CMD] = { "cmd", QUERY_TYPE_ENUM, QUERY_FIELD(cmd),
	    0, 0, 0, 0, "report", .names = &catalog_reports[0].name,
	    .stride = sizeof catalog_reports[0], .nnames = CMD_N },
	[QUERY_RANGE] = { "range", QUERY_TYPE_RANGE, QUERY_FIELD(range),
	    0, 1000000000, 0, T, "time range A,B: seconds from the start of "
	    "the recording (decimals allowed), A before B" },
	[QUERY_THREAD] = { "thread", QUERY_TYPE_STRING, QUERY_FIELD(thread),
	    0, 4096, 0, T | QUERY_KEY_REPEAT, "keep the samples of this "
	    "thread (its name, label or tid); may be repeated" },
	[QUERY_BASE_RANGE] = { "base_range", QUERY_TYPE_RANGE,
	    QUERY_FIELD(base_range), 0, 1000000000, 0, T,
	    "compare with this time range A,B of the same recording "
	    "(or of base=)" },
	[QUERY_T] = { "t", QUERY_TYPE_STRING, QUERY_FIELD(t),
	    0, 8192, 0, T, "transform stack" },
	[QUERY_FOCUS] = { "focus", QUERY_TYPE_STRING, QUERY_FIELD(focus),
	    0, 1024, 0, F, "keep samples with a frame matching this regex" },
	[QUERY_IGNORE] = { "ignore", QUERY_TYPE_STRING, QUERY_FIELD(ignore),
	    0, 1024, 0, F, "drop samples with a frame matching this regex" },
	[QUERY_HIDE] = { "hide", QUERY_TYPE_STRING, QUERY_FIELD(hide),
	    0, 1024, 0, F, "remove frames matching this regex" },
	[QUERY_SHOW] = { "show", QUERY_TYPE_STRING, QUERY_FIELD(show),
	    0, 1024, 0, F, "keep only frames matching this regex" },
	[QUERY_MIN_TICKS] = { "min_ticks", QUERY_TYPE_INT,
	    QUERY_FIELD(min_ticks), 0, INT64_MAX, 0, F,
	    "prune nodes below this many ticks" },
	[QUERY_MIN_WORDS] = { "min_words", QUERY_TYPE_INT,
	    QUERY_FIELD(min_words), 0, INT64_MAX, 0, F,
	    "prune nodes below this many words" },
	[QUERY_EXCLUDE] = { "exclude", QUERY_TYPE_STRING,
	    QUERY_FIELD(exclude), 0, 4096, 0, F,
	    "comma-separated functions to prune" },
	[QUERY_PATH] = { "path", QUERY_TYPE_PATH, QUERY_FIELD(path),
	    0, 0, 0, P | QUERY_KEY_NODE,
	    "call node path: function ids from the root" },
	[QUERY_FUNC] = { "func", QUERY_TYPE_STRING, QUERY_FIELD(func),
	    0, 4096, 0, P, "function id or exact name" },
	[QUERY_MODULE] = { "module", QUERY_TYPE_STRING, QUERY_FIELD(module),
	    0, 4096, 0, P, "module name" },
	[QUERY_CLIQUE] = { "clique", QUERY_TYPE_INT, QUERY_FIELD(clique),
	    0, UINT32_MAX, 0, P, "clique id" },
	[QUERY_FIND] = { "find", QUERY_TYPE_STRING, QUERY_FIELD(find),
	    0, 1024, 0, P, "functions to search for: a substring or a regex" },
	[QUERY_BY] = { "by", QUERY_TYPE_ENUM, QUERY_FIELD(by),
	    0, 0, 0, P, "grouping of callers", QUERY_NAMES(query_by_names) },
	[QUERY_METRIC] = { "metric", QUERY_TYPE_STRING, QUERY_FIELD(metric),
	    0, 256, 0, S, "metric name (default: the first)" },
	[QUERY_SORT] = { "sort", QUERY_TYPE_ENUM, QUERY_FIELD(sort),
	    0, 0, 0, 0, "sort column", QUERY_NAMES(query_sort_names) },
	[QUERY_LIMIT] = { "limit", QUERY_TYPE_INT, QUERY_FIELD(limit),
	    1, 1000000, 50, S, "rows shown" },
	[QUERY_FROM] = { "from", QUERY_TYPE_INT, QUERY_FIELD(from),
	    0, UINT32_MAX, 0, P | QUERY_KEY_ROW,
	    "first row shown (paging through long lists)" },
	[QUERY_MIN] = { "min", QUERY_TYPE_NUMBER, QUERY_FIELD(min),
	    0, 100, 0, P, "hide rows below this percent of the total" },
	[QUERY_DEPTH] = { "depth", QUERY_TYPE_INT, QUERY_FIELD(depth),
	    1, 100000, 3, 0, "tree levels shown" },
	[QUERY_BUDGET] = { "budget", QUERY_TYPE_INT, QUERY_FIELD(budget),
	    1, 1000000, 200, 0, "most tree nodes shown" },
	[QUERY_OPEN] = { "open", QUERY_TYPE_STRING, QUERY_FIELD(open),
	    0, 16384, 0, P | QUERY_KEY_NODE,
	    "tree paths to expand, separated by '~'" },
	[QUERY_CLOSE] = { "close", QUERY_TYPE_STRING, QUERY_FIELD(close),
	    0, 16384, 0, P | QUERY_KEY_NODE,
	    "tree paths to collapse, separated by '~'" },
	[QUERY_FIELDS] = { "fields", QUERY_TYPE_STRING, QUERY_FIELD(fields),
	    0, 256, 0, S, "metrics shown as columns, comma-separated, or all "
	    "(default: the metric= one)" },
	[QUERY_UNITS] = { "units", QUERY_TYPE_ENUM, QUERY_FIELD(units),
	    0, 0, 0, S, "ticks as counted, or seconds where a rate is known",
	    QUERY_NAMES(query_units_names) },
	[QUERY_PCT] = { "pct", QUERY_TYPE_BOOL, QUERY_FIELD(pct),
	    0, 1, 1, S, "show percentages of the total" },
	[QUERY_AVG] = { "avg", QUERY_TYPE_BOOL, QUERY_FIELD(avg),
	    0, 1, 0, S, "show per-call averages" },
	[QUERY_NORMALIZE] = { "normalize", QUERY_TYPE_BOOL,
	    QUERY_FIELD(normalize), 0, 1, 1, T,
	    "scale the base profile to the same total (0: raw totals)" },
	[QUERY_STYLE] = { "style", QUERY_TYPE_ENUM, QUERY_FIELD(style),
	    0, 0, 0, 0, "flame graph style", QUERY_NAMES(query_style_names) },
	[QUERY_TITLE] = { "title", QUERY_TYPE_STRING, QUERY_FIELD(title),
	    0, 256, 0, 0, "flame graph title" },
	[QUERY_WIDTH] = { "width", QUERY_TYPE_INT, QUERY_FIELD(width),
	    100, 100000, 1200, 0, "flame graph width in pixels" },
	[QUERY_MINWIDTH] = { "minwidth", QUERY_TYPE_NUMBER,
	    QUERY_FIELD(minwidth), 0, 100000, 0.1, 0,
	    "omit flame graph frames narrower than this (pixels)" },
	[QUERY_MAXDEPTH] = { "maxdepth", QUERY_TYPE_INT, QUERY_FIELD(maxdepth),
	    0, 1000000, 0, 0, "cut stacks deeper than this (0: no limit)" },
	[QUERY_PALETTE] = { "palette", QUERY_TYPE_ENUM, QUERY_FIELD(palette),
	    0, 0, 0, S, "flame graph colours",
	    QUERY_NAMES(query_palette_names) },
	[QUERY_COUNTNAME] = { "countname", QUERY_TYPE_STRING,
	    QUERY_FIELD(countname), 0, 64, 0, 0,
	    "name of the unit in flame graph tooltips" },
	[QUERY_ORDER] = { "order", QUERY_TYPE_ENUM, QUERY_FIELD(order),
	    0, 0, 0, 0, "folded export order", QUERY_NAMES(query_order_names) },
	[QUERY_FORMAT] = { "format", QUERY_TYPE_ENUM, QUERY_FIELD(format),
	    0, 0, 0, 0, "output format", .names = &catalog_formats[0].name,
	    .stride = sizeof catalog_formats[0], .nnames = FMT_N },
	[QUERY_MODULES] = { "modules", QUERY_TYPE_BOOL, QUERY_FIELD(modules),
	    0, 1, 1, 0,
	    "folded export: frames as module`name (0: the name alone)" },
	[QUERY_SELECT] = { "select", QUERY_TYPE_STRING, QUERY_FIELD(select),
	    0, 4096, 0, T,
	    "view: label matchers, {key=\"value\", key=~\"regex\"}" },
	[QUERY_FROM_TIME] = { "from_time", QUERY_TYPE_INT,
	    QUERY_FIELD(from_time), 0, UINT32_MAX, 0, T,
	    "view: samples from this Unix time on" },
	[QUERY_TO_TIME] = { "to_time", QUERY_TYPE_INT, QUERY_FIELD(to_time),
	    0, UINT32_MAX, 0, T, "view: samples before this Unix time" },
	[QUERY_BASE_SELECT] = { "base_select", QUERY_TYPE_STRING,
	    QUERY_FIELD(base_select), 0, 4096, 0, T,
	    "view: label matchers of the base= view" },
	[QUERY_BASE_FROM_TIME] = { "base_from_time", QUERY_TYPE_INT,
	    QUERY_FIELD(base_from_time), 0, UINT32_MAX, 0, T,
	    "view: the base's samples from this time" },
	[QUERY_BASE_TO_TIME] = { "base_to_time", QUERY_TYPE_INT,
	    QUERY_FIELD(base_to_time), 0, UINT32_MAX, 0, T,
	    "view: the base's samples before this time" },
	[QUERY_STEP] = { "step", QUERY_TYPE_INT, QUERY_FIELD(step),
	    1, 31622400, 3600, P, "series: seconds per time bucket" },
	[QUERY_MARKER] = { "marker", QUERY_TYPE_STRING, QUERY_FIELD(marker),
	    0, 128, 0, P,
	    "series: the label whose new values are marked (default: version)" },
};

#undef S
#undef T
#undef F
#undef P

/*
 * ENUM and BOOL fields are read and written as int (query_store and the
 * rest): an enum of the query is an int.
 */
_Static_assert(sizeof(enum query_sort) == sizeof(int) &&
    sizeof(enum catalog_cmd) == sizeof(int), "enum fields are ints");

/* A value parsed from its text (query_check). */
union query_value {
	const char	*s;		/* STRING: the text itself */
	int		 e;		/* ENUM, BOOL */
	int64_t		 i;		/* INT */
	double		 d;		/* NUMBER */
	struct {
		uint32_t	*ids;	/* PATH: allocated, or NULL */
		size_t		 n;
	}		 p;
	double		 r[2];		/* RANGE */
};

static void	*query_field(const struct query *, enum query_key);
static int	query_check(enum query_key, const char *, union query_value *,
		    char **);
static int	query_check_path(const struct query_keyinfo *, const char *,
		    union query_value *, char **);
static int	query_check_range(const struct query_keyinfo *, const char *,
		    union query_value *, char **);
static int	query_number_parse(const char *, size_t, double *);
static void	query_store(struct query *, enum query_key,
		    const union query_value *);
static size_t	query_number_text(double, char *, size_t);
static size_t	query_range_text(const double *, char *, size_t);
static int	query_join(struct query *, enum query_key, char **, char **);
static int	query_key_ok(const struct query *, enum query_key);
static size_t	query_key_len(const struct query *, enum query_key);
static char	*query_key_put(char *, const struct query *, enum query_key);
static size_t	query_encoded_len(const struct query *, int, int);
static char	*query_encode(char *, const struct query *, int, int);
static char	*query_pct(char *, const char *);
static char	*query_pct_n(char *, const char *, size_t);
static char	*query_put_repeat(char *, const char *, const char *);

/* Description of a key. */
const struct query_keyinfo *
query_keyinfo(enum query_key k)
{
	return ((unsigned)k < QUERY_NKEYS ? &query_keys[k] : NULL);
}

/* Name i of an ENUM key, from 0; NULL past the last. */
const char *
query_keyinfo_name(const struct query_keyinfo *ki, int i)
{
	if (i < 0 || i >= ki->nnames)
		return (NULL);
	return (*(const char *const *)(const void *)((const char *)ki->names +
	    (size_t)i * ki->stride));
}

/*
 * The names of an ENUM key, '|'-separated: "a|b|c". Caller frees; NULL
 * if out of memory.
 */
char *
query_keyinfo_list(const struct query_keyinfo *ki)
{
	struct outbuf	 ob;
	size_t		 len;
	int		 i;

	outbuf_init(&ob);
	for (i = 0; i < ki->nnames; i++) {
		if (i > 0)
			outbuf_putc(&ob, '|');
		outbuf_puts(&ob, query_keyinfo_name(ki, i));
	}
	return (outbuf_take(&ob, &len));
}

/* The name of value v of ENUM key k (NULL if none): "self" for sort=. */
const char *
query_enum_name(enum query_key k, int v)
{
	return ((unsigned)k < QUERY_NKEYS ? query_keyinfo_name(&query_keys[k],
	    v) : NULL);
}

/* The key with a name, or -1. */
int
query_key_find(const char *name)
{
	int	 k;

	for (k = 0; k < QUERY_NKEYS; k++) {
		if (strcmp(query_keys[k].name, name) == 0)
			return (k);
	}
	return (-1);
}

/* Key k's field in q. */
static void *
query_field(const struct query *q, enum query_key k)
{
	return ((char *)(uintptr_t)q + query_keys[k].offset);
}

/* Every key of q at its default; q holds nothing to free. */
void
query_init(struct query *q)
{
	int	 k;

	memset(q, 0, sizeof *q);
	for (k = 0; k < QUERY_NKEYS; k++)
		query_key_reset(q, k);
}

/* An empty query: every key at its default. */
struct query *
query_create(void)
{
	struct query	*q;

	if ((q = malloc(sizeof *q)) != NULL)
		query_init(q);
	return (q);
}

/* Free a query (never a view). */
void
query_free(struct query *q)
{
	int	 k;

	if (q == NULL)
		return;
	for (k = 0; k < QUERY_NKEYS; k++)
		query_unset(q, k);
	free(q);
}

/* A deep copy; NULL if out of memory. */
struct query *
query_copy(const struct query *q)
{
	struct query	*c;
	const char	**s;
	char		*dup;
	uint32_t	*ids;
	int		 k;

	if ((c = malloc(sizeof *c)) == NULL)
		return (NULL);
	*c = *q;
	/* Own copies of what c shares with q, before anything can fail. */
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (query_keys[k].type == QUERY_TYPE_STRING)
			*(const char **)query_field(c, k) = "";
	}
	c->path = NULL;
	c->npath = 0;
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (query_keys[k].type != QUERY_TYPE_STRING)
			continue;
		s = query_field(q, k);
		if (**s == '\0')
			continue;
		/* Through dup: a NULL stored would be freed as a string. */
		if ((dup = strdup(*s)) == NULL)
			goto fail;
		*(const char **)query_field(c, k) = dup;
	}
	if (q->npath > 0) {
		if ((ids = malloc(q->npath * sizeof *ids)) == NULL)
			goto fail;
		memcpy(ids, q->path, q->npath * sizeof *ids);
		c->path = ids;
		c->npath = q->npath;
	}
	return (c);
fail:
	query_free(c);
	return (NULL);
}

/* The index of v among an ENUM key's names, or -1. */
static int
query_enum_find(const struct query_keyinfo *ki, const char *v)
{
	int	 i;

	for (i = 0; i < ki->nnames; i++) {
		if (strcmp(query_keyinfo_name(ki, i), v) == 0)
			return (i);
	}
	return (-1);
}

/*
 * Parse and validate v, the text of key k's value, into *val (a path
 * allocated, the caller's to free). -1 with *cause if it is no value of
 * the key.
 */
static int
query_check(enum query_key k, const char *v, union query_value *val,
    char **cause)
{
	const struct query_keyinfo *ki = &query_keys[k];
	char		*end, *list;
	long long	 ll;
	double		 d;

	memset(val, 0, sizeof *val);
	switch (ki->type) {
	case QUERY_TYPE_STRING:
		if ((int64_t)strlen(v) > ki->max) {
			cause_set(cause, "%s: longer than %lld bytes",
			    ki->name, (long long)ki->max);
			return (-1);
		}
		/*
		 * Every string is shown, compiled as a regex or looked up
		 * by name: refuse bytes that are no text here, once (T1 in
		 * tests/SCENARIOS).
		 */
		if (!utf8_valid(v, strlen(v))) {
			cause_set(cause, "%s: not valid UTF-8", ki->name);
			return (-1);
		}
		/* A repeated key's values, joined by '\n': none empty. */
		if ((ki->flags & QUERY_KEY_REPEAT) && (*v == '\n' ||
		    strstr(v, "\n\n") != NULL ||
		    (*v != '\0' && v[strlen(v) - 1] == '\n'))) {
			cause_set(cause, "%s: an empty value", ki->name);
			return (-1);
		}
		val->s = v;
		return (0);
	case QUERY_TYPE_ENUM:
		if ((val->e = query_enum_find(ki, v)) == -1) {
			if (cause != NULL) {
				list = query_keyinfo_list(ki);
				cause_set(cause, "%s: must be one of %s",
				    ki->name, list != NULL ? list :
				    "(out of memory)");
				free(list);
			}
			return (-1);
		}
		return (0);
	case QUERY_TYPE_BOOL:
		if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
			cause_set(cause, "%s: must be 0 or 1", ki->name);
			return (-1);
		}
		val->e = *v == '1';
		return (0);
	case QUERY_TYPE_INT:
		errno = 0;
		if (*v < '0' || *v > '9')
			ll = -1, errno = EINVAL;
		else
			ll = strtoll(v, &end, 10);
		if (errno != 0 || *end != '\0' || ll < ki->min ||
		    ll > ki->max) {
			cause_set(cause, "%s: must be an integer from %lld "
			    "to %lld", ki->name, (long long)ki->min,
			    (long long)ki->max);
			return (-1);
		}
		val->i = ll;
		return (0);
	case QUERY_TYPE_NUMBER:
		if (query_number_parse(v, strlen(v), &d) == -1 ||
		    d < ki->min || d > ki->max) {
			cause_set(cause, "%s: must be a number from %lld to "
			    "%lld", ki->name, (long long)ki->min,
			    (long long)ki->max);
			return (-1);
		}
		val->d = d;
		return (0);
	case QUERY_TYPE_PATH:
		return (query_check_path(ki, v, val, cause));
	case QUERY_TYPE_RANGE:
		return (query_check_range(ki, v, val, cause));
	}
	return (0);
}

/*
 * A NUMBER's text, n bytes of s: digits and '.', no sign, no exponent,
 * finite. 0 with *d, or -1.
 */
static int
query_number_parse(const char *s, size_t n, double *d)
{
	char	 buf[QUERY_NUM_MAX], *end;

	if (n == 0 || n >= sizeof buf || strspn(s, "0123456789.") < n)
		return (-1);
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*d = strtod(buf, &end);
	return (errno != 0 || *end != '\0' || !isfinite(*d) ? -1 : 0);
}

/*
 * A RANGE's text: "A,B", two numbers min <= A < B <= max ("" is none).
 * Checked here once: range.c and the reports read the two doubles.
 */
static int
query_check_range(const struct query_keyinfo *ki, const char *v,
    union query_value *val, char **cause)
{
	const char	*comma;

	if (*v == '\0')
		return (0);
	if ((comma = strchr(v, ',')) == NULL ||
	    query_number_parse(v, (size_t)(comma - v), &val->r[0]) == -1 ||
	    query_number_parse(comma + 1, strlen(comma + 1), &val->r[1]) ==
	    -1 || val->r[0] < ki->min || !(val->r[0] < val->r[1]) ||
	    val->r[1] > ki->max) {
		val->r[0] = val->r[1] = 0;
		cause_set(cause, "%s: must be two numbers A,B of seconds, "
		    "A before B", ki->name);
		return (-1);
	}
	return (0);
}

/* A PATH's text: function ids separated by commas ("" is none). */
static int
query_check_path(const struct query_keyinfo *ki, const char *v,
    union query_value *val, char **cause)
{
	uint32_t	*path;
	char		*end;
	long long	 ll;
	size_t		 n;
	const char	*s;

	if (*v == '\0')
		return (0);
	for (s = v, n = 1; *s != '\0'; s++)
		n += *s == ',';
	if (n > QUERY_MAX_PATH) {
		cause_set(cause, "%s: more than %d ids", ki->name,
		    QUERY_MAX_PATH);
		return (-1);
	}
	if ((path = calloc(n, sizeof *path)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	for (s = v, n = 0; *s != '\0'; n++) {
		errno = 0;
		if (*s < '0' || *s > '9')
			goto bad;
		ll = strtoll(s, &end, 10);
		if (errno != 0 || ll < 0 || ll >= UINT32_MAX ||
		    (*end != ',' && *end != '\0') ||
		    (*end == ',' && end[1] == '\0'))
			goto bad;
		path[n] = (uint32_t)ll;
		s = *end == ',' ? end + 1 : end;
	}
	val->p.ids = path;
	val->p.n = n;
	return (0);
bad:
	free(path);
	cause_set(cause, "%s: must be function ids separated by commas",
	    ki->name);
	return (-1);
}

/*
 * Store a checked value in key k's field of q, borrowing what it points
 * to (the caller decides who owns it).
 */
static void
query_store(struct query *q, enum query_key k, const union query_value *val)
{
	void	*f = query_field(q, k);

	switch (query_keys[k].type) {
	case QUERY_TYPE_STRING:
		*(const char **)f = val->s;
		break;
	case QUERY_TYPE_ENUM:
	case QUERY_TYPE_BOOL:
		*(int *)f = val->e;
		break;
	case QUERY_TYPE_INT:
		*(int64_t *)f = val->i;
		break;
	case QUERY_TYPE_NUMBER:
		*(double *)f = val->d;
		break;
	case QUERY_TYPE_PATH:
		q->path = val->p.ids;
		q->npath = val->p.n;
		break;
	case QUERY_TYPE_RANGE:
		memcpy(f, val->r, sizeof val->r);
		break;
	}
}

/* Is a RANGE field set (A < B; absent is 0, 0)? */
int
query_range_set(const double *r)
{
	return (r[0] < r[1]);
}

/*
 * Parse a path's text ("3,7,9": function ids from the root; "" is the
 * root) as path= does: the ids in *ids (the caller frees; NULL for none),
 * their number in *n. -1 if it is no path or out of memory.
 */
int
query_path_parse(const char *s, uint32_t **ids, size_t *n)
{
	union query_value	 val;

	*ids = NULL;
	*n = 0;
	if (query_check_path(&query_keys[QUERY_PATH], s, &val, NULL) == -1)
		return (-1);
	*ids = val.p.ids;
	*n = val.p.n;
	return (0);
}

/* Is v a valid value of key k? 0 if so, -1 if not or out of memory. */
int
query_key_valid(enum query_key k, const char *v)
{
	union query_value	 val;

	if ((unsigned)k >= QUERY_NKEYS || query_check(k, v, &val, NULL) == -1)
		return (-1);
	if (query_keys[k].type == QUERY_TYPE_PATH)
		free(val.p.ids);
	return (0);
}

/* Set key k of q (no view) to v after validating it. */
int
query_set(struct query *q, enum query_key k, const char *v, char **cause)
{
	union query_value	 val;
	char			*c = NULL;

	if ((unsigned)k >= QUERY_NKEYS) {
		cause_set(cause, "bad key");
		return (-1);
	}
	if (query_check(k, v, &val, cause) == -1)
		return (-1);
	/* A string of its own, or the empty one it owns not. */
	if (query_keys[k].type == QUERY_TYPE_STRING) {
		if (*v != '\0' && (c = strdup(v)) == NULL) {
			cause_set(cause, "out of memory");
			return (-1);
		}
		val.s = c != NULL ? c : "";
	}
	query_unset(q, k);
	query_store(q, k, &val);
	return (0);
}

/* Remove key k of q (no view): back to its default. */
void
query_unset(struct query *q, enum query_key k)
{
	const char	**s;

	if ((unsigned)k >= QUERY_NKEYS)
		return;
	if (query_keys[k].type == QUERY_TYPE_STRING) {
		s = query_field(q, k);
		if (**s != '\0')
			free((void *)(uintptr_t)*s);
	} else if (query_keys[k].type == QUERY_TYPE_PATH)
		free((void *)(uintptr_t)q->path);
	query_key_reset(q, k);
}

/*
 * Key k of q back to its default, freeing nothing: for a view, and for
 * query_init().
 */
void
query_key_reset(struct query *q, enum query_key k)
{
	const struct query_keyinfo	*ki = &query_keys[k];
	void				*f = query_field(q, k);

	switch (ki->type) {
	case QUERY_TYPE_STRING:
		*(const char **)f = "";
		break;
	case QUERY_TYPE_ENUM:
		*(int *)f = 0;
		break;
	case QUERY_TYPE_BOOL:
		*(int *)f = ki->def != 0;
		break;
	case QUERY_TYPE_INT:
		*(int64_t *)f = (int64_t)ki->def;
		break;
	case QUERY_TYPE_NUMBER:
		*(double *)f = ki->def;
		break;
	case QUERY_TYPE_PATH:
		q->path = NULL;
		q->npath = 0;
		break;
	case QUERY_TYPE_RANGE:
		((double *)f)[0] = ((double *)f)[1] = 0;
		break;
	}
}

/* Key k of view v as in q: v borrows it. */
void
query_key_copy(struct query *v, const struct query *q, enum query_key k)
{
	if (query_keys[k].type == QUERY_TYPE_PATH) {
		v->path = q->path;
		v->npath = q->npath;
	} else
		memcpy(query_field(v, k), query_field(q, k),
		    query_keys[k].type == QUERY_TYPE_STRING ? sizeof(char *) :
		    query_keys[k].type == QUERY_TYPE_INT ? sizeof(int64_t) :
		    query_keys[k].type == QUERY_TYPE_NUMBER ? sizeof(double) :
		    query_keys[k].type == QUERY_TYPE_RANGE ? 2 * sizeof(double) :
		    sizeof(int));
}

/* Is key k of q given, and not at its default? */
int
query_key_isset(const struct query *q, enum query_key k)
{
	const struct query_keyinfo	*ki = &query_keys[k];
	const void			*f = query_field(q, k);

	switch (ki->type) {
	case QUERY_TYPE_STRING:
		return (**(const char *const *)f != '\0');
	case QUERY_TYPE_ENUM:
		return (*(const int *)f != 0);
	case QUERY_TYPE_BOOL:
		return (*(const int *)f != (ki->def != 0));
	case QUERY_TYPE_INT:
		return (*(const int64_t *)f != (int64_t)ki->def);
	case QUERY_TYPE_NUMBER:
		return (*(const double *)f != ki->def);
	case QUERY_TYPE_PATH:
		return (q->npath > 0);
	case QUERY_TYPE_RANGE:
		return (query_range_set(f));
	}
	return (0);
}

/*
 * The text of key k's value in q, as a link holds it before encoding
 * (its default's where absent). Caller frees; NULL if out of memory.
 */
char *
query_key_text(const struct query *q, enum query_key k)
{
	const struct query_keyinfo	*ki = &query_keys[k];
	const void			*f = query_field(q, k);
	char				 buf[QUERY_NUM_MAX];

	switch (ki->type) {
	case QUERY_TYPE_STRING:
		return (strdup(*(const char *const *)f));
	case QUERY_TYPE_ENUM:
		return (strdup(query_keyinfo_name(ki, *(const int *)f)));
	case QUERY_TYPE_BOOL:
		return (strdup(*(const int *)f ? "1" : "0"));
	case QUERY_TYPE_INT:
		snprintf(buf, sizeof buf, "%lld",
		    (long long)*(const int64_t *)f);
		return (strdup(buf));
	case QUERY_TYPE_NUMBER:
		query_number_text(*(const double *)f, buf, sizeof buf);
		return (strdup(buf));
	case QUERY_TYPE_PATH:
		return (query_path_format(q->path, q->npath));
	case QUERY_TYPE_RANGE:
		if (!query_range_set(f))
			return (strdup(""));	/* none, as a PATH's */
		query_range_text(f, buf, sizeof buf);
		return (strdup(buf));
	}
	return (NULL);
}

/*
 * Decode n bytes of a form-urlencoded component ('+' is a space).
 * Refuses bad escapes and NUL bytes. Caller frees.
 */
char *
query_urldecode(const char *s, size_t n, char **cause)
{
	char	*d, *o;
	size_t	 i;
	int	 hi, lo;

	if ((o = d = malloc(n + 1)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	for (i = 0; i < n; i++) {
		if (s[i] == '+')
			*o++ = ' ';
		else if (s[i] == '%') {
			if (i + 2 >= n)
				goto bad;
			hi = s[i + 1];
			lo = s[i + 2];
			hi = hi >= '0' && hi <= '9' ? hi - '0' :
			    (hi | 0x20) >= 'a' && (hi | 0x20) <= 'f' ?
			    (hi | 0x20) - 'a' + 10 : -1;
			lo = lo >= '0' && lo <= '9' ? lo - '0' :
			    (lo | 0x20) >= 'a' && (lo | 0x20) <= 'f' ?
			    (lo | 0x20) - 'a' + 10 : -1;
			if (hi < 0 || lo < 0)
				goto bad;
			if (hi == 0 && lo == 0) {
				cause_set(cause, "NUL byte in query");
				free(d);
				return (NULL);
			}
			*o++ = (char)(hi << 4 | lo);
			i += 2;
		} else if (s[i] == '\0') {
			cause_set(cause, "NUL byte in query");
			free(d);
			return (NULL);
		} else
			*o++ = s[i];
	}
	*o = '\0';
	return (d);
bad:
	cause_set(cause, "bad percent escape in query");
	free(d);
	return (NULL);
}

/*
 * Write s percent-encoded for a query component at o (up to three bytes
 * for each of s); returns the end. Unreserved bytes and , / : (ids and
 * paths stay readable) are kept.
 */
static char *
query_pct(char *o, const char *s)
{
	return (query_pct_n(o, s, strlen(s)));
}

/* query_pct() of the n bytes at s. */
static char *
query_pct_n(char *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned char	 c;

	for (; n > 0; s++, n--) {
		c = *s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		    c == '.' || c == '~' || c == ',' || c == '/' || c == ':')
			*o++ = c;
		else {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
	}
	return (o);
}

/* Percent-encode for a query component; caller frees. */
char *
query_urlencode(const char *s)
{
	char	*d;

	if ((d = malloc(strlen(s) * 3 + 1)) == NULL)
		return (NULL);
	*query_pct(d, s) = '\0';
	return (d);
}

/*
 * Parse a query string. On failure returns NULL with *status (400 or 414)
 * and *cause set.
 */
struct query *
query_parse(const char *s, int *status, char **cause)
{
	struct query	*q;
	const char	*p, *amp, *eq;
	char		*key = NULL, *val = NULL, *why = NULL;
	uint64_t	 given = 0;
	int		 k;
	size_t		 n;

	*status = 400;
	if (s == NULL)
		s = "";
	if (strlen(s) > QUERY_MAX_LEN) {
		*status = 414;
		cause_set(cause, "query longer than %d bytes", QUERY_MAX_LEN);
		return (NULL);
	}
	if ((q = query_create()) == NULL) {
		*status = 500;
		cause_set(cause, "out of memory");
		return (NULL);
	}
	for (p = s; *p != '\0'; p = amp ? amp + 1 : p + n) {
		amp = strpbrk(p, "&;");
		n = amp ? (size_t)(amp - p) : strlen(p);
		if (n == 0)
			continue;
		eq = memchr(p, '=', n);
		if ((key = query_urldecode(p, eq ? (size_t)(eq - p) : n,
		    &why)) == NULL)
			goto fail;
		if ((val = query_urldecode(eq ? eq + 1 : p + n,
		    eq ? n - (eq + 1 - p) : 0, &why)) == NULL)
			goto fail;
		if ((k = query_key_find(key)) == -1) {
			cause_set(&why, "unknown key: %s", key);
			goto fail;
		}
		/* A repeated key's values are kept joined by newlines. */
		if ((query_keys[k].flags & QUERY_KEY_REPEAT) &&
		    strchr(val, '\n') != NULL) {
			cause_set(&why, "%s: a newline in a value", key);
			goto fail;
		}
		if ((given & QUERY_BIT(k)) &&
		    !(query_keys[k].flags & QUERY_KEY_REPEAT)) {
			cause_set(&why, "key given twice: %s", key);
			goto fail;
		}
		if ((given & QUERY_BIT(k)) && query_join(q, k, &val,
		    &why) == -1)
			goto fail;
		given |= QUERY_BIT(k);
		if (query_set(q, k, val, &why) == -1)
			goto fail;
		free(key);
		free(val);
		key = val = NULL;
	}
	return (q);
fail:
	if (cause != NULL) {
		*cause = why;
		why = NULL;
	}
	free(why);
	free(key);
	free(val);
	query_free(q);
	return (NULL);
}

/*
 * A repeated key's next value: *val becomes the values so far and it,
 * joined by '\n' (query_set checks the whole). -1 with *cause if it or
 * the first is empty.
 */
static int
query_join(struct query *q, enum query_key k, char **val, char **cause)
{
	const char	*prev = *(const char **)query_field(q, k);
	char		*joined;

	if (**val == '\0' || *prev == '\0') {
		cause_set(cause, "%s: an empty value", query_keys[k].name);
		return (-1);
	}
	if (asprintf(&joined, "%s\n%s", prev, *val) == -1) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	free(*val);
	*val = joined;
	return (0);
}

/* A RANGE's text "A,B" as a link holds it; returns its length. */
static size_t
query_range_text(const double *r, char *buf, size_t size)
{
	size_t	 n;

	n = query_number_text(r[0], buf, size / 2);
	buf[n++] = ',';
	return (n + query_number_text(r[1], buf + n, size - n));
}

/*
 * A number's text as a link holds it: the fewest decimals that read back
 * as the same double, never an exponent (the parser takes none). Returns
 * its length.
 */
static size_t
query_number_text(double d, char *buf, size_t size)
{
	int	 p, n = 0;

	for (p = 0; p < (int)size - 32; p++) {
		n = snprintf(buf, size, "%.*f", p, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return (n < 0 ? 0 : (size_t)n);
}

/*
 * Is key k's value in q one the parser would take back? A view's values
 * come from code: a name longer than its key allows, a path too deep, a
 * number out of range make no link.
 */
static int
query_key_ok(const struct query *q, enum query_key k)
{
	const struct query_keyinfo	*ki = &query_keys[k];
	const void			*f = query_field(q, k);
	size_t				 i;
	int64_t				 v;
	double				 d;

	switch (ki->type) {
	case QUERY_TYPE_STRING:
		return ((int64_t)strlen(*(const char *const *)f) <= ki->max);
	case QUERY_TYPE_ENUM:
		return (*(const int *)f >= 0 && *(const int *)f < ki->nnames);
	case QUERY_TYPE_BOOL:
		return (*(const int *)f == 0 || *(const int *)f == 1);
	case QUERY_TYPE_INT:
		v = *(const int64_t *)f;
		return (v >= ki->min && v <= ki->max);
	case QUERY_TYPE_NUMBER:
		d = *(const double *)f;
		return (isfinite(d) && d >= ki->min && d <= ki->max);
	case QUERY_TYPE_PATH:
		if (q->npath > QUERY_MAX_PATH)
			return (0);
		for (i = 0; i < q->npath; i++) {
			if (q->path[i] == UINT32_MAX)
				return (0);
		}
		return (1);
	case QUERY_TYPE_RANGE:
		d = ((const double *)f)[0];
		return (isfinite(d) && d >= ki->min && d < ((const double *)
		    f)[1] && ((const double *)f)[1] <= ki->max);
	}
	return (0);
}

/* The most bytes key k's pair "name=value" of q encodes to. */
static size_t
query_key_len(const struct query *q, enum query_key k)
{
	const struct query_keyinfo	*ki = &query_keys[k];
	const void			*f = query_field(q, k);
	char				 buf[QUERY_NUM_MAX];
	size_t				 n = strlen(ki->name) + 1;

	const char			*s;
	size_t				 len;

	switch (ki->type) {
	case QUERY_TYPE_STRING:
		len = n + 3 * strlen(*(const char *const *)f);
		/* A repeated key: "&name=" again for each '\n'. */
		for (s = *(const char *const *)f; (ki->flags &
		    QUERY_KEY_REPEAT) && (s = strchr(s, '\n')) != NULL; s++)
			len += n + 1;
		return (len);
	case QUERY_TYPE_ENUM:
		return (n + 3 * strlen(query_keyinfo_name(ki,
		    *(const int *)f)));
	case QUERY_TYPE_BOOL:
		return (n + 1);
	case QUERY_TYPE_INT:
		return (n + 20);
	case QUERY_TYPE_NUMBER:
		return (n + query_number_text(*(const double *)f, buf,
		    sizeof buf));
	case QUERY_TYPE_PATH:
		return (n + 11 * q->npath);
	case QUERY_TYPE_RANGE:
		return (n + query_range_text(f, buf, sizeof buf));
	}
	return (n);
}

/* Write key k's pair "name=value" of q at o; returns the end. */
static char *
query_key_put(char *o, const struct query *q, enum query_key k)
{
	const struct query_keyinfo	*ki = &query_keys[k];
	const void			*f = query_field(q, k);
	const char			*s;
	size_t				 i;

	for (s = ki->name; *s != '\0'; s++)
		*o++ = *s;
	*o++ = '=';
	switch (ki->type) {
	case QUERY_TYPE_STRING:
		if (ki->flags & QUERY_KEY_REPEAT)
			return (query_put_repeat(o, ki->name,
			    *(const char *const *)f));
		return (query_pct(o, *(const char *const *)f));
	case QUERY_TYPE_ENUM:
		return (query_pct(o, query_keyinfo_name(ki, *(const int *)f)));
	case QUERY_TYPE_BOOL:
		*o++ = *(const int *)f ? '1' : '0';
		return (o);
	case QUERY_TYPE_INT:
		return (o + sprintf(o, "%lld", (long long)*(const int64_t *)f));
	case QUERY_TYPE_NUMBER:
		return (o + query_number_text(*(const double *)f, o,
		    QUERY_NUM_MAX));
	case QUERY_TYPE_PATH:
		for (i = 0; i < q->npath; i++) {
			if (i > 0)
				*o++ = ',';
			o += sprintf(o, "%u", q->path[i]);
		}
		return (o);
	case QUERY_TYPE_RANGE:
		return (o + query_range_text(f, o, 2 * QUERY_NUM_MAX));
	}
	return (o);
}

/*
 * A repeated key's values v (joined by '\n') at o, after "name=": a pair
 * for each, "a\nb" as "a&name=b". Returns the end.
 */
static char *
query_put_repeat(char *o, const char *name, const char *v)
{
	const char	*s;

	for (; *v != '\0'; v++) {
		if (*v != '\n') {
			o = query_pct_n(o, v, 1);
			continue;
		}
		*o++ = '&';
		for (s = name; *s != '\0'; s++)
			*o++ = *s;
		*o++ = '=';
	}
	return (o);
}

/* The most bytes the pairs of keys [from, to) of q encode to. */
static size_t
query_encoded_len(const struct query *q, int from, int to)
{
	size_t	 len = 0;
	int	 k;

	for (k = from; k < to; k++) {
		if (query_key_isset(q, k))
			len += 1 + query_key_len(q, k);
	}
	return (len);
}

/*
 * Write the pairs of keys [from, to) of q at o, '&' between them (not
 * before the first); returns the end.
 */
static char *
query_encode(char *o, const struct query *q, int from, int to)
{
	char	*start = o;
	int	 k;

	for (k = from; k < to; k++) {
		if (!query_key_isset(q, k))
			continue;
		if (o != start)
			*o++ = '&';
		o = query_key_put(o, q, k);
	}
	return (o);
}

/* Are the values of keys [from, to) of q all ones the parser takes? */
static int
query_keys_ok(const struct query *q, int from, int to)
{
	int	 k;

	for (k = from; k < to; k++) {
		if (query_key_isset(q, k) && !query_key_ok(q, k))
			return (0);
	}
	return (1);
}

/*
 * The canonical query string of q (a query or a view): keys in table
 * order, defaults left out, values form-urlencoded. Every link is made
 * here. Caller frees; NULL if a view's value is out of its key's range
 * or out of memory.
 */
char *
query_format(const struct query *q)
{
	char	*buf;

	if (!query_keys_ok(q, 0, QUERY_NKEYS) ||
	    (buf = malloc(query_encoded_len(q, 0, QUERY_NKEYS) + 1)) == NULL)
		return (NULL);
	*query_encode(buf, q, 0, QUERY_NKEYS) = '\0';
	return (buf);
}

/*
 * A template of query_format(v) whose keys key .. key + n - 1 are left
 * to query_tmpl_fill(). -1 if a value is out of its key's range or out
 * of memory; query_tmpl_clear() frees it either way.
 */
int
query_tmpl_init(struct query_tmpl *t, const struct query *v, int key, int n)
{
	memset(t, 0, sizeof *t);
	if (key < 0 || n < 1 || key + n > QUERY_NKEYS ||
	    !query_keys_ok(v, 0, key) || !query_keys_ok(v, key + n,
	    QUERY_NKEYS))
		return (-1);
	t->key = key;
	t->n = n;
	if ((t->pre = malloc(query_encoded_len(v, 0, key) + 1)) == NULL ||
	    (t->post = malloc(query_encoded_len(v, key + n, QUERY_NKEYS) +
	    1)) == NULL)
		return (-1);
	*query_encode(t->pre, v, 0, key) = '\0';
	*query_encode(t->post, v, key + n, QUERY_NKEYS) = '\0';
	return (0);
}

/*
 * The link of a template with its keys as in v (of v, only they are
 * read): what query_format() makes of the template's query with them.
 * Caller frees; NULL if a value is out of its key's range or out of
 * memory.
 */
char *
query_tmpl_fill(const struct query_tmpl *t, const struct query *v)
{
	size_t		 npre = strlen(t->pre), npost = strlen(t->post);
	size_t		 len;
	char		*buf, *o, *mid;

	if (!query_keys_ok(v, t->key, t->key + t->n))
		return (NULL);
	len = npre + npost + 2 + query_encoded_len(v, t->key, t->key + t->n);
	if ((o = buf = malloc(len + 1)) == NULL)
		return (NULL);
	memcpy(o, t->pre, npre);
	o += npre;
	mid = o + (npre != 0);
	o = query_encode(mid, v, t->key, t->key + t->n);
	if (o == mid)
		o = mid - (npre != 0);	/* no '&' before nothing */
	else if (npre != 0)
		mid[-1] = '&';
	if (npost != 0) {
		if (o != buf)
			*o++ = '&';
		memcpy(o, t->post, npost);
		o += npost;
	}
	*o = '\0';
	return (buf);
}

/* Free what a template holds. */
void
query_tmpl_clear(struct query_tmpl *t)
{
	free(t->pre);
	free(t->post);
	t->pre = t->post = NULL;
}

/* Do two queries mean the same (every effective value equal)? */
int
query_equal(const struct query *a, const struct query *b)
{
	const struct query_keyinfo	*ki;
	const void			*fa, *fb;
	int				 k;

	for (k = 0; k < QUERY_NKEYS; k++) {
		ki = &query_keys[k];
		fa = query_field(a, k);
		fb = query_field(b, k);
		switch (ki->type) {
		case QUERY_TYPE_STRING:
			if (strcmp(*(const char *const *)fa,
			    *(const char *const *)fb) != 0)
				return (0);
			break;
		case QUERY_TYPE_ENUM:
		case QUERY_TYPE_BOOL:
			if (*(const int *)fa != *(const int *)fb)
				return (0);
			break;
		case QUERY_TYPE_INT:
			if (*(const int64_t *)fa != *(const int64_t *)fb)
				return (0);
			break;
		case QUERY_TYPE_NUMBER:
			if (*(const double *)fa != *(const double *)fb)
				return (0);
			break;
		case QUERY_TYPE_PATH:
			if (a->npath != b->npath || (a->npath > 0 &&
			    memcmp(a->path, b->path, a->npath *
			    sizeof *a->path) != 0))
				return (0);
			break;
		case QUERY_TYPE_RANGE:
			if (memcmp(fa, fb, 2 * sizeof(double)) != 0)
				return (0);
			break;
		}
	}
	return (1);
}

/* "3,7,9" from function ids; caller frees. */
char *
query_path_format(const uint32_t *path, size_t n)
{
	struct outbuf	 ob;
	size_t		 i, len;

	outbuf_init(&ob);
	for (i = 0; i < n; i++) {
		if (i > 0)
			outbuf_putc(&ob, ',');
		outbuf_u64(&ob, path[i]);
	}
	return (outbuf_take(&ob, &len));
}

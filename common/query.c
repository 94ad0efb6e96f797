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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "outbuf.h"
#include "query.h"
#include "utf8.h"

/* Query parsing, validation and the canonical query string. */

#define CMDS	"menu|top|tree|func|callers|modules|module|cliques|clique|" \
		"flame|folded|callgrind|pprof|speedscope|dump|status|shutdown|search|" \
		"index|timeline|heatmap|source"

static const struct query_keyinfo query_keys[QUERY_NKEYS] = {
	[QUERY_FILE] = { "file", QUERY_TYPE_STRING, NULL, 0, 4096, "",
	    "profile, relative to the profile root" },
	[QUERY_BASE] = { "base", QUERY_TYPE_STRING, NULL, 0, 4096, "",
	    "second profile to compare with" },
	[QUERY_CMD] = { "cmd", QUERY_TYPE_ENUM, CMDS, 0, 0, "menu",
	    "report" },
	[QUERY_RANGE] = { "range", QUERY_TYPE_STRING, NULL, 0, 64, "",
	    "time range A,B: seconds from the start of the recording "
	    "(decimals allowed), A before B" },
	[QUERY_THREAD] = { "thread", QUERY_TYPE_STRING, NULL, 0, 4096, "",
	    "keep the samples of this thread (its name, label or tid); "
	    "may be repeated", 1 },
	[QUERY_BASE_RANGE] = { "base_range", QUERY_TYPE_STRING, NULL, 0, 64,
	    "", "compare with this time range A,B of the same recording "
	    "(or of base=)" },
	[QUERY_T] = { "t", QUERY_TYPE_STRING, NULL, 0, 8192, "",
	    "transform stack" },
	[QUERY_FOCUS] = { "focus", QUERY_TYPE_STRING, NULL, 0, 1024, "",
	    "keep samples with a frame matching this regex" },
	[QUERY_IGNORE] = { "ignore", QUERY_TYPE_STRING, NULL, 0, 1024, "",
	    "drop samples with a frame matching this regex" },
	[QUERY_HIDE] = { "hide", QUERY_TYPE_STRING, NULL, 0, 1024, "",
	    "remove frames matching this regex" },
	[QUERY_SHOW] = { "show", QUERY_TYPE_STRING, NULL, 0, 1024, "",
	    "keep only frames matching this regex" },
	[QUERY_MIN_TICKS] = { "min_ticks", QUERY_TYPE_INT, NULL, 0,
	    INT64_MAX, "0", "prune nodes below this many ticks" },
	[QUERY_MIN_WORDS] = { "min_words", QUERY_TYPE_INT, NULL, 0,
	    INT64_MAX, "0", "prune nodes below this many words" },
	[QUERY_EXCLUDE] = { "exclude", QUERY_TYPE_STRING, NULL, 0, 4096, "",
	    "comma-separated functions to prune" },
	[QUERY_PATH] = { "path", QUERY_TYPE_PATH, NULL, 0, 0, "",
	    "call node path: function ids from the root" },
	[QUERY_FUNC] = { "func", QUERY_TYPE_STRING, NULL, 0, 4096, "",
	    "function id or exact name" },
	[QUERY_MODULE] = { "module", QUERY_TYPE_STRING, NULL, 0, 4096, "",
	    "module name" },
	[QUERY_CLIQUE] = { "clique", QUERY_TYPE_INT, NULL, 0, UINT32_MAX,
	    "0", "clique id" },
	[QUERY_FIND] = { "find", QUERY_TYPE_STRING, NULL, 0, 1024, "",
	    "functions to search for: a substring or a regex" },
	[QUERY_BY] = { "by", QUERY_TYPE_ENUM, "func|site|module|clique", 0,
	    0, "func", "grouping of callers" },
	[QUERY_METRIC] = { "metric", QUERY_TYPE_STRING, NULL, 0, 256, "",
	    "metric name (default: the first)" },
	[QUERY_SORT] = { "sort", QUERY_TYPE_ENUM,
	    "total|self|name|calls|delta|ratio", 0, 0, "total",
	    "sort column" },
	[QUERY_LIMIT] = { "limit", QUERY_TYPE_INT, NULL, 1, 1000000, "50",
	    "rows shown" },
	[QUERY_FROM] = { "from", QUERY_TYPE_INT, NULL, 0, UINT32_MAX, "0",
	    "first row shown (paging through long lists)" },
	[QUERY_MIN] = { "min", QUERY_TYPE_NUMBER, NULL, 0, 100, "0",
	    "hide rows below this percent of the total" },
	[QUERY_DEPTH] = { "depth", QUERY_TYPE_INT, NULL, 1, 100000, "3",
	    "tree levels shown" },
	[QUERY_BUDGET] = { "budget", QUERY_TYPE_INT, NULL, 1, 1000000,
	    "200", "most tree nodes shown" },
	[QUERY_OPEN] = { "open", QUERY_TYPE_STRING, NULL, 0, 16384, "",
	    "tree paths to expand, separated by '~'" },
	[QUERY_CLOSE] = { "close", QUERY_TYPE_STRING, NULL, 0, 16384, "",
	    "tree paths to collapse, separated by '~'" },
	[QUERY_FIELDS] = { "fields", QUERY_TYPE_STRING, NULL, 0, 256, "",
	    "metrics shown as columns, comma-separated, or all "
	    "(default: the metric= one)" },
	[QUERY_UNITS] = { "units", QUERY_TYPE_ENUM, "raw|seconds", 0, 0,
	    "raw", "ticks as counted, or seconds where a rate is known" },
	[QUERY_PCT] = { "pct", QUERY_TYPE_BOOL, NULL, 0, 1, "1",
	    "show percentages of the total" },
	[QUERY_AVG] = { "avg", QUERY_TYPE_BOOL, NULL, 0, 1, "0",
	    "show per-call averages" },
	[QUERY_NORMALIZE] = { "normalize", QUERY_TYPE_BOOL, NULL, 0, 1, "0",
	    "scale the base profile to the same total" },
	[QUERY_STYLE] = { "style", QUERY_TYPE_ENUM, "flame|icicle|chart", 0,
	    0, "flame", "flame graph style" },
	[QUERY_TITLE] = { "title", QUERY_TYPE_STRING, NULL, 0, 256, "",
	    "flame graph title" },
	[QUERY_WIDTH] = { "width", QUERY_TYPE_INT, NULL, 100, 100000, "1200",
	    "flame graph width in pixels" },
	[QUERY_MINWIDTH] = { "minwidth", QUERY_TYPE_NUMBER, NULL, 0, 100000,
	    "0.1", "omit flame graph frames narrower than this (pixels)" },
	[QUERY_MAXDEPTH] = { "maxdepth", QUERY_TYPE_INT, NULL, 0, 1000000,
	    "0", "cut stacks deeper than this (0: no limit)" },
	[QUERY_PALETTE] = { "palette", QUERY_TYPE_ENUM,
	    "hot|module|mem|blue|green", 0, 0, "hot", "flame graph colours" },
	[QUERY_COUNTNAME] = { "countname", QUERY_TYPE_STRING, NULL, 0, 64,
	    "", "name of the unit in flame graph tooltips" },
	[QUERY_ORDER] = { "order", QUERY_TYPE_ENUM, "name|time", 0, 0, "name",
	    "folded export order" },
	[QUERY_FORMAT] = { "format", QUERY_TYPE_ENUM,
	    "html|json|text|svg|folded|callgrind|pprof|speedscope", 0, 0,
	    "html", "output format" },
	[QUERY_MODULES] = { "modules", QUERY_TYPE_BOOL, NULL, 0, 1, "1",
	    "folded export: frames as module`name (0: the name alone)" },
};

static int	query_check(enum query_key, const char *, struct query *,
		    char **);
static int	query_enum_has(const char *, const char *);
static int	query_edit_values(const struct query *,
		    const struct query_edit *, size_t, const char **);
static size_t	query_encoded_len(const char *const *, int, int);
static char	*query_encode(char *, const char *const *, int, int);
static char	*query_pct(char *, const char *);

/* Description of a key. */
const struct query_keyinfo *
query_keyinfo(enum query_key k)
{
	return ((unsigned)k < QUERY_NKEYS ? &query_keys[k] : NULL);
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

/* An empty query: every key at its default. */
struct query *
query_create(void)
{
	return (calloc(1, sizeof(struct query)));
}

/* Free a query. */
void
query_free(struct query *q)
{
	int	 k;

	if (q == NULL)
		return;
	for (k = 0; k < QUERY_NKEYS; k++)
		free(q->value[k]);
	free(q->path);
	free(q);
}

/* A deep copy; NULL if out of memory. */
struct query *
query_copy(const struct query *q)
{
	struct query	*c;
	int		 k;

	if ((c = query_create()) == NULL)
		return (NULL);
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (q->value[k] != NULL &&
		    (c->value[k] = strdup(q->value[k])) == NULL)
			goto fail;
	}
	if (q->npath > 0) {
		if ((c->path = malloc(q->npath * sizeof *c->path)) == NULL)
			goto fail;
		memcpy(c->path, q->path, q->npath * sizeof *c->path);
		c->npath = q->npath;
	}
	return (c);
fail:
	query_free(c);
	return (NULL);
}

static int
query_enum_has(const char *list, const char *v)
{
	size_t	 n = strlen(v);
	const char *p = list, *bar;

	for (;;) {
		bar = strchr(p, '|');
		if ((size_t)(bar ? bar - p : (ptrdiff_t)strlen(p)) == n &&
		    strncmp(p, v, n) == 0)
			return (1);
		if (bar == NULL)
			return (0);
		p = bar + 1;
	}
}

/* Validate v for key k; a path is parsed into q. */
static int
query_check(enum query_key k, const char *v, struct query *q, char **cause)
{
	const struct query_keyinfo *ki = &query_keys[k];
	char		*end;
	long long	 ll;
	double		 d;
	uint32_t	*path = NULL;
	size_t		 n = 0;
	const char	*s;

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
		if ((k == QUERY_RANGE || k == QUERY_BASE_RANGE) && *v != '\0' &&
		    query_range(v, NULL, NULL) == -1) {
			cause_set(cause, "%s: must be two numbers A,B of "
			    "seconds, A before B", ki->name);
			return (-1);
		}
		/* Repeated values are joined by newlines: none inside. */
		if (ki->repeat && (*v == '\n' || strstr(v, "\n\n") != NULL ||
		    (*v != '\0' && v[strlen(v) - 1] == '\n'))) {
			cause_set(cause, "%s: an empty value", ki->name);
			return (-1);
		}
		return (0);
	case QUERY_TYPE_ENUM:
		if (!query_enum_has(ki->values, v)) {
			cause_set(cause, "%s: must be one of %s", ki->name,
			    ki->values);
			return (-1);
		}
		return (0);
	case QUERY_TYPE_BOOL:
		if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
			cause_set(cause, "%s: must be 0 or 1", ki->name);
			return (-1);
		}
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
		return (0);
	case QUERY_TYPE_NUMBER:
		errno = 0;
		if (*v == '\0' || v[strspn(v, "0123456789.")] != '\0')
			d = -1, errno = EINVAL;
		else
			d = strtod(v, &end);
		if (errno != 0 || *end != '\0' || !isfinite(d) ||
		    d < ki->min || d > ki->max) {
			cause_set(cause, "%s: must be a number from %lld to "
			    "%lld", ki->name, (long long)ki->min,
			    (long long)ki->max);
			return (-1);
		}
		return (0);
	case QUERY_TYPE_PATH:
		if (*v != '\0') {
			for (s = v, n = 1; *s != '\0'; s++)
				n += *s == ',';
			if (n > QUERY_MAX_PATH) {
				cause_set(cause, "%s: more than %d ids",
				    ki->name, QUERY_MAX_PATH);
				return (-1);
			}
			if ((path = calloc(n, sizeof *path)) == NULL) {
				cause_set(cause, "out of memory");
				return (-1);
			}
			for (s = v, n = 0; *s != '\0'; n++) {
				errno = 0;
				if (*s < '0' || *s > '9')
					goto badpath;
				ll = strtoll(s, &end, 10);
				if (errno != 0 || ll < 0 || ll >= UINT32_MAX ||
				    (*end != ',' && *end != '\0') ||
				    (*end == ',' && end[1] == '\0'))
					goto badpath;
				path[n] = (uint32_t)ll;
				s = *end == ',' ? end + 1 : end;
			}
		}
		free(q->path);
		q->path = path;
		q->npath = n;
		return (0);
	}
	return (0);
badpath:
	free(path);
	cause_set(cause, "%s: must be function ids separated by commas",
	    ki->name);
	return (-1);
}

/* Set key k to v after validating it. */
int
query_set(struct query *q, enum query_key k, const char *v, char **cause)
{
	char	*c;

	if ((unsigned)k >= QUERY_NKEYS) {
		cause_set(cause, "bad key");
		return (-1);
	}
	if (query_check(k, v, q, cause) == -1)
		return (-1);
	if ((c = strdup(v)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	free(q->value[k]);
	q->value[k] = c;
	return (0);
}

/* Set path= from an array of function ids. */
int
query_set_path(struct query *q, const uint32_t *path, size_t n)
{
	char	*s;
	int	 r;

	if (n == 0) {
		query_unset(q, QUERY_PATH);
		return (0);
	}
	if ((s = query_path_format(path, n)) == NULL)
		return (-1);
	r = query_set(q, QUERY_PATH, s, NULL);
	free(s);
	return (r);
}

/* Remove key k (back to its default). */
void
query_unset(struct query *q, enum query_key k)
{
	if ((unsigned)k >= QUERY_NKEYS)
		return;
	free(q->value[k]);
	q->value[k] = NULL;
	if (k == QUERY_PATH) {
		free(q->path);
		q->path = NULL;
		q->npath = 0;
	}
}

/* Is key k given (and not equal to its default)? */
int
query_isset(const struct query *q, enum query_key k)
{
	return (q->value[k] != NULL &&
	    strcmp(q->value[k], query_keys[k].def) != 0);
}

/* The value of key k, or its default. */
const char *
query_str(const struct query *q, enum query_key k)
{
	return (q->value[k] != NULL ? q->value[k] : query_keys[k].def);
}

/* The value of an INT or BOOL key. */
int64_t
query_int(const struct query *q, enum query_key k)
{
	return (strtoll(query_str(q, k), NULL, 10));
}

/* The value of a NUMBER key. */
double
query_number(const struct query *q, enum query_key k)
{
	return (strtod(query_str(q, k), NULL));
}

/*
 * A range= value "A,B": two decimal numbers, 0 <= A < B. 0 with a and b
 * set (either may be NULL), or -1.
 */
int
query_range(const char *v, double *a, double *b)
{
	const char	*comma = strchr(v, ',');
	char		*end;
	double		 x, y;

	if (comma == NULL || comma == v || comma[1] == '\0' ||
	    strspn(v, "0123456789.") != (size_t)(comma - v) ||
	    comma[1 + strspn(comma + 1, "0123456789.")] != '\0')
		return (-1);
	errno = 0;
	x = strtod(v, &end);
	if (errno != 0 || end != comma || !isfinite(x))
		return (-1);
	y = strtod(comma + 1, &end);
	if (errno != 0 || *end != '\0' || !isfinite(y) || !(x < y))
		return (-1);
	if (a != NULL)
		*a = x;
	if (b != NULL)
		*b = y;
	return (0);
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
	static const char hex[] = "0123456789ABCDEF";
	unsigned char	 c;

	for (; (c = *s) != '\0'; s++) {
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
		if (q->value[k] != NULL && !query_keys[k].repeat) {
			cause_set(&why, "key given twice: %s", key);
			goto fail;
		}
		if (q->value[k] != NULL) {
			char	*joined;

			if (*val == '\0' || strchr(val, '\n') != NULL ||
			    asprintf(&joined, "%s\n%s", q->value[k], val) ==
			    -1) {
				cause_set(&why, "%s: an empty value or a "
				    "newline", key);
				goto fail;
			}
			free(val);
			val = joined;
		}
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
 * The canonical query string of q: keys in table order, defaults left
 * out, values form-urlencoded. Caller frees; NULL if out of memory.
 */
char *
query_format(const struct query *q)
{
	return (query_format_edit(q, NULL, 0));
}

/*
 * query_format() of q changed by the edits ed[0..ned): a NULL value
 * unsets its key, a later edit of a key wins. q is not copied: a page
 * makes hundreds of links, each differing from its query in a key or
 * two. Edited values are validated as query_set() does. Caller frees;
 * NULL if a value is bad or out of memory.
 */
char *
query_format_edit(const struct query *q, const struct query_edit *ed,
    size_t ned)
{
	const char	*v[QUERY_NKEYS];
	size_t		 len;
	char		*buf;

	if (query_edit_values(q, ed, ned, v) == -1)
		return (NULL);
	len = query_encoded_len(v, 0, QUERY_NKEYS);
	if ((buf = malloc(len + 1)) == NULL)
		return (NULL);
	*query_encode(buf, v, 0, QUERY_NKEYS) = '\0';
	return (buf);
}

/*
 * The effective values of q changed by ed[0..ned) into v, NULL where a
 * key is absent or has its default; -1 if an edited value is bad.
 */
static int
query_edit_values(const struct query *q, const struct query_edit *ed,
    size_t ned, const char **v)
{
	struct query	 scratch;
	size_t		 i;
	int		 k;

	memcpy(v, q->value, QUERY_NKEYS * sizeof *v);
	memset(&scratch, 0, sizeof scratch);
	for (i = 0; i < ned; i++) {
		k = ed[i].key;
		if ((unsigned)k >= QUERY_NKEYS || (ed[i].value != NULL &&
		    query_check(k, ed[i].value, &scratch, NULL) == -1)) {
			free(scratch.path);
			return (-1);
		}
		v[k] = ed[i].value;
	}
	free(scratch.path);
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (v[k] != NULL && strcmp(v[k], query_keys[k].def) == 0)
			v[k] = NULL;
	}
	return (0);
}

/* The most bytes the pairs of keys [from, to) of v encode to. */
static size_t
query_encoded_len(const char *const *v, int from, int to)
{
	size_t	 len = 0;
	int	 k;

	const char	*s;

	for (k = from; k < to; k++) {
		if (v[k] == NULL)
			continue;
		len += 2 + strlen(query_keys[k].name) + 3 * strlen(v[k]);
		/* A repeated key: the key again for each newline. */
		for (s = v[k]; query_keys[k].repeat &&
		    (s = strchr(s, '\n')) != NULL; s++)
			len += 2 + strlen(query_keys[k].name);
	}
	return (len);
}

/*
 * Write the pairs of keys [from, to) of v at o, '&' between them (not
 * before the first); returns the end.
 */
static char *
query_encode(char *o, const char *const *v, int from, int to)
{
	const char	*s, *val, *nl;
	char		*start = o, piece[4097];
	int		 k;

	for (k = from; k < to; k++) {
		if (v[k] == NULL)
			continue;
		for (val = v[k];; val = nl + 1) {
			nl = query_keys[k].repeat ? strchr(val, '\n') : NULL;
			if (o != start)
				*o++ = '&';
			for (s = query_keys[k].name; *s != '\0'; s++)
				*o++ = *s;
			*o++ = '=';
			if (nl == NULL) {
				o = query_pct(o, val);
				break;
			}
			/* A piece is shorter than its whole value. */
			snprintf(piece, sizeof piece, "%.*s", (int)(nl - val),
			    val);
			o = query_pct(o, piece);
		}
	}
	return (o);
}

/*
 * A template of query_format_edit(q, ed, ned) whose keys key .. key + n
 * - 1 are left to query_tmpl_fill(). -1 if a value is bad or out of
 * memory; query_tmpl_clear() frees it either way.
 */
int
query_tmpl_init(struct query_tmpl *t, const struct query *q,
    const struct query_edit *ed, size_t ned, int key, int n)
{
	const char	*v[QUERY_NKEYS];

	memset(t, 0, sizeof *t);
	if (key < 0 || n < 1 || key + n > QUERY_NKEYS ||
	    query_edit_values(q, ed, ned, v) == -1)
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
 * The link of a template with its keys set to values[0..n) (NULL: the
 * key absent): what query_format_edit() would make, the values
 * validated as it does. Caller frees; NULL if a value is bad or out of
 * memory.
 */
char *
query_tmpl_fill(const struct query_tmpl *t, const char *const *values)
{
	const char	*v[QUERY_NKEYS];
	struct query	 scratch;
	size_t		 npre = strlen(t->pre), npost = strlen(t->post);
	size_t		 len;
	char		*buf, *o, *mid;
	int		 i, k;

	memset(&scratch, 0, sizeof scratch);
	for (i = 0; i < t->n; i++) {
		k = t->key + i;
		v[k] = values[i];
		if (v[k] == NULL)
			continue;
		if (query_check(k, v[k], &scratch, NULL) == -1) {
			free(scratch.path);
			return (NULL);
		}
		if (strcmp(v[k], query_keys[k].def) == 0)
			v[k] = NULL;
	}
	free(scratch.path);
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
	int	 k;

	for (k = 0; k < QUERY_NKEYS; k++) {
		if (strcmp(query_str(a, k), query_str(b, k)) != 0)
			return (0);
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

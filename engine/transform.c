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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cause.h"
#include "pattern.h"
#include "outbuf.h"
#include "profile.h"
#include "query.h"
#include "transform.h"

/*
 * The notation of the transforms (transform.h): the filters of a query
 * and its t= stack parsed into a struct transform_stack, and printed
 * back as t= items, labels for people and JSON. Each kind's key, name,
 * argument and label are in one table, which the other transform files
 * read through transform_kind_*().
 */

static const struct {
	const char		*key;	/* t= key, NULL for filters */
	const char		*name;
	enum transform_arg	 arg;
	enum query_key		 qkey;	/* filters: their key */
	const char		*label;	/* for people, before the function */
} transform_kinds[TRANSFORM_NKINDS] = {
	[TRANSFORM_FOCUS_SUBTREE] = { "fs", "focus-subtree",
	    TRANSFORM_ARG_PATH, QUERY_T, "Focus on subtree" },
	[TRANSFORM_FOCUS_FUNCTION] = { "ff", "focus-function",
	    TRANSFORM_ARG_FUNC, QUERY_T, "Focus on function" },
	[TRANSFORM_MERGE_CALL_NODE] = { "mcn", "merge-call-node",
	    TRANSFORM_ARG_PATH, QUERY_T, "Merge node" },
	[TRANSFORM_MERGE_SUBTREE] = { "ms", "merge-subtree",
	    TRANSFORM_ARG_PATH, QUERY_T, "Merge subtree" },
	[TRANSFORM_MERGE_FUNCTION] = { "mf", "merge-function",
	    TRANSFORM_ARG_FUNC, QUERY_T, "Merge function" },
	[TRANSFORM_DROP_FUNCTION] = { "df", "drop-function",
	    TRANSFORM_ARG_FUNC, QUERY_T, "Drop samples with" },
	[TRANSFORM_COLLAPSE_SUBTREE] = { "cfs", "collapse-function-subtree",
	    TRANSFORM_ARG_FUNC, QUERY_T, "Collapse" },
	[TRANSFORM_COLLAPSE_DIRECT_REC] = { "drec",
	    "collapse-direct-recursion", TRANSFORM_ARG_OPTFUNC, QUERY_T,
	    "Collapse direct recursion" },
	[TRANSFORM_COLLAPSE_REC] = { "rec", "collapse-recursion",
	    TRANSFORM_ARG_OPTFUNC, QUERY_T, "Collapse recursion" },
	[TRANSFORM_COLLAPSE_MODULE] = { "cm", "collapse-module",
	    TRANSFORM_ARG_FUNC, QUERY_T, "Collapse module" },
	[TRANSFORM_INVERT] = { "inv", "invert", TRANSFORM_ARG_NONE, QUERY_T,
	    "Inverted" },
	[TRANSFORM_FOCUS_RE] = { NULL, "focus", TRANSFORM_ARG_FILTER,
	    QUERY_FOCUS, NULL },
	[TRANSFORM_IGNORE_RE] = { NULL, "ignore", TRANSFORM_ARG_FILTER,
	    QUERY_IGNORE, NULL },
	[TRANSFORM_HIDE_RE] = { NULL, "hide", TRANSFORM_ARG_FILTER,
	    QUERY_HIDE, NULL },
	[TRANSFORM_SHOW_RE] = { NULL, "show", TRANSFORM_ARG_FILTER,
	    QUERY_SHOW, NULL },
	[TRANSFORM_PRUNE] = { NULL, "prune", TRANSFORM_ARG_FILTER,
	    QUERY_MIN_TICKS, NULL },
	[TRANSFORM_EXCLUDE] = { NULL, "exclude", TRANSFORM_ARG_FILTER,
	    QUERY_EXCLUDE, NULL },
};

static int	transform_number(const char *, size_t, uint32_t *);
static int	transform_parse_path(const char *, uint32_t **, size_t *);
static int	transform_regex(struct transform *, const char *,
		    const char *, char **);
static struct transform *transform_stack_add(struct transform_stack *,
		    char **);
static const char *transform_fname(const struct profile *, uint32_t, char *,
		    size_t);

/* The name of a kind ("merge-call-node"). */
const char *
transform_kind_name(enum transform_kind k)
{
	return ((unsigned)k < TRANSFORM_NKINDS ? transform_kinds[k].name :
	    "?");
}

/* The t= key of a kind ("mcn"); NULL for a filter. */
const char *
transform_kind_key(enum transform_kind k)
{
	return ((unsigned)k < TRANSFORM_NKINDS ? transform_kinds[k].key :
	    NULL);
}

/* What a kind's t= item takes after its '-'. */
enum transform_arg
transform_kind_arg(enum transform_kind k)
{
	return ((unsigned)k < TRANSFORM_NKINDS ? transform_kinds[k].arg :
	    TRANSFORM_ARG_NONE);
}

/* The query key a kind comes from: QUERY_T, or a filter's own. */
enum query_key
transform_kind_query_key(enum transform_kind k)
{
	return ((unsigned)k < TRANSFORM_NKINDS ? transform_kinds[k].qkey :
	    QUERY_T);
}

/* A decimal id below UINT32_MAX from s[0..n). */
static int
transform_number(const char *s, size_t n, uint32_t *v)
{
	uint64_t	 x = 0;
	size_t		 i;

	if (n == 0 || n > 10)
		return (-1);
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x >= UINT32_MAX)
		return (-1);
	*v = (uint32_t)x;
	return (0);
}

/* "3,7,9" into a new array; -1 if malformed or too long. */
static int
transform_parse_path(const char *s, uint32_t **path, size_t *n)
{
	const char	*comma;
	size_t		 cap = 1, k = 0;
	const char	*p;

	for (p = s; *p != '\0'; p++)
		cap += *p == ',';
	if (*s == '\0' || cap > QUERY_MAX_PATH)
		return (-1);
	if ((*path = calloc(cap, sizeof **path)) == NULL)
		return (-1);
	for (p = s;; p = comma + 1) {
		comma = strchr(p, ',');
		if (transform_number(p, comma ? (size_t)(comma - p) :
		    strlen(p), &(*path)[k]) == -1) {
			free(*path);
			*path = NULL;
			return (-1);
		}
		k++;
		if (comma == NULL)
			break;
	}
	*n = k;
	return (0);
}

/* Free what a transform holds. */
void
transform_clear(struct transform *t)
{
	free(t->path);
	free(t->arg);
	pattern_free(t->re);
	memset(t, 0, sizeof *t);
}

/* Parse one t= item ("mcn-1,2,3") into *t. */
int
transform_parse_item(const char *s, struct transform *t, char **cause)
{
	const char	*dash = strchr(s, '-'), *arg;
	size_t		 klen = dash ? (size_t)(dash - s) : strlen(s);
	int		 k;

	memset(t, 0, sizeof *t);
	t->func = PROFILE_NONE;
	for (k = 0; k < TRANSFORM_NKINDS; k++) {
		if (transform_kinds[k].key != NULL &&
		    strlen(transform_kinds[k].key) == klen &&
		    strncmp(transform_kinds[k].key, s, klen) == 0)
			break;
	}
	if (k == TRANSFORM_NKINDS) {
		cause_set(cause, "t: unknown transform \"%.*s\"", (int)klen, s);
		return (-1);
	}
	t->kind = k;
	arg = dash ? dash + 1 : NULL;
	switch (transform_kinds[k].arg) {
	case TRANSFORM_ARG_NONE:
		if (arg != NULL)
			goto badarg;
		return (0);
	case TRANSFORM_ARG_OPTFUNC:
		if (arg == NULL)
			return (0);
		/* FALLTHROUGH */
	case TRANSFORM_ARG_FUNC:
		if (arg == NULL ||
		    transform_number(arg, strlen(arg), &t->func) == -1)
			goto badarg;
		if (t->func == PROFILE_ROOT) {
			cause_set(cause, "t: %s: function 0 is the root",
			    transform_kinds[k].key);
			return (-1);
		}
		return (0);
	case TRANSFORM_ARG_PATH:
		if (arg == NULL ||
		    transform_parse_path(arg, &t->path, &t->npath) == -1)
			goto badarg;
		return (0);
	case TRANSFORM_ARG_FILTER:
		break;
	}
badarg:
	cause_set(cause, "t: %s: %s", transform_kinds[k].key,
	    transform_kinds[k].arg == TRANSFORM_ARG_PATH ?
	    "needs a call node path (function ids separated by commas)" :
	    transform_kinds[k].arg == TRANSFORM_ARG_NONE ? "takes no argument" :
	    "needs a function id");
	return (-1);
}

/* Compile a filter's regex (pattern.h); -1 with *cause if refused. */
static int
transform_regex(struct transform *t, const char *key, const char *s,
    char **cause)
{
	char	*why = NULL;

	if ((t->re = pattern_create(s, &why)) == NULL) {
		cause_set(cause, "%s: %s", key, why ? why : "out of memory");
		free(why);
		return (-1);
	}
	return (0);
}

/* Append an empty transform to a stack; NULL if full. */
static struct transform *
transform_stack_add(struct transform_stack *s, char **cause)
{
	struct transform	*t;

	if (s->n == TRANSFORM_MAX) {
		cause_set(cause, "more than %d transforms and filters",
		    TRANSFORM_MAX);
		return (NULL);
	}
	t = &s->v[s->n++];
	memset(t, 0, sizeof *t);
	t->func = PROFILE_NONE;
	return (t);
}

/*
 * The filters and the t= stack of a query. NULL with *status (400) and
 * *cause on a malformed stack or a bad regex.
 */
struct transform_stack *
transform_parse(const struct query *q, int *status, char **cause)
{
	/* The regex filters, in the order of their kinds. */
	const char		*res[] = { q->focus, q->ignore, q->hide,
				    q->show };
	struct transform_stack	*s;
	struct transform	*t;
	const char		*v, *tilde;
	char			*item;
	size_t			 i;
	int			 r;

	*status = 400;
	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (s->v = calloc(TRANSFORM_MAX, sizeof *s->v)) == NULL) {
		free(s);
		*status = 500;
		cause_set(cause, "out of memory");
		return (NULL);
	}
	for (i = 0; i < sizeof res / sizeof res[0]; i++) {
		if (*(v = res[i]) == '\0')
			continue;
		if ((t = transform_stack_add(s, cause)) == NULL)
			goto fail;
		t->kind = TRANSFORM_FOCUS_RE + i;
		if ((t->arg = strdup(v)) == NULL)
			goto nomem;
		if (transform_regex(t, query_keyinfo(transform_kinds[t->kind].
		    qkey)->name, v, cause) == -1)
			goto fail;
	}
	if (q->min_ticks > 0 || q->min_words > 0) {
		if ((t = transform_stack_add(s, cause)) == NULL)
			goto fail;
		t->kind = TRANSFORM_PRUNE;
		t->min_ticks = q->min_ticks;
		t->min_words = q->min_words;
	}
	if (*(v = q->exclude) != '\0') {
		if ((t = transform_stack_add(s, cause)) == NULL)
			goto fail;
		t->kind = TRANSFORM_EXCLUDE;
		if ((t->arg = strdup(v)) == NULL)
			goto nomem;
	}
	s->nfilters = s->n;

	v = q->t;
	if (*v == '\0')
		return (s);
	tilde = strchr(v, '~');
	if (strncmp(v, "1", tilde ? (size_t)(tilde - v) : strlen(v)) != 0 ||
	    (tilde ? tilde - v : (ptrdiff_t)strlen(v)) != 1) {
		cause_set(cause, "t: must start with the syntax version, "
		    "%d (t=%d~...)", TRANSFORM_VERSION, TRANSFORM_VERSION);
		goto fail;
	}
	while (tilde != NULL) {
		v = tilde + 1;
		tilde = strchr(v, '~');
		if ((item = strndup(v, tilde ? (size_t)(tilde - v) :
		    strlen(v))) == NULL)
			goto nomem;
		if ((t = transform_stack_add(s, cause)) == NULL) {
			free(item);
			goto fail;
		}
		r = transform_parse_item(item, t, cause);
		free(item);
		if (r == -1) {
			s->n--;
			goto fail;
		}
		/* An inversion may need to know what the answer shows. */
		if (t->kind == TRANSFORM_INVERT && s->want == NULL &&
		    (s->want = transform_want_create(q)) == NULL)
			goto nomem;
	}
	return (s);
nomem:
	*status = 500;
	cause_set(cause, "out of memory");
fail:
	transform_stack_free(s);
	return (NULL);
}

/* Free a stack. */
void
transform_stack_free(struct transform_stack *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++)
		transform_clear(&s->v[i]);
	transform_want_free(s->want);
	free(s->v);
	free(s);
}

/* The t= item of a transform ("mcn-1,2"); NULL for a filter. */
char *
transform_item(const struct transform *t)
{
	char	*path, *s;

	if (transform_kinds[t->kind].key == NULL)
		return (NULL);
	switch (transform_kinds[t->kind].arg) {
	case TRANSFORM_ARG_PATH:
		if ((path = query_path_format(t->path, t->npath)) == NULL)
			return (NULL);
		if (asprintf(&s, "%s-%s", transform_kinds[t->kind].key,
		    path) == -1)
			s = NULL;
		free(path);
		return (s);
	case TRANSFORM_ARG_FUNC:
	case TRANSFORM_ARG_OPTFUNC:
		if (t->func != PROFILE_NONE) {
			if (asprintf(&s, "%s-%u", transform_kinds[t->kind].key,
			    t->func) == -1)
				s = NULL;
			return (s);
		}
		/* FALLTHROUGH */
	default:
		return (strdup(transform_kinds[t->kind].key));
	}
}

/* The t= value of the first k items of the stack's t= part. */
char *
transform_stack_format(const struct transform_stack *s, size_t k)
{
	struct outbuf	 ob;
	char		*item;
	size_t		 len, i;

	outbuf_init(&ob);
	outbuf_i64(&ob, TRANSFORM_VERSION);
	for (i = s->nfilters; i < s->nfilters + k && i < s->n; i++) {
		if ((item = transform_item(&s->v[i])) == NULL) {
			outbuf_clear(&ob);
			return (NULL);
		}
		outbuf_putc(&ob, '~');
		outbuf_puts(&ob, item);
		free(item);
	}
	return (outbuf_take(&ob, &len));
}

/* A function's name for a label, "#id" if the profile has no such id. */
static const char *
transform_fname(const struct profile *p, uint32_t f, char *buf, size_t len)
{
	if (f < p->nfuncs)
		return (profile_func_name(p, f));
	snprintf(buf, len, "#%u", f);
	return (buf);
}

/* What a transform does, for people ("Merge node: C"); caller frees. */
char *
transform_label(const struct profile *p, const struct transform *t)
{
	char		 buf[32];
	const char	*name = "";
	char		*s = NULL;
	int		 r = -1;

	if (transform_kinds[t->kind].arg == TRANSFORM_ARG_PATH && t->npath > 0)
		name = transform_fname(p, t->path[t->npath - 1], buf,
		    sizeof buf);
	else if (t->func != PROFILE_NONE)
		name = transform_fname(p, t->func, buf, sizeof buf);
	switch (t->kind) {
	case TRANSFORM_COLLAPSE_DIRECT_REC:
	case TRANSFORM_COLLAPSE_REC:
		if (t->func == PROFILE_NONE)
			name = "all functions";
		break;
	case TRANSFORM_COLLAPSE_MODULE:
		if (t->func < p->nfuncs)
			name = profile_func_module(p, t->func);
		break;
	case TRANSFORM_INVERT:
		return (strdup(transform_kinds[t->kind].label));
	case TRANSFORM_FOCUS_RE:
	case TRANSFORM_IGNORE_RE:
	case TRANSFORM_HIDE_RE:
	case TRANSFORM_SHOW_RE:
	case TRANSFORM_EXCLUDE:
		r = asprintf(&s, "%s=%s", transform_kinds[t->kind].name,
		    t->arg ? t->arg : "");
		return (r == -1 ? NULL : s);
	case TRANSFORM_PRUNE:
		if (t->min_ticks > 0 && t->min_words > 0)
			r = asprintf(&s, "min_ticks=%lld min_words=%lld",
			    (long long)t->min_ticks, (long long)t->min_words);
		else if (t->min_ticks > 0)
			r = asprintf(&s, "min_ticks=%lld",
			    (long long)t->min_ticks);
		else
			r = asprintf(&s, "min_words=%lld",
			    (long long)t->min_words);
		return (r == -1 ? NULL : s);
	default:
		break;
	}
	if ((unsigned)t->kind >= TRANSFORM_NKINDS)
		return (NULL);
	r = asprintf(&s, "%s: %s", transform_kinds[t->kind].label, name);
	return (r == -1 ? NULL : s);
}

/* The stack as JSON, for every answer made under transforms. */
json_t *
transform_json(const struct profile *p, const struct transform_stack *s)
{
	json_t	*a, *o;
	char	*item, *label;
	size_t	 i;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < s->n; i++) {
		item = transform_item(&s->v[i]);
		label = transform_label(p, &s->v[i]);
		o = json_pack("{s:s, s:s, s:s?, s:s?}",
		    "kind", transform_kind_name(s->v[i].kind),
		    "key", query_keyinfo(transform_kinds[s->v[i].kind].qkey)->
		    name, "item", item, "label", label);
		free(item);
		free(label);
		if (o == NULL || json_array_append_new(a, o) == -1) {
			json_decref(a);
			return (NULL);
		}
	}
	return (a);
}

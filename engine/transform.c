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

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cause.h"
#include "cost.h"
#include "pattern.h"
#include "display.h"
#include "outbuf.h"
#include "profile.h"
#include "profile-builder.h"
#include "query.h"
#include "transform.h"

/*
 * Transforms and filters (see transform.h). Applying one transform takes
 * three passes over the input's nodes, which are numbered parents first:
 *
 * 1. forward: per node, whether its self value is kept (KEEP) and a
 *    transform-specific "inside" bit (IN: below the focused node, below a
 *    collapsed function, inside a pruned subtree, ...);
 * 2. backward: which nodes are live, i.e. have a kept sample site (a
 *    kept node with a value, or a kept leaf) at or below them, so that
 *    dropping samples removes the nodes that only led to them;
 * 3. forward: the output node of each live node, found or created with
 *    profile_builder_child() under its parent's output node, or the
 *    parent's own output node when the node is merged away; then each
 *    kept self value is added to its node's output node.
 *
 * Inverting walks each sample site's stack upwards instead. Every pass
 * is iterative: deep trees never deepen the C stack.
 */

#define F_KEEP	0x1
#define F_IN	0x2
#define F_LIVE	0x4

enum transform_arg {
	ARG_NONE,
	ARG_PATH,
	ARG_FUNC,
	ARG_OPTFUNC,
	ARG_FILTER
};

static const struct {
	const char		*key;	/* t= key, NULL for filters */
	const char		*name;
	enum transform_arg	 arg;
	enum query_key		 qkey;	/* filters: their key */
} transform_kinds[TRANSFORM_NKINDS] = {
	[TRANSFORM_FOCUS_SUBTREE] = { "fs", "focus-subtree", ARG_PATH,
	    QUERY_T },
	[TRANSFORM_FOCUS_FUNCTION] = { "ff", "focus-function", ARG_FUNC,
	    QUERY_T },
	[TRANSFORM_MERGE_CALL_NODE] = { "mcn", "merge-call-node", ARG_PATH,
	    QUERY_T },
	[TRANSFORM_MERGE_SUBTREE] = { "ms", "merge-subtree", ARG_PATH,
	    QUERY_T },
	[TRANSFORM_MERGE_FUNCTION] = { "mf", "merge-function", ARG_FUNC,
	    QUERY_T },
	[TRANSFORM_DROP_FUNCTION] = { "df", "drop-function", ARG_FUNC,
	    QUERY_T },
	[TRANSFORM_COLLAPSE_SUBTREE] = { "cfs", "collapse-function-subtree",
	    ARG_FUNC, QUERY_T },
	[TRANSFORM_COLLAPSE_DIRECT_REC] = { "drec",
	    "collapse-direct-recursion", ARG_OPTFUNC, QUERY_T },
	[TRANSFORM_COLLAPSE_REC] = { "rec", "collapse-recursion",
	    ARG_OPTFUNC, QUERY_T },
	[TRANSFORM_COLLAPSE_MODULE] = { "cm", "collapse-module", ARG_FUNC,
	    QUERY_T },
	[TRANSFORM_INVERT] = { "inv", "invert", ARG_NONE, QUERY_T },
	[TRANSFORM_FOCUS_RE] = { NULL, "focus", ARG_FILTER, QUERY_FOCUS },
	[TRANSFORM_IGNORE_RE] = { NULL, "ignore", ARG_FILTER, QUERY_IGNORE },
	[TRANSFORM_HIDE_RE] = { NULL, "hide", ARG_FILTER, QUERY_HIDE },
	[TRANSFORM_SHOW_RE] = { NULL, "show", ARG_FILTER, QUERY_SHOW },
	[TRANSFORM_PRUNE] = { NULL, "prune", ARG_FILTER, QUERY_MIN_TICKS },
	[TRANSFORM_EXCLUDE] = { NULL, "exclude", ARG_FILTER, QUERY_EXCLUDE },
};

/* One application of a transform. */
struct tf {
	const struct profile	*p;
	const struct transform	*t;
	struct profile_builder	*b;
	uint32_t		*out;		/* [nnodes] output node */
	uint8_t			*flag;		/* [nnodes] F_* */
	uint8_t			*match;		/* [nfuncs] regex, exclude */
	uint32_t		 target;	/* node of the path */
	uint32_t		 module;	/* cm: module string id */
	uint32_t		 pseudo;	/* cm: output function */
	int			 mticks, mwords;
	struct cost		*cost;
	int			 status;
	char			*cause;
};

static int	transform_number(const char *, size_t, uint32_t *);
static int	transform_parse_path(const char *, uint32_t **, size_t *);
static int	transform_regex(struct transform *, const char *,
		    const char *, char **);
static int	transform_exclude(const struct profile *,
		    const struct transform *, uint8_t *, char **);
static uint32_t	transform_resolve(const struct profile *, const uint32_t *,
		    size_t);
static int	transform_matches(const struct profile *,
		    const struct transform *, uint32_t, struct cost *,
		    char **);
static int	transform_metric(const struct profile *, const char *,
		    const char *, const char *);
static int	transform_prune_metrics(const struct profile *,
		    const struct transform *, int *, int *);
static int	transform_pruned(const struct profile *,
		    const struct transform *, uint32_t);
static struct transform *transform_stack_add(struct transform_stack *,
		    char **);
static int	tf_check(struct tf *);
static void	tf_flags(struct tf *);
static int	tf_nodes(struct tf *);
static int	tf_invert(struct tf *);
static int	tf_values(struct tf *);
static int	tf_samples(struct tf *);
static int	tf_charge(struct tf *, uint64_t);
static uint32_t	tf_child(struct tf *, uint32_t, uint32_t);
static int	tf_error(struct tf *, int, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static char	*transform_t_prefix(const struct transform_stack *, size_t);
static char	*transform_pop_link(const struct query *,
		    const struct transform_stack *, size_t);
static void	transform_actions(struct display *, const struct profile *,
		    const struct query *);
static void	transform_action(struct display *, struct display_block *,
		    const struct profile *, const struct query *,
		    const char *, const char *, ...)
		    __attribute__((__format__(__printf__, 6, 7)));

/* The name of a kind ("merge-call-node"). */
const char *
transform_kind_name(enum transform_kind k)
{
	return ((unsigned)k < TRANSFORM_NKINDS ? transform_kinds[k].name :
	    "?");
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
	case ARG_NONE:
		if (arg != NULL)
			goto badarg;
		return (0);
	case ARG_OPTFUNC:
		if (arg == NULL)
			return (0);
		/* FALLTHROUGH */
	case ARG_FUNC:
		if (arg == NULL ||
		    transform_number(arg, strlen(arg), &t->func) == -1)
			goto badarg;
		if (t->func == PROFILE_ROOT) {
			cause_set(cause, "t: %s: function 0 is the root",
			    transform_kinds[k].key);
			return (-1);
		}
		return (0);
	case ARG_PATH:
		if (arg == NULL ||
		    transform_parse_path(arg, &t->path, &t->npath) == -1)
			goto badarg;
		return (0);
	case ARG_FILTER:
		break;
	}
badarg:
	cause_set(cause, "t: %s: %s", transform_kinds[k].key,
	    transform_kinds[k].arg == ARG_PATH ? "needs a call node path "
	    "(function ids separated by commas)" :
	    transform_kinds[k].arg == ARG_NONE ? "takes no argument" :
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
	static const struct {
		enum query_key		 key;
		enum transform_kind	 kind;
	} res[] = {
		{ QUERY_FOCUS, TRANSFORM_FOCUS_RE },
		{ QUERY_IGNORE, TRANSFORM_IGNORE_RE },
		{ QUERY_HIDE, TRANSFORM_HIDE_RE },
		{ QUERY_SHOW, TRANSFORM_SHOW_RE },
	};
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
		if (!query_isset(q, res[i].key) ||
		    *(v = query_str(q, res[i].key)) == '\0')
			continue;
		if ((t = transform_stack_add(s, cause)) == NULL)
			goto fail;
		t->kind = res[i].kind;
		if ((t->arg = strdup(v)) == NULL)
			goto nomem;
		if (transform_regex(t, query_keyinfo(res[i].key)->name, v,
		    cause) == -1)
			goto fail;
	}
	if (query_int(q, QUERY_MIN_TICKS) > 0 ||
	    query_int(q, QUERY_MIN_WORDS) > 0) {
		if ((t = transform_stack_add(s, cause)) == NULL)
			goto fail;
		t->kind = TRANSFORM_PRUNE;
		t->min_ticks = query_int(q, QUERY_MIN_TICKS);
		t->min_words = query_int(q, QUERY_MIN_WORDS);
	}
	if (*(v = query_str(q, QUERY_EXCLUDE)) != '\0') {
		if ((t = transform_stack_add(s, cause)) == NULL)
			goto fail;
		t->kind = TRANSFORM_EXCLUDE;
		if ((t->arg = strdup(v)) == NULL)
			goto nomem;
	}
	s->nfilters = s->n;

	v = query_str(q, QUERY_T);
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
	case ARG_PATH:
		if ((path = query_path_format(t->path, t->npath)) == NULL)
			return (NULL);
		if (asprintf(&s, "%s-%s", transform_kinds[t->kind].key,
		    path) == -1)
			s = NULL;
		free(path);
		return (s);
	case ARG_FUNC:
	case ARG_OPTFUNC:
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

	if (transform_kinds[t->kind].arg == ARG_PATH && t->npath > 0)
		name = transform_fname(p, t->path[t->npath - 1], buf,
		    sizeof buf);
	else if (t->func != PROFILE_NONE)
		name = transform_fname(p, t->func, buf, sizeof buf);
	switch (t->kind) {
	case TRANSFORM_FOCUS_SUBTREE:
		r = asprintf(&s, "Focus on subtree: %s", name);
		break;
	case TRANSFORM_FOCUS_FUNCTION:
		r = asprintf(&s, "Focus on function: %s", name);
		break;
	case TRANSFORM_MERGE_CALL_NODE:
		r = asprintf(&s, "Merge node: %s", name);
		break;
	case TRANSFORM_MERGE_SUBTREE:
		r = asprintf(&s, "Merge subtree: %s", name);
		break;
	case TRANSFORM_MERGE_FUNCTION:
		r = asprintf(&s, "Merge function: %s", name);
		break;
	case TRANSFORM_DROP_FUNCTION:
		r = asprintf(&s, "Drop samples with: %s", name);
		break;
	case TRANSFORM_COLLAPSE_SUBTREE:
		r = asprintf(&s, "Collapse: %s", name);
		break;
	case TRANSFORM_COLLAPSE_DIRECT_REC:
		r = asprintf(&s, "Collapse direct recursion: %s",
		    t->func == PROFILE_NONE ? "all functions" : name);
		break;
	case TRANSFORM_COLLAPSE_REC:
		r = asprintf(&s, "Collapse recursion: %s",
		    t->func == PROFILE_NONE ? "all functions" : name);
		break;
	case TRANSFORM_COLLAPSE_MODULE:
		r = asprintf(&s, "Collapse module: %s", t->func < p->nfuncs ?
		    profile_func_module(p, t->func) : name);
		break;
	case TRANSFORM_INVERT:
		r = asprintf(&s, "Inverted");
		break;
	case TRANSFORM_FOCUS_RE:
	case TRANSFORM_IGNORE_RE:
	case TRANSFORM_HIDE_RE:
	case TRANSFORM_SHOW_RE:
	case TRANSFORM_EXCLUDE:
		r = asprintf(&s, "%s=%s", transform_kinds[t->kind].name,
		    t->arg ? t->arg : "");
		break;
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
		break;
	case TRANSFORM_NKINDS:
		break;
	}
	return (r == -1 ? NULL : s);
}

/* The node at the end of a path, or PROFILE_NONE. */
static uint32_t
transform_resolve(const struct profile *p, const uint32_t *path, size_t n)
{
	uint32_t	 node = PROFILE_ROOT;
	size_t		 i;

	for (i = 0; i < n && node != PROFILE_NONE; i++)
		node = profile_node_child(p, node, path[i]);
	return (node);
}

/*
 * Does a filter's regex match function f (name, module or file)? 1 or 0;
 * -1 with *cause if the match or the budget ran out.
 */
static int
transform_matches(const struct profile *p, const struct transform *t,
    uint32_t f, struct cost *c, char **cause)
{
	const char	*s;
	int		 r;

	s = profile_func_name(p, f);
	if ((r = pattern_match(t->re, s, strlen(s), c, cause)) != 0)
		return (r > 0 ? 1 : -1);
	if (*(s = profile_func_module(p, f)) != '\0' &&
	    (r = pattern_match(t->re, s, strlen(s), c, cause)) != 0)
		return (r > 0 ? 1 : -1);
	if (p->func_file[f] != 0 &&
	    *(s = profile_string(p, p->func_file[f])) != '\0' &&
	    (r = pattern_match(t->re, s, strlen(s), c, cause)) != 0)
		return (r > 0 ? 1 : -1);
	return (0);
}

/* Mark the functions of an exclude= list; -1 with *cause if one is unknown. */
static int
transform_exclude(const struct profile *p, const struct transform *t,
    uint8_t *match, char **cause)
{
	const char	*s = t->arg, *comma;
	char		*one;
	uint32_t	 f;

	while (*s != '\0') {
		comma = strchr(s, ',');
		if ((one = strndup(s, comma ? (size_t)(comma - s) :
		    strlen(s))) == NULL) {
			cause_set(cause, "out of memory");
			return (-1);
		}
		if (*one != '\0') {
			if ((f = profile_func_find(p, one)) == PROFILE_NONE) {
				cause_set(cause, "exclude: no function %s",
				    one);
				free(one);
				return (-1);
			}
			match[f] = 1;
		}
		free(one);
		s = comma ? comma + 1 : s + strlen(s);
	}
	return (0);
}

/*
 * The metric a threshold applies to: one named name, else one with unit
 * unit, else one named alt; -1 if none.
 */
static int
transform_metric(const struct profile *p, const char *name,
    const char *unit, const char *alt)
{
	uint32_t	 k;
	int		 m;

	if ((m = profile_metric_find(p, name)) != -1)
		return (m);
	for (k = 0; k < p->nmetrics; k++) {
		if (unit != NULL && strcmp(p->metrics[k].unit, unit) == 0)
			return ((int)k);
	}
	if (alt != NULL && (m = profile_metric_find(p, alt)) != -1)
		return (m);
	return (-1);
}

/*
 * The metrics of min_ticks (one named "ticks", else the first) and
 * min_words (words, else bytes); -1 for a threshold not given. Returns
 * -1 if min_words is given and the profile has neither.
 */
static int
transform_prune_metrics(const struct profile *p, const struct transform *t,
    int *mticks, int *mwords)
{
	*mticks = *mwords = -1;
	if (t->min_ticks > 0 &&
	    (*mticks = transform_metric(p, "ticks", NULL, NULL)) == -1)
		*mticks = 0;
	if (t->min_words > 0 &&
	    (*mwords = transform_metric(p, "words", "words", "alloc")) == -1 &&
	    (*mwords = transform_metric(p, "bytes", "bytes", NULL)) == -1)
		return (-1);
	return (0);
}

/* Is node n below a pruning threshold (Clean's --min-ticks/--min-words)? */
static int
transform_pruned(const struct profile *p, const struct transform *t,
    uint32_t n)
{
	int	 mt, mw;

	if (transform_prune_metrics(p, t, &mt, &mw) == -1)
		return (0);
	return ((mt >= 0 && p->metrics[mt].total[n] < t->min_ticks) ||
	    (mw >= 0 && p->metrics[mw].total[n] < t->min_words));
}

static int
tf_error(struct tf *x, int status, const char *fmt, ...)
{
	va_list	 ap;

	x->status = status;
	free(x->cause);
	x->cause = NULL;
	va_start(ap, fmt);
	cause_vset(&x->cause, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Count n node visits against the query's budget. */
static int
tf_charge(struct tf *x, uint64_t n)
{
	char	*why;

	if (cost_charge(x->cost, n) == 0)
		return (0);
	if ((why = cost_message(x->cost)) == NULL)
		return (tf_error(x, 500, "out of memory"));
	tf_error(x, 503, "%s", why);
	free(why);
	return (-1);
}

/* Find or create the output child of parent for f. */
static uint32_t
tf_child(struct tf *x, uint32_t parent, uint32_t f)
{
	uint32_t	 n;

	if (parent == PROFILE_NONE)
		return (PROFILE_NONE);
	if ((n = profile_builder_child(x->b, parent, f)) == PROFILE_NONE)
		tf_error(x, 503, "transformed profile too large: %s",
		    profile_builder_error(x->b));
	return (n);
}

/* Check the transform's arguments against the profile; set up lookups. */
static int
tf_check(struct tf *x)
{
	const struct profile	*p = x->p;
	const struct transform	*t = x->t;
	const char		*key = transform_kinds[t->kind].key;
	uint32_t		 f;
	char			*path, *why = NULL;
	int			 r;

	switch (transform_kinds[t->kind].arg) {
	case ARG_FUNC:
	case ARG_OPTFUNC:
		if (t->func != PROFILE_NONE && (t->func >= p->nfuncs ||
		    t->func == PROFILE_ROOT))
			return (tf_error(x, 400, "t: %s: no function %u", key,
			    t->func));
		break;
	case ARG_PATH:
		if ((x->target = transform_resolve(p, t->path, t->npath)) ==
		    PROFILE_NONE) {
			path = query_path_format(t->path, t->npath);
			tf_error(x, 404, "t: %s: no call node at path %s",
			    key, path ? path : "?");
			free(path);
			return (-1);
		}
		break;
	default:
		break;
	}
	switch (t->kind) {
	case TRANSFORM_COLLAPSE_MODULE:
		x->module = p->func_module[t->func];
		if (*profile_string(p, x->module) == '\0')
			return (tf_error(x, 400, "t: cm: function %u has no "
			    "module", t->func));
		break;
	case TRANSFORM_FOCUS_RE:
	case TRANSFORM_IGNORE_RE:
	case TRANSFORM_HIDE_RE:
	case TRANSFORM_SHOW_RE:
	case TRANSFORM_EXCLUDE:
		if ((x->match = calloc(p->nfuncs ? p->nfuncs : 1, 1)) == NULL)
			return (tf_error(x, 500, "out of memory"));
		if (t->kind == TRANSFORM_EXCLUDE) {
			if (transform_exclude(p, t, x->match, &why) == -1) {
				tf_error(x, 400, "%s", why);
				free(why);
				return (-1);
			}
			break;
		}
		if (tf_charge(x, p->nfuncs) == -1)
			return (-1);
		for (f = 1; f < p->nfuncs; f++) {
			if ((r = transform_matches(p, t, f, x->cost,
			    &why)) == -1) {
				/* The budget's own message, if it ran out. */
				if (cost_over(x->cost)) {
					free(why);
					return (tf_charge(x, 0));
				}
				tf_error(x, 503, "query too expensive (%s=: "
				    "%s)", transform_kinds[t->kind].name,
				    why ? why : "out of memory");
				free(why);
				return (-1);
			}
			x->match[f] = (uint8_t)r;
		}
		break;
	case TRANSFORM_PRUNE:
		if (transform_prune_metrics(p, t, &x->mticks, &x->mwords) ==
		    -1)
			return (tf_error(x, 400, "min_words: the profile has "
			    "no words or bytes metric"));
		break;
	default:
		break;
	}
	return (0);
}

/* Pass 1 and 2: KEEP and IN per node, then LIVE. */
static void
tf_flags(struct tf *x)
{
	const struct profile	*p = x->p;
	const struct transform	*t = x->t;
	uint8_t			*fl = x->flag;
	uint32_t		 n, par, f, k;
	int			 in, keep, site;

	fl[0] = F_KEEP;
	switch (t->kind) {
	case TRANSFORM_FOCUS_SUBTREE:
	case TRANSFORM_FOCUS_FUNCTION:
	case TRANSFORM_FOCUS_RE:
		fl[0] = 0;
		break;
	default:
		break;
	}
	for (n = 1; n < p->nnodes; n++) {
		par = p->node_parent[n];
		f = p->node_func[n];
		in = 0;
		keep = 1;
		switch (t->kind) {
		case TRANSFORM_FOCUS_SUBTREE:
			keep = in = n == x->target || (fl[par] & F_IN);
			break;
		case TRANSFORM_FOCUS_FUNCTION:
			keep = in = f == t->func || (fl[par] & F_IN);
			break;
		case TRANSFORM_DROP_FUNCTION:
			in = f == t->func || (fl[par] & F_IN);
			keep = !in;
			break;
		case TRANSFORM_FOCUS_RE:
			keep = in = x->match[f] || (fl[par] & F_IN);
			break;
		case TRANSFORM_IGNORE_RE:
			in = x->match[f] || (fl[par] & F_IN);
			keep = !in;
			break;
		case TRANSFORM_MERGE_SUBTREE:
			in = n == x->target || (fl[par] & F_IN);
			break;
		case TRANSFORM_COLLAPSE_SUBTREE:
			in = p->node_func[par] == t->func || (fl[par] & F_IN);
			break;
		case TRANSFORM_EXCLUDE:
			in = x->match[f] || (fl[par] & F_IN);
			break;
		case TRANSFORM_PRUNE:
			in = (fl[par] & F_IN) || (x->mticks >= 0 &&
			    p->metrics[x->mticks].total[n] < t->min_ticks) ||
			    (x->mwords >= 0 &&
			    p->metrics[x->mwords].total[n] < t->min_words);
			break;
		default:
			break;
		}
		fl[n] = (in ? F_IN : 0) | (keep ? F_KEEP : 0);
	}

	/* A sample site is a kept node with a value, or a kept leaf. */
	for (n = 0; n < p->nnodes; n++) {
		if (!(fl[n] & F_KEEP))
			continue;
		site = p->node_first_child[n] == PROFILE_NONE;
		for (k = 0; k < p->nmetrics && !site; k++)
			site = p->metrics[k].self[n] != 0;
		if (site)
			fl[n] |= F_LIVE;
	}
	for (n = p->nnodes - 1; n > 0; n--) {
		if (fl[n] & F_LIVE)
			fl[p->node_parent[n]] |= F_LIVE;
	}
}

/* Pass 3: the output node of every live node. */
static int
tf_nodes(struct tf *x)
{
	const struct profile	*p = x->p;
	const struct transform	*t = x->t;
	const uint8_t		*fl = x->flag;
	uint32_t		 n, par, f, po, o, m;

	x->out[0] = PROFILE_ROOT;
	for (n = 1; n < p->nnodes; n++) {
		x->out[n] = PROFILE_NONE;
		if (!(fl[n] & F_LIVE))
			continue;
		par = p->node_parent[n];
		f = p->node_func[n];
		po = x->out[par];
		switch (t->kind) {
		case TRANSFORM_FOCUS_SUBTREE:
			if (n == x->target)
				o = tf_child(x, PROFILE_ROOT, f);
			else if (fl[n] & F_IN)
				o = tf_child(x, po, f);
			else
				continue;
			break;
		case TRANSFORM_FOCUS_FUNCTION:
			if (!(fl[n] & F_IN))
				continue;
			o = tf_child(x, (fl[par] & F_IN) ? po : PROFILE_ROOT,
			    f);
			break;
		case TRANSFORM_MERGE_CALL_NODE:
			o = n == x->target ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_MERGE_SUBTREE:
		case TRANSFORM_COLLAPSE_SUBTREE:
		case TRANSFORM_PRUNE:
		case TRANSFORM_EXCLUDE:
			o = (fl[n] & F_IN) ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_MERGE_FUNCTION:
			o = f == t->func ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_HIDE_RE:
			o = x->match[f] ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_SHOW_RE:
			o = !x->match[f] ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_COLLAPSE_DIRECT_REC:
			o = f == p->node_func[par] && (t->func == PROFILE_NONE ||
			    f == t->func) ? po : tf_child(x, po, f);
			break;
		case TRANSFORM_COLLAPSE_REC:
			/*
			 * GHC's rule: a call to a function already on the
			 * (output) stack truncates the stack back to it.
			 */
			o = PROFILE_NONE;
			if (t->func == PROFILE_NONE || f == t->func) {
				for (m = po; m != PROFILE_NONE && m !=
				    PROFILE_ROOT; m = profile_builder_node_parent(
				    x->b, m)) {
					if (tf_charge(x, 1) == -1)
						return (-1);
					if (profile_builder_node_func(x->b, m)
					    == f) {
						o = m;
						break;
					}
				}
			}
			if (o == PROFILE_NONE)
				o = tf_child(x, po, f);
			break;
		case TRANSFORM_COLLAPSE_MODULE:
			if (p->func_module[f] != x->module)
				o = tf_child(x, po, f);
			else if (po != PROFILE_NONE &&
			    profile_builder_node_func(x->b, po) == x->pseudo)
				o = po;
			else
				o = tf_child(x, po, x->pseudo);
			break;
		default:
			o = tf_child(x, po, f);
			break;
		}
		if (o == PROFILE_NONE && x->status != 0)
			return (-1);
		x->out[n] = o;
	}
	return (0);
}

/* Pass 3 of invert: each sample site's stack, reversed. */
static int
tf_invert(struct tf *x)
{
	const struct profile	*p = x->p;
	uint32_t		 n, m, o;

	x->out[0] = PROFILE_ROOT;
	for (n = 1; n < p->nnodes; n++) {
		x->out[n] = PROFILE_NONE;
		if (!(x->flag[n] & F_KEEP))
			continue;
		/* Only sites: live nodes with no live child are sites too. */
		if (p->node_first_child[n] != PROFILE_NONE) {
			uint32_t	 k;
			int		 site = 0;

			for (k = 0; k < p->nmetrics && !site; k++)
				site = p->metrics[k].self[n] != 0;
			if (!site)
				continue;
		}
		if (tf_charge(x, p->node_depth[n]) == -1)
			return (-1);
		o = PROFILE_ROOT;
		for (m = n; m != PROFILE_ROOT; m = p->node_parent[m]) {
			if ((o = tf_child(x, o, p->node_func[m])) ==
			    PROFILE_NONE)
				return (-1);
		}
		x->out[n] = o;
	}
	return (0);
}

/* Add each kept self value to its node's output node. */
static int
tf_values(struct tf *x)
{
	const struct profile	*p = x->p;
	uint32_t		 n, k;
	int64_t			 v;

	for (n = 0; n < p->nnodes; n++) {
		if (!(x->flag[n] & F_KEEP) || x->out[n] == PROFILE_NONE)
			continue;
		for (k = 0; k < p->nmetrics; k++) {
			if ((v = p->metrics[k].self[n]) != 0 &&
			    profile_builder_add(x->b, x->out[n], (int)k, v) ==
			    -1)
				return (tf_error(x, 500, "%s",
				    profile_builder_error(x->b)));
		}
	}
	return (0);
}

/* The time-ordered samples, mapped; dropped samples leave the sequence. */
static int
tf_samples(struct tf *x)
{
	const struct profile	*p = x->p;
	uint32_t		 i, n;

	for (i = 0; i < p->nsamples; i++) {
		n = p->sample_node[i];
		if (n >= p->nnodes || !(x->flag[n] & F_KEEP) ||
		    x->out[n] == PROFILE_NONE)
			continue;
		if (profile_builder_sample(x->b, x->out[n],
		    p->sample_weight[i]) == -1)
			return (tf_error(x, 503, "%s",
			    profile_builder_error(x->b)));
	}
	return (0);
}

/*
 * Apply one transform: a new read-only profile, or NULL with *status and
 * *cause. Node visits are charged to cost (NULL: no limit).
 */
struct profile *
transform_apply_one(const struct profile *p, const struct transform *t,
    struct cost *cost, int *status, char **cause)
{
	struct tf		 x;
	struct profile		*out = NULL;
	const char		*name, *mod, *file;
	uint32_t		 f, g, k;
	uint64_t		 limit;

	memset(&x, 0, sizeof x);
	x.p = p;
	x.t = t;
	x.cost = cost;
	x.target = x.module = x.pseudo = PROFILE_NONE;
	if (tf_charge(&x, (uint64_t)p->nnodes * 3) == -1 || tf_check(&x) == -1)
		goto fail;
	if ((x.b = profile_builder_create(p->format)) == NULL ||
	    (x.out = malloc(p->nnodes * sizeof *x.out)) == NULL ||
	    (x.flag = calloc(p->nnodes, 1)) == NULL) {
		tf_error(&x, 500, "out of memory");
		goto fail;
	}

	/*
	 * Every input node maps to at most one output node, except when
	 * inverting, where the output can hold a node per frame of every
	 * stack: bound it.
	 */
	limit = t->kind == TRANSFORM_INVERT ? (uint64_t)p->nnodes * 4 + 1024 :
	    (uint64_t)p->nnodes + 2;
	if (limit < (1u << 20) && t->kind == TRANSFORM_INVERT)
		limit = 1u << 20;
	profile_builder_set_max_nodes(x.b, limit > PROFILE_MAX_NODES ?
	    PROFILE_MAX_NODES : (uint32_t)limit);

	/* Same metrics, same functions with the same ids. */
	for (k = 0; k < p->nmetrics; k++) {
		if (profile_builder_metric(x.b, p->metrics[k].name,
		    p->metrics[k].unit) != (int)k) {
			tf_error(&x, 500, "out of memory");
			goto fail;
		}
	}
	for (f = 0; f < p->nfuncs; f++) {
		name = profile_func_name(p, f);
		mod = profile_func_module(p, f);
		g = profile_builder_func(x.b, name, strlen(name), mod,
		    strlen(mod));
		if (g != f) {
			tf_error(&x, 500, g == PROFILE_NONE ? "out of memory" :
			    "function %u is not unique", f);
			goto fail;
		}
		file = p->func_file[f] != 0 ? profile_string(p,
		    p->func_file[f]) : NULL;
		if (file != NULL || p->func_line[f] != 0)
			profile_builder_func_location(x.b, f, file,
			    file ? strlen(file) : 0, p->func_line[f]);
	}
	if (t->kind == TRANSFORM_COLLAPSE_MODULE) {
		mod = profile_string(p, x.module);
		if ((x.pseudo = profile_builder_func(x.b, mod, strlen(mod),
		    mod, strlen(mod))) == PROFILE_NONE) {
			tf_error(&x, 500, "out of memory");
			goto fail;
		}
	}

	tf_flags(&x);
	if ((t->kind == TRANSFORM_INVERT ? tf_invert(&x) : tf_nodes(&x)) ==
	    -1 || tf_values(&x) == -1 || tf_samples(&x) == -1)
		goto fail;
	if ((out = profile_builder_finish(x.b, &x.cause)) == NULL) {
		x.b = NULL;
		x.status = 500;
		goto fail;
	}
	x.b = NULL;
	if (p->source != NULL)
		out->source = strdup(p->source);
	goto done;
fail:
	*status = x.status ? x.status : 500;
	if (cause != NULL) {
		*cause = x.cause;
		x.cause = NULL;
	}
done:
	profile_builder_free(x.b);
	free(x.cause);
	free(x.out);
	free(x.flag);
	free(x.match);
	return (out);
}

/*
 * Apply a whole stack (it must not be empty): the derived profile, or
 * NULL with *status and *cause. The message names the failing entry.
 */
struct profile *
transform_apply(const struct profile *p, const struct transform_stack *s,
    struct cost *cost, int *status, char **cause)
{
	struct profile	*cur = NULL, *next;
	size_t		 i;

	for (i = 0; i < s->n; i++) {
		next = transform_apply_one(cur ? cur : p, &s->v[i], cost,
		    status, cause);
		profile_free(cur);
		if ((cur = next) == NULL)
			return (NULL);
	}
	return (cur);
}

/*
 * Map a call node path of the tree before transform t to the path of the
 * same node after it (after merging C, A>B>C>D>E is A>B>D>E).
 * Returns 1 with a new *out (possibly empty: the root), 0 if the node
 * does not survive, -1 if out of memory. before is the profile the path
 * refers to.
 */
int
transform_map_path(const struct profile *before, const struct transform *t,
    const uint32_t *in, size_t n, uint32_t **out, size_t *outn)
{
	uint32_t	*o, f, node, mod, pseudo;
	size_t		 i, k = 0, j;
	int		 prefix, r = 1, m;
	uint8_t		*match = NULL;
	char		*why = NULL;

	*out = NULL;
	*outn = 0;
	if ((o = calloc(n + 1, sizeof *o)) == NULL)
		return (-1);
	prefix = transform_kinds[t->kind].arg == ARG_PATH && n >= t->npath &&
	    memcmp(in, t->path, t->npath * sizeof *in) == 0;
	switch (t->kind) {
	case TRANSFORM_FOCUS_SUBTREE:
		if (!prefix)
			goto gone;
		for (i = t->npath - 1; i < n; i++)
			o[k++] = in[i];
		break;
	case TRANSFORM_FOCUS_FUNCTION:
		for (i = 0; i < n && in[i] != t->func; i++)
			;
		if (i == n)
			goto gone;
		for (; i < n; i++)
			o[k++] = in[i];
		break;
	case TRANSFORM_MERGE_CALL_NODE:
		for (i = 0; i < n; i++) {
			if (!prefix || i != t->npath - 1)
				o[k++] = in[i];
		}
		break;
	case TRANSFORM_MERGE_SUBTREE:
		for (i = 0; i < n && (!prefix || i < t->npath - 1); i++)
			o[k++] = in[i];
		break;
	case TRANSFORM_MERGE_FUNCTION:
		for (i = 0; i < n; i++) {
			if (in[i] != t->func)
				o[k++] = in[i];
		}
		break;
	case TRANSFORM_DROP_FUNCTION:
		for (i = 0; i < n; i++) {
			if (in[i] == t->func)
				goto gone;
			o[k++] = in[i];
		}
		break;
	case TRANSFORM_COLLAPSE_SUBTREE:
		for (i = 0; i < n; i++) {
			o[k++] = in[i];
			if (in[i] == t->func)
				break;
		}
		break;
	case TRANSFORM_COLLAPSE_DIRECT_REC:
		for (i = 0; i < n; i++) {
			if (i > 0 && in[i] == in[i - 1] &&
			    (t->func == PROFILE_NONE || in[i] == t->func))
				continue;
			o[k++] = in[i];
		}
		break;
	case TRANSFORM_COLLAPSE_REC:
		for (i = 0; i < n; i++) {
			f = in[i];
			j = k;
			if (t->func == PROFILE_NONE || f == t->func) {
				for (j = 0; j < k && o[j] != f; j++)
					;
			}
			if (j < k)
				k = j + 1;
			else
				o[k++] = f;
		}
		break;
	case TRANSFORM_COLLAPSE_MODULE:
		if (t->func >= before->nfuncs)
			goto gone;
		mod = before->func_module[t->func];
		/* The pseudo-function's id, as transform_apply_one makes it. */
		pseudo = before->nfuncs;
		for (f = 0; f < before->nfuncs; f++) {
			if (before->func_module[f] == mod && strcmp(
			    profile_func_name(before, f),
			    profile_string(before, mod)) == 0) {
				pseudo = f;
				break;
			}
		}
		for (i = 0; i < n; i++) {
			if (in[i] >= before->nfuncs ||
			    before->func_module[in[i]] != mod)
				o[k++] = in[i];
			else if (k == 0 || o[k - 1] != pseudo)
				o[k++] = pseudo;
		}
		break;
	case TRANSFORM_INVERT:
		for (i = n; i > 0; i--)
			o[k++] = in[i - 1];
		break;
	case TRANSFORM_FOCUS_RE:
	case TRANSFORM_IGNORE_RE:
	case TRANSFORM_HIDE_RE:
	case TRANSFORM_SHOW_RE:
	case TRANSFORM_EXCLUDE:
		if ((match = calloc(before->nfuncs ? before->nfuncs : 1, 1)) ==
		    NULL)
			goto nomem;
		if (t->kind == TRANSFORM_EXCLUDE) {
			if (transform_exclude(before, t, match, &why) == -1)
				goto gone;
		} else {
			/*
			 * A path is short (QUERY_MAX_PATH) and each match
			 * bounded; one that fails loses the path.
			 */
			for (i = 0; i < n; i++) {
				if (in[i] >= before->nfuncs)
					continue;
				if ((m = transform_matches(before, t, in[i],
				    NULL, &why)) == -1)
					goto gone;
				match[in[i]] = (uint8_t)m;
			}
		}
		for (i = 0; i < n; i++) {
			f = in[i] < before->nfuncs ? match[in[i]] : 0;
			if (t->kind == TRANSFORM_EXCLUDE && f)
				break;
			if ((t->kind == TRANSFORM_HIDE_RE && f) ||
			    (t->kind == TRANSFORM_SHOW_RE && !f))
				continue;
			if (t->kind == TRANSFORM_IGNORE_RE && f)
				goto gone;
			o[k++] = in[i];
		}
		break;
	case TRANSFORM_PRUNE:
		node = PROFILE_ROOT;
		for (i = 0; i < n; i++) {
			if ((node = profile_node_child(before, node, in[i])) ==
			    PROFILE_NONE || transform_pruned(before, t, node))
				break;
			o[k++] = in[i];
		}
		break;
	case TRANSFORM_NKINDS:
		break;
	}
	*out = o;
	*outn = k;
	goto done;
nomem:
	r = -1;
	free(o);
	goto done;
gone:
	r = 0;
	free(o);
done:
	free(match);
	free(why);
	return (r);
}

/* The t= value of the first k items of the stack's t= part. */
static char *
transform_t_prefix(const struct transform_stack *s, size_t k)
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

/*
 * The link to the state after entry i of the stack (everything after it
 * popped); i == SIZE_MAX: the complete profile. Paths and open= refer to
 * the more transformed tree, so they are dropped.
 */
static char *
transform_pop_link(const struct query *q, const struct transform_stack *s,
    size_t i)
{
	struct query	*c;
	char		*t = NULL, *link = NULL;
	size_t		 j;

	if ((c = query_copy(q)) == NULL)
		return (NULL);
	query_unset(c, QUERY_PATH);
	query_unset(c, QUERY_OPEN);
	for (j = 0; j < s->nfilters; j++) {
		if (i != SIZE_MAX && j <= i)
			continue;
		query_unset(c, transform_kinds[s->v[j].kind].qkey);
		if (s->v[j].kind == TRANSFORM_PRUNE)
			query_unset(c, QUERY_MIN_WORDS);
	}
	if (i == SIZE_MAX || i < s->nfilters)
		query_unset(c, QUERY_T);
	else if ((t = transform_t_prefix(s, i - s->nfilters + 1)) == NULL ||
	    query_set(c, QUERY_T, t, NULL) == -1)
		goto done;
	link = query_format(c);
done:
	free(t);
	query_free(c);
	return (link);
}

/*
 * The canonical link to q with one more transform (a t= item such as
 * "mcn-1,2") pushed on its stack, its path= and open= paths mapped
 * through it; p is the profile q's paths refer to (the current one).
 * NULL if out of memory or the item is invalid.
 */
char *
transform_push_link(const struct profile *p, const struct query *q,
    const char *item)
{
	struct transform	 t;
	struct query		*c = NULL, *one = NULL;
	const char		*cur = query_str(q, QUERY_T), *s, *tilde;
	char			*tv = NULL, *link = NULL, *why = NULL, *ps;
	char			*open = NULL, *piece;
	uint32_t		*out;
	size_t			 outn, olen;
	struct outbuf		 of;
	int			 r;

	if (transform_parse_item(item, &t, &why) == -1) {
		free(why);
		return (NULL);
	}
	outbuf_init(&of);
	if ((c = query_copy(q)) == NULL || (one = query_create()) == NULL)
		goto done;
	if (asprintf(&tv, "%s~%s", *cur ? cur : "1", item) == -1) {
		tv = NULL;
		goto done;
	}
	if (query_set(c, QUERY_T, tv, NULL) == -1)
		goto done;
	if (q->npath > 0) {
		if ((r = transform_map_path(p, &t, q->path, q->npath, &out,
		    &outn)) == -1)
			goto done;
		if (r == 1 && outn > 0)
			r = query_set_path(c, out, outn);
		else {
			query_unset(c, QUERY_PATH);
			r = 0;
		}
		free(out);
		if (r == -1)
			goto done;
	}
	if (*(s = query_str(q, QUERY_OPEN)) != '\0') {
		for (; *s != '\0'; s = tilde ? tilde + 1 : s + strlen(s)) {
			tilde = strchr(s, '~');
			if ((piece = strndup(s, tilde ? (size_t)(tilde - s) :
			    strlen(s))) == NULL)
				goto done;
			r = query_set(one, QUERY_PATH, piece, NULL);
			free(piece);
			if (r == -1 || one->npath == 0)
				continue;
			if (transform_map_path(p, &t, one->path, one->npath,
			    &out, &outn) == 1 && outn > 0 &&
			    (ps = query_path_format(out, outn)) != NULL) {
				if (outbuf_len(&of) > 0)
					outbuf_putc(&of, '~');
				outbuf_puts(&of, ps);
				free(ps);
			}
			free(out);
		}
		/* Out of memory: the link is not made. */
		if ((open = outbuf_take(&of, &olen)) == NULL)
			goto done;
		if (*open == '\0')
			query_unset(c, QUERY_OPEN);
		else if (query_set(c, QUERY_OPEN, open, NULL) == -1)
			goto done;
	}
	link = query_format(c);
done:
	outbuf_clear(&of);
	free(open);
	free(tv);
	query_free(one);
	query_free(c);
	transform_clear(&t);
	return (link);
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

/* One action link: label, and the push link for a formatted item. */
static void
transform_action(struct display *d, struct display_block *b,
    const struct profile *p, const struct query *q, const char *label,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*item, *link;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&item, fmt, ap);
	va_end(ap);
	if (r == -1)
		return;
	if ((link = transform_push_link(p, q, item)) != NULL)
		display_link(d, b, label, link);
	free(link);
	free(item);
}

/* Links that push a transform on the node of path= or the function of func=. */
static void
transform_actions(struct display *d, const struct profile *p,
    const struct query *q)
{
	struct display_block	*b;
	uint32_t		 node = PROFILE_NONE, f = PROFILE_NONE;
	char			*path;

	if (q->npath > 0 &&
	    (node = transform_resolve(p, q->path, q->npath)) != PROFILE_NONE)
		f = p->node_func[node];
	else if (query_isset(q, QUERY_FUNC))
		f = profile_func_find(p, query_str(q, QUERY_FUNC));
	if (f == PROFILE_NONE || f == PROFILE_ROOT)
		return;
	display_text(d, "Transform %s:", profile_func_name(p, f));
	b = display_links(d);
	if (node != PROFILE_NONE &&
	    (path = query_path_format(q->path, q->npath)) != NULL) {
		transform_action(d, b, p, q, "focus on this node", "fs-%s",
		    path);
		transform_action(d, b, p, q, "merge this node", "mcn-%s", path);
		transform_action(d, b, p, q, "merge its subtree", "ms-%s",
		    path);
		free(path);
	}
	transform_action(d, b, p, q, "focus on function", "ff-%u", f);
	transform_action(d, b, p, q, "merge function", "mf-%u", f);
	transform_action(d, b, p, q, "drop samples with function", "df-%u",
	    f);
	transform_action(d, b, p, q, "collapse function", "cfs-%u", f);
	transform_action(d, b, p, q, "collapse direct recursion", "drec-%u",
	    f);
	transform_action(d, b, p, q, "collapse recursion", "rec-%u", f);
	if (*profile_func_module(p, f) != '\0')
		transform_action(d, b, p, q, "collapse module", "cm-%u", f);
}

/*
 * Decorate a report's display: the stack as breadcrumbs (each links to
 * the state with everything after it popped) before every other block,
 * and links that push transforms on the node or function the query is
 * about. p is the profile the report was made from.
 */
void
transform_display(struct display *d, const struct profile *p,
    const struct query *q, const struct transform_stack *s)
{
	struct display_block	*b;
	char			*link, *label;
	size_t			 i;

	display_self(d, q);
	if (s != NULL && s->n > 0) {
		b = display_crumbs(d);
		link = transform_pop_link(q, s, SIZE_MAX);
		display_link(d, b, "Complete profile", link);
		free(link);
		for (i = 0; i < s->n; i++) {
			label = transform_label(p, &s->v[i]);
			link = i + 1 < s->n ? transform_pop_link(q, s, i) :
			    NULL;
			display_link(d, b, label ? label : "?", link);
			free(label);
			free(link);
		}
	}
	transform_actions(d, p, q);
}

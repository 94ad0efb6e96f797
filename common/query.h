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

#ifndef QUERY_H
#define QUERY_H

/*
 * Queries: application/x-www-form-urlencoded key=value pairs, parsed
 * against one table of keys (query.c) that gives each key its type,
 * range and default. query_format() writes the canonical string that
 * every link is made from: keys in table order, defaults left out, so
 * query -> string -> query is the identity and a URL is a page's state.
 */

#include <stddef.h>
#include <stdint.h>

#define QUERY_MAX_LEN	65536	/* bytes of a query string */
#define QUERY_MAX_PATH	4096	/* function ids in a path= */

/* Keys, in canonical order. Bump nothing: names are a public interface. */
enum query_key {
	QUERY_FILE,
	QUERY_BASE,
	QUERY_CMD,
	QUERY_RANGE,
	QUERY_THREAD,
	QUERY_BASE_RANGE,
	QUERY_T,
	QUERY_FOCUS,
	QUERY_IGNORE,
	QUERY_HIDE,
	QUERY_SHOW,
	QUERY_MIN_TICKS,
	QUERY_MIN_WORDS,
	QUERY_EXCLUDE,
	QUERY_PATH,
	QUERY_FUNC,
	QUERY_MODULE,
	QUERY_CLIQUE,
	QUERY_FIND,
	QUERY_BY,
	QUERY_METRIC,
	QUERY_SORT,
	QUERY_LIMIT,
	QUERY_FROM,
	QUERY_MIN,
	QUERY_DEPTH,
	QUERY_BUDGET,
	QUERY_OPEN,
	QUERY_CLOSE,
	QUERY_FIELDS,
	QUERY_UNITS,
	QUERY_PCT,
	QUERY_AVG,
	QUERY_NORMALIZE,
	QUERY_STYLE,
	QUERY_TITLE,
	QUERY_WIDTH,
	QUERY_MINWIDTH,
	QUERY_MAXDEPTH,
	QUERY_PALETTE,
	QUERY_COUNTNAME,
	QUERY_ORDER,
	QUERY_FORMAT,
	QUERY_MODULES,
	QUERY_NKEYS
};

enum query_type {
	QUERY_TYPE_STRING,
	QUERY_TYPE_ENUM,	/* one of a '|'-separated list */
	QUERY_TYPE_INT,		/* decimal integer in [min, max] */
	QUERY_TYPE_NUMBER,	/* decimal number in [min, max] */
	QUERY_TYPE_BOOL,	/* 0 or 1 */
	QUERY_TYPE_PATH,	/* function ids separated by ',' */
};

struct query_keyinfo {
	const char	*name;
	enum query_type	 type;
	const char	*values;	/* ENUM: "a|b|c" */
	int64_t		 min, max;	/* INT, NUMBER; STRING: max length */
	const char	*def;		/* the value when absent */
	const char	*help;
	int		 repeat;	/* may be given more than once: the
					   values are kept joined by '\n' */
};

/* One change of a query_format_edit() link: value NULL unsets the key. */
struct query_edit {
	int		 key;
	const char	*value;
};

/*
 * A link template (query_tmpl_init): the canonical string of a query
 * with some keys edited, cut around keys key .. key + n - 1, whose values
 * query_tmpl_fill() splices in. A page that makes one link a row, each
 * differing only in those keys, formats the rest once.
 */
struct query_tmpl {
	char		*pre;		/* the keys before, encoded */
	char		*post;		/* the keys after, encoded */
	int		 key, n;
};

struct query {
	char		*value[QUERY_NKEYS];	/* NULL = absent */
	uint32_t	*path;
	size_t		 npath;
};

const struct query_keyinfo *query_keyinfo(enum query_key);
int		 query_key_find(const char *);
struct query	*query_create(void);
void		 query_free(struct query *);
struct query	*query_copy(const struct query *);
struct query	*query_parse(const char *, int *, char **);
int		 query_set(struct query *, enum query_key, const char *,
		     char **);
void		 query_unset(struct query *, enum query_key);
int		 query_isset(const struct query *, enum query_key);
const char	*query_str(const struct query *, enum query_key);
int64_t		 query_int(const struct query *, enum query_key);
double		 query_number(const struct query *, enum query_key);
int		 query_range(const char *, double *, double *);
char		*query_format(const struct query *);
char		*query_format_edit(const struct query *,
		     const struct query_edit *, size_t);
int		 query_tmpl_init(struct query_tmpl *, const struct query *,
		     const struct query_edit *, size_t, int, int);
char		*query_tmpl_fill(const struct query_tmpl *,
		     const char *const *);
void		 query_tmpl_clear(struct query_tmpl *);
int		 query_equal(const struct query *, const struct query *);
char		*query_path_format(const uint32_t *, size_t);
int		 query_set_path(struct query *, const uint32_t *, size_t);
char		*query_urlencode(const char *);
char		*query_urldecode(const char *, size_t, char **);

#endif /* QUERY_H */

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
 * Queries: application/x-www-form-urlencoded key=value pairs, parsed and
 * validated once, against one table of keys (query.c: each key's type,
 * range, default, field and flags), into a struct of typed fields that
 * every module reads. query_format() writes the canonical string that
 * every link is made from: keys in table order, defaults left out, so
 * query -> string -> query is the identity and a URL is a page's state.
 *
 * A link is written from a view: a struct query copied by assignment
 * (struct query v = *q), some fields then set (v.cmd = CMD_FUNC; v.func =
 * id). A view borrows every string and path it holds, from q or from the
 * caller, and is never freed; the strings it is given must be valid
 * UTF-8 (those of a query and of a profile are).
 */

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

#define QUERY_MAX_LEN	65536	/* bytes of a query string */
#define QUERY_MAX_PATH	4096	/* function ids in a path= */

/*
 * Keys, in canonical order: the order of every link's keys, so a new key
 * goes where its links should show it (a comparison's keys early, the
 * format last). Bump nothing: names are a public interface.
 */
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
	QUERY_SELECT,
	QUERY_FROM_TIME,
	QUERY_TO_TIME,
	QUERY_BASE_SELECT,
	QUERY_BASE_FROM_TIME,
	QUERY_BASE_TO_TIME,
	QUERY_STEP,
	QUERY_MARKER,
	QUERY_NKEYS
};

/* The values of the ENUM keys, in the order of their names (query.c). */
enum query_by {
	QUERY_BY_FUNC,
	QUERY_BY_SITE,
	QUERY_BY_MODULE,
	QUERY_BY_CLIQUE
};

enum query_sort {
	QUERY_SORT_TOTAL,
	QUERY_SORT_SELF,
	QUERY_SORT_NAME,
	QUERY_SORT_CALLS,
	QUERY_SORT_DELTA,
	QUERY_SORT_DSELF,	/* the change of self (comparisons) */
	QUERY_SORT_RATIO
};

enum query_units {
	QUERY_UNITS_RAW,
	QUERY_UNITS_SECONDS
};

enum query_style {
	QUERY_STYLE_FLAME,
	QUERY_STYLE_ICICLE,
	QUERY_STYLE_CHART
};

enum query_palette {
	QUERY_PALETTE_HOT,
	QUERY_PALETTE_MODULE,
	QUERY_PALETTE_MEM,
	QUERY_PALETTE_BLUE,
	QUERY_PALETTE_GREEN
};

enum query_order {
	QUERY_ORDER_NAME,
	QUERY_ORDER_TIME
};

enum query_type {
	QUERY_TYPE_STRING,	/* const char *: "" when absent */
	QUERY_TYPE_ENUM,	/* an enum: one of the key's names */
	QUERY_TYPE_INT,		/* int64_t: an integer in [min, max] */
	QUERY_TYPE_NUMBER,	/* double: a number in [min, max] */
	QUERY_TYPE_BOOL,	/* int: 0 or 1 */
	QUERY_TYPE_PATH,	/* path, npath: function ids separated by ',' */
	QUERY_TYPE_RANGE,	/* double[2]: "A,B", numbers min <= A < B <=
				   max; absent: both 0 */
};

/* Key k as a bit of a mask of keys (catalog.h's prefs). */
#define QUERY_BIT(k)	(UINT64_C(1) << (k))

/* query_keyinfo.flags: what a key is to the pages' links. */
#define QUERY_KEY_STATE	0x01	/* the view state: every link of a
				   page keeps it (header, search,
				   state bar) */
#define QUERY_KEY_TREE	0x02	/* view state that changes the tree
				   itself: dropping it drops the NODE keys;
				   the state bar shows these first */
#define QUERY_KEY_PAGE	0x04	/* addresses the page (a function, a
				   node, a row): a link to another report
				   drops it */
#define QUERY_KEY_NODE	0x08	/* names call nodes of the tree */
#define QUERY_KEY_ROW	0x10	/* a row offset, meaningless once the
				   rows change */
#define QUERY_KEY_FILTER 0x20	/* a filter of the samples, applied before
				   t= (transform.c) */
#define QUERY_KEY_REPEAT 0x40	/* a STRING that may be given more than
				   once (thread=): its values kept joined
				   by '\n', none empty, written back as
				   many pairs */

struct query_keyinfo {
	const char	*name;
	enum query_type	 type;
	size_t		 offset;	/* of its field in struct query */
	int64_t		 min, max;	/* INT, NUMBER; STRING: max length */
	/*
	 * The value when absent: INT, NUMBER, BOOL; an ENUM's is its first
	 * name, a STRING's "", a PATH's none.
	 */
	double		 def;
	int		 flags;		/* QUERY_KEY_* */
	const char	*help;
	/*
	 * ENUM: its nnames names, the first at names and each stride bytes
	 * after the last (a names array, or the name member of a
	 * catalog's rows); the enum's value is the name's index.
	 */
	const char *const *names;
	size_t		 stride;
	int		 nnames;
};

/*
 * A query. Strings are "" when absent, never NULL; in a query of
 * query_create() or query_parse() a non-empty string and a path are its
 * own (query_free frees them); in a view, borrowed.
 */
struct query {
	const char		*file;
	const char		*base;
	enum catalog_cmd	 cmd;
	double			 range[2];
	const char		*thread;
	double			 base_range[2];
	const char		*t;
	const char		*focus;
	const char		*ignore;
	const char		*hide;
	const char		*show;
	int64_t			 min_ticks;
	int64_t			 min_words;
	const char		*exclude;
	const uint32_t		*path;
	size_t			 npath;
	const char		*func;
	const char		*module;
	int64_t			 clique;
	const char		*find;
	enum query_by		 by;
	const char		*metric;
	enum query_sort		 sort;
	int64_t			 limit;
	int64_t			 from;
	double			 min;
	int64_t			 depth;
	int64_t			 budget;
	const char		*open;
	const char		*close;
	const char		*fields;
	enum query_units	 units;
	int			 pct;
	int			 avg;
	int			 normalize;
	enum query_style	 style;
	const char		*title;
	int64_t			 width;
	double			 minwidth;
	int64_t			 maxdepth;
	enum query_palette	 palette;
	const char		*countname;
	enum query_order	 order;
	enum catalog_fmt	 format;
	int			 modules;
	const char		*select;	/* a view's label matchers */
	int64_t			 from_time;	/* a view's time range */
	int64_t			 to_time;
	const char		*base_select;	/* the same of base= */
	int64_t			 base_from_time;
	int64_t			 base_to_time;
	int64_t			 step;		/* cmd=series */
	const char		*marker;
};

/*
 * A link template (query_tmpl_init): the canonical string of a view cut
 * around keys key .. key + n - 1, whose values query_tmpl_fill() splices
 * in from another view. A page that makes one link a row, each differing
 * only in those keys, formats the rest once.
 */
struct query_tmpl {
	char		*pre;		/* the keys before, encoded */
	char		*post;		/* the keys after, encoded */
	int		 key, n;
};

const struct query_keyinfo *query_keyinfo(enum query_key);
char		*query_keyinfo_list(const struct query_keyinfo *);
const char	*query_keyinfo_name(const struct query_keyinfo *, int);
const char	*query_enum_name(enum query_key, int);
int		 query_key_find(const char *);
void		 query_init(struct query *);
struct query	*query_create(void);
void		 query_free(struct query *);
struct query	*query_copy(const struct query *);
struct query	*query_parse(const char *, int *, char **);
int		 query_set(struct query *, enum query_key, const char *,
		     char **);
void		 query_unset(struct query *, enum query_key);
int		 query_key_isset(const struct query *, enum query_key);
void		 query_key_reset(struct query *, enum query_key);
void		 query_key_copy(struct query *, const struct query *,
		     enum query_key);
char		*query_key_text(const struct query *, enum query_key);
int		 query_key_valid(enum query_key, const char *);
char		*query_format(const struct query *);
int		 query_tmpl_init(struct query_tmpl *, const struct query *,
		     int, int);
char		*query_tmpl_fill(const struct query_tmpl *,
		     const struct query *);
void		 query_tmpl_clear(struct query_tmpl *);
int		 query_equal(const struct query *, const struct query *);
char		*query_path_format(const uint32_t *, size_t);
int		 query_range_set(const double *);
int		 query_path_parse(const char *, uint32_t **, size_t *);
char		*query_urlencode(const char *);
char		*query_urldecode(const char *, size_t, char **);

#endif /* QUERY_H */

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

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cause.h"
#include "clickhouse.h"
#include "input.h"
#include "profile-builder.h"
#include "profile.h"
#include "reader.h"
#include "reader-view.h"

/*
 * The view reader (deepq-clickhouse(7)). A view file is
 *
 *	# deepq-view 1
 *	clickhouse = http://127.0.0.1:8123/
 *	table = prof
 *	where = has(labels, 'service=api')
 *
 * and loading it sends ClickHouse one query, grouped by metric and stack
 * with the sum of each, whose RowBinary answer becomes the profile. The
 * SQL holds the administrator's where= as written; everything else in
 * it is a checked name, a number, or a literal made by
 * clickhouse_buf_quote(). Nothing of a request's query string reaches
 * it: a view is loaded from its file alone.
 */

#define VIEW_MAGIC		"# deepq-view 1"
#define VIEW_MAX_LINES		256
#define VIEW_MAX_ROWS		5000000		/* max_rows= default */
#define VIEW_MAX_DEPTH		65536		/* frames in one stack */
#define VIEW_MAX_ROW		(64 * 1024 * 1024)	/* bytes of one row */
#define VIEW_TIMEOUT		60		/* timeout= default */

struct view_conf {
	char		*clickhouse;
	char		*database;
	char		*table;
	char		*where;
	char		*user;
	char		*password_file;
	char		*metric;
	time_t		 from;
	time_t		 to;
	long long	 last;		/* seconds before now, 0 = none */
	long long	 refresh;	/* seconds, 0 = when the file changes */
	long long	 max_rows;
	long long	 timeout;
};

/* What the server checks to know the loaded view is out of date. */
struct view_extra {
	dev_t		 dev;
	ino_t		 ino;
	off_t		 size;
	struct timespec	 mtime;
	time_t		 loaded;
	long long	 refresh;
	int		 has_secret;	/* a password_file, as secret */
	struct stat	 secret;
};

/* A metric of the answer, in the order the ingested profiles had them. */
struct view_metric {
	const char	*name;		/* into the answer */
	size_t		 len;
	const char	*unit;
	size_t		 unitlen;
	unsigned	 index;		/* smallest metric_index */
	double		 rate;
	int		 col;		/* the builder's */
};

/* A cursor over RowBinary. */
struct view_rb {
	const unsigned char *p;
	const unsigned char *end;
};

static int	 view_probe(const char *, size_t);
static struct profile *view_load(struct input *,
		     const struct reader_options *, char **);

const struct reader reader_view = {
	"view",
	"deepq view file: a selection of a ClickHouse table",
	view_probe,
	view_load
};

static int
view_probe(const char *buf, size_t len)
{
	size_t	 n = sizeof VIEW_MAGIC - 1;

	if (len >= n + 1 && memcmp(buf, VIEW_MAGIC, n) == 0 &&
	    (buf[n] == '\n' || buf[n] == '\r'))
		return (100);
	return (0);
}

static void
view_conf_free(struct view_conf *vc)
{
	free(vc->clickhouse);
	free(vc->database);
	free(vc->table);
	free(vc->where);
	free(vc->user);
	free(vc->password_file);
	free(vc->metric);
}

/* Set a string key once. */
static int
view_conf_string(char **slot, const char *key, const char *v, char **cause)
{
	if (*slot != NULL) {
		cause_set(cause, "%s= given twice", key);
		return (-1);
	}
	if ((*slot = strdup(v)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	return (0);
}

/* One key = value line. */
static int
view_conf_key(struct view_conf *vc, const char *key, const char *v,
    char **cause)
{
	long long	 n;

	if (strcmp(key, "clickhouse") == 0)
		return (view_conf_string(&vc->clickhouse, key, v, cause));
	if (strcmp(key, "database") == 0 || strcmp(key, "table") == 0) {
		if (!clickhouse_name_ok(v)) {
			cause_set(cause, "%s=: letters, digits and _ only, at "
			    "most 64", key);
			return (-1);
		}
		return (view_conf_string(*key == 'd' ? &vc->database :
		    &vc->table, key, v, cause));
	}
	if (strcmp(key, "where") == 0)
		return (view_conf_string(&vc->where, key, v, cause));
	if (strcmp(key, "user") == 0)
		return (view_conf_string(&vc->user, key, v, cause));
	if (strcmp(key, "password_file") == 0)
		return (view_conf_string(&vc->password_file, key, v, cause));
	if (strcmp(key, "metric") == 0)
		return (view_conf_string(&vc->metric, key, v, cause));
	if (strcmp(key, "from") == 0 || strcmp(key, "to") == 0) {
		if (clickhouse_time_parse(v, *key == 'f' ? &vc->from :
		    &vc->to) == -1) {
			cause_set(cause, "%s=: not a time (2026-11-25T10:00:00Z "
			    "or @seconds)", key);
			return (-1);
		}
		return (0);
	}
	if (strcmp(key, "last") == 0 || strcmp(key, "refresh") == 0 ||
	    strcmp(key, "timeout") == 0) {
		if (clickhouse_duration_parse(v, &n) == -1) {
			cause_set(cause, "%s=: not a duration (90, 90s, 15m, "
			    "2h, 7d)", key);
			return (-1);
		}
		if (*key == 'l')
			vc->last = n;
		else if (*key == 'r')
			vc->refresh = n;
		else if (n < 1 || n > 3600) {
			cause_set(cause, "timeout=: 1 s to 1 h");
			return (-1);
		} else
			vc->timeout = n;
		return (0);
	}
	if (strcmp(key, "max_rows") == 0) {
		if (clickhouse_duration_parse(v, &n) == -1 ||
		    strspn(v, "0123456789") != strlen(v) || n < 1 ||
		    n > PROFILE_MAX_NODES / 2) {
			cause_set(cause, "max_rows=: a number from 1");
			return (-1);
		}
		vc->max_rows = n;
		return (0);
	}
	cause_set(cause, "unknown key %s", key);
	return (-1);
}

/* Parse the view file. */
static int
view_conf_parse(struct input *in, struct view_conf *vc, char **cause)
{
	char	*line, *eq, *k, *v, *e, *why = NULL;
	size_t	 len;
	int	 n = 0;

	vc->max_rows = VIEW_MAX_ROWS;
	vc->timeout = VIEW_TIMEOUT;
	while ((line = input_line(in, &len, &why)) != NULL) {
		if (++n > VIEW_MAX_LINES) {
			cause_set(cause, "%s: more than %d lines", in->path,
			    VIEW_MAX_LINES);
			return (-1);
		}
		if (n == 1) {
			if (strcmp(line, VIEW_MAGIC) != 0) {
				cause_set(cause, "%s: not a view file",
				    in->path);
				return (-1);
			}
			continue;
		}
		if (memchr(line, '\0', len) != NULL) {
			cause_set(cause, "%s:%d: NUL byte", in->path, n);
			return (-1);
		}
		line += strspn(line, " \t");
		if (*line == '\0' || *line == '#')
			continue;
		if ((eq = strchr(line, '=')) == NULL) {
			cause_set(cause, "%s:%d: expected key = value",
			    in->path, n);
			return (-1);
		}
		k = line;
		for (e = eq; e > k && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		*e = '\0';
		v = eq + 1 + strspn(eq + 1, " \t");
		for (e = v + strlen(v); e > v && (e[-1] == ' ' ||
		    e[-1] == '\t'); e--)
			;
		*e = '\0';
		if (view_conf_key(vc, k, v, &why) == -1) {
			cause_set(cause, "%s:%d: %s", in->path, n,
			    why ? why : "out of memory");
			free(why);
			return (-1);
		}
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		free(why);
		return (-1);
	}
	if (in->error) {
		cause_set(cause, "%s: %s", in->path, strerror(in->error));
		return (-1);
	}
	if (vc->clickhouse == NULL || vc->table == NULL) {
		cause_set(cause, "%s: clickhouse= and table= are required",
		    in->path);
		return (-1);
	}
	if (vc->last != 0 && vc->from != 0) {
		cause_set(cause, "%s: last= and from= exclude each other",
		    in->path);
		return (-1);
	}
	return (0);
}

/*
 * The password: the first line of password_file, a name relative to
 * the view file's directory unless absolute.
 */
static char *
view_password(const char *viewpath, const char *file, struct stat *st,
    char **cause)
{
	char	 buf[1024], *path = NULL, *slash;
	ssize_t	 n;
	int	 fd;

	if (file[0] == '/' || (slash = strrchr(viewpath, '/')) == NULL)
		path = strdup(file);
	else if (asprintf(&path, "%.*s/%s", (int)(slash - viewpath), viewpath,
	    file) == -1)
		path = NULL;
	if (path == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	/* Its name is the administrator's: not for the web client. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1 ||
	    fstat(fd, st) == -1 || (n = read(fd, buf, sizeof buf - 1)) == -1) {
		cause_set(cause, "password_file: %s", strerror(errno));
		if (fd != -1)
			close(fd);
		free(path);
		return (NULL);
	}
	close(fd);
	free(path);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	path = strdup(buf);
	explicit_bzero(buf, sizeof buf);
	if (path == NULL)
		cause_set(cause, "out of memory");
	return (path);
}

/* The aggregate query (see the top of this file). */
static void
view_sql(const struct view_conf *vc, time_t now, struct clickhouse_buf *sql)
{
	/*
	 * Grouped by the frames themselves: no two stacks merge even if
	 * their stack_id hashes collide, and ClickHouse 18.16 groups by
	 * arrays three times as fast as it computes any() of them.
	 */
	clickhouse_buf_printf(sql, "SELECT metric, min(metric_index), "
	    "any(unit), max(rate), stack_func, stack_module, sum(value)\n"
	    "FROM %s%s%s\nWHERE ", vc->database ? vc->database : "",
	    vc->database ? "." : "", vc->table);
	if (vc->where != NULL && *vc->where != '\0')
		clickhouse_buf_printf(sql, "(\n%s\n)", vc->where);
	else
		clickhouse_buf_printf(sql, "1");
	if (vc->from != 0)
		clickhouse_buf_printf(sql, " AND ts >= toDateTime(%lld)",
		    (long long)vc->from);
	if (vc->last != 0)
		clickhouse_buf_printf(sql, " AND ts >= toDateTime(%lld)",
		    (long long)now - vc->last);
	if (vc->to != 0)
		clickhouse_buf_printf(sql, " AND ts < toDateTime(%lld)",
		    (long long)vc->to);
	if (vc->metric != NULL) {
		clickhouse_buf_printf(sql, " AND metric = ");
		clickhouse_buf_quote(sql, vc->metric, strlen(vc->metric));
	}
	clickhouse_buf_printf(sql, "\nGROUP BY metric, stack_func, "
	    "stack_module\nLIMIT %lld\n"
	    "FORMAT RowBinary", vc->max_rows + 1);
}

/* RowBinary readers: 0, or -1 at the end of the answer. */
static int
view_rb_varint(struct view_rb *rb, uint64_t *v)
{
	unsigned	 shift = 0;

	*v = 0;
	while (rb->p < rb->end && shift < 64) {
		*v |= (uint64_t)(*rb->p & 0x7f) << shift;
		if ((*rb->p++ & 0x80) == 0)
			return (0);
		shift += 7;
	}
	return (-1);
}

static int
view_rb_string(struct view_rb *rb, const char **s, size_t *len)
{
	uint64_t	 n;

	if (view_rb_varint(rb, &n) == -1 || n > (uint64_t)(rb->end - rb->p))
		return (-1);
	*s = (const char *)rb->p;
	*len = n;
	rb->p += n;
	return (0);
}

static int
view_rb_fixed(struct view_rb *rb, void *v, size_t n)
{
	unsigned char	*o = v;
	size_t		 i;

	if ((size_t)(rb->end - rb->p) < n)
		return (-1);
	/* Little-endian on the wire, whatever this machine is. */
	for (i = 0; i < n; i++)
#if defined(WORDS_BIGENDIAN)
		o[n - 1 - i] = rb->p[i];
#else
		o[i] = rb->p[i];
#endif
	rb->p += n;
	return (0);
}

/*
 * One row of the answer up to its stacks: the metric's fields, and the
 * position of the two arrays, whose lengths must agree.
 */
struct view_row {
	const char	*metric;
	size_t		 metriclen;
	uint8_t		 index;
	const char	*unit;
	size_t		 unitlen;
	double		 rate;
	uint64_t	 depth;
	struct view_rb	 funcs;		/* at the first frame's name */
	struct view_rb	 modules;	/* at the first frame's module */
	int64_t		 value;
};

static int
view_row(struct view_rb *rb, struct view_row *r)
{
	const char	*s;
	size_t		 len;
	uint64_t	 n, i;

	if (view_rb_string(rb, &r->metric, &r->metriclen) == -1 ||
	    view_rb_fixed(rb, &r->index, 1) == -1 ||
	    view_rb_string(rb, &r->unit, &r->unitlen) == -1 ||
	    view_rb_fixed(rb, &r->rate, 8) == -1 ||
	    view_rb_varint(rb, &r->depth) == -1 || r->depth > VIEW_MAX_DEPTH)
		return (-1);
	r->funcs = *rb;
	for (i = 0; i < r->depth; i++) {
		if (view_rb_string(rb, &s, &len) == -1)
			return (-1);
	}
	if (view_rb_varint(rb, &n) == -1 || n != r->depth)
		return (-1);
	r->modules = *rb;
	for (i = 0; i < r->depth; i++) {
		if (view_rb_string(rb, &s, &len) == -1)
			return (-1);
	}
	return (view_rb_fixed(rb, &r->value, 8));
}

static int
view_metric_cmp(const void *a, const void *b)
{
	const struct view_metric	*x = a, *y = b;
	size_t				 n;
	int				 c;

	if (x->index != y->index)
		return (x->index < y->index ? -1 : 1);
	n = x->len < y->len ? x->len : y->len;
	if ((c = memcmp(x->name, y->name, n)) != 0)
		return (c);
	return (x->len < y->len ? -1 : x->len > y->len);
}

/* The metric of a row, or NULL. */
static struct view_metric *
view_metric_find(struct view_metric *m, size_t n, const struct view_row *r)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (m[i].len == r->metriclen &&
		    memcmp(m[i].name, r->metric, r->metriclen) == 0)
			return (&m[i]);
	}
	return (NULL);
}

/*
 * The answer looked at as it is read (clickhouse_on_body): whole rows
 * counted from where the last look stopped, so that a stream past
 * max_rows, or bytes that cannot be a row (VIEW_MAX_ROW without one
 * ending), is refused at once, not once all of it is held.
 */
struct view_stream {
	const char	*path;
	size_t		 off;
	uint64_t	 rows;
	long long	 max_rows;
};

static int
view_stream_check(void *arg, const char *body, size_t len, char **cause)
{
	struct view_stream	*vs = arg;
	struct view_rb		 rb;
	struct view_row		 r;

	rb.end = (const unsigned char *)body + len;
	for (;;) {
		rb.p = (const unsigned char *)body + vs->off;
		if (rb.p >= rb.end || view_row(&rb, &r) == -1)
			break;
		vs->off = rb.p - (const unsigned char *)body;
		if (++vs->rows > (uint64_t)vs->max_rows) {
			cause_set(cause, "%s: the selection has more than %lld "
			    "stacks (max_rows=); narrow where= or the time "
			    "range", vs->path, vs->max_rows);
			return (-1);
		}
	}
	if (len - vs->off > VIEW_MAX_ROW) {
		cause_set(cause, "%s: ClickHouse's answer is malformed at row "
		    "%llu", vs->path, (unsigned long long)vs->rows + 1);
		return (-1);
	}
	return (0);
}

/* Build the profile from the answer: two passes, metrics then stacks. */
static struct profile *
view_build(const struct clickhouse_buf *ans, const char *path,
    const struct reader_options *opts, char **cause)
{
	struct view_metric	 m[PROFILE_MAX_METRICS], *vm;
	struct view_row		 r;
	struct view_rb		 rb;
	struct profile_builder	*b;
	const char		*name, *mod;
	char			 unit[64], *mname;
	size_t			 nm = 0, i, namelen, modlen;
	uint64_t		 rows = 0, d;
	uint32_t		 node, f;

	rb.p = (const unsigned char *)ans->b;
	rb.end = rb.p + ans->n;
	while (rb.p < rb.end) {
		if (view_row(&rb, &r) == -1) {
			cause_set(cause, "%s: ClickHouse's answer is cut or "
			    "malformed at row %llu", path,
			    (unsigned long long)rows + 1);
			return (NULL);
		}
		rows++;
		if ((vm = view_metric_find(m, nm, &r)) != NULL) {
			if (r.index < vm->index)
				vm->index = r.index;
			if (r.rate > vm->rate)
				vm->rate = r.rate;
			continue;
		}
		if (nm == PROFILE_MAX_METRICS) {
			cause_set(cause, "%s: more than %d metrics; choose one "
			    "with metric=", path, PROFILE_MAX_METRICS);
			return (NULL);
		}
		vm = &m[nm++];
		vm->name = r.metric;
		vm->len = r.metriclen;
		vm->unit = r.unit;
		vm->unitlen = r.unitlen;
		vm->index = r.index;
		vm->rate = r.rate;
	}
	if (nm == 0) {
		cause_set(cause, "%s: no samples match the view", path);
		return (NULL);
	}
	qsort(m, nm, sizeof m[0], view_metric_cmp);

	if ((b = profile_builder_create("view")) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(b, opts->max_nodes);
	for (i = 0; i < nm; i++) {
		if ((mname = strndup(m[i].name, m[i].len)) == NULL)
			goto nomem;
		snprintf(unit, sizeof unit, "%.*s", (int)m[i].unitlen,
		    m[i].unit);
		m[i].col = profile_builder_metric(b, mname, *unit ? unit :
		    "count");
		free(mname);
		if (m[i].col == -1)
			goto fail;
		if (m[i].rate > 0)
			profile_builder_metric_rate(b, m[i].col, m[i].rate);
	}
	rb.p = (const unsigned char *)ans->b;
	while (rb.p < rb.end) {
		(void)view_row(&rb, &r);
		vm = view_metric_find(m, nm, &r);
		node = PROFILE_ROOT;
		for (d = 0; d < r.depth; d++) {
			(void)view_rb_string(&r.funcs, &name, &namelen);
			(void)view_rb_string(&r.modules, &mod, &modlen);
			if ((f = profile_builder_func(b, name, namelen, mod,
			    modlen)) == PROFILE_NONE ||
			    (node = profile_builder_child(b, node, f)) ==
			    PROFILE_NONE)
				goto fail;
		}
		if (profile_builder_add(b, node, vm->col, r.value) == -1)
			goto fail;
	}
	return (profile_builder_finish(b, cause));
nomem:
	cause_set(cause, "out of memory");
	profile_builder_free(b);
	return (NULL);
fail:
	cause_set(cause, "%s: %s", path, profile_builder_error(b));
	profile_builder_free(b);
	return (NULL);
}

static struct profile *
view_load(struct input *in, const struct reader_options *opts, char **cause)
{
	struct view_conf	 vc;
	struct view_extra	*ve = NULL;
	struct clickhouse	*ch = NULL;
	struct clickhouse_buf	 sql = { 0 }, q = { 0 }, ans = { 0 };
	struct profile		*p = NULL;
	struct stat		 st, pst;
	char			*password = NULL, *why = NULL;
	time_t			 now = time(NULL);
	unsigned		 left;
	size_t			 max;
	uint64_t		 rows;
	struct view_rb		 rb;
	struct view_row		 r;
	struct view_stream	 vs;

	memset(&vc, 0, sizeof vc);
	if (fstat(in->fd, &st) == -1) {
		cause_set(cause, "%s: %s", in->path, strerror(errno));
		return (NULL);
	}
	if (view_conf_parse(in, &vc, cause) == -1)
		goto out;
	if ((ch = clickhouse_create(vc.clickhouse, &why)) == NULL) {
		cause_set(cause, "%s: clickhouse=: %s", in->path,
		    why ? why : "out of memory");
		goto out;
	}
	/*
	 * Within the caller's own deadline if it set one (the server's
	 * load_timeout alarm): time out first, and say it was ClickHouse.
	 */
	if ((left = alarm(0)) != 0) {
		alarm(left);
		if (left > 1 && (long long)left - 1 < vc.timeout)
			vc.timeout = left - 1;
	}
	clickhouse_timeout(ch, (int)vc.timeout);
	if (vc.password_file != NULL && (password = view_password(in->path,
	    vc.password_file, &pst, cause)) == NULL)
		goto out;
	if ((vc.user != NULL || password != NULL) && clickhouse_auth(ch,
	    vc.user ? vc.user : "default", password, cause) == -1)
		goto out;

	view_sql(&vc, now, &sql);
	clickhouse_buf_printf(&q, "max_execution_time=%lld&"
	    "wait_end_of_query=1", vc.timeout);
	if (sql.error || q.error) {
		cause_set(cause, "out of memory");
		goto out;
	}
	/* A row is a stack: bound the bytes as the rows are bounded. */
	max = (size_t)vc.max_rows * 8192;
	if (max > (size_t)1 << 32)
		max = (size_t)1 << 32;
	vs.path = in->path;
	vs.off = 0;
	vs.rows = 0;
	vs.max_rows = vc.max_rows;
	clickhouse_on_body(ch, view_stream_check, &vs);
	if (clickhouse_post(ch, q.b, sql.b, sql.n, max, &ans, cause) != 0)
		goto out;
	rows = 0;
	rb.p = (const unsigned char *)ans.b;
	rb.end = rb.p + ans.n;
	while (rb.p < rb.end && view_row(&rb, &r) == 0)
		rows++;
	if (rows > (uint64_t)vc.max_rows) {
		cause_set(cause, "%s: the selection has more than %lld stacks "
		    "(max_rows=); narrow where= or the time range", in->path,
		    vc.max_rows);
		goto out;
	}
	if ((p = view_build(&ans, in->path, opts, cause)) == NULL)
		goto out;
	if ((ve = calloc(1, sizeof *ve)) == NULL) {
		profile_free(p);
		p = NULL;
		cause_set(cause, "out of memory");
		goto out;
	}
	/*
	 * The extra marks the profile as one the processed-profile cache
	 * must not keep: the data changes while the file does not.
	 */
	ve->dev = st.st_dev;
	ve->ino = st.st_ino;
	ve->size = st.st_size;
	ve->mtime = st.st_mtim;
	ve->loaded = now;
	ve->refresh = vc.refresh;
	if (password != NULL) {
		ve->has_secret = 1;
		ve->secret = pst;
	}
	p->extra = ve;
	p->extra_free = free;
out:
	if (password != NULL) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
	free(why);
	clickhouse_free(ch);
	clickhouse_buf_free(&sql);
	clickhouse_buf_free(&q);
	clickhouse_buf_free(&ans);
	view_conf_free(&vc);
	return (p);
}

/*
 * Why a loaded view is out of date (its file changed, or its refresh=
 * interval passed), or NULL while it is current and for any other
 * profile. The server asks every second and exits when it is, so that
 * the next request loads the view again.
 */
const char *
reader_view_stale(const struct profile *p, const char *path)
{
	const struct view_extra	*ve;
	struct stat		 st;

	if (p == NULL || p->format == NULL || strcmp(p->format, "view") != 0 ||
	    (ve = p->extra) == NULL)
		return (NULL);
	if (ve->refresh > 0 && time(NULL) - ve->loaded >= ve->refresh)
		return ("view refresh interval");
	if (path != NULL && (stat(path, &st) == -1 || st.st_dev != ve->dev ||
	    st.st_ino != ve->ino || st.st_size != ve->size ||
	    st.st_mtim.tv_sec != ve->mtime.tv_sec ||
	    st.st_mtim.tv_nsec != ve->mtime.tv_nsec))
		return ("view file changed");
	return (NULL);
}

/*
 * The password file of a loaded view, if it has one: 1 and its stat in
 * *st (the server marks it so that no client gets it served), else 0.
 */
int
reader_view_secret(const struct profile *p, struct stat *st)
{
	const struct view_extra	*ve;

	if (p == NULL || p->format == NULL || strcmp(p->format, "view") != 0 ||
	    (ve = p->extra) == NULL || !ve->has_secret)
		return (0);
	*st = ve->secret;
	return (1);
}

/* Is the file at path a view file (by content, as the probe decides)? */
int
reader_view_file(const char *path)
{
	char	 buf[sizeof VIEW_MAGIC];
	ssize_t	 n;
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) ==
	    -1)
		return (0);
	n = read(fd, buf, sizeof buf);
	close(fd);
	return (n > 0 && view_probe(buf, n) > 0);
}

/* Is a load error's cause ClickHouse being unreachable (503, retry)? */
int
reader_view_unavailable(const char *cause)
{
	return (cause != NULL && strstr(cause, CLICKHOUSE_UNAVAILABLE_TEXT) !=
	    NULL);
}

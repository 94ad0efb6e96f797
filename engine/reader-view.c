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
#include "cost.h"
#include "input.h"
#include "profile.h"
#include "query.h"
#include "reader.h"
#include "reader-view.h"
#include "selector.h"
#include "view-query.h"

/*
 * The view reader (deepq-clickhouse(7)). A view file is
 *
 *	# deepq-view 1
 *	clickhouse = http://127.0.0.1:8123/
 *	table = prof
 *	select = {service="api", region=~"eu-.*"}
 *
 * and loading it asks ClickHouse for the sums of the selected stacks
 * (view-query.c). The SQL holds the administrator's where= as written;
 * everything else in it is a checked name, a number, a literal made by
 * clickhouse_quote(), or a selector's condition (selector.c). The file
 * is the administrator's; a request narrows it, never widens it: its
 * select= is ANDed with the file's, its from_time= and to_time= with
 * the file's range.
 *
 * Each loaded view (the file's, and each narrowing of it) carries a
 * view_extra: the state shared by all (the file's settings, the
 * ClickHouse client with its credentials, what the server watches to
 * know the view is out of date), its own narrowing and summary, and in
 * the file's own, the last VIEW_MEMO narrowings, so that paging through
 * the reports of one select= asks ClickHouse once.
 */

#define VIEW_MAGIC		"# deepq-view 1"
#define VIEW_MAX_LINES		256
#define VIEW_MAX_ROWS		5000000		/* max_rows= default */
#define VIEW_MAX_BYTES		(16LL << 30)	/* max_bytes= at most */
#define VIEW_TIMEOUT		60		/* timeout= default */
#define VIEW_MEMO		4		/* narrowings kept */

/* What every loaded view of one file shares. */
struct view_state {
	int			 refs;
	struct view_conf	 conf;
	struct clickhouse	*ch;
	char			*path;
	uint32_t		 max_nodes;
	time_t			 loaded;	/* last= counts from here */
	/* What the server checks to know the view is out of date. */
	dev_t			 dev;
	ino_t			 ino;
	off_t			 size;
	struct timespec		 mtime;
	int			 has_secret;	/* a password_file, as secret */
	struct stat		 secret;
};

struct view_memo {
	char		*key;
	struct profile	*p;
	unsigned long	 used;
};

struct view_extra {
	struct view_state	*st;
	struct view_narrow	 narrow;
	char			*narrow_text;
	struct view_summary	 summary;
	int			 root;		/* the file's own view */
	struct view_memo	 memo[VIEW_MEMO];
	unsigned long		 tick;
};

static int	 view_probe(const char *, size_t);
static struct profile *view_load(struct input *,
		     const struct reader_options *, char **);

const struct reader reader_view = {
	"view",
	"deepq view file: a selection of ClickHouse tables",
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
	free(vc->select_text);
	selector_free(vc->select);
}

static void
view_state_unref(struct view_state *st)
{
	if (st == NULL || --st->refs > 0)
		return;
	view_conf_free(&st->conf);
	clickhouse_free(st->ch);
	free(st->path);
	free(st);
}

/* A view's extra (profile.h's extra_free). */
static void
view_extra_free(void *arg)
{
	struct view_extra	*ve = arg;
	size_t			 i;

	if (ve == NULL)
		return;
	for (i = 0; i < VIEW_MEMO; i++) {
		free(ve->memo[i].key);
		profile_free(ve->memo[i].p);
	}
	selector_free(ve->narrow.select);
	free(ve->narrow_text);
	view_summary_clear(&ve->summary);
	view_state_unref(ve->st);
	free(ve);
}

/* The view_extra of a loaded view, or NULL for any other profile. */
static struct view_extra *
view_extra_of(const struct profile *p)
{
	if (p == NULL || p->format == NULL || strcmp(p->format, "view") != 0 ||
	    p->extra_free != view_extra_free)
		return (NULL);
	return (p->extra);
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
	if (strcmp(key, "select") == 0) {
		if (view_conf_string(&vc->select_text, key, v, cause) == -1)
			return (-1);
		return ((vc->select = selector_parse(v, cause)) == NULL ? -1 :
		    0);
	}
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
	if (strcmp(key, "max_rows") == 0 || strcmp(key, "max_bytes") == 0) {
		errno = 0;
		n = strtoll(v, NULL, 10);
		if (strspn(v, "0123456789") != strlen(v) || *v == '\0' ||
		    errno != 0 || n < 1 || (key[4] == 'r' ?
		    n > PROFILE_MAX_NODES / 2 : n > VIEW_MAX_BYTES)) {
			cause_set(cause, "%s=: a number from 1%s", key,
			    key[4] == 'b' ? " to 2^34" : "");
			return (-1);
		}
		if (key[4] == 'r')
			vc->max_rows = n;
		else
			vc->max_bytes = n;
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
	/* An answer's bytes bounded with its stacks, unless given. */
	if (vc->max_bytes == 0)
		vc->max_bytes = vc->max_rows > VIEW_MAX_BYTES / 4096 ?
		    VIEW_MAX_BYTES : vc->max_rows * 4096;
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


/* The client for the file's ClickHouse, with its credentials. */
static int
view_connect(struct view_state *st, const char *path, char **cause)
{
	struct view_conf	*vc = &st->conf;
	char			*password = NULL, *why = NULL;
	unsigned		 left;
	int			 r = -1;

	if ((st->ch = clickhouse_create(vc->clickhouse, &why)) == NULL) {
		cause_set(cause, "%s: clickhouse=: %s", path,
		    why ? why : "out of memory");
		free(why);
		return (-1);
	}
	/*
	 * Within the caller's own deadline if it set one (the server's
	 * load_timeout alarm): time out first, and say it was ClickHouse.
	 */
	if ((left = alarm(0)) != 0) {
		alarm(left);
		if (left > 1 && (long long)left - 1 < vc->timeout)
			vc->timeout = left - 1;
	}
	clickhouse_timeout(st->ch, (int)vc->timeout);
	if (vc->password_file != NULL && (password = view_password(path,
	    vc->password_file, &st->secret, cause)) == NULL)
		return (-1);
	st->has_secret = password != NULL;
	if ((vc->user != NULL || password != NULL) && clickhouse_auth(st->ch,
	    vc->user ? vc->user : "default", password, cause) == -1)
		goto out;
	r = 0;
out:
	if (password != NULL) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
	return (r);
}

/* Load a view, narrowed or not: the profile with its extra. */
static struct profile *
view_load_narrow(struct view_state *st, struct view_narrow *narrow,
    char *text, long long deadline, int root, int *status, char **cause)
{
	struct view_query	 vq;
	struct view_extra	*ve;
	struct profile		*p;

	memset(&vq, 0, sizeof vq);
	vq.ch = st->ch;
	vq.conf = &st->conf;
	vq.narrow = narrow;
	vq.now = st->loaded;
	vq.deadline = deadline;
	vq.path = st->path;
	vq.max_nodes = st->max_nodes;
	if ((ve = calloc(1, sizeof *ve)) == NULL) {
		*status = 500;
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if ((p = view_query_profile(&vq, &ve->summary, status, cause)) ==
	    NULL) {
		free(ve);
		return (NULL);
	}
	/*
	 * The file's own view has its labels from the load, which may
	 * take its time; a narrowing asks when its summary page does.
	 */
	if (root && view_query_labels(&vq, &ve->summary, status, cause) ==
	    -1) {
		view_summary_clear(&ve->summary);
		free(ve);
		profile_free(p);
		return (NULL);
	}
	/*
	 * The extra also marks the profile as one the processed-profile
	 * cache must not keep: the data changes while the file does not.
	 */
	ve->st = st;
	st->refs++;
	ve->root = root;
	if (narrow != NULL) {
		ve->narrow = *narrow;
		memset(narrow, 0, sizeof *narrow);
		ve->narrow_text = text;
	}
	p->extra = ve;
	p->extra_free = view_extra_free;
	return (p);
}

static struct profile *
view_load(struct input *in, const struct reader_options *opts, char **cause)
{
	struct view_state	*st;
	struct profile		*p = NULL;
	struct stat		 st_file;
	int			 status;

	if (fstat(in->fd, &st_file) == -1) {
		cause_set(cause, "%s: %s", in->path, strerror(errno));
		return (NULL);
	}
	if ((st = calloc(1, sizeof *st)) == NULL ||
	    (st->path = strdup(in->path)) == NULL) {
		free(st);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	st->refs = 1;
	st->loaded = time(NULL);
	st->max_nodes = opts->max_nodes;
	st->dev = st_file.st_dev;
	st->ino = st_file.st_ino;
	st->size = st_file.st_size;
	st->mtime = st_file.st_mtim;
	if (view_conf_parse(in, &st->conf, cause) == 0 &&
	    view_connect(st, in->path, cause) == 0)
		p = view_load_narrow(st, NULL, NULL, 0, 1, &status, cause);
	view_state_unref(st);
	return (p);
}

/*
 * The view p narrowed by a query (select: a selector, or NULL or "";
 * from and to: Unix seconds, 0 for none), ANDed with the view file's
 * selection: p itself when nothing narrows it. The profile stays the
 * view's (kept among its last VIEW_MEMO narrowings) and lives as long
 * as p, at least until the next narrowing. NULL with *status (400 for
 * a bad selector or a profile that is not a view, 503 for ClickHouse
 * or the query's time) and *cause.
 */
const struct profile *
reader_view_select(const struct profile *p, const char *select,
    int64_t from, int64_t to, struct cost *cost, int *status, char **cause)
{
	struct view_extra	*ve, *root;
	struct view_narrow	 narrow;
	struct view_memo	*m, *lru;
	struct profile		*np;
	char			*key = NULL, *text = NULL;
	size_t			 i;

	if (select == NULL)
		select = "";
	if (*select == '\0' && from == 0 && to == 0)
		return (p);
	if ((ve = view_extra_of(p)) == NULL) {
		*status = 400;
		cause_set(cause, "select=, from_time= and to_time= narrow "
		    "view files only (deepq-clickhouse(7))");
		return (NULL);
	}
	if (to != 0 && from >= to) {
		*status = 400;
		cause_set(cause, "from_time= must come before to_time=");
		return (NULL);
	}
	/* A narrowing starts from the file's view, whichever p is. */
	root = ve;
	if (!ve->root) {
		*status = 400;
		cause_set(cause, "a narrowed view cannot be narrowed again");
		return (NULL);
	}
	if (asprintf(&key, "%s\n%lld\n%lld", select, (long long)from,
	    (long long)to) == -1) {
		*status = 500;
		cause_set(cause, "out of memory");
		return (NULL);
	}
	lru = &root->memo[0];
	for (i = 0; i < VIEW_MEMO; i++) {
		m = &root->memo[i];
		if (m->key != NULL && strcmp(m->key, key) == 0) {
			m->used = ++root->tick;
			free(key);
			return (m->p);
		}
		if (m->used < lru->used)
			lru = m;
	}
	memset(&narrow, 0, sizeof narrow);
	narrow.from = (time_t)from;
	narrow.to = (time_t)to;
	if (*select != '\0' && ((narrow.select = selector_parse(select,
	    cause)) == NULL || (text = strdup(select)) == NULL)) {
		*status = narrow.select == NULL ? 400 : 500;
		if (narrow.select != NULL)
			cause_set(cause, "out of memory");
		selector_free(narrow.select);
		free(key);
		return (NULL);
	}
	np = view_load_narrow(root->st, &narrow, text, cost != NULL ?
	    cost->deadline : 0, 0, status, cause);
	if (np == NULL) {
		selector_free(narrow.select);
		free(text);
		free(key);
		if (*status == 503 && cost != NULL && cost_check(cost) == -1) {
			free(*cause);
			*cause = cost_message(cost);
		}
		return (NULL);
	}
	free(lru->key);
	profile_free(lru->p);
	lru->key = key;
	lru->p = np;
	lru->used = ++root->tick;
	if (p->source != NULL)
		np->source = strdup(p->source);
	return (np);
}

/* The query context of a loaded view, with a query's deadline. */
static void
view_query_of(const struct view_extra *ve, struct cost *cost,
    struct view_query *vq)
{
	memset(vq, 0, sizeof *vq);
	vq->ch = ve->st->ch;
	vq->conf = &ve->st->conf;
	vq->narrow = ve->root ? NULL : &ve->narrow;
	vq->now = ve->st->loaded;
	vq->deadline = cost != NULL ? cost->deadline : 0;
	vq->path = ve->st->path;
	vq->max_nodes = ve->st->max_nodes;
}

/*
 * Ask for the labels of a loaded view if no page has yet (its summary
 * page shows them): 0, also for any other profile; -1 with *status and
 * *cause.
 */
int
reader_view_labels(const struct profile *p, struct cost *cost, int *status,
    char **cause)
{
	struct view_extra	*ve;
	struct view_query	 vq;

	if ((ve = view_extra_of(p)) == NULL || ve->summary.labelled)
		return (0);
	view_query_of(ve, cost, &vq);
	if (view_query_labels(&vq, &ve->summary, status, cause) == -1) {
		if (*status == 503 && cost != NULL && cost_check(cost) == -1) {
			free(*cause);
			*cause = cost_message(cost);
		}
		return (-1);
	}
	return (0);
}

/*
 * Would answering q about p wait on ClickHouse (cmd=series, a narrowing
 * not kept, a narrowed base, a narrowing's labels)? The server gives
 * such a query to a worker at once, so that no other waits on it.
 */
int
reader_view_remote(const struct profile *p, const struct query *q)
{
	struct view_extra	*ve;
	char			*key;
	size_t			 i;
	int			 kept = 0;

	if ((ve = view_extra_of(p)) == NULL)
		return (0);
	if (q->cmd == CMD_SERIES || *q->base_select != '\0' ||
	    q->base_from_time != 0 || q->base_to_time != 0)
		return (1);
	if (*q->select == '\0' && q->from_time == 0 && q->to_time == 0)
		return (0);
	if (asprintf(&key, "%s\n%lld\n%lld", q->select,
	    (long long)q->from_time, (long long)q->to_time) == -1)
		return (1);
	for (i = 0; i < VIEW_MEMO; i++) {
		if (ve->memo[i].key != NULL &&
		    strcmp(ve->memo[i].key, key) == 0)
			kept = q->cmd != CMD_MENU ||
			    view_extra_of(ve->memo[i].p)->summary.labelled;
	}
	free(key);
	return (!kept);
}

/* What a loaded view shows of itself: -1 for any other profile. */
int
reader_view_info(const struct profile *p, struct reader_view_info *vi)
{
	struct view_extra	*ve;

	memset(vi, 0, sizeof *vi);
	if ((ve = view_extra_of(p)) == NULL)
		return (-1);
	vi->summary = &ve->summary;
	vi->select = ve->st->conf.select_text;
	vi->where = ve->st->conf.where;
	vi->narrow = ve->narrow_text;
	vi->from = ve->narrow.from;
	vi->to = ve->narrow.to;
	return (0);
}

/*
 * Function func's share of each of p's metrics per step seconds across
 * the view p (as narrowed), with the first times of each value of the
 * label marker (or NULL). 0 with *out, or -1 with *status and *cause.
 */
int
reader_view_series(const struct profile *p, uint32_t func, long long step,
    const char *marker, struct cost *cost, struct view_series **out,
    int *status, char **cause)
{
	struct view_extra	*ve;
	struct view_query	 vq;
	const char		*metrics[PROFILE_MAX_METRICS];
	size_t			 i;

	if ((ve = view_extra_of(p)) == NULL) {
		*status = 400;
		cause_set(cause, "cmd=series reads view files only "
		    "(deepq-clickhouse(7))");
		return (-1);
	}
	for (i = 0; i < p->nmetrics; i++)
		metrics[i] = p->metrics[i].name;
	view_query_of(ve, cost, &vq);
	if (view_query_series(&vq, profile_func_name(p, func),
	    profile_func_module(p, func), step, marker, &ve->summary, metrics,
	    p->nmetrics, out, status, cause) == -1) {
		if (*status == 503 && cost != NULL && cost_check(cost) == -1) {
			free(*cause);
			*cause = cost_message(cost);
		}
		return (-1);
	}
	return (0);
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
	const struct view_state	*st;
	struct stat		 sb;

	if ((ve = view_extra_of(p)) == NULL || !ve->root)
		return (NULL);
	st = ve->st;
	if (st->conf.refresh > 0 && time(NULL) - st->loaded >=
	    st->conf.refresh)
		return ("view refresh interval");
	if (path != NULL && (stat(path, &sb) == -1 || sb.st_dev != st->dev ||
	    sb.st_ino != st->ino || sb.st_size != st->size ||
	    sb.st_mtim.tv_sec != st->mtime.tv_sec ||
	    sb.st_mtim.tv_nsec != st->mtime.tv_nsec))
		return ("view file changed");
	return (NULL);
}

/*
 * The password file of a loaded view, if it has one: 1 and its stat in
 * *sb (the server marks it so that no client gets it served), else 0.
 */
int
reader_view_secret(const struct profile *p, struct stat *sb)
{
	const struct view_extra	*ve;

	if ((ve = view_extra_of(p)) == NULL || !ve->st->has_secret)
		return (0);
	*sb = ve->st->secret;
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

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

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "answer.h"
#include "catalog.h"
#include "cause.h"
#include "conf.h"
#include "escape.h"
#include "outbuf.h"
#include "page.h"
#include "profindex.h"
#include "query.h"
#include "render.h"
#include "utf8.h"

/*
 * deepq.cgi's answer to cmd=index, the link every page has to the
 * profile index (see profindex.h). Never a server: the list is a walk of
 * profile_root, made only when deepq.conf asks for it (index_entries),
 * from the root's directory descriptor down (openat, never a path built
 * from names), not following symbolic links, not showing hidden names,
 * bounded in depth, in directory entries read and in entries shown.
 * deepq.cgi has no readers: every regular file is listed, as deepq web
 * lists only what a reader recognises.
 */

#define PROFINDEX_MAX_DEPTH	8	/* directory levels under the root */
#define PROFINDEX_MAX_READ	200000	/* directory entries read, in all */
#define PROFINDEX_MAX_NAME	4096	/* bytes of a name (file='s bound) */

struct profindex_entry {
	char		*name;		/* relative to the root */
	off_t		 size;
};

struct profindex {
	struct profindex_entry	*ev;
	size_t			 n, cap;
	size_t			 max;		/* index_entries */
	size_t			 read;		/* directory entries seen */
	int			 truncated;	/* a bound was reached */
};

static int	profindex_scan(struct profindex *, int, const char *, int);
static int	profindex_add(struct profindex *, const char *, off_t);
static int	profindex_cmp(const void *, const void *);
static void	profindex_free(struct profindex *);
static void	profindex_number(struct outbuf *, int64_t);
static int	profindex_html(struct outbuf *, const struct profindex *,
		    const struct render_context *);
static int	profindex_json(struct outbuf *, const struct profindex *);
static int	profindex_text(struct outbuf *, const struct profindex *);
static int	profindex_none(struct outbuf *, const char *, const char *,
		    const struct render_context *);
static struct answer *profindex_finish(struct outbuf *,
		    struct answer *, int, char **);

static int
profindex_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct profindex_entry *)a)->name,
	    ((const struct profindex_entry *)b)->name));
}

static void
profindex_free(struct profindex *x)
{
	size_t	 i;

	for (i = 0; i < x->n; i++)
		free(x->ev[i].name);
	free(x->ev);
}

/* One entry; -1 if out of memory. */
static int
profindex_add(struct profindex *x, const char *name, off_t size)
{
	struct profindex_entry	*ne;

	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 64;
		if ((ne = reallocarray(x->ev, x->cap, sizeof *ne)) == NULL)
			return (-1);
		x->ev = ne;
	}
	if ((x->ev[x->n].name = strdup(name)) == NULL)
		return (-1);
	x->ev[x->n].size = size;
	x->n++;
	return (0);
}

/*
 * The regular files of the directory dfd (which this call closes), rel
 * its name under the root ("" for the root). A file whose name cannot be
 * a file= value (not UTF-8, too long) is left out. -1 if out of memory.
 */
static int
profindex_scan(struct profindex *x, int dfd, const char *rel, int depth)
{
	struct dirent	*de;
	struct stat	 st;
	char		*name;
	DIR		*d;
	int		 fd, r = 0;

	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return (0);
	}
	while (r == 0 && !x->truncated && (de = readdir(d)) != NULL) {
		if (++x->read > PROFINDEX_MAX_READ) {
			x->truncated = 1;
			break;
		}
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&name, "%s%s%s", rel, *rel ? "/" : "",
		    de->d_name) == -1) {
			r = -1;
			break;
		}
		if (strlen(name) > PROFINDEX_MAX_NAME ||
		    !utf8_valid(name, strlen(name)) ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == -1)
			;
		else if (S_ISDIR(st.st_mode)) {
			if (depth < PROFINDEX_MAX_DEPTH && (fd = openat(dirfd(d),
			    de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC)) != -1)
				r = profindex_scan(x, fd, name, depth + 1);
		} else if (S_ISREG(st.st_mode) && x->n == x->max)
			x->truncated = 1;
		else if (S_ISREG(st.st_mode))
			r = profindex_add(x, name, st.st_size);
		free(name);
	}
	closedir(d);
	return (r);
}

/* A count with thousands separators. */
static void
profindex_number(struct outbuf *ob, int64_t v)
{
	char	 digits[32], out[48];
	int	 n, i, o = 0;

	n = snprintf(digits, sizeof digits, "%lld", (long long)v);
	for (i = 0; i < n; i++) {
		if (i > 0 && digits[i - 1] != '-' && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	outbuf_write(ob, out, o);
}

/* An href to the query string qs (already a canonical, encoded query). */
static void
profindex_href(struct outbuf *ob, const struct render_context *ctx,
    const char *qs)
{
	outbuf_puts(ob, " href=\"");
	escape_html_buf(ob, ctx->link_base, strlen(ctx->link_base));
	escape_html_buf(ob, qs, strlen(qs));
	outbuf_putc(ob, '"');
}

/* file=NAME, encoded; NULL if out of memory. */
static char *
profindex_link(const char *name)
{
	char	*e, *l;

	if ((e = query_urlencode(name)) == NULL)
		return (NULL);
	if (asprintf(&l, "file=%s", e) == -1)
		l = NULL;
	free(e);
	return (l);
}

/*
 * The page: the table of profiles, then the form that starts a
 * comparison of two of them (as deepq web's index has).
 */
static int
profindex_html(struct outbuf *ob, const struct profindex *x,
    const struct render_context *ctx)
{
	size_t		 i, s;
	char		*l;

	page_begin(ob, "Profiles", ctx, NULL);
	outbuf_puts(ob, "<p>");
	profindex_number(ob, (int64_t)x->n);
	outbuf_puts(ob, x->n == 1 ? " profile" : " profiles");
	if (x->truncated)
		outbuf_puts(ob, " shown; there are more (index_entries in "
		    "deepq.conf sets how many)");
	outbuf_puts(ob, ".</p>\n<table class=\"report\" id=\"profiles\">\n"
	    "<thead><tr><th scope=\"col\">Profile</th><th scope=\"col\" "
	    "class=\"num\">Bytes</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < x->n; i++) {
		if ((l = profindex_link(x->ev[i].name)) == NULL) {
			outbuf_fail(ob);
			break;
		}
		outbuf_puts(ob, "<tr><td><a");
		profindex_href(ob, ctx, l);
		free(l);
		outbuf_putc(ob, '>');
		escape_html_buf(ob, x->ev[i].name, strlen(x->ev[i].name));
		outbuf_puts(ob, "</a></td><td class=\"num\">");
		profindex_number(ob, (int64_t)x->ev[i].size);
		outbuf_puts(ob, "</td></tr>\n");
	}
	outbuf_puts(ob, "</tbody>\n</table>\n");
	if (x->n >= 2) {
		outbuf_puts(ob, "<form class=\"compare\" method=\"get\" "
		    "action=\"");
		escape_html_buf(ob, ctx->link_base, strlen(ctx->link_base));
		outbuf_puts(ob, "\"><h2>Compare two profiles</h2>\n");
		for (s = 0; s < 2; s++) {
			outbuf_puts(ob, s == 0 ? "<label>Profile <select "
			    "name=\"file\">" : " <label>with the base <select "
			    "name=\"base\">");
			for (i = 0; i < x->n; i++) {
				outbuf_puts(ob, i == s ? "<option selected>" :
				    "<option>");
				escape_html_buf(ob, x->ev[i].name,
				    strlen(x->ev[i].name));
				outbuf_puts(ob, "</option>");
			}
			outbuf_puts(ob, "</select></label>\n");
		}
		outbuf_puts(ob, "<label><input type=\"checkbox\" "
		    "name=\"normalize\" value=\"1\"> normalize the totals"
		    "</label>\n<input type=\"hidden\" name=\"cmd\" "
		    "value=\"top\"><input type=\"hidden\" name=\"sort\" "
		    "value=\"delta\"><button type=\"submit\">Compare</button>"
		    "</form>\n");
	}
	page_end(ob, ctx);
	return (outbuf_failed(ob) ? -1 : 0);
}

/* {"deepq": 1, "cmd": "index", "profiles": [{name, size}], "truncated"} */
static int
profindex_json(struct outbuf *ob, const struct profindex *x)
{
	json_t	*j, *rows;
	char	*s;
	size_t	 i;
	int	 r = 0;

	if ((j = json_pack("{s:i, s:s, s:[], s:b}", "deepq",
	    ANSWER_JSON_VERSION, "cmd", "index", "profiles", "truncated",
	    x->truncated)) == NULL)
		return (-1);
	rows = json_object_get(j, "profiles");
	for (i = 0; r == 0 && i < x->n; i++) {
		if (json_array_append_new(rows, json_pack("{s:s, s:I}", "name",
		    x->ev[i].name, "size", (json_int_t)x->ev[i].size)) == -1)
			r = -1;
	}
	if (r == 0 && (s = json_dumps(j, JSON_COMPACT |
	    JSON_ENSURE_ASCII)) != NULL) {
		outbuf_puts(ob, s);
		outbuf_putc(ob, '\n');
		free(s);
	} else
		r = -1;
	json_decref(j);
	return (r == 0 && !outbuf_failed(ob) ? 0 : -1);
}

/* One profile a line: its name, a tab, its size. */
static int
profindex_text(struct outbuf *ob, const struct profindex *x)
{
	size_t	 i;

	for (i = 0; i < x->n; i++)
		outbuf_printf(ob, "%s\t%lld\n", x->ev[i].name,
		    (long long)x->ev[i].size);
	if (x->truncated)
		outbuf_puts(ob, "# there are more\n");
	return (outbuf_failed(ob) ? -1 : 0);
}

/*
 * No index here, or one elsewhere (url): a page that says so and links
 * to it, or back to the profile the link came from.
 */
static int
profindex_none(struct outbuf *ob, const char *url, const char *file,
    const struct render_context *ctx)
{
	char		*l;

	page_begin(ob, "Profiles", ctx, NULL);
	if (url != NULL) {
		outbuf_puts(ob, "<p>The profiles of this site are listed at "
		    "<a href=\"");
		escape_html_buf(ob, url, strlen(url));
		outbuf_puts(ob, "\">");
		escape_html_buf(ob, url, strlen(url));
		outbuf_puts(ob, "</a>.</p>\n");
	} else
		outbuf_puts(ob, "<p>This site does not list its profiles "
		    "(its deepq.conf sets neither <code>index_entries</code> "
		    "nor <code>index_url</code>): ask its owner for the name "
		    "of a profile, and open it as "
		    "<code>?file=NAME</code>.</p>\n");
	if (file != NULL) {
		if ((l = profindex_link(file)) == NULL)
			ob->error = 1;
		else {
			outbuf_puts(ob, "<p>Back to <a");
			profindex_href(ob, ctx, l);
			outbuf_putc(ob, '>');
			escape_html_buf(ob, file, strlen(file));
			outbuf_puts(ob, "</a>.</p>\n");
			free(l);
		}
	}
	page_end(ob, ctx);
	return (outbuf_failed(ob) ? -1 : 0);
}

static struct answer *
profindex_finish(struct outbuf *ob, struct answer *a, int r, char **cause)
{
	if (r == -1 || outbuf_failed(ob) ||
	    (a->body = outbuf_take(ob, &a->len)) == NULL) {
		outbuf_clear(ob);
		free(a);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	return (a);
}

/*
 * The answer to cmd=index (q, checked by front_check) in the query's
 * format; NULL with *cause if it could not be made.
 */
struct answer *
profindex_answer(const struct config *cfg, const struct query *q,
    const struct render_context *ctx, char **cause)
{
	struct profindex	 x;
	struct outbuf		 ob;
	struct answer		*a;
	const char		*file = NULL;
	int			 fd, r;

	/* The index's formats are the catalog's (html, json, text). */
	if (!catalog_report_answers(CMD_INDEX, q->format))
		return (answer_error(q->format, 400, "the index is html, json "
		    "or text", ctx));
	if (*q->file != '\0')
		file = q->file;

	if (cfg->index_entries == 0) {
		if (q->format != FMT_HTML)
			return (answer_error(q->format, 404, *cfg->index_url ?
			    "the profiles are listed elsewhere" :
			    "this site does not list its profiles", ctx));
		if ((a = calloc(1, sizeof *a)) == NULL) {
			cause_set(cause, "out of memory");
			return (NULL);
		}
		outbuf_init(&ob);
		/* See Other: the browser goes on to the site's index. */
		a->status = *cfg->index_url ? 303 : 200;
		a->location = *cfg->index_url ? cfg->index_url : NULL;
		a->content_type = "text/html; charset=utf-8";
		r = profindex_none(&ob, *cfg->index_url ? cfg->index_url : NULL,
		    file, ctx);
		return (profindex_finish(&ob, a, r, cause));
	}

	if (*cfg->profile_root == '\0')
		return (answer_error(q->format, 500, "no profile_root "
		    "configured", ctx));
	memset(&x, 0, sizeof x);
	x.max = cfg->index_entries;
	if ((fd = open(cfg->profile_root, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return (answer_error(q->format, 500, "the profile root cannot "
		    "be read", ctx));
	if (profindex_scan(&x, fd, "", 0) == -1) {
		profindex_free(&x);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (x.n > 0)
		qsort(x.ev, x.n, sizeof *x.ev, profindex_cmp);
	if ((a = calloc(1, sizeof *a)) == NULL) {
		profindex_free(&x);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	outbuf_init(&ob);
	a->status = 200;
	if (q->format == FMT_JSON) {
		a->content_type = "application/json";
		r = profindex_json(&ob, &x);
	} else if (q->format == FMT_TEXT) {
		a->content_type = "text/plain; charset=utf-8";
		r = profindex_text(&ob, &x);
	} else {
		a->content_type = "text/html; charset=utf-8";
		r = profindex_html(&ob, &x, ctx);
	}
	profindex_free(&x);
	return (profindex_finish(&ob, a, r, cause));
}

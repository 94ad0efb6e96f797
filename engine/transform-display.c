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

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "outbuf.h"
#include "profile.h"
#include "query.h"
#include "transform.h"

/*
 * The transforms on a report's page (transform.h): the stack as
 * breadcrumbs, each a link to the state with what follows it popped, and
 * links that push one more transform on the node or function the page is
 * about. Links are canonical query strings (query_format); a pushed
 * transform carries the query's path= and open= through it
 * (transform-path.c).
 */

static char	*transform_display_pop_link(const struct query *,
		    const struct transform_stack *, size_t);
static void	transform_display_actions(struct display *,
		    const struct profile *, const struct query *);
static void	transform_display_action(struct display *,
		    struct display_block *, const struct profile *,
		    const struct query *, const char *, const char *, ...)
		    __attribute__((__format__(__printf__, 6, 7)));

/*
 * The link to the state after entry i of the stack (everything after it
 * popped); i == SIZE_MAX: the complete profile. Paths and open= refer to
 * the more transformed tree, so they are dropped.
 */
static char *
transform_display_pop_link(const struct query *q,
    const struct transform_stack *s, size_t i)
{
	struct query	 v = *q;
	char		*t = NULL, *link;
	size_t		 j;

	query_key_reset(&v, QUERY_PATH);
	query_key_reset(&v, QUERY_OPEN);
	for (j = 0; j < s->nfilters; j++) {
		if (i != SIZE_MAX && j <= i)
			continue;
		query_key_reset(&v, transform_kind_query_key(s->v[j].kind));
		if (s->v[j].kind == TRANSFORM_PRUNE)
			query_key_reset(&v, QUERY_MIN_WORDS);
	}
	if (i == SIZE_MAX || i < s->nfilters)
		query_key_reset(&v, QUERY_T);
	else if ((t = transform_stack_format(s, i - s->nfilters + 1)) == NULL)
		return (NULL);
	else
		v.t = t;
	link = query_format(&v);
	free(t);
	return (link);
}

/*
 * The canonical link to q with one more transform (a t= item such as
 * "mcn-1,2") pushed on its stack, its path= and open= paths mapped
 * through it; p is the profile q's paths refer to (the current one).
 * NULL if out of memory or the item is invalid.
 */
char *
transform_display_push_link(const struct profile *p, const struct query *q,
    const char *item)
{
	struct transform	 t;
	struct query		 v = *q;
	const char		*cur = q->t, *s, *tilde;
	char			*tv = NULL, *link = NULL, *why = NULL, *ps;
	char			*open = NULL, *piece;
	uint32_t		*out, *path = NULL, *one = NULL;
	size_t			 outn, olen, none;
	struct outbuf		 of;
	int			 r;

	if (transform_parse_item(item, &t, &why) == -1) {
		free(why);
		return (NULL);
	}
	outbuf_init(&of);
	if (asprintf(&tv, "%s~%s", *cur ? cur : "1", item) == -1) {
		tv = NULL;
		goto done;
	}
	v.t = tv;
	if (q->npath > 0) {
		if ((r = transform_path_map(p, &t, q->path, q->npath, &out,
		    &outn)) == -1)
			goto done;
		if (r == 1 && outn > 0) {
			v.path = path = out;
			v.npath = outn;
		} else {
			free(out);
			query_key_reset(&v, QUERY_PATH);
		}
	}
	if (*(s = q->open) != '\0') {
		for (; *s != '\0'; s = tilde ? tilde + 1 : s + strlen(s)) {
			tilde = strchr(s, '~');
			if ((piece = strndup(s, tilde ? (size_t)(tilde - s) :
			    strlen(s))) == NULL)
				goto done;
			r = query_path_parse(piece, &one, &none);
			free(piece);
			if (r == -1 || none == 0) {
				free(one);
				one = NULL;
				continue;
			}
			r = transform_path_map(p, &t, one, none, &out, &outn);
			free(one);
			one = NULL;
			if (r == 1 && outn > 0 &&
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
		v.open = open;
	}
	link = query_format(&v);
done:
	outbuf_clear(&of);
	free(open);
	free(tv);
	free(path);
	transform_clear(&t);
	return (link);
}

/* One action link: label, and the push link for a formatted item. */
static void
transform_display_action(struct display *d, struct display_block *b,
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
	if ((link = transform_display_push_link(p, q, item)) != NULL)
		display_link(d, b, label, link);
	free(link);
	free(item);
}

/*
 * "Invert from here": the subtree at path focused, then inverted (which
 * functions it spends in, and their callers up to it), from its root.
 */
static void
transform_display_invert(struct display *d, struct display_block *b,
    const struct query *q, const char *path)
{
	struct query	 v = *q;
	char		*tv, *link;

	if (asprintf(&tv, "%s~fs-%s~inv", *q->t ? q->t : "1", path) == -1)
		return;
	v.t = tv;
	query_key_reset(&v, QUERY_PATH);
	query_key_reset(&v, QUERY_OPEN);
	query_key_reset(&v, QUERY_CLOSE);
	if ((link = query_format(&v)) != NULL)
		display_link(d, b, "invert from here", link);
	free(link);
	free(tv);
}

/* Links that push a transform on the node of path= or the function of func=. */
static void
transform_display_actions(struct display *d, const struct profile *p,
    const struct query *q)
{
	struct display_block	*b;
	uint32_t		 node = PROFILE_NONE, f = PROFILE_NONE;
	char			*path;
	size_t			 first = d->nblocks;

	if (q->npath > 0 &&
	    (node = profile_node_path(p, q->path, q->npath)) != PROFILE_NONE)
		f = p->node_func[node];
	else if (*q->func != '\0')
		f = profile_func_find(p, q->func);
	if (f == PROFILE_NONE || f == PROFILE_ROOT)
		return;
	display_text(d, "Transform %s:", profile_func_name(p, f));
	b = display_links(d);
	if (node != PROFILE_NONE &&
	    (path = query_path_format(q->path, q->npath)) != NULL) {
		transform_display_action(d, b, p, q, "focus on this node",
		    "fs-%s", path);
		transform_display_action(d, b, p, q, "merge this node",
		    "mcn-%s", path);
		transform_display_action(d, b, p, q, "merge its subtree",
		    "ms-%s", path);
		transform_display_invert(d, b, q, path);
		free(path);
	}
	transform_display_action(d, b, p, q, "focus on function", "ff-%u", f);
	transform_display_action(d, b, p, q, "merge function", "mf-%u", f);
	transform_display_action(d, b, p, q, "drop samples with function",
	    "df-%u", f);
	transform_display_action(d, b, p, q, "collapse function", "cfs-%u", f);
	transform_display_action(d, b, p, q, "collapse direct recursion",
	    "drec-%u", f);
	transform_display_action(d, b, p, q, "collapse recursion", "rec-%u", f);
	if (*profile_func_module(p, f) != '\0')
		transform_display_action(d, b, p, q, "collapse module",
		    "cm-%u", f);
	/* Above the tree's rows: no scrolling past them to reach these. */
	if (q->cmd == CMD_TREE)
		display_hoist(d, first);
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
		link = transform_display_pop_link(q, s, SIZE_MAX);
		display_link(d, b, "Complete profile", link);
		free(link);
		for (i = 0; i < s->n; i++) {
			label = transform_label(p, &s->v[i]);
			link = i + 1 < s->n ?
			    transform_display_pop_link(q, s, i) : NULL;
			display_link(d, b, label ? label : "?", link);
			free(label);
			free(link);
		}
	}
	transform_display_actions(d, p, q);
}

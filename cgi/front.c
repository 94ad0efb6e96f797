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
#include <strings.h>

#include "answer.h"
#include "conf.h"
#include "front.h"
#include "gzip.h"
#include "query.h"
#include "render.h"

/*
 * The front ends' shared decisions (see front.h). Everything is checked
 * here before a server is asked, so a bad request never starts one.
 */

static int	front_refuse(struct front_verdict *, int, const char *);
static int	front_has_key(const char *, const char *);
static char	*front_file(const char *);
static const char *front_foreign(const struct front_request *);
static int	front_origin_matches(const char *, const char *);

static int
front_refuse(struct front_verdict *v, int status, const char *message)
{
	v->status = status;
	if (v->message == NULL)
		v->message = strdup(message);
	return (status);
}

/* Does the query string have the key (at a key's start)? */
static int
front_has_key(const char *qs, const char *key)
{
	const char	*p;
	size_t		 n = strlen(key);

	for (p = qs; (p = strstr(p, key)) != NULL; p += n) {
		if ((p == qs || p[-1] == '&' || p[-1] == ';') &&
		    (p[n] == '=' || p[n] == '&' || p[n] == ';' ||
		    p[n] == '\0'))
			return (1);
	}
	return (0);
}

/*
 * The file= of a query string that did not parse as a whole, if that
 * key alone parses: an error page keeps the profile's header links.
 * NULL if there is none, or it is no valid file name.
 */
static char *
front_file(const char *qs)
{
	struct query	*q;
	const char	*p;
	char		*one, *file = NULL;
	int		 status;

	for (p = qs; (p = strstr(p, "file=")) != NULL; p += 5) {
		if (p == qs || p[-1] == '&' || p[-1] == ';')
			break;
	}
	if (p == NULL || (one = strndup(p, strcspn(p, "&;"))) == NULL)
		return (NULL);
	if ((q = query_parse(one, &status, NULL)) != NULL && *q->file != '\0')
		file = strdup(q->file);
	query_free(q);
	free(one);
	return (file);
}

/*
 * Decide on a request. 0: pass v->qs for v->query's file to the client;
 * else the status of a refusal, with v->message (NULL if out of memory),
 * to be answered in v->format. flags: FRONT_FILE_OPTIONAL lets a query
 * without file= through (`deepq web' answers it with its index).
 * The caller frees the verdict with front_verdict_free.
 */
int
front_check(const struct config *cfg, const struct front_request *r,
    int flags, struct front_verdict *v)
{
	const char	*method, *qs, *why;
	char		*cause = NULL;
	int		 post, status;

	memset(v, 0, sizeof *v);
	qs = r->query != NULL ? r->query : "";
	method = r->method != NULL ? r->method : "GET";
	v->head = strcmp(method, "HEAD") == 0;
	post = strcmp(method, "POST") == 0;

	/* Accept: application/json stands for format=json, unless given. */
	if (front_wants_json(r->accept) && !front_has_key(qs, "format")) {
		if (asprintf(&v->qs, "%s%sformat=json", qs, *qs ? "&" : "") ==
		    -1)
			v->qs = NULL;
	} else
		v->qs = strdup(qs);
	if (v->qs == NULL) {
		v->format = FMT_HTML;
		return (front_refuse(v, 500, "out of memory"));
	}
	v->format = answer_guess_format(v->qs);

	if (!v->head && !post && strcmp(method, "GET") != 0)
		return (front_refuse(v, 405, "method not allowed"));
	if (r->path_info != NULL && *r->path_info != '\0')
		return (front_refuse(v, 404, "not found"));
	if (strlen(qs) > cfg->max_query)
		return (front_refuse(v, 414, "query string too long"));
	if ((v->query = query_parse(v->qs, &status, &cause)) == NULL) {
		v->message = cause;
		v->file = front_file(v->qs);
		return (front_refuse(v, status, "bad query"));
	}
	v->format = v->query->format;
	if (v->query->cmd == CMD_SHUTDOWN) {
		/*
		 * State-changing: GET works for curl, POST for the pages'
		 * form; neither from another site or a prefetch, which a
		 * browser makes without the user asking.
		 */
		if ((why = front_foreign(r)) != NULL) {
			v->allow_post = 1;
			goto refused;
		}
	} else if (post) {
		why = "POST is only for cmd=shutdown";
		status = 405;
		goto refused_status;
	}
	/*
	 * An empty file= is a mistake even where none means an index;
	 * cmd=index needs none (the front end answers it, no server).
	 */
	if (*v->query->file == '\0' &&
	    ((flags & FRONT_FILE_OPTIONAL) == 0 ||
	    front_has_key(v->qs, "file")) && !front_is_index(v->query)) {
		why = "file= is required";
		status = 400;
		goto refused_status;
	}
	return (0);

refused:
	status = 403;
refused_status:
	if (*v->query->file != '\0')
		v->file = strdup(v->query->file);
	query_free(v->query);
	v->query = NULL;
	return (front_refuse(v, status, why));
}

/* Is the query cmd=index, which the front end answers itself? */
int
front_is_index(const struct query *q)
{
	return (q->cmd == CMD_INDEX);
}

void
front_verdict_free(struct front_verdict *v)
{
	free(v->message);
	free(v->qs);
	free(v->file);
	query_free(v->query);
	memset(v, 0, sizeof *v);
}

/*
 * Does an Accept header ask for JSON rather than a page? Only when it
 * names application/json and not text/html: browsers list text/html
 * (and a wildcard), programs asking for JSON do not.
 */
int
front_wants_json(const char *accept)
{
	return (accept != NULL && strstr(accept, "application/json") != NULL &&
	    strstr(accept, "text/html") == NULL);
}

/*
 * Does the Origin (scheme://host[:port]) name this host? The default
 * port of its scheme is dropped from both sides before comparing.
 */
static int
front_origin_matches(const char *origin, const char *host)
{
	const char	*o, *dflt;
	size_t		 no, nh, nd;

	if ((o = strstr(origin, "://")) == NULL)
		return (0);
	dflt = strncasecmp(origin, "https:", 6) == 0 ? ":443" : ":80";
	nd = strlen(dflt);
	o += 3;
	no = strlen(o);
	nh = strlen(host);
	if (no > nd && strcmp(o + no - nd, dflt) == 0)
		no -= nd;
	if (nh > nd && strcmp(host + nh - nd, dflt) == 0)
		nh -= nd;
	return (no == nh && strncasecmp(o, host, no) == 0);
}

/*
 * Is this request from another site (or a prefetch), so a state-changing
 * query must be refused? Browsers say so in Sec-Fetch-Site and Origin;
 * curl sends neither and is allowed. The refusal's message, or NULL.
 */
static const char *
front_foreign(const struct front_request *r)
{
	const char	*site = r->sec_fetch_site, *p;

	if (site != NULL && strcmp(site, "same-origin") != 0 &&
	    strcmp(site, "none") != 0) {
		return ("cross-site request refused");
	}
	if (r->origin != NULL && (r->host == NULL ||
	    !front_origin_matches(r->origin, r->host))) {
		return ("request from another origin refused");
	}
	if (((p = r->sec_purpose) != NULL && strstr(p, "prefetch") != NULL) ||
	    ((p = r->purpose) != NULL && strcasecmp(p, "prefetch") == 0) ||
	    ((p = r->x_moz) != NULL && strcasecmp(p, "prefetch") == 0)) {
		return ("prefetch of a state-changing request refused");
	}
	return (NULL);
}

/*
 * The headers of an answer, after the status line, in order, through
 * add(arg, name, value): its type, no sniffing, the page policy on what
 * a browser may run or show (HTML, and SVG, which may carry scripts), no
 * caching of errors, Retry-After, a redirect's Location, and Allow on a 405 (with POST where
 * allow_post says the request could have been one). The length is the
 * front end's.
 */
void
front_headers(const struct answer *a, int allow_post,
    void (*add)(void *, const char *, const char *), void *arg)
{
	char	 buf[32];

	add(arg, "Content-Type", a->content_type);
	add(arg, "X-Content-Type-Options", RENDER_NOSNIFF);
	if (strncmp(a->content_type, "text/html", 9) == 0) {
		add(arg, "Content-Security-Policy", RENDER_HTML_CSP);
		add(arg, "Referrer-Policy", "same-origin");
	} else if (strncmp(a->content_type, "image/svg+xml", 13) == 0) {
		add(arg, "Content-Security-Policy", RENDER_SVG_CSP);
		add(arg, "Referrer-Policy", "same-origin");
	}
	add(arg, "Cache-Control", a->status == 200 ? "no-cache" : "no-store");
	/* Text may go gzip-compressed to a client that accepts it. */
	if (gzip_compressible(a->content_type, GZIP_MIN))
		add(arg, "Vary", "Accept-Encoding");
	if (a->retry_after > 0) {
		snprintf(buf, sizeof buf, "%d", a->retry_after);
		add(arg, "Retry-After", buf);
	}
	if (a->location != NULL)
		add(arg, "Location", a->location);
	if (a->status == 405)
		add(arg, "Allow", allow_post ? "GET, HEAD, POST" : "GET, HEAD");
}

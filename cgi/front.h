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


#ifndef FRONT_H
#define FRONT_H

/*
 * What the HTTP front ends (deepq.cgi, `deepq web') decide alike, so
 * that a request gets the same answer through either: which requests are
 * refused before any server is asked (method, extra path, length, the
 * query's syntax, shutdown from another site, POST), how Accept selects
 * JSON, and which headers go with an answer. The front ends differ only
 * in where a request's fields come from (the CGI environment, MHD) and
 * how headers are written.
 */

struct answer;
struct config;
struct query;

/* A request as the front end received it; NULL for an absent field. */
struct front_request {
	const char	*method;
	const char	*query;		/* the raw query string */
	const char	*path_info;	/* path after the program, "" none */
	const char	*accept;
	const char	*host;
	const char	*origin;
	const char	*sec_fetch_site;
	const char	*sec_purpose;
	const char	*purpose;
	const char	*x_moz;
};

/* The decision on a request. */
struct front_verdict {
	int		 status;	/* 0: ask the client; else refused */
	char		*message;	/* the refusal's text */
	int		 allow_post;	/* a 405 says Allow: ..., POST */
	int		 head;		/* HEAD: headers only */
	char		*qs;		/* the query string to pass on */
	enum catalog_fmt format;	/* of an error answer */
	struct query	*query;		/* parsed, when status is 0 */
	char		*file;		/* a refused query's file=, if valid */
};

#define FRONT_FILE_OPTIONAL	0x1	/* no file= is not an error */

int		 front_check(const struct config *,
		     const struct front_request *, int,
		     struct front_verdict *);
void		 front_verdict_free(struct front_verdict *);
int		 front_is_index(const struct query *);
int		 front_wants_json(const char *);
void		 front_headers(const struct answer *, int,
		     void (*)(void *, const char *, const char *), void *);

#endif /* FRONT_H */

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
#include "cgi.h"

/*
 * The CGI response (RFC 3875 section 6.2): Status and Content-Type first
 * (one each), then the security headers, a blank line and the body. The
 * whole answer is known before the first byte is written, so an error
 * always gets its real status (mdprof wrote `200' before knowing).
 */

static int	cgi_origin_matches(const char *, const char *);

/* The reason phrase of a status we send. */
const char *
cgi_reason(int status)
{
	switch (status) {
	case 200:
		return ("OK");
	case 400:
		return ("Bad Request");
	case 403:
		return ("Forbidden");
	case 404:
		return ("Not Found");
	case 405:
		return ("Method Not Allowed");
	case 414:
		return ("URI Too Long");
	case 422:
		return ("Unprocessable Content");
	case 500:
		return ("Internal Server Error");
	case 502:
		return ("Bad Gateway");
	case 503:
		return ("Service Unavailable");
	case 504:
		return ("Gateway Timeout");
	}
	return (status < 300 ? "OK" : status < 500 ? "Client Error" :
	    "Server Error");
}

/*
 * Write an answer as the CGI response; head: headers only (HEAD).
 * allow_post adds POST to the Allow header of a 405. -1 on a write error.
 */
int
cgi_reply(const struct answer *a, int head, int allow_post)
{
	FILE	*f = stdout;

	fprintf(f, "Status: %d %s\n", a->status, cgi_reason(a->status));
	fprintf(f, "Content-Type: %s\n", a->content_type);
	fprintf(f, "Content-Length: %zu\n", a->len);
	fputs("X-Content-Type-Options: nosniff\n", f);
	if (strncmp(a->content_type, "text/html", 9) == 0) {
		fputs("Content-Security-Policy: " CGI_CSP "\n", f);
		fputs("Referrer-Policy: same-origin\n", f);
	}
	fprintf(f, "Cache-Control: %s\n", a->status == 200 ? "no-cache" :
	    "no-store");
	if (a->retry_after > 0)
		fprintf(f, "Retry-After: %d\n", a->retry_after);
	if (a->status == 405)
		fprintf(f, "Allow: GET, HEAD%s\n", allow_post ? ", POST" : "");
	fputs("\n", f);
	if (!head && a->len > 0)
		fwrite(a->body, 1, a->len, f);
	return (fflush(f) == 0 && !ferror(f) ? 0 : -1);
}

/*
 * Does the Origin (scheme://host[:port]) name this host? The default
 * port of its scheme is dropped from both sides before comparing.
 */
static int
cgi_origin_matches(const char *origin, const char *host)
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
 * curl sends neither and is allowed. Sets *why.
 */
int
cgi_foreign(const char **why)
{
	const char	*site, *origin, *host, *purpose;

	site = getenv("HTTP_SEC_FETCH_SITE");
	if (site != NULL && strcmp(site, "same-origin") != 0 &&
	    strcmp(site, "none") != 0) {
		*why = "cross-site request refused";
		return (1);
	}
	if ((origin = getenv("HTTP_ORIGIN")) != NULL) {
		host = getenv("HTTP_HOST");
		if (host == NULL || !cgi_origin_matches(origin, host)) {
			*why = "request from another origin refused";
			return (1);
		}
	}
	if (((purpose = getenv("HTTP_SEC_PURPOSE")) != NULL &&
	    strstr(purpose, "prefetch") != NULL) ||
	    ((purpose = getenv("HTTP_PURPOSE")) != NULL &&
	    strcasecmp(purpose, "prefetch") == 0) ||
	    ((purpose = getenv("HTTP_X_MOZ")) != NULL &&
	    strcasecmp(purpose, "prefetch") == 0)) {
		*why = "prefetch of a state-changing request refused";
		return (1);
	}
	return (0);
}

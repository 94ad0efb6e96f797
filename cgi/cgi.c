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

#include "answer.h"
#include "cgi.h"
#include "front.h"

/*
 * The CGI response (RFC 3875 section 6.2): Status first, the length, the
 * headers every front end sends (common/front.c), a blank line and the
 * body. The whole answer is known before the first byte is written, so an
 * error always gets its real status (mdprof wrote `200' before knowing).
 */

static void	cgi_header(void *, const char *, const char *);

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

/* One header line, for front_headers. */
static void
cgi_header(void *arg, const char *name, const char *value)
{
	fprintf(arg, "%s: %s\n", name, value);
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
	fprintf(f, "Content-Length: %zu\n", a->len);
	front_headers(a, allow_post, cgi_header, f);
	fputs("\n", f);
	if (!head && a->len > 0)
		fwrite(a->body, 1, a->len, f);
	return (fflush(f) == 0 && !ferror(f) ? 0 : -1);
}

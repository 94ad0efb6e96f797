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


#ifndef CGI_H
#define CGI_H

/*
 * deepq.cgi's helper: writing an answer as a CGI response (RFC 3875
 * section 6), which FastCGI carries unchanged in its FCGI_STDOUT
 * records (fastcgi.c). The checks on a request are cgi/front.c's.
 */

#include <sys/types.h>
#include <sys/uio.h>

#include <signal.h>

struct answer;

/* Where a response goes: writes all of the iovecs or returns -1. */
typedef int	(*cgi_out)(void *, struct iovec *, int);

const char	*cgi_reason(int);
int		 cgi_reply(const struct answer *, int, int, int, cgi_out,
		     void *);
int		 cgi_writev(int, struct iovec *, int,
		     volatile sig_atomic_t *, int);

#endif /* CGI_H */

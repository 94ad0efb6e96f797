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

/*
 * The floor of any CGI program: a statically linked one that answers a
 * fixed 2-byte page and exits. bench/wrk-latency.sh times it through the
 * same lighttpd as deepq.cgi, so that what the web server's fork and
 * exec cost on the machine at hand (from about 0.4 ms to 2 ms of CPU on
 * the virtual machines seen here) is measured in the same run, not
 * guessed.
 */

#include <unistd.h>

int
main(void)
{
	static const char	 page[] = "Status: 200 OK\r\n"
	    "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nok";

	return (write(STDOUT_FILENO, page, sizeof page - 1) ==
	    (ssize_t)(sizeof page - 1) ? 0 : 1);
}

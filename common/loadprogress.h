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

#ifndef LOADPROGRESS_H
#define LOADPROGRESS_H

/*
 * How far a loading server is: read from outside, without its help.
 * The server's liveness file names its pid and the profile's path, and
 * was written when the load began; the kernel keeps the offset of the
 * descriptor the server reads the profile through
 * (/proc/PID/fdinfo/N). A client that may look at the server's /proc
 * (the same user) so tells the bytes read, the share, and an estimate
 * of the time left at the rate so far.
 */

#include <sys/types.h>

#include <jansson.h>

struct loadprogress {
	off_t	 done;		/* bytes of the file read */
	off_t	 total;		/* the file's size */
	double	 elapsed;	/* seconds since the load began */
	double	 left;		/* estimate, seconds; < 0 unknown */
};

int	 loadprogress_read(int, const char *, off_t, struct loadprogress *);
char	*loadprogress_text(const struct loadprogress *);
json_t	*loadprogress_json(const struct loadprogress *);

#endif /* LOADPROGRESS_H */

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

#ifndef SRCFILE_H
#define SRCFILE_H

/*
 * Source files for cmd=source: a path a profile recorded ("/build/app/
 * src/main.c", untrusted) found under the configured source roots by
 * its suffix, as `pprof -source_path' and `-trim_path' find it:
 * "build/app/src/main.c", then "app/src/main.c", ... "main.c", under
 * each root in turn. A root is a directory the configuration names
 * (deepq.conf's source_root, deepq web --source), never the query
 * string; a file is opened beneath it with the profile root's
 * confinement (profpath_openat: no `..', no symbolic link anywhere on
 * the way, nothing outside the root), read only if it is a regular file
 * of at most SRCFILE_MAX bytes. Nothing is opened without a root.
 */

#include <stddef.h>

#define SRCFILE_MAX		(4 * 1024 * 1024)	/* bytes read */
#define SRCFILE_MAX_ROOTS	16
#define SRCFILE_MAX_DEPTH	64	/* suffixes tried per root */

struct srcfile {
	char		*text;		/* the file's bytes, NUL-terminated */
	size_t		 len;
	char		*rel;		/* the suffix found, under its root */
};

int	 srcfile_read(const char *, const char *, struct srcfile *,
	     const char **);
void	 srcfile_clear(struct srcfile *);

#endif /* SRCFILE_H */

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


#ifndef PROFPATH_H
#define PROFPATH_H

/*
 * Resolving a `file=' parameter under the profile root, before anything
 * is opened: refuse absolute names, `..' components and NUL, canonicalise
 * with realpath(3), confine the result to the root (a symbolic link may
 * point anywhere inside it, never outside), and accept only a regular
 * file. The file's identity is its (st_dev, st_ino), taken from the file
 * opened beneath the root with no link on the way, so every spelling,
 * symlink or hard link of one file shares one server; the key derived
 * from it names the runtime files and has a fixed size whatever the path.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stdint.h>

#include "proto.h"

struct profpath {
	char		*path;		/* canonical absolute path */
	dev_t		 dev;
	ino_t		 ino;
	off_t		 size;
	struct stat	 st;		/* the file opened, whole */
	char		 key[PROTO_KEY_LEN + 1];
};

extern int profpath_force_walk;

int	profpath_openat(int, const char *);
int	profpath_openat_flags(int, const char *, int);
int	profpath_open_checked(const char *, dev_t, ino_t, struct stat *,
	    char **);
int	profpath_resolve(const char *, const char *, struct profpath *, int *,
	    char **);
int	profpath_split(const char *, char **, char **, char **);
void	profpath_key(const struct stat *, char *);
void	profpath_clear(struct profpath *);

#endif /* PROFPATH_H */

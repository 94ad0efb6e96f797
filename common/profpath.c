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

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "profpath.h"

/*
 * file= -> a canonical, confined profile path and its identity (see
 * profpath.h). Canonicalise, then check the prefix; never try to "clean"
 * a path (CWE-22).
 */

static int	profpath_fail(int *, int, char **, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));

static int
profpath_fail(int *status, int code, char **cause, const char *fmt, ...)
{
	va_list	 ap;

	*status = code;
	va_start(ap, fmt);
	cause_vset(cause, fmt, ap);
	va_end(ap);
	return (-1);
}

/* The key of a file: its device and inode as 32 hex digits. */
void
profpath_key(const struct stat *st, char *key)
{
	snprintf(key, PROTO_KEY_LEN + 1, "%016llx%016llx",
	    (unsigned long long)st->st_dev, (unsigned long long)st->st_ino);
}

/*
 * Resolve file= (param) under root. 0 on success; -1 with *status (400,
 * 403, 404, 500) and *cause, which never contains the canonical path of
 * anything outside the root.
 */
int
profpath_resolve(const char *root, const char *param, struct profpath *pp,
    int *status, char **cause)
{
	struct stat	 st;
	const char	*p, *c;
	char		*rroot = NULL, *full = NULL, *rp = NULL;
	size_t		 n, len;
	int		 saved;

	memset(pp, 0, sizeof *pp);
	if (root == NULL || *root == '\0')
		return (profpath_fail(status, 500, cause,
		    "profile_root is not configured"));
	if (*param == '\0')
		return (profpath_fail(status, 400, cause,
		    "file= is required"));
	if ((len = strlen(param)) >= PATH_MAX)
		return (profpath_fail(status, 400, cause,
		    "file name too long"));
	for (p = param; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return (profpath_fail(status, 400, cause,
			    "control character in file name"));
	}
	if (*param == '/')
		return (profpath_fail(status, 403, cause,
		    "absolute file names are not allowed"));
	for (p = param; *p != '\0'; p = *c == '\0' ? c : c + 1) {
		if ((c = strchr(p, '/')) == NULL)
			c = p + strlen(p);
		n = c - p;
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return (profpath_fail(status, 403, cause,
			    "`..' is not allowed in file names"));
	}

	if ((rroot = realpath(root, NULL)) == NULL) {
		saved = errno;
		return (profpath_fail(status, 500, cause, "profile root %s: %s",
		    root, strerror(saved)));
	}
	if (asprintf(&full, "%s/%s", rroot, param) == -1) {
		full = NULL;
		profpath_fail(status, 500, cause, "out of memory");
		goto fail;
	}
	if ((rp = realpath(full, NULL)) == NULL) {
		if (errno == ENOMEM)
			profpath_fail(status, 500, cause, "out of memory");
		else if (errno == EACCES || errno == ELOOP)
			profpath_fail(status, 403, cause, "%s: %s", param,
			    strerror(errno));
		else
			profpath_fail(status, 404, cause, "%s: no such profile",
			    param);
		goto fail;
	}
	n = strlen(rroot);
	if (!(strcmp(rroot, "/") == 0 ||
	    (strncmp(rp, rroot, n) == 0 && rp[n] == '/'))) {
		profpath_fail(status, 403, cause,
		    "%s: outside the profile root", param);
		goto fail;
	}
	/* rp has no symbolic links left: lstat sees the file itself. */
	if (lstat(rp, &st) == -1) {
		profpath_fail(status, 404, cause, "%s: no such profile", param);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		profpath_fail(status, 403, cause, "%s: not a regular file",
		    param);
		goto fail;
	}
	pp->path = rp;
	pp->dev = st.st_dev;
	pp->ino = st.st_ino;
	pp->size = st.st_size;
	profpath_key(&st, pp->key);
	free(rroot);
	free(full);
	return (0);
fail:
	free(rroot);
	free(full);
	free(rp);
	return (-1);
}

/*
 * Split a path given on a command line into its canonical directory (the
 * profile root for deepq(1)) and base name. All three are allocated.
 */
int
profpath_split(const char *file, char **root, char **base, char **cause)
{
	char	*rp, *slash;

	*root = *base = NULL;
	if ((rp = realpath(file, NULL)) == NULL) {
		cause_set(cause, "%s: %s", file, strerror(errno));
		return (-1);
	}
	slash = strrchr(rp, '/');
	if (slash == rp)
		*root = strdup("/");
	else
		*root = strndup(rp, slash - rp);
	*base = strdup(slash + 1);
	free(rp);
	if (*root == NULL || *base == NULL || **base == '\0') {
		free(*root);
		free(*base);
		*root = *base = NULL;
		cause_set(cause, "%s: not a file", file);
		return (-1);
	}
	return (0);
}

/* Free a resolved path. */
void
profpath_clear(struct profpath *pp)
{
	free(pp->path);
	pp->path = NULL;
}

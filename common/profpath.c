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
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_LINUX_OPENAT2_H
#include <sys/syscall.h>
#include <linux/openat2.h>
#endif

#include "cause.h"
#include "profpath.h"

/*
 * file= -> a canonical, confined profile path and its identity (see
 * profpath.h). Canonicalise, then check the prefix; never try to "clean"
 * a path (CWE-22). The identity is taken from the file opened, relative
 * to a descriptor of the root, along the canonical path with no
 * symbolic link allowed: realpath(3)'s answer is only a proposal, since
 * a directory on the way may be swapped for a link to elsewhere right
 * after it looked (renameat2 RENAME_EXCHANGE in a loop won such a race
 * 27 times in 189 requests when the identity came from lstat(2) of the
 * string). Whatever is swapped in now fails the open.
 */

int	profpath_force_walk;	/* tests: as if openat2 were missing */

static int	profpath_walk(int, const char *, int);
static int	profpath_hidden(const char *);
static int	profpath_check_name(const char *, int *, char **);

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

/* Does a path ("/a/b") have a component starting with a dot? */
static int
profpath_hidden(const char *path)
{
	const char	*p;

	for (p = path; (p = strchr(p, '/')) != NULL; p++) {
		if (p[1] == '.')
			return (1);
	}
	return (0);
}

/* The key of a file: its device and inode as 32 hex digits. */
void
profpath_key(const struct stat *st, char *key)
{
	snprintf(key, PROTO_KEY_LEN + 1, "%016llx%016llx",
	    (unsigned long long)st->st_dev, (unsigned long long)st->st_ino);
}

/*
 * The fallback of profpath_openat: one component at a time, each
 * directory opened O_NOFOLLOW | O_DIRECTORY and the last O_NOFOLLOW, so
 * no link is ever followed; `..' is refused (EXDEV), `.' skipped.
 */
static int
profpath_walk(int dirfd, const char *rel, int flags)
{
	struct stat	 st;
	const char	*p, *c;
	char		 name[NAME_MAX + 1];
	size_t		 n;
	int		 cur = dirfd, next, saved;

	for (p = rel;; p = c + 1) {
		if ((c = strchr(p, '/')) == NULL)
			c = p + strlen(p);
		n = (size_t)(c - p);
		if (n > NAME_MAX) {
			saved = ENAMETOOLONG;
			goto fail;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (n == 2 && name[0] == '.' && name[1] == '.') {
			saved = EXDEV;
			goto fail;
		}
		if (*c == '\0') {
			if (n == 0 || (n == 1 && name[0] == '.')) {
				saved = EISDIR;
				goto fail;
			}
			next = openat(cur, name, flags | O_NOFOLLOW);
			saved = errno;
			if (cur != dirfd)
				close(cur);
			errno = saved;
			return (next);
		}
		if (n == 0 || (n == 1 && name[0] == '.'))
			continue;
		if ((next = openat(cur, name, O_PATH | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1) {
			saved = errno;
			/* A link is ENOTDIR here: say ELOOP, as openat2. */
			if (saved == ENOTDIR && fstatat(cur, name, &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
				saved = ELOOP;
			goto fail;
		}
		if (cur != dirfd)
			close(cur);
		cur = next;
	}
fail:
	if (cur != dirfd)
		close(cur);
	errno = saved;
	return (-1);
}

/*
 * Open rel beneath dirfd read-only with no symbolic link anywhere on
 * the way: openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), or where the
 * kernel lacks it (ENOSYS) the same one component at a time. -1 with
 * errno: ELOOP for a link, EXDEV for a way out, EAGAIN if a rename kept
 * racing the lookup.
 */
int
profpath_openat(int dirfd, const char *rel)
{
	return (profpath_openat_flags(dirfd, rel, O_RDONLY | O_CLOEXEC |
	    O_NOCTTY | O_NONBLOCK));
}

/*
 * profpath_openat with open(2) flags of the caller's: O_PATH to look at
 * a file before opening it (O_PATH | O_NOFOLLOW gives a link itself).
 */
int
profpath_openat_flags(int dirfd, const char *rel, int flags)
{
	int	 fd;
#ifdef HAVE_LINUX_OPENAT2_H
	struct open_how	 how;
	int		 tries;

	if (!profpath_force_walk) {
		memset(&how, 0, sizeof how);
		how.flags = (uint64_t)flags;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		    RESOLVE_NO_MAGICLINKS;
		/* EAGAIN: a rename raced the lookup; a few more tries. */
		for (tries = 0; tries < 8; tries++) {
			fd = (int)syscall(SYS_openat2, dirfd, rel, &how,
			    sizeof how);
			if (fd != -1 || errno != EAGAIN)
				break;
		}
		if (fd != -1 || errno != ENOSYS)
			return (fd);
	}
#endif
	fd = profpath_walk(dirfd, rel, flags);
	return (fd);
}

/*
 * Open an absolute canonical path the same way, beneath "/", and check
 * that it is the regular file (dev, ino) (if ino is not 0); its stat in
 * *st. -1 with *cause (ELOOP: something on the way changed into a link).
 */
int
profpath_open_checked(const char *path, dev_t dev, ino_t ino,
    struct stat *st, char **cause)
{
	int	 rootfd, fd, saved;

	if (*path != '/') {
		cause_set(cause, "%s: not an absolute path", path);
		return (-1);
	}
	if ((rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		cause_set(cause, "/: %s", strerror(errno));
		return (-1);
	}
	fd = profpath_openat(rootfd, path + 1);
	saved = errno;
	close(rootfd);
	if (fd == -1) {
		cause_set(cause, "%s: %s", path, saved == ELOOP ?
		    "changed on the way (a symbolic link)" : strerror(saved));
		return (-1);
	}
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode)) {
		cause_set(cause, "%s: not a regular file", path);
		close(fd);
		return (-1);
	}
	if (ino != 0 && (st->st_dev != dev || st->st_ino != ino)) {
		cause_set(cause, "%s: not the file the client opened", path);
		close(fd);
		return (-1);
	}
	return (fd);
}

/*
 * file= as written, before any look at the disk: not empty, not too
 * long, no control character, relative, no `..' and nothing hidden. 0,
 * or -1 with *status and *cause.
 */
static int
profpath_check_name(const char *param, int *status, char **cause)
{
	const char	*p, *c;
	size_t		 n;

	if (*param == '\0')
		return (profpath_fail(status, 400, cause,
		    "file= is required"));
	if (strlen(param) >= PATH_MAX)
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
		/* .htpasswd, .git/...: as web servers do, never served. */
		if (n > 1 && p[0] == '.')
			return (profpath_fail(status, 403, cause,
			    "hidden files are not served"));
	}
	return (0);
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
	char		*rroot = NULL, *full = NULL, *rp = NULL;
	size_t		 n;
	int		 saved, rootfd, fd, r;

	memset(pp, 0, sizeof *pp);
	if (root == NULL || *root == '\0')
		return (profpath_fail(status, 500, cause,
		    "profile_root is not configured"));
	if (profpath_check_name(param, status, cause) == -1)
		return (-1);
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
	/*
	 * Whatever the reason (none, a link to outside, to a hidden file,
	 * no permission), one answer: a link out of the root must not tell
	 * what exists where it points.
	 */
	if ((rp = realpath(full, NULL)) == NULL) {
		if (errno == ENOMEM)
			profpath_fail(status, 500, cause, "out of memory");
		else
			profpath_fail(status, 404, cause, "%s: no such profile",
			    param);
		goto fail;
	}
	n = strlen(rroot);
	if (!(strcmp(rroot, "/") == 0 ||
	    (strncmp(rp, rroot, n) == 0 && rp[n] == '/')) ||
	    profpath_hidden(rp + (strcmp(rroot, "/") == 0 ? 0 : n))) {
		profpath_fail(status, 404, cause, "%s: no such profile",
		    param);
		goto fail;
	}
	/*
	 * rp had no symbolic link when realpath looked; open it so, beneath
	 * a descriptor of the root, and take the identity from what opened.
	 */
	if ((rootfd = open(rroot, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		saved = errno;
		profpath_fail(status, saved == EMFILE || saved == ENFILE ||
		    saved == ENOMEM ? 503 : 500, cause,
		    "cannot open the profile root: %s", strerror(saved));
		goto fail;
	}
	fd = profpath_openat(rootfd, rp[n] == '/' ? rp + n + 1 : rp + 1);
	saved = errno;
	close(rootfd);
	if (fd == -1) {
		if (saved == ENOENT || saved == ENOTDIR)
			profpath_fail(status, 404, cause, "%s: no such profile",
			    param);
		else if (saved == EAGAIN || saved == EMFILE ||
		    saved == ENFILE || saved == ENOMEM)
			profpath_fail(status, 503, cause, "%s: %s", param,
			    strerror(saved));
		else
			profpath_fail(status, 403, cause, "%s: %s", param,
			    saved == ELOOP || saved == EXDEV ? "changed while "
			    "it was opened" : strerror(saved));
		goto fail;
	}
	r = fstat(fd, &st);
	close(fd);
	if (r == -1) {
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
	pp->st = st;
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

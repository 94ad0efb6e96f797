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

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profpath.h"
#include "srcfile.h"
#include "testhook.h"

/*
 * A recorded source path found under the source roots (srcfile.h). The
 * recorded path only ever chooses among names beneath a root: its
 * components are checked here (no `..', no empty or overlong name) and
 * the kernel refuses the rest (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS, or the same walk by hand), so a directory
 * swapped for a link between the choice and the open fails the open.
 */

static int	srcfile_try(int, const char *, struct srcfile *,
		    const char **);

/* Clear what srcfile_read filled. */
void
srcfile_clear(struct srcfile *sf)
{
	free(sf->text);
	free(sf->rel);
	memset(sf, 0, sizeof *sf);
}

/*
 * Open rel beneath the root rootfd and read it whole into sf: 0, 1 if
 * there is no such file (try the next), -1 with *why if there is one
 * deepq refuses (a link, too large, not a regular file, not text,
 * unreadable).
 */
static int
srcfile_try(int rootfd, const char *rel, struct srcfile *sf,
    const char **why)
{
	struct stat	 st, st2;
	size_t		 len = 0;
	ssize_t		 n = 0;
	char		*buf = NULL, proc[32];
	int		 pfd, fd;

	testhook_pause("source-open");
	/*
	 * Looked at before it is opened (O_PATH): opening a device can
	 * do things (a tape rewinds, a watchdog arms), a FIFO waits.
	 */
	if ((pfd = profpath_openat_flags(rootfd, rel, O_PATH | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		if (errno == ENOENT || errno == ENOTDIR)
			return (1);
		*why = errno == ELOOP || errno == EXDEV ? "refused (a symbolic "
		    "link on the way, or a way out of the source root)" :
		    "cannot be read";
		return (-1);
	}
	if (fstat(pfd, &st) == -1) {
		close(pfd);
		*why = "cannot be read";
		return (-1);
	}
	if (!S_ISREG(st.st_mode)) {
		close(pfd);
		if (S_ISDIR(st.st_mode))
			return (1);
		*why = S_ISLNK(st.st_mode) ? "refused (a symbolic link on the "
		    "way, or a way out of the source root)" :
		    "not a regular file";
		return (-1);
	}
	if (st.st_size > SRCFILE_MAX) {
		close(pfd);
		*why = "larger than the 4 MB a source file may have";
		return (-1);
	}
	/*
	 * The very file looked at, opened through its descriptor; without
	 * /proc, opened again beneath the root and the same (dev, ino).
	 */
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
	if ((fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) == -1 && errno == ENOENT)
		fd = profpath_openat(rootfd, rel);
	close(pfd);
	if (fd == -1 || fstat(fd, &st2) == -1 || st2.st_dev != st.st_dev ||
	    st2.st_ino != st.st_ino) {
		if (fd != -1)
			close(fd);
		*why = "cannot be read";
		return (-1);
	}
	/*
	 * What fstat says, no more: a file that grows while read is cut
	 * there, one that shrinks ends early.
	 */
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		*why = "out of memory";
		return (-1);
	}
	while (len < (size_t)st.st_size) {
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (n == -1) {
		free(buf);
		*why = "cannot be read";
		return (-1);
	}
	buf[len] = '\0';
	/* Source is text: an object file or UTF-16 is not shown as it. */
	if (memchr(buf, '\0', len) != NULL) {
		free(buf);
		*why = "not text (it has NUL bytes)";
		return (-1);
	}
	sf->text = buf;
	sf->len = len;
	if ((sf->rel = strdup(rel)) == NULL) {
		srcfile_clear(sf);
		*why = "out of memory";
		return (-1);
	}
	return (0);
}

/*
 * Find the file a profile recorded as path under the roots (absolute
 * directories separated by ':'), by its longest suffix that names a
 * file under one of them, and read it into *sf. 0, or -1 with *why, a
 * static sentence that names nothing outside the roots.
 */
int
srcfile_read(const char *roots, const char *path, struct srcfile *sf,
    const char **why)
{
	const char	*comp[SRCFILE_MAX_DEPTH], *p, *e, *r, *re;
	char		 rel[PATH_MAX], root[PATH_MAX];
	size_t		 ncomp = 0, k, n, len;
	int		 fd, rc, tried = 0;

	memset(sf, 0, sizeof *sf);
	*why = "not found under the source roots";
	if (roots == NULL || *roots == '\0') {
		*why = "no source root is configured";
		return (-1);
	}
	/*
	 * The components after the last `..' (a suffix never climbs),
	 * the last SRCFILE_MAX_DEPTH of them.
	 */
	for (p = path; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = p + strcspn(p, "/");
		n = e - p;
		if (n == 0 || (n == 1 && p[0] == '.'))
			continue;
		if (n > NAME_MAX || (n == 2 && p[0] == '.' && p[1] == '.')) {
			ncomp = 0;
			continue;
		}
		if (ncomp == SRCFILE_MAX_DEPTH) {
			memmove(comp, comp + 1, (ncomp - 1) * sizeof *comp);
			ncomp--;
		}
		comp[ncomp++] = p;
	}
	if (ncomp == 0)
		return (-1);
	for (k = 0; k < ncomp; k++) {
		/* The suffix comp[k..]: its components joined by '/'. */
		len = 0;
		for (n = k; n < ncomp; n++) {
			e = comp[n] + strcspn(comp[n], "/");
			if (len + (size_t)(e - comp[n]) + 2 > sizeof rel)
				break;
			if (len > 0)
				rel[len++] = '/';
			memcpy(rel + len, comp[n], e - comp[n]);
			len += e - comp[n];
		}
		if (n < ncomp)
			continue;
		rel[len] = '\0';
		for (r = roots; *r != '\0'; r = *re != '\0' ? re + 1 : re) {
			re = r + strcspn(r, ":");
			if (re == r || *r != '/' ||
			    (size_t)(re - r) >= sizeof root)
				continue;
			memcpy(root, r, re - r);
			root[re - r] = '\0';
			if (tried++ == SRCFILE_MAX_DEPTH * SRCFILE_MAX_ROOTS)
				return (-1);
			if ((fd = open(root, O_PATH | O_DIRECTORY |
			    O_CLOEXEC)) == -1)
				continue;
			rc = srcfile_try(fd, rel, sf, why);
			close(fd);
			if (rc != 1)
				return (rc);
		}
	}
	return (-1);
}

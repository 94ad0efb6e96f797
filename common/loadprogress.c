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

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "loadprogress.h"

#define LOADPROGRESS_MAX_FDS	4096	/* descriptors of the server looked at */

/*
 * The progress of the server whose liveness file is alivename in the
 * runtime directory dirfd, loading a file of total bytes: 0 with *lp,
 * -1 when it cannot be told (no such server, another user's, a profile
 * read from the cache). Never waits.
 */
int
loadprogress_read(int dirfd, const char *alivename, off_t total,
    struct loadprogress *lp)
{
	struct stat	 st, fst;
	struct timespec	 now;
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	char		 buf[4200], path[320], line[128], *nl;
	long		 pid;
	long long	 pos = -1;
	ssize_t		 n;
	int		 fd, seen = 0;

	memset(lp, 0, sizeof *lp);
	lp->total = total;
	lp->left = -1;
	if ((fd = openat(dirfd, alivename, O_RDONLY | O_CLOEXEC |
	    O_NOFOLLOW)) == -1)
		return (-1);
	if (fstat(fd, &fst) == -1 ||
	    (n = pread(fd, buf, sizeof buf - 1, 0)) <= 0) {
		close(fd);
		return (-1);
	}
	close(fd);
	buf[n] = '\0';
	pid = strtol(buf, &nl, 10);
	if (pid <= 0 || *nl != '\n')
		return (-1);
	nl++;
	nl[strcspn(nl, "\n")] = '\0';
	if (stat(nl, &st) == -1)
		return (-1);
	snprintf(path, sizeof path, "/proc/%ld/fd", pid);
	if ((d = opendir(path)) == NULL)
		return (-1);
	/* The descriptor on the profile: the same file, by inode. */
	while (pos == -1 && seen++ < LOADPROGRESS_MAX_FDS &&
	    (de = readdir(d)) != NULL) {
		struct stat	 fs;

		if (de->d_name[0] == '.' || snprintf(path, sizeof path,
		    "/proc/%ld/fd/%s", pid, de->d_name) >= (int)sizeof path ||
		    stat(path, &fs) == -1 || fs.st_dev != st.st_dev ||
		    fs.st_ino != st.st_ino)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/fdinfo/%s", pid,
		    de->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (fgets(line, sizeof line, f) != NULL) {
			if (sscanf(line, "pos: %lld", &pos) == 1)
				break;
		}
		fclose(f);
	}
	closedir(d);
	if (pos < 0)
		return (-1);
	lp->done = pos > (long long)total ? total : (off_t)pos;
	clock_gettime(CLOCK_REALTIME, &now);
	lp->elapsed = (double)(now.tv_sec - fst.st_mtim.tv_sec) +
	    (now.tv_nsec - fst.st_mtim.tv_nsec) / 1e9;
	if (lp->elapsed < 0)
		lp->elapsed = 0;
	if (lp->done > 0 && lp->elapsed > 0)
		lp->left = (double)(total - lp->done) * lp->elapsed /
		    (double)lp->done;
	return (0);
}

/* "Read 12.3 of 50.0 MB (24%) in 3 s; about 9 s left."; caller frees. */
char *
loadprogress_text(const struct loadprogress *lp)
{
	char	*s, left[64] = "";
	int	 pct = lp->total > 0 ? (int)(100 * lp->done / lp->total) : 0;

	if (lp->left >= 0)
		snprintf(left, sizeof left, "; about %.0f s left",
		    lp->left < 1 ? 1 : lp->left);
	if (asprintf(&s, "Read %.1f of %.1f MB (%d%%) in %.0f s%s.",
	    (double)lp->done / (1024 * 1024), (double)lp->total /
	    (1024 * 1024), pct, lp->elapsed, left) == -1)
		return (NULL);
	return (s);
}

/*
 * The same as JSON, in whole numbers: {bytes_read, bytes_total,
 * percent, elapsed_ms, eta_ms (null: unknown)}.
 */
json_t *
loadprogress_json(const struct loadprogress *lp)
{
	return (json_pack("{s:I, s:I, s:I, s:I, s:o}", "bytes_read",
	    (json_int_t)lp->done, "bytes_total", (json_int_t)lp->total,
	    "percent", (json_int_t)(lp->total > 0 ? 100 * lp->done /
	    lp->total : 0), "elapsed_ms", (json_int_t)(lp->elapsed * 1000),
	    "eta_ms", lp->left >= 0 ? json_integer((json_int_t)(lp->left *
	    1000)) : json_null()));
}

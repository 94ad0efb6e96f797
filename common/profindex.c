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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "answer.h"
#include "catalog.h"
#include "cause.h"
#include "client.h"
#include "conf.h"
#include "escape.h"
#include "hash.h"
#include "outbuf.h"
#include "page.h"
#include "profindex.h"
#include "profpath.h"
#include "profprobe.h"
#include "proto.h"
#include "query.h"
#include "render.h"
#include "rundir.h"
#include "utf8.h"

/*
 * The profile index (see profindex.h): a listing, made by a walk and
 * kept, and its three renderings.
 */

#define PROFINDEX_MAX_DEPTH	8	/* directory levels under the root */
#define PROFINDEX_MAX_READ	200000	/* directory entries read, in all */
#define PROFINDEX_MAX_NAME	4096	/* bytes of a name (file='s bound) */
#define PROFINDEX_PROBE_MS	2000	/* probing time of one listing */
/* The listing's file in the runtime directory: never more than this. */
#define PROFINDEX_FILE_MAX	((size_t)256 << 20)
#define PROFINDEX_MAGIC		"DEEPQIX1"
/*
 * The bytes an answer's rows may fill: a row is at most some 32 KB (a
 * name of PROFINDEX_MAX_NAME bytes, each escaped in 6), and what ends
 * the answer less, so the whole stays within PROFINDEX_MAX_BYTES.
 */
#define PROFINDEX_ROOM		(PROFINDEX_MAX_BYTES - 64 * 1024)

/* A regular file seen, a profile or not (its verdict is kept). */
struct profindex_file {
	char		*name;		/* relative to the root */
	uint64_t	 dev, ino;
	int64_t		 size, mtime, mtime_ns;
	int32_t		 format;	/* profprobe_format_id, -1 none */
#define PROFINDEX_UNPROBED	(-2)	/* ... or not yet known */
};

/* A directory walked: changed when its entries change. */
struct profindex_dir {
	char		*rel;		/* "" for the root */
	uint64_t	 dev, ino;
	int64_t		 mtime, mtime_ns, ctime, ctime_ns;
};

struct profindex_list {
	struct profindex_file	*fv;
	size_t			 nf, capf;
	struct profindex_dir	*dv;
	size_t			 nd, capd;
	uint64_t		 dev, ino;	/* the root's */
	int64_t			 made;		/* time(), when walked */
	int			 truncated;	/* a walk bound was reached */
	int			 partial;	/* files left unprobed */
};

struct profindex {
	char			*root;
	size_t			 max;		/* profiles listed */
	int			 persist;	/* keep it in the runtime dir */
	struct profindex_list	*list;
};

/* A walk: the new listing, the old one whose verdicts it reuses. */
struct profindex_walk {
	struct profindex_list		*list;
	char				*head;		/* probe buffer */
	const struct profindex_list	*old;
	long long			 deadline;	/* ms, for probing */
	size_t				 read;
	int				 oom;
};

/* What a rendering shows of one profile. */
struct profindex_row {
	const struct profindex_file	*f;
	pid_t				 pid;
	int				 serving;
};

static void	profindex_list_free(struct profindex_list *);
static int	profindex_walk_dir(struct profindex_walk *, int, const char *,
		    int);
static struct profindex_list *profindex_build(const char *, int,
		    const struct profindex_list *, char **);
static int	profindex_unchanged(const struct profindex_list *, int);
static int	profindex_more(struct profindex_list *, int);
static struct profindex_list *profindex_load(int, const char *);
static void	profindex_save(int, const char *,
		    const struct profindex_list *);

static long long
profindex_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void
profindex_list_free(struct profindex_list *l)
{
	size_t	 i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nf; i++)
		free(l->fv[i].name);
	for (i = 0; i < l->nd; i++)
		free(l->dv[i].rel);
	free(l->fv);
	free(l->dv);
	free(l);
}

static int
profindex_file_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct profindex_file *)a)->name,
	    ((const struct profindex_file *)b)->name));
}

/*
 * The verdict of the file open at fd, if it is still the file stat'ed
 * (st): its format's id, or -1.
 */
static int32_t
profindex_probe(int fd, const struct stat *st, char *head)
{
	struct stat	 fst;

	if (fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode) &&
	    fst.st_dev == st->st_dev && fst.st_ino == st->st_ino)
		return (profprobe_format_id(profprobe_fd(fd, head)));
	return (-1);
}

/* The old verdict of a file unchanged since, or PROFINDEX_UNPROBED. */
static int32_t
profindex_known(const struct profindex_list *old, const char *name,
    const struct stat *st)
{
	struct profindex_file	 key, *f;

	if (old == NULL || old->nf == 0)
		return (PROFINDEX_UNPROBED);
	key.name = (char *)name;
	if ((f = bsearch(&key, old->fv, old->nf, sizeof *f,
	    profindex_file_cmp)) == NULL || f->dev != (uint64_t)st->st_dev ||
	    f->ino != (uint64_t)st->st_ino || f->size != st->st_size ||
	    f->mtime != st->st_mtim.tv_sec ||
	    f->mtime_ns != st->st_mtim.tv_nsec)
		return (PROFINDEX_UNPROBED);
	return (f->format);
}

static int
profindex_add_dir(struct profindex_list *l, const char *rel,
    const struct stat *st)
{
	struct profindex_dir	*nd, *d;

	if (l->nd == l->capd) {
		l->capd = l->capd ? l->capd * 2 : 16;
		if ((nd = reallocarray(l->dv, l->capd, sizeof *nd)) == NULL)
			return (-1);
		l->dv = nd;
	}
	d = &l->dv[l->nd];
	if ((d->rel = strdup(rel)) == NULL)
		return (-1);
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->mtime = st->st_mtim.tv_sec;
	d->mtime_ns = st->st_mtim.tv_nsec;
	d->ctime = st->st_ctim.tv_sec;
	d->ctime_ns = st->st_ctim.tv_nsec;
	l->nd++;
	return (0);
}

/*
 * A regular file of the directory dfd: its verdict, kept from the old
 * listing if the file did not change, else probed now (opened from dfd,
 * no link followed, checked to be the file stat'ed) while the budget
 * lasts. -1 if out of memory.
 */
static int
profindex_add_file(struct profindex_walk *w, int dfd, const char *base,
    char *name, const struct stat *st)
{
	struct profindex_list	*l = w->list;
	struct profindex_file	*nf, *f;
	int32_t			 format;
	int			 fd;

	if ((format = profindex_known(w->old, name, st)) ==
	    PROFINDEX_UNPROBED) {
		if (profindex_ms() > w->deadline)
			l->partial = 1;
		else if ((fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) != -1) {
			format = profindex_probe(fd, st, w->head);
			close(fd);
		} else
			format = -1;
	}
	if (l->nf == l->capf) {
		l->capf = l->capf ? l->capf * 2 : 64;
		if ((nf = reallocarray(l->fv, l->capf, sizeof *nf)) == NULL) {
			free(name);
			return (-1);
		}
		l->fv = nf;
	}
	f = &l->fv[l->nf++];
	f->name = name;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = st->st_size;
	f->mtime = st->st_mtim.tv_sec;
	f->mtime_ns = st->st_mtim.tv_nsec;
	f->format = format;
	return (0);
}

/*
 * The directory dfd (which this call closes), rel its name under the
 * root ("" for the root). A name that cannot be a file= value (not
 * UTF-8, too long) is left out, as are hidden names and anything but
 * directories and regular files. -1 if out of memory.
 */
static int
profindex_walk_dir(struct profindex_walk *w, int dfd, const char *rel,
    int depth)
{
	struct dirent	*de;
	struct stat	 st;
	char		*name;
	size_t		 len;
	DIR		*d;
	int		 fd, r = 0;

	if (fstat(dfd, &st) == -1 || profindex_add_dir(w->list, rel,
	    &st) == -1) {
		close(dfd);
		return (-1);
	}
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return (0);
	}
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (++w->read > PROFINDEX_MAX_READ) {
			w->list->truncated = 1;
			break;
		}
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&name, "%s%s%s", rel, *rel ? "/" : "",
		    de->d_name) == -1) {
			r = -1;
			break;
		}
		len = strlen(name);
		if (len > PROFINDEX_MAX_NAME || !utf8_valid(name, len) ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == -1)
			free(name);
		else if (S_ISDIR(st.st_mode)) {
			if (depth < PROFINDEX_MAX_DEPTH && (fd = openat(dirfd(d),
			    de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC)) != -1)
				r = profindex_walk_dir(w, fd, name, depth + 1);
			else if (depth >= PROFINDEX_MAX_DEPTH)
				w->list->truncated = 1;
			free(name);
		} else if (S_ISREG(st.st_mode))
			r = profindex_add_file(w, dirfd(d), de->d_name, name,
			    &st);
		else
			free(name);
	}
	closedir(d);
	return (r);
}

/*
 * Walk the root open at rootfd (not closed here) anew; verdicts of
 * files unchanged since old are kept. NULL with *cause if out of memory.
 */
static struct profindex_list *
profindex_build(const char *root, int rootfd,
    const struct profindex_list *old, char **cause)
{
	struct profindex_walk	 w;
	struct stat		 st;
	int			 fd, r;

	memset(&w, 0, sizeof w);
	w.old = old;
	w.deadline = profindex_ms() + PROFINDEX_PROBE_MS;
	if ((w.list = calloc(1, sizeof *w.list)) == NULL ||
	    (w.head = malloc(PROFPROBE_HEAD)) == NULL ||
	    fstat(rootfd, &st) == -1 ||
	    (fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1) {
		profindex_list_free(w.list);
		free(w.head);
		cause_set(cause, "%s: cannot be read", root);
		return (NULL);
	}
	w.list->dev = st.st_dev;
	w.list->ino = st.st_ino;
	w.list->made = time(NULL);
	r = profindex_walk_dir(&w, fd, "", 0);
	free(w.head);
	if (r == -1) {
		profindex_list_free(w.list);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (w.list->nf > 0)
		qsort(w.list->fv, w.list->nf, sizeof *w.list->fv,
		    profindex_file_cmp);
	return (w.list);
}

/*
 * May the listing be answered? It is young, of this very root, and no
 * directory of it changed (a file added, removed or renamed changes its
 * directory's times; one replaced by a link too). Its files may still
 * be partly unprobed (profindex_more).
 */
static int
profindex_unchanged(const struct profindex_list *l, int rootfd)
{
	struct stat	 st;
	int64_t		 now = time(NULL);
	size_t		 i;

	if (l == NULL || now < l->made || now - l->made >= PROFINDEX_MAX_AGE ||
	    fstat(rootfd, &st) == -1 || (uint64_t)st.st_dev != l->dev ||
	    (uint64_t)st.st_ino != l->ino)
		return (0);
	for (i = 0; i < l->nd; i++) {
		if (fstatat(rootfd, *l->dv[i].rel ? l->dv[i].rel : ".", &st,
		    AT_SYMLINK_NOFOLLOW) == -1 || !S_ISDIR(st.st_mode) ||
		    (uint64_t)st.st_dev != l->dv[i].dev ||
		    (uint64_t)st.st_ino != l->dv[i].ino ||
		    st.st_mtim.tv_sec != l->dv[i].mtime ||
		    st.st_mtim.tv_nsec != l->dv[i].mtime_ns ||
		    st.st_ctim.tv_sec != l->dv[i].ctime ||
		    st.st_ctim.tv_nsec != l->dv[i].ctime_ns)
			return (0);
	}
	return (1);
}

/*
 * Probe the files a walk left unprobed (its time budget spent), for
 * another budget: each opened beneath the root with no link on the way
 * (profpath_openat) and checked to be the file the walk saw. 1 if any
 * was, 0 if none; -1 if out of memory.
 */
static int
profindex_more(struct profindex_list *l, int rootfd)
{
	struct stat	 st;
	long long	 deadline = profindex_ms() + PROFINDEX_PROBE_MS;
	char		*head;
	size_t		 i;
	int		 fd, done = 0;

	if (!l->partial)
		return (0);
	if ((head = malloc(PROFPROBE_HEAD)) == NULL)
		return (-1);
	l->partial = 0;
	for (i = 0; i < l->nf; i++) {
		if (l->fv[i].format != PROFINDEX_UNPROBED)
			continue;
		if (profindex_ms() > deadline) {
			l->partial = 1;
			break;
		}
		memset(&st, 0, sizeof st);
		st.st_dev = (dev_t)l->fv[i].dev;
		st.st_ino = (ino_t)l->fv[i].ino;
		l->fv[i].format = -1;
		if ((fd = profpath_openat(rootfd, l->fv[i].name)) != -1) {
			l->fv[i].format = profindex_probe(fd, &st, head);
			close(fd);
		}
		done = 1;
	}
	free(head);
	return (done);
}

/*
 * The listing's file in the runtime directory: a header, the
 * directories, the files, each field fixed-size or length-prefixed, and
 * a checksum of all before it. The directory is private to this user,
 * but the file is still read as if it were not: every length checked.
 */
struct profindex_rd {
	const char	*p;
	size_t		 left;
	int		 bad;
};

static void
profindex_rd(struct profindex_rd *r, void *dst, size_t n)
{
	if (r->bad || n > r->left) {
		r->bad = 1;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, r->p, n);
	r->p += n;
	r->left -= n;
}

static char *
profindex_rd_string(struct profindex_rd *r)
{
	uint32_t	 n;
	char		*s;

	profindex_rd(r, &n, sizeof n);
	if (r->bad || n > PROFINDEX_MAX_NAME || n > r->left ||
	    (s = malloc(n + 1)) == NULL) {
		r->bad = 1;
		return (NULL);
	}
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	r->left -= n;
	if (strlen(s) != n) {
		free(s);
		r->bad = 1;
		return (NULL);
	}
	return (s);
}

/* The file's name: one per root (its path and its identity). */
static void
profindex_file_name(const char *root, uint64_t dev, uint64_t ino, char *out,
    size_t size)
{
	uint64_t	 h = hash_bytes(root, strlen(root));

	h = hash_u64(h ^ hash_u64(dev) ^ (hash_u64(ino) << 1));
	snprintf(out, size, "index-%016llx", (unsigned long long)h);
}

/* The listing kept for this root, NULL if none or unusable. */
static struct profindex_list *
profindex_load(int rundirfd, const char *name)
{
	struct profindex_list	*l = NULL;
	struct profindex_rd	 r;
	struct stat		 st;
	char			*buf = NULL, magic[8];
	uint64_t		 sum, n64[2];
	uint32_t		 version, flags, nd, nf, i;
	ssize_t			 got;
	size_t			 off = 0;
	int			 fd;

	if ((fd = rundir_file(rundirfd, name, 0, NULL)) == -1)
		return (NULL);
	if (fstat(fd, &st) == -1 || st.st_size < 48 ||
	    (size_t)st.st_size > PROFINDEX_FILE_MAX ||
	    (buf = malloc(st.st_size)) == NULL)
		goto fail;
	while (off < (size_t)st.st_size && (got = pread(fd, buf + off,
	    st.st_size - off, off)) > 0)
		off += (size_t)got;
	if (off != (size_t)st.st_size)
		goto fail;
	memcpy(&sum, buf + off - sizeof sum, sizeof sum);
	if (sum != hash_bytes(buf, off - sizeof sum))
		goto fail;
	r.p = buf;
	r.left = off - sizeof sum;
	r.bad = 0;
	if ((l = calloc(1, sizeof *l)) == NULL)
		goto fail;
	profindex_rd(&r, magic, sizeof magic);
	profindex_rd(&r, &version, sizeof version);
	profindex_rd(&r, &flags, sizeof flags);
	profindex_rd(&r, n64, sizeof n64);
	profindex_rd(&r, &l->made, sizeof l->made);
	profindex_rd(&r, &nd, sizeof nd);
	profindex_rd(&r, &nf, sizeof nf);
	if (r.bad || memcmp(magic, PROFINDEX_MAGIC, sizeof magic) != 0 ||
	    version != PROFPROBE_VERSION || nd > PROFINDEX_MAX_READ + 1 ||
	    nf > PROFINDEX_MAX_READ)
		goto fail;
	l->dev = n64[0];
	l->ino = n64[1];
	l->truncated = (flags & 1) != 0;
	l->partial = (flags & 2) != 0;
	if ((l->dv = calloc(nd ? nd : 1, sizeof *l->dv)) == NULL ||
	    (l->fv = calloc(nf ? nf : 1, sizeof *l->fv)) == NULL)
		goto fail;
	l->capd = nd ? nd : 1;
	l->capf = nf ? nf : 1;
	for (i = 0; i < nd && !r.bad; i++, l->nd++) {
		struct profindex_dir	*d = &l->dv[i];

		d->rel = profindex_rd_string(&r);
		profindex_rd(&r, &d->dev, sizeof d->dev);
		profindex_rd(&r, &d->ino, sizeof d->ino);
		profindex_rd(&r, &d->mtime, sizeof d->mtime);
		profindex_rd(&r, &d->mtime_ns, sizeof d->mtime_ns);
		profindex_rd(&r, &d->ctime, sizeof d->ctime);
		profindex_rd(&r, &d->ctime_ns, sizeof d->ctime_ns);
	}
	for (i = 0; i < nf && !r.bad; i++, l->nf++) {
		struct profindex_file	*f = &l->fv[i];

		f->name = profindex_rd_string(&r);
		profindex_rd(&r, &f->dev, sizeof f->dev);
		profindex_rd(&r, &f->ino, sizeof f->ino);
		profindex_rd(&r, &f->size, sizeof f->size);
		profindex_rd(&r, &f->mtime, sizeof f->mtime);
		profindex_rd(&r, &f->mtime_ns, sizeof f->mtime_ns);
		profindex_rd(&r, &f->format, sizeof f->format);
		if (f->format < PROFINDEX_UNPROBED || (f->format >= 0 &&
		    profprobe_format_name(f->format) == NULL) ||
		    (i > 0 && f->name != NULL &&
		    strcmp(l->fv[i - 1].name, f->name) >= 0))
			r.bad = 1;
	}
	if (r.bad || r.left != 0)
		goto fail;
	close(fd);
	free(buf);
	return (l);
fail:
	close(fd);
	free(buf);
	profindex_list_free(l);
	return (NULL);
}

static void
profindex_wr(struct outbuf *ob, const void *p, size_t n)
{
	outbuf_write(ob, p, n);
}

static void
profindex_wr_string(struct outbuf *ob, const char *s)
{
	uint32_t	 n = strlen(s);

	outbuf_write(ob, &n, sizeof n);
	outbuf_write(ob, s, n);
}

/*
 * Keep the listing in the runtime directory, atomically (a file of our
 * own renamed over the last); a failure only costs the next request a
 * walk.
 */
static void
profindex_save(int rundirfd, const char *name,
    const struct profindex_list *l)
{
	struct outbuf	 ob;
	char		 tmp[128], *body;
	uint64_t	 sum, n64[2] = { l->dev, l->ino };
	uint32_t	 version = PROFPROBE_VERSION, flags, nd, nf;
	size_t		 len, i, off;
	ssize_t		 w;
	int		 fd;

	flags = (l->truncated ? 1 : 0) | (l->partial ? 2 : 0);
	nd = (uint32_t)l->nd;
	nf = (uint32_t)l->nf;
	outbuf_init(&ob);
	profindex_wr(&ob, PROFINDEX_MAGIC, 8);
	profindex_wr(&ob, &version, sizeof version);
	profindex_wr(&ob, &flags, sizeof flags);
	profindex_wr(&ob, n64, sizeof n64);
	profindex_wr(&ob, &l->made, sizeof l->made);
	profindex_wr(&ob, &nd, sizeof nd);
	profindex_wr(&ob, &nf, sizeof nf);
	for (i = 0; i < l->nd; i++) {
		const struct profindex_dir	*d = &l->dv[i];

		profindex_wr_string(&ob, d->rel);
		profindex_wr(&ob, &d->dev, sizeof d->dev);
		profindex_wr(&ob, &d->ino, sizeof d->ino);
		profindex_wr(&ob, &d->mtime, sizeof d->mtime);
		profindex_wr(&ob, &d->mtime_ns, sizeof d->mtime_ns);
		profindex_wr(&ob, &d->ctime, sizeof d->ctime);
		profindex_wr(&ob, &d->ctime_ns, sizeof d->ctime_ns);
	}
	for (i = 0; i < l->nf; i++) {
		const struct profindex_file	*f = &l->fv[i];

		profindex_wr_string(&ob, f->name);
		profindex_wr(&ob, &f->dev, sizeof f->dev);
		profindex_wr(&ob, &f->ino, sizeof f->ino);
		profindex_wr(&ob, &f->size, sizeof f->size);
		profindex_wr(&ob, &f->mtime, sizeof f->mtime);
		profindex_wr(&ob, &f->mtime_ns, sizeof f->mtime_ns);
		profindex_wr(&ob, &f->format, sizeof f->format);
	}
	if (outbuf_failed(&ob) || outbuf_len(&ob) + sizeof sum >
	    PROFINDEX_FILE_MAX || (body = outbuf_take(&ob, &len)) == NULL) {
		outbuf_clear(&ob);
		return;
	}
	sum = hash_bytes(body, len);
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", name, (long)getpid());
	(void)unlinkat(rundirfd, tmp, 0);
	if ((fd = rundir_file(rundirfd, tmp, 2, NULL)) == -1) {
		free(body);
		return;
	}
	for (off = 0; off < len; off += (size_t)w) {
		if ((w = write(fd, body + off, len - off)) <= 0)
			break;
	}
	if (off == len && write(fd, &sum, sizeof sum) == sizeof sum &&
	    close(fd) == 0) {
		fd = -1;
		if (renameat(rundirfd, tmp, rundirfd, name) == 0) {
			free(body);
			return;
		}
	}
	if (fd != -1)
		close(fd);
	(void)unlinkat(rundirfd, tmp, 0);
	free(body);
}

/*
 * The index of the profiles under root, listing at most max of them;
 * persist: keep the listing in the runtime directory too (a process
 * that answers one request). NULL with *cause if out of memory.
 */
struct profindex *
profindex_create(const char *root, size_t max, int persist, char **cause)
{
	struct profindex	*x;

	if ((x = calloc(1, sizeof *x)) == NULL ||
	    (x->root = strdup(root)) == NULL) {
		free(x);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	x->max = max;
	x->persist = persist;
	return (x);
}

void
profindex_free(struct profindex *x)
{
	if (x == NULL)
		return;
	profindex_list_free(x->list);
	free(x->root);
	free(x);
}

/*
 * The listing, up to date: the one held, else the runtime directory's,
 * else a new walk (kept in both); files left unprobed are probed for
 * another budget on the way. -1 with *cause (and *status) on failure.
 */
static int
profindex_refresh(struct profindex *x, const struct config *cfg,
    int *status, char **cause)
{
	struct profindex_list	*l = NULL;
	struct stat		 st;
	char			 name[64], *rundir = NULL;
	int			 rootfd, rundirfd = -1, more = 0;

	if ((rootfd = open(x->root, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1 || fstat(rootfd, &st) == -1) {
		if (rootfd != -1)
			close(rootfd);
		*status = 500;
		cause_set(cause, "the profile root cannot be read");
		return (-1);
	}
	if (x->persist && (rundir = conf_runtime_dir(cfg, NULL)) != NULL &&
	    (rundirfd = rundir_open(rundir, 1, NULL)) != -1)
		profindex_file_name(x->root, st.st_dev, st.st_ino, name,
		    sizeof name);
	free(rundir);
	if (!profindex_unchanged(x->list, rootfd) && rundirfd != -1 &&
	    (l = profindex_load(rundirfd, name)) != NULL) {
		/* Another process's, or our own older one. */
		profindex_list_free(x->list);
		x->list = l;
	}
	if (profindex_unchanged(x->list, rootfd))
		more = profindex_more(x->list, rootfd);
	else {
		/* A walk, keeping the verdicts of files still the same. */
		if ((l = profindex_build(x->root, rootfd, x->list,
		    cause)) == NULL)
			more = -1;
		else {
			profindex_list_free(x->list);
			x->list = l;
			more = 1;
		}
	}
	if (more == 1 && rundirfd != -1)
		profindex_save(rundirfd, name, x->list);
	close(rootfd);
	if (rundirfd != -1)
		close(rundirfd);
	if (more == -1) {
		*status = 500;
		if (*cause == NULL)
			cause_set(cause, "out of memory");
		return (-1);
	}
	return (0);
}

/* A count with thousands separators. */
static void
profindex_number(struct outbuf *ob, int64_t v)
{
	char	 digits[32], out[48];
	int	 n, i, o = 0;

	n = snprintf(digits, sizeof digits, "%lld", (long long)v);
	for (i = 0; i < n; i++) {
		if (i > 0 && digits[i - 1] != '-' && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	outbuf_write(ob, out, o);
}

/* An href to file=NAME (with the page's link base). */
static void
profindex_href(struct outbuf *ob, const struct render_context *ctx,
    const char *name)
{
	char	*e;

	if ((e = query_urlencode(name)) == NULL) {
		outbuf_fail(ob);
		return;
	}
	outbuf_puts(ob, " href=\"");
	escape_html_buf(ob, ctx->link_base, strlen(ctx->link_base));
	outbuf_puts(ob, "file=");
	escape_html_buf(ob, e, strlen(e));
	outbuf_putc(ob, '"');
	free(e);
}

/*
 * The pair the comparison form starts with: the first two profiles of
 * one format (two runs of one program, most likely), else the first two.
 */
static void
profindex_pair(const struct profindex_row *rv, size_t n, size_t *a,
    size_t *b)
{
	size_t	 i, j;

	*a = 0;
	*b = 1;
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (rv[i].f->format == rv[j].f->format) {
				*a = i;
				*b = j;
				return;
			}
		}
	}
}

/*
 * With file= (a summary's "pick it from the profiles"), that profile as
 * the one compared, and the base another of its format where there is
 * one; a name not listed changes nothing.
 */
static void
profindex_chosen(const struct profindex_row *rv, size_t n, const char *file,
    size_t *a, size_t *b)
{
	size_t	 i, j;

	if (file == NULL || *file == '\0')
		return;
	for (i = 0; i < n && strcmp(rv[i].f->name, file) != 0; i++)
		continue;
	if (i == n)
		return;
	*a = i;
	*b = i == 0 ? 1 : 0;
	for (j = 0; j < n; j++) {
		if (j != i && rv[j].f->format == rv[i].f->format) {
			*b = j;
			break;
		}
	}
}

/* A select of the form: the names, as long as the budget allows. */
static void
profindex_select(struct outbuf *ob, const char *key, const char *label,
    const struct profindex_row *rv, size_t n, size_t selected,
    size_t limit)
{
	size_t	 i;

	outbuf_printf(ob, "<label>%s <select name=\"%s\">", label, key);
	/*
	 * The value in an attribute of its own: a browser collapses the
	 * blanks of an option's text, so a newline or a run of spaces in a
	 * name would name another file.
	 */
	for (i = 0; i < n && outbuf_len(ob) < limit; i++) {
		outbuf_puts(ob, i == selected ? "<option selected value=\"" :
		    "<option value=\"");
		escape_html_buf(ob, rv[i].f->name, strlen(rv[i].f->name));
		outbuf_puts(ob, "\">");
		escape_html_buf(ob, rv[i].f->name, strlen(rv[i].f->name));
		outbuf_puts(ob, "</option>");
	}
	outbuf_puts(ob, "</select></label>\n");
}

/*
 * The page: the profiles as a table, then the form that starts a
 * comparison of two of them. Each part stops at its share of the bytes.
 */
static void
profindex_html(struct outbuf *ob, const struct profindex_row *rv, size_t n,
    int truncated, size_t live, const char *file,
    const struct render_context *ctx)
{
	const char	*fmt;
	size_t		 i, a, b, shown;

	page_begin(ob, "Profiles", ctx, NULL);
	outbuf_puts(ob, "<p>");
	profindex_number(ob, (int64_t)n);
	outbuf_puts(ob, n == 1 ? " profile" : " profiles");
	if (live > 0) {
		outbuf_puts(ob, ", ");
		profindex_number(ob, (int64_t)live);
		outbuf_puts(ob, " with a live server");
	}
	outbuf_puts(ob, ".</p>\n<table class=\"report\" id=\"profiles\">\n"
	    "<thead><tr><th scope=\"col\">Profile</th><th scope=\"col\">"
	    "Format</th><th scope=\"col\" class=\"num\">Bytes</th>"
	    "<th scope=\"col\">Server</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n && outbuf_len(ob) < PROFINDEX_MAX_BYTES / 4 * 3;
	    i++) {
		fmt = profprobe_format_name(rv[i].f->format);
		outbuf_puts(ob, "<tr><td><a");
		profindex_href(ob, ctx, rv[i].f->name);
		outbuf_putc(ob, '>');
		escape_html_buf(ob, rv[i].f->name, strlen(rv[i].f->name));
		outbuf_printf(ob, "</a></td><td>%s</td><td class=\"num\">",
		    fmt);
		profindex_number(ob, rv[i].f->size);
		outbuf_puts(ob, "</td><td");
		if (rv[i].pid != 0)
			outbuf_printf(ob, ">%s, pid %ld", rv[i].serving ?
			    "live" : "loading", (long)rv[i].pid);
		else
			outbuf_puts(ob, " class=\"dim\">none");
		outbuf_puts(ob, "</td></tr>\n");
	}
	shown = i;
	outbuf_puts(ob, "</tbody>\n</table>\n");
	if (shown < n || truncated)
		outbuf_puts(ob, "<p class=\"note\">There are more profiles than "
		    "this page lists (<code>index_entries</code> in "
		    "deepq.conf sets how many).</p>\n");
	if (shown >= 2) {
		profindex_pair(rv, shown, &a, &b);
		/* The profile a summary sent the user from comes chosen. */
		profindex_chosen(rv, shown, file, &a, &b);
		outbuf_puts(ob, "<form class=\"compare\" method=\"get\" "
		    "action=\"");
		escape_html_buf(ob, ctx->link_base, strlen(ctx->link_base));
		outbuf_puts(ob, "\"><h2>Compare two profiles</h2>\n");
		profindex_select(ob, "file", "Profile", rv, shown, a,
		    outbuf_len(ob) + PROFINDEX_MAX_BYTES / 10);
		profindex_select(ob, "base", "with the base", rv, shown, b,
		    outbuf_len(ob) + PROFINDEX_MAX_BYTES / 10);
		outbuf_puts(ob, "<label><input type=\"checkbox\" "
		    "name=\"normalize\" value=\"0\"> raw totals (not "
		    "normalised)</label>\n<input type=\"hidden\" name=\"cmd\" "
		    "value=\"top\"><input type=\"hidden\" name=\"sort\" "
		    "value=\"delta\"><button type=\"submit\">Compare</button>"
		    "</form>\n");
	}
	page_end(ob, ctx);
}

/*
 * {"deepq": 1, "cmd": "index", "profiles": [{"name", "format", "size",
 * "server": null or {"pid", "serving"}}], "truncated": bool}, the rows
 * while they fit in the bytes an answer may have.
 */
static void
profindex_json(struct outbuf *ob, const struct profindex_row *rv, size_t n,
    int truncated)
{
	json_t	*row;
	char	*s;
	size_t	 i;

	outbuf_printf(ob, "{\"deepq\":%d,\"cmd\":\"index\",\"profiles\":[",
	    ANSWER_JSON_VERSION);
	for (i = 0; i < n && outbuf_len(ob) < PROFINDEX_ROOM; i++) {
		row = json_pack("{s:s, s:s, s:I, s:o}", "name", rv[i].f->name,
		    "format", profprobe_format_name(rv[i].f->format), "size",
		    (json_int_t)rv[i].f->size, "server", rv[i].pid == 0 ?
		    json_null() : json_pack("{s:I, s:b}", "pid",
		    (json_int_t)rv[i].pid, "serving", rv[i].serving));
		if (row == NULL || (s = json_dumps(row, JSON_COMPACT |
		    JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER)) == NULL) {
			json_decref(row);
			outbuf_fail(ob);
			return;
		}
		if (i > 0)
			outbuf_putc(ob, ',');
		outbuf_puts(ob, s);
		free(s);
		json_decref(row);
	}
	outbuf_printf(ob, "],\"truncated\":%s}\n", truncated || i < n ?
	    "true" : "false");
}

/*
 * A name on a line of its own: bytes that could end or forge a line
 * (controls, C1 controls, the Unicode line and paragraph separators)
 * and the backslash written as C escapes.
 */
static void
profindex_text_name(struct outbuf *ob, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	for (; *p != '\0'; p++) {
		if (*p == '\\')
			outbuf_puts(ob, "\\\\");
		else if (*p == '\t')
			outbuf_puts(ob, "\\t");
		else if (*p == '\n')
			outbuf_puts(ob, "\\n");
		else if (*p == '\r')
			outbuf_puts(ob, "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			outbuf_printf(ob, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			outbuf_printf(ob, "\\u%04x", p[1]);
			p++;
		} else if (*p == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			outbuf_printf(ob, "\\u%04x", 0x2000 + (p[2] & 0x3f));
			p += 2;
		} else
			outbuf_putc(ob, (char)*p);
	}
}

/* One profile a line: name, format, bytes, server, tab-separated. */
static void
profindex_text(struct outbuf *ob, const struct profindex_row *rv, size_t n,
    int truncated)
{
	size_t	 i;

	for (i = 0; i < n && outbuf_len(ob) < PROFINDEX_ROOM; i++) {
		profindex_text_name(ob, rv[i].f->name);
		outbuf_printf(ob, "\t%s\t%lld\t",
		    profprobe_format_name(rv[i].f->format),
		    (long long)rv[i].f->size);
		if (rv[i].pid != 0)
			outbuf_printf(ob, "%s %ld\n", rv[i].serving ? "live" :
			    "loading", (long)rv[i].pid);
		else
			outbuf_puts(ob, "-\n");
	}
	if (truncated || i < n)
		outbuf_puts(ob, "# there are more\n");
}

/*
 * No index here, or one elsewhere (url): a page that says so and links
 * to it, or back to the profile the link came from.
 */
static void
profindex_none(struct outbuf *ob, const char *url, const char *file,
    const struct render_context *ctx)
{
	page_begin(ob, "Profiles", ctx, NULL);
	if (url != NULL) {
		outbuf_puts(ob, "<p>The profiles of this site are listed at "
		    "<a href=\"");
		escape_html_buf(ob, url, strlen(url));
		outbuf_puts(ob, "\">");
		escape_html_buf(ob, url, strlen(url));
		outbuf_puts(ob, "</a>.</p>\n");
	} else
		outbuf_puts(ob, "<p>This site does not list its profiles "
		    "(its deepq.conf sets neither <code>index_entries</code> "
		    "nor <code>index_url</code>): ask its owner for the name "
		    "of a profile, and open it as "
		    "<code>?file=NAME</code>.</p>\n");
	if (file != NULL) {
		outbuf_puts(ob, "<p>Back to <a");
		profindex_href(ob, ctx, file);
		outbuf_putc(ob, '>');
		escape_html_buf(ob, file, strlen(file));
		outbuf_puts(ob, "</a>.</p>\n");
	}
	page_end(ob, ctx);
}

/*
 * The rows: the listing's profiles (at most max), each with its server
 * if one runs. NULL if out of memory.
 */
static struct profindex_row *
profindex_rows(const struct profindex *x, const struct config *cfg,
    size_t *np, size_t *live, int *truncated)
{
	struct profindex_row	*rv;
	struct client_server	*sv = NULL;
	struct stat		 st;
	char			 key[PROTO_KEY_LEN + 1], *cause = NULL;
	size_t			 i, k, n = 0, nsv = 0;

	*live = 0;
	*truncated = x->list->truncated || x->list->partial;
	if ((rv = calloc(x->list->nf ? x->list->nf : 1, sizeof *rv)) == NULL)
		return (NULL);
	for (i = 0; i < x->list->nf; i++) {
		if (x->list->fv[i].format < 0)
			continue;
		if (n == x->max) {
			*truncated = 1;
			break;
		}
		rv[n++].f = &x->list->fv[i];
	}
	/* Servers are only a column: none listed is no error. */
	if (client_list(cfg, &sv, &nsv, &cause) == -1)
		free(cause);
	memset(&st, 0, sizeof st);
	for (i = 0; i < n && nsv > 0; i++) {
		st.st_dev = (dev_t)rv[i].f->dev;
		st.st_ino = (ino_t)rv[i].f->ino;
		profpath_key(&st, key);
		for (k = 0; k < nsv; k++) {
			if (strcmp(key, sv[k].key) == 0) {
				rv[i].pid = sv[k].pid;
				rv[i].serving = sv[k].serving;
				(*live)++;
				break;
			}
		}
	}
	client_list_free(sv, nsv);
	*np = n;
	return (rv);
}

static struct answer *
profindex_finish(struct outbuf *ob, struct answer *a, char **cause)
{
	if (outbuf_failed(ob) || (a->body = outbuf_take(ob, &a->len)) ==
	    NULL) {
		outbuf_clear(ob);
		free(a);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	return (a);
}

/*
 * The answer to cmd=index (q, checked by front_check) in the query's
 * format, from the index x (NULL: this site lists none, see
 * profindex.h); NULL with *cause if it could not be made.
 */
struct answer *
profindex_answer(struct profindex *x, const struct config *cfg,
    const struct query *q, const struct render_context *ctx, char **cause)
{
	struct profindex_row	*rv;
	struct outbuf		 ob;
	struct answer		*a;
	char			*why = NULL;
	size_t			 n, live;
	int			 status, truncated;

	/* The index's formats are the catalog's (html, json, text). */
	if (!catalog_report_answers(CMD_INDEX, q->format))
		return (answer_error(q->format, 400, "the index is html, json "
		    "or text", ctx));
	if (x == NULL && q->format != FMT_HTML)
		return (answer_error(q->format, 404, *cfg->index_url ?
		    "the profiles are listed elsewhere" :
		    "this site does not list its profiles", ctx));
	if (x != NULL && profindex_refresh(x, cfg, &status, &why) == -1) {
		a = answer_error(q->format, status, why, ctx);
		free(why);
		return (a);
	}
	if ((a = calloc(1, sizeof *a)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	outbuf_init(&ob);
	a->status = 200;
	if (x == NULL) {
		/* See Other: the browser goes on to the site's index. */
		a->status = *cfg->index_url ? 303 : 200;
		a->location = *cfg->index_url ? cfg->index_url : NULL;
		a->content_type = "text/html; charset=utf-8";
		profindex_none(&ob, *cfg->index_url ? cfg->index_url : NULL,
		    *q->file != '\0' ? q->file : NULL, ctx);
		return (profindex_finish(&ob, a, cause));
	}
	if ((rv = profindex_rows(x, cfg, &n, &live, &truncated)) == NULL) {
		free(a);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (q->format == FMT_JSON) {
		a->content_type = "application/json";
		profindex_json(&ob, rv, n, truncated);
	} else if (q->format == FMT_TEXT) {
		a->content_type = "text/plain; charset=utf-8";
		profindex_text(&ob, rv, n, truncated);
	} else {
		a->content_type = "text/html; charset=utf-8";
		profindex_html(&ob, rv, n, truncated, live, q->file, ctx);
	}
	free(rv);
	return (profindex_finish(&ob, a, cause));
}

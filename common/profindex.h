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

#ifndef PROFINDEX_H
#define PROFINDEX_H

/*
 * The profile index, cmd=index: every page's "deepq" link, answered by
 * the front end itself (deepq.cgi and deepq web alike, with the same
 * bytes), never by a server. The profiles under a root: regular files
 * that profprobe.c recognises by content (so a password file, a
 * .htpasswd or any other file that is not a profile never appears),
 * found from the root's directory descriptor down (openat, no symbolic
 * link followed, no hidden name), bounded in directory entries read, in
 * profiles listed (index_entries) and in bytes of the answer, as a page
 * with a form to compare two, as JSON, or as text.
 *
 * The listing is cached: in memory for a process that answers many
 * requests (deepq web, the FastCGI responder) and in a file of the
 * runtime directory for those that answer one (the CGI). It is made
 * again when a directory under the root changed or it is older than
 * PROFINDEX_MAX_AGE, and then only files new or changed since are
 * probed again, within a time budget (a listing not finished in it is
 * answered as it is, marked truncated, and finished by later requests).
 *
 * Without index_entries (a NULL index), the CGI answers a page saying
 * the site lists no profiles, or sends the browser to index_url.
 */

#include <stddef.h>

struct answer;
struct config;
struct profindex;
struct query;
struct render_context;

/* Seconds a listing is used without a look at its files. */
#define PROFINDEX_MAX_AGE	60
/* Bytes an index answer may have (its entries are cut to fit). */
#define PROFINDEX_MAX_BYTES	(8 * 1024 * 1024)

struct profindex *profindex_create(const char *, size_t, int, char **);
void		 profindex_free(struct profindex *);
struct answer	*profindex_answer(struct profindex *, const struct config *,
		     const struct query *, const struct render_context *,
		     char **);

#endif /* PROFINDEX_H */

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
 * deepq.cgi's profile index, cmd=index: every page's "deepq" link. With
 * index_entries set in deepq.conf, a list of the files under
 * profile_root (at most that many) and a form to compare two; else, with
 * index_url, a redirect to the site's own index; else a page saying that
 * this site lists no profiles, linking back to the profile the link came
 * from. Never starts a server.
 */

struct answer;
struct config;
struct query;
struct render_context;

struct answer	*profindex_answer(const struct config *,
		     const struct query *, const struct render_context *,
		     char **);

#endif /* PROFINDEX_H */

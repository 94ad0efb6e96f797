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


#ifndef PAGE_H
#define PAGE_H

/*
 * The HTML page around every HTML answer: the head (title, style sheet,
 * icon), the navigation bar, the <main> element, the script. The
 * engine's HTML renderer (engine/render-html.c) puts a report's display
 * inside it; the error pages (answer.c) put a message inside it, so that
 * deepq.cgi, which has no engine, sends the same page frame.
 */

#include "outbuf.h"

#include "query.h"

struct render_context;

void	page_begin(struct outbuf *, const char *,
	    const struct render_context *, const struct query *);
void	page_end(struct outbuf *, const struct render_context *);
void	page_hidden(struct outbuf *, enum query_key, const char *);
void	page_state_hidden(struct outbuf *, const struct query *);
void	page_compare(struct outbuf *, const struct render_context *,
	    const char *const *, size_t, const char *);
void	page_compare_pick(struct outbuf *, const struct render_context *,
	    const char *, const struct query *);

#endif /* PAGE_H */

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

#ifndef JSON_DOC_H
#define JSON_DOC_H

/*
 * What the JSON profile readers share: a probe that looks for a key at
 * one depth of a document's first bytes (so that one JSON format is not
 * taken for another because a key name appears in a string somewhere),
 * and loading a whole input into a jansson document with a size bound.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct input;

/* jansson takes about 15 times the text: this bounds a load to ~15 GiB. */
#define JSON_DOC_MAX_FILE	(1024 * 1024 * 1024)

int	 json_doc_first(const char *, size_t);
int	 json_doc_has_key(const char *, size_t, int, const char *);
json_t	*json_doc_parse(char *, size_t, json_error_t *);
void	 json_doc_set_max(uint64_t);
int	 json_doc_limit(struct input *, const char *, char **);
json_t	*json_doc_load(struct input *, const char *, char **);

#endif /* JSON_DOC_H */

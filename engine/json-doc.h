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
 * What the JSON profile readers' probes share: the first byte, and a
 * look for a key at one depth of a document's first bytes (so that one
 * JSON format is not taken for another because a key name appears in a
 * string somewhere). The readers read with json-stream.h, each input
 * bounded first by json_doc_limit (max_json).
 */

#include <stddef.h>
#include <stdint.h>

struct input;

/*
 * The most a JSON profile may be, plain or decompressed (max_json's
 * default and ceiling). The readers stream, so it no longer bounds their
 * memory; it bounds the decoding a small compressed file can ask for.
 */
#define JSON_DOC_MAX_FILE	(1024 * 1024 * 1024)

int	 json_doc_first(const char *, size_t);
int	 json_doc_has_key(const char *, size_t, int, const char *);
void	 json_doc_set_max(uint64_t);
int	 json_doc_limit(struct input *, const char *, char **);

#endif /* JSON_DOC_H */

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

#ifndef READER_V8_H
#define READER_V8_H

/*
 * A V8 CPU profile object built under a node of a profile being built:
 * shared by the .cpuprofile reader and the Chrome trace reader, whose
 * Profile/ProfileChunk events carry the same nodes, samples and deltas.
 * The thread is the timeline's (profile_builder_thread), or PROFILE_NONE
 * for one named "main".
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct profile_builder;

int	 reader_v8_profile(struct profile_builder *, uint32_t, uint32_t,
	    json_t *, char *, size_t);

#endif /* READER_V8_H */

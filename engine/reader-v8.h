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
 * A V8 CPU profile read from a JSON stream and built under a node of a
 * profile being built: shared by the .cpuprofile reader and the Chrome
 * trace reader, whose Profile/ProfileChunk events carry the same nodes,
 * samples and deltas, spread over chunks. The profile is kept packed
 * (struct v8_prof) from its reading to its building. The thread is the
 * timeline's (profile_builder_thread), or PROFILE_NONE for one named
 * "main".
 */

#include <stddef.h>
#include <stdint.h>

struct json_stream;
struct json_token;
struct packed_ints;
struct profile_builder;
struct v8_prof;

struct v8_prof	*reader_v8_prof_create(void);
void		 reader_v8_prof_free(struct v8_prof *);
int		 reader_v8_prof_read(struct json_stream *,
		     const struct json_token *, struct v8_prof *);
int		 reader_v8_prof_member(struct json_stream *,
		     const struct json_token *, struct v8_prof *);
int		 reader_v8_read_ints(struct json_stream *,
		     const struct json_token *, struct packed_ints *);
int		 reader_v8_prof_append(struct v8_prof *,
		     const struct v8_prof *);
int		 reader_v8_prof_has_nodes(const struct v8_prof *);
void		 reader_v8_prof_reset(struct v8_prof *);
size_t		 reader_v8_prof_nodes(const struct v8_prof *);
int		 reader_v8_prof_chunk(struct v8_prof *, const struct v8_prof *,
		     const struct packed_ints *, const struct packed_ints *);
void		 reader_v8_prof_set_time(struct v8_prof *, int, int64_t);
void		 reader_v8_prof_set_object(struct v8_prof *);
int		 reader_v8_profile(struct profile_builder *, uint32_t,
		     uint32_t, const struct v8_prof *, char *, size_t);

#endif /* READER_V8_H */

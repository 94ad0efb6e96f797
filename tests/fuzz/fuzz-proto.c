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


/*
 * Fuzz harness for the request framing the server reads from its FIFO
 * (any local process may write there). The input is a byte stream
 * decoded frame by frame as the server does, resynchronising after a bad
 * frame; every frame that decodes must encode back to the same bytes.
 * If the first byte is odd, the harness first fixes the checksum of a
 * frame at the start (after that byte), so that the fuzzer gets past it
 * to the fields. The stream is also given to the answer decoder and, as
 * a C string, to the runtime file name parser.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "proto.h"

int		 LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static uint32_t	 fuzz_fnv(uint32_t, const unsigned char *, size_t);
static void	 fuzz_fix_checksum(unsigned char *, size_t);
static void	 fuzz_stream(const unsigned char *, size_t);

/* FNV-1a, written out again here rather than shared. */
static uint32_t
fuzz_fnv(uint32_t h, const unsigned char *b, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 16777619U;
	}
	return (h);
}

static void
fuzz_fix_checksum(unsigned char *b, size_t len)
{
	size_t		 total;
	uint32_t	 h;

	if (len < PROTO_REQ_HDR)
		return;
	total = PROTO_REQ_HDR + ((size_t)b[24] << 8 | b[25]) +
	    ((size_t)b[26] << 8 | b[27]);
	if (!((b[6] << 8 | b[7]) & PROTO_REQ_FILE))
		total += (size_t)b[28] << 24 | (size_t)b[29] << 16 |
		    (size_t)b[30] << 8 | b[31];
	if (total > len)
		return;
	h = fuzz_fnv(2166136261U, b, 32);
	h = fuzz_fnv(h, b + PROTO_REQ_HDR, total - PROTO_REQ_HDR);
	b[32] = h >> 24;
	b[33] = h >> 16;
	b[34] = h >> 8;
	b[35] = h;
}

static void
fuzz_stream(const unsigned char *b, size_t len)
{
	struct proto_req	 r, r2;
	ssize_t			 n, n2;
	char			*cause, *enc;
	size_t			 elen;

	while (len > 0) {
		cause = NULL;
		n = proto_req_decode(b, len, &r, &cause);
		if (n == 0) {
			if (cause != NULL)
				abort();	/* incomplete is no error */
			proto_req_clear(&r);
			return;
		}
		if (n < 0) {
			if (cause == NULL)
				abort();	/* every failure says why */
			free(cause);
			proto_req_clear(&r);
			n = (ssize_t)proto_req_resync(b, len);
			if (n <= 0 || (size_t)n > len)
				abort();
			b += n;
			len -= n;
			continue;
		}
		if ((size_t)n > len || (size_t)n > PROTO_ATOMIC)
			abort();
		if ((r.query == NULL) != ((r.flags & PROTO_REQ_FILE) != 0))
			abort();
		/* Re-encoding gives the very bytes read. */
		if ((enc = proto_req_encode(&r, &elen, &cause)) == NULL)
			abort();
		if (elen != (size_t)n || memcmp(enc, b, elen) != 0)
			abort();
		n2 = proto_req_decode(enc, elen, &r2, &cause);
		if (n2 != n || strcmp(r.id, r2.id) != 0 ||
		    strcmp(r.name, r2.name) != 0 ||
		    strcmp(r.static_base, r2.static_base) != 0)
			abort();
		proto_req_clear(&r2);
		free(enc);
		proto_req_clear(&r);
		b += n;
		len -= n;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct proto_ans	 a;
	unsigned char		*b;
	char			*s, *cause = NULL;
	char			 key[PROTO_KEY_LEN + 1], kind[16];
	char			 id[PROTO_ID_LEN + 1];
	ssize_t			 n;

	if (len == 0)
		return (0);
	if ((b = malloc(len)) == NULL)
		return (0);
	memcpy(b, data, len);
	if (b[0] & 1)
		fuzz_fix_checksum(b + 1, len - 1);
	if ((b[0] & 2) && len - 1 >= PROTO_ANS_HDR) {
		/* The same for an answer header. */
		uint32_t h = fuzz_fnv(2166136261U, b + 1, 40);

		b[41] = h >> 24;
		b[42] = h >> 16;
		b[43] = h >> 8;
		b[44] = h;
	}
	fuzz_stream(b + 1, len - 1);

	n = proto_ans_decode(b + 1, len - 1, &a, &cause);
	if (n < 0 && cause == NULL)
		abort();
	if (n > 0 && ((size_t)n > len - 1 || a.ctype_len > PROTO_MAX_CTYPE ||
	    a.message_len > PROTO_MAX_MESSAGE || a.body_len > PROTO_MAX_BODY))
		abort();
	free(cause);
	if (proto_ctype_valid((char *)b + 1, len - 1) &&
	    memchr(b + 1, '\n', len - 1) != NULL)
		abort();	/* a header line break let through */
	free(b);

	if ((s = malloc(len)) == NULL)
		return (0);
	memcpy(s, data + 1, len - 1);
	s[len - 1] = '\0';
	if (proto_name_parse(s, key, kind, sizeof kind, id) == 0 &&
	    (!proto_hex_valid(key, PROTO_KEY_LEN) || kind[0] == '\0'))
		abort();
	free(s);
	return (0);
}

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
#include <sys/random.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cause.h"
#include "hash.h"
#include "proto.h"

/*
 * Encoding and decoding of the rendezvous frames (layouts in proto.h),
 * and the runtime file names. Pure functions on buffers: the server
 * feeds them from an evbuffer, the client from plain reads.
 */

#define PROTO_REQ_MAGIC	"DQrq"
#define PROTO_ANS_MAGIC	"DQan"

static void	proto_put16(unsigned char *, unsigned int);
static void	proto_put32(unsigned char *, uint32_t);
static unsigned int proto_get16(const unsigned char *);
static uint32_t	proto_get32(const unsigned char *);

static void
proto_put16(unsigned char *p, unsigned int v)
{
	p[0] = (v >> 8) & 0xff;
	p[1] = v & 0xff;
}

static void
proto_put32(unsigned char *p, uint32_t v)
{
	p[0] = (v >> 24) & 0xff;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

static unsigned int
proto_get16(const unsigned char *p)
{
	return ((unsigned int)p[0] << 8 | p[1]);
}

static uint32_t
proto_get32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3]);
}

/* A new random request id (PROTO_ID_LEN hex chars) in id[]. */
int
proto_id_new(char *id, char **cause)
{
	unsigned char	 b[PROTO_ID_LEN / 2];
	size_t		 i;
	ssize_t		 n;

	do
		n = getrandom(b, sizeof b, 0);
	while (n == -1 && errno == EINTR);
	if (n != (ssize_t)sizeof b) {
		cause_set(cause, "getrandom: %s", n == -1 ? strerror(errno) :
		    "short read");
		return (-1);
	}
	for (i = 0; i < sizeof b; i++)
		snprintf(id + 2 * i, 3, "%02x", b[i]);
	return (0);
}

/* Is s exactly n lowercase hex digits? */
int
proto_hex_valid(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return (0);
	}
	return (s[n] == '\0');
}

/*
 * The runtime file name KEY.KIND or KEY.KIND.ID (id NULL). Fixed size
 * whatever the profile's path (mdprof's names grew with it).
 */
int
proto_name(char *buf, size_t len, const char *key, const char *kind,
    const char *id)
{
	int	 n;

	if (!proto_hex_valid(key, PROTO_KEY_LEN) ||
	    (id != NULL && !proto_hex_valid(id, PROTO_ID_LEN)))
		return (-1);
	if (id == NULL)
		n = snprintf(buf, len, "%s.%s", key, kind);
	else
		n = snprintf(buf, len, "%s.%s.%s", key, kind, id);
	return (n < 0 || (size_t)n >= len ? -1 : 0);
}

/*
 * Split a runtime file name into key (PROTO_KEY_LEN + 1 bytes), kind and
 * id (PROTO_ID_LEN + 1 bytes, "" when absent). -1 if not one of ours.
 */
int
proto_name_parse(const char *name, char *key, char *kind, size_t kindlen,
    char *id)
{
	const char	*k, *dot;
	size_t		 n;

	if (strlen(name) < PROTO_KEY_LEN + 2 || name[PROTO_KEY_LEN] != '.')
		return (-1);
	memcpy(key, name, PROTO_KEY_LEN);
	key[PROTO_KEY_LEN] = '\0';
	if (!proto_hex_valid(key, PROTO_KEY_LEN))
		return (-1);
	k = name + PROTO_KEY_LEN + 1;
	if ((dot = strchr(k, '.')) == NULL) {
		n = strlen(k);
		id[0] = '\0';
	} else {
		n = dot - k;
		if (!proto_hex_valid(dot + 1, PROTO_ID_LEN))
			return (-1);
		memcpy(id, dot + 1, PROTO_ID_LEN + 1);
	}
	if (n == 0 || n >= kindlen)
		return (-1);
	memcpy(kind, k, n);
	kind[n] = '\0';
	return (0);
}

/*
 * Encode a request frame; caller frees. -1 (NULL) if a field is too
 * long or the frame would not fit one atomic write: the caller then
 * moves the query to a file and sets PROTO_REQ_FILE.
 */
char *
proto_req_encode(const struct proto_req *r, size_t *lenp, char **cause)
{
	size_t		 nname, nstatic, nroot, nquery, total;
	unsigned char	*b;
	uint32_t	 h;

	nname = strlen(r->name);
	nstatic = r->static_base ? strlen(r->static_base) : 0;
	nroot = r->root ? strlen(r->root) : 0;
	nquery = r->query_len;
	if (nname > PROTO_MAX_NAME || nstatic > PROTO_MAX_STATIC ||
	    nroot > PROTO_MAX_ROOT || nquery > PROTO_MAX_QUERY ||
	    !proto_hex_valid(r->id, PROTO_ID_LEN)) {
		cause_set(cause, "request field too long");
		return (NULL);
	}
	total = PROTO_REQ_HDR + nname + nstatic + nroot +
	    (r->flags & PROTO_REQ_FILE ? 0 : nquery);
	if (total > PROTO_ATOMIC) {
		cause_set(cause, "request of %zu bytes exceeds %d", total,
		    PROTO_ATOMIC);
		return (NULL);
	}
	if ((b = malloc(total)) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	memcpy(b, PROTO_REQ_MAGIC, 4);
	proto_put16(b + 4, PROTO_VERSION);
	proto_put16(b + 6, r->flags);
	memcpy(b + 8, r->id, PROTO_ID_LEN);
	proto_put16(b + 24, nname);
	proto_put16(b + 26, nstatic);
	proto_put32(b + 28, nquery);
	proto_put16(b + 32, nroot);
	proto_put16(b + 34, 0);
	memcpy(b + PROTO_REQ_HDR, r->name, nname);
	if (nstatic > 0)
		memcpy(b + PROTO_REQ_HDR + nname, r->static_base, nstatic);
	if (nroot > 0)
		memcpy(b + PROTO_REQ_HDR + nname + nstatic, r->root, nroot);
	if (!(r->flags & PROTO_REQ_FILE) && nquery > 0)
		memcpy(b + PROTO_REQ_HDR + nname + nstatic + nroot, r->query,
		    nquery);
	h = hash_fnv32(HASH_FNV32_BASIS, b, 36);
	h = hash_fnv32(h, b + PROTO_REQ_HDR, total - PROTO_REQ_HDR);
	proto_put32(b + 36, h);
	*lenp = total;
	return ((char *)b);
}

/*
 * Decode the request frame at the start of buf: its length, 0 if more
 * bytes are needed, -1 with *cause if it is not a valid frame (then
 * r->version and r->id tell whether the sender can still be answered).
 */
ssize_t
proto_req_decode(const void *buf, size_t len, struct proto_req *r,
    char **cause)
{
	const unsigned char	*b = buf;
	size_t			 nname, nstatic, nroot, nquery, total, i;
	uint32_t		 h;

	memset(r, 0, sizeof *r);
	if (memcmp(b, PROTO_REQ_MAGIC, len < 4 ? len : 4) != 0) {
		cause_set(cause, "bad magic");
		return (-1);
	}
	if (len < 24)
		return (0);
	r->version = proto_get16(b + 4);
	r->flags = proto_get16(b + 6);
	memcpy(r->id, b + 8, PROTO_ID_LEN);
	r->id[PROTO_ID_LEN] = '\0';
	if (!proto_hex_valid(r->id, PROTO_ID_LEN)) {
		r->id[0] = '\0';
		cause_set(cause, "bad request id");
		return (-1);
	}
	if (r->version != PROTO_VERSION) {
		cause_set(cause, "protocol version %u, not %d", r->version,
		    PROTO_VERSION);
		return (-1);
	}
	if (len < PROTO_REQ_HDR)
		return (0);
	nname = proto_get16(b + 24);
	nstatic = proto_get16(b + 26);
	nquery = proto_get32(b + 28);
	nroot = proto_get16(b + 32);
	if (nname > PROTO_MAX_NAME || nstatic > PROTO_MAX_STATIC ||
	    nroot > PROTO_MAX_ROOT || nquery > PROTO_MAX_QUERY ||
	    proto_get16(b + 34) != 0 || (r->flags & ~PROTO_REQ_FILE) != 0) {
		cause_set(cause, "bad request header");
		return (-1);
	}
	total = PROTO_REQ_HDR + nname + nstatic + nroot +
	    (r->flags & PROTO_REQ_FILE ? 0 : nquery);
	if (total > PROTO_ATOMIC) {
		cause_set(cause, "request frame too long");
		return (-1);
	}
	if (len < total)
		return (0);
	h = hash_fnv32(HASH_FNV32_BASIS, b, 36);
	h = hash_fnv32(h, b + PROTO_REQ_HDR, total - PROTO_REQ_HDR);
	if (h != proto_get32(b + 36)) {
		cause_set(cause, "request checksum mismatch");
		return (-1);
	}
	for (i = PROTO_REQ_HDR; i < total; i++) {
		if (b[i] == '\0') {
			cause_set(cause, "NUL byte in request");
			return (-1);
		}
	}
	b += PROTO_REQ_HDR;
	r->name = strndup((const char *)b, nname);
	r->static_base = strndup((const char *)b + nname, nstatic);
	r->root = strndup((const char *)b + nname + nstatic, nroot);
	r->query_len = nquery;
	if (r->flags & PROTO_REQ_FILE)
		r->query = NULL;
	else if ((r->query = strndup((const char *)b + nname + nstatic +
	    nroot, nquery)) == NULL)
		goto oom;
	if (r->name == NULL || r->static_base == NULL || r->root == NULL)
		goto oom;
	return ((ssize_t)total);
oom:
	proto_req_clear(r);
	cause_set(cause, "out of memory");
	return (-1);
}

/*
 * After a bad frame: how many bytes to drop to reach the next possible
 * frame (the next magic, or a tail that may begin one). At least 1.
 */
size_t
proto_req_resync(const void *buf, size_t len)
{
	const unsigned char	*b = buf;
	size_t			 i, n;

	for (i = 1; i < len; i++) {
		n = len - i < 4 ? len - i : 4;
		if (memcmp(b + i, PROTO_REQ_MAGIC, n) == 0)
			return (i);
	}
	return (len > 0 ? len : 1);
}

/* Free a decoded request's strings. */
void
proto_req_clear(struct proto_req *r)
{
	free(r->name);
	free(r->static_base);
	free(r->root);
	free(r->query);
	r->name = r->static_base = r->root = r->query = NULL;
}

/*
 * The PROTO_ANS_HDR-byte header of an answer to request id; the caller
 * sends it, then the content type, the message and the body. The
 * caller has checked the bounds (proto_ans_decode refuses the rest).
 */
void
proto_ans_header(unsigned char *b, const char *id, const struct answer *a)
{
	memset(b, 0, PROTO_ANS_HDR);
	memcpy(b, PROTO_ANS_MAGIC, 4);
	proto_put16(b + 4, PROTO_VERSION);
	proto_put16(b + 6, a->status);
	memcpy(b + 8, id, PROTO_ID_LEN);
	proto_put32(b + 24, a->retry_after > 0 ? a->retry_after : 0);
	proto_put16(b + 28, strlen(a->content_type));
	proto_put32(b + 32, a->message ? strlen(a->message) : 0);
	proto_put32(b + 36, a->len);
	proto_put32(b + 40, hash_fnv32(HASH_FNV32_BASIS, b, 40));
}

/*
 * Decode an answer header: PROTO_ANS_HDR, 0 if more bytes are needed,
 * -1 with *cause if it is not a valid header.
 */
ssize_t
proto_ans_decode(const void *buf, size_t len, struct proto_ans *a,
    char **cause)
{
	const unsigned char	*b = buf;

	memset(a, 0, sizeof *a);
	if (len < PROTO_ANS_HDR)
		return (0);
	if (memcmp(b, PROTO_ANS_MAGIC, 4) != 0) {
		cause_set(cause, "bad answer magic");
		return (-1);
	}
	a->version = proto_get16(b + 4);
	if (a->version != PROTO_VERSION) {
		cause_set(cause, "server speaks protocol version %u, not %d",
		    a->version, PROTO_VERSION);
		return (-1);
	}
	if (hash_fnv32(HASH_FNV32_BASIS, b, 40) != proto_get32(b + 40)) {
		cause_set(cause, "answer checksum mismatch");
		return (-1);
	}
	a->status = proto_get16(b + 6);
	memcpy(a->id, b + 8, PROTO_ID_LEN);
	a->id[PROTO_ID_LEN] = '\0';
	a->retry_after = proto_get32(b + 24);
	a->ctype_len = proto_get16(b + 28);
	a->message_len = proto_get32(b + 32);
	a->body_len = proto_get32(b + 36);
	if (a->status < 100 || a->status > 599 || a->ctype_len == 0 ||
	    a->ctype_len > PROTO_MAX_CTYPE ||
	    a->message_len > PROTO_MAX_MESSAGE ||
	    a->body_len > PROTO_MAX_BODY || a->retry_after > 86400 ||
	    !proto_hex_valid(a->id, PROTO_ID_LEN)) {
		cause_set(cause, "bad answer header");
		return (-1);
	}
	return (PROTO_ANS_HDR);
}

/*
 * Is this content type safe to put in a header: printable ASCII, no CR
 * or LF (the server is trusted, but a header is never built from
 * unchecked bytes).
 */
int
proto_ctype_valid(const char *s, size_t n)
{
	size_t	 i;

	if (n == 0 || n > PROTO_MAX_CTYPE)
		return (0);
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return (0);
	}
	return (1);
}

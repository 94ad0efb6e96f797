/*
 * The rendezvous frames: round trips, partial input, every kind of bad
 * frame refused, resynchronisation, bounds, and runtime names.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "proto.h"
#include "tap.h"

static void
test_request(void)
{
	struct proto_req	 r, d;
	char			*f, *cause = NULL, buf[8192], big[5000];
	size_t			 len, i;
	ssize_t			 n;
	int			 partial_ok = 1;

	memset(&r, 0, sizeof r);
	ok(proto_id_new(r.id, NULL) == 0 && proto_hex_valid(r.id,
	    PROTO_ID_LEN), "random request id: %s", r.id);
	r.name = "app/x.folded";
	r.static_base = "/deepq/";
	r.root = "/srv/prof";
	r.query = "cmd=top&format=json";
	r.query_len = strlen(r.query);
	f = proto_req_encode(&r, &len, NULL);
	ok(f != NULL && len == PROTO_REQ_HDR + 12 + 7 + 9 + r.query_len,
	    "request encodes");
	n = proto_req_decode(f, len, &d, NULL);
	is_int(n, len, "request decodes to its length");
	is_str(d.id, r.id, "id");
	is_str(d.name, "app/x.folded", "name");
	is_str(d.static_base, "/deepq/", "static");
	is_str(d.root, "/srv/prof", "root");
	is_str(d.query, r.query, "query");
	proto_req_clear(&d);
	for (i = 0; i < len; i++) {
		if (proto_req_decode(f, i, &d, NULL) != 0)
			partial_ok = 0;
		proto_req_clear(&d);
	}
	ok(partial_ok, "every prefix asks for more");

	/* Two frames back to back, then garbage, then a frame. */
	memcpy(buf, f, len);
	memcpy(buf + len, f, len);
	memcpy(buf + 2 * len, "garbage!", 8);
	memcpy(buf + 2 * len + 8, f, len);
	n = proto_req_decode(buf + len, 2 * len + 8, &d, NULL);
	ok(n == (ssize_t)len, "second frame of a stream");
	proto_req_clear(&d);
	n = proto_req_decode(buf + 2 * len, len + 8, &d, &cause);
	ok(n == -1 && cause != NULL, "garbage refused (%s)", cause);
	free(cause);
	cause = NULL;
	proto_req_clear(&d);
	is_int(proto_req_resync(buf + 2 * len, len + 8), 8,
	    "resync skips to the next magic");

	f[40] ^= 1;
	ok(proto_req_decode(f, len, &d, NULL) == -1, "checksum mismatch");
	proto_req_clear(&d);
	f[40] ^= 1;
	f[5] = 9;
	ok(proto_req_decode(f, len, &d, NULL) == -1 && d.version == 9 &&
	    strcmp(d.id, r.id) == 0,
	    "another version: refused, but its id can be answered");
	proto_req_clear(&d);
	f[5] = PROTO_VERSION;
	f[28] = 0x7f;
	ok(proto_req_decode(f, len, &d, NULL) == -1, "huge query length");
	proto_req_clear(&d);
	free(f);

	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	r.query = big;
	r.query_len = strlen(big);
	ok(proto_req_encode(&r, &len, NULL) == NULL,
	    "a query over PIPE_BUF does not fit one frame");
	r.flags = PROTO_REQ_FILE;
	f = proto_req_encode(&r, &len, NULL);
	ok(f != NULL && len <= PROTO_ATOMIC, "...but goes as a file");
	n = proto_req_decode(f, len, &d, NULL);
	ok(n == (ssize_t)len && d.query == NULL && d.query_len ==
	    strlen(big) && (d.flags & PROTO_REQ_FILE), "file flag decodes");
	proto_req_clear(&d);
	free(f);
}

static void
test_answer(void)
{
	struct answer	 a;
	struct proto_ans h;
	unsigned char	 b[PROTO_ANS_HDR];
	char		*cause = NULL;
	const char	*id = "0123456789abcdef";

	memset(&a, 0, sizeof a);
	a.status = 503;
	a.retry_after = 2;
	a.content_type = "text/html; charset=utf-8";
	a.message = (char *)"loading";
	a.body = (char *)"<p>x</p>";
	a.len = 8;
	proto_ans_header(b, id, &a);
	ok(proto_ans_decode(b, sizeof b - 1, &h, NULL) == 0,
	    "short answer header asks for more");
	ok(proto_ans_decode(b, sizeof b, &h, NULL) == PROTO_ANS_HDR,
	    "answer header decodes");
	is_int(h.status, 503, "status");
	is_int(h.retry_after, 2, "retry after");
	is_int(h.ctype_len, strlen(a.content_type), "content type length");
	is_int(h.message_len, 7, "message length");
	is_int(h.body_len, 8, "body length");
	is_str(h.id, id, "id echoed");
	b[6] = 0x03;
	ok(proto_ans_decode(b, sizeof b, &h, &cause) == -1,
	    "tampered header refused (%s)", cause);
	free(cause);
	ok(proto_ctype_valid("text/plain; charset=utf-8", 25),
	    "content type valid");
	ok(!proto_ctype_valid("text/plain\r\nSet-Cookie: x", 25),
	    "content type with CR LF refused");
}

static void
test_names(void)
{
	char	 buf[PROTO_NAME_MAX], key[PROTO_KEY_LEN + 1], kind[16];
	char	 id[PROTO_ID_LEN + 1];
	const char *k = "000000000000fe0000000000005102dc";

	ok(proto_name(buf, sizeof buf, k, PROTO_FIFO, NULL) == 0 &&
	    strcmp(buf, "000000000000fe0000000000005102dc.fifo") == 0,
	    "KEY.fifo");
	ok(proto_name(buf, sizeof buf, k, PROTO_WANT, "0123456789abcdef") ==
	    0 && strlen(buf) < 64, "KEY.want.ID, fixed size");
	ok(proto_name_parse(buf, key, kind, sizeof kind, id) == 0 &&
	    strcmp(key, k) == 0 && strcmp(kind, "want") == 0 &&
	    strcmp(id, "0123456789abcdef") == 0, "names parse back");
	ok(proto_name(buf, sizeof buf, "../../etc/passwd", PROTO_FIFO, NULL) ==
	    -1, "a key that is not hex is refused");
	ok(proto_name_parse("spawn.lock", key, kind, sizeof kind, id) == -1,
	    "other files are not ours");
	ok(proto_name_parse("000000000000fe0000000000005102dc.want.XYZ", key,
	    kind, sizeof kind, id) == -1, "bad id");
}

int
main(void)
{
	test_request();
	test_answer();
	test_names();
	return (tap_done());
}

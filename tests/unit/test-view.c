/*
 * A view's answer (engine/view-query.c, view_query_answer) and its
 * tables (engine/view-schema.c): rows of stacks built into a profile,
 * one stack sent twice (unmerged parts) counted once, two hashes of one
 * path both counted, several metrics; a cut answer, a malformed one,
 * ClickHouse's report of a failure after the rows began and too many
 * stacks are clear errors. The same answer served by a server of the
 * test's own over TCP in pieces of every size, with a row larger than
 * the first window, builds the same profile (the stream and its window).
 * The stack hash is the one deepq ingest has always written; the schema
 * statements name the tables as deepq-clickhouse(7) says.
 */

#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <netinet/in.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clickhouse.h"
#include "hash.h"
#include "outbuf.h"
#include "profile.h"
#include "tap.h"
#include "view-query.h"
#include "view-schema.h"

/* A row: hash, the frames, a value per metric. */
static void
row(struct outbuf *ob, uint64_t hash, const char *path, int64_t v0,
    int64_t v1, size_t nv)
{
	const char	*p, *e;
	size_t		 n = 0;

	clickhouse_fixed(ob, hash, 8);
	for (p = path; *p != '\0'; p = *e ? e + 1 : e, n++)
		e = p + strcspn(p, ";");
	clickhouse_varint(ob, n);
	for (p = path; *p != '\0'; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ";");
		clickhouse_string(ob, p, (size_t)(e - p));
	}
	clickhouse_varint(ob, n);
	for (p = path; *p != '\0'; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ";");
		clickhouse_string(ob, "mod", 3);
	}
	clickhouse_fixed(ob, (uint64_t)v0, 8);
	if (nv > 1)
		clickhouse_fixed(ob, (uint64_t)v1, 8);
}

/* The profile of an answer in memory, or NULL with *cause. */
static struct profile *
parse(const struct outbuf *ob, size_t nv, long long max, char **cause)
{
	struct clickhouse_answer	*a;
	struct profile			*p;

	*cause = NULL;
	if ((a = clickhouse_answer_memory(ob->b, ob->n)) == NULL)
		return (NULL);
	p = view_query_answer(a, nv, max, cause);
	clickhouse_answer_free(a);
	return (p);
}

/* A function's self value in metric m, by name; -1 if none. */
static int64_t
self(const struct profile *p, const char *name, int m)
{
	uint32_t	 n;
	int64_t		 v = 0;
	int		 found = 0;

	for (n = 1; n < p->nnodes; n++) {
		if (strcmp(profile_func_name(p, p->node_func[n]), name) == 0) {
			v += p->metrics[m].self[n];
			found = 1;
		}
	}
	return (found ? v : -1);
}

/*
 * Serve "HTTP/1.0 200" and body on a port of 127.0.0.1 (returned) to
 * one client, in pieces of 1 to 70,000 bytes; the child's pid in *pid.
 */
static int
serve(const char *body, size_t len, pid_t *pid)
{
	struct sockaddr_in	 sin;
	socklen_t		 sl = sizeof sin;
	char			 req[65536];
	const char		*head = "HTTP/1.0 200 OK\r\n"
				    "Content-Type: application/octet-stream\r\n"
				    "\r\n";
	uint64_t		 seed = 88172645463325252ULL;
	size_t			 off, k;
	ssize_t			 n;
	int			 s, c;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return (-1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(s, 1) == -1 ||
	    getsockname(s, (struct sockaddr *)&sin, &sl) == -1)
		return (-1);
	if ((*pid = fork()) != 0) {
		close(s);
		return (*pid == -1 ? -1 : ntohs(sin.sin_port));
	}
	if ((c = accept(s, NULL, NULL)) == -1)
		_exit(1);
	/* The request: its head and the SQL, short. */
	n = read(c, req, sizeof req);
	(void)n;
	if (write(c, head, strlen(head)) == -1)
		_exit(1);
	for (off = 0; off < len; off += k) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		k = 1 + seed % (seed & 1 ? 70000 : 9);
		if (k > len - off)
			k = len - off;
		if (write(c, body + off, k) != (ssize_t)k)
			_exit(1);
	}
	/* Close once the client has: no reset over the last bytes. */
	shutdown(c, SHUT_WR);
	while (read(c, req, sizeof req) > 0)
		;
	close(c);
	_exit(0);
}

int
main(void)
{
	struct outbuf		 ob, big;
	struct profile		*p, *q;
	struct clickhouse	*ch;
	struct clickhouse_answer *a;
	char			*cause = NULL, url[64], *name, *s = NULL;
	uint64_t		 h;
	size_t			 i, len, first;
	pid_t			 pid;
	int			 port, st;

	signal(SIGPIPE, SIG_IGN);
	outbuf_init(&ob);
	row(&ob, 11, "main;a", 5, 0, 1);
	row(&ob, 12, "main;b", 7, 0, 1);
	row(&ob, 11, "main;a", 5, 0, 1);	/* unmerged: once */
	row(&ob, 13, "main", 2, 0, 1);
	row(&ob, 14, "main;a", 3, 0, 1);	/* another hash: counted */
	row(&ob, 15, "", 1, 0, 1);		/* the root's own */
	p = parse(&ob, 1, 1000, &cause);
	ok(p != NULL && p->metrics[0].total[0] == 18 &&
	    self(p, "a", 0) == 8 && self(p, "b", 0) == 7 &&
	    self(p, "main", 0) == 2, "a stack twice once, two hashes of one "
	    "path both: %s", cause ? cause : "total 18");
	profile_free(p);
	free(cause);

	outbuf_clear(&ob);
	row(&ob, 1, "main;x;y", 4, 40, 2);
	row(&ob, 2, "main;x", 1, 10, 2);
	p = parse(&ob, 2, 1000, &cause);
	ok(p != NULL && p->nmetrics == 2 && p->metrics[1].total[0] == 50 &&
	    self(p, "y", 1) == 40 && self(p, "x", 0) == 1,
	    "two metrics: %s", cause ? cause : "ok");
	profile_free(p);
	free(cause);

	/*
	 * Cut anywhere but between rows: an error. (Between rows, only
	 * the transfer coding can tell: HTTP/1.1's last chunk.)
	 */
	len = ob.n;
	ob.n = 0;
	row(&ob, 1, "main;x;y", 4, 40, 2);
	first = ob.n;
	ob.n = len;
	for (i = 1; i < len; i++) {
		if (i == first)
			continue;
		ob.n = i;
		if ((p = parse(&ob, 2, 1000, &cause)) != NULL ||
		    cause == NULL || strstr(cause, "cut or malformed") == NULL)
			break;
		free(cause);
		cause = NULL;
	}
	is_int((int)i, (int)len, "an answer cut inside a row: cut or "
	    "malformed (%s)", cause ? cause : "built");
	profile_free(p);
	free(cause);
	ob.n = len;

	outbuf_puts(&ob, "Code: 241, e.displayText() = DB::Exception: Memory "
	    "limit (for query) exceeded: would use 9.31 GiB, "
	    "e.what() = DB::Exception\n");
	p = parse(&ob, 2, 1000, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "Memory limit") !=
	    NULL && strstr(cause, "e.what") == NULL,
	    "ClickHouse failing after its rows began: %s", cause);
	free(cause);

	outbuf_clear(&ob);
	row(&ob, 1, "main;x", 4, 0, 1);
	/* Two frames said, one module: malformed. */
	clickhouse_fixed(&ob, 2, 8);
	clickhouse_varint(&ob, 2);
	clickhouse_string(&ob, "a", 1);
	clickhouse_string(&ob, "b", 1);
	clickhouse_varint(&ob, 1);
	clickhouse_string(&ob, "m", 1);
	clickhouse_fixed(&ob, 1, 8);
	p = parse(&ob, 1, 1000, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "row 2") != NULL,
	    "frames and modules of different lengths: %s", cause);
	free(cause);

	outbuf_clear(&ob);
	for (i = 0; i < 20; i++) {
		if (asprintf(&name, "main;f%zu", i) == -1)
			return (1);
		row(&ob, 100 + i, name, 1, 0, 1);
		free(name);
	}
	p = parse(&ob, 1, 10, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "max_rows") != NULL,
	    "more stacks than max_rows: %s", cause);
	free(cause);

	/*
	 * The stream: 30,000 rows and one of 2.5 MB (a window and a half),
	 * served in pieces of 1 to 70,000 bytes.
	 */
	outbuf_init(&big);
	for (i = 0; i < 30000; i++) {
		if (asprintf(&name, "main;lib%zu;leaf%zu", i % 97, i) == -1)
			return (1);
		row(&big, 1000 + i, name, (int64_t)i, 1, 2);
		free(name);
		if (i == 15000) {
			if ((s = malloc(2500001)) == NULL)
				return (1);
			memset(s, 'z', 2500000);
			memcpy(s, "main;", 5);
			s[2500000] = '\0';
			row(&big, 7, s, 3, 3, 2);
			free(s);
		}
	}
	p = parse(&big, 2, 100000, &cause);
	ok(p != NULL, "30,001 rows in memory: %s", cause ? cause : "built");
	free(cause);
	cause = NULL;
	q = NULL;
	if ((port = serve(big.b, big.n, &pid)) > 0) {
		snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
		if ((ch = clickhouse_create(url, &cause)) != NULL &&
		    clickhouse_open(ch, NULL, "SELECT", 6, (unsigned long long)
		    big.n, &a, &cause) == 0) {
			q = view_query_answer(a, 2, 100000, &cause);
			clickhouse_answer_free(a);
		}
		clickhouse_free(ch);
		waitpid(pid, &st, 0);
	}
	ok(p != NULL && q != NULL && p->nnodes == q->nnodes &&
	    p->metrics[0].total[0] == q->metrics[0].total[0] &&
	    p->metrics[1].total[0] == 30003 &&
	    q->metrics[1].total[0] == 30003 && self(q, "leaf29999", 0) ==
	    29999, "the same answer through TCP in pieces, a row past the "
	    "window: %s", cause ? cause : "the same profile");
	free(cause);
	cause = NULL;
	profile_free(p);
	profile_free(q);

	/* The answer larger than its bound: an error, not a profile. */
	if ((port = serve(big.b, big.n, &pid)) > 0) {
		snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
		q = NULL;
		if ((ch = clickhouse_create(url, &cause)) != NULL &&
		    clickhouse_open(ch, NULL, "SELECT", 6, 100000, &a,
		    &cause) == 0) {
			q = view_query_answer(a, 2, 100000, &cause);
			clickhouse_answer_free(a);
		}
		clickhouse_free(ch);
		waitpid(pid, &st, 0);
		ok(q == NULL && cause != NULL && strstr(cause, "larger than "
		    "100000 bytes") != NULL, "an answer over its bound: %s",
		    cause);
		profile_free(q);
		free(cause);
		cause = NULL;
	}
	outbuf_clear(&big);
	outbuf_clear(&ob);

	/* deepq ingest's stack hash, as it was written before this schema. */
	h = (hash_bytes("main", 5) ^ hash_bytes("m", 1)) * 0x100000001b3ULL;
	h = (((0x84222325cbf29ce4ULL << 5) | (0x84222325cbf29ce4ULL >> 59)) ^
	    h) * 0x100000001b3ULL;
	ok(view_schema_stack(VIEW_STACK_SEED, view_schema_frame("main",
	    "m")) == h, "the stack hash of the first schema");

	ok(view_schema(&ob, NULL, "prof", NULL, 0) == 0 &&
	    (s = outbuf_take(&ob, &len)) != NULL &&
	    strncmp(s, "CREATE TABLE IF NOT EXISTS prof (\n  ts DateTime", 47) ==
	    0, "the samples' table");
	free(s);
	ok(view_schema(&ob, "db", "prof", "c", 4) == 0 &&
	    (s = outbuf_take(&ob, &len)) != NULL && strcmp(s,
	    "CREATE TABLE IF NOT EXISTS db.prof_stacks AS db.prof_stacks_local"
	    "\nENGINE = Distributed(c, db, prof_stacks_local, stack_hash)") ==
	    0, "a cluster's stacks, sharded by hash: %s", s);
	free(s);
	ok(view_schema(&ob, NULL, "prof", NULL, 3) == -1 &&
	    view_schema(&ob, NULL, "prof", "c", 6) == -1 &&
	    view_schema_migrate(&ob, NULL, "prof", 7) == -1,
	    "three tables, six on a cluster, seven migration statements");
	outbuf_clear(&ob);
	return (tap_done());
}

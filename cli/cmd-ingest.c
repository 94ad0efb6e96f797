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

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clickhouse.h"
#include "deepq.h"
#include "hash.h"
#include "profile.h"
#include "reader.h"
#include "reader-view.h"
#include "rundir.h"

/*
 * deepq ingest --clickhouse URL --table T FILE...: read profiles and
 * insert their call nodes' self costs into a ClickHouse table, one row
 * per stack and metric, in the schema of reader-view.h
 * (deepq-clickhouse(7)). Rows go as RowBinary in POSTs of about
 * INGEST_BATCH bytes: no SQL carries a value, and ClickHouse parses
 * RowBinary fastest of its input formats.
 *
 * A profile's id is a hash of its file's bytes and its labels. Before
 * inserting, ingest counts the table's rows of that id: as many as the
 * profile has, it was ingested already and is skipped; some, an earlier
 * ingest broke off, and they are deleted first. So running an ingest
 * again inserts nothing twice.
 */

#define INGEST_BATCH		(16 * 1024 * 1024)
#define INGEST_MAX_LABELS	64
#define INGEST_TIMEOUT		600
#define INGEST_DELETE_WAIT	60		/* s for a delete to finish */

struct ingest {
	struct clickhouse	*ch;
	const char		*table;		/* database.table or table */
	char			*labels[INGEST_MAX_LABELS]; /* "k=v", sorted */
	size_t			 nlabels;
	uint32_t		 ts;
	int			 quiet;
};

static void	 ingest_u32(struct clickhouse_buf *, uint32_t);
static void	 ingest_u64(struct clickhouse_buf *, uint64_t);
static int	 ingest_label_cmp(const void *, const void *);
static uint64_t	 ingest_file_hash(const char *, const struct ingest *);
static long long ingest_count(struct ingest *, uint64_t);
static void	 ingest_query(struct ingest *, const char *, int);
static void	 ingest_file(struct ingest *, const char *);

static void
ingest_u32(struct clickhouse_buf *cb, uint32_t v)
{
	unsigned char	 b[4];
	int		 i;

	for (i = 0; i < 4; i++)
		b[i] = (v >> (8 * i)) & 0xff;
	clickhouse_buf_add(cb, b, 4);
}

static void
ingest_u64(struct clickhouse_buf *cb, uint64_t v)
{
	unsigned char	 b[8];
	int		 i;

	for (i = 0; i < 8; i++)
		b[i] = (v >> (8 * i)) & 0xff;
	clickhouse_buf_add(cb, b, 8);
}

/* Labels sorted by key: the same set is the same array in the table. */
static int
ingest_label_cmp(const void *a, const void *b)
{
	const char	*x = *(char * const *)a, *y = *(char * const *)b;
	size_t		 kx = strcspn(x, "="), ky = strcspn(y, "=");
	int		 c;

	if ((c = memcmp(x, y, kx < ky ? kx : ky)) != 0)
		return (c);
	return (kx < ky ? -1 : kx > ky);
}

/* The profile id: the file's bytes and the labels. */
static uint64_t
ingest_file_hash(const char *path, const struct ingest *in)
{
	static char	 buf[1 << 20];
	uint64_t	 h = 0x9e3779b97f4a7c15ULL;
	ssize_t		 n;
	size_t		 i;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		err(1, "%s", path);
	while ((n = read(fd, buf, sizeof buf)) > 0)
		h = (h ^ hash_bytes(buf, n)) * 0x100000001b3ULL;
	if (n == -1)
		err(1, "%s", path);
	close(fd);
	for (i = 0; i < in->nlabels; i++)
		h = (h ^ hash_bytes(in->labels[i], strlen(in->labels[i]) +
		    1)) * 0x100000001b3ULL;
	return (h);
}

/* Run a statement that answers nothing we need; exit on failure. */
static void
ingest_query(struct ingest *in, const char *sql, int fatal)
{
	struct clickhouse_buf	 ans = { 0 };
	char			*cause = NULL;

	if (clickhouse_post(in->ch, NULL, sql, strlen(sql), 1 << 20, &ans,
	    &cause) != 0) {
		if (fatal)
			errx(1, "%s", cause ? cause : "out of memory");
		warnx("%s", cause ? cause : "out of memory");
		free(cause);
	}
	clickhouse_buf_free(&ans);
}

/* The table's rows of a profile id. */
static long long
ingest_count(struct ingest *in, uint64_t id)
{
	struct clickhouse_buf	 sql = { 0 }, ans = { 0 };
	char			*cause = NULL, *end;
	long long		 n;

	clickhouse_buf_printf(&sql, "SELECT count() FROM %s WHERE "
	    "profile_id = %llu FORMAT TabSeparated", in->table,
	    (unsigned long long)id);
	if (sql.error)
		errx(1, "out of memory");
	if (clickhouse_post(in->ch, NULL, sql.b, sql.n, 4096, &ans,
	    &cause) != 0)
		errx(1, "%s", cause ? cause : "out of memory");
	errno = 0;
	n = strtoll(ans.b != NULL ? ans.b : "", &end, 10);
	if (ans.b == NULL || end == ans.b || errno != 0 || n < 0)
		errx(1, "%s: count(): unexpected answer", in->table);
	clickhouse_buf_free(&sql);
	clickhouse_buf_free(&ans);
	return (n);
}

/* Send the rows in the buffer; it is emptied. */
static void
ingest_flush(struct ingest *in, struct clickhouse_buf *rows,
    const char *insert, const char *path)
{
	struct clickhouse_buf	 ans = { 0 };
	char			*cause = NULL;

	if (rows->error)
		errx(1, "out of memory");
	if (rows->n == 0)
		return;
	if (clickhouse_post(in->ch, insert, rows->b, rows->n, 1 << 20, &ans,
	    &cause) != 0)
		errx(1, "%s: %s", path, cause ? cause : "out of memory");
	clickhouse_buf_free(&ans);
	rows->n = 0;
}

/* Ingest one profile file. */
static void
ingest_file(struct ingest *in, const char *path)
{
	struct clickhouse_buf	 head = { 0 }, mhead[PROFILE_MAX_METRICS];
	struct clickhouse_buf	 stack = { 0 }, rows = { 0 }, sql = { 0 };
	struct clickhouse_buf	 insert = { 0 };
	struct profile		*p;
	const char		*s;
	char			*cause = NULL;
	uint64_t		*nodehash = NULL, *funchash = NULL, id, nrows;
	uint32_t		*path_nodes = NULL, n, f, d, depth, m;
	long long		 have, t0 = rundir_now(), waited;
	union { double d; uint64_t u; } rate;
	uint32_t		 cap = 0;
	int			 any;

	memset(mhead, 0, sizeof mhead);
	id = ingest_file_hash(path, in);
	if ((p = reader_load(path, NULL, NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if (p->nnodes == 0)
		errx(1, "%s: empty profile", path);

	/* Stack ids: a hash of the (function, module) frames, root first. */
	if ((funchash = calloc(p->nfuncs ? p->nfuncs : 1,
	    sizeof *funchash)) == NULL ||
	    (nodehash = calloc(p->nnodes, sizeof *nodehash)) == NULL)
		errx(1, "out of memory");
	for (f = 0; f < p->nfuncs; f++) {
		s = profile_func_name(p, f);
		funchash[f] = hash_bytes(s, strlen(s) + 1);
		s = profile_func_module(p, f);
		funchash[f] = (funchash[f] ^ hash_bytes(s, strlen(s))) *
		    0x100000001b3ULL;
	}
	nodehash[0] = 0x84222325cbf29ce4ULL;
	nrows = 0;
	for (n = 0; n < p->nnodes; n++) {
		if (n > 0)
			nodehash[n] = ((nodehash[p->node_parent[n]] << 5 |
			    nodehash[p->node_parent[n]] >> 59) ^
			    funchash[p->node_func[n]]) * 0x100000001b3ULL;
		for (m = 0; m < p->nmetrics; m++)
			nrows += p->metrics[m].self[n] != 0;
	}

	have = ingest_count(in, id);
	if (have == (long long)nrows) {
		if (!in->quiet)
			printf("%s: already in %s (profile_id %llu, %llu "
			    "rows): skipped\n", path, in->table,
			    (unsigned long long)id,
			    (unsigned long long)nrows);
		goto done;
	}
	if (have != 0) {
		/* An ingest that broke off: start again. */
		warnx("%s: %lld of %llu rows of profile_id %llu in %s: "
		    "deleting them first", path, have,
		    (unsigned long long)nrows, (unsigned long long)id,
		    in->table);
		clickhouse_buf_printf(&sql, "ALTER TABLE %s DELETE WHERE "
		    "profile_id = %llu", in->table, (unsigned long long)id);
		if (sql.error)
			errx(1, "out of memory");
		ingest_query(in, sql.b, 1);
		for (waited = 0; ingest_count(in, id) != 0; waited++) {
			if (waited >= INGEST_DELETE_WAIT * 10)
				errx(1, "%s: the delete did not finish in "
				    "%d s", in->table, INGEST_DELETE_WAIT);
			usleep(100000);
		}
	}

	/* What every row of this profile, and of each metric, starts with. */
	ingest_u32(&head, in->ts);
	clickhouse_buf_varint(&head, in->nlabels);
	for (n = 0; n < in->nlabels; n++)
		clickhouse_buf_string(&head, in->labels[n],
		    strlen(in->labels[n]));
	ingest_u64(&head, id);
	for (m = 0; m < p->nmetrics; m++) {
		s = p->metrics[m].name;
		clickhouse_buf_string(&mhead[m], s, strlen(s));
		clickhouse_buf_add(&mhead[m], &(uint8_t){ m }, 1);
		s = p->metrics[m].unit ? p->metrics[m].unit : "";
		clickhouse_buf_string(&mhead[m], s, strlen(s));
		rate.d = p->metrics[m].rate;
		ingest_u64(&mhead[m], rate.u);
	}
	clickhouse_buf_printf(&insert, "query=");
	clickhouse_buf_urlencode(&insert, "INSERT INTO ");
	clickhouse_buf_urlencode(&insert, in->table);
	clickhouse_buf_urlencode(&insert, " FORMAT RowBinary");

	for (n = 0; n < p->nnodes; n++) {
		any = 0;
		for (m = 0; m < p->nmetrics; m++)
			any |= p->metrics[m].self[n] != 0;
		if (!any)
			continue;
		depth = p->node_depth[n];
		if (depth + 1 > cap) {
			cap = depth + 1 > 2 * cap ? depth + 1 : 2 * cap;
			if ((path_nodes = reallocarray(path_nodes, cap,
			    sizeof *path_nodes)) == NULL)
				errx(1, "out of memory");
		}
		for (d = depth, f = n; d > 0; d--, f = p->node_parent[f])
			path_nodes[d - 1] = f;
		stack.n = 0;
		ingest_u64(&stack, nodehash[n]);
		clickhouse_buf_varint(&stack, depth);
		for (d = 0; d < depth; d++) {
			s = profile_func_name(p, p->node_func[path_nodes[d]]);
			clickhouse_buf_string(&stack, s, strlen(s));
		}
		clickhouse_buf_varint(&stack, depth);
		for (d = 0; d < depth; d++) {
			s = profile_func_module(p,
			    p->node_func[path_nodes[d]]);
			clickhouse_buf_string(&stack, s, strlen(s));
		}
		for (m = 0; m < p->nmetrics; m++) {
			if (p->metrics[m].self[n] == 0)
				continue;
			clickhouse_buf_add(&rows, head.b, head.n);
			clickhouse_buf_add(&rows, mhead[m].b, mhead[m].n);
			clickhouse_buf_add(&rows, stack.b, stack.n);
			ingest_u64(&rows, (uint64_t)p->metrics[m].self[n]);
		}
		if (rows.n >= INGEST_BATCH)
			ingest_flush(in, &rows, insert.b, path);
	}
	ingest_flush(in, &rows, insert.b, path);
	if (!in->quiet)
		printf("%s: %llu rows into %s in %.3f s (profile_id %llu)\n",
		    path, (unsigned long long)nrows, in->table,
		    (double)(rundir_now() - t0) / 1000,
		    (unsigned long long)id);
done:
	for (m = 0; m < PROFILE_MAX_METRICS; m++)
		clickhouse_buf_free(&mhead[m]);
	clickhouse_buf_free(&head);
	clickhouse_buf_free(&stack);
	clickhouse_buf_free(&rows);
	clickhouse_buf_free(&sql);
	clickhouse_buf_free(&insert);
	free(path_nodes);
	free(funchash);
	free(nodehash);
	profile_free(p);
}

int
cmd_ingest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "clickhouse", required_argument, NULL, 'c' },
		{ "label", required_argument, NULL, 'l' },
		{ "password-file", required_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "table", required_argument, NULL, 't' },
		{ "time", required_argument, NULL, 'T' },
		{ "user", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	struct ingest		 in;
	struct clickhouse_buf	 sql = { 0 };
	const char		*url = NULL, *table = NULL, *user = NULL;
	const char		*pwfile = NULL, *dot;
	char			*cause = NULL, *k, pw[1024];
	time_t			 t = time(NULL);
	ssize_t			 len;
	size_t			 i;
	int			 ch, fd;

	memset(&in, 0, sizeof in);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:l:P:qt:T:u:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			url = optarg;
			break;
		case 'l':
			k = optarg;
			len = strcspn(k, "=");
			if (k[len] != '=' || len == 0 ||
			    strspn(k, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") <
			    (size_t)len)
				errx(1, "--label %s: KEY=VALUE, the key letters, "
				    "digits, _ . -", k);
			if (in.nlabels == INGEST_MAX_LABELS)
				errx(1, "--label: at most %d",
				    INGEST_MAX_LABELS);
			in.labels[in.nlabels++] = k;
			break;
		case 'P':
			pwfile = optarg;
			break;
		case 'q':
			in.quiet = 1;
			break;
		case 't':
			table = optarg;
			break;
		case 'T':
			if (clickhouse_time_parse(optarg, &t) == -1)
				errx(1, "--time %s: not an ISO 8601 time "
				    "(2026-11-25T10:00:00Z)", optarg);
			break;
		case 'u':
			user = optarg;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (url == NULL || table == NULL || argc == 0)
		deepq_usage();
	/* database.table or table: names only, never quoted text. */
	if ((dot = strchr(table, '.')) != NULL) {
		char	*db = strndup(table, dot - table);

		if (db == NULL || !clickhouse_name_ok(db) ||
		    !clickhouse_name_ok(dot + 1))
			errx(1, "--table %s: [database.]table, letters, digits "
			    "and _", table);
		free(db);
	} else if (!clickhouse_name_ok(table))
		errx(1, "--table %s: [database.]table, letters, digits and _",
		    table);
	in.table = table;
	if (t > UINT32_MAX)
		errx(1, "--time: past 2106");
	in.ts = (uint32_t)t;
	qsort(in.labels, in.nlabels, sizeof in.labels[0], ingest_label_cmp);
	for (i = 1; i < in.nlabels; i++) {
		if (ingest_label_cmp(&in.labels[i - 1], &in.labels[i]) == 0)
			errx(1, "--label: key given twice: %s", in.labels[i]);
	}

	if ((in.ch = clickhouse_create(url, &cause)) == NULL)
		errx(1, "--clickhouse: %s", cause ? cause : "out of memory");
	clickhouse_timeout(in.ch, INGEST_TIMEOUT);
	if (user != NULL || pwfile != NULL) {
		pw[0] = '\0';
		if (pwfile != NULL) {
			if ((fd = open(pwfile, O_RDONLY | O_CLOEXEC)) == -1 ||
			    (len = read(fd, pw, sizeof pw - 1)) == -1)
				err(1, "%s", pwfile);
			close(fd);
			pw[len] = '\0';
			pw[strcspn(pw, "\r\n")] = '\0';
		}
		if (clickhouse_auth(in.ch, user ? user : "default", pw,
		    &cause) == -1)
			errx(1, "%s", cause ? cause : "out of memory");
		explicit_bzero(pw, sizeof pw);
	}
	clickhouse_buf_printf(&sql, READER_VIEW_SCHEMA, table);
	if (sql.error)
		errx(1, "out of memory");
	ingest_query(&in, sql.b, 1);
	clickhouse_buf_free(&sql);
	for (i = 0; i < (size_t)argc; i++)
		ingest_file(&in, argv[i]);
	clickhouse_free(in.ch);
	return (0);
}

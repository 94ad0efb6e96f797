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

#ifndef READER_VIEW_H
#define READER_VIEW_H

/*
 * View files (deepq-clickhouse(7)): a small text file naming a
 * ClickHouse table and a selection, loaded by sending ClickHouse one
 * aggregate query. The schema is the one deepq ingest writes.
 */

#include <sys/types.h>
#include <sys/stat.h>

struct profile;

/* The table deepq ingest creates; %s is database.table. */
#define READER_VIEW_SCHEMA \
	"CREATE TABLE IF NOT EXISTS %s (\n" \
	"  ts DateTime,\n" \
	"  labels Array(String),\n" \
	"  profile_id UInt64,\n" \
	"  metric String,\n" \
	"  metric_index UInt8,\n" \
	"  unit String,\n" \
	"  rate Float64,\n" \
	"  stack_id UInt64,\n" \
	"  stack_func Array(String),\n" \
	"  stack_module Array(String),\n" \
	"  value Int64\n" \
	") ENGINE = MergeTree\n" \
	"PARTITION BY toYYYYMM(ts)\n" \
	"ORDER BY (labels, ts, profile_id, metric, stack_id)"

int		 reader_view_file(const char *);
const char	*reader_view_stale(const struct profile *, const char *);
int		 reader_view_unavailable(const char *);
int		 reader_view_secret(const struct profile *, struct stat *);

#endif /* READER_VIEW_H */

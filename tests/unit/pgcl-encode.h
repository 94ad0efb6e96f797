/*
 * An encoder of Clean callgraph profiles (.pgcl), written from the format
 * in Clean's notes (deepq-formats(5)) because there is no Clean compiler to
 * make real files. Used by test-pgcl (round trips), pgcl-gen (files for
 * the robustness test, the fuzzers' seeds and the benchmark).
 */

#ifndef PGCL_ENCODE_H
#define PGCL_ENCODE_H

#include <stddef.h>
#include <stdint.h>

struct pgcl_buf {
	unsigned char	*data;
	size_t		 len;
	size_t		 cap;
};

/* What a generated file must decode to. */
struct pgcl_totals {
	uint64_t	 ticks;
	uint64_t	 words;
	uint64_t	 tail;
	uint64_t	 strict;
	uint64_t	 lazy;
	uint64_t	 curried;
	uint64_t	 entries;
	uint32_t	 depth;		/* deepest entry, the root's is 0 */
};

void	pgcl_buf_free(struct pgcl_buf *);
void	pgcl_put(struct pgcl_buf *, const void *, size_t);
void	pgcl_le32(struct pgcl_buf *, uint32_t);
void	pgcl_leb128(struct pgcl_buf *, uint64_t);
void	pgcl_leb128_padded(struct pgcl_buf *, uint64_t, int);
void	pgcl_cstring(struct pgcl_buf *, const char *);
void	pgcl_header(struct pgcl_buf *, uint32_t, uint32_t, uint32_t, uint64_t,
	    uint64_t);
void	pgcl_entry(struct pgcl_buf *, struct pgcl_totals *, uint64_t,
	    uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
	    uint64_t);
int	pgcl_generate(const char *, uint64_t, struct pgcl_buf *,
	    struct pgcl_totals *);

#endif /* PGCL_ENCODE_H */

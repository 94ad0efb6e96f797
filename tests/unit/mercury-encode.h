/*
 * An encoder of Mercury Deep.data files (versions 8 and 9), written from
 * the format (deepq-formats(5), and mdprof's sources), to make small
 * profiles with recursion, higher-order calls and coverage data that the
 * one real test file lacks. Used by test-mercury and mercury-gen.
 */

#ifndef MERCURY_ENCODE_H
#define MERCURY_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "mercury.h"

struct menc {
	unsigned char	*data;
	size_t		 len;
	size_t		 cap;
	int		 version;
	int		 coverage;	/* 0 none, 1 static, 2 dynamic */
};

struct menc_header {
	const char	*program;
	uint64_t	 flags;		/* coverage bits are added */
	uint64_t	 ncsd, ncss, npd, nps;
	uint64_t	 ticks_per_second;
	uint64_t	 instrument_quanta;
	uint64_t	 user_quanta;
	uint64_t	 callseqs;
	uint32_t	 root_pd;
};

void	menc_free(struct menc *);
void	menc_put(struct menc *, const void *, size_t);
void	menc_byte(struct menc *, uint8_t);
void	menc_num(struct menc *, uint64_t);
void	menc_fixed(struct menc *, uint64_t);
void	menc_string(struct menc *, const char *);
void	menc_header(struct menc *, const struct menc_header *);
void	menc_css(struct menc *, uint32_t, int, uint32_t, const char *,
	    const char *, uint32_t, const char *);
void	menc_ps(struct menc *, uint32_t, int, const char *, const char *,
	    const char *, const char *, uint32_t, uint32_t, const char *,
	    uint32_t, int, uint32_t, const uint32_t *, uint32_t);
void	menc_csd(struct menc *, uint32_t, uint32_t, const struct mercury_own *);
void	menc_pd(struct menc *, uint32_t, uint32_t, uint32_t, uint32_t);
void	menc_slot_normal(struct menc *, uint32_t);
void	menc_slot_multi(struct menc *, int, const uint32_t *, uint32_t);
void	menc_example(struct menc *, int, int, struct mercury_own *);
void	menc_large(struct menc *, size_t, struct mercury_own *);

#endif /* MERCURY_ENCODE_H */

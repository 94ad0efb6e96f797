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


#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The hash functions, each tuned for one kind of key; no table keeps its
 * own, and no reader. (The flame graph's colours, render-svg.c, and the processed-profile
 * cache's checksum, cache.c, are not table hashes and keep theirs.)
 */

/*
 * FNV-1a over bytes, a word at a time: for tables that only use the hash
 * to pick the entry they then compare in full (aggregate.c's memo of
 * walks, answer-cache.c's keys).
 */
static inline uint64_t
hash_bytes(const void *v, size_t len)
{
	const unsigned char	*b = v;
	uint64_t		 h = 0xcbf29ce484222325ULL, w;
	size_t			 i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	for (; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return (h);
}

/*
 * A 64-bit key (two 32-bit ids, an id and a module) spread over all 64
 * bits (the splitmix64 finaliser): for the open-addressing tables of ids
 * (idmap.c, childset.h), which take their slot from the low bits.
 */
static inline uint64_t
hash_u64(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (k);
}

/*
 * 32-bit FNV-1a, continued from h (HASH_FNV32_BASIS to start): the
 * checksum of the pipe protocol's frames (proto.c), where both ends must
 * agree on every bit.
 */
#define HASH_FNV32_BASIS	2166136261U

static inline uint32_t
hash_fnv32(uint32_t h, const void *buf, size_t len)
{
	const unsigned char	*p = buf;

	while (len-- > 0) {
		h ^= *p++;
		h *= 16777619U;
	}
	return (h);
}

/*
 * A name of 8 bytes or more, hashed from its first and last words and
 * its length alone: the folded reader's cache of names (reader-folded.c)
 * looks a frame up in a few loads where the string pool hashes every
 * byte; the entry it finds is then compared in full. *last gets the
 * last word (the compare's last load).
 */
static inline uint64_t
hash_ends(const char *s, size_t n, uint64_t *last)
{
	uint64_t	 a, z;

	memcpy(&a, s, 8);
	memcpy(&z, s + n - 8, 8);
	*last = z;
	return (((a + n) * 0x9e3779b97f4a7c15ULL ^ z) * 0xff51afd7ed558ccdULL);
}

/* Bytes of a word, for the tests of all eight at once. */
#define HASH_ONES	0x0101010101010101ULL
#define HASH_HIGHS	0x8080808080808080ULL

/*
 * A name's hash, for the string pool (strpool.c): n bytes eight at a
 * time (names are short, but hashing is hot).
 * When odd is not NULL, *odd is set when a byte is NUL or above 0x7f, in
 * the same pass: most names are plain ASCII, and the caller then needs no
 * other scan before interning.
 */
static inline uint64_t
hash_name(const char *s, size_t n, int *odd)
{
	uint64_t	 h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
	uint64_t	 w, bad = 0;
	size_t		 r;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * From 8 bytes on, the tail is the top of the last 8 bytes, one
	 * load instead of a copy of a variable length (a call).
	 */
	if (n >= 8) {
		r = n % 8;
		for (; n >= 8; s += 8, n -= 8) {
			memcpy(&w, s, 8);
			bad |= w | ((w - HASH_ONES) & ~w);
			h = (h ^ w) * 0x100000001b3ULL;
			h ^= h >> 29;
		}
		w = 0;
		if (r > 0) {
			memcpy(&w, s + r - 8, 8);
			w >>= 8 * (8 - r);
		}
		if (odd != NULL) {
			uint64_t	 t = w | (r > 0 ?
			    HASH_ONES << (8 * r) : HASH_ONES);

			bad |= t | ((t - HASH_ONES) & ~t);
			*odd = (bad & HASH_HIGHS) != 0;
		}
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 32;
		return (h);
	}
#endif
	(void)r;
	while (n >= 8) {
		memcpy(&w, s, 8);
		/* High bit of any byte, or a zero byte (the classic test). */
		bad |= w | ((w - HASH_ONES) & ~w);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, s, n);
	if (odd != NULL) {
		uint64_t	 t = HASH_ONES;

		/* The tail again, its missing bytes 0x01: not read as NUL. */
		memcpy(&t, s, n);
		bad |= t | ((t - HASH_ONES) & ~t);
		*odd = (bad & HASH_HIGHS) != 0;
	}
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 32;
	return (h);
}

#endif /* HASH_H */

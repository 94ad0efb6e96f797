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

#ifndef MERCURY_H
#define MERCURY_H

/*
 * The Mercury deep profiler's structure, kept beside the calling-context
 * tree when a Deep.data file is loaded (profile->extra; mercury_of()
 * finds it). The clique, procedure and call-site views read it; the
 * generic reports use the tree.
 *
 * The four node kinds of the file, with mdprof's abbreviations:
 *
 *	PS   ProcStatic		one per procedure of the program
 *	CSS  CallSiteStatic	one per call site in the source
 *	PD   ProcDynamic	one per procedure per calling context
 *	CSD  CallSiteDynamic	one per call site per context; it holds the
 *				measurements of the calls made through it
 *
 * Every table is indexed by the node id of the file, which starts at 1;
 * entry 0 is a zeroed dummy and id 0 means "none", as in mdprof. Strings
 * are ids in the profile's string pool (profile_string()).
 *
 * What mdprof's startup derives is derived here too: the container of a
 * CSS and the caller of a CSD, the cliques (strongly connected components
 * of the PD graph, numbered bottom-up: a clique's callees come before
 * it), and the propagated costs (own and desc, mdprof's "inherit").
 */

#include <stdint.h>

struct profile;

/* Node tokens of the file (MR_DeepProfNextItem). */
#define MERCURY_TOKEN_END	0
#define MERCURY_TOKEN_CSS	1
#define MERCURY_TOKEN_CSD	2
#define MERCURY_TOKEN_PS	3
#define MERCURY_TOKEN_PD	4

/* Call-site kinds (MR_CallSiteKind). */
#define MERCURY_CALL_NORMAL	0	/* first order, callee known */
#define MERCURY_CALL_SPECIAL	1	/* unify/compare of a type */
#define MERCURY_CALL_HO		2	/* higher order */
#define MERCURY_CALL_METHOD	3	/* type class method */
#define MERCURY_CALL_CALLBACK	4	/* foreign code calling Mercury */

/* Procedure label kinds. */
#define MERCURY_PROC_PRED	0
#define MERCURY_PROC_FUNC	1
#define MERCURY_PROC_SPECIAL	2	/* unify, compare, index (uci) */

/*
 * Measurements of a CSD, or of a PD (the sum over the CSDs that call it).
 * mdprof's call count is derived: calls = exits + fails + excps - redos
 * (mercury_calls()).
 */
struct mercury_own {
	int64_t		 exits;
	int64_t		 fails;
	int64_t		 redos;
	int64_t		 excps;
	int64_t		 quanta;	/* clock ticks */
	int64_t		 callseqs;	/* call sequence numbers */
	int64_t		 allocs;	/* memory allocations */
	int64_t		 words;		/* memory words allocated */
};

/* Costs of descendants (only these four are inherited). */
struct mercury_desc {
	int64_t		 quanta;
	int64_t		 callseqs;
	int64_t		 allocs;
	int64_t		 words;
};

struct mercury_ps {
	uint32_t	 name;		/* refined name: "escape/7-0" */
	uint32_t	 module;	/* declaring module (a special
					   predicate's type module) */
	uint32_t	 def_module;	/* defining module */
	uint32_t	 raw_name;	/* predicate name as in the file */
	uint32_t	 type_name;	/* special predicates: the type */
	uint32_t	 file;
	uint32_t	 line;
	uint32_t	 arity;
	uint32_t	 mode;
	uint32_t	 sites;		/* first index in mercury.ps_site */
	uint32_t	 nsites;	/* its call sites, slot 0 first */
	uint32_t	 ncoverage;	/* coverage points (not kept) */
	uint32_t	 func;		/* profile function (PROFILE_ROOT for
					   the root PD's), or PROFILE_NONE
					   if no PD of it is in the tree */
	uint8_t		 kind;		/* MERCURY_PROC_* */
	uint8_t		 exported;	/* is in the module's interface */
	uint8_t		 defined;	/* present in the file */
};

struct mercury_css {
	uint32_t	 ps;		/* containing procedure (derived) */
	uint32_t	 slot;		/* its slot there (derived) */
	uint32_t	 callee;	/* PS of a normal call, else 0 */
	uint32_t	 type_subst;	/* type substitution, "" if none */
	uint32_t	 file;		/* the container's file unless the
					   version 9 file names another */
	uint32_t	 line;
	uint32_t	 goal_path;	/* e.g. "c2;d1;", kept opaque */
	uint8_t		 kind;		/* MERCURY_CALL_* */
	uint8_t		 defined;
};

struct mercury_csd {
	uint32_t	 caller;	/* PD whose slot holds it (derived) */
	uint32_t	 callee;	/* PD called, 0 if none */
	uint32_t	 css;		/* call site (derived from the slot) */
	uint32_t	 node;		/* call node its costs went to (a
					   leaf below the caller's node for
					   a recursive call) */
	struct mercury_own own;
	struct mercury_desc desc;	/* mdprof's csd_desc: for a call
					   into another clique, that
					   clique's total minus own */
	uint8_t		 defined;
};

/* A call-site slot of a PD: the CSDs reached through one call site. */
struct mercury_slot {
	uint32_t	 csds;		/* first index in mercury.slot_csd */
	uint32_t	 ncsds;		/* 0 or 1 for a normal call site */
	uint8_t		 kind;		/* MERCURY_CALL_* */
};

struct mercury_pd {
	uint32_t	 ps;
	uint32_t	 slots;		/* first index in mercury.slot */
	uint32_t	 nslots;	/* = the PS's nsites */
	uint32_t	 clique;
	uint32_t	 node;		/* call node its calls hang below,
					   PROFILE_NONE if none */
	struct mercury_own own;		/* sum of own of the CSDs calling it,
					   recursive ones included */
	struct mercury_desc desc;	/* costs of calls into other cliques */
	uint8_t		 defined;
};

struct mercury_clique {
	uint32_t	 members;	/* first index in mercury.clique_pd */
	uint32_t	 nmembers;	/* entry PD first */
	uint32_t	 entry;		/* a CSD calling in from outside, 0
					   for the root clique */
	uint32_t	 parent;	/* clique of entry's caller, or 0 */
};

struct mercury {
	int		 version;	/* 8 or 9 */
	uint32_t	 program;	/* program name */
	uint64_t	 flags;		/* the header's flags word */
	uint32_t	 bytes_per_word;
	uint32_t	 coverage;	/* 0 none, 1 static, 2 dynamic */
	uint64_t	 ticks_per_second;	/* 0 if unknown */
	uint64_t	 instrument_quanta;	/* ticks in profiling code */
	uint64_t	 user_quanta;		/* ticks in the program */
	uint64_t	 num_callseqs;		/* the final callseq counter */
	uint32_t	 root_pd;
	uint32_t	 root_clique;

	uint32_t	 ncss, nps, ncsd, npd, ncliques;
	struct mercury_css	*css;		/* [ncss + 1] */
	struct mercury_ps	*ps;		/* [nps + 1] */
	struct mercury_csd	*csd;		/* [ncsd + 1] */
	struct mercury_pd	*pd;		/* [npd + 1] */
	struct mercury_clique	*clique;	/* [ncliques + 1] */

	uint32_t	 nps_site, nslot, nslot_csd;
	uint32_t	*ps_site;	/* CSS ids, by PS then slot */
	struct mercury_slot *slot;	/* by PD then slot */
	uint32_t	*slot_csd;	/* CSD ids, by slot */
	uint32_t	*clique_pd;	/* PD ids, by clique */

	uint32_t	 nfuncs;
	uint32_t	*func_ps;	/* profile function -> PS, 0 if none */
};

const struct mercury	*mercury_of(const struct profile *);
int64_t			 mercury_calls(const struct mercury_own *);

#endif /* MERCURY_H */

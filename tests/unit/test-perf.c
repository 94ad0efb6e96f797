/*
 * The perf script reader on small hand-made inputs: the corners of
 * stackcollapse-perf.pl's reading that FlameGraph's test vectors do not
 * reach (an unterminated last sample, a tid of 0, periods of 0, event
 * filtering, inlined frames, symbol tidying), detection, and errors.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "reader.h"
#include "tap.h"
#include "walk.h"

static struct profile *
load(const char *s, const char *variant, char **cause)
{
	return (walk_load(s, strlen(s), "perf", variant, 0, cause));
}

int
main(void)
{
	static const char basic[] =
	    "# ========\n"
	    "# cmdline : /usr/bin/perf record -g ./a.out\n"
	    "V8 WorkerThread 24636/25607 [000] 94564.109216: 250 cycles:u: \n"
	    "\t  4a1 inl_a->inl_b (/bin/a.out)\n"
	    "\t  4a2 foo(int, char const*)+0x1f (/bin/a.out)\n"
	    "\t  4a3 net/http.(*Client).Do+0x2 (/bin/a.out)\n"
	    "\t  4a4 quote\"d'name;semi (/bin/a.out)\n"
	    "\t  4a5 (anonymous namespace)::skipped (/bin/a.out)\n"
	    "\t  4a6 [unknown] (/usr/lib/libz.so.1)\n"
	    "\t  4a7 [unknown] ([unknown])\n"
	    "\n"
	    "swapper     0/0 [001]  1333.768770: 0 cycles:u: \n"
	    "\tffffffff8103ce3b native_safe_halt ([kernel.kallsyms])\n"
	    "\n"
	    "swapper 0/0 [002] 1333.768771: 7 instructions: \n"
	    "\tffffffff8103ce3b filtered ([kernel.kallsyms])\n"
	    "\n"
	    "java 77/78 1.0: 5 cycles:u: \n"
	    "\t 1 Lorg/x/Y;.run (/tmp/perf-77.map)\n"
	    "\n"
	    "a.out 9 2.0: 3 cycles:u: \n"
	    "\t 1 lost (/bin/a.out)\n";
	struct profile	*p;
	char		*cause;
	uint32_t	 f;

	p = load(basic, NULL, &cause);
	ok(p != NULL, "hand-made perf script loads");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return (tap_done());
	}
	is_str(p->metrics[0].name, "period", "metric 0 is period");
	is_str(p->metrics[0].unit, "count", "cycles periods are counts");
	is_str(p->metrics[1].name, "samples", "metric 1 is samples");
	is_int(p->metrics[0].sum, 256, "periods: 250 + (0 counts 1) + 5");
	is_int(p->metrics[1].sum, 3, "3 samples: other events and the "
	    "unterminated last one are dropped");
	is_int(p->nsamples, 3, "samples kept in order");
	is_int(walk_self(p, "V8_WorkerThread;[unknown];[libz.so.1];"
	    "quotedname:semi;net/http.(*Client).Do;foo;inl_a;inl_b_[i]", 0),
	    250, "tidied stack, comm with its space made '_'");
	is_int(walk_self(p, "swapper;native_safe_halt", 0), 1,
	    "a period of 0 counts 1");
	is_int(walk_self(p, "java;org/x/Y:.run", 0), 5,
	    "java class paths lose their L");
	f = profile_func_find(p, "native_safe_halt");
	ok(f != PROFILE_NONE && strcmp(profile_func_module(p, f),
	    "[kernel.kallsyms]") == 0, "a function's module is its DSO");
	ok(profile_func_find(p, "filtered") == PROFILE_NONE &&
	    walk_func(p, "lost", 1, 1) <= 0,
	    "nothing of dropped samples is counted");
	profile_free(p);

	p = load(basic, "tid,all,addrs", &cause);
	ok(p != NULL && walk_self(p, "swapper-?/0;native_safe_halt_[k]", 0)
	    == 1 && walk_self(p, "java-77/78;Lorg/x/Y:.run_[j]", 0) == 5 &&
	    walk_node(p, "V8_WorkerThread-24636/25607;[unknown <4a7>];"
	    "[libz.so.1 <4a6>]") != PROFILE_NONE,
	    "variants: a tid of 0 is the pid's, _[k], _[j], addresses, no "
	    "java tidying under --tid");
	free(cause);
	profile_free(p);

	/* No periods at all: samples only. */
	p = load("func_ab 15294 cpu-clock: \n\t 1 a (/x)\n\n"
	    "func_ab 15294 cpu-clock: \n\t 1 a (/x)\n\n", NULL, &cause);
	ok(p != NULL && p->nmetrics == 1 && strcmp(p->metrics[0].name,
	    "samples") == 0 && walk_self(p, "func_ab;a", 0) == 2,
	    "without periods, metric 0 is samples");
	free(cause);
	profile_free(p);

	/* cpu-clock periods are nanoseconds. */
	p = load("ww 1 1.0: 1001001 cpu-clock: \n\t 1 f (/x)\n\n", NULL,
	    &cause);
	ok(p != NULL && strcmp(p->metrics[0].unit, "ns") == 0 &&
	    p->metrics[0].sum == 1001001, "cpu-clock periods in ns");
	free(cause);
	profile_free(p);

	/* Detection by content. */
	ok(reader_detect(basic, sizeof basic - 1) != NULL &&
	    strcmp(reader_detect(basic, sizeof basic - 1)->name, "perf") == 0,
	    "detected as perf after '#' header lines");
	ok(reader_detect("a;b 12 \n", 8) != NULL &&
	    strcmp(reader_detect("a;b 12 \n", 8)->name, "folded") == 0,
	    "a folded line with a trailing blank stays folded");

	p = load("garbage\nmore garbage\n\n", NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "no samples") &&
	    strstr(cause, "line 1"), "no samples: names the first line not "
	    "understood");
	if (cause != NULL)
		diag("cause: %s", cause);
	free(cause);
	profile_free(p);
	p = load("ww 1 1.0: 99999999999999999999 cpu-clock: \n", NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "line 1: period"),
	    "period beyond 64 bits");
	if (cause != NULL)
		diag("cause: %s", cause);
	free(cause);
	profile_free(p);
	p = load(basic, "pid,nope", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "\"nope\""),
	    "unknown variant word");
	free(cause);
	profile_free(p);
	return (tap_done());
}

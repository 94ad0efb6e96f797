/*
 * The JSON readers' probes: a key counts at its depth only, never inside
 * a string; each JSON format is detected as its own and not as another
 * (the V8 reader's 95 loses to a trace holding cpuProfile nodes).
 * Integers beyond 64 bits: test-json-stream.c.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json-doc.h"
#include "reader.h"
#include "tap.h"

/* The name of the reader detected for text, or "none". */
static const char *
detected(const char *text)
{
	const struct reader	*r = reader_detect(text, strlen(text));

	return (r != NULL ? r->name : "none");
}

#define SS "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""

int
main(void)
{
	static const struct {
		const char	*text;
		const char	*want;
	} cases[] = {
		{ "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1}]}", "chrome" },
		{ "\xef\xbb\xbf {\"traceEvents\":[]}", "chrome" },
		{ "[{\"name\":\"a\",\"ph\":\"B\",\"pid\":1,\"ts\":0},", "chrome" },
		/* DevTools' save: metadata first, cpuProfile nodes inside. */
		{ "{\"metadata\":{\"source\":\"DevTools\"},\"traceEvents\":[{"
		  "\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"callFrame\""
		  ":{}}],\"samples\":[]},\"timeDeltas\":[]}},\"ph\":\"P\"}]}",
		  "chrome" },
		/* Not at the top level, or only in a string: not a trace. */
		{ "{\"x\":{\"traceEvents\":[]}}", "none" },
		{ "{\"x\":\"\\\"traceEvents\\\":[\"}", "none" },
		{ "[{\"ph\":\"X\"}]", "none" },
		{ "[[{\"ph\":\"X\",\"ts\":1}]]", "none" },
		{ "{" SS ",\"shared\":{\"frames\":[{\"name\":\"nodes\"},"
		  "{\"name\":\"callFrame\"},{\"name\":\"traceEvents\"}]}}",
		  "speedscope" },
		{ "{\"$schema\":\"https://example.com/other.json\"}", "none" },
		{ "{\"meta\":{\"version\":27,\"interval\":1,\"startTime\":0},"
		  "\"threads\":[]}", "gecko" },
		{ "{\"meta\":{\"interval\":1,\"startTime\":0,"
		  "\"preprocessedProfileVersion\":68},\"shared\":{}}", "gecko" },
		{ "{\"libs\":[{\"start\":1,\"breakpadId\":\"A\",\"debugName\":"
		  "\"x\"}],\"meta\":", "gecko" },
		{ "{\"label\":\"x\",\"duration\":1,\"profile\":{\"libs\":[]}}",
		  "gecko" },
		{ "{\"meta\":{\"name\":\"interval startTime version\"}}", "none" },
		/* The V8 and GHC JSON profiles keep their readers. */
		{ "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":"
		  "\"traceEvents\"}}],\"samples\":[],\"timeDeltas\":[]}", "v8" },
		{ "{\"program\":\"a\",\"cost_centres\":[],\"profile\":{}}",
		  "ghc-json" },
	};
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		is_str(detected(cases[i].text), cases[i].want, "case %zu: %s",
		    i, cases[i].want);

	ok(json_doc_has_key("{\"a\":{\"b\":[{\"c\":1}]}}", 19, 4, "c"),
	    "a key in an array's object counts at its depth");
	ok(!json_doc_has_key("{\"a\":{\"b\":[{\"c\":1}]}}", 19, 3, "c"),
	    "and at no other");
	ok(!json_doc_has_key("{\"a\":\"c\"}", 9, 1, "c"),
	    "a string value is not a key");
	ok(!json_doc_has_key("{\"a\\\"c\":1}", 10, 1, "c"),
	    "an escaped quote does not end a key");
	return (tap_done());
}

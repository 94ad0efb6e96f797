/*
 * The V8 .cpuprofile reader: the tree from children (or parent) ids,
 * samples and their time with negative deltas, the kept sample order,
 * function naming and 0-based lines, and clear errors.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

#define ROOT "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"," \
	"\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1," \
	"\"columnNumber\":-1},\"hitCount\":0"
#define FRAME(id, name, url, line) "{\"id\":" #id ",\"callFrame\":" \
	"{\"functionName\":\"" name "\",\"scriptId\":\"3\",\"url\":\"" url \
	"\",\"lineNumber\":" #line ",\"columnNumber\":4},\"hitCount\":1"

static struct profile *
load(const char *text, const char *format, char **cause)
{
	struct input	*in = input_memory(text, strlen(text));
	struct profile	*p;

	*cause = NULL;
	p = reader_load_input(in, format, NULL, cause);
	input_free(in);
	return (p);
}

static void
refused(const char *text, const char *want, const char *what)
{
	struct profile	*p;
	char		*cause;

	p = load(text, "v8", &cause);
	ok(p == NULL && cause != NULL && strstr(cause, want) != NULL, "%s",
	    what);
	if (cause != NULL)
		diag("%s", cause);
	profile_free(p);
	free(cause);
}

int
main(void)
{
	static const char good[] = "{\"nodes\":[" ROOT ",\"children\":[2,4]},"
	    FRAME(2, "main", "file:///app/a.js", 9) ",\"children\":[3]},"
	    FRAME(3, "", "file:///app/a.js", 20) "},"
	    FRAME(4, "(garbage collector)", "", -1) "}],"
	    "\"startTime\":1000,\"endTime\":1100,"
	    "\"samples\":[2,3,3,2,4,3],"
	    "\"timeDeltas\":[10,10,20,-5,15,10]}";
	struct profile	*p;
	char		*cause;
	int		 ms, mt;
	uint32_t	 n2, n3, n4, f;

	p = load(good, NULL, &cause);
	ok(p != NULL && strcmp(p->format, "v8") == 0, "detected and loaded");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return (tap_done());
	}
	ms = profile_metric_find(p, "samples");
	mt = profile_metric_find(p, "time");
	ok(ms == 0 && mt == 1, "metrics samples and time (us)");
	is_int(p->metrics[ms].sum, 6, "samples total = length of samples");
	/*
	 * Timestamps 1010 1020 1040 1035->1040 1050 1060, end 1100: the
	 * sample before the negative delta lasts 0; total 1100 - 1010.
	 */
	is_int(p->metrics[mt].sum, 90, "time total = span of the samples");
	n2 = p->node_first_child[PROFILE_ROOT];
	n3 = n2 != PROFILE_NONE ? p->node_first_child[n2] : PROFILE_NONE;
	n4 = n2 != PROFILE_NONE ? p->node_next_sibling[n2] : PROFILE_NONE;
	ok(n2 != PROFILE_NONE && n3 != PROFILE_NONE && n4 != PROFILE_NONE,
	    "(root) is our root; children kept");
	if (n3 != PROFILE_NONE && n4 != PROFILE_NONE) {
		f = p->node_func[n2];
		is_str(profile_func_name(p, f), "main", "function name");
		is_str(profile_func_module(p, f), "/app/a.js",
		    "module is the url's file");
		is_int(p->func_line[f], 10, "0-based lineNumber 9 is line 10");
		is_str(profile_func_name(p, p->node_func[n3]), "(anonymous)",
		    "empty functionName is (anonymous)");
		is_str(profile_func_name(p, p->node_func[n4]),
		    "(garbage collector)", "pseudo-frames stay");
		is_int(p->func_line[p->node_func[n4]], 0,
		    "lineNumber -1 is unknown");
		is_int(p->metrics[mt].self[n2], 10 + 10, "main: 1010-1020 "
		    "and 1040-1050");
		is_int(p->metrics[mt].self[n3], 20 + 0 + 40, "anonymous: "
		    "1020-1040, 0 us before the negative delta, 1060-1100");
	}
	ok(p->nsamples == 5 && p->sample_node[0] == n2 &&
	    p->sample_node[1] == n3 && profile_sample_weight(p, 1) == 2 &&
	    p->sample_node[4] == n3, "sample order kept, runs merged");
	profile_free(p);

	/* Chrome trace chunks link by parent instead of children. */
	p = load("{\"nodes\":[" ROOT "}," FRAME(5, "f", "x.js", 0)
	    ",\"parent\":1}],\"samples\":[5,5],\"timeDeltas\":[1,1]}", "v8",
	    &cause);
	ok(p != NULL && p->nnodes == 2 && p->metrics[0].sum == 2,
	    "nodes linked by parent ids");
	profile_free(p);
	if (p == NULL)
		free(cause);

	refused("{\"nodes\":[" ROOT "}],\"samples\":[7],\"timeDeltas\":[1]}",
	    "node id 7", "a sample of an unknown node");
	refused("{\"nodes\":[" ROOT ",\"children\":[2]}," FRAME(2, "a", "", 0)
	    ",\"children\":[3]}," FRAME(3, "b", "", 0) ",\"children\":[2]}]}",
	    "two parents", "a node with two parents");
	refused("{\"nodes\":[" ROOT "}," FRAME(2, "a", "", 0)
	    ",\"children\":[3]}," FRAME(3, "b", "", 0) ",\"children\":[2]}]}",
	    "ancestor", "a cycle of nodes");
	refused("{\"nodes\":[" ROOT "}],\"samples\":[1,1],\"timeDeltas\":[1]}",
	    "timeDeltas", "timeDeltas shorter than samples");
	refused("{\"nodes\":[" ROOT "},\n" ROOT "}]}", "twice",
	    "a duplicate node id");
	refused("{\"nodes\":[\n" ROOT "}}", "line 2 column",
	    "JSON syntax error with its line and column");
	refused("{\"nodes\":[]}", "not a V8", "no nodes");
	refused("{\"nodes\":[" ROOT "}],\"samples\":[1,1],\"timeDeltas\":"
	    "[9223372036854775807,9223372036854775807]}", "overflow",
	    "timestamps that overflow");
	return (tap_done());
}

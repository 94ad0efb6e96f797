/*
 * The transforms on a page (transform-display.c): links that push a
 * transform carry path= and open= through it, breadcrumbs pop the
 * stack, and the actions offered for the node or function a page is
 * about. Then the same through answer_query, as a user gets them.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer.h"
#include "answer-query.h"
#include "display.h"
#include "profile.h"
#include "query.h"
#include "tap.h"
#include "transform.h"
#include "transform-test.h"

/* A=1, B=2, C=3, D=4, E=5, F=6, G=7, H=8. */
#define FIREFOX	"A;B;C;D;E 1\nA;B;C;F;G 1\nA;B;H;F 1\n"

#define PUSH_MCN	"cmd=tree&t=1~mcn-1,2,3&path=1,2,4&open=1,2~1,2,8"
#define PUSH_FS		"cmd=tree&t=1~fs-1,2,3&path=3,4&open=3"
#define PUSH_ONTOP	"cmd=tree&t=1~inv~mf-5"
#define PUSH_FUNC	"cmd=top&t=1~df-4&func=D"
#define CRUMBS		"Complete profile=cmd=tree|" \
	"hide=^G$=cmd=tree&hide=%5EG%24|" \
	"Merge node: C=cmd=tree&t=1~mcn-1,2,3&hide=%5EG%24|Inverted=-"
#define NODE_ACTIONS	"focus on this node=cmd=tree&t=1~fs-1,2,3,4&path=4|" \
	"merge this node=cmd=tree&t=1~mcn-1,2,3,4&path=1,2,3|" \
	"merge its subtree=cmd=tree&t=1~ms-1,2,3,4&path=1,2,3|" \
	"invert from here=cmd=tree&t=1~fs-1,2,3,4~inv|" \
	"focus on function=cmd=tree&t=1~ff-4&path=4|" \
	"merge function=cmd=tree&t=1~mf-4&path=1,2,3|" \
	"drop samples with function=cmd=tree&t=1~df-4|" \
	"collapse function=cmd=tree&t=1~cfs-4&path=1,2,3,4|" \
	"collapse direct recursion=cmd=tree&t=1~drec-4&path=1,2,3,4|" \
	"collapse recursion=cmd=tree&t=1~rec-4&path=1,2,3,4"
#define FUNC_ACTIONS	"focus on function=cmd=top&t=1~ff-8&func=H|" \
	"merge function=cmd=top&t=1~mf-8&func=H|" \
	"drop samples with function=cmd=top&t=1~df-8&func=H|" \
	"collapse function=cmd=top&t=1~cfs-8&func=H|" \
	"collapse direct recursion=cmd=top&t=1~drec-8&func=H|" \
	"collapse recursion=cmd=top&t=1~rec-8&func=H"

static struct query *
query(const char *qs)
{
	struct query	*q;
	char		*cause = NULL;
	int		 st;

	if ((q = query_parse(qs, &st, &cause)) == NULL)
		diag("%s: %s", qs, cause ? cause : "?");
	free(cause);
	return (q);
}

static void
test_push(const struct profile *p)
{
	static const struct {
		const char	*qs, *item, *want, *what;
	} cases[] = {
		{ "cmd=tree&path=1,2,3,4&open=1,2,3~1,2,8", "mcn-1,2,3",
		    PUSH_MCN, "merge C: path and open= through it" },
		{ "cmd=tree&path=1,2,3,4&open=1,2,3~1,2,8", "fs-1,2,3",
		    PUSH_FS, "focus C: open= outside C dropped" },
		{ "cmd=tree&t=1~inv&path=5", "mf-5", PUSH_ONTOP,
		    "pushed on the stack there is" },
		{ "cmd=top&func=D", "df-4", PUSH_FUNC,
		    "no path: the query as it was, one more item" },
	};
	struct query	*q;
	char		*link;
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if ((q = query(cases[i].qs)) == NULL)
			continue;
		link = transform_display_push_link(p, q, cases[i].item);
		is_str(link, cases[i].want, "%s", cases[i].what);
		free(link);
		query_free(q);
	}
	if ((q = query("cmd=tree")) != NULL) {
		ok(transform_display_push_link(p, q, "zz-1") == NULL,
		    "an unknown item makes no link");
		query_free(q);
	}
}

/* The cells of block b as "text=link|text=link". */
static char *
cells(const struct display_block *b)
{
	char	*s = NULL, *t;
	size_t	 i;

	for (i = 0; i < b->nrows; i++) {
		if (asprintf(&t, "%s%s%s=%s", s ? s : "", s ? "|" : "",
		    b->cells[i].text, b->cells[i].link ? b->cells[i].link :
		    "-") == -1)
			abort();
		free(s);
		s = t;
	}
	return (s);
}

/* The actions a page about qs offers: a text, then a row of links. */
static void
actions(const struct profile *p, const char *qs, const char *text,
    const char *want, const char *what)
{
	struct display	*d;
	struct query	*q;
	char		*got;

	if ((q = query(qs)) == NULL || (d = display_create("t")) == NULL) {
		query_free(q);
		return;
	}
	transform_display(d, p, q, NULL);
	ok(d->nblocks == 2 && d->blocks[0].kind == DISPLAY_TEXT &&
	    strcmp(d->blocks[0].text, text) == 0 &&
	    d->blocks[1].kind == DISPLAY_LINKS, "%s: \"%s\" and links",
	    what, text);
	if (d->nblocks == 2) {
		got = cells(&d->blocks[1]);
		is_str(got, want, "%s", what);
		free(got);
	}
	display_free(d);
	query_free(q);
}

static void
test_display(const struct profile *p)
{
	struct transform_stack	*s;
	struct display		*d;
	struct query		*q;
	char			*cause = NULL, *got;
	size_t			 i;
	int			 st, crumbs = -1, text = -1;

	if ((q = query("cmd=tree&hide=^G$&t=1~mcn-1,2,3~inv&path=5")) ==
	    NULL)
		return;
	if ((s = transform_parse(q, &st, &cause)) == NULL ||
	    (d = display_create("t")) == NULL) {
		diag("%s", cause ? cause : "?");
		free(cause);
		transform_stack_free(s);
		query_free(q);
		return;
	}
	transform_display(d, p, q, s);
	for (i = 0; i < d->nblocks; i++) {
		if (d->blocks[i].kind == DISPLAY_CRUMBS && crumbs == -1)
			crumbs = (int)i;
		if (d->blocks[i].kind == DISPLAY_TEXT && text == -1)
			text = (int)i;
	}
	ok(crumbs == 0, "the breadcrumbs come first");
	if (crumbs == 0) {
		got = cells(&d->blocks[0]);
		is_str(got, CRUMBS, "each crumb pops what follows it; the last "
		    "is the page");
		free(got);
	}
	ok(text == -1, "no node at path=5 of this tree: no actions");
	display_free(d);
	transform_stack_free(s);
	query_free(q);

	actions(p, "cmd=tree&path=1,2,3,4", "Transform D:", NODE_ACTIONS,
	    "a node: the node's and its function's");
	actions(p, "cmd=top&func=H", "Transform H:", FUNC_ACTIONS,
	    "a function: its own only");

	/* No stack, no function: the page's own query, nothing else. */
	if ((q = query("cmd=top")) != NULL &&
	    (d = display_create("t")) != NULL) {
		transform_display(d, p, q, NULL);
		is_int(d->nblocks, 0, "no stack, no node: no blocks");
		display_free(d);
	}
	query_free(q);
}

/* Through answer_query: JSON carries the stack, links map paths. */
static void
test_answers(const struct profile *p)
{
	struct answer_context	 ctx;
	struct answer		*a;
	json_t			*j;

	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	a = answer_query(p, "cmd=tree&t=1~mcn-1,2,3&format=json", &ctx);
	j = a ? json_loadb(a->body, a->len, 0, NULL) : NULL;
	ok(j != NULL && a->status == 200, "tree under a transform answers");
	is_str(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "transforms"), 0), "kind")), "merge-call-node",
	    "the JSON names the transform");
	is_int(json_integer_value(json_object_get(json_object_get(
	    json_object_get(j, "root"), "total"), "samples")), 3,
	    "the JSON total");
	json_decref(j);
	answer_free(a);

	a = answer_query(p, "cmd=tree&focus=(&format=json", &ctx);
	ok(a != NULL && a->status == 400, "a bad regex answers 400");
	answer_free(a);

	/* The push link for merging this node maps path= to its parent. */
	a = answer_query(p, "cmd=tree&path=1,2,3,4&open=1,2,3~1,2,8",
	    &ctx);
	ok(a != NULL && a->status == 200 && strstr(a->body,
	    "t=1~mcn-1,2,3,4&amp;path=1,2,3&amp;open=1,2,3~1,2,8") != NULL,
	    "merge node link: path to the parent, open= kept");
	ok(a != NULL && strstr(a->body, "t=1~fs-1,2,3,4&amp;path=4&amp;"
	    "open=") == NULL && strstr(a->body,
	    "t=1~fs-1,2,3,4&amp;path=4") != NULL,
	    "focus link: path re-rooted, open= paths outside dropped");
	answer_free(a);

	a = answer_query(p, "cmd=tree&t=1~mcn-1,2,3~inv&format=html", &ctx);
	ok(a != NULL && strstr(a->body, "<nav class=\"crumbs\">") != NULL &&
	    strstr(a->body, "?cmd=tree&amp;t=1~mcn-1,2,3\"") != NULL &&
	    strstr(a->body, "aria-current=\"page\">Inverted<") != NULL,
	    "breadcrumbs pop the stack");
	answer_free(a);
}

int
main(void)
{
	struct profile	*p;

	if ((p = tt_load(FIREFOX)) == NULL)
		return (tap_done());
	test_push(p);
	test_display(p);
	test_answers(p);
	profile_free(p);
	return (tap_done());
}

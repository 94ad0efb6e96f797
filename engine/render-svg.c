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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "escape.h"
#include "flame.h"
#include "outbuf.h"
#include "profile.h"
#include "query.h"
#include "render.h"
#include "report.h"
#include "svgdoc.h"

/*
 * format=svg: a cmd=flame report drawn from its typed result (flame.h),
 * the display's flame block, as a self-contained interactive SVG, in
 * the manner of flamegraph.pl: frames as rectangles with the
 * name fitted inside, a tooltip (<title>) per frame, a details line on
 * hover, click to zoom on a frame (its ancestors stretch across, dimmed),
 * Reset Zoom, and a regex search (the Search button, Ctrl-F or "/") that
 * highlights the matches and reports the share of the total they cover.
 *
 * Every string from the profile or the query goes through escape_xml()
 * and only into element text or attribute values; the script is a
 * constant in a CDATA section and reads names from the DOM, never from
 * generated code. Colours are a hash of the name (or of the module, with
 * palette=module), so the same function keeps its colour between runs.
 */

#define SVG_FRAME	16	/* frame height, pixels */
#define SVG_FONT	12	/* font size */
#define SVG_FONTW	0.59	/* average glyph width, in font sizes */
#define SVG_XPAD	10
#define SVG_TOP		(SVG_FONT * 4 + 2)
#define SVG_BOTTOM	(SVG_FONT * 2 + 10)
#define SVG_MAX_NAME	400	/* bytes of a name in a tooltip */

static int	svg_render(struct outbuf *, const json_t *,
		    const struct display *, const struct render_context *);
static void	svg_color(struct outbuf *, const char *, const char *,
		    const char *);
static void	svg_diff_color(struct outbuf *, int64_t, int64_t);
static void	svg_fitted(struct outbuf *, const char *, double);
static void	svg_capped(struct outbuf *, const char *, size_t, const char *);
static uint32_t	svg_hash(const char *, uint32_t);

const struct renderer render_svg = {
	.render = svg_render,
};

/* The interactive part; constant, so nothing from a profile reaches it. */
static const char svg_script[] =
"\"use strict\";\n"
"var svg = document.documentElement, frames = [], W = 0, PAD = 10;\n"
"var GLYPH = 12 * 0.59, icicle = false, details, matched, unzoomBtn;\n"
"var searchBtn, searching = false, lastTerm = \"\", total = 0;\n"
"function init() {\n"
"  W = +svg.getAttribute(\"width\");\n"
"  icicle = svg.getAttribute(\"data-style\") === \"icicle\";\n"
"  details = document.getElementById(\"details\").firstChild;\n"
"  matched = document.getElementById(\"matched\").firstChild;\n"
"  unzoomBtn = document.getElementById(\"unzoom\");\n"
"  searchBtn = document.getElementById(\"search\");\n"
"  var gs = document.getElementById(\"frames\").children;\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], r = g.getElementsByTagName(\"rect\")[0];\n"
"    var t = g.getElementsByTagName(\"text\")[0];\n"
"    var tip = g.getElementsByTagName(\"title\")[0].textContent;\n"
"    var d = g.getElementsByTagName(\"desc\")[0];\n"
"    var f = { g: g, r: r, t: t, tip: tip,\n"
"      name: tip.slice(0, tip.lastIndexOf(\" (\")),\n"
"      module: d ? d.textContent : \"\",\n"
"      x: +r.getAttribute(\"x\"), w: +r.getAttribute(\"width\"),\n"
"      y: +r.getAttribute(\"y\"), fill: r.getAttribute(\"fill\") };\n"
"    if (f.w > total) total = f.w;\n"
"    frames.push(f);\n"
"    g.addEventListener(\"click\", zoomer(f));\n"
"    g.addEventListener(\"mouseover\", shower(f));\n"
"    g.addEventListener(\"mouseout\", function () { details.nodeValue = \" \"; });\n"
"  }\n"
"  unzoomBtn.addEventListener(\"click\", unzoom);\n"
"  searchBtn.addEventListener(\"click\", function () {\n"
"    if (searching) clearSearch(); else search();\n"
"  });\n"
"  svg.setAttribute(\"data-ready\", frames.length);\n"
"  document.addEventListener(\"keydown\", function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && e.key === \"f\" || e.key === \"/\") {\n"
"      e.preventDefault(); search();\n"
"    } else if (e.key === \"Escape\") { clearSearch(); unzoom(); }\n"
"  });\n"
"}\n"
"function shower(f) {\n"
"  return function () {\n"
"    details.nodeValue = \"Function: \" + f.tip +\n"
"      (f.module ? \" in \" + f.module : \"\");\n"
"  };\n"
"}\n"
"function zoomer(f) { return function () { zoom(f); }; }\n"
"function deeper(a, b) { return icicle ? a.y > b.y : a.y < b.y; }\n"
"function place(f, x, w, show, dim) {\n"
"  f.g.style.display = show ? \"\" : \"none\";\n"
"  if (!show) return;\n"
"  f.r.setAttribute(\"x\", x.toFixed(1));\n"
"  f.r.setAttribute(\"width\", w.toFixed(1));\n"
"  f.g.style.opacity = dim ? \"0.5\" : \"\";\n"
"  f.t.setAttribute(\"x\", (x + 3).toFixed(1));\n"
"  var n = Math.floor((w - 6) / GLYPH), s = f.name;\n"
"  f.t.textContent = n < 3 ? \"\" : s.length <= n ? s :\n"
"    s.slice(0, n - 2) + \"..\";\n"
"}\n"
"function zoom(z) {\n"
"  var s = (W - 2 * PAD) / z.w, e = 1e-6;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (f.x >= z.x - e && f.x + f.w <= z.x + z.w + e &&\n"
"        (f === z || deeper(f, z)))\n"
"      place(f, PAD + (f.x - z.x) * s, f.w * s, true, false);\n"
"    else if (f.x <= z.x + e && f.x + f.w >= z.x + z.w - e &&\n"
"        deeper(z, f))\n"
"      place(f, PAD, W - 2 * PAD, true, true);\n"
"    else\n"
"      place(f, 0, 0, false, false);\n"
"  }\n"
"  unzoomBtn.style.display = \"\";\n"
"}\n"
"function unzoom() {\n"
"  for (var i = 0; i < frames.length; i++)\n"
"    place(frames[i], frames[i].x, frames[i].w, true, false);\n"
"  unzoomBtn.style.display = \"none\";\n"
"}\n"
"function search() {\n"
"  var term = window.prompt(\"Search for (regular expression, any case):\", lastTerm);\n"
"  if (term === null) return;\n"
"  if (term === \"\") { clearSearch(); return; }\n"
"  var re;\n"
"  try { re = new RegExp(term, \"i\"); } catch (err) {\n"
"    window.alert(\"Bad regular expression: \" + err.message); return;\n"
"  }\n"
"  lastTerm = term;\n"
"  var spans = [];\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (re.test(f.name) || (f.module && re.test(f.module))) {\n"
"      f.r.setAttribute(\"fill\", \"rgb(230,0,230)\");\n"
"      spans.push([f.x, f.x + f.w]);\n"
"    } else\n"
"      f.r.setAttribute(\"fill\", f.fill);\n"
"  }\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  var cover = 0, end = -1;\n"
"  for (var k = 0; k < spans.length; k++) {\n"
"    var a = Math.max(spans[k][0], end), b = spans[k][1];\n"
"    if (b > a) { cover += b - a; end = b; }\n"
"  }\n"
"  matched.nodeValue = \"Matched: \" +\n"
"    (total > 0 ? (100 * cover / total).toFixed(1) : \"0\") + \"%\";\n"
"  searching = true;\n"
"  searchBtn.firstChild.nodeValue = \"Reset Search\";\n"
"}\n"
"function clearSearch() {\n"
"  for (var i = 0; i < frames.length; i++)\n"
"    frames[i].r.setAttribute(\"fill\", frames[i].fill);\n"
"  matched.nodeValue = \" \";\n"
"  searching = false;\n"
"  searchBtn.firstChild.nodeValue = \"Search\";\n"
"}\n"
"window.addEventListener(\"load\", init);\n";

/* FNV-1a, seeded, so one name gives three independent values. */
static uint32_t
svg_hash(const char *s, uint32_t seed)
{
	uint32_t	 h = 2166136261u ^ seed;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	h ^= h >> 15;
	h *= 0x2c1b3c6dU;
	h ^= h >> 12;
	return (h);
}

/* fill="rgb(...)" for a frame, by palette. */
static void
svg_color(struct outbuf *ob, const char *palette, const char *name,
    const char *module)
{
	double	 v1 = (svg_hash(name, 1) % 1000) / 1000.0;
	double	 v2 = (svg_hash(name, 2) % 1000) / 1000.0;
	double	 v3 = (svg_hash(name, 3) % 1000) / 1000.0;
	double	 h, s, l, c, x, m, r = 0, g = 0, b = 0;

	if (strcmp(palette, "mem") == 0) {
		r = 0;
		g = 190 + 50 * v2;
		b = 210 * v1;
	} else if (strcmp(palette, "blue") == 0) {
		r = g = 120 + 60 * v1;
		b = 190 + 55 * v2;
	} else if (strcmp(palette, "green") == 0) {
		r = b = 50 + 60 * v1;
		g = 200 + 55 * v2;
	} else if (strcmp(palette, "module") == 0) {
		/* One hue per module; names vary the shade a little. */
		h = svg_hash(module, 4) % 360;
		s = *module != '\0' ? 0.55 + 0.25 * v2 : 0.0;
		l = 0.60 + 0.15 * v1;
		c = (1 - fabs(2 * l - 1)) * s;
		x = c * (1 - fabs(fmod(h / 60, 2) - 1));
		m = l - c / 2;
		if (h < 60) {
			r = c; g = x;
		} else if (h < 120) {
			r = x; g = c;
		} else if (h < 180) {
			g = c; b = x;
		} else if (h < 240) {
			g = x; b = c;
		} else if (h < 300) {
			r = x; b = c;
		} else {
			r = c; b = x;
		}
		r = (r + m) * 255;
		g = (g + m) * 255;
		b = (b + m) * 255;
	} else {
		/* flamegraph.pl's hot, its darkest reds lifted for the labels. */
		r = 215 + 40 * v3;
		g = 70 + 160 * v1;
		b = 55 * v2;
	}
	outbuf_printf(ob, " fill=\"rgb(%d,%d,%d)\"", (int)r, (int)g, (int)b);
}

/*
 * A differential frame's fill, as flamegraph.pl colours difffolded.pl's
 * output: red for growth, blue for shrinkage, deeper with the change
 * relative to the largest change, near white for none.
 */
static void
svg_diff_color(struct outbuf *ob, int64_t delta, int64_t maxdelta)
{
	double	 r = maxdelta > 0 ? (double)llabs(delta) / (double)maxdelta :
		    0;
	/* Never darker than 100: black labels stay readable (4.5:1). */
	int	 c = 100 + (int)(140 * (1 - r));

	if (delta > 0)
		outbuf_printf(ob, " fill=\"rgb(255,%d,%d)\"", c, c);
	else if (delta < 0)
		outbuf_printf(ob, " fill=\"rgb(%d,%d,255)\"", c, c);
	else
		outbuf_printf(ob, " fill=\"rgb(245,245,245)\"");
}

/* A name cut to n bytes at a character boundary, escaped; more marks a cut. */
static void
svg_capped(struct outbuf *ob, const char *s, size_t n, const char *more)
{
	char	*c;

	if (strlen(s) <= n) {
		escape_xml(ob, s);
		return;
	}
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	if ((c = strndup(s, n)) == NULL)
		return;
	escape_xml(ob, c);
	outbuf_puts(ob, more);
	free(c);
}

/* The part of a name that fits in w pixels, ".." marking a cut. */
static void
svg_fitted(struct outbuf *ob, const char *s, double w)
{
	size_t	 fit = (size_t)fmax(0, floor((w - 6) / (SVG_FONT * SVG_FONTW)));
	size_t	 chars = 0, i, cut = 0;

	if (fit < 3)
		return;
	for (i = 0; s[i] != '\0'; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (chars == fit - 2)
				cut = i;
			chars++;
		}
	}
	if (chars <= fit) {
		escape_xml(ob, s);
		return;
	}
	svg_capped(ob, s, cut, "..");
}

/* A frame's name and module: the root is "all". */
static const char *
svg_name(const struct flame_graph *g, const struct flame_frame *f,
    const char **module)
{
	if (f->depth == 0) {
		*module = "";
		return ("all");
	}
	*module = profile_func_module(g->p, f->func);
	return (profile_func_name(g->p, f->func));
}

/* The flame block of a page, or NULL. */
const struct flame_graph *
svg_graph(const struct display *d)
{
	size_t	 i;

	for (i = 0; d != NULL && i < d->nblocks; i++) {
		if (d->blocks[i].kind == DISPLAY_FLAME)
			return (d->blocks[i].flame);
	}
	return (NULL);
}

/* " (N countname, P%[, +delta])": a frame's figures in its title. */
static void
svg_figures(struct outbuf *ob, const struct flame_graph *g,
    const struct flame_frame *f, const char *countname)
{
	char	 num[DISPLAY_NUMBUF], pct[DISPLAY_NUMBUF];

	display_number_buf(num, f->w);
	if (display_percent_buf(pct, f->w, g->total) == -1)
		snprintf(pct, sizeof pct, "?");
	outbuf_puts(ob, " (");
	escape_xml(ob, num);
	if (countname != NULL) {
		outbuf_putc(ob, ' ');
		escape_xml(ob, countname);
	}
	outbuf_printf(ob, ", %s", pct);
	if (g->compared)
		outbuf_printf(ob, ", %s%lld", f->delta > 0 ? "+" : "",
		    (long long)f->delta);
	outbuf_putc(ob, ')');
}

/* A frame's rectangle (fill by palette or change) and label. */
static void
svg_rect(struct outbuf *ob, const struct flame_graph *g,
    const struct flame_frame *f, const char *name, const char *module,
    double px, double y, double pw)
{
	outbuf_printf(ob, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%d\" rx=\"2\" ry=\"2\"", px, y, pw, SVG_FRAME - 1);
	if (g->compared)
		svg_diff_color(ob, f->delta, g->maxdelta);
	else
		svg_color(ob, g->palette, name, module);
	outbuf_puts(ob, "/>");
}

static int
svg_render(struct outbuf *ob, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	const struct flame_graph	*g = svg_graph(d);
	const struct flame_frame	*f;
	const char			*name, *module;
	int				 height, icicle;
	double				 scale, px, pw, y;
	size_t				 i;

	(void)j;
	if (g == NULL)
		return (-1);
	icicle = strcmp(g->style, "icicle") == 0;
	height = ((int)g->depth + 1) * SVG_FRAME + SVG_TOP + SVG_BOTTOM;
	scale = g->total > 0 ? (g->width - 2.0 * SVG_XPAD) / (double)g->total :
	    0;
	svgdoc_begin(ob, g->width, height, g->style);
	outbuf_puts(ob, "<script type=\"text/ecmascript\"><![CDATA[\n");
	outbuf_puts(ob, svg_script);
	outbuf_puts(ob, "]]></script>\n");

	outbuf_printf(ob, "<text id=\"title\" x=\"%d\" y=\"24\">",
	    g->width / 2);
	escape_xml(ob, *g->title != '\0' ? g->title :
	    strcmp(g->style, "chart") == 0 ? "Flame Chart" : icicle ?
	    "Icicle Graph" : "Flame Graph");
	outbuf_puts(ob, "</text>\n");
	outbuf_printf(ob, "<text id=\"subtitle\" x=\"%d\" y=\"%d\">",
	    g->width / 2, SVG_FONT * 3 + 6);
	escape_xml(ob, g->subtitle);
	outbuf_puts(ob, "</text>\n");
	outbuf_printf(ob, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
	    SVG_XPAD, height - SVG_FONT);
	outbuf_printf(ob, "<text id=\"unzoom\" class=\"ui\" x=\"%d\" y=\"24\" "
	    "style=\"display:none\">Reset Zoom</text>\n", SVG_XPAD);
	outbuf_printf(ob, "<text id=\"search\" class=\"ui\" x=\"%d\" y=\"24\">"
	    "Search</text>\n", g->width - SVG_XPAD - 100);
	outbuf_printf(ob, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n",
	    g->width - SVG_XPAD - 100, height - SVG_FONT);

	outbuf_puts(ob, "<g id=\"frames\">\n");
	for (i = 0; i < g->n && !outbuf_failed(ob); i++) {
		f = &g->v[i];
		name = svg_name(g, f, &module);
		px = SVG_XPAD + f->x * scale;
		pw = f->w * scale;
		y = icicle ? SVG_TOP + f->depth * SVG_FRAME :
		    height - SVG_BOTTOM - (f->depth + 1.0) * SVG_FRAME;
		outbuf_puts(ob, "<g><title>");
		svg_capped(ob, name, SVG_MAX_NAME, "...");
		svg_figures(ob, g, f, g->countname);
		outbuf_puts(ob, "</title>");
		if (*module != '\0') {
			outbuf_puts(ob, "<desc>");
			svg_capped(ob, module, SVG_MAX_NAME, "...");
			outbuf_puts(ob, "</desc>");
		}
		svg_rect(ob, g, f, name, module, px, y, pw);
		outbuf_printf(ob, "<text x=\"%.1f\" y=\"%.1f\">", px + 3,
		    y + SVG_FRAME - 5);
		svg_fitted(ob, name, pw);
		outbuf_puts(ob, "</text></g>\n");
	}
	outbuf_puts(ob, "</g>\n</svg>\n");
	return (outbuf_failed(ob));
}

/*
 * The legend of a differential flame graph: what red and blue mean and
 * the change the deepest colour stands for.
 */
static void
svg_legend(struct outbuf *ob, const struct flame_graph *g)
{
	char	 num[DISPLAY_NUMBUF];

	display_number_buf(num, g->maxdelta);
	outbuf_puts(ob, "<p class=\"legend\"><span class=\"sw up\"></span> "
	    "grew <span class=\"sw down\"></span> shrank <span class=\"sw "
	    "same\"></span> unchanged; the deeper the colour, the larger "
	    "the change of the frame's total (deepest: ");
	escape_html(ob, num);
	outbuf_putc(ob, ' ');
	escape_html(ob, g->p->metrics[g->m].name);
	outbuf_puts(ob, "). Widths are this profile's.</p>\n");
}

/*
 * A frame's attributes in the page: its tree role and level, the one
 * tab stop (the root), its function's page, and what deepq.js and
 * flame.js read: data-i the function, data-v "x,w,self" in units (and
 * the base's total and self in a comparison), data-m the module,
 * data-cut the frames above it that the page left out.
 */
static void
svg_frame_attrs(struct outbuf *ob, const struct flame_graph *g,
    const struct flame_frame *f, const char *module,
    const struct query_tmpl *tfunc, struct query *vf, const char *link_base)
{
	char		 key[16], *link;

	outbuf_printf(ob, "<a role=\"treeitem\" aria-level=\"%u\" "
	    "tabindex=\"%d\"", f->depth + 1, f->depth == 0 ? 0 : -1);
	if (f->depth > 0) {
		snprintf(key, sizeof key, "%u", f->func);
		vf->func = key;
		if ((link = query_tmpl_fill(tfunc, vf)) == NULL) {
			outbuf_fail(ob);
			return;
		}
		outbuf_puts(ob, " href=\"");
		escape_xml(ob, link_base);
		escape_xml(ob, link);
		outbuf_printf(ob, "\" data-i=\"%u\"", f->func);
		free(link);
	}
	outbuf_printf(ob, " data-v=\"%lld,%lld,%lld", (long long)f->x,
	    (long long)f->w, (long long)f->self);
	if (g->compared)
		outbuf_printf(ob, ",%lld,%lld", (long long)f->btotal,
		    (long long)f->bself);
	outbuf_putc(ob, '"');
	if (*module != '\0') {
		outbuf_puts(ob, " data-m=\"");
		svg_capped(ob, module, SVG_MAX_NAME, "...");
		outbuf_putc(ob, '"');
	}
	if (f->cut > 0)
		outbuf_printf(ob, " class=\"cut\" data-cut=\"%u\"", f->cut);
	outbuf_putc(ob, '>');
}

/*
 * The frames of a cmd=flame report as an <svg> inside an HTML page
 * (format=html), drawn from the result g: no script or style of its own
 * (the page's policy allows neither; deepq.css styles it, flame.js
 * makes it interactive). The graph is one tree (role="tree") whose
 * frames are its items with their levels, one tab stop; each frame is a
 * link to its function's page, so the page works without a script. A
 * skip link passes it. q is the page's query; -1 on a write error or
 * out of memory.
 */
int
svg_inline(struct outbuf *ob, const struct flame_graph *g,
    const struct query *q, const char *link_base)
{
	const struct flame_frame	*f;
	const char			*name, *module;
	struct query_tmpl		 tfunc;
	struct query			 vf;
	int				 height, icicle, r = -1;
	double				 scale, px, pw, y;
	size_t				 i;

	memset(&tfunc, 0, sizeof tfunc);
	if (g == NULL || q == NULL)
		goto done;
	/* Each frame's function page: the view of cmd=func. */
	report_view(&vf, q, CMD_FUNC);
	if (query_tmpl_init(&tfunc, &vf, QUERY_FUNC, 1) == -1)
		goto done;
	icicle = strcmp(g->style, "flame") != 0;
	height = ((int)g->depth + 1) * SVG_FRAME + 4;
	scale = g->total > 0 ? (g->width - 2.0 * SVG_XPAD) / (double)g->total :
	    0;
	outbuf_puts(ob, "<div class=\"flamebox\"><a class=\"skip\" "
	    "href=\"#flame-end\">Skip the flame graph</a>\n");
	if (g->compared)
		svg_legend(ob, g);
	/* Not a tab stop of its own: the graph's one is its root. */
	outbuf_printf(ob, "<div class=\"flamescroll %s\" tabindex=\"-1\">"
	    "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "tabindex=\"-1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "data-style=\"%s\" data-total=\"%lld\" data-unit=\"",
	    icicle ? "down" : "up", g->width, height, g->width, height,
	    g->style, (long long)g->total);
	escape_xml(ob, g->countname);
	outbuf_printf(ob, "\"%s role=\"tree\" aria-label=\"%s graph: %zu "
	    "frames. Arrow keys move, Enter zooms, M opens the frame's "
	    "menu\">", g->compared ? " data-compared=\"1\"" : "",
	    strcmp(g->style, "chart") == 0 ? "Flame chart" : icicle ?
	    "Icicle" : "Flame", g->n);
	/* No white space between frames: each would be a DOM node. */
	for (i = 0; i < g->n && !outbuf_failed(ob); i++) {
		f = &g->v[i];
		name = svg_name(g, f, &module);
		px = SVG_XPAD + f->x * scale;
		pw = f->w * scale;
		y = icicle ? f->depth * SVG_FRAME :
		    height - (f->depth + 1.0) * SVG_FRAME;
		svg_frame_attrs(ob, g, f, module, &tfunc, &vf, link_base);
		outbuf_puts(ob, "<title>");
		svg_capped(ob, name, SVG_MAX_NAME, "...");
		svg_figures(ob, g, f, NULL);
		outbuf_puts(ob, "</title>");
		svg_rect(ob, g, f, name, module, px, y, pw);
		/* A label only where one fits: most frames are narrow. */
		if (pw >= 3 * SVG_FONT * SVG_FONTW + 6) {
			outbuf_printf(ob, "<text x=\"%.1f\" y=\"%.1f\">",
			    px + 3, y + SVG_FRAME - 5);
			svg_fitted(ob, name, pw);
			outbuf_puts(ob, "</text>");
		}
		outbuf_puts(ob, "</a>");
	}
	outbuf_puts(ob, "</svg></div>\n<p id=\"flame-end\" class=\"hint\">"
	    "Each frame links to its function's page. With scripts: hover "
	    "a frame for its figures and menu, click to zoom (Esc resets), "
	    "type in Highlight to find functions.</p></div>\n");
	r = outbuf_failed(ob);
done:
	query_tmpl_clear(&tfunc);
	return (r);
}

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
#include "outbuf.h"
#include "query.h"
#include "render.h"
#include "report.h"
#include "svgdoc.h"

/*
 * format=svg: a cmd=flame report drawn as a self-contained interactive
 * SVG, in the manner of flamegraph.pl: frames as rectangles with the
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
"  var term = window.prompt(\"Search for (regular expression):\", lastTerm);\n"
"  if (term === null) return;\n"
"  if (term === \"\") { clearSearch(); return; }\n"
"  var re;\n"
"  try { re = new RegExp(term); } catch (err) {\n"
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
		r = g = 80 + 60 * v1;
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
		r = 205 + 50 * v3;
		g = 230 * v1;
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
	int	 c = (int)(210 * (1 - r));

	if (delta > 0)
		outbuf_printf(ob, " fill=\"rgb(255,%d,%d)\"", c, c);
	else if (delta < 0)
		outbuf_printf(ob, " fill=\"rgb(%d,%d,255)\"", c, c);
	else
		outbuf_printf(ob, " fill=\"rgb(250,250,250)\"");
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

static int
svg_render(struct outbuf *ob, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	const json_t	*frames = json_object_get(j, "frames"), *fr;
	const json_t	*funcs = json_object_get(j, "funcs"), *fn;
	const char	*style = json_string_value(json_object_get(j, "style"));
	const char	*palette = json_string_value(json_object_get(j,
			    "palette"));
	const char	*countname = json_string_value(json_object_get(j,
			    "countname"));
	const char	*title = json_string_value(json_object_get(j, "title"));
	const char	*name, *module;
	char		 key[16], *num, *pct;
	int64_t		 total = json_integer_value(json_object_get(j,
			    "total")), x, w, dl;
	int64_t		 maxdelta = json_integer_value(json_object_get(j,
			    "maxdelta"));
	int		 width = (int)json_integer_value(json_object_get(j,
			    "width"));
	int		 depth = (int)json_integer_value(json_object_get(j,
			    "depth"));
	int		 height, icicle, dep;
	double		 scale, px, pw, y;
	size_t		 i;

	if (!json_is_array(frames) || style == NULL || palette == NULL)
		return (-1);
	icicle = strcmp(style, "icicle") == 0;
	height = (depth + 1) * SVG_FRAME + SVG_TOP + SVG_BOTTOM;
	scale = total > 0 ? (width - 2.0 * SVG_XPAD) / (double)total : 0;
	svgdoc_begin(ob, width, height, style);
	outbuf_puts(ob, "<script type=\"text/ecmascript\"><![CDATA[\n");
	outbuf_puts(ob, svg_script);
	outbuf_puts(ob, "]]></script>\n");

	outbuf_printf(ob, "<text id=\"title\" x=\"%d\" y=\"24\">", width / 2);
	escape_xml(ob, title != NULL && *title != '\0' ? title :
	    strcmp(style, "chart") == 0 ? "Flame Chart" : icicle ?
	    "Icicle Graph" : "Flame Graph");
	outbuf_puts(ob, "</text>\n");
	outbuf_printf(ob, "<text id=\"subtitle\" x=\"%d\" y=\"%d\">", width / 2,
	    SVG_FONT * 3 + 6);
	escape_xml(ob, json_string_value(json_object_get(j, "subtitle")) ?
	    json_string_value(json_object_get(j, "subtitle")) : "");
	outbuf_puts(ob, "</text>\n");
	outbuf_printf(ob, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
	    SVG_XPAD, height - SVG_FONT);
	outbuf_printf(ob, "<text id=\"unzoom\" class=\"ui\" x=\"%d\" y=\"24\" "
	    "style=\"display:none\">Reset Zoom</text>\n", SVG_XPAD);
	outbuf_printf(ob, "<text id=\"search\" class=\"ui\" x=\"%d\" y=\"24\">"
	    "Search</text>\n", width - SVG_XPAD - 100);
	outbuf_printf(ob, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n",
	    width - SVG_XPAD - 100, height - SVG_FONT);

	outbuf_puts(ob, "<g id=\"frames\">\n");
	for (i = 0; i < json_array_size(frames); i++) {
		fr = json_array_get(frames, i);
		dep = (int)json_integer_value(json_array_get(fr, 0));
		x = json_integer_value(json_array_get(fr, 1));
		w = json_integer_value(json_array_get(fr, 2));
		snprintf(key, sizeof key, "%lld", (long long)
		    json_integer_value(json_array_get(fr, 3)));
		fn = json_object_get(funcs, key);
		name = json_string_value(json_object_get(fn, "name"));
		module = json_string_value(json_object_get(fn, "module"));
		if (name == NULL || dep == 0)
			name = "all";
		if (module == NULL)
			module = "";
		px = SVG_XPAD + x * scale;
		pw = w * scale;
		y = icicle ? SVG_TOP + dep * SVG_FRAME :
		    height - SVG_BOTTOM - (dep + 1) * SVG_FRAME;
		num = display_number(w);
		pct = display_percent(w, total);
		outbuf_puts(ob, "<g><title>");
		svg_capped(ob, name, SVG_MAX_NAME, "...");
		outbuf_puts(ob, " (");
		escape_xml(ob, num ? num : "?");
		outbuf_putc(ob, ' ');
		escape_xml(ob, countname ? countname : "samples");
		outbuf_printf(ob, ", %s", pct ? pct : "?");
		if (json_array_size(fr) > 4) {
			dl = json_integer_value(json_array_get(fr, 4));
			outbuf_printf(ob, ", %s%lld", dl > 0 ? "+" : "",
			    (long long)dl);
		}
		outbuf_puts(ob, ")</title>");
		free(num);
		free(pct);
		if (*module != '\0') {
			outbuf_puts(ob, "<desc>");
			svg_capped(ob, module, SVG_MAX_NAME, "...");
			outbuf_puts(ob, "</desc>");
		}
		outbuf_printf(ob, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%d\" rx=\"2\" ry=\"2\"", px, y, pw,
		    SVG_FRAME - 1);
		if (json_array_size(fr) > 4)
			svg_diff_color(ob, json_integer_value(json_array_get(fr,
			    4)), maxdelta);
		else
			svg_color(ob, palette, name, module);
		outbuf_printf(ob, "/><text x=\"%.1f\" y=\"%.1f\">", px + 3,
		    y + SVG_FRAME - 5);
		svg_fitted(ob, name, pw);
		outbuf_puts(ob, "</text></g>\n");
	}
	outbuf_puts(ob, "</g>\n</svg>\n");
	return (outbuf_failed(ob));
}

/*
 * The frames of a cmd=flame report as an <svg> inside an HTML page
 * (format=html): no script or style of its own (the page's policy
 * allows neither; deepq.css and deepq.js style and drive it), each frame
 * a link to its function's page, with the links that zoom on it (focus
 * on the subtree: the server lays it out again at full width, so frames
 * too narrow before come back), focus on its function and merge it in
 * data- attributes for deepq.js. q is the page's query; -1 on a
 * write error or out of memory.
 */
int
svg_inline(struct outbuf *ob, const json_t *j, const struct query *q,
    const char *link_base)
{
	const json_t	*frames = json_object_get(j, "frames"), *fr;
	const json_t	*funcs = json_object_get(j, "funcs"), *fn;
	const char	*style = json_string_value(json_object_get(j, "style"));
	const char	*palette = json_string_value(json_object_get(j,
			    "palette"));
	const char	*name, *module, *cur;
	struct query_tmpl tfunc, tt;
	struct query	 vf, vt;
	char		 key[16], *num, *pct, *link, *item = NULL, *pathbuf = NULL;
	int64_t		 total = json_integer_value(json_object_get(j,
			    "total")), x, w;
	int64_t		 maxdelta = json_integer_value(json_object_get(j,
			    "maxdelta"));
	int		 width = (int)json_integer_value(json_object_get(j,
			    "width"));
	int		 depth = (int)json_integer_value(json_object_get(j,
			    "depth"));
	int		 height, icicle, chart, dep, dd, r = -1;
	uint32_t	*path = NULL, func;
	double		 scale, px, pw, y;
	size_t		 i, k, plen;

	memset(&tfunc, 0, sizeof tfunc);
	memset(&tt, 0, sizeof tt);
	if (!json_is_array(frames) || style == NULL || palette == NULL ||
	    q == NULL)
		goto done;
	/* The links of a frame: its function's page, and its pushes. */
	report_view(&vf, q, CMD_FUNC);
	/* Frames come depth first (not a chart's): path[d] is d's function. */
	if ((path = calloc((size_t)depth + 2, sizeof *path)) == NULL ||
	    (pathbuf = malloc(((size_t)depth + 2) * 11 + 1)) == NULL ||
	    query_tmpl_init(&tfunc, &vf, QUERY_FUNC, 1) == -1 ||
	    query_tmpl_init(&tt, q, QUERY_T, 1) == -1)
		goto done;
	cur = q->t;
	vt = *q;
	icicle = strcmp(style, "icicle") == 0;
	chart = strcmp(style, "chart") == 0;
	height = (depth + 1) * SVG_FRAME + 4;
	scale = total > 0 ? (width - 2.0 * SVG_XPAD) / (double)total : 0;
	outbuf_printf(ob, "<svg class=\"flame\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "data-style=\"%s\" role=\"img\" aria-label=\"flame graph\">\n"
	    "<g id=\"frames\">\n", width, height, width, height, style);
	for (i = 0; i < json_array_size(frames); i++) {
		fr = json_array_get(frames, i);
		dep = (int)json_integer_value(json_array_get(fr, 0));
		x = json_integer_value(json_array_get(fr, 1));
		w = json_integer_value(json_array_get(fr, 2));
		func = (uint32_t)json_integer_value(json_array_get(fr, 3));
		snprintf(key, sizeof key, "%u", func);
		fn = json_object_get(funcs, key);
		name = json_string_value(json_object_get(fn, "name"));
		module = json_string_value(json_object_get(fn, "module"));
		if (name == NULL || dep == 0)
			name = "all";
		if (module == NULL)
			module = "";
		if (dep >= 0 && dep <= depth)
			path[dep] = func;
		px = SVG_XPAD + x * scale;
		pw = w * scale;
		y = icicle ? dep * SVG_FRAME :
		    height - (dep + 1) * SVG_FRAME;
		outbuf_puts(ob, "<a");
		if (dep > 0 && dep <= depth) {
			snprintf(key, sizeof key, "%u", func);
			vf.func = key;
			if ((link = query_tmpl_fill(&tfunc, &vf)) == NULL)
				goto done;
			outbuf_puts(ob, " href=\"");
			escape_xml(ob, link_base);
			escape_xml(ob, link);
			outbuf_putc(ob, '"');
			free(link);
			/* The push links: focus here, focus and merge f. */
			for (k = 0; k < 3; k++) {
				if (k == 0 && chart)
					continue;
				if (k == 0) {
					plen = 0;
					for (dd = 1; dd <= dep; dd++)
						plen += sprintf(pathbuf + plen,
						    "%s%u", dd > 1 ? "," : "",
						    path[dd]);
				}
				if (asprintf(&item, "%s~%s-%s", *cur ? cur :
				    "1", k == 0 ? "fs" : k == 1 ? "ff" : "mf",
				    k == 0 ? pathbuf : key) == -1) {
					item = NULL;
					goto done;
				}
				vt.t = item;
				if ((link = query_tmpl_fill(&tt, &vt)) == NULL)
					goto done;
				outbuf_printf(ob, " data-%s=\"", k == 0 ?
				    "zoom" : k == 1 ? "focus" : "merge");
				escape_xml(ob, link_base);
				escape_xml(ob, link);
				outbuf_putc(ob, '"');
				free(link);
				free(item);
				item = NULL;
			}
		}
		num = display_number(w);
		pct = display_percent(w, total);
		outbuf_puts(ob, "><title>");
		if (*module != '\0') {
			svg_capped(ob, module, SVG_MAX_NAME, "...");
			outbuf_putc(ob, '`');
		}
		svg_capped(ob, name, SVG_MAX_NAME, "...");
		outbuf_printf(ob, " (%s, %s", num ? num : "?", pct ? pct : "?");
		if (json_array_size(fr) > 4) {
			x = json_integer_value(json_array_get(fr, 4));
			outbuf_printf(ob, ", %s%lld", x > 0 ? "+" : "",
			    (long long)x);
		}
		outbuf_puts(ob, ")</title>");
		free(num);
		free(pct);
		outbuf_printf(ob, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%d\" rx=\"2\" ry=\"2\"", px, y, pw,
		    SVG_FRAME - 1);
		if (json_array_size(fr) > 4)
			svg_diff_color(ob, json_integer_value(json_array_get(fr,
			    4)), maxdelta);
		else
			svg_color(ob, palette, name, module);
		outbuf_printf(ob, "/><text x=\"%.1f\" y=\"%.1f\">", px + 3,
		    y + SVG_FRAME - 5);
		svg_fitted(ob, name, pw);
		outbuf_puts(ob, "</text></a>\n");
	}
	outbuf_puts(ob, "</g>\n</svg>\n");
	r = outbuf_failed(ob);
done:
	free(item);
	free(path);
	free(pathbuf);
	query_tmpl_clear(&tfunc);
	query_tmpl_clear(&tt);
	return (r);
}

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

#include "outbuf.h"
#include "svgdoc.h"

/* The start of an SVG document (see svgdoc.h). */

/*
 * The XML declaration, the <svg> element of width x height (style, a
 * flame graph's, in data-style), the styles and the background.
 */
void
svgdoc_begin(struct outbuf *ob, int width, int height, const char *style)
{
	outbuf_printf(ob, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
	    "standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "data-style=\"%s\">\n", width, height, width, height, style);
	outbuf_puts(ob, "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" "
	    "x1=\"0\" "
	    "x2=\"0\"><stop stop-color=\"#eeeeee\" offset=\"5%\"/>"
	    "<stop stop-color=\"#eeeeb0\" offset=\"95%\"/></linearGradient>"
	    "</defs>\n<style type=\"text/css\">text{font-family:Verdana,"
	    "sans-serif;font-size:12px;fill:#000}#title{font-size:17px;"
	    "text-anchor:middle}#subtitle{text-anchor:middle;fill:#777}"
	    ".ui{cursor:pointer}#frames g{cursor:pointer}#frames g:hover rect"
	    "{stroke:#000;stroke-width:0.5}"
	    /* Dark viewers: a dark ground, light text, frames as they are. */
	    "@media (prefers-color-scheme:dark){#ground{fill:#16181b}"
	    "text{fill:#e6e6e6}#subtitle{fill:#999}#frames text{fill:#000}}"
	    "</style>\n");
	outbuf_printf(ob, "<rect id=\"ground\" x=\"0\" y=\"0\" width=\"%d\" "
	    "height=\"%d\" fill=\"url(#bg)\"/>\n", width, height);
}

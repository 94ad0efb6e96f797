/*
 * deepq-timeline.js: range selection on the time views of deepq's pages
 * (cmd=timeline, cmd=heatmap, the flame chart). The views work without
 * it: their ruler buckets, heat map columns and frames are plain links.
 * This adds dragging: across a timeline's lanes or the chart, the time
 * under the pointer from press to release; across the heat map's cells,
 * from the first cell's start to the last cell's end. Either opens the
 * page with range=A,B (seconds from the recording's start), the link
 * made from the container's data-pre and data-post (the page's own
 * canonical query around range=), so every other key of the page stays.
 * No inline script or style: the page's policy holds.
 */
(function () {
	"use strict";

	/* A number of seconds as range= takes it: fixed decimals. */
	function fmt(v) {
		var s;

		if (!(v > 0))
			return "0";
		s = v.toFixed(9).replace(/0+$/, "").replace(/\.$/, "");
		return s;
	}

	function go(box, a, b) {
		var pre = box.getAttribute("data-pre") || "";
		var post = box.getAttribute("data-post") || "";
		var base = box.getAttribute("data-base") || "?";
		var r;

		if (!(b > a))
			return;
		r = "range=" + fmt(a) + "," + fmt(b);
		if (fmt(a) === fmt(b))
			return;
		window.location.href = base + (pre ? pre + "&" : "") + r +
		    (post ? "&" + post : "");
	}

	/* Dragging across a timeline or a chart: the lanes share one axis. */
	function lanes(box) {
		var t0 = parseFloat(box.getAttribute("data-t0"));
		var t1 = parseFloat(box.getAttribute("data-t1"));
		var sel = document.createElement("div");
		var start = null, ref = null;

		sel.className = "tl-sel";
		sel.hidden = true;
		box.appendChild(sel);

		function timeAt(x) {
			var r = ref.getBoundingClientRect();
			var f = (x - r.left) / r.width;

			if (f < 0)
				f = 0;
			if (f > 1)
				f = 1;
			return t0 + f * (t1 - t0);
		}
		function show(x0, x1) {
			var b = box.getBoundingClientRect();
			var r = ref.getBoundingClientRect();
			var lo = Math.max(Math.min(x0, x1), r.left);
			var hi = Math.min(Math.max(x0, x1), r.right);

			sel.style.left = (lo - b.left) + "px";
			sel.style.width = Math.max(hi - lo, 1) + "px";
			sel.hidden = false;
		}
		box.addEventListener("pointerdown", function (ev) {
			var svg = ev.target.closest("svg");

			if (ev.button !== 0 || svg === null ||
			    !box.contains(svg))
				return;
			ref = svg;
			start = ev.clientX;
			ev.preventDefault();
		});
		window.addEventListener("pointermove", function (ev) {
			if (start !== null && Math.abs(ev.clientX - start) > 3)
				show(start, ev.clientX);
		});
		window.addEventListener("pointerup", function (ev) {
			var a, b;

			if (start === null)
				return;
			if (Math.abs(ev.clientX - start) > 3) {
				a = timeAt(Math.min(start, ev.clientX));
				b = timeAt(Math.max(start, ev.clientX));
				start = null;
				go(box, a, b);
				return;
			}
			/* A click: the link under it works as it would. */
			start = null;
			sel.hidden = true;
		});
	}

	/* Dragging across the heat map's cells. */
	function cells(box) {
		var svg = box.querySelector("svg.hm-g");
		var mark = null, first = null;
		var NS = "http://www.w3.org/2000/svg";
		var cols, rows, c0, cs, cw, ch;

		if (svg === null)
			return;
		cols = parseInt(svg.getAttribute("data-cols"), 10);
		rows = parseInt(svg.getAttribute("data-rows"), 10);
		c0 = parseFloat(svg.getAttribute("data-c0"));
		cs = parseFloat(svg.getAttribute("data-cs"));
		cw = parseInt(svg.getAttribute("data-cw"), 10);
		ch = parseInt(svg.getAttribute("data-ch"), 10);

		/* The cell under the pointer: [column, row], or null. */
		function cellAt(ev) {
			var r = svg.getBoundingClientRect();
			var sx = r.width / svg.viewBox.baseVal.width;
			var sy = r.height / svg.viewBox.baseVal.height;
			var x = (ev.clientX - r.left) / sx;
			var y = (ev.clientY - r.top) / sy - 20;
			var c = Math.floor(x / cw), w = Math.floor(y / ch);

			if (y < 0 || c < 0 || c >= cols || w < 0 || w >= rows)
				return null;
			return [c, w];
		}
		function index(c) {
			return c[0] * rows + c[1];
		}
		function time(i) {
			return c0 + Math.floor(i / rows) * cs +
			    (i % rows) * cs / rows;
		}
		function show(a, b) {
			var lo = Math.min(index(a), index(b));
			var hi = Math.max(index(a), index(b));
			var i, d = "";

			if (mark === null) {
				mark = document.createElementNS(NS, "path");
				mark.setAttribute("fill", "none");
				mark.setAttribute("stroke", "#1f5fbf");
				mark.setAttribute("class", "hm-sel");
				svg.appendChild(mark);
			}
			for (i = lo; i <= hi && i - lo < 5000; i++)
				d += "M" + (Math.floor(i / rows) * cw) + " " +
				    (20 + (i % rows) * ch) + "h" + (cw - 1) +
				    "v" + (ch - 1) + "h-" + (cw - 1) + "z";
			mark.setAttribute("d", d);
		}
		svg.addEventListener("pointerdown", function (ev) {
			first = cellAt(ev);
			if (first !== null) {
				show(first, first);
				ev.preventDefault();
			}
		});
		svg.addEventListener("pointermove", function (ev) {
			var c;

			if (first !== null && (c = cellAt(ev)) !== null)
				show(first, c);
		});
		window.addEventListener("pointerup", function (ev) {
			var c = cellAt(ev), lo, hi;

			if (first === null)
				return;
			if (c === null)
				c = first;
			lo = Math.min(index(first), index(c));
			hi = Math.max(index(first), index(c));
			first = null;
			go(box, time(lo), time(hi + 1));
		});
	}

	document.querySelectorAll("div.tl").forEach(lanes);
	document.querySelectorAll("div.hm").forEach(cells);
}());

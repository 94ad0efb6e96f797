/*
 * deepq: the flame graph of a page, made interactive. The page works
 * without it: every frame is a link to its function's page, with its
 * figures in a tooltip (<title>). With it:
 *
 *	pointer		a card at the pointer: name, module, total and
 *			self with their shares (a comparison: both sides
 *			and the change), and the frame's menu; the card
 *			stays while the pointer moves onto it
 *	click		zoom on the frame, in place (ancestors stay, dimmed);
 *			a frame whose subtree the page merged to stay light
 *			(data-cut) asks the server for it (t=...~fs-PATH)
 *	breadcrumb	the zoom's path; Reset (or Esc) shows everything
 *	Highlight	a case-insensitive substring (or a regex) marks the
 *			matching frames and gives their share; it stays
 *			across zooms
 *	keyboard	one tab stop: arrows move to the parent, the widest
 *			child and the siblings, Enter zooms, M (or the menu
 *			key) opens the menu, Esc resets
 *
 * The module is written for reuse: window.deepqFlame.attach(svg, opts)
 * takes any <svg> whose frames are <a role="treeitem"> with aria-level
 * (depth + 1), data-v "x,w,self[,base total,base self]" in the graph's
 * units, data-i (function id), data-m (module), data-cut and a <title>
 * "NAME (figures)"; opts.menu(frame) may return the menu's entries
 * ([text, href] or [text, function]) and opts.figures(frame) the
 * card's lines, so a flame chart on a time axis can bring its own.
 * Nothing from the page is evaluated: names are read as text and put
 * back as text.
 */
(function () {
	"use strict";

	var ROW = 16;		/* frame height, pixels */
	var PAD = 10;		/* left and right */
	var GLYPH = 12 * 0.59;	/* average glyph width at 12 px */
	var MINW = 1000;	/* narrowest layout: labels stay 12 px */
	var SVGNS = "http://www.w3.org/2000/svg";

	function el(tag, cls, text) {
		var e = document.createElement(tag);

		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	function fmt(n) {
		return Math.round(n).toLocaleString("en-US");
	}

	function pct(n, of) {
		return of > 0 ? (100 * n / of).toFixed(2) + " %" : "-";
	}

	function signed(n) {
		return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + fmt(Math.abs(n));
	}

	/* The page's query string with key set (null: removed). */
	function withKey(search, key, value) {
		var p = new URLSearchParams(search);

		if (value === null)
			p.delete(key);
		else
			p.set(key, value);
		return "?" + p.toString().replace(/%7E/gi, "~")
		    .replace(/%2C/gi, ",");
	}

	/* The page's t= with one more transform. */
	function pushT(item) {
		var t = new URLSearchParams(window.location.search).get("t");

		return withKey(window.location.search, "t",
		    (t ? t : "1") + "~" + item);
	}

	/* The frames of svg, each with its parent and children. */
	function parse(svg) {
		var els = svg.querySelectorAll("a[role=treeitem]");
		var frames = [], levels = [], i;

		for (i = 0; i < els.length; i++) {
			var a = els[i], v = (a.getAttribute("data-v") || "0,0,0")
			    .split(",").map(Number);
			var t = a.querySelector("title");
			var tip = t ? t.textContent : "";
			var cut = tip.lastIndexOf(" (");
			var f = {
				el: a, rect: a.querySelector("rect"),
				text: a.querySelector("text"),
				depth: Number(a.getAttribute("aria-level")) - 1,
				x: v[0], w: v[1], self: v[2],
				base: v.length > 4 ? [v[3], v[4]] : null,
				name: cut > 0 ? tip.slice(0, cut) : tip,
				module: a.getAttribute("data-m") || "",
				func: a.getAttribute("data-i"),
				cut: Number(a.getAttribute("data-cut") || 0),
				parent: null, kids: [], index: i, hidden: false
			};
			f.fill = f.rect ? f.rect.getAttribute("fill") : "";
			frames.push(f);
			(levels[f.depth] = levels[f.depth] || []).push(f);
		}
		levels.forEach(function (l) {
			l.sort(function (a, b) { return a.x - b.x; });
		});
		/* A parent is the frame of the level below that spans x. */
		for (i = 1; i < levels.length; i++) {
			var below = levels[i - 1] || [];

			(levels[i] || []).forEach(function (f) {
				var lo = 0, hi = below.length - 1, p = null;

				while (lo <= hi) {
					var mid = (lo + hi) >> 1;

					if (below[mid].x <= f.x) {
						p = below[mid];
						lo = mid + 1;
					} else
						hi = mid - 1;
				}
				if (p && f.x < p.x + p.w + 1e-9) {
					f.parent = p;
					p.kids.push(f);
				}
			});
		}
		/* Does a frame's subtree hold frames the page merged? */
		for (i = levels.length - 1; i >= 0; i--) {
			(levels[i] || []).forEach(function (f) {
				f.merged = f.cut > 0 || f.kids.some(function (k) {
					return k.merged;
				});
			});
		}
		return frames;
	}

	/* The function ids from the root's child down to f. */
	function path(f) {
		var ids = [];

		for (; f && f.depth > 0; f = f.parent)
			ids.unshift(f.func);
		return ids.join(",");
	}

	function Flame(svg, opts) {
		this.svg = svg;
		this.opts = opts || {};
		this.style = svg.getAttribute("data-style") || "flame";
		this.unit = svg.getAttribute("data-unit") || "";
		this.frames = parse(svg);
		this.root = this.frames.filter(function (f) {
			return f.depth === 0;
		})[0] || this.frames[0];
		this.total = this.root ? this.root.w : 0;
		this.zoomed = this.root;
		this.current = this.root;
		this.matcher = null;
		this.box = svg.closest(".flamebox") || svg.parentNode;
		this.scroller = svg.parentNode;
		this.build();
		this.layout();
	}

	/* The controls above the graph and the card. */
	Flame.prototype.build = function () {
		var self = this, bar = el("div", "flamebar");
		var lab = el("label", "hl"), re = el("label", "re");

		this.crumbs = el("nav", "flamecrumbs");
		this.crumbs.setAttribute("aria-label", "zoom");
		this.reset = el("button", "reset", "Reset zoom");
		this.reset.type = "button";
		this.reset.hidden = true;
		this.reset.addEventListener("click", function () {
			self.zoom(self.root);
		});
		this.search = el("input");
		this.search.type = "search";
		this.search.placeholder = "substring, any case";
		lab.appendChild(document.createTextNode("Highlight "));
		lab.appendChild(this.search);
		this.regex = el("input");
		this.regex.type = "checkbox";
		re.appendChild(this.regex);
		re.appendChild(document.createTextNode(" regex"));
		this.matched = el("output", "matched");
		this.matched.setAttribute("aria-live", "polite");
		bar.appendChild(lab);
		bar.appendChild(re);
		bar.appendChild(this.matched);
		bar.appendChild(this.reset);
		bar.appendChild(this.crumbs);
		this.box.insertBefore(bar, this.scroller);
		this.search.addEventListener("input", function () {
			self.highlight(self.search.value, self.regex.checked);
		});
		this.regex.addEventListener("change", function () {
			self.highlight(self.search.value, self.regex.checked);
		});

		this.card = el("div", "flamecard");
		this.card.hidden = true;
		this.card.setAttribute("role", "dialog");
		this.card.setAttribute("aria-label", "frame");
		document.body.appendChild(this.card);
		this.card.addEventListener("pointerenter", function () {
			clearTimeout(self.hideTimer);
			self.onCard = true;
		});
		this.card.addEventListener("pointerleave", function () {
			self.onCard = false;
			self.hideSoon();
		});
		this.card.addEventListener("keydown", function (ev) {
			if (ev.key === "Escape") {
				ev.preventDefault();
				self.hideCard();
				self.focus(self.current);
			}
		});

		svg_events(this);
		window.addEventListener("resize", function () {
			self.layout();
		});
	};

	function frameOf(ev) {
		var a = ev.target.closest ? ev.target.closest("a[role=treeitem]") :
		    null;

		return a ? a.__flame : null;
	}

	function svg_events(fl) {
		var svg = fl.svg;

		fl.frames.forEach(function (f) {
			f.el.__flame = f;
		});
		svg.addEventListener("pointerover", function (ev) {
			var f = frameOf(ev);

			if (!f || fl.onCard)
				return;
			clearTimeout(fl.hideTimer);
			if (f !== fl.shown)
				fl.showCard(f, ev.clientX, ev.clientY);
		});
		svg.addEventListener("pointerleave", function () {
			fl.hideSoon();
		});
		svg.addEventListener("click", function (ev) {
			var f = frameOf(ev);

			if (!f || ev.ctrlKey || ev.metaKey || ev.shiftKey ||
			    ev.button !== 0)
				return;
			ev.preventDefault();
			fl.focus(f);
			fl.zoom(f);
		});
		svg.addEventListener("contextmenu", function (ev) {
			var f = frameOf(ev);

			if (!f)
				return;
			ev.preventDefault();
			fl.showCard(f, ev.clientX, ev.clientY);
			fl.openMenu();
		});
		svg.addEventListener("keydown", function (ev) {
			fl.key(ev);
		});
		svg.addEventListener("focusin", function (ev) {
			var f = frameOf(ev);

			if (f)
				fl.current = f;
		});
	}

	/* Lay the frames out for the zoomed frame at the box's width. */
	Flame.prototype.layout = function () {
		var z = this.zoomed, W, scale, maxd = 0, H, self = this;
		var eps = 1e-9;

		if (!z)
			return;
		W = Math.max(MINW, Math.floor(this.scroller.clientWidth || MINW));
		scale = z.w > 0 ? (W - 2 * PAD) / z.w : 0;
		this.frames.forEach(function (f) {
			f.state = f === z || (f.depth > z.depth && f.x >= z.x - eps &&
			    f.x + f.w <= z.x + z.w + eps) ? "in" :
			    f.depth < z.depth && f.x <= z.x + eps &&
			    f.x + f.w >= z.x + z.w - eps ? "anc" : "out";
			if (f.state !== "out" && f.depth > maxd)
				maxd = f.depth;
		});
		H = (maxd + 1) * ROW + 4;
		this.svg.setAttribute("width", W);
		this.svg.setAttribute("height", H);
		this.svg.setAttribute("viewBox", "0 0 " + W + " " + H);
		this.frames.forEach(function (f) {
			var x, w, y;

			f.hidden = f.state === "out";
			f.el.style.display = f.hidden ? "none" : "";
			f.el.classList.toggle("anc", f.state === "anc");
			if (f.hidden || !f.rect)
				return;
			if (f.state === "anc") {
				x = PAD;
				w = W - 2 * PAD;
			} else {
				x = PAD + (f.x - z.x) * scale;
				w = f.w * scale;
			}
			y = self.style === "flame" ? H - (f.depth + 1) * ROW :
			    f.depth * ROW;
			f.rect.setAttribute("x", x.toFixed(1));
			f.rect.setAttribute("y", y.toFixed(1));
			f.rect.setAttribute("width", Math.max(w, 0.5).toFixed(1));
			self.label(f, x, y, w);
		});
	};

	/* The part of a frame's name that fits, ".." marking a cut. */
	Flame.prototype.label = function (f, x, y, w) {
		var n = Math.floor((w - 6) / GLYPH), s = f.name;

		s = n < 3 ? "" : s.length <= n ? s : s.slice(0, n - 2) + "..";
		if (!f.text) {
			if (s === "")
				return;
			f.text = document.createElementNS(SVGNS, "text");
			f.el.appendChild(f.text);
		}
		f.text.setAttribute("x", (x + 3).toFixed(1));
		f.text.setAttribute("y", (y + ROW - 5).toFixed(1));
		f.text.textContent = s;
	};

	/* The server's layout of f's subtree (frames merged there). */
	Flame.prototype.serverZoom = function (f) {
		return pushT("fs-" + path(f));
	};

	Flame.prototype.zoom = function (f) {
		var self = this;

		if (f.merged && f !== this.root && this.style !== "chart") {
			window.location.href = this.serverZoom(f);
			return;
		}
		this.zoomed = f;
		this.layout();
		this.reset.hidden = f === this.root;
		this.crumbs.textContent = "";
		if (f !== this.root) {
			var chain = [], g;

			for (g = f; g; g = g.parent)
				chain.unshift(g);
			chain.forEach(function (c, i) {
				var b = el("button", "crumb", c.name);

				b.type = "button";
				if (i === chain.length - 1)
					b.setAttribute("aria-current", "true");
				b.addEventListener("click", function () {
					self.zoom(c);
				});
				if (i > 0)
					self.crumbs.appendChild(
					    document.createTextNode(" \u203a "));
				self.crumbs.appendChild(b);
			});
		}
		this.svg.setAttribute("data-zoom", f === this.root ? "" : path(f));
		this.highlight(this.search.value, this.regex.checked);
		this.hideCard();
	};

	/*
	 * Mark the frames whose name or module matches, and give the share
	 * of the total (and of the zoomed frame) they cover, each sample
	 * counted once (a match above a match adds nothing).
	 */
	Flame.prototype.highlight = function (term, regex) {
		var m = null, cover = 0, zcover = 0, z = this.zoomed, n = 0;

		this.regex.setCustomValidity("");
		if (term !== "") {
			if (regex) {
				try {
					var re = new RegExp(term, "i");

					m = function (s) { return re.test(s); };
				} catch (e) {
					this.matched.textContent = "bad regex";
					return;
				}
			} else {
				var low = term.toLowerCase();

				m = function (s) {
					return s.toLowerCase().indexOf(low) !== -1;
				};
			}
		}
		this.frames.forEach(function (f) {
			f.match = m !== null && f.depth > 0 &&
			    (m(f.name) || (f.module !== "" && m(f.module)));
			f.el.classList.toggle("match", f.match);
		});
		this.frames.forEach(function (f) {
			var g;

			if (!f.match)
				return;
			n++;
			for (g = f.parent; g; g = g.parent) {
				if (g.match)
					return;
			}
			cover += f.w;
			if (f.state === "in" && f !== z)
				zcover += f.w;
			else if (f.state === "anc" || f === z)
				zcover += z.w;
		});
		if (m === null) {
			this.matched.textContent = "";
			this.svg.removeAttribute("data-matched");
			return;
		}
		this.matched.textContent = n === 0 ? "no match" :
		    "Matched " + pct(cover, this.total) + " of all" +
		    (z !== this.root ? ", " + pct(Math.min(zcover, z.w), z.w) +
		    " of " + z.name : "") + " (" + n + " frame" +
		    (n === 1 ? "" : "s") + ")";
		this.svg.setAttribute("data-matched", (cover / this.total)
		    .toFixed(6));
	};

	/* The card's lines: name, module, figures. */
	Flame.prototype.figures = function (f) {
		var u = this.unit, t = this.total, lines = [];

		lines.push(["Total", fmt(f.w) + " " + u + " (" + pct(f.w, t) +
		    (this.zoomed !== this.root ? ", " + pct(f.w, this.zoomed.w) +
		    " of the zoom" : "") + ")"]);
		lines.push(["Self", fmt(f.self) + " " + u + " (" +
		    pct(f.self, t) + ")"]);
		if (f.base) {
			lines.push(["Base total", fmt(f.base[0]) + " (\u0394 " +
			    signed(f.w - f.base[0]) + ")"]);
			lines.push(["Base self", fmt(f.base[1]) + " (\u0394 " +
			    signed(f.self - f.base[1]) + ")"]);
		}
		if (f.cut > 0)
			lines.push(["Merged", fmt(f.cut) + " frame" +
			    (f.cut === 1 ? "" : "s") + " above, to keep the " +
			    "page light: zoom asks the server"]);
		return lines;
	};

	/* The menu: zoom, then links the server answers. */
	Flame.prototype.menu = function (f) {
		var self = this, items = [], href = f.el.getAttribute("href");
		var file = document.querySelector("header a.file");

		items.push(["Zoom", function () { self.zoom(f); }]);
		if (!href)
			return items;
		items.push(["Open function", href]);
		items.push(["Source", withKey(href.replace(/^[^?]*/, ""), "cmd",
		    "source")]);
		if (this.style !== "chart")
			items.push(["Focus on this stack", this.serverZoom(f)]);
		items.push(["Focus on function", pushT("ff-" + f.func)]);
		items.push(["Merge function", pushT("mf-" + f.func)]);
		items.push(["Drop function", pushT("df-" + f.func)]);
		if (f.base)
			items.push(["Compare (function page)", href]);
		else if (file)
			items.push(["Compare with another profile",
			    file.getAttribute("href") + "#compare"]);
		return items;
	};

	Flame.prototype.showCard = function (f, cx, cy) {
		var c = this.card, dl = el("dl"), h = el("p", "name", f.name);
		var menu = el("ul", "menu"), self = this;
		var lines = (this.opts.figures || this.figures).call(this, f);
		var items = (this.opts.menu || this.menu).call(this, f);

		this.shown = f;
		c.textContent = "";
		c.appendChild(h);
		if (f.module)
			c.appendChild(el("p", "mod", f.module));
		lines.forEach(function (l) {
			dl.appendChild(el("dt", "", l[0]));
			dl.appendChild(el("dd", "", l[1]));
		});
		c.appendChild(dl);
		menu.setAttribute("role", "menu");
		items.forEach(function (it) {
			var li = el("li"), a;

			li.setAttribute("role", "none");
			if (typeof it[1] === "function") {
				a = el("button", "act", it[0]);
				a.type = "button";
				a.addEventListener("click", it[1]);
			} else {
				a = el("a", "act", it[0]);
				a.href = it[1];
			}
			a.setAttribute("role", "menuitem");
			li.appendChild(a);
			menu.appendChild(li);
		});
		c.appendChild(menu);
		c.hidden = false;
		/*
		 * At the pointer, its corner just beside it: the pointer
		 * reaches the card without crossing another frame.
		 */
		var w = c.offsetWidth, hh = c.offsetHeight;
		var vw = document.documentElement.clientWidth;
		var vh = document.documentElement.clientHeight;
		var left = cx + 2, top = cy - 8;

		if (left + w > vw - 4)
			left = Math.max(4, cx - w - 2);
		/* Too low: above the pointer, its bottom corner beside it. */
		if (top + hh > vh - 4)
			top = Math.max(4, cy + 8 - hh);
		c.style.left = (left + window.scrollX) + "px";
		c.style.top = (top + window.scrollY) + "px";
		void self;
	};

	Flame.prototype.hideCard = function () {
		clearTimeout(this.hideTimer);
		this.card.hidden = true;
		this.shown = null;
		this.onCard = false;
	};

	Flame.prototype.hideSoon = function () {
		var self = this;

		clearTimeout(this.hideTimer);
		this.hideTimer = setTimeout(function () {
			if (!self.onCard)
				self.hideCard();
		}, 400);
	};

	/* The card of the focused frame, its menu's first item focused. */
	Flame.prototype.openMenu = function () {
		var f = this.current, r, first;

		if (!f)
			return;
		if (this.shown !== f) {
			r = f.rect.getBoundingClientRect();
			this.showCard(f, r.left + Math.min(r.width, 40), r.bottom);
		}
		first = this.card.querySelector(".act");
		if (first)
			first.focus();
	};

	/* Roving tab stop: f is the graph's one. */
	Flame.prototype.focus = function (f) {
		if (!f)
			return;
		this.frames.forEach(function (g) {
			g.el.setAttribute("tabindex", g === f ? "0" : "-1");
		});
		this.current = f;
		f.el.focus({ preventScroll: false });
	};

	function visibleKids(f) {
		return f.kids.filter(function (k) { return !k.hidden; });
	}

	/* The visible frame beside f at its depth (dir -1 left, 1 right). */
	Flame.prototype.beside = function (f, dir) {
		var best = null;

		this.frames.forEach(function (g) {
			if (g.hidden || g.depth !== f.depth || g === f)
				return;
			if (dir > 0 ? g.x >= f.x + f.w - 1e-9 &&
			    (!best || g.x < best.x) : g.x + g.w <= f.x + 1e-9 &&
			    (!best || g.x > best.x))
				best = g;
		});
		return best;
	};

	Flame.prototype.key = function (ev) {
		var f = this.current, next = null, up = this.style === "flame";
		var kids;

		if (!f || ev.altKey || ev.ctrlKey || ev.metaKey)
			return;
		switch (ev.key) {
		case "ArrowUp":
		case "ArrowDown":
			if ((ev.key === "ArrowUp") === up) {
				kids = visibleKids(f);
				next = kids.reduce(function (a, b) {
					return !a || b.w > a.w ? b : a;
				}, null);
			} else
				next = f.parent;
			break;
		case "ArrowLeft":
			next = this.beside(f, -1);
			break;
		case "ArrowRight":
			next = this.beside(f, 1);
			break;
		case "Home":
			next = this.zoomed;
			break;
		case "Enter":
		case " ":
			this.zoom(f);
			this.focus(f.el.style.display === "none" ? this.zoomed :
			    f);
			break;
		case "m":
		case "M":
		case "ContextMenu":
			this.openMenu();
			break;
		case "Escape":
			this.hideCard();
			this.zoom(this.root);
			break;
		default:
			return;
		}
		ev.preventDefault();
		if (next && !next.hidden) {
			this.focus(next);
			if (this.shown)
				this.hideCard();
		}
	};

	function attach(svg, opts) {
		var fl = new Flame(svg, opts);

		svg.setAttribute("data-ready", String(fl.frames.length));
		return fl;
	}

	window.deepqFlame = { attach: attach, parse: parse, path: path };
	Array.prototype.forEach.call(document.querySelectorAll("svg.flame"),
	    function (svg) {
		svg.__flame = attach(svg);
	});
}());

/*
 * deepq: conveniences on top of pages that work without JavaScript.
 *
 *	j, k, arrows	move the selected row
 *	Enter		follow the selected row's link
 *	o, l, right	expand (or collapse) the selected tree row
 *	h, left		collapse the selected tree row
 *	m		open the selected tree row's menu (its transforms)
 *	u		go back
 *	/		focus the search field
 *
 * Collapsing a tree row that is open hides its descendants in place
 * (no request); expanding a closed one asks the server for the tree
 * rooted at it one level deep and puts those rows in place. Either way
 * the address becomes the page's link with that row opened or closed
 * (history.replaceState), so a reload or a bookmark shows the same
 * tree. A row's menu (its "..." link, which without the script opens
 * the tree rooted there, transforms first) opens at the row: root here,
 * focus, merge, drop, invert from here. An "N more" row asks the server
 * for the next of those children and puts them in its place. Nothing
 * from the page is ever evaluated: the script only reads classes,
 * data-depth and href attributes, and moves rows the server made
 * (escaped) from one document to the other.
 */
(function () {
	"use strict";

	var rows = [];
	var sel = -1;

	function depthOf(tr) {
		var td = tr.querySelector("td.tree");

		return td ? parseInt(td.getAttribute("data-depth"), 10) : -1;
	}

	function select(i) {
		if (rows.length === 0)
			return;
		if (i < 0)
			i = 0;
		if (i >= rows.length)
			i = rows.length - 1;
		if (sel >= 0 && rows[sel])
			rows[sel].classList.remove("sel");
		sel = i;
		rows[sel].classList.add("sel");
		rows[sel].scrollIntoView({ block: "nearest" });
	}

	function visible() {
		rows = Array.prototype.filter.call(
		    document.querySelectorAll("table.report tbody tr"),
		    function (tr) { return !tr.classList.contains("hidden"); });
	}

	/* Hide (show) the rows below tr that are deeper than it. */
	function setCollapsed(tr, collapsed) {
		var d = depthOf(tr), next = tr.nextElementSibling, hideBelow = -1;
		var tog = tr.querySelector(".tog");

		tr.setAttribute("data-collapsed", collapsed ? "1" : "0");
		if (tog)
			setTog(tog, !collapsed, rowPath(tr));
		while (next && depthOf(next) > d) {
			var nd = depthOf(next);

			if (collapsed) {
				next.classList.add("hidden");
			} else if (hideBelow < 0 || nd <= hideBelow) {
				/* Keep the children of rows still collapsed hidden. */
				next.classList.remove("hidden");
				hideBelow = next.getAttribute("data-collapsed") === "1" ?
				    nd : -1;
			}
			next = next.nextElementSibling;
		}
		visible();
	}

	function isOpen(tr) {
		var tog = tr.querySelector("a.tog");

		return tog && tog.getAttribute("title") === "collapse" &&
		    tr.getAttribute("data-collapsed") !== "1";
	}

	/* A tree row's path (its "root here" link's path=), or null. */
	function rowPath(tr) {
		var aux = tr.querySelector("a.aux");

		if (!aux)
			return null;
		return new URL(aux.href, window.location.href)
		    .searchParams.get("path");
	}

	/*
	 * The query string q with key set to value (null: removed), other
	 * pairs kept as they are: paths are digits, ',' and '~', which stay
	 * readable in the address bar.
	 */
	function setKey(q, key, value) {
		var out = [], done = false;

		q.replace(/^\?/, "").split("&").forEach(function (kv) {
			if (kv === "")
				return;
			if (kv.split("=")[0] === key) {
				if (value !== null && !done)
					out.push(key + "=" + value);
				done = true;
				return;
			}
			out.push(kv);
		});
		if (!done && value !== null)
			out.push(key + "=" + value);
		return "?" + out.join("&");
	}

	function getKey(q, key) {
		var v = new URLSearchParams(q).get(key);

		return v === null ? "" : v;
	}

	/* The '~' list without p, and with p at its end if add. */
	function listEdit(list, p, add) {
		var a = list.split("~").filter(function (x) {
			return x !== "" && x !== p;
		});

		if (add)
			a.push(p);
		return a.length ? a.join("~") : null;
	}

	/* This page's query with path p opened (or closed), as the server
	 * would link it. */
	function toggled(p, open) {
		var q = window.location.search;

		q = setKey(q, "open", listEdit(getKey(q, "open"), p, open));
		q = setKey(q, "close", listEdit(getKey(q, "close"), p, !open));
		return q;
	}

	function remember(p, open) {
		if (p !== null && window.history && window.history.replaceState)
			window.history.replaceState(null, "", toggled(p, open));
	}

	function setTog(tog, open, p) {
		tog.textContent = open ? "\u2212" : "+";
		tog.setAttribute("title", open ? "collapse" : "expand");
		tog.setAttribute("aria-expanded", open ? "true" : "false");
		if (p !== null)
			tog.setAttribute("href", toggled(p, !open));
	}

	/*
	 * Expand a closed row in place: ask the server for the tree rooted
	 * at its path one level deep, and put the rows below the first
	 * (the node itself) under this one. On any failure the link is
	 * followed as without the script.
	 */
	function expand(tr) {
		var tog = tr.querySelector("a.tog"), p = rowPath(tr);
		var q, d = depthOf(tr);

		if (p === null || tr.getAttribute("data-loading") === "1") {
			if (p === null)
				window.location.href = tog.href;
			return;
		}
		tr.setAttribute("data-loading", "1");
		q = setKey(window.location.search, "path", p);
		q = setKey(setKey(setKey(q, "open", null), "close", null),
		    "depth", "1");
		fetch(q, { credentials: "same-origin",
		    headers: { "Accept": "text/html" } }).then(function (r) {
			if (!r.ok)
				throw new Error("HTTP " + r.status);
			return r.text();
		}).then(function (html) {
			var doc = new DOMParser().parseFromString(html, "text/html");
			var got = doc.querySelectorAll("table#tree tbody tr");
			var after = tr, i;

			for (i = 1; i < got.length; i++) {
				var row = document.importNode(got[i], true);
				var td = row.querySelector("td.tree");
				var nd = d + parseInt(td.getAttribute("data-depth"), 10);
				var ind = td.querySelector(".ind");
				var rt = row.querySelector("a.tog");

				td.setAttribute("data-depth", String(nd));
				if (!ind) {
					ind = document.createElement("span");
					ind.className = "ind";
					td.insertBefore(ind, td.firstChild);
				}
				ind.textContent = "\u00a0\u00a0".repeat(nd);
				if (rt)
					setTog(rt, false, rowPath(row));
				after.parentNode.insertBefore(row, after.nextSibling);
				after = row;
			}
			tr.removeAttribute("data-loading");
			tr.setAttribute("data-collapsed", "0");
			setTog(tog, true, p);
			remember(p, true);
			visible();
		}).catch(function () {
			window.location.href = tog.href;
		});
	}

	function toggle(tr, wantOpen) {
		var tog = tr.querySelector("a.tog");

		if (!tog)
			return;
		if (tr.getAttribute("data-collapsed") === "1") {
			if (wantOpen !== false) {
				setCollapsed(tr, false);
				remember(rowPath(tr), true);
			}
		} else if (isOpen(tr)) {
			if (wantOpen !== true) {
				setCollapsed(tr, true);
				remember(rowPath(tr), false);
			}
		} else if (wantOpen !== false) {
			expand(tr);
		}
	}

	/* The row's function id (its name's link, cmd=func&func=ID), or null. */
	function rowFunc(tr) {
		var a = tr.querySelector("td.tree a:not(.tog):not(.aux)");

		return a ? new URL(a.href, window.location.href)
		    .searchParams.get("func") : null;
	}

	/* This page with one more transform on t=, the tree from its root. */
	function pushT(item) {
		var q = window.location.search, t = getKey(q, "t");

		q = setKey(q, "t", (t === "" ? "1" : t) + "~" + item);
		return setKey(setKey(setKey(q, "path", null), "open", null),
		    "close", null);
	}

	var menuEl = null;

	function closeMenu(refocus) {
		if (!menuEl)
			return;
		var from = menuEl.from;

		menuEl.parentNode.removeChild(menuEl);
		menuEl = null;
		if (from) {
			from.setAttribute("aria-expanded", "false");
			if (refocus)
				from.focus();
		}
	}

	/*
	 * The row's menu under its "..." link: the transforms that need no
	 * more than the row's path and function, and the page that lists
	 * them all.
	 */
	function openMenu(tr, aux) {
		var p = rowPath(tr), f = rowFunc(tr), ul, items = [];

		closeMenu(false);
		if (p === null)
			return false;
		items.push(["Root here", aux.href]);
		items.push(["Focus on this node", pushT("fs-" + p)]);
		items.push(["Merge this node", pushT("mcn-" + p)]);
		if (f !== null) {
			items.push(["Focus on function", pushT("ff-" + f)]);
			items.push(["Merge function", pushT("mf-" + f)]);
			items.push(["Drop samples with function", pushT("df-" + f)]);
		}
		items.push(["Invert from here", pushT("fs-" + p + "~inv")]);
		items.push(["All transforms\u2026", aux.href]);
		menuEl = document.createElement("div");
		menuEl.className = "rowmenu";
		menuEl.from = aux;
		ul = document.createElement("ul");
		ul.setAttribute("role", "menu");
		ul.setAttribute("aria-label", "Transforms");
		items.forEach(function (it) {
			var li = document.createElement("li"), a;

			a = document.createElement("a");
			a.href = it[1];
			a.textContent = it[0];
			a.setAttribute("role", "menuitem");
			li.setAttribute("role", "none");
			li.appendChild(a);
			ul.appendChild(li);
		});
		menuEl.appendChild(ul);
		aux.parentNode.appendChild(menuEl);
		aux.setAttribute("aria-expanded", "true");
		ul.querySelector("a").focus();
		return true;
	}

	/*
	 * An "N more" row: the next of those children (up to 500), from
	 * the tree rooted at their parent one level deep, in its place; the
	 * server's own "more" row comes with them when some are left. On
	 * any failure the link is followed as without the script.
	 */
	function more(tr, a) {
		var d = depthOf(tr), parentPath, q, n, have = {}, count = 0;
		var prev = tr.previousElementSibling;

		if (tr.getAttribute("data-loading") === "1")
			return;
		parentPath = new URL(a.href, window.location.href)
		    .searchParams.get("path");
		for (; prev && depthOf(prev) >= d; prev = prev.previousElementSibling) {
			if (depthOf(prev) === d) {
				have[rowPath(prev)] = true;
				count++;
			}
		}
		n = parseInt(a.textContent.replace(/[^0-9]/g, ""), 10) || 0;
		tr.setAttribute("data-loading", "1");
		q = setKey(window.location.search, "path", parentPath || null);
		q = setKey(setKey(setKey(q, "open", null), "close", null),
		    "depth", "1");
		q = setKey(q, "budget", String(count + Math.min(n, 500) + 1));
		fetch(q, { credentials: "same-origin",
		    headers: { "Accept": "text/html" } }).then(function (r) {
			if (!r.ok)
				throw new Error("HTTP " + r.status);
			return r.text();
		}).then(function (html) {
			var doc = new DOMParser().parseFromString(html, "text/html");
			var got = doc.querySelectorAll("table#tree tbody tr"), i;

			for (i = 1; i < got.length; i++) {
				var row = document.importNode(got[i], true);
				var td = row.querySelector("td.tree");
				var nd = d - 1 + parseInt(td.getAttribute("data-depth"), 10);
				var ind = td.querySelector(".ind");
				var rp = rowPath(row), rt = row.querySelector("a.tog");

				if (rp !== null && have[rp])
					continue;
				td.setAttribute("data-depth", String(nd));
				if (!ind) {
					ind = document.createElement("span");
					ind.className = "ind";
					td.insertBefore(ind, td.firstChild);
				}
				ind.textContent = "\u00a0\u00a0".repeat(nd);
				if (rt && rp !== null)
					setTog(rt, false, rp);
				tr.parentNode.insertBefore(row, tr);
			}
			tr.parentNode.removeChild(tr);
			visible();
		}).catch(function () {
			window.location.href = a.href;
		});
	}

	function follow(tr) {
		var a = tr.querySelector("td a:not(.tog):not(.aux)");

		if (a)
			window.location.href = a.href;
	}

	document.addEventListener("click", function (ev) {
		var a = ev.target.closest ? ev.target.closest("a.tog") : null;
		var tr, aux, m;

		if (menuEl && !menuEl.contains(ev.target))
			closeMenu(false);
		if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0)
			return;
		aux = ev.target.closest ? ev.target.closest("td.tree a.aux") : null;
		if (aux) {
			if (openMenu(aux.closest("tr"), aux))
				ev.preventDefault();
			return;
		}
		m = ev.target.closest ? ev.target.closest("td[data-more] a") : null;
		if (m && window.fetch) {
			ev.preventDefault();
			more(m.closest("tr"), m);
			return;
		}
		if (!a)
			return;
		tr = a.closest("tr");
		if (tr) {
			ev.preventDefault();
			toggle(tr);
		}
	});

	document.addEventListener("keydown", function (ev) {
		var t = ev.target;

		if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented)
			return;
		/* A row's menu: Esc closes it, the arrows move in it. */
		if (menuEl && t && menuEl.contains(t)) {
			var its = Array.prototype.slice.call(
			    menuEl.querySelectorAll("a")), at = its.indexOf(t);

			if (ev.key === "Escape")
				closeMenu(true);
			else if (ev.key === "ArrowDown" || ev.key === "ArrowUp")
				its[(at + (ev.key === "ArrowDown" ? 1 : its.length - 1)) %
				    its.length].focus();
			else if (ev.key === "Tab")
				closeMenu(false);
			else
				return;
			if (ev.key !== "Tab")
				ev.preventDefault();
			return;
		}
		/* The flame graph and its card have keys of their own. */
		if (t && t.closest && t.closest("svg.flame, .flamecard"))
			return;
		if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" ||
		    t.tagName === "SELECT" || t.isContentEditable))
			return;
		switch (ev.key) {
		case "/":
			var search = document.querySelector(
			    "form.search input[type=search]");

			if (!search)
				return;
			search.focus();
			search.select();
			break;
		case "j":
		case "ArrowDown":
			select(sel + 1);
			break;
		case "k":
		case "ArrowUp":
			select(sel - 1);
			break;
		case "Enter":
			if (sel < 0)
				return;
			follow(rows[sel]);
			break;
		case "o":
		case "l":
		case "ArrowRight":
			if (sel < 0)
				return;
			toggle(rows[sel], ev.key === "o" ? undefined : true);
			break;
		case "h":
		case "ArrowLeft":
			if (sel < 0)
				return;
			toggle(rows[sel], false);
			break;
		case "m":
			var ma = sel >= 0 ? rows[sel].querySelector("td.tree a.aux") :
			    null;

			if (!ma || !openMenu(rows[sel], ma))
				return;
			break;
		case "u":
			window.history.back();
			break;
		default:
			return;
		}
		ev.preventDefault();
	});

	/*
	 * A flame graph page: flame.js (beside this script) makes it
	 * interactive; it is a module of its own so that other graphs
	 * (a flame chart on a time axis) can reuse it.
	 */
	var me = document.currentScript;
	if (document.querySelector("svg.flame") && me && me.src) {
		var fs = document.createElement("script");

		fs.src = me.src.replace(/deepq\.js(\?.*)?$/, "flame.js");
		document.body.appendChild(fs);
	}

	/*
	 * The summary's compare box: the base picked here from the list of
	 * profiles (cmd=index, which every front end answers), never typed.
	 * Without the script (or the list) its link opens the index's form
	 * with this profile chosen. The list is asked for on the link's
	 * click, not with every summary: a site that does not list its
	 * profiles answers 404, and the link's page says so.
	 */
	var pick = document.querySelector("form.compare a[data-profiles]");
	if (pick && window.fetch)
		pick.addEventListener("click", function (ev) {
			if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0)
				return;
			ev.preventDefault();
			pickList(pick);
		});

	function pickList(pick) {
		var cur = new URLSearchParams(window.location.search).get("file");

		fetch("?cmd=index&format=json", { credentials: "same-origin",
		    headers: { "Accept": "application/json" } }).then(function (r) {
			if (!r.ok)
				throw new Error("HTTP " + r.status);
			return r.json();
		}).then(function (j) {
			var names = (j.profiles || []).map(function (p) {
				return p.name;
			}).filter(function (n) { return n !== cur; });
			var box = pick.parentNode, lab, sel, o, raw, btn;

			if (names.length === 0)
				throw new Error("no other profile");
			lab = document.createElement("label");
			lab.appendChild(document.createTextNode(
			    "Compare with the base "));
			sel = document.createElement("select");
			sel.name = "base";
			sel.required = true;
			o = document.createElement("option");
			o.value = "";
			o.textContent = "choose a profile";
			sel.appendChild(o);
			names.forEach(function (n) {
				var op = document.createElement("option");

				op.value = n;
				op.textContent = n;
				sel.appendChild(op);
			});
			lab.appendChild(sel);
			raw = document.createElement("label");
			o = document.createElement("input");
			o.type = "checkbox";
			o.name = "normalize";
			o.value = "0";
			raw.appendChild(o);
			raw.appendChild(document.createTextNode(
			    " raw totals (not normalised)"));
			btn = document.createElement("button");
			btn.type = "submit";
			btn.textContent = "Compare";
			box.parentNode.replaceChild(lab, box);
			lab.parentNode.appendChild(document.createTextNode(" "));
			lab.parentNode.appendChild(raw);
			lab.parentNode.appendChild(document.createTextNode(" "));
			lab.parentNode.appendChild(btn);
		}).catch(function () {
			window.location.href = pick.href;
		});
	}

	visible();
	document.documentElement.classList.add("js");
	var keys = document.createElement("p");
	keys.id = "keys";
	keys.textContent = "Keys: j/k move, Enter opens, o toggles, " +
	    "h/l collapse/expand, m opens the row's menu, u goes back, " +
	    "/ searches.";
	var main = document.querySelector("main");
	if (main)
		main.appendChild(keys);
}());

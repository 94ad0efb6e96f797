/*
 * deepq: conveniences on top of pages that work without JavaScript.
 *
 *	j, k, arrows	move the selected row
 *	Enter		follow the selected row's link
 *	o, l, right	expand (or collapse) the selected tree row
 *	h, left		collapse the selected tree row
 *	u		go back
 *	/		focus the search field
 *
 * Collapsing a tree row that is open hides its descendants in place
 * (no request); expanding a closed one asks the server for the tree
 * rooted at it one level deep and puts those rows in place. Either way
 * the address becomes the page's link with that row opened or closed
 * (history.replaceState), so a reload or a bookmark shows the same
 * tree. Nothing from the page is ever evaluated: the script only reads
 * classes, data-depth and href attributes, and moves rows the server
 * made (escaped) from one document to the other.
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

	function follow(tr) {
		var a = tr.querySelector("td a:not(.tog):not(.aux)");

		if (a)
			window.location.href = a.href;
	}

	document.addEventListener("click", function (ev) {
		var a = ev.target.closest ? ev.target.closest("a.tog") : null;
		var tr;

		if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0)
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
	 * with this profile chosen.
	 */
	var pick = document.querySelector("form.compare a[data-profiles]");
	if (pick && window.fetch) {
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
				return;
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
		}).catch(function () {});
	}

	visible();
	document.documentElement.classList.add("js");
	var keys = document.createElement("p");
	keys.id = "keys";
	keys.textContent = "Keys: j/k move, Enter opens, o toggles, " +
	    "h/l collapse/expand, u goes back, / searches.";
	var main = document.querySelector("main");
	if (main)
		main.appendChild(keys);
}());

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
 * (no request); expanding a closed one follows its link, which asks the
 * server for the children. Nothing from the page is ever evaluated: the
 * script only reads classes, data-depth and href attributes.
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
		if (tog) {
			tog.textContent = collapsed ? "+" : "\u2212";
			tog.setAttribute("title", collapsed ? "expand" : "collapse");
		}
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

	function toggle(tr, wantOpen) {
		var tog = tr.querySelector("a.tog");

		if (!tog)
			return;
		if (tr.getAttribute("data-collapsed") === "1") {
			if (wantOpen !== false)
				setCollapsed(tr, false);
		} else if (isOpen(tr)) {
			if (wantOpen !== true)
				setCollapsed(tr, true);
		} else if (wantOpen !== false) {
			window.location.href = tog.href;
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
		if (tr && (isOpen(tr) || tr.getAttribute("data-collapsed") === "1")) {
			ev.preventDefault();
			toggle(tr);
		}
	});

	document.addEventListener("keydown", function (ev) {
		var t = ev.target;

		if (ev.ctrlKey || ev.metaKey || ev.altKey)
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

// The flame graph in the site, in the system's headless Chromium
// (playwright-core), against `deepq web` (tests/integration/
// browser-flame.sh). Prints TAP.
//
//   node flame.mjs URL OUTDIR
//
// Each part drives one promise of the flame page: any profile draws
// within the page budget (a V8 profile 3,000 frames deep: flame, icicle,
// inverted); the card at the pointer and its Zoom; the highlight and its
// share, kept across zooms; zoom and reset without a page load; the
// keyboard alone; a phone's viewport; a comparison normalised by default
// with its legend; the accessibility check (contrast of the theme
// colours in both themes, labels, roles). Then the pages around it:
// inverted trees of a call graph's profile and of one too large to
// invert whole (bounded, what it merged counted, a node opened with its
// real callers); a refused query's error page with the profile's
// header; the tree's rows (their menu of transforms at the row, "N more"
// expanded in place with its cost, caller sites by name); a comparison
// started without the script.

import path from "node:path";
import { chromium } from "playwright-core";

const [base, outdir] = process.argv.slice(2);
let n = 0, failed = 0;
const BUDGET_BYTES = 1024 * 1024, BUDGET_NODES = 10000;

function ok(cond, what, diag) {
	n++;
	console.log(`${cond ? "ok" : "not ok"} ${n} - ${what}`);
	if (!cond) {
		failed++;
		if (diag !== undefined)
			console.log(String(diag).split("\n").map(
			    (l) => "# " + l).join("\n"));
	}
	return cond;
}

function url(query) {
	return new URL(query, base).href;
}

function newPage(browser, errors, opts) {
	return browser.newPage(opts || { viewport:
	    { width: 1200, height: 900 } }).then((page) => {
		page.on("pageerror", (e) => errors.push(String(e)));
		page.on("console", (m) => { if (m.type() === "error")
			errors.push(m.text()); });
		return page;
	});
}

async function ready(page) {
	await page.waitForFunction(() => {
		const s = document.querySelector("svg.flame");
		return s && s.hasAttribute("data-ready");
	});
}

// Elements, and all nodes (text and comments too), of the page.
function weight(page) {
	return page.evaluate(() => {
		let all = 0;
		const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
		while (w.nextNode())
			all++;
		return { elements: document.getElementsByTagName("*").length,
		    all };
	});
}

// The deep profile's views answer 200 within the budget, frames merged
// and counted.
async function deep(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	for (const q of ["", "&style=icicle", "&t=1~inv", "&style=chart"]) {
		const r = await fetch(url(`?file=deep.cpuprofile&cmd=flame${q}`));
		const body = await r.text();
		ok(r.status === 200 && body.length <= BUDGET_BYTES,
		    `deep${q || " flame"}: 200, ${body.length} bytes`,
		    `${r.status} ${body.slice(0, 300)}`);
		await page.goto(url(`?file=deep.cpuprofile&cmd=flame${q}`));
		// A .cpuprofile records each sample's time: its flame chart
		// is the one on a time axis (render-timeline.c), not flame.js's.
		const timed = q === "&style=chart";
		if (timed)
			await page.waitForSelector("div.tl svg.chart");
		else
			await ready(page);
		const wt = await weight(page);
		const frames = await page.locator(timed ? "div.tl svg.chart a" :
		    "svg.flame a[role=treeitem]").count();
		ok(wt.all <= BUDGET_NODES && frames > 50,
		    `deep${q || " flame"}: ${frames} frames, ${wt.elements} ` +
		    `elements, ${wt.all} nodes`, JSON.stringify(wt));
		if (q === "") {
			const main = await page.textContent("main");
			ok(/\d+ more frames? merged/.test(main) &&
			    await page.locator("svg.flame a.cut").count() > 0,
			    "deep: what the page left out is counted, its " +
			    "frame marked", main.slice(0, 400));
			await page.screenshot({ path: path.join(outdir,
			    "flame-deep.png") });
		}
	}
	ok(errors.length === 0, "deep: no script errors", errors.join("\n"));
	await page.close();
}

// A frame of the page (not the root) whose subtree the page kept whole,
// at least minpx wide: its index among the frames.
function pickFrame(page, minpx) {
	return page.evaluate((min) => {
		const as = [...document.querySelectorAll(
		    "svg.flame a[role=treeitem]")];
		return as.findIndex((a) => a.__flame && a.__flame.depth >= 2 &&
		    !a.__flame.merged && a.__flame.kids.length > 0 &&
		    a.querySelector("rect").getBoundingClientRect().width >= min);
	}, minpx);
}

// Hover a frame: the card at the pointer; move onto its Zoom: the zoom
// is on that frame, in place. Highlight, zoom, reset.
async function pointer(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=workload-fp.folded&cmd=flame"));
	await ready(page);
	await page.evaluate(() => { window.__same = true; });
	const i = await pickFrame(page, 60);
	ok(i > 0, `pointer: a frame to hover (#${i})`);
	const frame = page.locator("svg.flame a[role=treeitem]").nth(i);
	const box = await frame.locator("rect").boundingBox();
	const px = box.x + 20, py = box.y + box.height / 2;
	await page.mouse.move(px, py);
	const card = page.locator(".flamecard");
	await card.waitFor({ state: "visible" });
	const name = await page.evaluate((k) => document.querySelectorAll(
	    "svg.flame a[role=treeitem]")[k].__flame.name, i);
	const cb = await card.boundingBox();
	// The pointer is within a few pixels of the card.
	const dx = Math.max(cb.x - px, 0, px - cb.x - cb.width);
	const dy = Math.max(cb.y - py, 0, py - cb.y - cb.height);
	ok(await card.locator("p.name").textContent() === name &&
	    dx <= 4 && dy <= 4,
	    `pointer: the card names ${name} at the pointer`,
	    JSON.stringify([cb, px, py]));
	const text = await card.textContent();
	ok(/Total.*%/.test(text) && /Self/.test(text) &&
	    ["Zoom", "Open function", "Source", "Focus on function",
	    "Merge function", "Drop function"].every((t) => text.includes(t)),
	    "pointer: figures with shares, and the frame's menu", text);
	await page.screenshot({ path: path.join(outdir, "flame-card.png") });
	// Onto the card's Zoom the way a hand goes: in steps.
	const zb = await card.getByRole("menuitem", { name: "Zoom" })
	    .boundingBox();
	await page.mouse.move(zb.x + zb.width / 2, zb.y + zb.height / 2,
	    { steps: 8 });
	await page.mouse.click(zb.x + zb.width / 2, zb.y + zb.height / 2);
	const want = await page.evaluate((k) => window.deepqFlame.path(
	    document.querySelectorAll("svg.flame a[role=treeitem]")[k].__flame),
	    i);
	const got = await page.getAttribute("svg.flame", "data-zoom");
	ok(got === want && await page.evaluate(() => window.__same === true),
	    `pointer: Zoom zooms on ${name}, in place`, `${got} != ${want}`);
	const zw = await frame.locator("rect").boundingBox();
	ok(zw.width > box.width * 1.2, "pointer: the frame is wider now",
	    `${zw.width} ${box.width}`);
	await page.mouse.move(5, 5);

	// Highlight: case-insensitive, its share; kept across a zoom.
	await page.click("button.reset");
	await page.fill(".flamebar input[type=search]", "QUICKSORT");
	const m1 = await page.textContent("output.matched");
	const nm = await page.locator("svg.flame a.match").count();
	await page.fill(".flamebar input[type=search]", "quicksort");
	const m2 = await page.textContent("output.matched");
	ok(/^Matched \d+\.\d+ % of all/.test(m1) && m1 === m2 && nm > 0,
	    `highlight: ${nm} frames, "${m1}", any case`, `${m1} / ${m2}`);
	const share = Number(await page.getAttribute("svg.flame",
	    "data-matched"));
	ok(share > 0 && share <= 1, `highlight: share ${share}`);
	const j = await pickFrame(page, 40);
	await page.locator("svg.flame a[role=treeitem]").nth(j)
	    .locator("rect").click();
	const m3 = await page.textContent("output.matched");
	ok(await page.locator("svg.flame a.match").count() === nm &&
	    /of all, \d+\.\d+ % of /.test(m3),
	    "highlight: kept across the zoom, with the zoom's share", m3);
	await page.screenshot({ path: path.join(outdir, "flame-zoom.png") });
	const crumbs = await page.locator(".flamecrumbs button").count();
	await page.click("button.reset");
	ok(crumbs >= 2 && await page.getAttribute("svg.flame", "data-zoom") ===
	    "" && await page.evaluate(() => window.__same === true),
	    `zoom: a breadcrumb of ${crumbs}, reset, no page load`);
	ok(errors.length === 0, "pointer: no script errors",
	    errors.join("\n"));
	await page.close();
}

// The keyboard alone: one tab stop into the graph, arrows, Enter zooms,
// M opens the menu, whose Open function opens the function's page.
async function keyboard(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=workload-fp.folded&cmd=flame"));
	await ready(page);
	await page.focus(".flamebar input[type=checkbox]");
	await page.keyboard.press("Tab");
	const inGraph = () => page.evaluate(() => {
		const a = document.activeElement;
		return a && a.closest && a.closest("svg.flame") ?
		    a.getAttribute("aria-level") : null;
	});
	const l0 = await inGraph();
	await page.keyboard.press("Tab");
	const after = await inGraph();
	ok(l0 === "1" && after === null,
	    "keyboard: one tab stop into the graph, at the root",
	    `${l0} ${after}`);
	await page.keyboard.press("Shift+Tab");
	await page.keyboard.press("ArrowUp");
	await page.keyboard.press("ArrowUp");
	const l2 = await inGraph();
	await page.keyboard.press("ArrowDown");
	const l1 = await inGraph();
	ok(l2 === "3" && l1 === "2", "keyboard: arrows move to a child and " +
	    "back to the parent", `${l2} ${l1}`);
	await page.keyboard.press("ArrowRight");
	await page.keyboard.press("ArrowLeft");
	await page.keyboard.press("ArrowUp");
	const name = await page.evaluate(() =>
	    document.activeElement.__flame.name);
	await page.evaluate(() => { window.__same = true; });
	await page.keyboard.press("Enter");
	const z = await page.getAttribute("svg.flame", "data-zoom");
	ok(z !== "" && await page.evaluate(() => window.__same === true),
	    `keyboard: Enter zooms on ${name} (${z})`);
	await page.keyboard.press("m");
	const item = await page.evaluate(() => document.activeElement
	    .textContent);
	ok(item === "Zoom", "keyboard: M opens the menu", item);
	for (let k = 0; k < 3; k++) {
		if (await page.evaluate(() => document.activeElement
		    .textContent) === "Open function")
			break;
		await page.keyboard.press("Tab");
	}
	await Promise.all([page.waitForURL(/cmd=func/),
	    page.keyboard.press("Enter")]);
	ok(/^Function /.test((await page.textContent("h1")).trim()),
	    "keyboard: Open function opens its page",
	    await page.textContent("h1"));
	ok(errors.length === 0, "keyboard: no script errors",
	    errors.join("\n"));
	await page.close();
}

// A phone: labels of 10 px or more, the graph scrolls sideways; with no
// script, the same.
async function phone(browser) {
	for (const js of [true, false]) {
		const errors = [];
		const page = await newPage(browser, errors, { viewport:
		    { width: 390, height: 844 }, javaScriptEnabled: js });
		await page.goto(url("?file=workload-fp.folded&cmd=flame"));
		if (js)
			await ready(page);
		const px = await page.evaluate(() => {
			const svg = document.querySelector("svg.flame");
			const t = svg.querySelector("text");
			const vb = svg.viewBox.baseVal.width;
			const scale = svg.getBoundingClientRect().width / vb;
			return parseFloat(getComputedStyle(t).fontSize) * scale;
		});
		const sc = await page.$eval(".flamescroll", (s) =>
		    [s.scrollWidth, s.clientWidth]);
		ok(px >= 10 && sc[0] > sc[1], `phone${js ? "" : ", no script"}: ` +
		    `labels ${px.toFixed(1)} px, scrolls sideways ` +
		    `(${sc[0]} in ${sc[1]})`);
		await page.screenshot({ path: path.join(outdir,
		    `flame-phone${js ? "" : "-nojs"}.png`) });
		ok(errors.length === 0, "phone: no script errors",
		    errors.join("\n"));
		await page.close();
	}
}

// Two profiles of different totals: normalised by default, the factor
// said, a switch to raw; the differential flame graph's legend and its
// card with both sides.
async function compare(browser) {
	const errors = [];
	const page = await newPage(browser, errors);
	const q = "?file=diff-new.folded&base=diff-old.folded";
	const j = await (await fetch(url(q + "&cmd=top&format=json"))).json();

	ok(j.comparison.normalize === true && j.comparison.scale === 1.75,
	    "compare: normalised by default in JSON (scale 1.75)",
	    JSON.stringify(j.comparison));
	await page.goto(url(q + "&cmd=top"));
	const main = await page.textContent("main");
	ok(/normalised to equal totals/.test(main) && /multiplied by 1\.75/
	    .test(main) && await page.locator("nav.switch a",
	    { hasText: "raw totals" }).count() === 1,
	    "compare: the page says so, the factor, a switch to raw",
	    main.slice(0, 500));
	await page.click("table#top thead a:has-text('\u0394 self')");
	await page.waitForLoadState("load");
	ok(new URL(page.url()).searchParams.get("sort") === "dself",
	    "compare: \u0394 self sorts", page.url());
	await page.goto(url(q + "&cmd=flame"));
	await ready(page);
	ok(await page.locator("p.legend").count() === 1 &&
	    /grew.*shrank/.test(await page.textContent("p.legend")),
	    "compare: the differential flame graph has a legend");
	const i = await page.evaluate(() => [...document.querySelectorAll(
	    "svg.flame a[role=treeitem]")].findIndex((a) =>
	    a.__flame.depth === 1));
	await page.locator("svg.flame a[role=treeitem]").nth(i)
	    .locator("rect").hover();
	const card = await page.locator(".flamecard").textContent();
	ok(/Base total/.test(card) && /\u0394/.test(card),
	    "compare: the card shows both sides and the change", card);
	await page.screenshot({ path: path.join(outdir, "flame-diff.png") });
	// The summary's compare box: the base from a list, asked for on
	// the link's click (no request with every summary).
	await page.goto(url("?file=diff-new.folded"));
	await page.click("form.compare a[data-profiles]");
	await page.waitForSelector("form.compare select[name=base]");
	const opts = await page.$$eval("form.compare select[name=base] option",
	    (os) => os.map((o) => o.value));
	ok(opts.includes("diff-old.folded") && !opts.includes("diff-new.folded"),
	    "compare: the summary's base is picked from the profiles",
	    opts.join(" "));
	ok(errors.length === 0, "compare: no script errors",
	    errors.join("\n"));
	await page.close();
}

// WCAG 2 contrast of two "rgb(r, g, b)" or "#rrggbb" colours.
function contrast(a, b) {
	const rgb = (c) => {
		c = c.trim();
		if (c.startsWith("#"))
			return [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));
		return c.match(/\d+/g).slice(0, 3).map(Number);
	};
	const lum = (c) => {
		const [r, g, bl] = rgb(c).map((v) => {
			v /= 255;
			return v <= 0.03928 ? v / 12.92 :
			    Math.pow((v + 0.055) / 1.055, 2.4);
		});
		return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
	};
	const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
	return (x + 0.05) / (y + 0.05);
}

// Theme colours of text on their grounds at AA (4.5:1) in both themes;
// every field labelled; the graph a tree of levelled items, a skip link;
// tree toggles with aria-expanded.
async function access(browser) {
	const errors = [];
	const page = await newPage(browser, errors);
	const pairs = [["--fg", "--bg"], ["--dim", "--bg"], ["--link", "--bg"],
	    ["--up", "--bg"], ["--down", "--bg"], ["--link", "--bar"],
	    ["--fg", "--bar"], ["--link", "--head"], ["--dim", "--alt"],
	    ["--link", "--alt"], ["--fg", "--sel"], ["--fg", "--heat"]];

	for (const scheme of ["light", "dark"]) {
		await page.emulateMedia({ colorScheme: scheme });
		await page.goto(url("?file=workload-fp.folded&cmd=flame"));
		const bad = await page.evaluate((ps) => {
			const cs = getComputedStyle(document.documentElement);
			return ps.map(([f, b]) => [f, b, cs.getPropertyValue(f),
			    cs.getPropertyValue(b)]);
		}, pairs);
		const low = bad.map(([f, b, cf, cb]) =>
		    [f, b, contrast(cf, cb)]).filter((r) => r[2] < 4.5);
		ok(low.length === 0, `access: theme colours at 4.5:1 or more ` +
		    `(${scheme})`, JSON.stringify(low));
	}
	await page.emulateMedia({ colorScheme: "light" });
	// Labels on frames: black text on every palette's fill.
	const fills = await page.$$eval("svg.flame rect", (rs) =>
	    rs.map((r) => getComputedStyle(r).fill));
	const dark = fills.filter((f) => contrast(f, "rgb(0, 0, 0)") < 4.5);
	ok(dark.length === 0, `access: frame labels readable on all ` +
	    `${fills.length} fills`, dark.slice(0, 5).join(" "));
	const roles = await page.evaluate(() => {
		const svg = document.querySelector("svg.flame");
		const items = [...svg.querySelectorAll("a")];
		return { role: svg.getAttribute("role"),
		    label: svg.getAttribute("aria-label"),
		    items: items.length,
		    treeitems: items.filter((a) =>
		    a.getAttribute("role") === "treeitem" &&
		    Number(a.getAttribute("aria-level")) >= 1).length,
		    tabstops: items.filter((a) => a.tabIndex >= 0).length,
		    skip: !!document.querySelector("a.skip[href='#flame-end']") &&
		    !!document.getElementById("flame-end") };
	});
	ok(roles.role === "tree" && roles.label && roles.items ===
	    roles.treeitems && roles.tabstops === 1 && roles.skip,
	    "access: the graph is a tree of levelled items, one tab stop, " +
	    "a skip link", JSON.stringify(roles));
	const unlabelled = await page.evaluate(() => [...document
	    .querySelectorAll("input:not([type=hidden]), select, button")]
	    .filter((e) => !(e.labels && e.labels.length) &&
	    !e.getAttribute("aria-label") && e.textContent.trim() === "")
	    .map((e) => e.outerHTML));
	ok(unlabelled.length === 0, "access: every field labelled",
	    unlabelled.join("\n"));
	await page.goto(url("?file=workload-fp.folded&cmd=tree"));
	const togs = await page.$$eval("a.tog", (as) => as.map((a) =>
	    a.getAttribute("aria-expanded")));
	ok(togs.length > 0 && togs.every((v) => v === "true" || v === "false"),
	    `access: ${togs.length} tree toggles with aria-expanded`,
	    togs.join(" "));
	ok(errors.length === 0, "access: no script errors", errors.join("\n"));
	await page.close();
}

// The answer to query once its profile is loaded: the first request of
// a large file starts its load in the background and answers 503 with
// a page that refreshes itself (Retry-After); a minute at most.
async function loaded(query) {
	let r;
	for (let i = 0; i < 120; i++) {
		r = await fetch(url(query));
		if (r.status !== 503 || !r.headers.get("retry-after"))
			return r;
		await r.text();
		await new Promise((res) => setTimeout(res, 500));
	}
	return r;
}

// Inverted trees: a CPython run under callgrind (135,000 call nodes, a
// call graph's estimated tree) and a generated profile whose inversion
// is bounded for the page: 200 within the budget, the bounded one's
// merged callers counted, a closed row opened in place with its real
// callers.
async function inverted(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	for (const f of ["cpython-json.callgrind.gz", "big.trace"]) {
		const tree = url(`?file=${f}&cmd=tree&t=1~inv`);
		let r = await loaded(tree);
		let body = await r.text();
		ok(r.status === 200 && body.length <= BUDGET_BYTES,
		    `inverted ${f}: the tree, 200, ${body.length} bytes`,
		    `${r.status} ${body.slice(0, 300)}`);
		r = await fetch(url(`?file=${f}&cmd=flame&t=1~inv`));
		body = await r.text();
		ok(r.status === 200 && body.length <= BUDGET_BYTES &&
		    (f !== "big.trace" ||
		    /more callers: \d+ stacks merged/.test(body)),
		    `inverted ${f}: the flame graph, 200, ${body.length} bytes` +
		    (f === "big.trace" ? ", the callers merged counted" : ""),
		    `${r.status} ${body.slice(0, 300)}`);
		await page.goto(tree);
		await page.evaluate(() => { window.__same = true; });
		const rows = page.locator("table#tree tbody tr");
		const before = await rows.count();
		const tr = rows.filter({ has: page.locator("a.tog[title=expand]") })
		    .first();
		const name = await tr.locator("td.tree a:not(.tog):not(.aux)")
		    .textContent();
		const d = parseInt(await tr.locator("td.tree")
		    .getAttribute("data-depth"), 10);
		await tr.locator("a.tog").click();
		await page.waitForFunction((b) => document.querySelectorAll(
		    "table#tree tbody tr").length > b, before);
		const kids = await tr.evaluate((row, depth) => {
			const out = [];
			for (let n = row.nextElementSibling; n; n = n.nextElementSibling) {
				const td = n.querySelector("td.tree");
				const nd = parseInt(td.getAttribute("data-depth"), 10);
				if (nd <= depth)
					break;
				if (nd === depth + 1)
					out.push(td.textContent.trim());
			}
			return out;
		}, d);
		ok(kids.length > 0 && kids.every((k) => !/more callers/.test(k)) &&
		    await page.evaluate(() => window.__same === true),
		    `inverted ${f}: ${name} opened in place, ${kids.length} ` +
		    "real callers", kids.join(" | "));
	}
	ok(errors.length === 0, "inverted: no script errors",
	    errors.join("\n"));
	await page.close();
}

// A query the front end refuses (400) keeps the profile's header: its
// links start again from the profile's pages.
async function refused(browser) {
	const errors = [];
	const page = await newPage(browser, errors);
	const r = await page.goto(url("?file=cliques.folded&cmd=top&limit=abc"));
	const nav = await page.$$eval("header nav a", (as) =>
	    as.map((a) => a.textContent));
	ok(r.status() === 400 && ["cliques.folded", "Top", "Tree", "Flame"]
	    .every((t) => nav.includes(t)) &&
	    await page.locator("form.search").count() === 1,
	    "refused: the 400 page keeps the profile's header", nav.join(" "));
	await Promise.all([page.waitForURL(/cmd=tree/),
	    page.click("header nav a:text-is('Tree')")]);
	ok((await page.textContent("h1")).trim() === "Call tree",
	    "refused: its Tree link opens the profile's tree");
	// Whatever the file, the index link is there.
	await page.goto(url("?file=nothere.folded&cmd=top&limit=abc"));
	ok(await page.locator("header nav a.home").count() === 1,
	    "refused: the index link is there whatever the file");
	// A 404 is an expected console error; only script errors count.
	ok(errors.filter((e) => !/status of 40[04]/.test(e)).length === 0,
	    "refused: no script errors", errors.join("\n"));
	await page.close();
}

// The tree's rows: each row's menu of transforms at the row (no page
// load, no scrolling), keyboard too; "N more" expanded in place with its
// cost shown; without the script the menu's link opens the tree rooted
// at the row with the transforms first; caller sites by name.
async function rows(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=cliques.folded&cmd=tree"));
	await page.evaluate(() => { window.__same = true; });
	const tr = page.locator("table#tree tbody tr", { hasText: "app`eval" })
	    .first();
	await tr.locator("a.aux").click();
	const menu = page.locator(".rowmenu");
	await menu.waitFor();
	const items = await menu.locator("a").allTextContents();
	const rb = await tr.boundingBox(), mb = await menu.boundingBox();
	ok(["Focus on this node", "Merge this node", "Focus on function",
	    "Drop samples with function", "Invert from here"]
	    .every((t) => items.includes(t)) &&
	    mb.y >= rb.y && mb.y <= rb.y + rb.height + 4 &&
	    mb.y + mb.height <= 900 &&
	    await page.evaluate(() => window.__same === true),
	    "rows: the row's menu opens at the row, its transforms in it",
	    `${items.join(", ")} at ${mb.y} (row ${rb.y})`);
	await page.keyboard.press("Escape");
	ok(await menu.count() === 0, "rows: Esc closes it");
	await page.keyboard.press("j");
	await page.keyboard.press("j");
	await page.keyboard.press("m");
	const focused = await page.evaluate(() => document.activeElement
	    .textContent);
	ok(focused === "Root here", "rows: m opens the selected row's menu",
	    focused);
	await page.keyboard.press("Escape");
	await tr.locator("a.aux").click();
	await Promise.all([page.waitForURL(/t=1~fs-/),
	    page.click(".rowmenu a:text-is('Invert from here')")]);
	const sp = new URL(page.url()).searchParams;
	ok(sp.get("t") === "1~fs-1,5~inv" &&
	    /Inverted/.test(await page.textContent("main")),
	    "rows: Invert from here inverts the row's subtree", page.url());

	// "N more": the cost of what it stands for, then those rows in place.
	await page.goto(url("?file=wide.folded&cmd=tree"));
	await page.evaluate(() => { window.__same = true; });
	const more = page.locator("table#tree td[data-more] a").first();
	const text = await more.textContent();
	const cost = await page.locator("table#tree tr:has(td[data-more])")
	    .first().locator("td.num").first().textContent();
	const href = await more.getAttribute("href");
	const before = await page.locator("table#tree tbody tr").count();
	await more.click();
	await page.waitForFunction((b) => document.querySelectorAll(
	    "table#tree tbody tr").length > b, before);
	const after = await page.locator("table#tree tbody tr").count();
	const names = await page.$$eval("table#tree td.tree",
	    (tds) => tds.map((td) => {
		const a = td.querySelector("a:not(.tog):not(.aux)");
		return a ? a.textContent : td.textContent.trim();
	    }));
	ok(/^\d+ more$/.test(text) && /^[\d,]+$/.test(cost.trim()) &&
	    /path=1,2/.test(href) && after >= before + parseInt(text, 10) - 1 &&
	    names.includes("f299") &&
	    new Set(names).size === names.length &&
	    await page.evaluate(() => window.__same === true),
	    `rows: "${text}" (${cost.trim()}) expanded in place, ` +
	    `${after - before} more rows`, `${before} -> ${after} ${href}`);

	// Caller sites by name, never by node id.
	await page.goto(url("?file=cliques.folded&cmd=callers&func=5&by=site"));
	const sites = await page.$$eval("table.report tbody tr td:first-child",
	    (tds) => tds.map((td) => td.textContent.trim()));
	ok(sites.some((t) => /via main \u203a eval/.test(t)) &&
	    sites.every((t) => !/\[[\d,]+\]/.test(t)),
	    "rows: caller sites by name", sites.join(" | "));
	ok(errors.length === 0, "rows: no script errors", errors.join("\n"));
	await page.close();

	// Without the script: the row's link opens the tree rooted at the
	// row, its transforms above the rows; the link shows on every row.
	const plain = await newPage(browser, errors, { viewport:
	    { width: 1200, height: 900 }, javaScriptEnabled: false });
	await plain.goto(url("?file=cliques.folded&cmd=tree"));
	const vis = await plain.$$eval("td.tree a.aux", (as) => as.map((a) =>
	    getComputedStyle(a).opacity));
	ok(vis.length > 3 && vis.every((o) => o === "1"),
	    `rows, no script: every row's menu link shows (${vis.length})`);
	await Promise.all([plain.waitForURL(/path=1,5/), plain.locator(
	    "table#tree tbody tr", { hasText: "app`eval" }).first()
	    .locator("a.aux").click()]);
	const ty = await plain.locator("a:text-is('focus on this node')")
	    .boundingBox();
	const tb = await plain.locator("table#tree").boundingBox();
	ok(ty !== null && ty.y < tb.y && ty.y < 900,
	    "rows, no script: the transforms come first, on the screen",
	    `${ty && ty.y} table ${tb.y}`);
	await plain.close();
}

// A comparison started without the script: the summary links to the
// index's form (common/profindex.c) with its profile chosen and a base
// of its format.
async function compareNoJs(browser) {
	const errors = [];
	const page = await newPage(browser, errors, { viewport:
	    { width: 1200, height: 900 }, javaScriptEnabled: false });

	await page.goto(url("?cmd=index"));
	const pair = await page.$$eval("form.compare select", (ss) =>
	    ss.map((s) => s.value));
	ok(pair.length === 2 && pair[0] !== pair[1],
	    "compare, no script: the index offers two different profiles",
	    pair.join(" "));
	await page.goto(url("?file=diff-new.folded&metric=samples"));
	ok(await page.locator("form.compare input[type=text]").count() === 0,
	    "compare, no script: no name to type");
	await Promise.all([page.waitForURL(/cmd=index/),
	    page.click("form.compare a[data-profiles]")]);
	const chosen = await page.$$eval("form.compare select", (ss) =>
	    ss.map((s) => s.value));
	ok(chosen[0] === "diff-new.folded" && chosen[1] !== "" &&
	    chosen[1] !== "diff-new.folded",
	    "compare, no script: the index's form, this profile chosen",
	    chosen.join(" "));
	await page.selectOption("form.compare select[name=base]",
	    "diff-old.folded");
	await Promise.all([page.waitForURL(/base=diff-old/),
	    page.click("form.compare button")]);
	ok(/Compared with diff-old\.folded \(normalised/.test(
	    await page.textContent("main")),
	    "compare, no script: the comparison, normalised", page.url());
	ok(errors.length === 0, "compare, no script: no errors",
	    errors.join("\n"));
	await page.close();
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--headless", "--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	const all = [deep, pointer, keyboard, phone, compare, access,
	    inverted, refused, rows, compareNoJs];
	const only = (process.env.FLAME_PARTS || "").split(",");
	for (const part of all.filter((p) => only[0] === "" ||
	    only.includes(p.name))) {
		try {
			await part(browser);
		} catch (e) {
			ok(false, `${part.name} finished`, e.stack);
		}
	}
} finally {
	await browser.close();
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);

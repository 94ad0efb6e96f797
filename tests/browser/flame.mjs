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
// colours in both themes, labels, roles).

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
		await ready(page);
		const wt = await weight(page);
		const frames = await page.locator("svg.flame a[role=treeitem]")
		    .count();
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
	// The summary's compare box: the base from a list.
	await page.goto(url("?file=diff-new.folded"));
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

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--headless", "--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	for (const part of [deep, pointer, keyboard, phone, compare, access]) {
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

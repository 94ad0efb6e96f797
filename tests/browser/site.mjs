// The site as a person browses it, in the system's headless Chromium
// (playwright-core), against `deepq web` or deepq.cgi under a web server
// (listing its profiles: index_entries), and their servers. Prints TAP
// (tests/integration/browser-site.sh runs it against both).
//
//   node site.mjs URL OUTDIR
//
// URL is what a query string is appended to: http://HOST:PORT/ for deepq
// web, http://HOST:PORT/cgi-bin/deepq.cgi for the CGI.
//
// Each part drives one thing a person does: follow every link from the
// summary pages, keep a transform while moving through the header, type
// a search and follow a result, expand the tree in place, switch the
// metric, start a comparison, press the shutdown button (and see a
// cross-site form refused), wait for a profile that loads.

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";

const [base, outdir] = process.argv.slice(2);
let n = 0, failed = 0;

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

// The profile index, which every page's "deepq" link opens.
const index = url("?cmd=index");
// A path under the program, which has no page (a 404).
const extra = base.endsWith("/") ? url("nothing/here") :
    base + "/nothing/here";

async function h1(page) {
	return (await page.textContent("h1")).trim();
}

async function clickAndWait(page, locator) {
	await Promise.all([page.waitForLoadState("load"), locator.click()]);
	await page.waitForLoadState("load");
}

function newPage(browser, errors, opts) {
	return browser.newPage(opts || { viewport:
	    { width: 1100, height: 800 } }).then((page) => {
		page.on("pageerror", (e) => errors.push(String(e)));
		page.on("console", (m) => { if (m.type() === "error" &&
		    !/status of 40[34]/.test(m.text()))
			errors.push(m.text()); });
		return page;
	});
}

// Every link of the summary pages of several profiles, followed breadth
// first (a budget of pages per profile), answers 200; the 404 page links
// to the index.
async function crawl(browser, profiles) {
	const seen = new Set(), bad = [];
	let pages = 0;

	for (const p of profiles) {
		const queue = [`?file=${encodeURIComponent(p)}`];

		if (p === "diff-new.folded")
			queue.push("?file=diff-new.folded&base=diff-old.folded");
		// SITE_CRAWL_BUDGET: pages per profile (browser-site.sh
		// gives the second front end fewer: the same engine answers).
		let budget = Number(process.env.SITE_CRAWL_BUDGET) || 120;

		while (queue.length > 0 && budget > 0) {
			const u = queue.shift();
			if (seen.has(u))
				continue;
			seen.add(u);
			budget--;
			pages++;
			const r = await fetch(url(u));
			const body = await r.text();
			if (r.status !== 200) {
				bad.push(`${r.status} ${u}`);
				continue;
			}
			if (!/^text\/html/.test(r.headers.get("content-type")))
				continue;
			for (const m of body.matchAll(/href="(\?[^"]*)"/g)) {
				const link = m[1].replaceAll("&amp;", "&");
				// Each profile's own pages, its index link too.
				if (!link.startsWith(
				    `?file=${encodeURIComponent(p)}`))
					continue;
				if (!seen.has(link))
					queue.push(link);
			}
		}
	}
	ok(bad.length === 0 && pages > 100,
	    `crawl: ${pages} pages of ${profiles.length} profiles, all 200`,
	    bad.join("\n"));

	const errors = [];
	const page = await newPage(browser, errors);
	for (const q of [extra, url("?file=nonexistent.folded"),
	    url("?file=firefox.folded&cmd=func&func=999999")]) {
		const r = await page.goto(q);
		const home = page.locator("header a.home");
		const what = q.slice(base.replace(/\/$/, "").length);
		ok(r.status() >= 400 && await home.count() === 1,
		    `error page ${what} (${r.status()}) has the index link`);
		await clickAndWait(page, home);
		ok(await h1(page) === "Profiles",
		    `error page ${what}: the link opens the index`,
		    await h1(page));
	}
	// From a report, the header's "deepq" opens the list of profiles,
	// and a name in it opens that profile's summary.
	await page.goto(url("?file=cliques.folded&cmd=tree&t=1~inv"));
	await clickAndWait(page, page.locator("header a.home"));
	const names = await page.$$eval("table#profiles tbody tr td:first-child",
	    (tds) => tds.map((td) => td.textContent));
	ok(await h1(page) === "Profiles" && names.length === profiles.length,
	    `home: the header's deepq lists ${names.length} profiles`,
	    page.url());
	await clickAndWait(page, page.locator("table#profiles a",
	    { hasText: "ghc-small.prof" }));
	ok(await h1(page) === "Summary" &&
	    new URL(page.url()).searchParams.get("file") === "ghc-small.prof",
	    "home: a name in the list opens its summary", page.url());
	ok(errors.length === 0, "home: no script errors", errors.join("\n"));
	await page.close();
}

// A transform applied from a function page stays on every header link,
// the state bar shows it and clears it.
async function state(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=cliques.folded&cmd=top"));
	await clickAndWait(page, page.getByRole("link",
	    { name: "app`eval", exact: true }));
	ok(await h1(page) === "Function eval", "state: the function page",
	    await h1(page));
	await clickAndWait(page, page.getByRole("link",
	    { name: "focus on function", exact: true }));
	const t = new URL(page.url()).searchParams.get("t");
	ok(t === "1~ff-5", "state: focus on function pushed t=1~ff-5",
	    page.url());
	const hrefs = await page.$$eval("header nav a:not(.home)", (as) =>
	    as.map((a) => a.href));
	ok(hrefs.length >= 5 && hrefs.every((h) =>
	    new URL(h).searchParams.get("t") === t),
	    `state: all ${hrefs.length} header links keep t=`,
	    hrefs.join("\n"));
	for (const name of ["Tree", "Modules", "Top"]) {
		await clickAndWait(page, page.locator("header nav a",
		    { hasText: name }));
		ok(new URL(page.url()).searchParams.get("t") === t &&
		    /Focus/.test(await page.textContent("nav.crumbs")),
		    `state: ${name} from the header keeps the transform`,
		    page.url());
	}
	const hidden = await page.$eval("form.search input[name=t]",
	    (i) => i.value);
	ok(hidden === t, "state: the search form carries t=", hidden);
	ok(/t=1~ff-5/.test(await page.textContent("nav.state")),
	    "state: the state bar shows t=");
	await clickAndWait(page, page.locator("nav.state a.clear"));
	ok(!new URL(page.url()).searchParams.has("t") &&
	    await page.locator("nav.state").count() === 0 &&
	    await h1(page) === "Top functions by total samples",
	    "state: clear all drops it, same report", page.url());
	ok(errors.length === 0, "state: no script errors", errors.join("\n"));
	await page.close();
}

// '/' focuses the search field; typing a name and Enter lists the
// matches; a result opens the function's page; the row's tree link
// opens the tree focused on it.
async function search(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=cliques.folded&cmd=tree"));
	await page.keyboard.press("/");
	ok(await page.evaluate(() => document.activeElement.type) ===
	    "search", "search: / focuses the search field");
	await page.keyboard.type("EVA");
	await Promise.all([page.waitForURL(/cmd=search/),
	    page.keyboard.press("Enter")]);
	await page.waitForLoadState("load");
	ok(await h1(page) === "Functions matching EVA",
	    "search: Enter opens the matches", await h1(page));
	const rows = await page.$$eval("table#search tbody tr",
	    (trs) => trs.map((tr) => tr.cells[0].textContent));
	ok(rows.length === 1 && rows[0] === "app`eval",
	    "search: a substring ignoring case finds eval",
	    JSON.stringify(rows));
	await clickAndWait(page, page.locator("table#search tbody tr").first()
	    .locator("td").first().locator("a"));
	ok(await h1(page) === "Function eval",
	    "search: the result opens its function page", await h1(page));
	ok(!new URL(page.url()).searchParams.has("find"),
	    "search: the function page drops find=", page.url());

	await page.goto(url("?file=cliques.folded&cmd=search&find=" +
	    encodeURIComponent("^(par|fa)")));
	const re = await page.$$eval("table#search tbody tr",
	    (trs) => trs.map((tr) => tr.cells[0].textContent).sort());
	ok(JSON.stringify(re) === JSON.stringify(["app`parse", "lib`fact"]),
	    "search: a regex", JSON.stringify(re));
	await clickAndWait(page, page.getByRole("link",
	    { name: "the call tree of the samples with them" }));
	ok(await h1(page) === "Call tree" &&
	    new URL(page.url()).searchParams.get("focus") === "^(par|fa)",
	    "search: the tree filtered on the matches", page.url());
	await page.screenshot({ path: path.join(outdir, "site-search.png"),
	    fullPage: true });
	ok(errors.length === 0, "search: no script errors", errors.join("\n"));
	await page.close();
}

// The rows of the tree table: [{depth, name, tog, hidden}].
function treeRows(page) {
	return page.$$eval("table#tree tbody tr", (trs) => trs.map((tr) => {
		const td = tr.querySelector("td.tree");
		const a = td.querySelector("a:not(.tog):not(.aux)");
		return { depth: Number(td.dataset.depth),
		    name: a ? a.textContent : td.textContent.trim(),
		    hidden: tr.classList.contains("hidden"),
		    tog: (td.querySelector(".tog") || {}).textContent };
	}));
}

// The first tree page opens the heavy path; "+" adds the children in
// place (no page load) and puts the state in the address, which a
// reload shows again; "-" collapses in place.
async function tree(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=ghc-small.prof&cmd=tree"));
	let rows = await treeRows(page);
	const hot = rows.find((r) => r.name === "Main`roundTrip");
	ok(hot && hot.depth === 4 && hot.tog === "\u2212" &&
	    rows.filter((r) => r.depth === 5).length === 8,
	    "tree: the heavy path is open down to roundTrip's children",
	    JSON.stringify(rows));

	await page.goto(url("?file=cliques.folded&cmd=tree"));
	rows = await treeRows(page);
	const i = rows.findIndex((r) => r.tog === "+");
	await page.evaluate(() => { window.__same = true; });
	await page.locator("table#tree tbody tr").nth(i).locator("a.tog")
	    .click();
	await page.waitForFunction((n) => document.querySelectorAll(
	    "table#tree tbody tr").length > n, rows.length);
	const after = await treeRows(page);
	ok(await page.evaluate(() => window.__same === true) &&
	    after.length > rows.length && after[i].tog === "\u2212" &&
	    after[i + 1].depth === rows[i].depth + 1,
	    `tree: + on ${rows[i].name} adds ${after.length - rows.length} ` +
	    "rows in place, no page load", JSON.stringify(after));
	const open = new URL(page.url()).searchParams.get("open");
	ok(open !== null && open !== "", "tree: the address has open=" + open,
	    page.url());
	await page.reload();
	const again = await treeRows(page);
	ok(JSON.stringify(again.map((r) => r.name)) ===
	    JSON.stringify(after.map((r) => r.name)),
	    "tree: a reload shows the same rows", JSON.stringify(again));
	await page.evaluate(() => { window.__same = true; });
	await page.locator("table#tree tbody tr").nth(i).locator("a.tog")
	    .click();
	const closed = await treeRows(page);
	ok(await page.evaluate(() => window.__same === true) &&
	    closed[i + 1].hidden && closed[i].tog === "+",
	    "tree: \u2212 collapses in place", JSON.stringify(closed));
	ok(errors.length === 0, "tree: no script errors", errors.join("\n"));
	await page.close();
}

// The flame graph in the site: the header's Flame link keeps the view,
// what is left out is counted, a frame's card opens its function's page
// and merges it.
async function flame(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=workload-fp.folded&cmd=top&metric=samples"));
	await clickAndWait(page, page.locator("header nav a",
	    { hasText: "Flame" }));
	ok(await h1(page) === "Flame graph of samples" &&
	    new URL(page.url()).searchParams.get("metric") === "samples",
	    "flame: the header opens the flame page, keeping metric=",
	    page.url());
	await page.goto(url("?file=workload-fp.folded&cmd=flame&" +
	    "minwidth=20"));
	const main = await page.textContent("main");
	const narrow = Number((/(\d+) subtrees? narrower/.exec(main) ||
	    [])[1]);
	ok(narrow > 0, `flame: ${narrow} subtrees left out are counted`,
	    main.slice(0, 300));
	for (const t of ["icicle graph", "inverted (callers above)"])
		ok(await page.getByRole("link", { name: t }).count() === 1,
		    `flame: a link to the ${t}`);
	// A frame's card (flame.js): its menu opens the function's page
	// and pushes the transforms (tests/browser/flame.mjs has the rest).
	await page.waitForSelector("svg.flame[data-ready]");
	const frame = page.locator("svg.flame a[href]").nth(2);
	const name = await frame.evaluate((a) => a.__flame.name);
	await frame.locator("rect").hover();
	const card = page.locator(".flamecard");
	await card.waitFor({ state: "visible" });
	ok((await card.textContent()).includes(name),
	    `flame: pointing at ${name} shows its card`);
	await page.screenshot({ path: path.join(outdir, "site-flame.png") });
	await clickAndWait(page, card.getByRole("menuitem",
	    { name: "Open function" }));
	ok(await h1(page) === `Function ${name}`,
	    "flame: the card's Open function opens its page", await h1(page));
	await page.goBack();
	await page.waitForSelector("svg.flame[data-ready]");
	await page.locator("svg.flame a[href]").nth(2).locator("rect")
	    .hover();
	await clickAndWait(page, page.locator(".flamecard").getByRole(
	    "menuitem", { name: "Merge function" }));
	ok(/~mf-\d+$/.test(new URL(page.url()).searchParams.get("t")) &&
	    /^Flame graph of .*1 transform/.test(await h1(page)),
	    `flame: merge ${name} pushes the transform`, page.url());
	await page.goto(url("?file=v8-small.cpuprofile&cmd=flame"));
	await clickAndWait(page, page.getByRole("link",
	    { name: "flame chart (time order)" }));
	// A .cpuprofile records each sample's time: its chart is drawn on
	// a time axis (report-chart.c), not by flame.js.
	await page.waitForSelector("div.tl svg.chart a");
	ok(/^Flame chart/.test(await h1(page)) &&
	    await page.locator("div.tl svg.chart a").count() > 0,
	    "flame: the flame chart, from its link", await h1(page));
	ok(errors.length === 0, "flame: no script errors", errors.join("\n"));
	await page.close();
}

// The metric switch of the tree page, kept by the header; a comparison
// started from the index's form, sorted from a column header, stopped.
async function controls(browser) {
	const errors = [];
	const page = await newPage(browser, errors);

	await page.goto(url("?file=ghc-small.prof&cmd=tree"));
	await clickAndWait(page, page.locator("nav.switch a",
	    { hasText: "alloc" }));
	ok(new URL(page.url()).searchParams.get("metric") === "alloc" &&
	    /chosen by alloc total/.test(await page.textContent("main")) &&
	    await page.textContent("nav.switch strong") === "alloc",
	    "controls: the tree switched to alloc", page.url());
	const hrefs = await page.$$eval("header nav a:not(.home)", (as) =>
	    as.map((a) => new URL(a.href).searchParams.get("metric")));
	ok(hrefs.every((m) => m === "alloc"),
	    "controls: the header keeps metric=alloc", hrefs.join(" "));
	await clickAndWait(page, page.locator("nav.switch a",
	    { hasText: "inverted (callers first)" }));
	ok(new URL(page.url()).searchParams.get("t") === "1~inv" &&
	    await page.textContent("nav[aria-label=View] strong") ===
	    "inverted tree", "controls: the tree links its inverted view",
	    page.url());
	await clickAndWait(page, page.locator("header nav a",
	    { hasText: "Flame" }));
	await clickAndWait(page, page.getByRole("link",
	    { name: "icicle graph" }));
	ok(await h1(page) === "Icicle graph of alloc, 1 transform",
	    "controls: ...its flame graph, then icicle", await h1(page));
	for (const q of ["cmd=top", "cmd=func&func=2", "cmd=flame"]) {
		await page.goto(url(`?file=ghc-small.prof&${q}`));
		ok(await page.locator("nav.switch a", { hasText: "entries" })
		    .count() === 1, `controls: ${q} has the metric switch`);
	}

	await page.goto(index);
	await page.selectOption("form.compare select[name=file]",
	    "diff-new.folded");
	await page.selectOption("form.compare select[name=base]",
	    "diff-old.folded");
	await clickAndWait(page, page.getByRole("button", { name: "Compare" }));
	const sp = new URL(page.url()).searchParams;
	ok(sp.get("file") === "diff-new.folded" &&
	    sp.get("base") === "diff-old.folded" &&
	    !sp.has("normalize") &&
	    /Compared with diff-old\.folded \(normalised/.test(
	    await page.textContent("main")),
	    "controls: the index's form starts a comparison", page.url());
	await clickAndWait(page, page.locator("table#top thead a",
	    { hasText: "Ratio" }));
	ok(new URL(page.url()).searchParams.get("sort") === "ratio" &&
	    /by ratio/.test(await h1(page)),
	    "controls: the Ratio header sorts by it", await h1(page));
	await page.screenshot({ path: path.join(outdir, "site-compare.png"),
	    fullPage: true });
	await page.goto(url("?file=diff-new.folded&metric=samples&limit=7"));
	// The list of profiles is asked for on the link's click (deepq.js).
	await page.click("form.compare a[data-profiles]");
	await page.waitForSelector("form.compare select[name=base]");
	await page.selectOption("form.compare select[name=base]",
	    "diff-old.folded");
	await clickAndWait(page, page.getByRole("button", { name: "Compare" }));
	const cp = new URL(page.url()).searchParams;
	ok(/Compared with diff-old\.folded \(normalised/.test(
	    await page.textContent("main")) && cp.get("sort") === "delta",
	    "controls: the summary's form starts a comparison", page.url());
	ok(cp.get("metric") === "samples" && cp.get("limit") === "7" &&
	    (await page.$$eval("table#top tbody tr", (t) => t.length)) <= 7,
	    "controls: ...keeping the view (metric=, limit=)", page.url());
	await clickAndWait(page, page.getByRole("link",
	    { name: "stop comparing" }));
	ok(!new URL(page.url()).searchParams.has("base") &&
	    !/Compared with/.test(await page.textContent("main")),
	    "controls: stop comparing", page.url());
	ok(errors.length === 0, "controls: no script errors",
	    errors.join("\n"));
	await page.close();
}

// Readable pages: no sideways scrolling at 400 px, a module path shown
// short with the whole path on hover, shares as bars, changes coloured,
// counts with separators and plurals, the flame graph SVG dark in a dark
// viewer.
async function readable(browser) {
	const errors = [];
	const page = await newPage(browser, errors,
	    { viewport: { width: 400, height: 800 } });
	const wide = [];

	for (const q of ["?file=jvm.folded&cmd=tree", "?file=jvm.folded&cmd=top",
	    "?file=workload-fp.folded&cmd=tree", "?file=ghc-small.prof",
	    "?file=diff-new.folded&base=diff-old.folded&cmd=top",
	    "?file=jvm.folded&cmd=func&func=2"]) {
		await page.goto(url(q));
		const w = await page.evaluate(() =>
		    document.documentElement.scrollWidth);
		if (w > 400)
			wide.push(`${q}: ${w} px`);
	}
	ok(wide.length === 0, "readable: no page wider than 400 px",
	    wide.join("\n"));
	await page.goto(url("?file=jvm.folded&cmd=tree"));
	await page.screenshot({ path: path.join(outdir, "site-narrow.png"),
	    fullPage: true });
	const mod = await page.$eval("td.tree span.mod", (s) =>
	    [s.textContent, s.title]);
	ok(mod[0] === "libjvm.so" &&
	    mod[1] === "/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so",
	    "readable: the module shown short, its path on hover",
	    JSON.stringify(mod));
	ok(await page.locator("td[data-h]").count() > 0 &&
	    await page.$eval("td[data-h]", (td) =>
	    getComputedStyle(td).backgroundImage) !== "none",
	    "readable: shares drawn as bars");
	await page.goto(url("?file=diff-new.folded&base=diff-old.folded&" +
	    "cmd=top"));
	const col = await page.$$eval("td[data-d]", (tds) => tds.map((td) =>
	    td.dataset.d + " " + getComputedStyle(td).color));
	ok(col.some((c) => /^up rgb\(179, 38, 30\)/.test(c)) &&
	    col.some((c) => /^down rgb\(27, 127, 59\)/.test(c)),
	    "readable: growth red, shrinkage green", col.join(", "));
	await page.goto(url("?file=workload-fp.folded"));
	ok(/call nodes/.test(await page.textContent("main")) &&
	    /\b1 module\b/.test(await page.textContent("main")) &&
	    /\d,\d{3}/.test(await page.textContent("table#metrics")),
	    "readable: counts with separators and plurals",
	    (await page.textContent("main")).slice(0, 200));
	await page.emulateMedia({ colorScheme: "dark" });
	await page.goto(url("?file=workload-fp.folded&cmd=flame&format=svg"));
	const ground = await page.$eval("#ground", (r) =>
	    getComputedStyle(r).fill);
	ok(ground === "rgb(22, 24, 27)", "readable: the SVG file is dark " +
	    "in a dark viewer", ground);
	await page.goto(url("?file=workload-fp.folded&cmd=flame"));
	ok(await page.evaluate(() => getComputedStyle(document.body.parentNode)
	    .backgroundColor) === "rgb(22, 24, 27)",
	    "readable: the flame page is dark too");
	await page.screenshot({ path: path.join(outdir, "site-dark.png") });
	ok(errors.length === 0, "readable: no script errors",
	    errors.join("\n"));
	await page.close();
}

// The status page's button shuts the server down in Chromium; the same
// form posted from another origin is refused.
async function shutdown(browser) {
	const errors = [];
	const target = url("?file=firefox.folded&cmd=shutdown");
	const evil = http.createServer((req, res) => {
		res.writeHead(200, { "Content-Type": "text/html" });
		res.end(`<!DOCTYPE html><form method="post" action="${target}">` +
		    `<button type="submit">win a prize</button></form>`);
	});
	await new Promise((r) => evil.listen(0, "127.0.0.2", r));
	const page = await newPage(browser, errors);

	// A query first: cmd=status starts no server and does not count as
	// use, so on a loaded machine the earlier parts can outlast the
	// server's idle timeout (60 s) and leave none to shut down.
	await (await fetch(url("?file=firefox.folded&cmd=top"))).text();
	const pid = (await (await fetch(url("?file=firefox.folded&" +
	    "cmd=status&format=json"))).json()).pid;
	await page.goto(`http://127.0.0.2:${evil.address().port}/`);
	const [resp] = await Promise.all([
	    page.waitForResponse((r) => r.url() === target),
	    page.locator("button").click()]);
	ok(resp.status() === 403, "shutdown: a cross-site form is refused",
	    resp.status());
	const st = await (await fetch(url("?file=firefox.folded&" +
	    "cmd=status&format=json"))).json();
	ok(pid > 0 && st.pid === pid, "shutdown: ...and the server still runs",
	    `${st.pid} ${pid}`);

	await page.goto(url("?file=firefox.folded&cmd=status"));
	// A loaded machine may first answer the page that waits for the
	// server and reloads itself: wait past it, and say what was shown.
	const button = page.getByRole("button",
	    { name: "Shut down this server" });
	try {
		await button.waitFor({ timeout: 120000 });
	} catch (e) {
		throw new Error(`no shutdown button on ${page.url()}: ` +
		    `${await h1(page)}: ` +
		    (await page.textContent("main")).slice(0, 300));
	}
	await clickAndWait(page, button);
	ok(await h1(page) === "Server stopped",
	    "shutdown: the button works in Chromium", await h1(page));
	await new Promise((r) => setTimeout(r, 500));
	const st2 = await (await fetch(url("?file=firefox.folded&" +
	    "cmd=status&format=json"))).json();
	ok(st2.pid !== st.pid, "shutdown: a new server answers next",
	    `${st2.pid} ${st.pid}`);
	evil.close();
	ok(errors.length === 0, "shutdown: no script errors",
	    errors.join("\n"));
	await page.close();
}

// A load held at the server's test hook (DEEPQ_TEST_HOOKS, when the
// build has them): the page shows the progress and reloads itself; let
// go, it turns into the page asked for.
async function loading(browser) {
	const hooks = process.env.DEEPQ_TEST_HOOKS;
	const hook = path.join(hooks, "pause-server-load");
	const errors = [];
	const page = await newPage(browser, errors);

	await fetch(url("?file=recursion.folded&cmd=shutdown"));
	await new Promise((r) => setTimeout(r, 500));
	fs.writeFileSync(hook, "");
	let r;
	try {
		r = await page.goto(url("?file=recursion.folded&cmd=top"));
	} finally {
		fs.rmSync(hook, { force: true });
	}
	ok(r.status() === 503 && await page.locator("progress#load")
	    .count() === 1 && /Read [0-9.]+ of [0-9.]+ MB/.test(
	    await page.textContent("main")),
	    "loading: the page shows how far the load is", r.status());
	for (const f of fs.readdirSync(hooks)) {
		if (f.startsWith("server-load."))
			try {
				process.kill(Number(f.slice(12)), "SIGCONT");
			} catch (e) {
				// Gone already.
			}
	}
	await page.waitForFunction(() => document.querySelector("h1") &&
	    /^Top functions/.test(document.querySelector("h1").textContent),
	    null, { timeout: 20000 });
	ok(new URL(page.url()).searchParams.get("cmd") === "top",
	    "loading: let go, it turns into the page asked for",
	    await h1(page));
	// The 503 of the loading page itself is no script error.
	const others = errors.filter((e) => !/status of 503/.test(e));
	ok(others.length === 0, "loading: no script errors",
	    others.join("\n"));
	await page.close();
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--headless", "--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	const list = await (await fetch(url("?cmd=index&format=json"))).json();
	const profiles = list.profiles.map((p) => p.name).sort();
	ok(profiles.length >= 4, `index: ${profiles.length} profiles`,
	    JSON.stringify(profiles));
	const parts = [crawl, state, search, tree, flame, controls,
	    readable, shutdown];
	if (process.env.DEEPQ_TEST_HOOKS)
		parts.push(loading);
	for (const part of parts) {
		try {
			await part(browser, profiles);
		} catch (e) {
			ok(false, `${part.name} finished`, e.stack);
		}
	}
} finally {
	await browser.close();
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);

// deepq in a real browser: the system's headless Chromium driven by
// playwright-core (no browser download). Prints TAP.
//
//   node browse.mjs DEEPQ WWWDIR DATADIR OUTDIR
//
// Pages come from pageUrl(). By default a tiny HTTP server here answers
// /p/PROFILE?QUERY with `deepq query --local --static-base /static/
// PROFILE QUERY` (the same answer_query() the CGI and server use) and
// serves www/ under /static/, with the headers the front ends send
// (Content-Security-Policy, X-Content-Type-Options). Set DEEPQ_CGI_URL
// (e.g. http://127.0.0.1:8080/cgi-bin/deepq.cgi) to drive the real CGI
// under a web server instead: pageUrl() is the one function to change.

import { spawn } from "node:child_process";
import { readFile, mkdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";

const [deepq, wwwdir, datadir, outdir] = process.argv.slice(2);
const CSP = "default-src 'none'; style-src 'self'; script-src 'self'; " +
    "img-src 'self'; connect-src 'self'; form-action 'self'; " +
    "base-uri 'none'; " +
    "frame-ancestors 'none'";
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

// The static stand-in for the CGI: one deepq query per request.
function answer(profile, query) {
	return new Promise((resolve) => {
		const p = spawn(deepq, ["query", "--local", "--static-base",
		    "/static/", path.join(datadir, profile), query],
		    { stdio: ["ignore", "pipe", "pipe"] });
		const out = [], err = [];
		p.stdout.on("data", (d) => out.push(d));
		p.stderr.on("data", (d) => err.push(d));
		p.on("close", (code) => resolve({ code,
		    body: Buffer.concat(out), err: Buffer.concat(err) }));
	});
}

function serve() {
	const server = http.createServer(async (req, res) => {
		const u = new URL(req.url, "http://127.0.0.1");
		const headers = { "Content-Security-Policy": CSP,
		    "X-Content-Type-Options": "nosniff" };
		if (u.pathname.startsWith("/static/")) {
			const name = path.basename(u.pathname);
			if (!/^(deepq\.(css|js)|favicon\.svg)$/.test(name)) {
				res.writeHead(404, headers);
				res.end();
				return;
			}
			headers["Content-Type"] = name.endsWith(".css") ?
			    "text/css" : name.endsWith(".svg") ?
			    "image/svg+xml" : "text/javascript";
			res.writeHead(200, headers);
			res.end(await readFile(path.join(wwwdir, name)));
			return;
		}
		const m = /^\/p\/([A-Za-z0-9._-]+)$/.exec(u.pathname);
		if (!m) {
			res.writeHead(404, headers);
			res.end();
			return;
		}
		const a = await answer(m[1], u.search.slice(1));
		headers["Content-Type"] = "text/html; charset=utf-8";
		res.writeHead(a.code === 0 ? 200 : 400, headers);
		res.end(a.code === 0 ? a.body : a.err);
	});
	return new Promise((resolve) => server.listen(0, "127.0.0.1",
	    () => resolve(server)));
}

let base;
function pageUrl(profile, query) {
	if (process.env.DEEPQ_CGI_URL)
		return `${process.env.DEEPQ_CGI_URL}?file=` +
		    `${encodeURIComponent(profile)}${query ? "&" + query : ""}`;
	return `${base}/p/${profile}${query ? "?" + query : ""}`;
}

async function h1(page) {
	return (await page.textContent("h1")).trim();
}

// The rows of the tree table: [{depth, name, text}].
async function treeRows(page) {
	return page.$$eval("table#tree tbody tr", (trs) => trs.map((tr) => {
		const td = tr.querySelector("td.tree");
		const a = td.querySelector("a:not(.tog):not(.aux)");
		return { depth: Number(td.dataset.depth),
		    name: a ? a.textContent : td.textContent.trim(),
		    hidden: tr.classList.contains("hidden"),
		    tog: (td.querySelector(".tog") || {}).textContent };
	}));
}

async function clickAndWait(page, locator) {
	await Promise.all([page.waitForLoadState("load"), locator.click()]);
	await page.waitForLoadState("load");
}

async function journey(browser) {
	const page = await browser.newPage({ viewport:
	    { width: 1100, height: 800 } });
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("console", (m) => { if (m.type() === "error")
	    errors.push(m.text()); });

	await page.goto(pageUrl("cliques.folded", ""));
	ok(await h1(page) === "Summary", "menu: the summary page opens",
	    await h1(page));
	const menu = await page.textContent("main");
	ok(/14 call nodes up to 6 deep, 9 functions, 2 modules, 2 recursive cliques/.test(menu),
	    "menu: counts of nodes and cliques shown", menu);
	for (const t of ["Call tree", "Modules", "Recursive cliques",
	    "by total samples", "Raw structures"])
		ok(await page.getByRole("link", { name: t, exact: true })
		    .count() > 0, `menu: links to "${t}"`);

	await clickAndWait(page, page.getByRole("link",
	    { name: "by total samples", exact: true }));
	ok(await h1(page) === "Top functions by total samples",
	    "top: followed from the menu", await h1(page));
	const top = await page.$$eval("table#top tbody tr", (trs) =>
	    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
	ok(top.length === 9 && top[0][0] === "app`main" &&
	    top[1][0] === "app`eval" && top[1][3] === "48",
	    "top: nine functions, main then eval with 48", JSON.stringify(top));

	await clickAndWait(page, page.locator("header nav a",
	    { hasText: "Tree" }));
	ok(await h1(page) === "Call tree", "tree: opened from the navigation");
	let rows = await treeRows(page);
	ok(rows.length === 9 && rows[3].name === "app`apply" &&
	    rows[3].tog === "+", "tree: nine rows, apply closed at depth 3",
	    JSON.stringify(rows));

	// Expand two levels below apply, in place (deepq.js fetches the
	// children): eval (depth 4), then apply (depth 5).
	await page.evaluate(() => { window.__same = true; });
	for (const [i, want] of [[3, 10], [4, 11]]) {
		await page.locator("table#tree tbody tr").nth(i)
		    .locator("a.tog").click();
		await page.waitForFunction((n) => document.querySelectorAll(
		    "table#tree tbody tr").length >= n, want);
	}
	rows = await treeRows(page);
	ok(rows[4] && rows[4].depth === 4 && rows[4].name === "app`eval",
	    "tree: first expansion shows eval at depth 4",
	    JSON.stringify(rows));
	ok(rows[5] && rows[5].depth === 5 && rows[5].name === "app`apply",
	    "tree: second expansion shows apply at depth 5",
	    JSON.stringify(rows));
	ok(await page.evaluate(() => window.__same === true),
	    "tree: expanded in place, no page load");
	ok(/open=1,5,6~1,5,6,5/.test(page.url()),
	    "tree: the URL holds both expansions", page.url());
	await page.reload();
	rows = await treeRows(page);
	ok(rows[5] && rows[5].depth === 5 && rows[5].name === "app`apply" &&
	    rows.length === 11, "tree: a reload shows the same tree",
	    JSON.stringify(rows));
	const treeUrl = page.url();
	await mkdir(outdir, { recursive: true });
	await page.screenshot({ path: path.join(outdir, "tree.png"),
	    fullPage: true });

	// deepq.js: collapsing an open row hides its subtree in place.
	await page.locator("table#tree tbody tr").nth(2).locator("a.tog")
	    .click();
	rows = await treeRows(page);
	ok(/close=1,5(&|$)/.test(page.url()) &&
	    rows.slice(3, 6).every((r) => r.hidden) &&
	    !rows[6].hidden, "js: collapsing eval hides its rows, no request",
	    JSON.stringify(rows) + page.url());
	await page.locator("table#tree tbody tr").nth(2).locator("a.tog")
	    .click();
	rows = await treeRows(page);
	ok(rows.every((r) => !r.hidden) && !/close=/.test(page.url()),
	    "js: expanding shows them again", page.url());
	await page.goto(treeUrl);
	// Keyboard: j moves to the second row, Enter opens its function.
	await page.keyboard.press("j");
	await page.keyboard.press("j");
	ok(await page.$eval("tr.sel", (tr) => tr.querySelector(
	    "a:not(.tog):not(.aux)").textContent) === "app`main",
	    "js: j selects the next row");

	// Open a function page from the tree, then go back.
	await clickAndWait(page, page.locator("table#tree tbody tr").nth(3)
	    .locator("a:not(.tog):not(.aux)"));
	ok(await h1(page) === "Function apply", "func: opened from the tree",
	    await h1(page));
	const callers = await page.$$eval("h2 + table tbody tr", (trs) =>
	    trs.map((tr) => tr.cells[0].textContent));
	ok(callers.includes("app`eval\u00a0recursive") ||
	    callers.some((c) => c.startsWith("app`eval")),
	    "func: eval among the callers", JSON.stringify(callers));
	await page.screenshot({ path: path.join(outdir, "func.png"),
	    fullPage: true });
	await page.goBack();
	await page.waitForLoadState("load");
	rows = await treeRows(page);
	ok(await h1(page) === "Call tree" && page.url() === treeUrl &&
	    rows[5] && rows[5].name === "app`apply",
	    "back: the expanded tree again", page.url());
	ok(errors.length === 0, "no script errors or CSP violations",
	    errors.join("\n"));
	await page.close();
}

// No name in xss.folded may run script, open a dialog or change the page.
async function xss(browser) {
	const page = await browser.newPage();
	const dialogs = [], errors = [];
	page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("console", (m) => { if (m.type() === "error")
	    errors.push(m.text()); });
	const queries = ["", "cmd=top&limit=1000", "cmd=tree&depth=50",
	    "cmd=modules", "cmd=cliques", "cmd=dump&limit=1000"];
	await mkdir(outdir, { recursive: true });
	await page.goto(pageUrl("xss.folded", "cmd=top&limit=1000"));
	await page.screenshot({ path: path.join(outdir, "xss-top.png"),
	    fullPage: true });
	const ids = await page.$$eval("table#top tbody a", (as) => as.map(
	    (a) => new URL(a.href).searchParams.get("func")));
	for (const id of ids)
		queries.push(`cmd=func&func=${id}`,
		    `cmd=callers&func=${id}&by=site`);
	let bad = [];
	for (const q of queries) {
		await page.goto(pageUrl("xss.folded", q));
		const r = await page.evaluate(() => ({
			title: document.title,
			h1: document.querySelector("h1").textContent,
			scripts: [...document.scripts].map((s) => s.src),
			imgs: document.images.length,
			pwned: window.__pwned === true ||
			    document.title === "pwned",
		}));
		if (r.pwned || r.imgs !== 0 || r.scripts.length !== 1 ||
		    !/\/static\/deepq\.js$/.test(r.scripts[0]) ||
		    !r.title.startsWith(r.h1.replace(/[\t\n\f\r ]+/g, " ").trim()))
			bad.push(`${q}: ${JSON.stringify(r)}`);
	}
	ok(ids.length >= 10, `xss: ${ids.length} hostile names listed`);
	ok(bad.length === 0, `xss: ${queries.length} pages, no injected ` +
	    "element, title intact", bad.join("\n"));
	ok(dialogs.length === 0, "xss: no alert() ran", dialogs.join("\n"));
	ok(errors.length === 0, "xss: no script errors", errors.join("\n"));
	await page.close();
}

const server = process.env.DEEPQ_CGI_URL ? null : await serve();
if (server)
	base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	await journey(browser);
	await xss(browser);
} catch (e) {
	ok(false, "browser run finished", e.stack);
} finally {
	await browser.close();
	if (server)
		server.close();
}
console.log(`1..${n}`);
console.log(`# screenshots in ${outdir}`);
process.exit(failed ? 1 : 0);

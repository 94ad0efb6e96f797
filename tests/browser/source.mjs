// cmd=source in a real browser: the system's headless Chromium driven by
// playwright-core, against `deepq web --source`. Prints TAP.
//
//   node source.mjs URL OUTDIR
//
// Top functions -> a function's page -> its source lines, landing at the
// hottest line (the page scrolled to it, marked by :target, without
// script); then a call line's callee link to the callee's lines, at its
// hottest line too. No script error or CSP violation on the way;
// screenshots go to OUTDIR/source-*.png.

import path from "node:path";
import { chromium } from "playwright-core";

const [url, outdir] = process.argv.slice(2);
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

async function clickAndWait(page, locator) {
	await Promise.all([page.waitForLoadState("load"), locator.click()]);
	await page.waitForLoadState("load");
}

// The line the page was opened at: its :target cell, its row's number
// and code, and whether it is on screen.
async function landed(page) {
	return page.evaluate(() => {
		const t = document.querySelector(":target");
		if (t === null)
			return null;
		const tr = t.closest("tr");
		const code = tr.querySelector("td.code");
		const r = t.getBoundingClientRect();
		return { id: t.id, line: t.textContent,
		    code: code ? code.textContent : "",
		    shaded: code ? code.dataset.h || "" : "",
		    visible: r.top >= 0 && r.bottom <= window.innerHeight,
		    scrolled: window.scrollY };
	});
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	const page = await browser.newPage({ viewport:
	    { width: 1100, height: 500 } });
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("console", (m) => { if (m.type() === "error")
	    errors.push(m.text()); });
	const h1 = async () => (await page.textContent("h1")).trim();

	await page.goto(new URL("?file=cpu.pb&cmd=top", url).href);
	ok(/^Top functions/.test(await h1()), "top: the table", await h1());
	const row = page.locator("table#top tbody tr",
	    { hasText: "main.recurse" });
	ok(await row.locator("a.aux", { hasText: "source" }).count() === 1,
	    "top: a function's row links to its source lines");
	await clickAndWait(page, row.locator("a:not(.aux)").first());
	ok(await h1() === "Function main.recurse",
	    "func: opened from the top table", await h1());

	await clickAndWait(page, page.getByRole("link",
	    { name: "its source lines", exact: true }));
	ok(await h1() === "Source lines of prog`main.recurse",
	    "source: opened from the function page", await h1());
	let at = await landed(page);
	ok(at !== null && at.id === "L47" && at.line === "47" &&
	    /return spin\(d\)/.test(at.code),
	    "source: landed at the hottest line, 47", JSON.stringify(at));
	ok(at !== null && at.visible && at.scrolled > 0,
	    "source: the hottest line on screen, the page scrolled to it",
	    JSON.stringify(at));
	const codes = await page.$$eval("td.code", (tds) => tds.length);
	ok(codes > 5, `source: the file's text shown (${codes} lines)`);
	await page.screenshot({ path: path.join(outdir, "source-recurse.png"),
	    fullPage: false });

	// A call line: its callee's lines, at the callee's hottest line.
	const call = page.locator("td.code a", { hasText: "main.spin" });
	ok(await call.count() === 1, "source: line 47's call to spin links",
	    await page.textContent("main"));
	await clickAndWait(page, call);
	ok(await h1() === "Source lines of prog`main.spin",
	    "source: the callee's lines", await h1());
	at = await landed(page);
	ok(at !== null && at.id === "L37" && /for i := 0; i < 1000/.test(
	    at.code) && at.shaded === "10" && at.visible,
	    "source: at the callee's hottest line, shaded the most",
	    JSON.stringify(at));
	await page.screenshot({ path: path.join(outdir, "source-spin.png"),
	    fullPage: false });
	ok(errors.length === 0, "no script errors or CSP violations",
	    errors.join("\n"));
} catch (e) {
	ok(false, "the browser journey", e.stack);
} finally {
	await browser.close();
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);

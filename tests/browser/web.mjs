// deepq web in a real browser: the system's headless Chromium driven by
// playwright-core. Prints TAP lines (tests/integration/web.sh counts).
//
//   node web.mjs URL OUTDIR
//
// Opens the index, clicks a profile, follows the nav to Top and Tree,
// asserting on the page text, with no script error or CSP violation;
// screenshots go to OUTDIR/web-*.png.

import path from "node:path";
import { chromium } from "playwright-core";

const [url, outdir] = process.argv.slice(2);
let n = 0;

function ok(cond, what, diag) {
	n++;
	console.log(`${cond ? "ok" : "not ok"} ${n} - ${what}`);
	if (!cond && diag !== undefined)
		console.log(String(diag).split("\n").map((l) => "# " + l)
		    .join("\n"));
}

async function clickAndWait(page, locator) {
	await Promise.all([page.waitForLoadState("load"), locator.click()]);
	await page.waitForLoadState("load");
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	const page = await browser.newPage({ viewport:
	    { width: 1100, height: 800 } });
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("console", (m) => { if (m.type() === "error")
	    errors.push(m.text()); });

	await page.goto(url);
	const h1 = async () => (await page.textContent("h1")).trim();
	ok(await h1() === "Profiles", "index: the Profiles page", await h1());
	const idx = await page.textContent("main");
	ok(/workload-fp\.folded/.test(idx) && /folded/.test(idx),
	    "index: lists workload-fp.folded and its format", idx);
	const css = await page.evaluate(() =>
	    getComputedStyle(document.body).fontFamily);
	ok(css !== "" && !/^Times/.test(css), "index: deepq.css applies", css);
	await page.screenshot({ path: path.join(outdir, "web-index.png"),
	    fullPage: true });

	await clickAndWait(page, page.getByRole("link",
	    { name: "workload-fp.folded", exact: true }));
	ok(/file=workload-fp\.folded/.test(page.url()),
	    "clicking the profile opens its pages", page.url());
	ok(await h1() === "Summary", "profile: the summary page", await h1());

	await clickAndWait(page, page.locator("header nav a",
	    { hasText: "Top" }));
	const top = await page.textContent("main");
	ok(/workload/.test(top) && /__libc_start_call_main/.test(top),
	    "top: functions of the profile shown", top.slice(0, 400));
	await page.screenshot({ path: path.join(outdir, "web-top.png"),
	    fullPage: true });

	await clickAndWait(page, page.locator("header nav a",
	    { hasText: "Tree" }));
	ok(await page.locator("table#tree tbody tr").count() > 0,
	    "tree: a call tree with rows");
	ok(/workload/.test(await page.textContent("table#tree")),
	    "tree: the root function shown");
	await page.screenshot({ path: path.join(outdir, "web-tree.png"),
	    fullPage: true });
	ok(errors.length === 0, "no script errors or CSP violations",
	    errors.join("\n"));
} catch (e) {
	ok(false, "the browser journey", e.stack);
} finally {
	await browser.close();
}

// The timeline as a person uses it, in the system's headless Chromium
// (playwright-core), against `deepq web`. Prints TAP
// (tests/integration/browser-timeline.sh runs it).
//
//   node timeline.mjs URL FILE OUTDIR
//
// Drag across the timeline's lanes: the page that opens has range= and
// its top functions are the range's (cmd=top&sort=self of the same range,
// as JSON); the tree and the flame graph keep the range, and the state
// bar clears it. A bucket of the ruler is a plain link to its range; a
// drag across the heat map's cells opens a range too; the flame chart
// zooms by a drag. No page has a script error or a policy violation.

import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const [base, file, outdir] = process.argv.slice(2);
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
	return new URL(`?file=${encodeURIComponent(file)}&${query}`, base).href;
}

// Drag across element el from fraction f0 to f1 of its width, and wait
// for the page it opens.
async function drag(page, el, f0, f1, fy) {
	const box = await el.boundingBox();
	const y = box.y + box.height * (fy === undefined ? 0.5 : fy);

	await page.mouse.move(box.x + box.width * f0, y);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * (f0 + f1) / 2, y,
	    { steps: 4 });
	await page.mouse.move(box.x + box.width * f1, y, { steps: 4 });
	await Promise.all([page.waitForNavigation(), page.mouse.up()]);
	await page.waitForLoadState("load");
}

function rangeOf(href) {
	return new URL(href).searchParams.get("range");
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--no-sandbox"],
});
const errors = [];
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
page.on("pageerror", (e) => errors.push(String(e)));
// Failed loads are told by their responses (a loading profile's 503
// is waited out; Chromium asks for a favicon.ico no page names).
page.on("console", (m) => { if (m.type() === "error" &&
    !/^Failed to load resource/.test(m.text())) errors.push(m.text()); });
page.on("response", (r) => { if (r.status() >= 400 && r.status() !== 503 &&
    !/favicon\.ico$/.test(r.url())) errors.push(`${r.status()} ${r.url()}`); });

// The page of a query, once its profile is loaded (a 503 until then).
async function open(query) {
	for (let i = 0; i < 120; i++) {
		const r = await page.goto(url(query));
		if (r.status() !== 503)
			return r;
		await page.waitForTimeout(500);
	}
	throw new Error(`${query}: still loading`);
}

try {
	await open("cmd=timeline");
	ok(await page.locator("div.tl svg.tl-g").count() > 0,
	    "the timeline has lanes");
	fs.mkdirSync(outdir, { recursive: true });
	await page.screenshot({ path: path.join(outdir, "timeline.png"),
	    fullPage: true });

	// A drag across the first lane, from a fifth to a half.
	await drag(page, page.locator("div.tl svg.tl-g").first(), 0.2, 0.5);
	const range = rangeOf(page.url());
	ok(range !== null && /^[0-9.]+,[0-9.]+$/.test(range),
	    `a drag opens the page of its range (range=${range})`);
	ok(/cmd=timeline/.test(page.url()), "...on the timeline");
	await page.screenshot({ path: path.join(outdir, "timeline-range.png"),
	    fullPage: true });

	// Its top functions are the range's: each one's self value as the
	// range's top says, in order, as many as have a value (at most 15).
	const rows = await page.$$eval("table#top tbody tr", (trs) =>
	    trs.map((tr) => [tr.cells[0].textContent.trim(),
	    tr.cells[1].textContent.trim().replace(/,/g, "")]));
	const top = await (await page.request.get(url(
	    `cmd=top&sort=self&limit=1000&format=json&range=${range}`))).json();
	const m = top.metric;
	const want = top.rows.filter((r) => r.self[m] > 0);
	const self = new Map(want.map((r) => [
	    (r.module ? r.module.replace(/.*\//, "") + "`" : "") + r.name,
	    String(r.self[m])]));
	ok(rows.length > 0 && rows.length === Math.min(15, want.length),
	    `the page lists the range's functions with a value (${rows.length})`,
	    JSON.stringify({ rows, want: want.length }));
	ok(rows.every(([name, v]) => self.get(name) === v),
	    "each with its self value in the range",
	    JSON.stringify(rows.filter(([name, v]) => self.get(name) !== v)));
	ok(rows.every((r, i) => i === 0 || Number(rows[i - 1][1]) >=
	    Number(r[1])), "heaviest first");

	// The tree and the flame graph keep the range; the state bar shows it.
	await Promise.all([page.waitForNavigation(),
	    page.click("header nav a:text-is('Tree')")]);
	ok(rangeOf(page.url()) === range, "the tree keeps range=");
	ok(await page.locator(`nav.state code:text-is('range=${range}')`)
	    .count() === 1, "the state bar shows it");
	await Promise.all([page.waitForNavigation(),
	    page.click("header nav a:text-is('Flame')")]);
	ok(rangeOf(page.url()) === range, "the flame graph keeps range=");
	ok(await page.locator("svg.flame").count() === 1, "...and draws");

	// Cleared from the state bar.
	await Promise.all([page.waitForNavigation(), page.click(
	    "nav.state a[title='drop range=']")]);
	ok(rangeOf(page.url()) === null && /cmd=flame/.test(page.url()),
	    "the state bar's × drops range=, on the same page");

	// A ruler bucket: a plain link to its range.
	await open("cmd=timeline");
	const href = await page.locator("svg.tl-ruler a").nth(10)
	    .getAttribute("href");
	ok(rangeOf(new URL(href, page.url()).href) !== null,
	    "a ruler bucket links to its range");

	// The heat map: a drag across cells.
	await open("cmd=heatmap");
	const hm = page.locator("svg.hm-g");
	if (await hm.count() === 1) {
		await page.screenshot({ path: path.join(outdir, "heatmap.png"),
		    fullPage: true });
		await drag(page, hm, 0.1, 0.4, 0.5);
		ok(rangeOf(page.url()) !== null,
		    `a drag across the heat map opens its range (${rangeOf(page.url())})`);
	} else
		ok(false, "the heat map is drawn");

	// The flame chart: a drag zooms in.
	await open("cmd=flame&style=chart");
	await page.screenshot({ path: path.join(outdir, "chart.png"),
	    fullPage: true });
	await drag(page, page.locator("div.tl svg.chart").first(), 0.3, 0.6,
	    0.05);
	ok(rangeOf(page.url()) !== null && /style=chart/.test(page.url()),
	    "a drag across the flame chart zooms it");
} catch (e) {
	ok(false, "the walk through the timeline", e.stack);
}
ok(errors.length === 0, "no script errors or policy violations",
    errors.join("\n"));
await browser.close();
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);

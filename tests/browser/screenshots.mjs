// The README's screenshots, in the system's headless Chromium
// (playwright-core) from a running `deepq web` over tests/data:
//
//   node screenshots.mjs URL OUTDIR
//
// tests/browser/screenshots.sh starts deepq web and runs this into
// www/screenshots/.

import path from "node:path";
import { chromium } from "playwright-core";

const [base, outdir] = process.argv.slice(2);
const shots = [
	["menu", "?file=workload-fp.folded", {}],
	["top", "?file=workload-fp.folded&cmd=top&limit=20", {}],
	["tree", "?file=ghc-small.prof&cmd=tree", {}],
	["flame", "?file=workload-fp.folded&cmd=flame&minwidth=2", {}],
	["search", "?file=workload-fp.folded&cmd=search&find=sort", {}],
	["compare", "?file=diff-new.folded&base=diff-old.folded&cmd=top&" +
	    "sort=delta", {}],
	["narrow", "?file=jvm.folded&cmd=tree",
	    { width: 400, dark: true }],
	["index", "?cmd=index", {}],
	["source", "?file=cpu.pb&cmd=source&func=main.spin#L37", {}],
	["timeline", "?file=chromium-startup.json.xz&cmd=timeline", {}],
	["heatmap", "?file=chromium-startup.json.xz&cmd=heatmap", {}],
	["chart", "?file=firefox-gecko.json&cmd=flame&style=chart", {}],
];

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--headless", "--no-sandbox", "--disable-gpu",
	    "--disable-background-networking", "--disable-component-update",
	    "--disable-sync", "--no-first-run"],
});
try {
	for (const [name, q, o] of shots) {
		const page = await browser.newPage({ viewport:
		    { width: o.width || 1000, height: 700 } });
		if (o.dark)
			await page.emulateMedia({ colorScheme: "dark" });
		await page.goto(new URL(q, base).href);
		if (name === "flame") {
			await page.waitForSelector("svg.flame[data-ready]");
			await page.locator("svg.flame a[href]").nth(3)
			    .locator("rect").hover();
			await page.waitForSelector(".flamecard",
			    { state: "visible" });
		}
		await page.screenshot({ path: path.join(outdir, `${name}.png`),
		    fullPage: o.width !== undefined });
		await page.close();
		console.log(`${name}.png: ${q}`);
	}
} finally {
	await browser.close();
}

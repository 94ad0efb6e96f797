// open.mjs CHROMIUM PLAYWRIGHT RELEASE FILE...: opens each speedscope
// FILE in speedscope's own page (RELEASE, its npm package's
// dist/release) in headless Chromium, driven by playwright-core
// (PLAYWRIGHT, the path of its package). The files are served by the
// page's request routing from a made-up origin, so no server runs.
// Prints, tab-separated, per file: "FILE profile NAME WEIGHT" for each
// profile speedscope lists (only when there are several) with its total
// weight as speedscope shows it ("607.34 KB", "1,164"), and "FILE func
// NAME TOTAL SELF" for each row its sandwich view draws of the first
// profile ("160 (100%)"); "FILE error ..." if nothing was shown.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [chromium, playwright, release, ...files] = process.argv.slice(2);
const { chromium: pw } = await import(join(playwright, 'index.mjs'));
const origin = 'http://speedscope.invalid';
const browser = await pw.launch({ executablePath: chromium,
    args: ['--no-sandbox'] });
let status = 0;
try {
	for (const file of files) {
		const page = await browser.newPage();
		await page.route(origin + '/**', (route) => {
			const path = new URL(route.request().url()).pathname;
			const body = path === '/profile.json' ? readFileSync(file) :
			    readFileSync(join(release, path.slice(1)));
			const type = path.endsWith('.html') ? 'text/html' :
			    path.endsWith('.js') ? 'text/javascript' :
			    path.endsWith('.css') ? 'text/css' :
			    'application/octet-stream';
			route.fulfill({ status: 200, body, contentType: type });
		});
		await page.goto(origin + '/index.html#profileURL=' + origin +
		    '/profile.json&view=sandwich');
		// The sandwich table (total, self, name), and the profile
		// list (index, name, total weight) when there are several.
		const rows = await page.waitForFunction(() => {
			const r = [...document.querySelectorAll('tr')]
			    .map((tr) => [tr.hasAttribute('title') ? 'profile' :
			    'func', ...[...tr.querySelectorAll('td')]
			    .map((td) => td.textContent.trim())]);
			return r.some((x) => x[0] === 'func' && x.length === 4) ?
			    r : null;
		}, null, { timeout: 20000 }).then((h) => h.jsonValue())
		    .catch(() => null);
		if (rows === null) {
			console.log(`${file}\terror\tnothing shown`);
			status = 1;
		} else {
			for (const r of rows) {
				if (r[0] === 'profile' && r.length === 4)
					console.log(`${file}\tprofile\t${r[2]}\t${r[3]}`);
				else if (r[0] === 'func' && r.length === 4)
					console.log(`${file}\tfunc\t${r[3]}\t${r[1]}\t${r[2]}`);
			}
		}
		await page.close();
	}
} finally {
	await browser.close();
}
process.exit(status);

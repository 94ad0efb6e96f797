// speedscope-import.mjs CHROMIUM PLAYWRIGHT RELEASE TIMEOUT FILE...: the
// peer of bench/json-big.sh. Opens each FILE in speedscope's own page
// (RELEASE, its npm package's dist/release) in headless Chromium, driven
// by playwright-core (PLAYWRIGHT), as a user drops a file there, and
// times it from the page's request until its sandwich view shows rows:
// fetching, parsing and importing the profile, as a user waits for it.
// The page and the file come from a server of this script on a loopback
// port (a 250 MB body is too much for Playwright's request routing).
// While it waits, the resident memory of Chromium's processes (every
// descendant of this script, summed) is read every 100 ms from /proc.
// Prints per file, tab-separated: "FILE ok SECONDS PEAK_MIB" or "FILE
// failed SECONDS PEAK_MIB REASON" (the page crashed, as out of memory,
// or nothing was shown within TIMEOUT seconds).
import { createReadStream, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [chromium, playwright, release, timeout, ...files] =
    process.argv.slice(2);
const { chromium: pw } = await import(join(playwright, 'index.mjs'));

// rssTree: KiB resident in the processes descended from this one.
function rssTree() {
	const parent = new Map();
	const rss = new Map();
	for (const d of readdirSync('/proc')) {
		if (!/^[0-9]+$/.test(d))
			continue;
		try {
			const st = readFileSync(`/proc/${d}/stat`, 'utf8');
			const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
			parent.set(d, f[1]);
			const m = /VmRSS:\s+(\d+)/.exec(readFileSync(
			    `/proc/${d}/status`, 'utf8'));
			rss.set(d, m ? Number(m[1]) : 0);
		} catch {
			// Gone meanwhile.
		}
	}
	const me = String(process.pid);
	let sum = 0;
	for (const [p] of rss) {
		let q = parent.get(p);
		for (let i = 0; q && q !== '0' && i < 64; i++) {
			if (q === me) {
				sum += rss.get(p);
				break;
			}
			q = parent.get(q);
		}
	}
	return sum;
}

let current = null;
const server = createServer((req, res) => {
	const path = new URL(req.url, 'http://x').pathname;
	const file = path === '/profile.json' ? current :
	    join(release, path.slice(1).replace(/\.\.+/g, ''));
	let size;
	try {
		size = statSync(file).size;
	} catch {
		res.writeHead(404);
		res.end();
		return;
	}
	const type = path.endsWith('.html') ? 'text/html' :
	    path.endsWith('.js') ? 'text/javascript' :
	    path.endsWith('.css') ? 'text/css' :
	    path.endsWith('.wasm') ? 'application/wasm' :
	    'application/octet-stream';
	res.writeHead(200, { 'Content-Type': type, 'Content-Length': size });
	createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await pw.launch({ executablePath: chromium,
    args: ['--no-sandbox', '--disable-gpu',
    '--disable-background-networking'] });
try {
	for (const file of files) {
		current = file;
		const page = await browser.newPage();
		let peak = 0;
		const sampler = setInterval(() => {
			peak = Math.max(peak, rssTree());
		}, 100);
		let crashed = false;
		page.on('crash', () => { crashed = true; });
		// speedscope says "Unrecognized format!" in an alert.
		const dialog = new Promise((ok) => page.on('dialog', (d) => {
			ok(`speedscope: ${d.message()}`);
			d.dismiss().catch(() => {});
		}));
		const t0 = Date.now();
		let why = null;
		try {
			await page.goto(origin + '/index.html#profileURL=' +
			    origin + '/profile.json&view=sandwich');
			// Rows, or speedscope's own error (an alert, or
			// "Something went wrong." in the page).
			const shown = page.waitForFunction(() =>
			    [...document.querySelectorAll('tr')].some((tr) =>
			    tr.querySelectorAll('td').length === 3) ? 'ok' :
			    /Something went wrong/.exec(
			    document.body.innerText)?.[0], null,
			    { timeout: Number(timeout) * 1000, polling: 200 })
			    .then((h) => h.jsonValue());
			// The page's own poll cannot time out while the
			// import holds its thread: a timer here does.
			let timer;
			const late = new Promise((ok) => {
				timer = setTimeout(() => ok('nothing shown ' +
				    `within ${timeout} s`), Number(timeout) * 1000);
			});
			const r = await Promise.race([shown, dialog, late]);
			clearTimeout(timer);
			if (r !== 'ok')
				why = r.startsWith('speedscope:') ||
				    r.startsWith('nothing') ? r : `speedscope: ${r}`;
		} catch (e) {
			why = crashed ? 'the page crashed (out of memory)' :
			    String(e.message).split('\n')[0];
		}
		const secs = ((Date.now() - t0) / 1000).toFixed(2);
		clearInterval(sampler);
		peak = Math.max(peak, rssTree());
		const mib = Math.round(peak / 1024);
		console.log(why === null ? `${file}\tok\t${secs}\t${mib}` :
		    `${file}\tfailed\t${secs}\t${mib}\t${why}`);
		await page.close().catch(() => {});
	}
} finally {
	await browser.close();
	server.close();
}

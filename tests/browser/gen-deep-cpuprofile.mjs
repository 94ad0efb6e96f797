// A V8 .cpuprofile ~DEPTH frames deep, the shape `node --cpu-prof` writes
// for a deep recursion (newer V8s keep thousands of frames; this one is
// written directly so that the test needs no particular node): main
// calls rec DEPTH times down, every 100 levels a side call to work.
//
//   node gen-deep-cpuprofile.mjs DEPTH > deep.cpuprofile

const depth = Number(process.argv[2] || 3000);
const frame = (name, line) => ({ functionName: name, scriptId: "1",
    url: "file:///rec.js", lineNumber: line, columnNumber: 4 });
const nodes = [{ id: 1, callFrame: { functionName: "(root)", scriptId: "0",
    url: "", lineNumber: -1, columnNumber: -1 }, hitCount: 0,
    children: [2] }, { id: 2, callFrame: frame("main", 1), hitCount: 1,
    children: [] }];
const samples = [2];
let prev = nodes[1], id = 2;

for (let d = 0; d < depth; d++) {
	const n = { id: ++id, callFrame: frame("rec", 3), hitCount: 1,
	    children: [] };
	prev.children.push(n.id);
	nodes.push(n);
	samples.push(n.id);
	if (d % 100 === 0) {
		const s = { id: ++id, callFrame: frame(`work${d}`, 9),
		    hitCount: 3, children: [] };
		n.children.push(s.id);
		nodes.push(s);
		samples.push(s.id, s.id, s.id);
	}
	prev = n;
}
process.stdout.write(JSON.stringify({ nodes, startTime: 0,
    endTime: 100 * samples.length, samples,
    timeDeltas: samples.map(() => 100) }));

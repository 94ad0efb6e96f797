#!/usr/bin/env python3
# gen-big-json.py FORMAT MB: write a JSON profile of about MB megabytes
# (10^6 bytes) to standard output, streamed (the generator's memory does
# not grow with MB), for bench/json-big.sh and
# tests/integration/json-memory.sh. One random call tree (fixed seed):
# 3000 functions with names of 20-40 bytes in 97 files, 2000 stacks 5-40
# frames deep, samples picking stacks at random; standard error says how
# many bytes and samples (those of the sampled formats) were written.
# FORMAT:
#   chrome              a DevTools trace: thread metadata, nested X slices
#                       on the main thread interleaved with a Profile and
#                       its ProfileChunks (nodes in the first chunk, 100
#                       samples a chunk), as Chrome's Performance panel
#                       saves; half the bytes each
#   chrome-events       X slices only (the trace-event reading)
#   speedscope-sampled  one sampled profile, shared frames after it
#   speedscope-evented  one evented profile (open/close events)
#   gecko               a Gecko profile whose thread writes its samples
#                       before its stack, frame and string tables, as
#                       Firefox does
import random, sys

fmt, mb = sys.argv[1], float(sys.argv[2])
target = int(mb * 1e6)
rnd = random.Random(34)
out = sys.stdout
nfuncs = 3000
parts = ['render', 'layout', 'paint', 'parse', 'dispatch', 'handle', 'Node',
    'Element', 'Style', 'update', 'compute', 'Frame', 'Scheduler', 'run']
funcs = []
for i in range(nfuncs):
    n, want = '', rnd.randrange(20, 41)
    while len(n) + 6 < want:
        n += rnd.choice(parts)
    funcs.append(('%s_%d' % (n, i))[:want])
files = ['https://example.com/static/mod%d.js' % (i % 97)
    for i in range(nfuncs)]
stacks = []
for _ in range(2000):
    d = rnd.randrange(5, 41)
    stacks.append([rnd.randrange(nfuncs) if i else 0 for i in range(d)])

written, nsamples = 0, 0
def w(s):
    global written
    written += len(s)
    out.write(s)

def q(s):
    return '"' + s + '"'

# The V8 node tree of the stacks: node ids, parents, each stack's leaf.
nodes, ids = [(1, 0, -1)], {}
def node_of(stack):
    parent, key = 1, ()
    for f in stack:
        key = key + (f,)
        if key not in ids:
            ids[key] = len(nodes) + 1
            nodes.append((ids[key], parent, f))
        parent = ids[key]
    return parent
leaf = [node_of(s) for s in stacks]

def v8node(n):
    nid, parent, f = n
    if f < 0:
        cf = '{"functionName":"(root)","url":"","scriptId":"0",' \
            '"lineNumber":-1,"columnNumber":-1}'
    else:
        cf = '{"functionName":%s,"url":%s,"scriptId":"%d","lineNumber":%d,' \
            '"columnNumber":%d}' % (q(funcs[f]), q(files[f]), 1 + f % 97,
            f % 500, 4 + f % 40)
    s = '{"id":%d,"callFrame":%s' % (nid, cf)
    if parent:
        s += ',"parent":%d' % parent
    return s + '}'

def chrome(events_only):
    w('{"traceEvents":[')
    w('{"ph":"M","name":"process_name","pid":1,"tid":0,'
        '"args":{"name":"Renderer"}},')
    w('{"ph":"M","name":"thread_name","pid":1,"tid":1,'
        '"args":{"name":"CrRendererMain"}}')
    global nsamples
    t, chunk = 0, 0
    if not events_only:
        w(',{"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":0,'
            '"cat":"disabled-by-default-v8.cpu_profiler",'
            '"args":{"data":{"startTime":0}}}')
    while written < target:
        # One sample's stack as nested slices.
        s = stacks[rnd.randrange(len(stacks))]
        for depth, f in enumerate(s):
            w(',{"ph":"X","cat":"devtools.timeline","name":%s,"pid":1,'
                '"tid":1,"ts":%d,"dur":%d,"tdur":%d}' % (q(funcs[f]),
                t + depth, 400 - 2 * depth, 390 - 2 * depth))
        t += 400
        if events_only or rnd.random() < 0.8:
            continue
        # A chunk of 100 samples, the tree's nodes in the first.
        sm = [leaf[rnd.randrange(len(stacks))] for _ in range(100)]
        dl = [rnd.randrange(50, 150) for _ in range(100)]
        nd = ''
        if chunk == 0:
            nd = '"nodes":[%s],' % ','.join(v8node(n) for n in nodes)
        w(',{"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":2,'
            '"ts":%d,"cat":"disabled-by-default-v8.cpu_profiler","args":'
            '{"data":{"cpuProfile":{%s"samples":[%s]},"timeDeltas":[%s]}}}'
            % (t, nd, ','.join(map(str, sm)), ','.join(map(str, dl))))
        chunk += 1
        nsamples += 100
    w(']}\n')

S = 'https://www.speedscope.app/file-format-schema.json'
def frames():
    return ','.join('{"name":%s,"file":%s,"line":%d}' % (q(funcs[f]),
        q(files[f]), f % 500) for f in range(nfuncs))

def speedscope_sampled():
    # Weights are a third of a sample's bytes or less: samples fill 3/4.
    w('{"$schema":"%s","profiles":[{"type":"sampled","name":"main",'
        '"unit":"microseconds","startValue":0,"endValue":0,"samples":['
        % S)
    n, first = 0, True
    while written < target * 0.9:
        s = stacks[rnd.randrange(len(stacks))]
        w(('' if first else ',') + '[' + ','.join(map(str, s)) + ']')
        first = False
        n += 1
    global nsamples
    nsamples = n
    w('],"weights":[')
    w(','.join(str(rnd.randrange(50, 150)) for _ in range(n)))
    w(']}],"shared":{"frames":[%s]}}\n' % frames())

def speedscope_evented():
    w('{"$schema":"%s","shared":{"frames":[%s]},"profiles":[{'
        '"type":"evented","name":"main","unit":"microseconds",'
        '"startValue":0,"events":[' % (S, frames()))
    t, first = 0, True
    while written < target:
        s = stacks[rnd.randrange(len(stacks))]
        ev = []
        for f in s:
            ev.append('{"type":"O","frame":%d,"at":%d}' % (f, t))
            t += 1
        for f in reversed(s):
            ev.append('{"type":"C","frame":%d,"at":%d}' % (f, t))
            t += 1
        w(('' if first else ',') + ','.join(ev))
        first = False
    w('],"endValue":%d}]}\n' % t)

def gecko():
    # The stack table of the node tree; samples first, as Firefox writes.
    sidx, stk = {}, ['[null,%d]' % nfuncs]
    for nid, parent, f in nodes[1:]:
        sidx[nid] = len(stk)
        stk.append('[%s,%d]' % ('0' if parent == 1 else sidx[parent], f))
    w('{"meta":{"version":27,"interval":0.1,"startTime":0,'
        '"processType":0,"product":"Firefox"},"libs":[],"threads":[{'
        '"name":"GeckoMain","processType":"default","pid":1,"tid":1,'
        '"samples":{"schema":{"stack":0,"time":1,"eventDelay":2},'
        '"data":[')
    global nsamples
    t, first = 0.0, True
    tail = 400000 + 15 * len(stk)
    while written + tail < target:
        rows = []
        for _ in range(100):
            rows.append('[%d,%.3f,%d]' % (sidx[leaf[rnd.randrange(
                len(stacks))]], t, rnd.randrange(0, 5)))
            t += rnd.randrange(50, 150) / 1000
        w(('' if first else ',') + ','.join(rows))
        first = False
        nsamples += 100
    w(']},"markers":{"schema":{"name":0,"time":1,"data":2},"data":[]},')
    w('"stackTable":{"schema":{"prefix":0,"frame":1},"data":[%s]},'
        % ','.join(stk))
    w('"frameTable":{"schema":{"location":0,"relevantForJS":1,'
        '"innerWindowID":2,"implementation":3,"line":4,"column":5},'
        '"data":[%s]},' % ','.join('[%d,false,0,null,%d,%d]' % (i, i % 500,
        4 + i % 40) for i in range(nfuncs + 1)))
    w('"stringTable":[%s]}]}\n' % ','.join([q('%s (%s:%d:%d)' % (funcs[f],
        files[f], f % 500, 4 + f % 40)) for f in range(nfuncs)] +
        ['"(root)"']))

{'chrome': lambda: chrome(False), 'chrome-events': lambda: chrome(True),
    'speedscope-sampled': speedscope_sampled,
    'speedscope-evented': speedscope_evented, 'gecko': gecko}[fmt]()
# What a reader must find: the samples (of the sampled formats).
sys.stderr.write('%s: %d bytes, %d samples\n' % (fmt, written, nsamples))

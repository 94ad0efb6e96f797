#!/usr/bin/env python3
# gen-json.py DIR [SCALE]: write synthetic profiles of the JSON formats
# deepq reads into DIR, all from one random call tree (fixed seed), for
# bench/json-formats.sh: chrome-samples.json (Profile/ProfileChunk),
# v8.cpuprofile (the same profile as a .cpuprofile), chrome-events.json
# (nested X events), speedscope-sampled.json, speedscope-evented.json,
# gecko.json (a Gecko profile) and processed.json (a processed profile,
# shared tables). SCALE (default 1) multiplies the sample count.
import json, os, random, sys

out = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1
rnd = random.Random(42)
nfuncs, nsamples = 3000, int(200000 * scale)
funcs = ['fn_%d_%s' % (i, 'x' * rnd.randrange(4, 20)) for i in range(nfuncs)]
files = ['file:///src/mod%d.js' % (i % 97) for i in range(nfuncs)]

# Stacks: random walks down a tree of call paths, depth 5..40.
stacks = []
for _ in range(2000):
    d = rnd.randrange(5, 40)
    stacks.append([rnd.randrange(nfuncs) if i else 0 for i in range(d)])
picks = [rnd.randrange(len(stacks)) for _ in range(nsamples)]

def w(name, obj):
    with open(os.path.join(out, name), 'w') as f:
        json.dump(obj, f, separators=(',', ':'))

# The V8 node tree of the stacks.
nodes, ids = [{'id': 1, 'callFrame': {'functionName': '(root)', 'url': '',
    'scriptId': '0', 'lineNumber': -1, 'columnNumber': -1}}], {}
def node_of(stack):
    parent, key = 1, ()
    for f in stack:
        key = key + (f,)
        if key not in ids:
            ids[key] = len(nodes) + 1
            nodes.append({'id': ids[key], 'parent': parent, 'callFrame': {
                'functionName': funcs[f], 'url': files[f], 'scriptId': '1',
                'lineNumber': f % 500, 'columnNumber': 4}})
        parent = ids[key]
    return parent
leaf = [node_of(s) for s in stacks]
samples = [leaf[p] for p in picks]
deltas = [rnd.randrange(50, 150) for _ in picks]
kids = {}
for n in nodes[1:]:
    kids.setdefault(n['parent'], []).append(n['id'])
v8nodes = [dict({k: v for k, v in n.items() if k != 'parent'},
    children=kids.get(n['id'], [])) for n in nodes]
w('v8.cpuprofile', {'nodes': v8nodes, 'startTime': 0,
    'endTime': sum(deltas), 'samples': samples, 'timeDeltas': deltas})
ev = [{'ph': 'M', 'name': 'thread_name', 'pid': 1, 'tid': 1,
    'args': {'name': 'CrRendererMain'}},
    {'ph': 'P', 'name': 'Profile', 'id': '0x1', 'pid': 1, 'tid': 1, 'ts': 0,
    'args': {'data': {'startTime': 0}}}]
step = 1000
for i in range(0, len(samples), step):
    ev.append({'ph': 'P', 'name': 'ProfileChunk', 'id': '0x1', 'pid': 1,
        'tid': 2, 'ts': i, 'args': {'data': {'cpuProfile': {
        'nodes': nodes[1:] if i == 0 else [], 'samples': samples[i:i + step]}
        if i else {'nodes': nodes, 'samples': samples[i:i + step]},
        'timeDeltas': deltas[i:i + step]}}})
w('chrome-samples.json', {'traceEvents': ev})

# Duration events: each sample's stack as nested X slices, one per frame.
ev, t = [], 0
for p in picks[:int(len(picks) / 10)]:
    s = stacks[p]
    for depth, f in enumerate(s):
        ev.append({'ph': 'X', 'name': funcs[f], 'cat': 'js', 'pid': 1,
            'tid': 1, 'ts': t + depth, 'dur': 100 - 2 * depth})
    t += 100
w('chrome-events.json', {'traceEvents': ev})

S = 'https://www.speedscope.app/file-format-schema.json'
frames = [{'name': funcs[f], 'file': files[f], 'line': f % 500}
    for f in range(nfuncs)]
w('speedscope-sampled.json', {'$schema': S, 'shared': {'frames': frames},
    'profiles': [{'type': 'sampled', 'name': 'main', 'unit': 'microseconds',
    'startValue': 0, 'endValue': sum(deltas),
    'samples': [stacks[p] for p in picks], 'weights': deltas}]})
events, t = [], 0
for p in picks[:int(len(picks) / 4)]:
    s = stacks[p]
    for f in s:
        events.append({'type': 'O', 'frame': f, 'at': t})
        t += 1
    for f in reversed(s):
        events.append({'type': 'C', 'frame': f, 'at': t})
        t += 1
w('speedscope-evented.json', {'$schema': S, 'shared': {'frames': frames},
    'profiles': [{'type': 'evented', 'name': 'main', 'unit': 'microseconds',
    'startValue': 0, 'endValue': t, 'events': events}]})

# Gecko: a stack table of the V8 tree, JS location strings.
strings = ['%s (%s:%d:%d)' % (funcs[f], files[f], f % 500, 4)
    for f in range(nfuncs)] + ['(root)']
stk = [[None, nfuncs]]
sidx = {}
order = sorted(ids.items(), key=lambda kv: kv[1])
for key, nid in order:
    sidx[nid] = len(stk)
    parent = ids.get(key[:-1], 1)
    stk.append([0 if parent == 1 else sidx[parent], key[-1]])
fr = [[i, False, 0, None, i % 500, 4] for i in range(nfuncs + 1)]
sm, t = [], 0.0
for s, d in zip(samples, deltas):
    sm.append([sidx[s], round(t, 3)])
    t += d / 1000
meta = {'version': 27, 'interval': 0.1, 'startTime': 0, 'processType': 0}
w('gecko.json', {'meta': meta, 'libs': [], 'threads': [{'name': 'GeckoMain',
    'pid': 1, 'tid': 1, 'stringTable': strings,
    'stackTable': {'schema': {'prefix': 0, 'frame': 1}, 'data': stk},
    'frameTable': {'schema': {'location': 0, 'relevantForJS': 1,
        'innerWindowID': 2, 'implementation': 3, 'line': 4, 'column': 5},
        'data': fr},
    'samples': {'schema': {'stack': 0, 'time': 1}, 'data': sm}}]})
shared = {'stringArray': funcs + ['mod%d.js' % i for i in range(97)],
    'stackTable': {'frame': [r[1] for r in stk],
        'prefix': [r[0] for r in stk], 'length': len(stk)},
    'frameTable': {'func': list(range(nfuncs + 1)), 'length': nfuncs + 1},
    'funcTable': {'name': list(range(nfuncs)) + [0],
        'resource': [i % 97 for i in range(nfuncs + 1)],
        'isJS': [False] * (nfuncs + 1), 'length': nfuncs + 1},
    'resourceTable': {'name': [nfuncs + i for i in range(97)], 'length': 97}}
w('processed.json', {'meta': dict(meta, preprocessedProfileVersion=60),
    'shared': shared, 'threads': [{'name': 'GeckoMain', 'pid': '1', 'tid': 1,
    'samples': {'stack': [r[0] for r in sm], 'time': [r[1] for r in sm],
    'weight': None, 'weightType': 'samples', 'length': len(sm)}}]})

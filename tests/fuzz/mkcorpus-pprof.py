#!/usr/bin/env python3
# mkcorpus-pprof.py: (re)write the generated seeds of the pprof reader's
# fuzz corpus (tests/fuzz/corpus/pprof/gen-*): a small valid
# profile.proto written here by hand (inlined lines, recursion, labels),
# and variants with every id or index out of range, a sample with the
# wrong number of values, too many sample types, overflowing values,
# stacks past the frame bounds, and gzip cut short. The Go profiles of
# tests/data/pprof are copied beside them. Run by hand after a change;
# make check replays what it wrote.
import gzip, os, shutil

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, 'corpus', 'pprof')

def varint(v):
    v &= (1 << 64) - 1
    b = bytearray()
    while v >= 0x80:
        b.append(v & 0x7f | 0x80)
        v >>= 7
    b.append(v)
    return bytes(b)

def key(field, wt):
    return varint(field << 3 | wt)

def vint(field, v):
    return key(field, 0) + varint(v)

def msg(field, body):
    return key(field, 2) + varint(len(body)) + body

def packed(field, vals):
    return msg(field, b''.join(varint(v) for v in vals))

def string(s):
    return msg(6, s.encode())

def profile(strings, types, funcs, locs, samples, maps=(), extra=b''):
    b = b''.join(string(s) for s in strings)
    b += b''.join(msg(1, vint(1, t) + vint(2, u)) for t, u in types)
    b += b''.join(msg(3, vint(1, i) + vint(5, f)) for i, f in maps)
    b += b''.join(msg(5, vint(1, i) + vint(2, n) + vint(4, fn))
                  for i, n, fn in funcs)
    for i, m, lines in locs:
        b += msg(4, vint(1, i) + vint(2, m) +
                 b''.join(msg(4, vint(1, f) + vint(2, ln)) for f, ln in lines))
    for ids, vals, labels in samples:
        b += msg(2, packed(1, ids) + packed(2, vals) +
                 b''.join(msg(3, vint(1, k) + (vint(2, s) if s else b'') +
                              (vint(3, n) if n else b''))
                          for k, s, n in labels))
    return b + extra

STR = ['', 'samples', 'count', 'cpu', 'nanoseconds', 'main', 'f', 'g',
       'prog.go', '/bin/prog', 'phase', 'init', 'bytes']
TYPES = [(1, 2), (3, 4)]
FUNCS = [(1, 5, 8), (2, 6, 8), (3, 7, 8)]
MAPS = [(1, 9)]
# Location 2 is g inlined into f; location 3 has no lines (pprof's
# "[prog]").
LOCS = [(1, 1, [(1, 10)]), (2, 1, [(3, 20), (2, 30)]), (3, 1, [])]
SAMPLES = [([2, 1], [3, 30], [(10, 11, 0)]),
           ([2, 2, 1], [1, 10], [(12, 0, 4096)]),  # recursion
           ([3, 1], [2, 20], [])]

def put(name, data):
    with open(os.path.join(out, 'gen-' + name), 'wb') as f:
        f.write(data)

os.makedirs(out, exist_ok=True)
good = profile(STR, TYPES, FUNCS, LOCS, SAMPLES, MAPS, vint(14, 3))
put('good.pb', good)
put('good.pb.gz', gzip.compress(good, mtime=0))
put('gzip-cut.pb.gz', gzip.compress(good, mtime=0)[:40])
put('cut.pb', good[:len(good) // 2])
put('string-range.pb', profile(STR, TYPES, [(1, 99, 8)], LOCS[:1],
                               SAMPLES[:1]))
put('default-range.pb', profile(STR, TYPES, FUNCS, LOCS, SAMPLES, MAPS,
                                vint(14, 1 << 40)))
put('no-location.pb', profile(STR, TYPES, FUNCS, LOCS, [([7], [1, 1], [])]))
put('no-function.pb', profile(STR, TYPES, FUNCS, [(1, 5, [(42, 1)])],
                              [([1], [1, 1], [])], MAPS))
put('values.pb', profile(STR, TYPES, FUNCS, LOCS, [([1], [1], [])]))
put('types-17.pb', profile(STR, [(1, 2)] * 17, FUNCS, LOCS, []))
put('types-dup.pb', profile(STR, [(1, 2), (1, 2)], FUNCS, LOCS, SAMPLES))
put('overflow.pb', profile(STR, TYPES, FUNCS, LOCS,
                           [([1], [2**63 - 1, 1], [])] * 2))
put('negative.pb', profile(STR, TYPES, FUNCS, LOCS, [([1], [-5, -1], [])]))
put('loc-id0.pb', profile(STR, TYPES, FUNCS, [(0, 0, [(1, 1)])], []))
put('loc-dup.pb', profile(STR, TYPES, FUNCS, LOCS + [LOCS[0]], []))
put('deep.pb', profile(STR, TYPES, FUNCS, LOCS,
                       [([1] * 70000, [1, 1], [])]))
wide = [(1, 1, [(2, 1)] * 5000)]
put('wide-lines.pb', profile(STR, TYPES, FUNCS, wide,
                             [([1] * 13, [1, 1], [])] * 50))
put('no-types.pb', profile(STR, [], FUNCS, LOCS, []))
put('empty-strings.pb', profile([], TYPES, [], [], []))
for f in ('cpu.pb', 'heap.pb.gz'):
    shutil.copy(os.path.join(here, '..', 'data', 'pprof', f),
                os.path.join(out, f))

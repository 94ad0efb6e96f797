#!/usr/bin/env python3
# mkcorpus.py: (re)write the generated part of the fuzz regression corpus
# in tests/fuzz/corpus (files named gen-*): seeds for the query, framing
# and escaper harnesses, truncations at every boundary of a valid request
# frame, and frames whose counts are 0, 1, the limits and the limits + 1.
# Run by hand after a format change; make check replays what it wrote.
import os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))

def put(name, fname, data):
    d = os.path.join(here, 'corpus', name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'gen-' + fname), 'wb') as f:
        f.write(data)

def fnv(h, b):
    for c in b:
        h ^= c
        h = (h * 16777619) & 0xffffffff
    return h

def frame(name, static, query, flags=0, nq=None, version=2, rid=b'0123456789abcdef', fix=True, root=b''):
    nq = len(query) if nq is None else nq
    hdr = b'DQrq' + struct.pack('>HH', version, flags) + rid + \
        struct.pack('>HHIHH', len(name), len(static), nq, len(root), 0)
    payload = name + static + root + (b'' if flags & 1 else query)
    h = fnv(fnv(2166136261, hdr), payload) if fix else 0
    return hdr + struct.pack('>I', h) + payload

# Query strings: every key kind, encodings, bounds.
queries = {
    'empty': b'',
    'top': b'file=firefox.folded&cmd=top&limit=10&format=json',
    'tree': b'cmd=tree&open=1~2~3&depth=5&budget=100',
    'pct': b'file=%2e%2e%2fx&title=%3Cscript%3E%00%ff',
    'semi': b'cmd=func;func=main;format=text',
    'plus': b'title=a+b%20c&&&=&x',
    'limits': b'limit=-1&depth=9223372036854775808&budget=1e999',
    'badpct': b'title=%zz%4&cmd=%',
    'utf8': 'title=caf\u00e9\u2028'.encode() + b'\xc3\x28\xed\xa0\x80',
    'long': b'title=' + b'a' * 65530,
    'toolong': b'title=' + b'a' * 65531,
    'crlf': b'file=x%0d%0aSet-Cookie:%20a=b&cmd=folded',
    # range=, base_range=, thread= (repeatable: joined by newlines).
    'range': b'cmd=top&range=0.25,1.5&base_range=0,.25&thread=main',
    'range-bad': b'range=1,1&base_range=-1,2&range=1e3,2e3',
    'range-huge': b'range=0,' + b'9' * 60 + b'&base_range=.,.',
    'thread-repeat': b'thread=a&thread=b%20(pid%201)&thread=&thread=%0a',
    'thread-many': b'&'.join([b'thread=t%d' % i for i in range(300)]),
    'timeline': b'cmd=timeline&range=0,0.001&width=2000&format=json',
    'heatmap': b'cmd=heatmap&range=3,4&thread=7&format=svg',
}
for k, v in queries.items():
    put('query', k, v)

# Request frames: prefixed by the harness's mode byte (bit 0: fix the
# request checksum; bit 1: fix the answer checksum).
good = frame(b'firefox.folded', b'/deepq/', b'cmd=top&limit=5', root=b'/srv/prof')
put('proto', 'good', b'\0' + good)
put('proto', 'two', b'\0' + good + good)
put('proto', 'garbage-then-good', b'\0xxDQ' + good)
put('proto', 'file', b'\0' + frame(b'x', b'', b'q' * 9000, flags=1))
for cut in range(0, len(good), 3):
    put('proto', 'trunc-%03d' % cut, b'\0' + good[:cut])
for name, args in {
    'zero': (b'', b'', b''),
    'one': (b'n', b's', b'q'),
    'atomic': (b'n' * 100, b's' * 100, b'q' * (4096 - 40 - 200)),
    'atomic+1': (b'n' * 100, b's' * 100, b'q' * (4096 - 40 - 199)),
    'maxname': (b'n' * 4096, b'', b''),
    'maxname+1': (b'n' * 4097, b'', b''),
}.items():
    put('proto', 'count-' + name, b'\1' + frame(*args))
for name, root in {
    'maxroot': b'r' * 1024,
    'maxroot+1': b'r' * 1025,
}.items():
    put('proto', 'count-' + name, b'\1' + frame(b'x', b'', b'q', root=root))
for name, args in {}.items():
    put('proto', 'count-' + name, b'\1' + frame(*args))
put('proto', 'count-maxquery-file', b'\1' + frame(b'x', b'', b'', flags=1, nq=65536))
put('proto', 'count-maxquery+1-file', b'\1' + frame(b'x', b'', b'', flags=1, nq=65537))
put('proto', 'count-2^32-1', b'\1' + frame(b'x', b'', b'', nq=0xffffffff))
put('proto', 'flags', b'\1' + frame(b'x', b'', b'q', flags=0xffff))
put('proto', 'version', b'\1' + frame(b'x', b'', b'q', version=1))
put('proto', 'badid', b'\1' + frame(b'x', b'', b'q', rid=b'0123456789abcdeG'))
put('proto', 'nul', b'\1' + frame(b'x\0y', b'', b'q'))
put('proto', 'badsum', b'\0' + frame(b'x', b'', b'q', fix=False))
ans = b'DQan' + struct.pack('>HH', 2, 200) + b'0123456789abcdef' + \
    struct.pack('>IHHIII', 0, 9, 0, 0, 5, 0) + b'\0' * 4
put('proto', 'answer', b'\2' + ans + b'text/html<p>hi')
put('proto', 'answer-big', b'\2' + ans[:36] + b'\xff\xff\xff\xff' + ans[40:])
put('proto', 'name', b'\0' + b'0' * 32 + b'.reply.' + b'a' * 16)
put('proto', 'name-short', b'\0' + b'0' * 32 + b'.')

# Escaper inputs: the XSS set, controls, every UTF-8 edge.
esc = {
    'xss': b'<script>alert(1)</script>"onmouseover=\'x\' &amp; &#39;',
    'controls': bytes(range(1, 32)) + b'\x7f',
    'c1': b'\xc2\x80\xc2\x9f\xc2\xa0',
    'utf8-edges': b'\xc0\x80\xc1\xbf\xe0\x80\x80\xed\xa0\x80\xed\xbf\xbf'
        b'\xf4\x90\x80\x80\xf5\x80\x80\x80\xef\xbf\xbe\xef\xbf\xbf'
        b'\xe2\x80\xa8\xe2\x80\xa9\xf0\x9f\x98\x80',
    'truncated': b'\xe2\x82',
    'nul': b'a\0<b>',
    'crlf': b'x\r\nSet-Cookie: a=b',
    'long': 'Ä<'.encode() * 20000,
}
for k, v in esc.items():
    put('escape-html', k, v)
    put('escape-json', k, v)

# json-stream.c: a flags byte (1 big reals, 2 close a cut array, 4 no
# duplicate keys), a trickle byte (1 + n % 97 bytes a read), the text.
texts = {
    'empty-object': b'{}',
    'nested': b'{"a":{"b":[true,false,null,1,-2,3.5e-3,"x"]},"c":[]}',
    'numbers': b'[0,-0,0.0,1e22,1E-7,9223372036854775807,'
        b'-9223372036854775808,4.9e-324,1.7976931348623157e308,'
        b'0.30000000000000004,123456789012345678901234567890e-10]',
    'big-int': b'[18446744073709551616,-99999999999999999999]',
    'bad-numbers': b'[01,1.,.5,1e,-,+1,0x10]',
    'escapes': b'["\\u0041\\u00e9\\u20ac\\ud834\\udd1e\\"\\\\\\/\\b\\f\\n\\r\\t"]',
    'bad-escapes': b'["\\ud800","\\udc00","\\ud800\\u0041","\\x","\\u12g4"]',
    'nul-escape': b'{"\\u0000":"\\u0000"}',
    'utf8': '["été €𝄞"]'.encode(),
    'bad-utf8': b'["\xc3","\xe0\x80\xaf","\xed\xa0\x80","\xf4\x90\x80\x80"]',
    'controls': b'["a\nb","a\tb"]',
    'trailing': b'[1] x',
    'cut-array': b'[{"ph":"X","ts":1},{"ph":"X","ts":2},',
    'cut-inside': b'[1,{"a":',
    'duplicates': b'{"a":1,"b":{"a":2,"c":{},"a":3},"a":4}',
    'literals': b'[true,false,null,tru,nul,True]',
    'deep': b'[' * 2049 + b']' * 2049,
    'long-string': b'["' + b'abcdefghij' * 3000 + b'\\n"]',
    'long-number': b'[0.' + b'1234567890' * 30 + b']',
    'many-keys': b'{' + b','.join(b'"k%d":%d' % (i, i) for i in range(100))
        + b',"k57":1}',
    'blanks': b' \t\r\n[ \n 1 \r\n , \t 2 ]\n\n',
}
for k, v in texts.items():
    for flags, trickle in ((0, 0), (7, 2), (4, 60)):
        put('json-stream', '%s-%d' % (k, flags), bytes([flags, trickle]) + v)

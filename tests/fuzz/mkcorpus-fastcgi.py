#!/usr/bin/env python3
# mkcorpus-fastcgi.py: (re)write the seeds of the FastCGI harness
# (tests/fuzz/fuzz-fastcgi.c) in tests/fuzz/corpus/fastcgi, files named
# gen-*: whole request streams as web servers send them, and malformed
# ones (bad lengths, padding, ids, types, truncations at every boundary
# of a request). Run by hand; make check replays what it wrote, and
# the found-* files: small inputs libFuzzer added coverage with.
import os, struct

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, 'corpus', 'fastcgi')

def put(fname, data):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'gen-' + fname), 'wb') as f:
        f.write(data)

def rec(type, rid, content=b'', pad=0, version=1):
    return struct.pack('>BBHHBB', version, type, rid, len(content), pad,
                       0) + content + b'\0' * pad

def nvlen(n, four=False):
    return struct.pack('>I', n | 0x80000000) if n > 127 or four else \
        bytes([n])

def nv(name, value, four=False):
    return nvlen(len(name), four) + nvlen(len(value), four) + name + value

def begin(rid, role=1, flags=0):
    return rec(1, rid, struct.pack('>HB5x', role, flags))

def request(rid, params, flags=0, stdin=b'', pad=0):
    p = b''.join(nv(k, v) for k, v in params)
    s = begin(rid, flags=flags)
    if p:
        s += rec(4, rid, p, pad)
    s += rec(4, rid)
    if stdin:
        s += rec(5, rid, stdin, pad)
    return s + rec(5, rid)

cgi = [(b'GATEWAY_INTERFACE', b'CGI/1.1'), (b'REQUEST_METHOD', b'GET'),
       (b'SCRIPT_NAME', b'/deepq.cgi'), (b'PATH_INFO', b'/firefox.folded'),
       (b'QUERY_STRING', b'cmd=top&limit=10&format=json'),
       (b'SERVER_PROTOCOL', b'HTTP/1.1'), (b'N', b'65529')]
one = request(1, cgi)
put('one', one)
put('keep-two', request(1, cgi, flags=1) + request(2, [(b'N', b'7')]))
put('padded', request(3, cgi, pad=7, stdin=b'x=1'))
put('split-params', begin(1) + rec(4, 1, nv(b'A', b'b')) +
    rec(4, 1, nv(b'LONG', b'v' * 300)) + rec(4, 1) + rec(5, 1))
put('four-byte-lengths', begin(1) + rec(4, 1, nv(b'A', b'b', True)) +
    rec(4, 1) + rec(5, 1))
put('get-values', rec(9, 0, nv(b'FCGI_MAX_CONNS', b'') +
    nv(b'FCGI_MAX_REQS', b'') + nv(b'FCGI_MPXS_CONNS', b'') +
    nv(b'FCGI_MAX_CONNS', b'') + nv(b'OTHER', b'')) + one)
put('unknown-management', rec(42, 0) + rec(1, 0, bytes(8)) + one)
put('mgmt-type-nonzero-id', rec(9, 5, nv(b'FCGI_MAX_CONNS', b'')) + one)
put('multiplexed', begin(1, flags=1) + begin(2) + rec(4, 1) + rec(5, 1))
put('same-id-twice', begin(1, flags=1) + begin(1) + rec(4, 1) + rec(5, 1))
put('abort-mid', begin(1, flags=1) + rec(4, 1, nv(b'A', b'b')) +
    rec(2, 1) + request(2, cgi))
put('abort-other-id', begin(1) + rec(2, 9) + rec(4, 1) + rec(5, 1))
put('role-authorizer', begin(1, role=2, flags=1) + one)
put('role-filter', begin(1, role=3) + one)
put('id-zero-begin', begin(0) + rec(4, 0) + rec(5, 0))
put('stdin-first', begin(1) + rec(5, 1, b'body') + rec(5, 1) +
    rec(4, 1, nv(b'A', b'b')) + rec(4, 1))
put('data-stream', begin(1) + rec(8, 1, b'data') + rec(4, 1) + rec(5, 1))
put('stdout-from-peer', rec(6, 1, b'x') + rec(3, 1, bytes(8)) + one)
put('bad-version', rec(1, 1, struct.pack('>HB5x', 1, 0), version=2))
put('begin-short', rec(1, 1, b'\0\1\0'))
put('nv-past-end', begin(1) + rec(4, 1, b'\x05\x05abc') + rec(4, 1) +
    rec(5, 1))
put('nv-four-cut', begin(1) + rec(4, 1, b'\x80\x00') + rec(4, 1) +
    rec(5, 1))
put('nv-huge', begin(1) + rec(4, 1, b'\xff\xff\xff\xff\x01ab') +
    rec(4, 1) + rec(5, 1))
put('params-limit', begin(1) + b''.join(rec(4, 1, b'\0' * 65535)
    for _ in range(2)) + rec(4, 1) + rec(5, 1))
put('pad-max', begin(1) + rec(4, 1, nv(b'A', b'b'), 255) +
    rec(4, 1, b'', 255) + rec(5, 1, b'', 255))
put('empty', b'')
for i in (1, 7, 8, 9, 15, 16, 17, 30, len(one) - 9, len(one) - 1):
    put('cut-%d' % i, one[:i])

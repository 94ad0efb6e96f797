#!/usr/bin/env python3
"""timeline-prefilter.py KIND FILE A B THREAD: FILE cut to the samples of
the time range [A, B) (seconds from the recording's start; "-" for all)
and of one thread ("-" for all), written to standard output in FILE's own
format, for timeline-range.sh: deepq's answer for FILE with range= and
thread= must equal its answer for this file without them.

This reads the formats on its own, not with deepq's code: what a sample's
time and thread are, as the formats define them (deepq-formats(5)).

KIND: perf (perf script text: "comm [pid/]tid [cpu] secs.frac: ..."),
v8 (.cpuprofile: startTime plus the running sum of timeDeltas, a time
before the previous one taken as the previous one), chrome (a trace's
Profile/ProfileChunk samples, per profile as v8, on its Profile event's
thread), events (a trace's X slices, cut to the range). A thread is its
name or its tid.
"""
import json
import re
import sys
from decimal import Decimal

kind, path, a, b, thread = sys.argv[1:6]


def within(t, t0):
    """Is clock time t (us, or Decimal seconds for perf) in the range?"""
    if a == "-":
        return True
    if kind == "perf":
        return Decimal(a) <= t - t0 < Decimal(b)
    return t0 + round(float(a) * 1e6) <= t < t0 + round(float(b) * 1e6)


def perf():
    head = re.compile(r"^(\S.+?)\s+(?:(\d+)/)?(\d+)\s+(?:\[\d+\]\s+)?"
                      r"(\d+\.\d+):")
    samples, cur = [], None
    for line in open(path, encoding="latin-1"):
        if cur is None:
            if line.startswith("#") or not line.strip():
                continue
            m = head.match(line)
            cur = {"lines": [line], "t": Decimal(m.group(4)) if m else None,
                   "comm": m.group(1) if m else "", "tid": m.group(3)
                   if m else ""}
        else:
            cur["lines"].append(line)
            if not line.strip():
                samples.append(cur)
                cur = None
    if cur is not None:
        samples.append(cur)
    t0 = min(s["t"] for s in samples if s["t"] is not None)
    for s in samples:
        if s["t"] is None or not within(s["t"], t0):
            continue
        if thread != "-" and thread not in (s["comm"], s["tid"]):
            continue
        sys.stdout.write("".join(s["lines"]))


def v8_times(doc):
    """The samples' times, as the format defines them."""
    t, out = doc.get("startTime", 0), []
    for d in doc.get("timeDeltas", []):
        t += d
        out.append(t if not out or t >= out[-1] else out[-1])
    return out


def v8_cut(doc, keep):
    """doc with only the samples keep() says yes to, times kept."""
    times = v8_times(doc)
    ss, dd, last = [], [], 0
    for s, t in zip(doc["samples"], times):
        if keep(t):
            ss.append(s)
            dd.append(t - last)
            last = t
    doc["samples"], doc["timeDeltas"], doc["startTime"] = ss, dd, 0
    return doc


def v8():
    doc = json.load(open(path))
    times = v8_times(doc)
    t0 = min(times)
    ok = thread in ("-", "main")
    json.dump(v8_cut(doc, lambda t: ok and within(t, t0)), sys.stdout)


def threads(events):
    """pid, tid -> thread name, from the metadata."""
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e.get("pid"), e.get("tid"))] = e["args"]["name"]
    return names


def thread_ok(names, e):
    if thread == "-":
        return True
    return thread in (names.get((e.get("pid"), e.get("tid"))),
                      str(e.get("tid")))


def chrome():
    doc = json.load(open(path))
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    names = threads(events)
    # Each profile's chunks in order, and its thread (the Profile event's).
    prof, where = {}, {}
    for e in events:
        if e.get("name") in ("Profile", "ProfileChunk"):
            k = (e.get("pid"), e.get("id"))
            d = e.get("args", {}).get("data", {})
            p = prof.setdefault(k, {"nodes": [], "samples": [],
                                    "timeDeltas": []})
            if e["name"] == "Profile" or k not in where:
                where[k] = e
            if "startTime" in d:
                p["startTime"] = d["startTime"]
            cpu = d.get("cpuProfile", {})
            p["nodes"] += cpu.get("nodes", [])
            p["samples"] += cpu.get("samples", [])
            p["timeDeltas"] += d.get("timeDeltas", [])
    starts = [min(v8_times(p)) for p in prof.values() if p["samples"]]
    starts += [e["ts"] for e in events if e.get("ph") in ("i", "I", "R")]
    t0 = min(starts)
    out = [e for e in events if e.get("name") not in
           ("Profile", "ProfileChunk")]
    for k, p in prof.items():
        ev = where[k]
        ok = thread_ok(names, ev)
        p = v8_cut(p, lambda t: ok and within(t, t0))
        out.append({"ph": "P", "name": "Profile", "pid": ev.get("pid"),
                    "tid": ev.get("tid"), "id": k[1], "ts": 0,
                    "args": {"data": {"startTime": 0}}})
        out.append({"ph": "P", "name": "ProfileChunk", "pid": ev.get("pid"),
                    "tid": ev.get("tid"), "id": k[1], "ts": 0,
                    "args": {"data": {"cpuProfile": {
                        "nodes": p["nodes"], "samples": p["samples"]},
                        "timeDeltas": p["timeDeltas"]}}})
    json.dump({"traceEvents": out}, sys.stdout)


def events():
    doc = json.load(open(path))
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    names = threads(evs)
    xs = [e for e in evs if e.get("ph") == "X"]
    t0 = min([e["ts"] for e in xs] +
             [e["ts"] for e in evs if e.get("ph") in ("i", "I", "R")])
    lo = t0 + round(float(a) * 1e6) if a != "-" else -2**62
    hi = t0 + round(float(b) * 1e6) if a != "-" else 2**62
    out = [e for e in evs if e.get("ph") == "M"]
    cut = []
    # Slices cut to the range, written parents first (start, then the
    # longer, then file order), so that slices cut to the same span nest
    # as they did.
    order = sorted(range(len(xs)), key=lambda i: (
        xs[i]["ts"], -xs[i].get("dur", 0), i))
    for i in order:
        e = dict(xs[i])
        s, t = e["ts"], e["ts"] + e.get("dur", 0)
        if not thread_ok(names, e):
            continue
        if t == s:
            if lo <= s < hi:
                cut.append(e)
            continue
        s, t = max(s, lo), min(t, hi)
        if t <= s:
            continue
        e["ts"], e["dur"] = s, t - s
        cut.append(e)
    json.dump({"traceEvents": out + cut}, sys.stdout)


{"perf": perf, "v8": v8, "chrome": chrome, "events": events}[kind]()

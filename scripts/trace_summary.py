#!/usr/bin/env python3
"""Sums a MAGNUS_TRACE timeline (runtime/device/trace.c) per multiply.

    MAGNUS_TRACE=trace.txt magnus bench ... ; python3 scripts/trace_summary.py trace.txt [--last N]

For each multiply (from one "mark multiply" to its "mark end"): wall time, then per kind of
event (alloc, free, wait, read, write, fill, copy, order, timer, launch) the count and the host
milliseconds, the host time in no event (its own work and untraced API calls), and the
device idle time the host exposes: from the end of each wait (a finish, or a read, which
waits for its queue) to the next launch or copy that gives the device work again. The
largest single events follow.

With MAGNUS_TRACE_DEVICE=1 the device's own times follow ("dtrace" lines, written after the
multiply's end): the span from the first kernel's start to the last one's end, the time some
kernel ran (the union over the queues), the device idle time inside the span, per queue the
sum of its kernels, and the largest idle gaps and longest kernels (a kernel's time counts from
when its queue reached it, so it includes any wait behind another queue's blocks).
"""
import argparse
import collections
import sys


def multiplies(lines):
    cur = None
    done = None  # the last finished multiply: dtrace lines come after its end
    for line in lines:
        f = line.rstrip("\n").split(" ", 5)
        if len(f) >= 6 and f[0] == "dtrace":
            if done is not None:
                done["device"].append((float(f[1]), float(f[2]), int(f[3]), int(f[4]),
                                       f[5].strip()))
            continue
        if len(f) < 5 or f[0] != "trace":
            continue
        start, dur, kind, nbytes = float(f[1]), float(f[2]), f[3], int(f[4])
        what = f[5].strip() if len(f) > 5 else ""
        if kind == "mark" and what.startswith("multiply"):
            if done is not None:
                yield done
                done = None
            cur = {"what": what, "events": [], "device": []}
            continue
        if cur is None:
            continue
        if kind == "mark" and what == "end":
            cur["wall"] = start
            done = cur
            cur = None
            continue
        cur["events"].append((start, dur, kind, nbytes, what))
    if done is not None:
        yield done


def summarize_device(dev, top):
    if not dev:
        return
    dev = sorted(dev)
    first, last = dev[0][0], max(d[1] for d in dev)
    busy, gaps, reach = 0.0, [], first
    for s, e, q, g, w in dev:
        if s > reach:
            gaps.append((s - reach, reach, w))
        if e > reach:
            busy += e - max(s, reach)
            reach = e
    per_queue = collections.defaultdict(lambda: [0, 0.0])
    for s, e, q, g, w in dev:
        per_queue[q][0] += 1
        per_queue[q][1] += e - s
    print("  device: span %.3f ms (first kernel at %.3f), some kernel running %.3f ms, "
          "idle %.3f ms" % (last - first, first, busy, last - first - busy))
    for q in sorted(per_queue):
        print("    queue %d: %4d kernels %9.3f ms" % (q, per_queue[q][0], per_queue[q][1]))
    print("  device idle gaps:")
    for gap, at, w in sorted(gaps, reverse=True)[:top]:
        print("    %8.3f ms at %8.3f  before %s" % (gap, at, w))
    print("  longest kernels (from their queue reaching them):")
    for s, e, q, g, w in sorted(dev, key=lambda d: d[0] - d[1])[:top]:
        print("    %8.3f ms  %8.3f-%8.3f  queue %d  %8d groups  %s" % (e - s, s, e, q, g, w))


def summarize(m, top):
    ev = m["events"]
    by = collections.defaultdict(lambda: [0, 0.0])
    for s, d, k, b, w in ev:
        by[k][0] += 1
        by[k][1] += d
    idle = 0.0
    idle_list = []
    for i, (s, d, k, b, w) in enumerate(ev):
        if k not in ("wait", "read"):
            continue
        end = s + d
        nxt = next((e for e in ev[i + 1:] if e[2] in ("launch", "write", "fill", "copy")), None)
        if nxt is None:
            continue
        gap = max(0.0, nxt[0] - end)
        idle += gap
        idle_list.append((gap, "%s %s -> %s %s" % (k, w, nxt[2], nxt[4])))
    print("%s: wall %.3f ms" % (m["what"], m.get("wall", 0.0)))
    for k in sorted(by):
        print("  %-7s %5d events %9.3f ms" % (k, by[k][0], by[k][1]))
    # what the host did between events: its own work and any API call the trace does not name
    print("  host time in no event: %.3f ms" % max(0.0, m.get("wall", 0.0) -
                                                 sum(v[1] for k, v in by.items() if k != "mark")))
    print("  host time from a wait to the next launch (device idle at most): %.3f ms" % idle)
    for gap, what in sorted(idle_list, reverse=True)[:top]:
        print("    %8.3f ms  %s" % (gap, what))
    print("  largest events:")
    for s, d, k, b, w in sorted(ev, key=lambda e: -e[1])[:top]:
        print("    %8.3f ms at %8.3f  %-6s %12d  %s" % (d, s, k, b, w))
    summarize_device(m["device"], top)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--last", type=int, default=1, help="multiplies to show, the last ones")
    ap.add_argument("--top", type=int, default=12)
    a = ap.parse_args()
    ms = list(multiplies(open(a.trace, errors="replace")))
    if not ms:
        sys.exit(a.trace + ": no complete multiply in the trace")
    for m in ms[-a.last:]:
        summarize(m, a.top)


if __name__ == "__main__":
    main()

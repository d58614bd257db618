#!/usr/bin/env python3
"""OpenCL against CUDA on one GPU, from `magnus bench` CSVs (scripts/vendor_h200.sh).

Usage: vendor_summary.py FILE.csv...   (a file named cuda48k-*.csv holds CUDA at 48 KiB)

Per input and value type: the median time of AUTO through each API, the algorithm AUTO ran,
OpenCL's time over CUDA's, the same for the fastest algorithm of each API, and OpenCL's AUTO
over CUDA's AUTO at 48 KiB (the same parameters: what is left is the API's). Only rows whose
C verified count; geometric means over the inputs both sides completed.
"""
import csv
import math
import os
import sys

# the readers of bench outputs share bench/bench_outputs.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from bench_outputs import current_names  # noqa: E402


def load(paths):
    rows = {}  # (input, type) -> {system: (median_ms, algorithm_ran)}
    for path in paths:
        tag = "48k:" if os.path.basename(path).startswith("cuda48k") else ""
        with open(path, newline="") as f:
            for r in map(current_names, csv.DictReader(f)):
                if r.get("status") != "ok" or r.get("verified") != "yes":
                    continue
                key = (r["input"], r["value_type"])
                rows.setdefault(key, {})[tag + r["system"]] = (
                    float(r["time_median_ms"]), r.get("algorithm_ran", ""))
    return rows


def best(systems, device):
    times = [(t, s.split("@")[0]) for s, (t, _) in systems.items()
             if s.endswith("@" + device) and not s.startswith("48k:")]
    return min(times) if times else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(paths):
    rows = load(paths)
    ratios = {"auto": [], "best": [], "api": []}
    print(f"{'input':28} {'type':4} {'cuda auto':>16} {'opencl auto':>16} {'ocl/cuda':>8}"
          f" {'best cuda':>15} {'best ocl':>15} {'ratio':>6} {'cuda48k':>16} {'ocl/48k':>7}")
    for (name, vtype), s in sorted(rows.items()):
        c, o = s.get("auto@cuda:0"), s.get("auto@opencl:0")
        k = s.get("48k:auto@cuda:0")
        bc, bo = best(s, "cuda:0"), best(s, "opencl:0")
        fmt = lambda v: f"{v[0]:8.3f} {v[1][:7]:>7}" if v else f"{'-':>16}"
        line = f"{name[:28]:28} {vtype:4} {fmt(c):>16} {fmt(o):>16}"
        if c and o:
            ratios["auto"].append(o[0] / c[0])
            line += f" {o[0] / c[0]:8.3f}"
        else:
            line += f" {'-':>8}"
        if bc and bo:
            ratios["best"].append(bo[0] / bc[0])
            line += f" {bc[0]:7.3f} {bc[1][:7]:>7} {bo[0]:7.3f} {bo[1][:7]:>7} {bo[0] / bc[0]:6.3f}"
        else:
            line += f" {'-':>15} {'-':>15} {'-':>6}"
        if k and o:
            ratios["api"].append(o[0] / k[0])
            line += f" {fmt(k):>16} {o[0] / k[0]:7.3f}"
        print(line)
    for what, xs in ratios.items():
        if xs:
            print(f"geomean OpenCL/CUDA ({what}, median times): {geomean(xs):.3f} over {len(xs)}"
                  f" (max {max(xs):.3f})")


if __name__ == "__main__":
    main(sys.argv[1:])

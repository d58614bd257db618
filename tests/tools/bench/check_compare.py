#!/usr/bin/env python3
"""Checks bench/compare.py's output against the bench JSON it read, computed independently.

  check_compare.py --bench B.json --ratios RATIOS.csv --table TABLE.md --reference SYSTEM

RATIOS.csv: one line per (input, system, phase) of every ok row, each phase's ms equal to the
bench's column, the reference's ms equal to the reference row's, the ratio equal to ms /
reference ms where both are nonzero (1 for the reference itself), algorithm and reason equal
to the row's algorithm_ran and algorithm_reason, local_mem_bytes and tau to the row's.
TABLE.md: one table per input headed by the reference, a line per system naming its
algorithm and reason, "algorithm X vs Y" exactly where the algorithm differs from the
reference's, and the geometric mean of the total ratios per system.
"""
import argparse
import csv
import json
import math
import sys

PHASES = {"upload": "upload_ms", "setup": "setup_ms", "outer product": "outer_product_ms",
          "histogram": "histogram_ms", "multisplit": "multisplit_ms",
          "symbolic": "symbolic_ms", "numeric": "numeric_ms", "download": "download_ms",
          "total": "time_mean_ms"}
failures = []


def fail(message):
    failures.append(message)


def num(v):
    return None if v in (None, "") else float(v)


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12)


def main():
    ap = argparse.ArgumentParser()
    for name in ("--bench", "--ratios", "--table", "--reference"):
        ap.add_argument(name, required=True)
    args = ap.parse_args()
    rows = [r for r in json.load(open(args.bench, encoding="utf-8"))["rows"] if r["status"] == "ok"]
    by = {(r["input"], r["system"]): r for r in rows}
    inputs = sorted({r["input"] for r in rows})
    systems = sorted({r["system"] for r in rows})
    if len(systems) < 2 or args.reference not in systems:
        fail(f"the bench has systems {systems}; expected two or more with {args.reference}")
    ratios = list(csv.DictReader(open(args.ratios, encoding="utf-8", newline="")))
    seen = set()
    for x in ratios:
        key = (x["input"], x["system"], x["phase"])
        if key in seen:
            fail(f"{key} twice")
        seen.add(key)
        r, ref = by.get(key[:2]), by.get((x["input"], args.reference))
        if r is None or ref is None or x["reference"] != args.reference:
            fail(f"{key}: no such bench row, or reference {x['reference']}")
            continue
        column = PHASES.get(x["phase"])
        if column is None:
            fail(f"{key}: unknown phase")
            continue
        ms, ref_ms, q = num(x["ms"]), num(x["reference_ms"]), num(x["ratio"])
        if ms != r[column] and not close(ms, r[column]):
            fail(f"{key}: ms {ms}, the bench's {column} {r[column]}")
        if ref_ms != ref[column] and not close(ref_ms, ref[column]):
            fail(f"{key}: reference ms {ref_ms}, the bench's {ref[column]}")
        if x["system"] == args.reference:
            want = 1.0 if r[column] else None
        else:
            want = r[column] / ref[column] if r[column] and ref[column] else None
        if (q is None) != (want is None) or (want is not None and not close(q, want)):
            fail(f"{key}: ratio {q}, expected {want}")
        if x["algorithm"] != r["algorithm_ran"] or x["algorithm_reason"] != r["algorithm_reason"]:
            fail(f"{key}: algorithm {x['algorithm']!r} ({x['algorithm_reason']!r}), the bench's "
                 f"{r['algorithm_ran']!r} ({r['algorithm_reason']!r})")
        if num(x["local_mem_bytes"]) != r["local_mem_bytes"] or num(x["tau"]) != r["tau"]:
            fail(f"{key}: local_mem_bytes/tau differ from the bench's")
    want_keys = {(i, s, p) for (i, s) in by for p in PHASES}
    if seen != want_keys:
        fail(f"ratios cover {len(seen)} (input, system, phase), the bench has {len(want_keys)}")

    text = open(args.table, encoding="utf-8").read()
    for i in inputs:
        if f"### {i}: ratios to {args.reference}" not in text:
            fail(f"no table for {i}")
    lines = text.splitlines()
    for (i, s), r in by.items():
        start = lines.index(f"### {i}: ratios to {args.reference} (its times in ms)")
        line = next((ln for ln in lines[start:] if ln.startswith(f"| {s} |")), "")
        if f"| {r['algorithm_ran']} | {r['algorithm_reason']} |" not in line:
            fail(f"{i}, {s}: the table's line lacks its algorithm and reason: {line}")
        ref_alg = by[(i, args.reference)]["algorithm_ran"]
        differs = s != args.reference and r["algorithm_ran"] != ref_alg
        if differs != (f"algorithm {r['algorithm_ran']} vs {ref_alg}" in line):
            fail(f"{i}, {s}: the algorithm difference is {'missing' if differs else 'wrong'}")
    for s in systems:
        qs = [by[(i, s)]["time_mean_ms"] / by[(i, args.reference)]["time_mean_ms"]
              for i in inputs if (i, s) in by and (i, args.reference) in by]
        g = math.exp(sum(math.log(q) for q in qs) / len(qs))
        if f"| {s} | {len(qs)} | {g:.3f} |" not in text:
            fail(f"geometric mean of {s}: expected {g:.3f} over {len(qs)} inputs")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print(f"check_compare: {len(ratios)} ratios, {len(inputs)} inputs, {len(systems)} systems: "
          f"{'ok' if not failures else f'{len(failures)} failures'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks the CSV (and JSON) of `magnus bench --op spmv` against bench/README.md and itself.

  check_spmv_output.py --readme bench/README.md --csv F.csv [--json F.json] [--log F.log]
                       [--variants N] [--expect-floor INPUT=BYTES]...
                       [--expect-median INPUT,LABEL=MS]... [--expect-conversion INPUT,LABEL=MS]...
                       [--expect-status INPUT,LABEL=STATUS[:TEXT]]...
                       [--expect-verified INPUT,LABEL=yes|no]...
                       [--expect-baseline INPUT=LABEL]...

A LABEL is a magnus format ("csr") or a cuSPARSE variant ("COO ALG1", "COO ALG1+preprocess").
Checks: the CSV header is the README's "### SpMV columns" table, in order; magnus's `why`
says "requested by the options" or AUTO's rule naming the format that ran; every cuSPARSE
system has N rows (--variants) per input, one per variant; every row of an input has the same
floor_bytes; ok rows have a positive median >= min, skipped and failed rows verified=n/a and a
reason; every magnus row's baseline is the fastest verified cuSPARSE row of its input (on its
device when there is one) with its median as baseline_ms, and speedup = baseline_ms /
median_ms where the magnus row verified; with --log, the summary's speedup table has a line
per magnus device and format; the JSON has the CSV's rows.
"""
import argparse
import csv
import json
import re
import sys

from readme_columns import documented_columns

failures = []


def fail(message):
    failures.append(message)


def number(v):
    return None if v in ("", None) else float(v)


def close(a, b, rel=1e-4):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def label(r):
    if r["format"] != "cusparse":
        return r["format"]
    return r["ran"] + ("+preprocess" if r["preprocess"] == "yes" else "")


def pairs(items, sep):
    out = []
    for item in items or []:
        key, _, value = item.rpartition(sep)
        out.append((key, value))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--json")
    ap.add_argument("--log")
    ap.add_argument("--variants", type=int, default=12)
    ap.add_argument("--expect-floor", action="append")
    ap.add_argument("--expect-median", action="append")
    ap.add_argument("--expect-conversion", action="append")
    ap.add_argument("--expect-status", action="append")
    ap.add_argument("--expect-verified", action="append")
    ap.add_argument("--expect-baseline", action="append")
    args = ap.parse_args()

    with open(args.csv, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        rows = list(reader)
    documented = documented_columns(args.readme, "### SpMV columns")
    if header != documented:
        fail(f"CSV header {header} is not the README's SpMV columns {documented}")
        return
    if not rows:
        fail("no rows")
        return
    by = {}
    for r in rows:
        key = (r["input"], r["system"], label(r))
        if key in by:
            fail(f"{key}: two rows")
        by[key] = r
    inputs = sorted({r["input"] for r in rows})

    for inp in inputs:
        mine = [r for r in rows if r["input"] == inp]
        floors = {r["floor_bytes"] for r in mine}
        if len(floors) != 1:
            fail(f"{inp}: floor_bytes differ between rows: {sorted(floors)}")
        for system in {r["system"] for r in mine if r["format"] == "cusparse"}:
            n = sum(1 for r in mine if r["system"] == system)
            if n != args.variants:
                fail(f"{inp}, {system}: {n} rows, expected one per variant ({args.variants})")
        for r in mine:
            where = f"{inp}, {r['system']}, {label(r)}"
            if r["status"] == "ok":
                med, mn = number(r["median_ms"]), number(r["min_ms"])
                if med is None or mn is None or not (0 < mn <= med):
                    fail(f"{where}: median {r['median_ms']} / min {r['min_ms']} not 0 < min <= median")
                if r["verified"] not in ("yes", "no"):
                    fail(f"{where}: ok row with verified={r['verified']}")
                if r["format"] == "cusparse":
                    if r["why"] or r["hot_columns"] != "0":
                        fail(f"{where}: a cuSPARSE row with why/hot_columns")
                elif r["format"] != "auto" and r["why"] != "requested by the options":
                    fail(f"{where}: why {r['why']!r} for a requested format")
                elif r["format"] == "auto" and not (r["why"].startswith("auto:")
                                                    and r["ran"] in r["why"]):
                    fail(f"{where}: AUTO ran {r['ran']} but says {r['why']!r}")
            elif r["status"] in ("skipped", "failed"):
                if r["verified"] != "n/a" or not r["error"]:
                    fail(f"{where}: {r['status']} row needs verified=n/a and a reason")
            else:
                fail(f"{where}: status {r['status']}")
        # the yardstick: the fastest verified cuSPARSE row (its device's, else any)
        cus = [r for r in mine if r["format"] == "cusparse" and r["status"] == "ok"
               and r["verified"] == "yes"]
        for r in mine:
            if r["format"] == "cusparse":
                if r["baseline"] or r["speedup"]:
                    fail(f"{inp}, {label(r)}: a cuSPARSE row with a baseline or speedup")
                continue
            where = f"{inp}, {r['system']}, {label(r)}"
            pool = [q for q in cus if q["system"].endswith("@" + r["system"])] or cus
            if not pool:
                if r["baseline"] or r["speedup"]:
                    fail(f"{where}: a baseline without a verified cuSPARSE row")
                continue
            best = min(pool, key=lambda q: float(q["median_ms"]))
            if r["baseline"] != label(best) or not close(number(r["baseline_ms"]),
                                                         float(best["median_ms"])):
                fail(f"{where}: baseline {r['baseline']} {r['baseline_ms']}, expected "
                     f"{label(best)} {best['median_ms']}")
            if r["status"] == "ok" and r["verified"] == "yes":
                want = float(best["median_ms"]) / float(r["median_ms"])
                if number(r["speedup"]) is None or not close(number(r["speedup"]), want, 2e-3):
                    fail(f"{where}: speedup {r['speedup']}, expected {want:.4g}")
            elif r["speedup"]:
                fail(f"{where}: a speedup on a row that did not verify")

    def find(key):
        inp, _, lab = key.partition(",")
        hits = [r for r in rows if r["input"] == inp and label(r) == lab]
        if not hits:
            fail(f"no row {inp}, {lab}")
        return hits

    for key, value in pairs(args.expect_floor, "="):
        for r in [r for r in rows if r["input"] == key] or [None]:
            if r is None:
                fail(f"no rows of {key}")
            elif r["floor_bytes"] != value:
                fail(f"{key}, {label(r)}: floor_bytes {r['floor_bytes']}, expected {value}")
    for key, value in pairs(args.expect_median, "="):
        for r in find(key):
            if number(r["median_ms"]) is None or not close(float(r["median_ms"]), float(value)):
                fail(f"{key}: median_ms {r['median_ms']}, expected {value} (one product per "
                     f"pair of events)")
    for key, value in pairs(args.expect_conversion, "="):
        for r in find(key):
            if number(r["conversion_ms"]) is None or not close(float(r["conversion_ms"]) + 1,
                                                               float(value) + 1):
                fail(f"{key}: conversion_ms {r['conversion_ms']}, expected {value}")
    for key, value in pairs(args.expect_status, "="):
        status, _, text = value.partition(":")
        for r in find(key):
            if r["status"] != status or text not in r["error"]:
                fail(f"{key}: status {r['status']} ({r['error']}), expected {value}")
    for key, value in pairs(args.expect_verified, "="):
        for r in find(key):
            if r["verified"] != value:
                fail(f"{key}: verified {r['verified']} ({r['error']}), expected {value}")
    for key, value in pairs(args.expect_baseline, "="):
        for r in [r for r in rows if r["input"] == key and r["format"] != "cusparse"]:
            if r["baseline"] != value:
                fail(f"{key}, {label(r)}: baseline {r['baseline']!r}, expected {value!r}")

    if args.log:
        log = open(args.log, encoding="utf-8").read()
        if "speedup of each magnus format over it" not in log:
            fail("the log has no speedup summary")
        for system, fmt in {(r["system"], r["format"]) for r in rows if r["format"] != "cusparse"}:
            if not re.search(rf"^  {re.escape(system)} +{re.escape(fmt)} +\d+ ", log, re.M):
                fail(f"the summary has no line for {system} {fmt}")
    if args.json:
        doc = json.load(open(args.json, encoding="utf-8"))
        jrows = doc.get("rows", [])
        if len(jrows) != len(rows) or not doc.get("timing"):
            fail(f"JSON: {len(jrows)} rows (CSV {len(rows)}), timing {doc.get('timing')!r}")
        for r, j in zip(rows, jrows):
            if (r["input"], r["status"], r["baseline"] or None) != (j["input"], j["status"],
                                                                     j["baseline"]):
                fail(f"JSON row {j['input']} {j['format']} differs from the CSV's")
            med = j["median_ms"]
            if (med is None) != (r["median_ms"] == "") or (med is not None and not
                                                           close(med, float(r["median_ms"]))):
                fail(f"JSON row {j['input']} {j['format']}: median {med} vs {r['median_ms']}")
            if (j["why"] or "") != r["why"] or str(j["hot_columns"]) != r["hot_columns"]:
                fail(f"JSON row {j['input']} {j['format']}: why/hot_columns differ from the CSV's")


if __name__ == "__main__":
    main()
    for m in failures:
        print(f"check_spmv_output: {m}")
    if failures:
        print(f"check_spmv_output: {len(failures)} problem(s)")
        sys.exit(1)
    print("check_spmv_output: ok")

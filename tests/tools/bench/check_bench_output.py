#!/usr/bin/env python3
"""Checks the CSV and JSON files of `magnus bench` against bench/README.md and themselves.

  check_bench_output.py --readme bench/README.md --csv F.csv --json F.json
                        [--index INDEX.tsv] [--expect-system ID]... [--expect-detail TEXT]
                        [--expect-mismatch KIND] [--expect-speedup] [--expect-plan]

Checks: the CSV header and the JSON column list are exactly the README's column table, in
order; every JSON row has every column; CSV and JSON rows agree; every row is `ok` and
`verified=yes` (rows of system kind KIND must instead be `verified=no` with
--expect-mismatch); times are ordered (min <= median <= max, min <= mean <= max) and gflops is
2 * products / mean; every system of one input reports the same nnz(C), at most nnz_c_upper;
for shared matrices squared, products and nnz(C) equal INDEX.tsv's independent figures.
With --expect-plan every magnus row has numeric plan columns, plan_verified=yes, a positive
plan_device_bytes and plan_ratio = plan_execute_ms / time_mean_ms; without it (and on
cuSPARSE rows) every plan column is empty.
"""
import argparse
import csv
import json
import math
import sys

from readme_columns import documented_columns

failures = []


def fail(message):
    failures.append(message)


def number(value):
    """CSV text or JSON value -> float, None when empty/null."""
    if value is None or value == "":
        return None
    return float(value)


def close(a, b, rel=1e-5):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


PLAN_NUMBERS = ("plan_create_ms", "plan_runs", "plan_execute_ms", "plan_execute_median_ms",
                "plan_device_bytes", "plan_max_rel_error", "plan_ratio")
PLAN_TEXTS = ("plan_verified", "plan_verify_method", "plan_note")


def check_plan(where, r, c, expected):
    """The plan columns of one JSON row r (CSV row c): filled and verified, or all empty."""
    for key in PLAN_NUMBERS:
        a, b = number(r.get(key)), number(c.get(key))
        if (a is None) != (b is None) or (a is not None and not close(a, b)):
            fail(f"{where}: {key} is {a} in JSON, {b} in CSV")
    for key in PLAN_TEXTS:
        if str(r.get(key, "")) != c.get(key, ""):
            fail(f"{where}: {key} is {r.get(key)!r} in JSON, {c.get(key)!r} in CSV")
    if not expected:
        filled = [k for k in PLAN_NUMBERS + PLAN_TEXTS if r.get(k) not in (None, "")]
        if filled:
            fail(f"{where}: plan columns {filled} filled without --plan")
        return
    missing = [k for k in PLAN_NUMBERS if r.get(k) is None]
    if missing or r.get("plan_verified") != "yes":
        fail(f"{where}: plan columns missing {missing}, plan_verified {r.get('plan_verified')!r}"
             f" ({r.get('plan_note')!r})")
        return
    if not r["plan_device_bytes"] > 0 or not r["plan_runs"] >= 1:
        fail(f"{where}: plan_device_bytes {r['plan_device_bytes']}, plan_runs {r['plan_runs']}")
    if r["plan_verify_method"] not in ("reference", "random"):
        fail(f"{where}: plan_verify_method {r['plan_verify_method']!r}")
    if r["plan_note"]:
        fail(f"{where}: plan_note {r['plan_note']!r} on a verified plan")
    if not all(r[k] > 0 for k in ("plan_create_ms", "plan_execute_ms", "plan_execute_median_ms")):
        fail(f"{where}: plan times not positive")
    if not close(r["plan_ratio"], r["plan_execute_ms"] / r["time_mean_ms"], 1e-4):
        fail(f"{where}: plan_ratio {r['plan_ratio']} is not plan_execute_ms / time_mean_ms")


def check_speedups(where, r, rows):
    """A magnus row's speedups over cusparse@ and cusparse-pool@: mean, median and minimum."""
    for prefix, base_key in (("speedup", "baseline"), ("speedup_pool", "baseline_pool")):
        if not r[base_key]:
            fail(f"{where}: no {base_key} ({r['speedup_note']!r})")
            continue
        base = [q for q in rows if q["input"] == r["input"] and q["system"] == r[base_key]]
        if not base:
            fail(f"{where}: {base_key} {r[base_key]} has no row")
            continue
        for suffix, stat in (("", "time_mean_ms"), ("_median", "time_median_ms"),
                             ("_min", "time_min_ms")):
            s = r[prefix + suffix]
            if s is None or not close(s, base[0][stat] / r[stat], 1e-4):
                fail(f"{where}: {prefix + suffix} {s} is not the baseline's {stat} / this one")
    if "-pool@" not in r["baseline_pool"] or "-pool@" in r["baseline"]:
        fail(f"{where}: baseline {r['baseline']!r}, baseline_pool {r['baseline_pool']!r}")


def check_runs(where, r, expect_same, mismatch):
    """runs_verified: every timed run's C (all of them, unless a mismatch is expected);
    runs_same: all bit for bit the verified C, or (expect_same False) fewer."""
    runs, ok, same = r["runs"], r["runs_verified"], r["runs_same"]
    if ok is None or same is None or not 0 <= same <= ok <= runs:
        fail(f"{where}: runs {runs}, runs_verified {ok}, runs_same {same}")
        return
    if not mismatch and ok != runs:
        fail(f"{where}: {runs - ok} timed runs' C not verified")
    if mismatch and ok == runs and r["verify_method"] and "timed run" in r["verify_note"]:
        fail(f"{where}: a timed run failed ({r['verify_note']}) yet runs_verified = runs")
    want = expect_same.get(r["system_kind"])
    if want == "all" and same != runs:
        fail(f"{where}: runs_same {same} of {runs}")
    if want == "fewer" and same >= runs:
        fail(f"{where}: runs_same {same} of {runs}: every timed run bit for bit the first")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--index")
    ap.add_argument("--expect-system", action="append", default=[])
    ap.add_argument("--expect-detail")
    ap.add_argument("--expect-mismatch")
    ap.add_argument("--expect-speedup", action="store_true")
    ap.add_argument("--expect-same-runs", action="append", default=[],
                    help="KIND=all|fewer: rows of that system kind have every timed run's C "
                         "bit for bit the verified one, or fewer (a jittered baseline)")
    ap.add_argument("--expect-note",
                    help="text every row of the --expect-mismatch kind has in verify_note")
    ap.add_argument("--expect-plan", action="store_true",
                    help="every magnus row has verified plan columns (bench --plan)")
    ap.add_argument("--expect-local-mem", type=int,
                    help="the budget per work group every magnus system must have used")
    args = ap.parse_args()

    args.expect_same_runs = dict(kv.split("=", 1) for kv in args.expect_same_runs)
    columns = documented_columns(args.readme, "### Columns")
    with open(args.csv, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        csv_rows = [dict(zip(header, r)) for r in reader]
    if header != columns:
        missing = [c for c in columns if c not in header]
        extra = [c for c in header if c not in columns]
        fail(f"CSV header differs from the README: missing {missing}, undocumented {extra}"
             + ("" if missing or extra else " (order)"))
    doc = json.load(open(args.json, encoding="utf-8"))
    if doc.get("columns") != columns:
        fail("JSON 'columns' differs from the README's column table")
    if not doc.get("finished"):
        fail("JSON says the run did not finish")
    rows = doc.get("rows", [])
    if not rows:
        fail("no rows")
    if len(rows) != len(csv_rows):
        fail(f"{len(rows)} JSON rows but {len(csv_rows)} CSV rows")
    for i, r in enumerate(rows):
        missing = [c for c in columns if c not in r]
        if missing:
            fail(f"JSON row {i} lacks {missing}")

    systems = {s["id"]: s for s in doc.get("systems", [])}
    for want in args.expect_system:
        if want not in systems:
            fail(f"system {want} missing (have {sorted(systems)})")
        elif not any(r["system"] == want for r in rows):
            fail(f"no row of system {want}")

    # magnus systems: the context's budget (JSON systems) is what every row used, at most the
    # device's own local memory
    for sid, s in systems.items():
        if s.get("kind") != "magnus" or s.get("unavailable"):
            continue
        budget, whole = number(s.get("local_mem_bytes")), number(s.get("device_local_mem_bytes"))
        if not budget or not whole or budget > whole:
            fail(f"system {sid}: budget {budget} of the device's {whole} bytes")
            continue
        if args.expect_local_mem is not None and budget != args.expect_local_mem:
            fail(f"system {sid}: budget {budget}, expected {args.expect_local_mem}")
        for r in rows:
            if r["system"] == sid and r["status"] == "ok" and \
                    number(r.get("local_mem_bytes")) != budget:
                fail(f"{r.get('input')}, {sid}: row budget {r.get('local_mem_bytes')}, "
                     f"system's {budget}")

    index = {}
    if args.index:
        try:
            with open(args.index, encoding="utf-8") as f:
                for r in csv.DictReader(f, delimiter="\t"):
                    index[r["name"]] = r
        except OSError:
            pass

    nnz_by_input = {}
    for i, (r, c) in enumerate(zip(rows, csv_rows)):
        where = f"row {i} ({r.get('input')}, {r.get('system')})"
        for key in ("input", "system", "status", "verified", "verify_method"):
            if str(r.get(key, "")) != c.get(key, ""):
                fail(f"{where}: {key} is {r.get(key)!r} in JSON, {c.get(key)!r} in CSV")
        for key in ("nnz_c", "products", "runs", "time_mean_ms"):
            a, b = number(r.get(key)), number(c.get(key))
            if (a is None) != (b is None) or (a is not None and not close(a, b)):
                fail(f"{where}: {key} is {a} in JSON, {b} in CSV")
        if r["status"] != "ok":
            fail(f"{where}: status {r['status']}: {r['failure']}")
            continue
        check_plan(where, r, c, args.expect_plan and r["system_kind"] == "magnus")
        if r["system_kind"] == "magnus":
            # what ran: the system's algorithm, or for auto the choice of the rule by its share
            ran, share = r["algorithm_ran"], r["auto_long_share"]
            over = r["auto_overflow_share"]
            if r["algorithm"] == "auto" and r.get("auto_dense_rows") == 1:
                # C narrow enough for dense rows: hash, from C's width alone, no shares
                if ran != "hash" or share != 0 or over != 0 or r["choice_ms"] is None:
                    fail(f"{where}: auto with dense rows ran {ran!r} (shares {share}, {over})")
            elif r["algorithm"] == "auto":
                if (share is None or not 0 <= share <= 1 or over is None or not 0 <= over <= 1
                        or r["choice_ms"] is None):
                    fail(f"{where}: auto without its shares ({share}, {over}) or choice time")
                elif ran != ("hash" if share + 2 * over < 0.25 else "gmagnus"):
                    fail(f"{where}: auto ran {ran!r} for long and overflow shares of {share}, "
                         f"{over}")
            elif ran != r["algorithm"] or share is not None or over is not None:
                fail(f"{where}: {r['algorithm']} ran {ran!r} (auto shares {share}, {over})")
        mismatch_expected = bool(args.expect_mismatch) and r["system_kind"] == args.expect_mismatch
        want = "no" if mismatch_expected else "yes"
        if mismatch_expected and args.expect_note and args.expect_note not in r["verify_note"]:
            fail(f"{where}: verify_note {r['verify_note']!r} lacks {args.expect_note!r}")
        if r["verified"] != want:
            fail(f"{where}: verified={r['verified']} ({r['verify_method']}: {r['verify_note']}), "
                 f"expected {want}")
        runs, mean, med = r["runs"], r["time_mean_ms"], r["time_median_ms"]
        lo, hi = r["time_min_ms"], r["time_max_ms"]
        if not runs or runs < 1:
            fail(f"{where}: runs = {runs}")
            continue
        if not (lo <= med <= hi and lo * (1 - 1e-9) <= mean <= hi * (1 + 1e-9) and lo > 0):
            fail(f"{where}: times out of order: min {lo}, median {med}, mean {mean}, max {hi}")
        if not close(r["gflops"], 2.0 * r["products"] / (mean * 1e6), 1e-4):
            fail(f"{where}: gflops {r['gflops']} is not 2*products/mean")
        nnz = r["nnz_c"]
        if nnz is None or nnz > r["nnz_c_upper"]:
            fail(f"{where}: nnz_c {nnz} above the bound {r['nnz_c_upper']}")
        if not mismatch_expected:
            nnz_by_input.setdefault(r["input"], set()).add(nnz)
        if r["peak_device_bytes"] is None or r["peak_device_bytes"] <= 0:
            fail(f"{where}: no peak device memory")
        ref = index.get(r["input"])
        if ref and r["input_kind"] == "file" and r["a_source"] == r["b_source"]:
            if int(ref["AxA_products"]) != r["products"]:
                fail(f"{where}: products {r['products']}, INDEX.tsv says {ref['AxA_products']}")
            if int(ref["nnz_AxA"]) != nnz and not mismatch_expected:
                fail(f"{where}: nnz(C) {nnz}, INDEX.tsv says {ref['nnz_AxA']}")
        for pct in ("sol_outer_pct", "sol_histogram_pct", "sol_multisplit_pct"):
            v = r[pct]
            if v is not None and not (0 < v < 1e4 and math.isfinite(v)):
                fail(f"{where}: {pct} = {v}")
        if r["system_kind"] == "cusparse":
            if not r["variant"]:
                fail(f"{where}: no cuSPARSE algorithm named in 'variant'")
            if args.expect_detail and args.expect_detail not in r["detail"]:
                fail(f"{where}: detail lacks {args.expect_detail!r}: {r['detail']!r}")
        elif args.expect_speedup:
            check_speedups(where, r, rows)
        check_runs(where, r, args.expect_same_runs, mismatch_expected)
        if args.expect_mismatch == "cusparse" and r["system_kind"] == "magnus":
            # every baseline's C failed: no speedup, and the row says why
            for key in ("speedup", "speedup_median", "speedup_min", "speedup_pool"):
                if r[key] is not None:
                    fail(f"{where}: {key} {r[key]} over a baseline whose C did not verify")
            if "did not verify" not in r["speedup_note"]:
                fail(f"{where}: speedup_note {r['speedup_note']!r}")
    for name, values in nnz_by_input.items():
        if len(values) != 1:
            fail(f"{name}: systems disagree on nnz(C): {sorted(values)}")

    if failures:
        for m in failures:
            print("check_bench_output:", m, file=sys.stderr)
        print(f"check_bench_output: {len(failures)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_bench_output: {len(rows)} rows, {len(columns)} documented columns: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

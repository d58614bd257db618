#!/usr/bin/env python3
"""Compares the systems of `magnus bench` runs phase by phase: the vendor comparison table.

  bench/compare.py [LABEL=]RESULTS.json|.csv ... [--reference SYSTEM] [--csv OUT.csv]
                   [--plot OUT.png]

Reads one or more bench outputs (JSON or CSV; every row with status ok). With several files,
LABEL= names each file's systems ("pinned=a.json best=b.json" gives "pinned:gmagnus@cuda:0"),
so the same system run twice, e.g. once with the parameters pinned (MAGNUS_LOCAL_MEM_BYTES,
--algorithms gmagnus) and once with each backend's own choice, can be compared.

For each input it prints a Markdown table: the reference system's times in ms, every other
system's time over the reference's per phase (upload, setup, outer product, histogram,
multisplit, symbolic, numeric, download, total; below 1 is faster), the algorithm each ran
and why (the report's algorithm_reason), its local-memory budget and tau, and what differs
from the reference's choices (algorithm, local memory, tau, multisplit levels, the column
stripes of its dense rows). Then the geometric mean of each system's total ratio over the
inputs both completed. The reference is --reference (a system id, with its label if any),
else the first system of the first file.

Phases are the bench's columns (bench/README.md): upload and download are the untimed
transfers around the runs (magnus systems only); symbolic contains the outer product,
histogram and multisplit (gMAGNUS); total is the mean end-to-end time of the timed runs
(time_mean_ms), which is the only phase a cuSPARSE row has. A phase that neither system ran
reads "-"; one that only this system ran reads "+X ms".

--csv writes one line per (input, system, phase): input, system, reference, phase, ms,
reference_ms, ratio, algorithm, algorithm_reason, local_mem_bytes, tau. --plot draws, per
input, each system's phases as stacked bars in units of the reference's total (needs
matplotlib: Debian's python3-matplotlib, run with /usr/bin/python3).
"""
import argparse
import csv
import json
import math
import os
import sys

from bench_outputs import current_names, current_system, number

# (column, name in the tables)
PHASES = [("upload_ms", "upload"), ("setup_ms", "setup"),
          ("outer_product_ms", "outer product"), ("histogram_ms", "histogram"),
          ("multisplit_ms", "multisplit"), ("symbolic_ms", "symbolic"),
          ("numeric_ms", "numeric"), ("download_ms", "download"), ("time_mean_ms", "total")]
# parts of the total for the plot: symbolic's own rest, after its sub-phases
STACK = ["setup_ms", "outer_product_ms", "histogram_ms", "multisplit_ms", "symbolic_rest",
         "numeric_ms", "other"]


def read_rows(path):
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["rows"]
    else:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    return [current_names(r) for r in rows if r.get("status") == "ok"]


def load(specs):
    """[(label, path)] -> rows with r["system"] labelled, and the systems in order."""
    rows, systems = [], []
    for spec in specs:
        label, path = spec.split("=", 1) if "=" in spec and not os.path.exists(spec) else ("", spec)
        for r in read_rows(path):
            r = dict(r)
            if label:
                r["system"] = f"{label}:{r['system']}"
            if r["system"] not in systems:
                systems.append(r["system"])
            rows.append(r)
    seen = set()
    for r in rows:
        key = (r["input"], r["system"])
        if key in seen:
            sys.exit(f"compare.py: {r['system']} appears twice for {r['input']}; "
                     "name each file's systems with LABEL=FILE")
        seen.add(key)
    return rows, systems


def ratio(value, ref):
    """(ratio or None, the table's text)."""
    if not value and not ref:
        return None, "-"
    if not ref:
        return None, f"+{value:.3g} ms"
    if value is None:
        return None, "-"
    return value / ref, f"{value / ref:.2f}"


def kib(value):
    v = number(value)
    return "-" if v is None else f"{v / 1024:g} KiB"


def integer(value):
    v = number(value)
    return "-" if v is None else f"{v:.0f}"


def differences(r, ref):
    """What this system chose differently from the reference, in words."""
    out = []
    alg, ref_alg = r.get("algorithm_ran") or r.get("algorithm"), ref.get("algorithm_ran") or ref.get("algorithm")
    if alg != ref_alg:
        out.append(f"algorithm {alg} vs {ref_alg} (why: the column before)")
    for column, what, show in (("local_mem_bytes", "local memory", kib), ("tau", "tau", integer),
                               ("levels", "levels", integer),
                               ("dense_stripes", "dense-row stripes", integer)):
        if number(r.get(column)) != number(ref.get(column)):
            out.append(f"{what} {show(r.get(column))} vs {show(ref.get(column))}")
    if r.get("device_name") != ref.get("device_name"):
        out.append(f"device {r.get('device_name')}")
    return "; ".join(out) if out else "same choices"


def cell(text):
    return str(text).replace("|", "\\|")


def table(input_name, rows_by_system, systems, reference, out_rows):
    ref = rows_by_system[reference]
    header = ["system"] + [name for _, name in PHASES] + ["algorithm", "why", "local mem",
                                                            "tau", "differs from the reference"]
    lines = [f"### {input_name}: ratios to {reference} (its times in ms)", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for system in systems:
        r = rows_by_system.get(system)
        if r is None:
            continue
        cells = [system]
        for column, name in PHASES:
            value, ref_value = number(r.get(column)), number(ref.get(column))
            if system == reference:
                cells.append("-" if value is None else f"{value:.4g}")
                q = 1.0 if value else None
            else:
                q, text = ratio(value, ref_value)
                cells.append(text)
            out_rows.append({"input": input_name, "system": system, "reference": reference,
                             "phase": name, "ms": value, "reference_ms": ref_value,
                             "ratio": q, "algorithm": r.get("algorithm_ran") or r.get("algorithm"),
                             "algorithm_reason": r.get("algorithm_reason") or "",
                             "local_mem_bytes": number(r.get("local_mem_bytes")),
                             "tau": number(r.get("tau"))})
        cells += [r.get("algorithm_ran") or r.get("algorithm"), r.get("algorithm_reason") or "-",
                  kib(r.get("local_mem_bytes")), integer(r.get("tau")),
                  "(reference)" if system == reference else differences(r, ref)]
        lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return lines


def stacked(r):
    """The plot's parts of r's total, ms."""
    v = {c: number(r.get(c)) or 0.0 for c in ("setup_ms", "outer_product_ms", "histogram_ms",
                                              "multisplit_ms", "symbolic_ms", "numeric_ms")}
    total = number(r.get("time_mean_ms")) or 0.0
    sub = v["outer_product_ms"] + v["histogram_ms"] + v["multisplit_ms"]
    parts = {c: v[c] for c in ("setup_ms", "outer_product_ms", "histogram_ms", "multisplit_ms",
                               "numeric_ms")}
    parts["symbolic_rest"] = max(v["symbolic_ms"] - sub, 0.0)
    parts["other"] = max(total - sum(parts.values()), 0.0)
    return parts


def plot(path, inputs, by_input, systems, reference):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("compare.py --plot needs matplotlib (Debian: apt install python3-matplotlib; "
                 "run it with /usr/bin/python3)")
    fig, axes = plt.subplots(1, len(inputs), figsize=(max(4, 1.2 * len(systems)) * len(inputs), 4.5),
                             squeeze=False)
    colors = plt.get_cmap("tab10").colors
    for ax, name in zip(axes[0], inputs):
        rows = by_input[name]
        ref_total = number(rows[reference].get("time_mean_ms"))
        present = [s for s in systems if s in rows]
        bottoms = [0.0] * len(present)
        for i, part in enumerate(STACK):
            heights = [stacked(rows[s])[part] / ref_total for s in present]
            ax.bar(range(len(present)), heights, bottom=bottoms, color=colors[i % 10],
                   label=part.replace("_ms", "").replace("_", " "))
            bottoms = [b + h for b, h in zip(bottoms, heights)]
        ax.set_xticks(range(len(present)))
        ax.set_xticklabels(present, rotation=30, ha="right", fontsize=8)
        ax.set_title(name, fontsize=9)
        ax.axhline(1.0, color="black", linewidth=0.6)
        ax.set_ylabel(f"time / {reference}'s total")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(STACK), fontsize=7)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="+", metavar="[LABEL=]FILE")
    ap.add_argument("--reference", help="system id the others are divided by")
    ap.add_argument("--csv", help="write the ratios, one line per input, system and phase")
    ap.add_argument("--plot", help="write the stacked phases per input as a PNG")
    args = ap.parse_args()
    rows, systems = load(args.results)
    if not rows:
        sys.exit("compare.py: no row with status ok")
    reference = current_system(args.reference) if args.reference else systems[0]
    if reference not in systems:
        sys.exit(f"compare.py: --reference {reference}: not a system of these files "
                 f"({', '.join(systems)})")
    inputs, by_input = [], {}
    for r in rows:
        if r["input"] not in by_input:
            inputs.append(r["input"])
            by_input[r["input"]] = {}
        by_input[r["input"]][r["system"]] = r
    inputs = [i for i in inputs if reference in by_input[i]]
    if not inputs:
        sys.exit(f"compare.py: {reference} completed no input")
    out_rows, lines = [], []
    for name in inputs:
        lines += table(name, by_input[name], systems, reference, out_rows) + [""]
    lines += [f"### Geometric mean of the total time over {reference}'s", "",
              "| system | inputs | total ratio |", "|---|---|---|"]
    for system in systems:
        logs = [math.log(x["ratio"]) for x in out_rows
                if x["system"] == system and x["phase"] == "total" and x["ratio"]]
        if logs:
            lines.append(f"| {system} | {len(logs)} | {math.exp(sum(logs) / len(logs)):.3f} |")
    print("\n".join(lines))
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out_rows[0].keys()))
            w.writeheader()
            for x in out_rows:
                w.writerow({k: "" if v is None else v for k, v in x.items()})
    if args.plot:
        plot(args.plot, inputs, by_input, systems, reference)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Plots of a `magnus bench` CSV, after the gMAGNUS paper's figures.

  bench/plot.py RESULTS.csv [more.csv ...] [--out DIR] [--system ID]

Writes PNGs into DIR (default: the first CSV's directory):
  speedup_per_matrix.png   speedup of each magnus system over its baseline, per file input,
                           inputs by products, geometric mean in the legend (Fig. 3)
  speedup_vs_scale.png     R-MAT: speedup of --system against scale, one line per A density,
                           one panel per B density (Fig. 4)
  phase_breakdown.png      --system's share of time per phase, per input (Fig. 5)
  speed_of_light.png       --system's outer product, histogram and multisplit at % of the
                           copy bandwidth's speed of light, against products (Fig. 6)
--system defaults to the first gMAGNUS system with rows. A figure without data is not drawn
(and said so). Needs only matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import sys

from bench_outputs import current_names, current_system, number

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot.py needs matplotlib (Debian: apt install python3-matplotlib; "
             "run it with /usr/bin/python3)")


def read_rows(paths):
    """Rows of every CSV; a later file's (input, system) replaces an earlier one's."""
    rows = {}
    for p in paths:
        with open(p, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                r = current_names(r)
                rows[(r["input"], r["system"])] = r
    return list(rows.values())


def ok(r):
    return r["status"] == "ok"


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def speedup_per_matrix(rows, out):
    files = [r for r in rows if ok(r) and r["input_kind"] == "file" and number(r["speedup"])]
    if not files:
        return "no file input with a speedup (no baseline ran?)"
    systems = sorted({r["system"] for r in files})
    products = {r["input"]: number(r["products"]) or 0 for r in files}
    inputs = sorted(products, key=lambda name: products[name])
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(inputs) * len(systems) + 2), 4.5))
    width = 0.8 / len(systems)
    for k, system in enumerate(systems):
        by_input = {r["input"]: number(r["speedup"]) for r in files if r["system"] == system}
        xs = [i + (k - (len(systems) - 1) / 2) * width for i in range(len(inputs))]
        ys = [by_input.get(name) or 0 for name in inputs]
        gm = geomean(list(by_input.values()))
        baseline = next(r["baseline"] for r in files if r["system"] == system)
        ax.bar(xs, ys, width, label=f"{system} over {baseline} (geomean {gm:.2f}x)")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(inputs)))
    ax.set_xticklabels(inputs, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("speedup")
    ax.set_title("magnus over the vendor library, per matrix (A·A; by products)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "speedup_per_matrix.png"), dpi=130)
    plt.close(fig)
    return None


def speedup_vs_scale(rows, system, out):
    rmat = [r for r in rows if ok(r) and r["input_kind"] == "rmat" and r["system"] == system
            and number(r["speedup"])]
    if not rmat:
        return f"no R-MAT row of {system} with a speedup"
    b_values = sorted({int(r["b_per_row"]) for r in rmat})
    a_values = sorted({int(r["a_per_row"]) for r in rmat})
    fig, axes = plt.subplots(1, len(b_values), figsize=(max(6.5, 4 * len(b_values)), 3.8),
                             sharey=True, squeeze=False)
    for ax, b in zip(axes[0], b_values):
        for a in a_values:
            points = sorted((int(r["scale"]), number(r["speedup"])) for r in rmat
                            if int(r["b_per_row"]) == b and int(r["a_per_row"]) == a)
            if points:
                ax.plot(*zip(*points), marker="o", label=f"A.nnz/n = {a}")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_title(f"B.nnz/n = {b}")
        ax.set_xlabel("R-MAT scale")
        ax.set_xticks(sorted({int(r["scale"]) for r in rmat}))
    axes[0][0].set_ylabel(f"speedup of {system}\nover {rmat[0]['baseline']}")
    axes[0][-1].legend(fontsize=8)
    gm = geomean([number(r["speedup"]) for r in rmat])
    fig.suptitle(f"R-MAT: speedup against scale (geomean {gm:.2f}x over {len(rmat)} pairs)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "speedup_vs_scale.png"), dpi=130)
    plt.close(fig)
    return None


PHASES = ["setup", "csr2csc", "outer product", "histogram", "multisplit", "symbolic (rest)",
          "numeric", "other"]


def phase_shares(r):
    """Shares of the mean time; the kernels are inside the symbolic phase's host window."""
    total = number(r["time_mean_ms"]) or 0
    get = lambda key: number(r[key]) or 0.0
    setup, csc, outer = get("setup_ms"), get("csr2csc_ms"), get("outer_product_ms")
    hist, split = get("histogram_ms"), get("multisplit_ms")
    symbolic, numeric = get("symbolic_ms"), get("numeric_ms")
    rest = max(0.0, symbolic - csc - outer - hist - split)
    parts = [setup, csc, outer, hist, split, rest, numeric]
    parts.append(max(0.0, total - sum(parts)))
    scale = sum(parts)
    return [100.0 * p / scale for p in parts] if scale > 0 else None


def phase_breakdown(rows, system, out):
    mine = [r for r in rows if ok(r) and r["system"] == system]
    mine.sort(key=lambda r: number(r["products"]) or 0)
    shares = [(r["input"], phase_shares(r)) for r in mine]
    shares = [(name, s) for name, s in shares if s]
    if not shares:
        return f"no row of {system} with phase times"
    fig, ax = plt.subplots(figsize=(8, max(3.5, 0.28 * len(shares) + 2.2)))
    left = [0.0] * len(shares)
    for k, phase in enumerate(PHASES):
        widths = [s[k] for _, s in shares]
        ax.barh(range(len(shares)), widths, left=left, label=phase)
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(range(len(shares)))
    ax.set_yticklabels([name for name, _ in shares], fontsize=7)
    ax.set_xlabel("% of the end-to-end time")
    ax.set_xlim(0, 100)
    ax.set_title(f"{system}: time per phase (inputs by products)")
    ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "phase_breakdown.png"), dpi=130)
    plt.close(fig)
    return None


def speed_of_light(rows, system, out):
    mine = [r for r in rows if ok(r) and r["system"] == system]
    series = [("outer product", "sol_outer_pct"), ("histogram (level 0)", "sol_histogram_pct"),
              ("multisplit (level 0)", "sol_multisplit_pct")]
    fig, ax = plt.subplots(figsize=(7, 4))
    drawn = 0
    for label, key in series:
        points = [(number(r["products"]), number(r[key])) for r in mine if number(r[key])]
        if points:
            ax.scatter(*zip(*points), label=label, s=18)
            drawn += len(points)
    if not drawn:
        plt.close(fig)
        return f"no row of {system} with speed-of-light figures (no heavy rows?)"
    ax.set_xscale("log")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("intermediate products")
    ax.set_ylabel("% of speed of light")
    gbps = sorted({number(r["copy_gbps"]) for r in mine if number(r["copy_gbps"])})
    ax.set_title(f"{system}: kernels against the copy bandwidth "
                 f"({gbps[0]:.0f} GB/s)" if gbps else system)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "speed_of_light.png"), dpi=130)
    plt.close(fig)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--system")
    args = ap.parse_args()
    rows = read_rows(args.csv)
    out = args.out or os.path.dirname(os.path.abspath(args.csv[0]))
    os.makedirs(out, exist_ok=True)
    system = current_system(args.system) if args.system else next((r["system"] for r in rows
                                  if r["algorithm"] == "gmagnus" and ok(r)), None)
    if not system:
        sys.exit("plot.py: no completed gMAGNUS row in the CSV")
    problems = 0
    for name, draw in [("speedup_per_matrix", lambda: speedup_per_matrix(rows, out)),
                       ("speedup_vs_scale", lambda: speedup_vs_scale(rows, system, out)),
                       ("phase_breakdown", lambda: phase_breakdown(rows, system, out)),
                       ("speed_of_light", lambda: speed_of_light(rows, system, out))]:
        why = draw()
        if why:
            print(f"plot.py: {name}.png not drawn: {why}")
            problems += 1
        else:
            print(f"plot.py: wrote {os.path.join(out, name + '.png')}")
    return 0 if problems < 4 else 1


if __name__ == "__main__":
    sys.exit(main())

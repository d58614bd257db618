#!/usr/bin/env bash
# Device call 4 (2026-12-03, thirteenth session), the build of call 3 (the one that lands).
# Must answer: issue 13's last target on this build: a cold context (a new process's first
# multiply, kernels cached on disk) within 2x of a warm one on 10^7-product inputs, and the
# time outside kernels of such a multiply (MAGNUS_TRACE of EX5 and ca-AstroPh_cc1 under each
# algorithm): scripts/methods_h200.sh's steps trace and cold.
set -u
root=$(pwd)
out=${OUT:-$root/call-out}; mkdir -p "$out"
METHODS_STEPS=trace,cold METHODS_BUDGET_S=200 OUT=$out timeout 230 bash scripts/methods_h200.sh; echo "methods: $?"
python3 - "$out/cold.csv" <<'PY' | tee -a "$out/summary.txt"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    first, mean = float(r["first_ms"]), float(r["time_mean_ms"])
    print("cold %-16s %-9s first %.3f ms, warm mean %.3f ms: %.2fx (kernel load %s ms, ran %s)" % (
        r["input"], r["variant"], first, mean, first / mean, r.get("first_kernel_load_ms", ""), r["algorithm_ran"]))
PY

#!/usr/bin/env python3
"""The kernel time of the last multiply in an Nsight Compute CSV of `magnus multiply FILE`.

    ncu --clock-control none --csv --metrics gpu__time_duration.sum magnus multiply FILE ... \
        | grep '^"' > run.csv
    python3 scripts/ncu_last_multiply.py run.csv

The CLI multiplies a sample of A's rows first (its warm-up), so the run has two multiplies;
the measured one starts at the last AUTO choice (hash_row_products before the last
prim_long_segments). ncu replays kernels one at a time, so kernels of the light and heavy
queues that ran side by side add up here: the sum can only overstate the busy time, and a
wall time minus it understates the time outside kernels.
"""
import collections
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
launches = collections.OrderedDict()
for r in rows:
    if r.get("Metric Name") != "gpu__time_duration.sum": continue
    unit = r["Metric Unit"]; v = float(r["Metric Value"].replace(",", ""))
    ms = v * {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}[unit]
    launches[int(r["ID"])] = (r["Kernel Name"].split("(")[0], ms)
seq = list(launches.values())
names = [n for n, _ in seq]
last_ls = max(i for i, n in enumerate(names) if n == "prim_long_segments")
start = max(i for i in range(last_ls) if names[i] == "hash_row_products")
tail = seq[start:]
print("%s: %d launches in the measured multiply, %.3f ms of kernel time (of %d launches, %.3f ms in the run)" % (
    sys.argv[1], len(tail), sum(ms for _, ms in tail), len(seq), sum(ms for _, ms in seq)))

#!/usr/bin/env bash
# Device call 5 (2026-12-03, thirteenth session), the build of call 3 (the one that lands).
# Must answer: why the dense numeric kernel takes 1.45 ms (28 us per row) on vsp_befref f64
# where 0.15 ms was estimated: (1) its duration alone (ncu serializes kernels, so the light
# rows' urgent kernels no longer share its SMs) against its time in the multiply's timeline;
# (2) its detail (occupancy, stalls, shared-memory atomics) and SASS source page with stall
# samples, for the next change.
set -u
root=$(pwd)
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$root/build-gpu" "$root/.carry"
export MAGNUS_BACKENDS=cuda
M=$root/.carry/matrices; t0=$SECONDS; mag=$root/build-gpu/tools/magnus
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
vsp=$M/vsp_befref_fxm_2_4_air02.mtx.gz
timeout 120 "$ncu" --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$mag" multiply "$vsp" --type f64 --algorithm hash >"$w/ncu-all.csv" 2>"$w/ncu-all.err"; say "ncu all: $? ($((SECONDS-t0)) s)"
python3 .carry/ncu_kernels.py "$w/ncu-all.csv" --copy-gbps 4265 --top 16 >"$out/kernels.txt" 2>&1; sed 's/^/  /' "$out/kernels.txt" >>"$S"
timeout 150 "$ncu" --clock-control none --set full --import-source no -k regex:hash_rows_dense_numeric --launch-skip 1 --launch-count 1 -f -o "$w/dense" "$mag" multiply "$vsp" --type f64 --algorithm hash >"$w/ncu-dense.log" 2>&1; say "ncu dense: $? ($((SECONDS-t0)) s)"
timeout 60 "$ncu" -i "$w/dense.ncu-rep" --page details >"$out/dense-details.txt" 2>&1
timeout 60 "$ncu" -i "$w/dense.ncu-rep" --page source --print-source sass --csv >"$w/dense-sass.csv" 2>"$w/sass.err"; gzip -c "$w/dense-sass.csv" >"$out/dense-sass.csv.gz"
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache|Compute \(SM\)|Issued Warp|Executed Instructions  |Registers Per|Achieved Occupancy|Theoretical Occupancy|Eligible Warps|No Eligible|Warp Cycles Per Issued|Block Limit|Shared Memory" "$out/dense-details.txt" | sed 's/^/  /' >>"$S"
python3 - "$w/dense-sass.csv" >>"$S" 2>&1 <<'PY'
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
h = r[1]; rows = r[2:]
i = h.index('Warp Stall Sampling (All Samples)'); e = h.index('Instructions Executed')
st = [k for k, n in enumerate(h) if n.startswith('stall_') and 'Not Issued' not in n]
tot = sum(int(x[i]) for x in rows)
agg = {}
for x in rows:
    for k in st: agg[h[k]] = agg.get(h[k], 0) + int(x[k])
print("  samples", tot, "instructions", sum(int(x[e]) for x in rows))
print("  stalls", sorted(agg.items(), key=lambda t: -t[1])[:8])
for n, x in enumerate(rows):
    s = int(x[i])
    if s > tot * 0.02:
        top = sorted(((int(x[k]), h[k]) for k in st), reverse=True)[:2]
        print("  %4d %-50s %6d %s" % (n, x[1].strip()[:50], s, top))
PY
say "done $((SECONDS-t0)) s"

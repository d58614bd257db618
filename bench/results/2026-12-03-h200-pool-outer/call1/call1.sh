#!/usr/bin/env bash
# Device call 1 (2026-12-03, twelfth session): large blocks kept on backends without a pool;
# the outer product's group starts found before it runs (gmagnus_outer_starts).
# Must answer: (0) the CUDA gMAGNUS/batches suites and the block cache's tests on NVIDIA's
# OpenCL pass; memcheck and racecheck find nothing on the outer product's cases; (1) issue 12:
# the outer product's time and share of the copy bandwidth on rmat-s18-a4-b8 and
# rmat-s19-a8-b8 (ncu), old build against new in the same call (predicted 1.60 -> 1.45-1.50 ms
# and 7.66 -> 7.0-7.3 ms), the full kernel table of the new build beside its wall times, and
# ncu's detail of the new kernel; (2) issue 12: NVIDIA's OpenCL against CUDA on the six perf
# inputs, new build, with the old build's OpenCL in the same call (predicted geomean 1.33 ->
# 1.15-1.22); (3) issue 13: the real matrices, AUTO against cuSPARSE, f32 and f64.
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
gpu_libs_setup "$old" "$root/.carry" >/dev/null 2>&1
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices; t0=$SECONDS
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='spgemm_(batches|gmagnus|auto)_cuda$' OUT=$tmp/check timeout 120 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|TIMEOUT|^    \|" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
ocl=$("$new/tools/magnus-bench-scan" --list 2>/dev/null | awk -F'\t' '$1 ~ /^opencl:/ && ($2 ~ /NVIDIA/ || $3 ~ /NVIDIA/) {print $1; exit}')
say "NVIDIA OpenCL device: ${ocl:-none}"
(cd "$new/tests" && MAGNUS_DEVICE=$ocl timeout 60 ./test_probe --filter 'device_pool/*' >"$w/pool-opencl.log" 2>&1); say "device_pool on $ocl: $?"; tail -3 "$w/pool-opencl.log" >>"$S"
(cd "$new/tests" && MAGNUS_BACKENDS=cuda timeout 60 ./test_probe --filter 'device_pool/*' >"$w/pool-cuda.log" 2>&1); say "device_pool on cuda: $?"; tail -2 "$w/pool-cuda.log" >>"$S"
SANITIZE_CASES='^(default|in-place|small-budget|batches)$' OUT=$w timeout 150 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
say "== OpenCL against CUDA ($((SECONDS-t0)) s)"
six=("$M/soc-Slashdot0902.mtx.gz" "$M/email-Enron.mtx.gz" "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --rmat-sweep --scales 16-18 --a-per-row 4 --b-per-row 8 --runs 5 --verify-limit 2e7 --no-bandwidth)
timeout 100 "$new/tools/magnus" bench "${six[@]}" --systems cuda:0,opencl:0 --csv "$out/cuda_opencl.csv" >"$w/cuda_opencl.log" 2>&1; say "new: rc $? ($((SECONDS-t0)) s)"
timeout 80 "$old/tools/magnus" bench "${six[@]}" --systems opencl:0 --csv "$w/opencl_old.csv" >"$w/opencl_old.log" 2>&1; say "old opencl: rc $? ($((SECONDS-t0)) s)"
python3 - "$out/cuda_opencl.csv" "$w/opencl_old.csv" >>"$S" <<'PY'
import csv, sys, math
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        if r["status"] == "ok": d.setdefault(r["input"], {})[r["system"]] = r
    return d
new, old = load(sys.argv[1]), load(sys.argv[2])
rn, ro = [], []
for i, v in new.items():
    c = v.get("magnus@cuda:0"); o = v.get("magnus@opencl:0"); oo = old.get(i, {}).get("magnus@opencl:0")
    if not (c and o): continue
    tc, to = float(c["time_median_ms"]), float(o["time_median_ms"])
    too = float(oo["time_median_ms"]) if oo else float("nan")
    rn.append(to / tc); ro.append(too / tc)
    print("  %-26s cuda %8.3f | opencl new %8.3f (alloc %.3f, %s) old %8.3f (alloc %.3f) | new/cuda %.3f old/cuda %.3f" % (
        i, tc, to, float(o["alloc_ms"] or 0), o["verified"], too, float(oo["alloc_ms"] or 0) if oo else 0, to / tc, too / tc))
g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
print("  geomean opencl/cuda: new %.3f (max %.3f), old %.3f" % (g(rn), max(rn) if rn else 0, g(ro)))
PY
say "== real matrices, AUTO against cuSPARSE ($((SECONDS-t0)) s)"
METHODS_STEPS=real32,real64 METHODS_SYSTEMS=auto@cuda:0,cusparse@cuda:0 METHODS_BUDGET_S=110 OUT=$tmp/m timeout 130 bash scripts/methods_h200.sh >/dev/null 2>&1; say "methods: $?"
cat "$tmp/m/summary.txt" >>"$S" 2>/dev/null; cp "$tmp/m/real32.csv" "$tmp/m/real64.csv" "$out/" 2>/dev/null
say "== trace of astro-ph, f32, AUTO ($((SECONDS-t0)) s)"
MAGNUS_TRACE=$w/trace-astro.txt MAGNUS_TRACE_DEVICE=1 timeout 40 "$new/tools/magnus" bench "$M/astro-ph.mtx.gz" --type f32 --runs 3 --verify-limit 0 --no-bandwidth --systems auto@cuda:0 >"$w/astro.log" 2>&1; say "astro trace: $?"
python3 scripts/trace_summary.py "$w/trace-astro.txt" --last 1 --top 12 >"$w/astro-sum.txt" 2>&1; head -60 "$w/astro-sum.txt" | sed 's/^/  /' >>"$S"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in "18 4" "19 8"; do
  set -- $p
  say "== ncu s$1 ($((SECONDS-t0)) s)"
  timeout 40 "$new/tools/magnus" bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 5 --runs-large 5 --systems cuda:0 --no-bandwidth --verify-limit 0 --csv "$w/wall-s$1.csv" >"$w/wall-s$1.log" 2>&1
  python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  wall %s: %s ms, outer_product_ms %s, peak %.2f GB" % (r["input"], r["time_mean_ms"], r["outer_product_ms"], float(r["peak_device_bytes"] or 0)/1e9))' "$w/wall-s$1.csv" >>"$S" 2>&1
  for b in old new; do
    bin=$root/build-gpu; [ $b = old ] && bin=$old
    k=""; [ $b = old ] && k="-k regex:gmagnus_outer"
    timeout 120 "$ncu" --clock-control none --csv $k --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$bin/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-s$1-$b.csv" 2>"$w/ncu-s$1-$b.err"; say "ncu s$1 $b: $?"
    python3 .carry/ncu_kernels.py "$w/ncu-s$1-$b.csv" --copy-gbps 4265 --top 16 >"$w/ncu-s$1-$b.table.txt" 2>&1
    if [ $b = old ]; then grep -E "outer" "$w/ncu-s$1-$b.table.txt" | sed 's/^/  old /' >>"$S"; else sed 's/^/  /' "$w/ncu-s$1-$b.table.txt" >>"$S"; fi
  done
done
say "== ncu detail, new outer product, s18 ($((SECONDS-t0)) s)"
timeout 90 "$ncu" --clock-control none --set full -k regex:gmagnus_outer_product --launch-skip 1 --launch-count 1 "$new/tools/magnus" multiply rmat:18:4:1 rmat:18:8:2 --device cuda:0 >"$w/ncu-detail.txt" 2>&1; say "detail: $?"
grep -E "Duration|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Eligible Warps|Active Warps|Issued Warp|No Eligible|L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput|Block Limit|Warp Cycles Per Issued" "$w/ncu-detail.txt" | sed 's/^/  /' >>"$S"
tar czf "$out/all.tgz" -C "$tmp" w m check 2>/dev/null
say "done $((SECONDS-t0)) s"

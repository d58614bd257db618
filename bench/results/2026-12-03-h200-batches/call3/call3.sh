#!/usr/bin/env bash
# Device call 3 (2026-12-03, eleventh session): the final tree.
# Must answer: (0) the batches and gMAGNUS suites pass with the stack one array at a time,
# and rmat-s20-a32-b8 (which ran out of memory in the stack of twice C) now completes, with
# rmat-s19-a32-b8's time beside call 1's; (1) memcheck, racecheck and synccheck on a batched
# multiply (a smaller case than call 1's, whose racecheck ran past its time); (2) issue 12: NVIDIA's OpenCL against
# CUDA on the six perf inputs (gMAGNUS, 48 KiB, the same run); (3) issue 13: the ten shared
# matrices with >= 10^7 products, AUTO against the best cuSPARSE algorithm in f32 and f64,
# and HSMU-SpGEMM (f64) in the same call; (4) issue 12: ncu kernel tables of rmat-s18-a4-b8
# and rmat-s19-a8-b8 beside their wall times.
set -u
root=$(pwd); new=$root/build-gpu
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices; t0=$SECONDS
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='spgemm_(batches|gmagnus)_cuda$' OUT=$tmp/check timeout 90 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|^    \|" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
for a in "19 32" "20 32"; do
  set -- $a
  timeout 100 "$new/tools/magnus" bench --rmat-sweep --scales $1-$1 --a-per-row $2 --b-per-row 8 --runs 3 --runs-large 2 --no-bandwidth --no-fit-check --systems cuda:0 --csv "$w/s$1a$2.csv" >"$w/s$1a$2.log" 2>&1; say "s$1-a$2: $? ($((SECONDS-t0)) s)"
  grep -E " ok | failed" "$w/s$1a$2.log" | cut -c1-200 >>"$S"
  python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  %s: %s ms, peak %.2f GB, batches %s, batch_ms %s, nnz %s, verified %s" % (r["input"], r["time_mean_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["batches"], r["batch_ms"], r["nnz_c"], r["verified"]))' "$w/s$1a$2.csv" >>"$S" 2>&1
done
SANITIZE_CASES='^batches$' OUT=$w timeout 100 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
say "== OpenCL against CUDA ($((SECONDS-t0)) s)"
timeout 110 "$new/tools/magnus" bench "$M/soc-Slashdot0902.mtx.gz" "$M/email-Enron.mtx.gz" "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --rmat-sweep --scales 16-18 --a-per-row 4 --b-per-row 8 --runs 5 --verify-limit 2e7 --no-bandwidth --systems cuda:0,opencl:0 --csv "$out/cuda_opencl.csv" >"$w/cuda_opencl.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
python3 - "$out/cuda_opencl.csv" >>"$S" <<'PY'
import csv, sys, math
d = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] == "ok": d.setdefault(r["input"], {})[r["system"].split("@")[-1] if "@" in r["system"] else r["system"]] = float(r["time_mean_ms"])
ratios = []
for i, v in d.items():
    c = [t for k, t in v.items() if "cuda" in k]; o = [t for k, t in v.items() if "opencl" in k]
    if c and o: ratios.append(o[0] / c[0]); print("  %-28s cuda %9.3f opencl %9.3f  opencl/cuda %.3f" % (i, c[0], o[0], o[0] / c[0]))
if ratios: print("  geomean opencl/cuda %.3f, max %.3f" % (math.exp(sum(map(math.log, ratios)) / len(ratios)), max(ratios)))
PY
say "== real matrices, AUTO against cuSPARSE ($((SECONDS-t0)) s)"
METHODS_STEPS=real32,real64 METHODS_SYSTEMS=auto@cuda:0,cusparse@cuda:0 METHODS_BUDGET_S=110 OUT=$tmp/m timeout 130 bash scripts/methods_h200.sh >/dev/null 2>&1; say "methods: $?"
cat "$tmp/m/summary.txt" >>"$S" 2>/dev/null; cp "$tmp/m/real32.csv" "$tmp/m/real64.csv" "$out/" 2>/dev/null
say "== hsmu ($((SECONDS-t0)) s)"
mkdir -p /tmp/h && cd /tmp/h
for m in soc-Slashdot0902 vsp_befref_fxm_2_4_air02 email-Enron ca-HepPh vsp_sctap1-2b_and_seymourl ca-AstroPh_cc1 ego-Facebook astro-ph bcsstk16 EX5; do
  [ -e "$m.mtx" ] || gzip -dc "$M/$m.mtx.gz" > "$m.mtx"
  CUDA_MODULE_LOADING=EAGER timeout 60 "$root/.carry/hsmu/hsmu" "$m.mtx" > "$w/hsmu-$m.log" 2>&1
  say "hsmu $m: rc $? $(grep -h hsmu_total_ms "$w/hsmu-$m.log") conv_mean $(grep -h hsmu_conversion_ms "$w/hsmu-$m.log" | awk '{s+=$2;n++} END {if(n) printf "%.4f", s/n; else print "none"}') $(grep -h hsmu_cnnz "$w/hsmu-$m.log")"
done
cd "$root"
left=$((400 - SECONDS + t0)); say "== ncu ($((SECONDS-t0)) s, ${left} s left)"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in "18 4" "19 8"; do
  set -- $p; left=$((400 - SECONDS + t0)); [ $left -lt 70 ] && { say "ncu s$1: no time"; continue; }
  timeout 40 "$new/tools/magnus" bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 5 --runs-large 5 --systems cuda:0 --no-bandwidth --verify-limit 0 --csv "$w/wall-s$1.csv" >"$w/wall-s$1.log" 2>&1
  python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  wall %s: %s ms, peak %.2f GB, batches %s" % (r["input"], r["time_mean_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["batches"]))' "$w/wall-s$1.csv" >>"$S" 2>&1
  left=$((400 - SECONDS + t0)); timeout $((left > 120 ? 120 : left)) "$ncu" --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$new/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-s$1.csv" 2>"$w/ncu-s$1.err"; say "ncu s$1: $?"
  python3 .carry/ncu_kernels.py "$w/ncu-s$1.csv" --copy-gbps 4265 --top 14 >"$w/ncu-s$1.table.txt" 2>&1; cat "$w/ncu-s$1.table.txt" >>"$S"
done
tar czf "$out/all.tgz" -C "$tmp" w m check 2>/dev/null
say "done $((SECONDS-t0)) s"

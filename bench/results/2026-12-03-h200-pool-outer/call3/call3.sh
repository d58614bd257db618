#!/usr/bin/env bash
# Device call 3 (2026-12-03, twelfth session): the outer product's walk stepped with adds only
# and its loads and stores addressed from per-range bases (new), against the call-1 build
# (old, .carry/old).
# Must answer: (0) the CUDA suites (gMAGNUS, batches, AUTO) and NVIDIA OpenCL's gMAGNUS suite
# pass; memcheck and racecheck find nothing, f32 and f64; (1) issue 12: the outer product on
# rmat-s18-a4-b8 and rmat-s19-a8-b8, old against new, time, DRAM bytes and instructions
# (predicted 1.56 -> 1.15-1.35 ms and 7.73 -> 5.8-6.8 ms; 78 -> 40-45 instructions per
# element), the new build's full kernel table beside its wall times; (2) issue 12: NVIDIA's
# OpenCL against CUDA on the six perf inputs, and the host side of one multiply on each
# (MAGNUS_TRACE without device events); (3) issue 13, every target in one call: the real
# matrices f32/f64 and R-MAT scales 15-16 (AUTO against cuSPARSE), the host time outside
# kernels, the cold context, and HSMU-SpGEMM (f64) on the same inputs.
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
gpu_libs_setup "$old" "$root/.carry" >/dev/null 2>&1
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices; t0=$SECONDS
GPU_CHECK_STEPS=cuda,opencl GPU_CHECK_TESTS='spgemm_(batches|gmagnus|auto)_cuda$|spgemm_gmagnus_opencl$' OUT=$tmp/check timeout 150 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|TIMEOUT|^    \|" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
SANITIZE_CASES='^(default|in-place)$' OUT=$w timeout 90 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  MAGNUS_BACKENDS=cuda timeout 60 "$cs" --tool $tool "$new/tools/magnus" multiply rmat:13:8:1 rmat:13:8:2 --type f64 --algorithm magnus --verify >"$w/f64-$tool.log" 2>&1; say "f64 $tool: rc $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$w/f64-$tool.log") $(grep -h 'verified' "$w/f64-$tool.log" | head -1)"
done
pkill -f compute-sanitizer; sleep 1
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in "18 4" "19 8"; do
  set -- $p
  say "== s$1 ($((SECONDS-t0)) s)"
  for b in old new; do
    bin=$new; [ $b = old ] && bin=$old
    timeout 60 "$ncu" --clock-control none --csv -k regex:gmagnus_outer_product --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum "$bin/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-outer-s$1-$b.csv" 2>"$w/ncu-outer-s$1-$b.err"; say "ncu outer s$1 $b: $?"
    python3 - "$w/ncu-outer-s$1-$b.csv" "$b" >>"$S" <<'PY'
import csv, io, sys
txt = open(sys.argv[1]).read(); i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
by = {}
for r in rows: by.setdefault(r["ID"], {})[r["Metric Name"]] = (float(r["Metric Value"].replace(",", "")), r["Metric Unit"])
for k, m in by.items():
    t = m["gpu__time_duration.sum"]; ms = t[0] * {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0}.get(t[1], 1e-6)
    def gb(x): v, u = m[x]; return v * {"byte": 1e-9, "Kbyte": 1e-6, "Mbyte": 1e-3, "Gbyte": 1.0}.get(u, 1e-9)
    g = gb("dram__bytes_read.sum") + gb("dram__bytes_write.sum")
    print("  %s launch %s: %.3f ms, %.3f GB, %.1f %% of 4265 GB/s, %.3e warp instructions" % (sys.argv[2], k, ms, g, 100 * g / ms / 4265 * 1e3, m["smsp__inst_executed.sum"][0]))
PY
  done
  timeout 40 "$new/tools/magnus" bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 5 --runs-large 5 --systems cuda:0 --no-bandwidth --verify-limit 0 --csv "$w/wall-s$1.csv" >"$w/wall-s$1.log" 2>&1
  python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  wall %s: %s ms, outer_product_ms %s, peak %.2f GB, verified %s" % (r["input"], r["time_mean_ms"], r["outer_product_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["verified"]))' "$w/wall-s$1.csv" >>"$S" 2>&1
  timeout 90 "$ncu" --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$new/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-s$1.csv" 2>"$w/ncu-s$1.err"; say "ncu s$1 all: $?"
  python3 .carry/ncu_kernels.py "$w/ncu-s$1.csv" --copy-gbps 4265 --top 16 >"$w/ncu-s$1.table.txt" 2>&1; sed 's/^/  /' "$w/ncu-s$1.table.txt" >>"$S"
done
say "== OpenCL against CUDA ($((SECONDS-t0)) s)"
timeout 60 "$new/tools/magnus" bench "$M/soc-Slashdot0902.mtx.gz" "$M/email-Enron.mtx.gz" "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --rmat-sweep --scales 16-18 --a-per-row 4 --b-per-row 8 --runs 5 --verify-limit 2e7 --no-bandwidth --systems cuda:0,opencl:0 --csv "$out/cuda_opencl.csv" >"$w/cuda_opencl.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
python3 - "$out/cuda_opencl.csv" >>"$S" <<'PY'
import csv, sys, math
d = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] == "ok": d.setdefault(r["input"], {})[r["system"]] = float(r["time_median_ms"])
rs = []
for i, v in d.items():
    c, o = v.get("magnus@cuda:0"), v.get("magnus@opencl:0")
    if c and o: rs.append(o / c); print("  %-26s cuda %8.3f opencl %8.3f  opencl/cuda %.3f" % (i, c, o, o / c))
if rs: print("  geomean opencl/cuda %.3f, max %.3f" % (math.exp(sum(map(math.log, rs)) / len(rs)), max(rs)))
PY
for d in cuda opencl; do
  MAGNUS_TRACE=$w/htrace-$d.txt timeout 30 "$new/tools/magnus" bench "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --runs 3 --verify-limit 0 --no-bandwidth --systems $d:0 >/dev/null 2>&1
  python3 scripts/trace_summary.py "$w/htrace-$d.txt" --last 1 --top 6 >"$w/hsum-$d.txt" 2>&1; say "host trace $d:"; head -8 "$w/hsum-$d.txt" | sed 's/^/  /' >>"$S"
done
left=$((430 - SECONDS + t0)); say "== issue 13: methods ($((SECONDS-t0)) s, $left s left)"
METHODS_SYSTEMS=auto@cuda:0,cusparse@cuda:0 METHODS_BUDGET_S=$((left - 60)) OUT=$tmp/m timeout $((left - 40)) bash scripts/methods_h200.sh >/dev/null 2>&1; say "methods: $?"
cat "$tmp/m/summary.txt" >>"$S" 2>/dev/null; cp "$tmp/m/real32.csv" "$tmp/m/real64.csv" "$tmp/m/rmat.csv" "$tmp/m/cold.csv" "$out/" 2>/dev/null
say "== hsmu ($((SECONDS-t0)) s)"
mkdir -p /tmp/h && cd /tmp/h
for m in soc-Slashdot0902 vsp_befref_fxm_2_4_air02 email-Enron ca-HepPh vsp_sctap1-2b_and_seymourl ca-AstroPh_cc1 ego-Facebook astro-ph bcsstk16 EX5; do
  [ $((470 - SECONDS + t0)) -lt 8 ] && { say "hsmu $m: no time"; continue; }
  [ -e "$m.mtx" ] || gzip -dc "$M/$m.mtx.gz" > "$m.mtx"
  CUDA_MODULE_LOADING=EAGER timeout 20 "$root/.carry/hsmu/hsmu" "$m.mtx" > "$w/hsmu-$m.log" 2>&1
  say "hsmu $m: rc $? $(grep -h hsmu_total_ms "$w/hsmu-$m.log") conv_mean $(grep -h hsmu_conversion_ms "$w/hsmu-$m.log" | awk '{s+=$2;n++} END {if(n) printf "%.4f", s/n; else print "none"}') $(grep -h hsmu_cnnz "$w/hsmu-$m.log")"
done
cd "$root"
tar czf "$out/all.tgz" -C "$tmp" w m check 2>/dev/null
say "done $((SECONDS-t0)) s"

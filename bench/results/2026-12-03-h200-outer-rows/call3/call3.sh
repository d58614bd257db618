#!/usr/bin/env bash
# Device call 3 (2026-12-03, fourteenth session): the outer product by rows with aligned lines,
# its instructions cut, against call 2's kernel and the landed one.
# Builds: old (.carry/old, the landed kernels), a2 (.carry/a2/runtime: call 2's aligned rows,
# 63 registers, 4 groups per SM), v8 (.carry/v8/runtime: rows of 256 elements, 8 slots per
# item, 64 registers), new (build-gpu: rows of 128, each row's B entries and places through
# pointers with 32-bit offsets per slot, 48 registers, 5 groups per SM). The tools are each
# build's own (old) or build-gpu's (same host code); each run gets its library first.
# Call 2 found: aligned lines 1.569 -> 1.342 ms on s18 (59.2 % of the copy bandwidth), 7.962 ->
# 7.021 ms on s19 (59.5 %); L2 write requests -28 %; now 213 warp instructions per row, 0.59
# issued per scheduler, 7.2 of 16 warps active (64 registers), half the stall cycles waiting
# for the row's loads (L1 hit 57 %).
# Predicted: new: instructions 8.1e8 -> 4-5e8 on s18, 40 warps per SM: 1.342 -> 1.15-1.25 ms
# (63-69 %), s19 7.02 -> 6.0-6.6 ms; v8: write requests -8 % against a2 (9 lines per 256
# elements instead of 2 x 5), 1.25-1.32 ms.
# Must answer: (1) ncu of the outer product (time, DRAM, L2, instructions), four builds, s18 and
# s19; (2) wall times; (3) the whole multiply's kernel table (ncu) of s18 and s19, new build
# (issue 12's must-show); (4) CUDA suites and sanitizers on the new build; (5) the perf
# inputs and R-MAT 15-18, old against new.
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old; a2=$root/.carry/a2; v8=$root/.carry/v8
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
base=$root/.carry/lib
lib() { case $1 in old) echo "$old/runtime";; a2) echo "$a2/runtime";; v8) echo "$v8/runtime";; new) echo "$new/runtime";; esac; }
tool() { case $1 in old) echo "$old/tools/magnus";; *) echo "$new/tools/magnus";; esac; }
on() { local b=$1; shift; LD_LIBRARY_PATH="$(lib "$b"):$base" "$@"; } # on BUILD COMMAND...
for b in old a2 v8 new; do say "ldd $b: $(on $b ldd "$(tool $b)" | grep libmagnus)"; done
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
export MAGNUS_BACKENDS=cuda
M=$root/.carry/matrices; t0=$SECONDS
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in "18 4" "19 8"; do
  set -- $p
  say "== s$1 ($((SECONDS-t0)) s)"
  for b in old a2 v8 new; do
    on $b timeout 70 "$ncu" --clock-control none --csv -k regex:gmagnus_outer_product --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum "$(tool $b)" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-outer-s$1-$b.csv" 2>"$w/ncu-outer-s$1-$b.err"; say "ncu outer s$1 $b: $?"
    python3 - "$w/ncu-outer-s$1-$b.csv" "$b" >>"$S" <<'PY'
import csv, io, sys
txt = open(sys.argv[1]).read(); i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
by = {}
for r in rows: by.setdefault((r["ID"], r["Kernel Name"]), {})[r["Metric Name"]] = (float(r["Metric Value"].replace(",", "")), r["Metric Unit"])
for (k, name), m in by.items():
    t = m["gpu__time_duration.sum"]; ms = t[0] * {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0}.get(t[1], 1e-6)
    def gb(x): v, u = m[x]; return v * {"byte": 1e-9, "Kbyte": 1e-6, "Mbyte": 1e-3, "Gbyte": 1.0}.get(u, 1e-9)
    g = gb("dram__bytes_read.sum") + gb("dram__bytes_write.sum")
    l2r = m.get("lts__t_sectors_op_read.sum", (0, ""))[0] * 32e-9; l2w = m.get("lts__t_sectors_op_write.sum", (0, ""))[0] * 32e-9
    print("  %-3s %s %s: %.3f ms, DRAM %.3f GB (%.1f %% of 4265 GB/s), L2 read %.3f GB write %.3f GB, write requests %.3e, %.3e warp instructions" % (sys.argv[2], name[:22], k, ms, g, 100 * g / ms / 4265 * 1e3, l2r, l2w, m.get("lts__t_requests_op_write.sum", (0, ""))[0], m["smsp__inst_executed.sum"][0]))
PY
  done
  for b in old a2 v8 new; do
    on $b timeout 40 "$(tool $b)" bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 5 --runs-large 5 --systems cuda:0 --no-bandwidth --verify-limit 0 --csv "$w/wall-s$1-$b.csv" >"$w/wall-s$1-$b.log" 2>&1
    python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  %-3s wall %s: %s ms, outer_product_ms %s, peak %.2f GB, verified %s" % (sys.argv[2], r["input"], r["time_mean_ms"], r["outer_product_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["verified"]))' "$w/wall-s$1-$b.csv" $b >>"$S" 2>&1
  done
done
say "== kernel tables, new build ($((SECONDS-t0)) s)"
for p in "18 4" "19 8"; do
  set -- $p
  on new timeout 120 "$ncu" --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$new/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-all-s$1.csv" 2>"$w/ncu-all-s$1.err"; say "ncu all s$1: $?"
  python3 "$root/.carry/ncu_kernels.py" "$w/ncu-all-s$1.csv" --copy-gbps 4265 --top 16 >"$out/ncu-table-s$1.txt" 2>&1
  cat "$out/ncu-table-s$1.txt" >>"$S"
done
say "== suites ($((SECONDS-t0)) s)"
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='(spgemm_gmagnus.*|gmagnus_dense_chunks|spgemm_batches|spgemm_plan)_cuda$' OUT=$tmp/check timeout 120 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|TIMEOUT" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
say "== sanitize ($((SECONDS-t0)) s)"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  on new timeout 60 "$cs" --tool $tool "$new/tools/magnus" multiply rmat:12:8:1 rmat:12:8:2 --type f64 --algorithm magnus --local-mem 4096 --verify >"$w/f64-$tool.log" 2>&1; say "f64 $tool: rc $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$w/f64-$tool.log") $(grep -h 'verified' "$w/f64-$tool.log" | head -1)"
done
pkill -f compute-sanitizer; sleep 1
SANITIZE_CASES='^(small-budget|default|in-place|batches)$' OUT=$w timeout 150 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
say "== wall, perf inputs and R-MAT 15-18 ($((SECONDS-t0)) s)"
gpu_find_matrices "$M" soc-Slashdot0902 email-Enron vsp_befref_fxm_2_4_air02
for b in old new; do
  on $b timeout 80 "$(tool $b)" bench "${inputs[@]}" --rmat-sweep --scales 15-18 --a-per-row 4,8 --b-per-row 8 --runs 5 --runs-large 5 --verify-limit 2e7 --max-timed-seconds 3 --no-bandwidth --systems magnus@cuda:0 --csv "$w/perf-$b.csv" >"$w/perf-$b.log" 2>&1; say "perf $b: rc $? ($((SECONDS-t0)) s)"
done
python3 - "$w" >>"$S" <<'PY'
import csv, sys, os, math
w = sys.argv[1]; d = {}
for b in ("old", "new"):
    p = os.path.join(w, "perf-%s.csv" % b)
    if not os.path.exists(p): continue
    for r in csv.DictReader(open(p)):
        if r["status"] == "ok": d.setdefault(r["input"], {})[b] = r
rs = []
for k, v in sorted(d.items()):
    if "old" in v and "new" in v:
        o, n = float(v["old"]["time_median_ms"]), float(v["new"]["time_median_ms"])
        rs.append(o / n)
        print("  %-28s old %8.3f new %8.3f old/new %.3f outer %s -> %s verified %s" % (k, o, n, o / n, v["old"].get("outer_product_ms"), v["new"].get("outer_product_ms"), v["new"]["verified"]))
if rs: print("  geomean old/new %.3f (min %.3f)" % (math.exp(sum(map(math.log, rs)) / len(rs)), min(rs)))
PY
say "== detail ($((SECONDS-t0)) s)"
on new timeout 90 "$ncu" --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats -k regex:gmagnus_outer_product -s 1 -c 1 "$new/tools/magnus" multiply rmat:18:4:1 rmat:18:8:2 --device cuda:0 >"$out/ncu-detail.txt" 2>&1; say "detail: $?"
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\)|Issue Slots|Registers Per|Achieved Occupancy|Executed Instructions  |Warp Cycles Per Issued" "$out/ncu-detail.txt" >>"$S"
tar czf "$out/all.tgz" -C "$tmp" w check 2>/dev/null
say "done $((SECONDS-t0)) s"

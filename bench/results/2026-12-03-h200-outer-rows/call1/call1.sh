#!/usr/bin/env bash
# Device call 1 (2026-12-03, fourteenth session): the outer product by rows (build-gpu)
# against the landed kernels (.carry/old: the thirteenth session's call-3 bundle, whose gMAGNUS
# kernels are main's), each build on its own library (LD_LIBRARY_PATH per run; ldd printed).
# Change: teams of 32 items write rows of up to 128 elements (one A entry times a segment of
# its B row), B segments held in registers, the A entry's place and value loaded once per row;
# short segments packed several rows per pass. Before: 78 instructions per element, issue
# slots 66 % busy, 51.7 % / 53.5 % of the copy bandwidth on s18 / s19.
# Predicted (ncu): instructions 1.0e9 -> 1.2-2.0e8 on rmat-s18-a4-b8; the kernel becomes
# bound by its stores: 1.55 -> 1.0-1.25 ms (64-80 % of the copy bandwidth), rmat-s19-a8-b8
# 7.7-7.9 -> 5.0-6.3 ms; DRAM bytes within 2 %; the multiplies' outer_product_ms down by the
# same; nothing else moves.
# Must answer: (1) correct: CUDA suites of gMAGNUS, dense chunks, batches; memcheck, racecheck
# and synccheck on gMAGNUS cases, f32 and f64; (2) ncu of the outer product, both builds, s18
# and s19 (time, DRAM, instructions); (3) wall times, both builds, the perf inputs and R-MAT
# 15-18; (4) ncu sections of the new kernel (what bounds it now).
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
base=$root/.carry/lib
on() { local b=$1; shift; LD_LIBRARY_PATH="$b/runtime:$base" "$@"; } # on BUILD COMMAND...
for b in "$new" "$old"; do say "ldd $(basename "$b"): $(on "$b" ldd "$b/tools/magnus" | grep libmagnus)"; done
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
export MAGNUS_BACKENDS=cuda
M=$root/.carry/matrices; t0=$SECONDS
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in "18 4" "19 8"; do
  set -- $p
  say "== s$1 ($((SECONDS-t0)) s)"
  for b in old new; do
    bin=$new; [ $b = old ] && bin=$old
    on "$bin" timeout 70 "$ncu" --clock-control none --csv -k regex:gmagnus_outer --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum "$bin/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-outer-s$1-$b.csv" 2>"$w/ncu-outer-s$1-$b.err"; say "ncu outer s$1 $b: $?"
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
    print("  %s %s %s: %.3f ms, DRAM %.3f GB (%.1f %% of 4265 GB/s), L2 read %.3f GB write %.3f GB, %.3e warp instructions" % (sys.argv[2], name[:22], k, ms, g, 100 * g / ms / 4265 * 1e3, l2r, l2w, m["smsp__inst_executed.sum"][0]))
PY
  done
  for b in old new; do
    bin=$new; [ $b = old ] && bin=$old
    on "$bin" timeout 40 "$bin/tools/magnus" bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 5 --runs-large 5 --systems cuda:0 --no-bandwidth --verify-limit 0 --csv "$w/wall-s$1-$b.csv" >"$w/wall-s$1-$b.log" 2>&1
    python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  %s wall %s: %s ms, outer_product_ms %s, peak %.2f GB, verified %s" % (sys.argv[2], r["input"], r["time_mean_ms"], r["outer_product_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["verified"]))' "$w/wall-s$1-$b.csv" $b >>"$S" 2>&1
  done
done
say "== suites ($((SECONDS-t0)) s)"
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='(spgemm_gmagnus.*|gmagnus_dense_chunks|spgemm_batches|spgemm_plan)_cuda$' OUT=$tmp/check timeout 150 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|TIMEOUT" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
say "== sanitize ($((SECONDS-t0)) s)"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  on "$new" timeout 50 "$cs" --tool $tool "$new/tools/magnus" multiply rmat:13:8:1 rmat:13:8:2 --type f64 --algorithm magnus --verify >"$w/f64-$tool.log" 2>&1; say "f64 $tool: rc $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$w/f64-$tool.log") $(grep -h 'verified' "$w/f64-$tool.log" | head -1)"
done
pkill -f compute-sanitizer; sleep 1
SANITIZE_CASES='^(small-budget|default|in-place|batches)$' OUT=$w timeout 150 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
say "== wall, perf inputs and R-MAT 15-18 ($((SECONDS-t0)) s)"
gpu_find_matrices "$M" soc-Slashdot0902 email-Enron vsp_befref_fxm_2_4_air02
for b in old new; do
  bin=$new; [ $b = old ] && bin=$old
  on "$bin" timeout 80 "$bin/tools/magnus" bench "${inputs[@]}" --rmat-sweep --scales 15-18 --a-per-row 4,8 --b-per-row 8 --runs 5 --runs-large 5 --verify-limit 2e7 --max-timed-seconds 3 --no-bandwidth --systems magnus@cuda:0 --csv "$w/perf-$b.csv" >"$w/perf-$b.log" 2>&1; say "perf $b: rc $? ($((SECONDS-t0)) s)"
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
on "$new" timeout 90 "$ncu" --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats -k regex:gmagnus_outer_product -s 1 -c 1 "$new/tools/magnus" multiply rmat:18:4:1 rmat:18:8:2 --device cuda:0 >"$out/ncu-detail.txt" 2>&1; say "detail: $?"
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\)|Issue Slots|Registers Per|Achieved Occupancy|Executed Instructions  |Warp Cycles Per Issued" "$out/ncu-detail.txt" >>"$S"
tar czf "$out/all.tgz" -C "$tmp" w check 2>/dev/null
say "done $((SECONDS-t0)) s"

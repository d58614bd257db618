#!/usr/bin/env bash
# Device call 4 (2026-12-03, twelfth session): calls 1 and 3 again, each build on its own
# library. In calls 1 and 3 the second gpu_libs_setup (for the old build) put the old
# build's runtime/ first on LD_LIBRARY_PATH, which wins over the tools' RUNPATH: every
# magnus run started directly by those scripts, "new" and "old" alike, loaded the old
# libmagnus (the suites, the sanitizers and methods_h200.sh set their own path: the new one).
# Here each run gets its build's runtime/ first, and ldd shows which library it loads.
# Must answer: (1) issue 12: the outer product, call-1 build (old: group starts) against the
# final tree (new: the walk stepped with adds), ncu on rmat-s18-a4-b8 and rmat-s19-a8-b8
# (predicted 1.56 -> 1.15-1.35 ms, 7.73 -> 5.8-6.8 ms; 78 -> 40-45 instructions per element);
# (2) issue 12: NVIDIA's OpenCL against CUDA on the six perf inputs, final tree, and the
# call-1 build's OpenCL in the same call; (3) memcheck and racecheck in f64 on the final tree.
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
gpu_libs_setup "$old" "$root/.carry" >/dev/null 2>&1 # unpacks its tests; the path is set per run below
base=$root/.carry/lib
on() { local b=$1; shift; LD_LIBRARY_PATH="$b/runtime:$base" "$@"; } # on BUILD COMMAND...
for b in "$new" "$old"; do say "ldd $(basename "$b"): $(on "$b" ldd "$b/tools/magnus" | grep libmagnus)"; done
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices; t0=$SECONDS
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  on "$new" env MAGNUS_BACKENDS=cuda timeout 60 "$cs" --tool $tool "$new/tools/magnus" multiply rmat:13:8:1 rmat:13:8:2 --type f64 --algorithm magnus --verify >"$w/f64-$tool.log" 2>&1; say "f64 $tool: rc $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$w/f64-$tool.log") $(grep -h 'verified' "$w/f64-$tool.log" | head -1)"
done
pkill -f compute-sanitizer; sleep 1
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in "18 4" "19 8"; do
  set -- $p
  say "== s$1 ($((SECONDS-t0)) s)"
  for b in old new; do
    bin=$new; [ $b = old ] && bin=$old
    on "$bin" timeout 60 "$ncu" --clock-control none --csv -k regex:gmagnus_outer --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum "$bin/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-outer-s$1-$b.csv" 2>"$w/ncu-outer-s$1-$b.err"; say "ncu outer s$1 $b: $?"
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
    print("  %s %s %s: %.3f ms, %.3f GB, %.1f %% of 4265 GB/s, %.3e warp instructions" % (sys.argv[2], name[:22], k, ms, g, 100 * g / ms / 4265 * 1e3, m["smsp__inst_executed.sum"][0]))
PY
  done
  for b in old new; do
    bin=$new; [ $b = old ] && bin=$old
    on "$bin" timeout 40 "$bin/tools/magnus" bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 5 --runs-large 5 --systems cuda:0 --no-bandwidth --verify-limit 0 --csv "$w/wall-s$1-$b.csv" >"$w/wall-s$1-$b.log" 2>&1
    python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("  %s wall %s: %s ms, outer_product_ms %s, peak %.2f GB, verified %s" % (sys.argv[2], r["input"], r["time_mean_ms"], r["outer_product_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["verified"]))' "$w/wall-s$1-$b.csv" $b >>"$S" 2>&1
  done
done
say "== OpenCL against CUDA ($((SECONDS-t0)) s)"
six=("$M/soc-Slashdot0902.mtx.gz" "$M/email-Enron.mtx.gz" "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --rmat-sweep --scales 16-18 --a-per-row 4 --b-per-row 8 --runs 5 --verify-limit 2e7 --no-bandwidth)
on "$new" timeout 60 "$new/tools/magnus" bench "${six[@]}" --systems cuda:0,opencl:0 --csv "$out/cuda_opencl.csv" >"$w/cuda_opencl.log" 2>&1; say "new: rc $? ($((SECONDS-t0)) s)"
on "$old" timeout 50 "$old/tools/magnus" bench "${six[@]}" --systems opencl:0 --csv "$w/opencl_old.csv" >"$w/opencl_old.log" 2>&1; say "old opencl: rc $? ($((SECONDS-t0)) s)"
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
    print("  %-26s cuda %8.3f (alloc %.3f) | opencl %8.3f (alloc %.3f, %s) old %8.3f | opencl/cuda %.3f old/cuda %.3f" % (
        i, tc, float(c["alloc_ms"] or 0), to, float(o["alloc_ms"] or 0), o["verified"], too, to / tc, too / tc))
g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
print("  geomean opencl/cuda: new %.3f (max %.3f), old %.3f" % (g(rn), max(rn) if rn else 0, g(ro)))
PY
tar czf "$out/all.tgz" -C "$tmp" w 2>/dev/null
say "done $((SECONDS-t0)) s"

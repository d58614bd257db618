#!/usr/bin/env bash
# Device call 6 (2026-12-03, thirteenth session): the dense-row kernels' write-out and tile
# scan (build-gpu) against call 3's kernels (.carry/old, a copy of call 3's bundle), each build
# on its own library (LD_LIBRARY_PATH per run; ldd printed).
# Call 5 (ncu, vsp_befref f64): hash_rows_dense_numeric 1.47 ms alone, 43 % of its stall
# samples at barriers, L2 at 65 % for 0.54 GB of DRAM traffic: every item wrote its own bitmap
# words' entries one after another (most items idle, each store to another sector) and every
# tile, of ~14 entries, paid a group scan of 2 log2(1024) barriers.
# Change: consecutive items write consecutive columns (word ranks from one group scan), and
# tiles of at most 64 entries are scanned by one item.
# Predicted: dense numeric 1.47 -> 0.7-1.0 ms, dense symbolic 0.40 -> 0.25-0.35 ms; vsp_befref
# f64 multiply 2.16 -> 1.5-1.8 ms.
# Must answer: (1) the kernels' times (ncu) old and new on vsp_befref f64 and ego-Facebook f64;
# (2) the multiplies' times, AUTO, both builds, real64 and real32 (all ten) in one call;
# (3) compute-sanitizer memcheck, racecheck, synccheck on the new kernels; the CUDA suites.
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
base=$root/.carry/lib
on() { local b=$1; shift; LD_LIBRARY_PATH="$b/runtime:$base" "$@"; } # on BUILD COMMAND...
for b in "$new" "$old"; do say "ldd $(basename "$b"): $(on "$b" ldd "$b/tools/magnus" | grep libmagnus)"; done
export MAGNUS_BACKENDS=cuda
M=$root/.carry/matrices; t0=$SECONDS
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='(spgemm_(hash|auto)|hash_work)_cuda$' OUT=$tmp/check timeout 100 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|TIMEOUT" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
SANITIZE_CASES='^(dense-rows|dense-rows-f64)$' OUT=$w timeout 130 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for m in vsp_befref_fxm_2_4_air02 ego-Facebook; do
  for b in old new; do
    bin=$new; [ $b = old ] && bin=$old
    on "$bin" timeout 60 "$ncu" --clock-control none --csv -k regex:hash_rows_dense --metrics gpu__time_duration.sum "$bin/tools/magnus" multiply "$M/$m.mtx.gz" --type f64 --algorithm hash >"$w/ncu-$m-$b.csv" 2>&1
    python3 - "$w/ncu-$m-$b.csv" "$m" "$b" >>"$S" <<'PY'
import csv, io, sys
txt = open(sys.argv[1]).read(); i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
t = {}
for r in rows:
    if r["Metric Name"] == "gpu__time_duration.sum":
        v = float(r["Metric Value"].replace(",", "")); v = v / 1e6 if r["Metric Unit"] == "nsecond" else v / 1e3 if r["Metric Unit"] == "usecond" else v
        t.setdefault(r["Kernel Name"], []).append(v)
print("  ncu %-26s %-3s " % (sys.argv[2], sys.argv[3]) + ", ".join("%s last %.3f ms" % (k, v[-1]) for k, v in sorted(t.items())))
PY
  done
done
for b in old new; do
  bin=$new; [ $b = old ] && bin=$old
  for ty in f64 f32; do
    on "$bin" timeout 60 "$bin/tools/magnus" bench --matrices "$M" --min-products 1e7 --type $ty --systems auto@cuda:0 --runs 10 --runs-large 5 --max-timed-seconds 5 --verify-limit 2e7 --no-bandwidth --csv "$w/$b-$ty.csv" >"$w/$b-$ty.log" 2>&1; say "bench $b $ty: $?"
  done
done
python3 - "$w" >>"$S" <<'PY'
import csv, sys, os, math
w = sys.argv[1]
for ty in ("f64", "f32"):
    d = {}
    for b in ("old", "new"):
        for r in csv.DictReader(open(os.path.join(w, "%s-%s.csv" % (b, ty)))):
            if r["status"] == "ok": d.setdefault(r["input"], {})[b] = (float(r["time_median_ms"]), r["verified"])
    rs = []
    for k, v in sorted(d.items()):
        if "old" in v and "new" in v:
            rs.append(v["old"][0] / v["new"][0])
            print("  %s %-28s old %7.3f new %7.3f  old/new %.3f %s" % (ty, k, v["old"][0], v["new"][0], rs[-1], v["new"][1]))
    print("  %s geomean old/new %.3f (min %.3f)" % (ty, math.exp(sum(map(math.log, rs)) / len(rs)), min(rs)))
PY
cp "$w"/new-f64.csv "$w"/new-f32.csv "$w"/old-f64.csv "$w"/old-f32.csv "$out/" 2>/dev/null
tar czf "$out/all.tgz" -C "$tmp" w check 2>/dev/null
say "done $((SECONDS-t0)) s"

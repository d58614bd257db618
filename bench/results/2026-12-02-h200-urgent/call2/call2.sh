#!/usr/bin/env bash
# Device call 2 (2026-12-02, tenth session), f64: the A/B of the urgent light queue, the C
# allocation order and the in-place multisplit on four inputs; the device timeline of
# vsp_befref in f64; HSMU on the ten shared matrices; then issue 13's real32/real64/rmat
# against cuSPARSE (scripts/methods_h200.sh, AUTO).
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; w=$out/w; mkdir -p "$w"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices
IN=("$M/vsp_befref_fxm_2_4_air02.mtx.gz" "$M/vsp_sctap1-2b_and_seymourl.mtx.gz" "$M/soc-Slashdot0902.mtx.gz" "$M/ca-HepPh.mtx.gz")
B=(bench "${IN[@]}" --type f64 --runs 10 --verify-limit 2e7 --no-bandwidth --max-timed-seconds 4 --systems auto@cuda:0)
t0=$SECONDS
for r in 1 2; do
  env LD_LIBRARY_PATH="$old:$LD_LIBRARY_PATH" timeout 100 "$old/magnus" "${B[@]}" --csv "$w/old-$r.csv" >>"$w/bench.log" 2>&1; say "round $r old: $? ($((SECONDS-t0)) s)"
  timeout 100 "$new/tools/magnus" "${B[@]}" --csv "$w/new-$r.csv" >>"$w/bench.log" 2>&1; say "round $r new: $? ($((SECONDS-t0)) s)"
  MAGNUS_URGENT_LIGHT=0 timeout 100 "$new/tools/magnus" "${B[@]}" --csv "$w/urgent0-$r.csv" >>"$w/bench.log" 2>&1; say "round $r urgent0: $? ($((SECONDS-t0)) s)"
  MAGNUS_CHAT_GAP=0 timeout 100 "$new/tools/magnus" "${B[@]}" --csv "$w/gap0-$r.csv" >>"$w/bench.log" 2>&1; say "round $r gap0: $? ($((SECONDS-t0)) s)"
done
python3 - "$w" >>"$S" <<'PY'
import csv, glob, os, sys
w = sys.argv[1]; rows = {}
for f in sorted(glob.glob(os.path.join(w, "*-[0-9].csv"))):
    kind = os.path.basename(f).rsplit("-", 1)[0]
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok": continue
        rows.setdefault((r["input"], kind), []).append((float(r["time_mean_ms"]), r["verified"], r["algorithm"]))
ks = ("old", "new", "urgent0", "gap0")
print("%-28s" % "input f64 (mean ms, median of 2 rounds)" + "".join("%10s" % k for k in ks) + "   new/old  u0/old gap0/old")
for i in sorted({k[0] for k in rows}):
    med = {}
    for k in ks:
        v = sorted(t for t, _, _ in rows.get((i, k), [])); med[k] = v[(len(v)-1)//2] if v else float("nan")
    print("%-28s" % i + "".join("%10.3f" % med[k] for k in ks) + "  %8.3f %7.3f %7.3f  %s" % (med["new"]/med["old"], med["urgent0"]/med["old"], med["gap0"]/med["old"], sorted({(x[1], x[2]) for x in rows.get((i, "new"), [])})))
PY
for u in 1 0; do
  rm -f "$w/trace-befref64-u$u.txt"
  MAGNUS_URGENT_LIGHT=$u MAGNUS_TRACE="$w/trace-befref64-u$u.txt" MAGNUS_TRACE_DEVICE=1 timeout 60 "$new/tools/magnus" bench "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --type f64 --runs 3 --verify-limit 0 --no-bandwidth --systems auto@cuda:0 >>"$w/trace.log" 2>&1
  say "== trace befref f64 urgent=$u: $?"
  python3 scripts/trace_summary.py "$w/trace-befref64-u$u.txt" --top 8 >>"$S" 2>&1
done
say "== hsmu ($((SECONDS-t0)) s)"
mkdir -p /tmp/h && cd /tmp/h
for m in soc-Slashdot0902 vsp_befref_fxm_2_4_air02 email-Enron ca-HepPh vsp_sctap1-2b_and_seymourl ca-AstroPh_cc1 ego-Facebook astro-ph bcsstk16 EX5; do
  gzip -dc "$M/$m.mtx.gz" > "$m.mtx"
  CUDA_MODULE_LOADING=EAGER timeout 60 "$root/.carry/hsmu/hsmu" "$m.mtx" > "$w/hsmu-$m.log" 2>&1
  say "hsmu $m: rc $? $(grep -h hsmu_total_ms "$w/hsmu-$m.log") conv_mean $(grep -h hsmu_conversion_ms "$w/hsmu-$m.log" | awk '{s+=$2;n++} END {if(n) printf "%.4f", s/n; else print "none"}')"
done
cd "$root"
say "== methods ($((SECONDS-t0)) s)"
METHODS_STEPS=real32,real64,rmat METHODS_SYSTEMS=auto@cuda:0,cusparse@cuda:0 METHODS_BUDGET_S=$((540-SECONDS)) OUT=$out/m timeout $((560-SECONDS)) bash scripts/methods_h200.sh >/dev/null 2>&1; say "methods: $?"
cat "$out/m/summary.txt" >>"$S" 2>/dev/null
tar czf "$out/all.tgz" -C "$out" w m 2>/dev/null
say "done $((SECONDS-t0)) s"

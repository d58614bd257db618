#!/usr/bin/env bash
# Device call 1 (2026-12-02, tenth session): what the light queue's urgency and the C
# allocation order change, and where a gMAGNUS multiply's device time goes.
set -u
root=$(pwd); new=$root/build-gpu; old=$root/.carry/old
out=${OUT:-$root/call-out}; w=$out/w; mkdir -p "$w"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices
IN=("$M/vsp_befref_fxm_2_4_air02.mtx.gz" "$M/vsp_sctap1-2b_and_seymourl.mtx.gz" "$M/soc-Slashdot0902.mtx.gz" "rmat:18:4:1,rmat:18:8:2")
B=(bench "${IN[@]}" --runs 10 --runs-large 5 --verify-limit 2e7 --no-bandwidth --max-timed-seconds 4)
t0=$SECONDS
for r in 1 2; do
  env LD_LIBRARY_PATH="$old:$LD_LIBRARY_PATH" timeout 120 "$old/magnus" "${B[@]}" --systems cuda:0 --csv "$w/old-$r.csv" >>"$w/bench.log" 2>&1; say "round $r old: $? ($((SECONDS-t0)) s)"
  sys=cuda:0; [ $r = 1 ] && sys=cuda:0,cusparse@cuda:0
  timeout 120 "$new/tools/magnus" "${B[@]}" --systems $sys --csv "$w/new-$r.csv" >>"$w/bench.log" 2>&1; say "round $r new: $? ($((SECONDS-t0)) s)"
  MAGNUS_URGENT_LIGHT=0 timeout 120 "$new/tools/magnus" "${B[@]}" --systems cuda:0 --csv "$w/variant-$r.csv" >>"$w/bench.log" 2>&1; say "round $r urgent0: $? ($((SECONDS-t0)) s)"
done
python3 - "$w" >>"$S" <<'PY'
import csv, glob, os, sys
w = sys.argv[1]; rows = {}
for f in sorted(glob.glob(os.path.join(w, "*-[0-9].csv"))):
    kind = os.path.basename(f).rsplit("-", 1)[0]
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok": continue
        k = "cusparse" if r["system"].startswith("cusparse") else kind
        rows.setdefault((r["input"], k), []).append((float(r["time_mean_ms"]), r.get("verified"), r.get("algorithm", "")))
print("%-28s %9s %9s %9s %9s %8s %8s" % ("input", "old", "new", "urgent0", "cusparse", "new/old", "u0/old"))
for i in sorted({k[0] for k in rows}):
    med = {}
    for k in ("old", "new", "variant", "cusparse"):
        v = sorted(t for t, _, _ in rows.get((i, k), [])); med[k] = v[len(v)//2] if v else float("nan")
    print("%-28s %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f  %s" % (i, med["old"], med["new"], med["variant"], med["cusparse"], med["new"]/med["old"], med["variant"]/med["old"], [x[1] for x in rows.get((i,"new"),[])]))
PY
for u in 1 0; do
  for spec in "$M/vsp_befref_fxm_2_4_air02.mtx.gz" "rmat:18:4:1,rmat:18:8:2"; do
    n=$(basename "${spec%%,*}" .mtx.gz | tr ':' '-')
    rm -f "$w/trace-$n-u$u.txt"
    MAGNUS_URGENT_LIGHT=$u MAGNUS_TRACE="$w/trace-$n-u$u.txt" MAGNUS_TRACE_DEVICE=1 timeout 90 "$new/tools/magnus" bench "$spec" --runs 3 --verify-limit 0 --no-bandwidth --systems cuda:0 >>"$w/trace.log" 2>&1
    say "== trace $n urgent=$u: $?"
    python3 scripts/trace_summary.py "$w/trace-$n-u$u.txt" --top 10 >>"$S" 2>&1
  done
done
if [ -x .carry/hsmu/hsmu ]; then
  mkdir -p /tmp/h && cd /tmp/h && gzip -dc "$M/vsp_befref_fxm_2_4_air02.mtx.gz" > befref.mtx
  for r in 1 2; do CUDA_MODULE_LOADING=EAGER timeout 60 "$root/.carry/hsmu/hsmu" befref.mtx > "$w/hsmu-$r.log" 2>&1; say "hsmu $r: $? $(grep -h hsmu_total_ms "$w/hsmu-$r.log") conv $(grep -h hsmu_conversion_ms "$w/hsmu-$r.log" | awk '{s+=$2;n++} END {if(n) print s/n}')"; done
  cd "$root"
fi
say "== suites ($((SECONDS-t0)) s)"
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='spgemm_(gmagnus|auto|hash)_cuda$' OUT=$out/check timeout $((560-SECONDS)) bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $?"
cat "$out/check/summary.txt" >>"$S" 2>/dev/null
tar czf "$out/all.tgz" -C "$out" w check 2>/dev/null
say "done $((SECONDS-t0)) s"

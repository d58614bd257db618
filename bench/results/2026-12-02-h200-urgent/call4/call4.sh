#!/usr/bin/env bash
# Device call 4 (2026-12-02, tenth session): call 3 again on the final tree (cadcda2 bundled), its own defaults:
# MAGNUS_CHAT_GAP_MIN_BYTES=2147483648, the default of cadcda2): issue 13's real32/real64/rmat
# against cuSPARSE and HSMU on the ten shared matrices, in one call; the CUDA suites.
set -u
root=$(pwd); new=$root/build-gpu
out=${OUT:-$root/call-out}; w=$out/w; mkdir -p "$w"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
unset MAGNUS_CHAT_GAP_MIN_BYTES
M=$root/.carry/matrices; t0=$SECONDS
METHODS_STEPS=real32,real64,rmat METHODS_SYSTEMS=auto@cuda:0,cusparse@cuda:0 METHODS_BUDGET_S=300 OUT=$out/m timeout 320 bash scripts/methods_h200.sh >/dev/null 2>&1; say "methods: $?"
cat "$out/m/summary.txt" >>"$S" 2>/dev/null
say "== hsmu ($((SECONDS-t0)) s)"
mkdir -p /tmp/h && cd /tmp/h
for m in soc-Slashdot0902 vsp_befref_fxm_2_4_air02 email-Enron ca-HepPh vsp_sctap1-2b_and_seymourl ca-AstroPh_cc1 ego-Facebook astro-ph bcsstk16 EX5; do
  [ -e "$m.mtx" ] || gzip -dc "$M/$m.mtx.gz" > "$m.mtx"
  CUDA_MODULE_LOADING=EAGER timeout 60 "$root/.carry/hsmu/hsmu" "$m.mtx" > "$w/hsmu-$m.log" 2>&1
  say "hsmu $m: rc $? $(grep -h hsmu_total_ms "$w/hsmu-$m.log") conv_mean $(grep -h hsmu_conversion_ms "$w/hsmu-$m.log" | awk '{s+=$2;n++} END {if(n) printf "%.4f", s/n; else print "none"}')"
done
cd "$root"
say "== befref f64 again, AUTO ($((SECONDS-t0)) s)"
timeout 60 "$new/tools/magnus" bench "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --type f64 --runs 10 --verify-limit 2e7 --no-bandwidth --systems auto@cuda:0 --csv "$w/befref64.csv" 2>&1 | grep "magnus\|auto@" | tail -2 >>"$S"
say "== suites ($((SECONDS-t0)) s)"
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='spgemm_(gmagnus|gmagnus_in_place|auto|hash|plan)_cuda$|probe' OUT=$out/check timeout 200 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $?"
cat "$out/check/summary.txt" >>"$S" 2>/dev/null
tar czf "$out/all.tgz" -C "$out" w m check 2>/dev/null
say "done $((SECONDS-t0)) s"

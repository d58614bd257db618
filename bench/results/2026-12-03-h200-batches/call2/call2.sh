#!/usr/bin/env bash
# Device call 2 (2026-12-03, eleventh session): the final tree of the batches change.
# Must answer: (1) the gMAGNUS suite with its updated memory-limit test, and the batches suite,
# pass on CUDA; (2) where the batched
# rmat-s19-a32-b8's extra time goes (host and device trace); (3) issue 12's R-MAT sweep
# (scales 15-19, A 4-32, B 8, seeds 1 and 2, cuSPARSE in the same run); (4) scale 20, A 4-32.
set -u
root=$(pwd); new=$root/build-gpu
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
t0=$SECONDS
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='spgemm_(batches|gmagnus)_cuda$' OUT=$tmp/check timeout 90 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|^    \|" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
rm -f "$w/trace-s19a32.txt"
MAGNUS_TRACE="$w/trace-s19a32.txt" MAGNUS_TRACE_DEVICE=1 timeout 60 "$new/tools/magnus" bench --rmat-sweep --scales 19-19 --a-per-row 32 --b-per-row 8 --runs 1 --runs-large 1 --verify-limit 0 --no-bandwidth --no-fit-check --systems cuda:0 --csv "$w/trace-s19a32.csv" >"$w/trace.log" 2>&1; say "== trace s19-a32 batched: $? ($((SECONDS-t0)) s)"
python3 scripts/trace_summary.py "$w/trace-s19a32.txt" --top 12 >>"$S" 2>&1
say "== sweep ($((SECONDS-t0)) s)"
OUT=$tmp/b BENCH_PHASES=rmat BENCH_B=8 BENCH_A=4,8,16,32 BENCH_SCALES=15-19 BENCH_SEEDS=1,2 BENCH_RUNS=10 BENCH_RUNS_LARGE=3 BENCH_BUDGET_S=330 BENCH_MARGIN_S=35 timeout 345 bash scripts/bench_h200.sh .carry/matrices >"$w/sweep.out" 2>&1; say "sweep: $? ($((SECONDS-t0)) s)"
cat "$tmp/b/summary.txt" >>"$S" 2>/dev/null; cp "$tmp/b/rmat.csv" "$tmp/b/rmat.json" "$out/" 2>/dev/null
left=$((585 - SECONDS + t0)); say "== s20 A 4-32, cuSPARSE beside (${left} s left)"
[ $left -gt 30 ] && timeout $left "$new/tools/magnus" bench --rmat-sweep --scales 20-20 --a-per-row 4,8,16,32 --b-per-row 8 --runs 3 --runs-large 2 --no-bandwidth --no-fit-check --systems cuda:0,cusparse@cuda:0 --csv "$out/rmat20.csv" >"$w/s20.log" 2>&1; say "s20: $? ($((SECONDS-t0)) s)"
grep -E "ok |failed|skipped" "$w/s20.log" | cut -c1-220 >>"$S"
tar czf "$out/all.tgz" -C "$tmp" w check b 2>/dev/null
say "done $((SECONDS-t0)) s"

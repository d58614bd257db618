#!/usr/bin/env bash
# Issue 12's R-MAT checks beyond the main sweep, in one device call (about 8-9 minutes), ON the
# GPU machine after scripts/gpu_bundle.sh and `scripts/bench_h200.sh --prepare` here:
#   run(command="bash scripts/rmat_more_h200.sh", carry=["build-gpu", ".carry"], timeout_s=600)
# What each step must answer:
#   check      do all CUDA suites pass on this build (kernel preloading on by default)?
#   sanitize   compute-sanitizer memcheck, racecheck, synccheck clean on AUTO, the default
#              gMAGNUS, the hash algorithm in global tables, the multisplit in place?
#   s20        scale 20 (A 4 and 8 per row, B 8, seeds 1 and 2): magnus against the best
#              cuSPARSE algorithm, and the peak memory of both
#   densities  other densities and a seed the main sweep never used (B 4 and 16, A 8 and 16,
#              scales 16-18, seed 3): does the >= 2x / none < 1.2x result hold off the sweep?
# RMAT_MORE_STEPS picks steps (default check,sanitize,s20,densities); RMAT_MORE_DEADLINE_S
# (default 560) is when the last step must end. Output in $OUT: summary.txt, check.log,
# sanitize.log, s20.csv, densities.csv, logs.tgz (the bench logs and JSON).
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start rmat-more summary.txt
summary=$say_file
steps=${RMAT_MORE_STEPS:-check,sanitize,s20,densities}
deadline=${RMAT_MORE_DEADLINE_S:-560}
left() { echo $((deadline - SECONDS)); }

if has check; then
  step check 200 env GPU_CHECK_STEPS=cuda OUT="$out/check" bash scripts/gpu_check.sh
  cp "$out/check/summary.txt" "$out/check.log" 2>/dev/null
fi
if has sanitize; then
  step sanitize 150 env OUT="$out" SANITIZE_CASES='^(auto|default|hash-global|in-place)$' \
    bash scripts/sanitize_h200.sh
fi
# bench NAME SHARE ENV...: scripts/bench_h200.sh's R-MAT phase with SHARE of the time left
bench() {
  local name=$1 share=$2 budget
  shift 2
  budget=$(($(left) * share / 100))
  if [ "$budget" -lt 60 ]; then say "$name: not started, ${budget}s left"; return; fi
  step "$name" $((budget + 20)) env OUT="$out/$name" BENCH_PHASES=rmat BENCH_BUDGET_S="$budget" \
    BENCH_MARGIN_S=40 BENCH_RUNS=10 BENCH_RUNS_LARGE=3 "$@" bash scripts/bench_h200.sh .carry/matrices
  cp "$out/$name/rmat.csv" "$out/$name.csv" 2>/dev/null
  sed -n '/^====/,$p' "$out/$name/summary.txt" >>"$summary" 2>/dev/null
}
has s20 && bench s20 50 BENCH_SCALES=20 BENCH_A=4,8 BENCH_B=8 BENCH_SEEDS=1,2
has densities && bench densities 100 BENCH_SCALES=16-18 BENCH_A=8,16 BENCH_B=4,16 BENCH_SEEDS=3
(cd "$out" && tar czf logs.tgz --exclude=logs.tgz check s20 densities 2>/dev/null &&
  rm -rf check s20 densities)
say "rmat_more_h200: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'a step FAILED')"
exit $failed

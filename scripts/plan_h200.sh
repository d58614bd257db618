#!/usr/bin/env bash
# Issue 16's plan and Python measurements in one device call (about 6-8 minutes), ON the GPU
# machine after scripts/gpu_bundle.sh and `scripts/bench_h200.sh --prepare` here:
#   run(command="bash scripts/plan_h200.sh", carry=["build-gpu", ".carry"], timeout_s=600)
# What each step must answer:
#   check     do the CUDA suites of plans, wrapped and native buffers and primitives pass?
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck clean on the plan kernels
#             (the plan suite through CUDA: both kinds, the fallback, every local window; a
#             bench plan on R-MAT) and the structure check of wrapped matrices (its suite)?
#   bench     a plan's re-execution against a full multiply (soc-Slashdot0902, rmat-s18-a4-b8),
#             the product-positions plans (default) beside the hash kind
#             (MAGNUS_PLAN_POSITIONS=0): is it at most half a full multiply?
#   ncu       plan_numeric and plan_positions on rmat-s18-a4-b8: time, DRAM and L2 bytes
#   python    the CuPy path against magnus_spgemm_device, SciPy against the CLI
#             (bench/python_timing.py), and the Python suite with CuPy
#   small     issue 13's small inputs (<= 3e7 products): the multiply's wall time (bench,
#             AUTO) against the sum of its kernels' device times (ncu, one CLI multiply):
#             is the time outside kernels <= 0.3 ms?
# PLAN_STEPS picks steps (default check,sanitize,bench,ncu,python,small);
# PLAN_PYTHON_RUNS (default 30) timed calls per Python path; PLAN_SANITIZE_STRUCTURE=0 leaves the structure suite out of the sanitizers; PLAN_DEADLINE_S
# (default 560) is when the last step must end. Output in $OUT:
# summary.txt, sanitize.log, plan.csv, plan-hash.csv, ncu.txt, python.json, small.csv,
# logs.tgz (the check's summary, every log, the JSON, the small inputs' ncu CSVs).
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start plan summary.txt
summary=$say_file
steps=${PLAN_STEPS:-check,sanitize,bench,ncu,python,small}
deadline=${PLAN_DEADLINE_S:-560} # the device tool stops a call at 600 s
step() { # NAME TIMEOUT COMMAND...: skipped when the deadline leaves it no time
  local name=$1 limit=$2 start=$SECONDS
  shift 2
  if [ $((deadline - SECONDS)) -lt 20 ]; then say "$name: not started (deadline)"; failed=1; return; fi
  [ "$limit" -gt $((deadline - SECONDS)) ] && limit=$((deadline - SECONDS))
  if timeout "$limit" "$@"; then say "$name: ok ($((SECONDS - start)) s)"
  else say "$name: FAILED (exit $?, $((SECONDS - start)) s)"; failed=1; fi
}

if has check; then
  step check 150 env GPU_CHECK_STEPS=cuda OUT="$out/check" \
    GPU_CHECK_TESTS='plan|wrap|native|structure|primitives|kernel' bash scripts/gpu_check.sh
  cp "$out/check/summary.txt" "$out/check-summary.log" 2>/dev/null
fi
gpu_libs_setup "$root/build-gpu" "$root/.carry" >>"$summary"
gpu_find_cusparse >>"$summary" 2>&1
export MAGNUS_BACKENDS=cuda
slashdot=.carry/matrices/soc-Slashdot0902.mtx.gz
if has sanitize; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  log=$out/sanitize.log
  : >"$log"
  for tool in memcheck racecheck synccheck; do
    echo "== plan suite ($tool)" >>"$log"
    step "sanitize-suite-$tool" 120 "$cs" --tool "$tool" --target-processes all \
      --error-exitcode 3 build-gpu/tests/spgemm_plan -j1 >>"$log" 2>&1
    [ "${PLAN_SANITIZE_STRUCTURE:-1}" = 1 ] || continue
    echo "== structure suite ($tool)" >>"$log"
    step "sanitize-structure-$tool" 100 "$cs" --tool "$tool" --target-processes all \
      --error-exitcode 3 build-gpu/tests/device_csr_structure -j1 >>"$log" 2>&1
  done
  echo "== bench plan, rmat 14 (memcheck)" >>"$log"
  step sanitize-bench-memcheck 100 "$cs" --tool memcheck --error-exitcode 3 "$magnus" bench \
    --rmat-sweep --scales 14 --a-per-row 8 --b-per-row 8 --systems cuda:0 --plan --runs 1 \
    >>"$log" 2>&1
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Synthesis" "$log" | sort | uniq -c >>"$summary"
fi
if has bench; then
  step bench 200 "$magnus" bench "$slashdot" --rmat-sweep --scales 18 --a-per-row 4 \
    --b-per-row 8 --systems cuda:0,hash@cuda:0 --plan --runs 10 \
    --csv "$out/plan.csv" --json "$out/plan.json" >"$out/plan.log" 2>&1
  step bench-hash-kind 200 env MAGNUS_PLAN_POSITIONS=0 "$magnus" bench "$slashdot" \
    --rmat-sweep --scales 18 --a-per-row 4 --b-per-row 8 --systems cuda:0 --plan --runs 5 \
    --csv "$out/plan-hash.csv" --json "$out/plan-hash.json" >"$out/plan-hash.log" 2>&1
fi
if has ncu; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  step ncu 150 "$ncu" --clock-control none --kernel-name regex:'plan_|gmagnus_outer' \
    --launch-count 8 --metrics \
    gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum \
    "$magnus" bench --rmat-sweep --scales 18 --a-per-row 4 --b-per-row 8 --systems cuda:0 \
    --plan --runs 1 >"$out/ncu.txt" 2>&1
fi
small=(EX5 bcsstk16 ca-AstroPh_cc1 email-Enron)
if has small; then
  files=()
  for m in "${small[@]}"; do files+=(".carry/matrices/$m.mtx.gz"); done
  step small-bench 120 "$magnus" bench "${files[@]}" --systems auto@cuda:0 --runs 20 \
    --csv "$out/small.csv" --json "$out/small.json" >"$out/small.log" 2>&1
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for m in "${small[@]}"; do
    step "small-ncu-$m" 60 "$ncu" --clock-control none --csv --metrics gpu__time_duration.sum \
      "$magnus" multiply ".carry/matrices/$m.mtx.gz" --device cuda:0 >"$out/small-$m.ncu.csv" 2>&1
  done
fi
if has python; then
  step python-timing 150 env MAGNUS_LIBRARY="$root/build-gpu/runtime/libmagnus.so" \
    PYTHONPATH="$root/python" python3 bench/python_timing.py "$slashdot" --cli "$magnus" \
    --runs "${PLAN_PYTHON_RUNS:-30}" --profile "$out/python-profile.log" >"$out/python.json" 2>"$out/python-timing.log"
  step python-suite 150 env MAGNUS_LIBRARY="$root/build-gpu/runtime/libmagnus.so" \
    PYTHONPATH="$root/python" python3 -m pytest -q python/tests >"$out/python.log" 2>&1
  tail -3 "$out/python.log" >>"$summary"
fi
# 8 files at most come back: the logs and JSON go into logs.tgz
(cd "$out" && { tar czf logs.tgz --exclude=logs.tgz check ./*.log ./*.json ./*.ncu.csv 2>/dev/null
  rm -rf check check-summary.log plan.log plan-hash.log python.log python-timing.log small.log \
    python-profile.log \
    plan.json plan-hash.json small.json ./*.ncu.csv; })
say "plan_h200: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'a step FAILED')"
exit $failed

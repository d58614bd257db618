#!/usr/bin/env bash
# Runs ON the GPU machine (an NVIDIA H200 reached through the device tool), from the
# repository root, with build-gpu/ and .carry/ made here by scripts/gpu_bundle.sh:
#   run(command="bash scripts/gpu_check.sh", carry=["build-gpu", ".carry"])
# Writes to $OUT (default ./gpu-out), a handful of files (the device tool brings back 8 at most):
#   summary.txt    one line per step (verdict, seconds; the tail of a failing step's log)
#   logs.tar.gz    every step's log, refreshed after each step
#   params.txt, verify.txt   from the verify step (scripts/gpu_verify.sh)
# Steps: nvidia-smi; the device probe (CUDA, NVIDIA's OpenCL, PoCL if present); the build's
# tests labelled cuda (device tests with MAGNUS_BACKENDS=cuda, the loader tests); the tests
# labelled opencl on NVIDIA's OpenCL device; magnus-bench-scan through both; gpu_verify.sh
# (magnus params and magnus multiply --verify on R-MAT inputs through both).
# Never stops at a failing step; exits 1 if any step failed, and also when it tested no GPU:
# the probe found neither a CUDA device nor NVIDIA's OpenCL device, a requested cuda or opencl
# step had no device or ran no test that was not skipped (every test skipped, or none matched
# GPU_CHECK_TESTS), or no step ran on a GPU at all (gpu_check_coverage says which). Exits 2
# when build-gpu/ or .carry/ is missing or GPU_CHECK_STEPS names an unknown step.
# Environment (scripts/gpu_env.sh sets up libraries, OpenCL registration and the matrices):
#   GPU_CHECK_STEPS          which of cuda,opencl,bench,verify to run (default
#                            cuda,opencl,bench; the probe always runs), to split the work
#                            across device calls; verify runs scripts/gpu_verify.sh (its own
#                            GPU_VERIFY_* variables apply)
#   GPU_CHECK_TESTS          a regex: only tests whose ctest name matches
#   GPU_CHECK_SKIP           a regex: leave out tests whose name matches (default: none when
#                            the shared matrices are there, which gpu_bundle.sh carries in
#                            .carry/matrices; _shared_ otherwise)
#   GPU_CHECK_TEST_TIMEOUT   seconds per test at most (default 300)
#   GPU_CHECK_LOG2N          scan size of the benchmark (default 28)
#   GPU_CHECK_OPENCL_DEVICE  the OpenCL device to use (default: the NVIDIA one)
#   GPU_CHECK_DEADLINE_S     seconds from the start by which the verify step must end
#                            (default 570: the device tool stops a call at 600)
set -u
mkdir -p "${OUT:-$(pwd)/gpu-out}"
: >"${OUT:-$(pwd)/gpu-out}/summary.txt"
# shellcheck source=gpu_env.sh
. "$(dirname "$0")/gpu_env.sh"
failed=0
log2n=${GPU_CHECK_LOG2N:-28}
deadline=${GPU_CHECK_DEADLINE_S:-570} # the device tool stops a call at 600 s
steps=${GPU_CHECK_STEPS:-cuda,opencl,bench}

# step_in DIR NAME TIMEOUT SKIP_RC COMMAND...: runs the command in DIR with its output in
# NAME.log; exit status SKIP_RC (77 for the Criterion tests) counts as skipped.
step_in() {
  local dir=$1 name=$2 limit=$3 skip_rc=$4
  shift 4
  local start=$SECONDS
  (cd "$dir" && timeout "$limit" "$@") >"$logs/$name.log" 2>&1
  local rc=$?
  local verdict=ok
  if [ "$rc" -eq "$skip_rc" ]; then verdict=skipped
  elif [ $rc -eq 124 ]; then verdict="TIMEOUT (${limit}s)"; failed=1
  elif [ $rc -ne 0 ]; then verdict="FAILED (rc $rc)"; failed=1; fi
  say "$(printf '%-48s %-16s %4ds' "$name" "$verdict" $((SECONDS - start)))"
  step_verdict=$verdict
  case $verdict in
    ok|skipped) ;;
    *) tail -n 15 "$logs/$name.log" | sed 's/^/    | /' | tee -a "$summary" ;;
  esac
  gpu_pack_logs
  return 0
}
step() { local name=$1 limit=$2; shift 2; step_in "$root" "$name" "$limit" 77 "$@"; }
# A step on a GPU device (a device test, a benchmark, the verify step): one that was not
# skipped counts as the GPU tested, whatever its verdict (a failure has failed=1 already).
gpu_step() {
  step "$@"
  [ "$step_verdict" = skipped ] || gpu_runs=$((gpu_runs + 1))
}
gpu_runs=0
declare -A tests_ran=() tests_skipped=()

# Whether the run tested a GPU (0) or not (1, with the reason in the summary): a check that
# tested nothing must not read as "all steps passed" (a machine without the GPU, a driver
# without its OpenCL, a filter that matched no test, every test skipped). Reads the probe's
# devices (has_cuda, nv_opencl), the steps, and the counts gpu_test and gpu_step keep.
gpu_check_coverage() {
  local rc=0 m device what
  if [ -z "$has_cuda" ] && [ -z "$nv_opencl" ]; then
    say "gpu_check: NO GPU TESTED: the probe found no CUDA device and no NVIDIA OpenCL device (see probe.log)"
    return 1
  fi
  for m in cuda opencl; do
    [[ ",$steps," == *",$m,"* ]] || continue
    if [ "$m" = cuda ]; then device=$has_cuda what="no CUDA device"
    else device=$nv_opencl what="no NVIDIA OpenCL device"; fi
    if [ -z "$device" ]; then
      say "gpu_check: NO GPU TESTED by step $m: the probe found $what (see probe.log)"
      rc=1
    elif [ "${tests_ran[$m]:-0}" -eq 0 ]; then
      if [ "${tests_skipped[$m]:-0}" -gt 0 ]; then
        say "gpu_check: NO GPU TESTED by step $m on $device: all ${tests_skipped[$m]} device tests skipped"
      else
        say "gpu_check: NO GPU TESTED by step $m on $device: no device test ran (GPU_CHECK_TESTS='${GPU_CHECK_TESTS:-}', GPU_CHECK_SKIP='${skip_tests:-}')"
      fi
      rc=1
    fi
  done
  if [ "$gpu_runs" -eq 0 ]; then
    say "gpu_check: NO GPU TESTED: no step of GPU_CHECK_STEPS=$steps ran on a GPU"
    rc=1
  fi
  return $rc
}

if [ ! -x "$build/tools/magnus-bench-scan" ] || [ ! -e "$build/gpu_tests.sh" ] ||
   [ ! -e "$carry/lib/libcriterion.so.3" ]; then
  say "gpu_check: build-gpu/ or .carry/ missing: run scripts/gpu_bundle.sh on the build machine and carry both"
  exit 2
fi

for m in ${steps//,/ }; do
  case $m in
    cuda|opencl|bench|verify) ;;
    *) say "gpu_check: unknown step '$m' in GPU_CHECK_STEPS=$steps (steps: cuda, opencl, bench, verify)"
       exit 2 ;;
  esac
done

say "gpu_check: $(date -u +%FT%TZ) on $(hostname), output in $out, steps $steps"
step nvidia-smi 60 nvidia-smi
grep -m1 -o 'Driver Version: [0-9.]*.*CUDA Version: [0-9.]*' "$logs/nvidia-smi.log" | sed 's/^/    /' | tee -a "$summary"

# magnus probe over every OpenCL library (NVIDIA's and PoCL's) and CUDA: the listing the
# runtime issue asks for; the runs below use NVIDIA's OpenCL alone (scripts/gpu_env.sh).
step magnus-probe 60 env OCL_ICD_FILENAMES="${GPU_OPENCL_ICDS:-${OCL_ICD_FILENAMES:-}}" "$build/tools/magnus" probe
sed 's/^/    /' "$logs/magnus-probe.log" | tee -a "$summary"
step probe 60 "$build/tools/magnus-bench-scan" --list
sed 's/^/    /' "$logs/probe.log" | tee -a "$summary"
nv_opencl=${GPU_CHECK_OPENCL_DEVICE:-}
[ -n "$nv_opencl" ] || nv_opencl=$(awk -F'\t' '$1 ~ /^opencl:[0-9]+$/ && ($2 ~ /NVIDIA/ || $3 ~ /NVIDIA/) {print $1; exit}' "$logs/probe.log")
has_cuda=$(awk -F'\t' '$1 ~ /^cuda:[0-9]+$/ {print $1; exit}' "$logs/probe.log")
[ -n "$has_cuda" ] || say "gpu_check: NO CUDA DEVICE in the probe (see probe.log)"
[ -n "$nv_opencl" ] || say "gpu_check: no NVIDIA OpenCL device in the probe; OpenCL runs skipped"

# The ctest list of the build (build-gpu/gpu_tests.sh, made by gpu_bundle.sh): tests labelled
# cuda run as registered (MAGNUS_BACKENDS=cuda); tests labelled opencl run on NVIDIA's OpenCL
# device (MAGNUS_DEVICE added). Other tests (CPU only) ran on the build machine.
# shellcheck disable=SC2034  # B and S are used by gpu_tests.sh
B=$build S=$root
# shellcheck disable=SC2317  # called from gpu_tests.sh
gpu_test() {
  local name=$1 labels=$2 limit=$3 skip_rc=$4 dir=$5
  shift 5
  shift # --
  local env=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift # --
  [[ ";$labels;" == *";$mode;"* ]] || return 0
  if [ -n "${GPU_CHECK_TESTS:-}" ] && ! [[ $name =~ $GPU_CHECK_TESTS ]]; then return 0; fi
  if [ -n "$skip_tests" ] && [[ $name =~ $skip_tests ]]; then return 0; fi
  [ "$mode" = opencl ] && env+=("MAGNUS_DEVICE=$nv_opencl")
  [ "$limit" -gt "$test_limit" ] && limit=$test_limit
  step_in "$dir" "${name}@${mode_name}" "$limit" "$skip_rc" env "${env[@]}" "$@"
  if [ "$step_verdict" = skipped ]; then tests_skipped[$mode]=$((${tests_skipped[$mode]:-0} + 1))
  else
    tests_ran[$mode]=$((${tests_ran[$mode]:-0} + 1))
    gpu_runs=$((gpu_runs + 1))
  fi
}
test_limit=${GPU_CHECK_TEST_TIMEOUT:-300}
# The tests that square the shared matrices need them and their INDEX.tsv.
if [ -n "$shared_matrices" ] && [ -e "$shared_matrices/INDEX.tsv" ]; then
  skip_tests=${GPU_CHECK_SKIP-}
else
  skip_tests=${GPU_CHECK_SKIP-_shared_}
  say "gpu_check: no shared matrices with INDEX.tsv (carry .carry/matrices from gpu_bundle.sh): _shared_ tests left out"
fi
if [[ ",$steps," == *",cuda,"* ]] && [ -n "$has_cuda" ]; then
  mode=cuda mode_name=cuda
  # shellcheck source=/dev/null
  . "$build/gpu_tests.sh"
fi
if [[ ",$steps," == *",opencl,"* ]] && [ -n "$nv_opencl" ]; then
  mode=opencl mode_name=opencl-nvidia
  # shellcheck source=/dev/null
  . "$build/gpu_tests.sh"
fi

# The scan benchmark on both paths to the GPU.
if [[ ",$steps," == *",bench,"* ]]; then
  [ -n "$has_cuda" ] && gpu_step bench-scan-cuda 120 "$build/tools/magnus-bench-scan" --log2n "$log2n" --device "$has_cuda"
  [ -n "$nv_opencl" ] && gpu_step bench-scan-opencl-nvidia 120 "$build/tools/magnus-bench-scan" --log2n "$log2n" --device "$nv_opencl"
  for f in "$logs"/bench-scan-*.log; do
    [ -e "$f" ] || continue
    say "  $(basename "$f" .log):"
    grep -E '^(device|scan_u64|copy d2d|scan/copy|result):' "$f" | sed 's/^/    /' | tee -a "$summary"
  done
fi

# magnus params and magnus multiply --verify through both, in what is left before the
# deadline (gpu_verify.sh starts no run past its budget and cuts the last one at it).
if [[ ",$steps," == *",verify,"* ]]; then
  remaining=$((deadline - SECONDS))
  if [ "$remaining" -lt 60 ]; then
    say "gpu_check: verify step skipped: ${remaining}s left of GPU_CHECK_DEADLINE_S=${deadline}"
    failed=1
  else
    budget=$((remaining - 20))
    [ "$budget" -gt "${GPU_VERIFY_BUDGET_S:-420}" ] && budget=${GPU_VERIFY_BUDGET_S:-420}
    gpu_step gpu-verify $((budget + 15)) env GPU_VERIFY_CUDA_DEVICE="$has_cuda" \
      GPU_VERIFY_OPENCL_DEVICE="$nv_opencl" GPU_VERIFY_BUDGET_S="$budget" \
      bash "$root/scripts/gpu_verify.sh"
  fi
fi

gpu_check_coverage || failed=1
say "gpu_check: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'SOME STEPS FAILED') (logs in $out/logs.tar.gz)"
gpu_pack_logs
exit $failed

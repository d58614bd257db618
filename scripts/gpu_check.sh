#!/usr/bin/env bash
# Runs ON the GPU machine (an NVIDIA H200 reached through the device tool), from the
# repository root, with build-gpu/ and .carry/ made here by scripts/gpu_bundle.sh:
#   run(command="bash scripts/gpu_check.sh", carry=["build-gpu", ".carry"])
# Writes one log per step and summary.txt to $OUT (default ./gpu-out):
#   nvidia-smi; the device probe (CUDA, NVIDIA's OpenCL, PoCL if present); the build's tests
#   labelled cuda (device tests with MAGNUS_BACKENDS=cuda, the loader tests); the tests
#   labelled opencl on NVIDIA's OpenCL device; magnus-bench-scan through both.
#   Never stops at a failing step; exits 1 if any step failed.
# Environment:
#   GPU_CHECK_STEPS          which of cuda,opencl,bench to run (default all three; the probe
#                            always runs), to split the work across device calls
#   GPU_CHECK_TESTS          a regex: only tests whose ctest name matches
#   GPU_CHECK_SKIP           a regex: leave out tests whose name matches (default _shared_:
#                            the shared matrix collection is not on the GPU machine; set it
#                            empty to run them)
#   GPU_CHECK_TEST_TIMEOUT   seconds per test at most (default 300)
#   GPU_CHECK_LOG2N          scan size of the benchmark (default 28)
#   GPU_CHECK_OPENCL_DEVICE  the OpenCL device to use (default: the NVIDIA one)
set -u
root=$(pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
build=$root/build-gpu
summary=$out/summary.txt
: >"$summary"
failed=0
log2n=${GPU_CHECK_LOG2N:-28}
steps=${GPU_CHECK_STEPS:-cuda,opencl,bench}

say() { echo "$*" | tee -a "$summary"; }

# step_in DIR NAME TIMEOUT SKIP_RC COMMAND...: runs the command in DIR with its output in
# NAME.log; exit status SKIP_RC (77 for the Criterion tests) counts as skipped.
step_in() {
  local dir=$1 name=$2 limit=$3 skip_rc=$4
  shift 4
  local start=$SECONDS
  (cd "$dir" && timeout "$limit" "$@") >"$out/$name.log" 2>&1
  local rc=$?
  local verdict=ok
  if [ "$rc" -eq "$skip_rc" ]; then verdict=skipped
  elif [ $rc -eq 124 ]; then verdict="TIMEOUT (${limit}s)"; failed=1
  elif [ $rc -ne 0 ]; then verdict="FAILED (rc $rc)"; failed=1; fi
  say "$(printf '%-48s %-16s %4ds' "$name" "$verdict" $((SECONDS - start)))"
  case $verdict in
    ok|skipped) ;;
    *) tail -n 15 "$out/$name.log" | sed 's/^/    | /' | tee -a "$summary" ;;
  esac
  return 0
}
step() { local name=$1 limit=$2; shift 2; step_in "$root" "$name" "$limit" 77 "$@"; }

if [ ! -x "$build/tools/magnus-bench-scan" ] || [ ! -e "$build/gpu_tests.sh" ] ||
   [ ! -e "$root/.carry/lib/libcriterion.so.3" ]; then
  say "gpu_check: build-gpu/ or .carry/ missing: run scripts/gpu_bundle.sh on the build machine and carry both"
  exit 2
fi

# The build tree holds absolute paths of the machine it was built on (ctest files, test data
# directories): make them resolve here when this checkout lives elsewhere.
built_src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$built_src" ] && [ "$built_src" != "$root" ] && [ ! -e "$built_src" ]; then
  if mkdir -p "$(dirname "$built_src")" 2>/dev/null && ln -s "$root" "$built_src" 2>/dev/null; then
    say "gpu_check: linked $built_src -> $root (paths baked into build-gpu)"
  else
    say "gpu_check: cannot link $built_src -> $root; ctest may not find its files"
  fi
fi

# have_lib NAME: the dynamic loader can find NAME (ldconfig's cache or LD_LIBRARY_PATH).
have_lib() {
  { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -qF "$1 " && return 0
  local d
  IFS=: read -ra dirs <<<"${LD_LIBRARY_PATH:-}"
  for d in "${dirs[@]}"; do [ -n "$d" ] && [ -e "$d/$1" ] && return 0; done
  return 1
}
# OpenCL: the carried ICD loader only if the machine has none; the NVIDIA ICD registered
# for it if the driver's OpenCL library exists but /etc/OpenCL/vendors does not name it.
use_carried_opencl=0
have_lib libOpenCL.so.1 || use_carried_opencl=1
if have_lib libnvidia-opencl.so.1 && ! grep -qs 'libnvidia-opencl' /etc/OpenCL/vendors/*.icd; then
  vendors=$out/opencl-vendors
  mkdir -p "$vendors"
  echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
  for icd in /etc/OpenCL/vendors/*.icd; do [ -e "$icd" ] && cp "$icd" "$vendors/"; done
  export OCL_ICD_VENDORS=$vendors
  say "gpu_check: registered libnvidia-opencl.so.1 through OCL_ICD_VENDORS=$vendors"
fi
export LD_LIBRARY_PATH="$build/runtime:$root/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ $use_carried_opencl -eq 1 ] && [ -e "$root/.carry/opencl/libOpenCL.so.1" ]; then
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$root/.carry/opencl"
  say "gpu_check: no libOpenCL.so.1 here: using the carried OpenCL ICD loader"
fi

say "gpu_check: $(date -u +%FT%TZ) on $(hostname), output in $out"
step nvidia-smi 60 nvidia-smi
grep -m1 -o 'Driver Version: [0-9.]*.*CUDA Version: [0-9.]*' "$out/nvidia-smi.log" | sed 's/^/    /' | tee -a "$summary"

step probe 60 "$build/tools/magnus-bench-scan" --list
sed 's/^/    /' "$out/probe.log" | tee -a "$summary"
nv_opencl=${GPU_CHECK_OPENCL_DEVICE:-}
[ -n "$nv_opencl" ] || nv_opencl=$(awk -F'\t' '$1 ~ /^opencl:[0-9]+$/ && ($2 ~ /NVIDIA/ || $3 ~ /NVIDIA/) {print $1; exit}' "$out/probe.log")
has_cuda=$(awk -F'\t' '$1 ~ /^cuda:[0-9]+$/ {print $1; exit}' "$out/probe.log")
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
}
test_limit=${GPU_CHECK_TEST_TIMEOUT:-300}
skip_tests=${GPU_CHECK_SKIP-_shared_}
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
  [ -n "$has_cuda" ] && step bench-scan-cuda 120 "$build/tools/magnus-bench-scan" --log2n "$log2n" --device "$has_cuda"
  [ -n "$nv_opencl" ] && step bench-scan-opencl-nvidia 120 "$build/tools/magnus-bench-scan" --log2n "$log2n" --device "$nv_opencl"
  for f in "$out"/bench-scan-*.log; do
    [ -e "$f" ] || continue
    say "  $(basename "$f" .log):"
    grep -E '^(device|scan_u64|copy d2d|scan/copy|result):' "$f" | sed 's/^/    /' | tee -a "$summary"
  done
fi

say "gpu_check: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'SOME STEPS FAILED') (logs in $out)"
exit $failed

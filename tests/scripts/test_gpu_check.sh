#!/usr/bin/env bash
# scripts/gpu_check.sh's exit status, run here on a stand-in of what gpu_bundle.sh carries to the
# GPU machine: a build-gpu/ whose tools print a probe listing from $FAKE_PROBE, whose
# gpu_tests.sh lists one device test per backend (exiting FAKE_TEST_RC_cuda /
# FAKE_TEST_RC_opencl, 77 meaning skipped), an nvidia-smi stand-in on PATH. The script must pass
# when it tested a GPU and fail, saying why, when it tested none: no GPU in the probe, a
# requested step without its device, every device test skipped, no test matching the filter.
# usage: test_gpu_check.sh SOURCE_DIR
set -u
src=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/magnus-gpu-check-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
mkdir -p "$repo/build-gpu/tools" "$repo/build-gpu/tests" "$repo/.carry/lib" "$tmp/bin"
ln -s "$src/scripts" "$repo/scripts" # gpu_env.sh sources the checkout's scripts/gpu_libs.sh
: >"$repo/.carry/lib/libcriterion.so.3"
cat >"$repo/build-gpu/tools/magnus-bench-scan" <<'SH'
#!/bin/sh
if [ "${1:-}" = --list ]; then cat "$FAKE_PROBE"; else echo "device: $*"; fi
SH
cat >"$repo/build-gpu/tools/magnus" <<'SH'
#!/bin/sh
echo "magnus $*: fake"
SH
cat >"$repo/build-gpu/tests/fake_test" <<'SH'
#!/bin/sh
eval "rc=\${FAKE_TEST_RC_${MAGNUS_BACKENDS}:-0}"
echo "fake test on ${MAGNUS_BACKENDS} ${MAGNUS_DEVICE:-}: exit $rc"
exit "$rc"
SH
cat >"$repo/build-gpu/gpu_tests.sh" <<'SH'
gpu_test "spgemm_auto_cuda" "spgemm;auto;cuda" 300 77 "${B}" -- "MAGNUS_BACKENDS=cuda" -- "${B}/tests/fake_test"
gpu_test "spgemm_auto_opencl" "spgemm;auto;opencl" 300 77 "${B}" -- "MAGNUS_BACKENDS=opencl" -- "${B}/tests/fake_test"
SH
printf '#!/bin/sh\necho "| NVIDIA-SMI  Driver Version: 1.0  CUDA Version: 1.0 |"\n' >"$tmp/bin/nvidia-smi"
chmod +x "$repo/build-gpu/tools/"* "$repo/build-gpu/tests/fake_test" "$tmp/bin/nvidia-smi"

tab=$(printf '\t')
cuda="cuda:0${tab}NVIDIA H200${tab}NVIDIA${tab}13.0${tab}gpu${tab}global 139.8 GiB"
nvcl="opencl:0${tab}NVIDIA H200${tab}NVIDIA Corporation${tab}580.159.04${tab}gpu${tab}global 139.8 GiB"
pocl="opencl:1${tab}cpu-skylake-avx512${tab}GenuineIntel${tab}5.0+debian${tab}cpu${tab}global 123.8 GiB"

failures=0
n=0
# check NAME EXPECTED_RC EXPECTED_TEXT PROBE_LINES [VAR=VALUE...]: runs gpu_check.sh with the
# probe listing and the environment given, and checks its exit status and a line it printed.
check() {
  local name=$1 want_rc=$2 want_text=$3 probe=$4
  shift 4
  n=$((n + 1))
  local dir=$tmp/case$n
  mkdir -p "$dir/logs"
  printf '%s\n' "$probe" >"$dir/probe.txt"
  (cd "$repo" && env -u MAGNUS_GPU_ENV_DONE -u GPU_CHECK_STEPS -u GPU_CHECK_TESTS \
     -u GPU_CHECK_SKIP -u GPU_CHECK_OPENCL_DEVICE -u GPU_BUILD -u GPU_CARRY \
     PATH="$tmp/bin:$PATH" OUT="$dir/out" GPU_LOGS="$dir/logs" FAKE_PROBE="$dir/probe.txt" \
     "$@" bash "$src/scripts/gpu_check.sh") >"$dir/output.txt" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want_rc" ] || ! grep -qF -- "$want_text" "$dir/output.txt" ||
     { [ "$want_rc" -ne 0 ] && grep -qF "all steps passed" "$dir/output.txt"; }; then
    echo "FAIL $name: exit $rc (expected $want_rc), expected a line with: $want_text"
    sed 's/^/    | /' "$dir/output.txt"
    failures=$((failures + 1))
  else
    echo "ok   $name: exit $rc, \"$want_text\""
  fi
}

both="$cuda
$nvcl
$pocl"
check "both devices, tests pass" 0 "gpu_check: all steps passed" "$both"
check "both devices, bench only" 0 "gpu_check: all steps passed" "$both" GPU_CHECK_STEPS=bench
check "a test fails" 1 "FAILED (rc 3)" "$both" FAKE_TEST_RC_opencl=3
check "no GPU in the probe" 1 \
  "NO GPU TESTED: the probe found no CUDA device and no NVIDIA OpenCL device" "$pocl"
check "empty probe" 1 \
  "NO GPU TESTED: the probe found no CUDA device and no NVIDIA OpenCL device" ""
check "opencl requested, no NVIDIA OpenCL" 1 \
  "NO GPU TESTED by step opencl: the probe found no NVIDIA OpenCL device" "$cuda
$pocl"
check "cuda requested, no CUDA" 1 "NO GPU TESTED by step cuda: the probe found no CUDA device" \
  "$nvcl" GPU_CHECK_STEPS=cuda
check "every opencl test skipped" 1 "NO GPU TESTED by step opencl on opencl:0: all 1 device tests skipped" \
  "$both" FAKE_TEST_RC_opencl=77
check "every test skipped" 1 "NO GPU TESTED by step cuda on cuda:0: all 1 device tests skipped" \
  "$both" FAKE_TEST_RC_cuda=77 FAKE_TEST_RC_opencl=77 GPU_CHECK_STEPS=cuda,opencl
check "no test matches the filter" 1 "NO GPU TESTED by step cuda on cuda:0: no device test ran" \
  "$both" GPU_CHECK_TESTS=no_such_test GPU_CHECK_STEPS=cuda
check "an unknown step" 2 "unknown step 'cdua'" "$both" GPU_CHECK_STEPS=cdua
# The test executables travel packed (gpu_bundle.sh). A marker of an earlier unpacking that came
# along with a new archive must not keep them packed (every test then failed with rc 127).
if command -v xz >/dev/null; then
  tar -C "$repo/build-gpu" -cf - tests/fake_test | xz >"$repo/build-gpu/test-executables.tar.xz"
  rm "$repo/build-gpu/tests/fake_test"
  : >"$repo/build-gpu/tests/.unpacked"
  check "packed tests, a stale marker" 0 "gpu_libs: test executables unpacked" "$both"
  check "packed tests, unpacked before" 0 "gpu_check: all steps passed" "$both"
fi
rm -rf "$repo/.carry"
check "no .carry" 2 "build-gpu/ or .carry/ missing" "$both"

[ "$failures" -eq 0 ] || { echo "$failures of $n cases failed"; exit 1; }
echo "all $n cases passed"

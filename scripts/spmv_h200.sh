#!/usr/bin/env bash
# SpMV on the H200 (issue 15), ON the GPU machine through the device tool, after
# scripts/gpu_bundle.sh:
#   run(command="bash scripts/spmv_h200.sh", carry=["build-gpu", ".carry"])
# Steps (SPMV_STEPS, default sanitize,bench):
#   sanitize  compute-sanitizer on `magnus spmv --verify` in every format (memcheck f32 and
#             f64, racecheck f64), on an R-MAT matrix with a dense-ish head and empty rows, and on the
#             spmv / spgemm_plan / device_csr_wrap test executables through CUDA (alpha != 1,
#             beta, plans, wrapped buffers)
#   bench     `magnus bench --op spmv` on the issue's inputs (R-MAT scale 22 x 16 per row, scale
#             24 x 8, a 256^3 7-point Laplacian), f64, every magnus format on CUDA beside
#             cuSPARSE's SpMV, SPMV_RUNS (default 50) products per format
# SPMV_FORMATS and SPMV_TESTS narrow the sanitized formats and test executables.
# Output in $OUT: sanitize.log, spmv.csv, spmv.json, spmv.log. Exit 1 if a step failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
out=${OUT:-$root/spmv-out}
mkdir -p "$out"
# shellcheck source=scripts/gpu_libs.sh
. "$root/scripts/gpu_libs.sh"
gpu_libs_setup "$root/build-gpu" "$root/.carry" >"$out/sanitize.log"
magnus=$root/build-gpu/tools/magnus
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
steps=${SPMV_STEPS:-sanitize,bench}
failed=0

sanitize() { # NAME TOOL COMMAND...
  local name=$1 tool=$2
  shift 2
  echo "== $name ($tool)" >>"$out/sanitize.log"
  if MAGNUS_BACKENDS=cuda timeout 180 "$cs" --tool "$tool" --error-exitcode 3 \
       --target-processes all "$@" >>"$out/sanitize.log" 2>&1; then
    echo "$name $tool: ok"
  else
    echo "$name $tool: FAILED (exit $?)"; failed=1
  fi
}

if [[ ,$steps, == *,sanitize,* ]]; then
  for fmt in ${SPMV_FORMATS:-csr csr-balanced coo hybrid sellp auto}; do
    for case in memcheck:f32 memcheck:f64 racecheck:f64; do
      sanitize "spmv-$fmt-${case#*:}" "${case%%:*}" "$magnus" spmv rmat:13:16:3 --format "$fmt" \
        --type "${case#*:}" --alpha 1.5 --beta 0.5 --verify --device cuda:0
    done
  done
  for t in ${SPMV_TESTS-spmv spgemm_plan device_csr_wrap}; do
    sanitize "test-$t" memcheck "$root/build-gpu/tests/$t" --jobs 1
  done
fi

if [[ ,$steps, == *,bench,* ]]; then
  if MAGNUS_BACKENDS=cuda timeout "${SPMV_BENCH_TIMEOUT_S:-300}" "$magnus" bench --op spmv \
       rmat:22:16:1 rmat:24:8:1 laplace3d:256:256:256 --type f64 \
       --systems cuda:0,cusparse@cuda:0 --runs "${SPMV_RUNS:-50}" \
       --csv "$out/spmv.csv" --json "$out/spmv.json" >"$out/spmv.log" 2>&1; then
    echo "bench: ok"
  else
    echo "bench: FAILED (exit $?)"; failed=1
  fi
  tail -n 40 "$out/spmv.log"
fi
exit $failed

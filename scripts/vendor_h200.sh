#!/usr/bin/env bash
# The same algorithm through two APIs on the H200 (issue 36): magnus through CUDA and through
# NVIDIA's OpenCL on one GPU, in ONE device call, every C verified by the bench.
#
# Here, first:   scripts/gpu_bundle.sh       build-gpu/ (CUDA kernels) and .carry/ (matrices)
# Device tool:   run(command="bash scripts/vendor_h200.sh", carry=["build-gpu", ".carry"])
#
# Steps (VENDOR_STEPS, default sanitize,real,cuda48k,rmat; each under `timeout`, and none
# starts with less than 20 s of VENDOR_BUDGET_S, default 480, left):
#   sanitize  compute-sanitizer memcheck and racecheck on the spgemm_c_bound test through CUDA
#             (the lower bound on nnz(C), kernel spgemm_row_nnz_floor) and on the test sets
#             VENDOR_SANITIZE_TESTS names (default: spgemm_c_bound), only their tests that
#             VENDOR_SANITIZE_FILTER (a Criterion --filter pattern, e.g. 'hash_dense/*') names
#   real      the shared matrices with at least VENDOR_MIN_PRODUCTS (4e6) products, squared,
#             for every type of VENDOR_TYPES (f64 f32): every system of VENDOR_SYSTEMS (AUTO,
#             gMAGNUS and hash through cuda:0 and opencl:0); real-TYPE.csv
#   cuda48k   the same inputs through CUDA with MAGNUS_LOCAL_MEM_BYTES=48K (OpenCL's local
#             memory: the same parameters, so what is left of a gap is the API's);
#             cuda48k-TYPE.csv
#   rmat      R-MAT pairs (VENDOR_SCALES 15-20, A VENDOR_A 4,16, B VENDOR_B 4,16, seeds
#             VENDOR_SEEDS 2) through AUTO on both APIs; rmat.csv
# VENDOR_RUNS (10) timed runs after a warm-up; VENDOR_ENV (e.g. "MAGNUS_X=1") is set for every
# bench of the real and rmat steps (an experiment's knob).
# Files in $OUT (default ./vendor-out): the CSVs, vendor.log (every step's output; the
# sanitizer logs packed into sanitize.log), summary.txt (scripts/vendor_summary.py: per input,
# each OpenCL system's median time over CUDA's, and geometric means).
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start vendor vendor.log
log=$say_file
build=$root/build-gpu
steps=${VENDOR_STEPS:-sanitize,real,cuda48k,rmat}
budget=${VENDOR_BUDGET_S:-480}
types=${VENDOR_TYPES:-f64 f32}
runs=${VENDOR_RUNS:-10}
systems=${VENDOR_SYSTEMS:-auto@cuda:0,gmagnus@cuda:0,hash@cuda:0,auto@opencl:0,gmagnus@opencl:0,hash@opencl:0}
read -ra extra_env <<<"${VENDOR_ENV:-}"
start=$SECONDS
GPU_LIBS_SAY=say gpu_libs_setup "$build" "$root/.carry"
say "vendor: $(date -u +%FT%TZ) on $(hostname); steps $steps"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >>"$log" 2>&1

left() { echo $((budget - (SECONDS - start))); }
bench() { # NAME ENV... -- ARGS...: one bench under the time left
  local name=$1 envs=() t
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  t=$(left)
  if [ "$t" -lt 20 ]; then say "vendor: $name skipped (${t}s left)"; return; fi
  say "vendor: $name"
  env "${envs[@]}" "${extra_env[@]}" timeout "$t" "$magnus" bench "$@" --runs "$runs" \
    --verify-limit 2e7 --no-bandwidth --csv "$out/$name.csv" >>"$log" 2>&1 ||
    say "vendor: $name: exit $?"
}

if has sanitize; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  : >"$out/sanitize.log"
  for t in ${VENDOR_SANITIZE_TESTS:-spgemm_c_bound}; do
    for tool in memcheck racecheck; do
      say "vendor: sanitize $t ($tool)"
      MAGNUS_BACKENDS=cuda MAGNUS_TEST_ENTRY_BACKEND=cuda timeout 120 "$cs" --tool "$tool" \
        --error-exitcode 3 "$build/tests/$t" --jobs 1 \
        ${VENDOR_SANITIZE_FILTER:+--filter "$VENDOR_SANITIZE_FILTER"} >>"$out/sanitize.log" 2>&1
      rc=$?
      say "   exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Synthesis' "$out/sanitize.log" | tail -1)"
    done
  done
fi
if has real || has cuda48k; then
  for type in $types; do
    has real && bench "real-$type" -- --matrices "$root/.carry/matrices" \
      --min-products "${VENDOR_MIN_PRODUCTS:-4e6}" --type "$type" --systems "$systems"
    has cuda48k && bench "cuda48k-$type" MAGNUS_LOCAL_MEM_BYTES=48K -- \
      --matrices "$root/.carry/matrices" --min-products "${VENDOR_MIN_PRODUCTS:-4e6}" \
      --type "$type" --systems auto@cuda:0,gmagnus@cuda:0,hash@cuda:0
  done
fi
has rmat && bench rmat -- --rmat-sweep --scales "${VENDOR_SCALES:-15-20}" \
  --a-per-row "${VENDOR_A:-4,16}" --b-per-row "${VENDOR_B:-4,16}" --seeds "${VENDOR_SEEDS:-2}" \
  --systems auto@cuda:0,auto@opencl:0
python3 "$root/scripts/vendor_summary.py" "$out"/*.csv | tee "$out/summary.txt"
say "vendor: done in $((SECONDS - start)) s"

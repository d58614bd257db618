#!/usr/bin/env bash
# The vendor comparison on the H200: `magnus bench` (magnus against cuSPARSE, one process per
# phase) on the real matrices with at least 10^7 products and on the R-MAT sweep.
#
# Here, on the build machine (no GPU), in this order:
#   scripts/gpu_bundle.sh                  build-gpu/ (Release, CUDA kernels) and .carry/
#   scripts/bench_h200.sh --prepare [DIR]  copies the shared matrices (DIR, default
#                                          ../shared/matrices) whose A*A has >= 10^7 products,
#                                          by INDEX.tsv, into .carry/matrices (git-ignored)
# On the GPU machine, through the device tool, one call (about 8 minutes at most):
#   run(command="bash scripts/bench_h200.sh .carry/matrices",
#       carry=["build-gpu", ".carry"], timeout_s=600)
#
# Writes to $OUT (default ./build-bench-out), the 8 files the device tool brings back:
#   env.log               nvidia-smi, magnus probe, where libcusparse was found
#   real.csv real.json real.log    phase 1: the matrices (A*A), every GPU system:
#                         magnus and hash on CUDA and on NVIDIA's OpenCL, cuSPARSE; 20 runs
#   rmat.csv rmat.json rmat.log    phase 2: R-MAT scales 15-20, A 4,8,16,32 and B 4,8,16 per
#                         row: magnus on CUDA and cuSPARSE; 20 runs, 5 above 10^9 products
#   summary.txt           both phases' summaries (also printed last)
# Columns: bench/README.md. Plots afterwards, here: bench/plot.py real.csv rmat.csv.
#
# Time: the whole budget (BENCH_BUDGET_S, default 470 s) is shared: phase 1 starts no matrix
# after BENCH_REAL_LIMIT_S (default 100 s); phase 2 starts no pair once less than
# BENCH_MARGIN_S (default 120 s) of the budget is left, and is stopped (timeout) when the
# budget is spent; rows are written as they complete, so a cut run keeps its results, and
# the rows never started say "skipped: time limit". Inputs whose estimated device memory
# exceeds the GPU's are skipped and say so; so are pairs above BENCH_MAX_PRODUCTS (default
# 1.5e10). Other knobs: BENCH_REAL_SYSTEMS / BENCH_SWEEP_SYSTEMS (--systems lists; default
# all GPU systems / "cuda:0,cusparse@cuda:0"), BENCH_SCALES (15-20), BENCH_A (4,8,16,32),
# BENCH_B (4,8,16), BENCH_SEEDS (1; "1,2": every pair with A of seed 1 and of seed 2), BENCH_PHASES (real,rmat), BENCH_BUILD (build-gpu), BENCH_MIN_PRODUCTS (1e7),
# BENCH_RUNS / BENCH_RUNS_LARGE (the sweep's --runs / --runs-large, default 20 / 5),
# BENCH_LOCAL_MEM_BYTES (sets MAGNUS_LOCAL_MEM_BYTES for magnus, e.g. 227K: the H200's whole
# local memory per work group through CUDA, the budget of the 2026-11-30 results; default:
# the library's, min(device, 48 KiB), the paper's H200 budget per work group).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

# ---- --prepare: here, before the device call ------------------------------------------------
if [ "${1:-}" = "--prepare" ]; then
  src=${2:-$root/../shared/matrices}
  dst=$root/.carry/matrices
  [ -e "$src/INDEX.tsv" ] || { echo "bench_h200: no INDEX.tsv in $src" >&2; exit 1; }
  rm -rf "$dst"
  mkdir -p "$dst"
  awk -F'\t' 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
              $col["AxA_products"] + 0 >= 1e7 {print $col["file"]}' "$src/INDEX.tsv" |
    while read -r f; do
      for cand in "$src/$f.gz" "$src/$f"; do
        if [ -e "$cand" ]; then cp "$cand" "$dst/"; break; fi
      done
    done
  n=$(find "$dst" -type f | wc -l)
  echo "bench_h200: $n matrices in $dst ($(du -sh "$dst" | cut -f1)); carried with .carry"
  du -sk "$root/build-gpu" "$root/.carry" 2>/dev/null |
    awk '{s += $1} END {printf "bench_h200: build-gpu + .carry = %d MiB (the carry limit is 64 MiB)\n", s / 1024}'
  exit 0
fi

# ---- on the GPU machine -----------------------------------------------------------------------
matrices=${1:?usage: scripts/bench_h200.sh MATRIX_DIR | --prepare [SHARED_DIR]}
out=${OUT:-$root/build-bench-out}
mkdir -p "$out"
build=$root/${BENCH_BUILD:-build-gpu}
magnus=$build/tools/magnus
budget=${BENCH_BUDGET_S:-470}
real_limit=${BENCH_REAL_LIMIT_S:-100}
margin=${BENCH_MARGIN_S:-120}
phases=${BENCH_PHASES:-real,rmat}
start=$SECONDS
env_log=$out/env.log
summary=$out/summary.txt
: >"$env_log"
: >"$summary"
say() { echo "$*" | tee -a "$env_log"; }

[ -x "$magnus" ] || { say "bench_h200: $magnus missing: run scripts/gpu_bundle.sh here and carry build-gpu"; exit 2; }
[ -d "$matrices" ] || say "bench_h200: no matrix directory $matrices (phase 1 will have no input)"

# The carried libraries, NVIDIA's OpenCL alone, and cuSPARSE (scripts/gpu_libs.sh).
# shellcheck source=scripts/gpu_libs.sh
. "$root/scripts/gpu_libs.sh"
GPU_LIBS_SAY=say gpu_libs_setup "$build" "$root/.carry"
GPU_LIBS_SAY=say gpu_find_cusparse

if [ -n "${BENCH_LOCAL_MEM_BYTES:-}" ]; then
  export MAGNUS_LOCAL_MEM_BYTES=$BENCH_LOCAL_MEM_BYTES
  say "bench_h200: MAGNUS_LOCAL_MEM_BYTES=$MAGNUS_LOCAL_MEM_BYTES"
fi
say "bench_h200: $(date -u +%FT%TZ) on $(hostname), budget ${budget}s, output in $out"
{ nvidia-smi; echo; "$magnus" --version; "$magnus" probe; } >>"$env_log" 2>&1
grep -E 'Driver Version|H200|^(cuda|opencl|level0):' "$env_log" | head -n 8

remaining() { echo $((budget - (SECONDS - start))); }

# run_phase NAME HARD_TIMEOUT ARGS...: one `magnus bench` with its log; never stops the script
run_phase() {
  local name=$1 hard=$2
  shift 2
  if [ "$hard" -lt 30 ]; then
    say "bench_h200: $name: not started, ${hard}s of the budget left"
    return
  fi
  say "bench_h200: $name: magnus bench $* (stopped after ${hard}s)"
  local t0=$SECONDS
  timeout --signal=TERM --kill-after=15 "$hard" "$magnus" bench "$@" \
    --csv "$out/$name.csv" --json "$out/$name.json" >"$out/$name.log" 2>&1
  local rc=$?
  local verdict="exit $rc"
  [ $rc -eq 124 ] && verdict="STOPPED at the budget (rows so far kept)"
  [ $rc -eq 1 ] && verdict="exit 1: a mismatch or a failed magnus run (see the log)"
  say "bench_h200: $name: $verdict after $((SECONDS - t0))s"
  { echo "==== $name ($verdict)"; sed -n '/^magnus bench: [0-9]* input/,$p' "$out/$name.log";
    grep -E 'MISMATCH|did NOT verify|magnus failed on' "$out/$name.log"; } >>"$summary"
}

if [[ ",$phases," == *",real,"* ]]; then
  real_systems=()
  [ -n "${BENCH_REAL_SYSTEMS:-}" ] && real_systems=(--systems "$BENCH_REAL_SYSTEMS")
  hard=$(remaining)
  [ "$hard" -gt $((real_limit + 90)) ] && hard=$((real_limit + 90))
  run_phase real "$hard" --matrices "$matrices" --min-products "${BENCH_MIN_PRODUCTS:-1e7}" --algorithms gmagnus,hash \
    "${real_systems[@]}" --runs 20 --runs-large 5 --large-products 1e9 --max-timed-seconds 5 \
    --time-limit "$real_limit"
fi

if [[ ",$phases," == *",rmat,"* ]]; then
  left=$(remaining)
  run_phase rmat $((left - 10)) --rmat-sweep --scales "${BENCH_SCALES:-15-20}" \
    --a-per-row "${BENCH_A:-4,8,16,32}" --b-per-row "${BENCH_B:-4,8,16}" --seeds "${BENCH_SEEDS:-1}" \
    --systems "${BENCH_SWEEP_SYSTEMS:-cuda:0,cusparse@cuda:0}" \
    --runs "${BENCH_RUNS:-20}" --runs-large "${BENCH_RUNS_LARGE:-5}" --large-products 1e9 --max-timed-seconds 5 \
    --max-products "${BENCH_MAX_PRODUCTS:-1.5e10}" --verify-limit 2e7 \
    --time-limit $((left - margin > 30 ? left - margin : 30))
fi

say "bench_h200: done in $((SECONDS - start))s"
cat "$summary"

#!/usr/bin/env bash
# SpMV tuning sweep on the H200 (issue 15), ON the GPU machine through the device tool, after
# scripts/gpu_bundle.sh:
#   run(command="bash scripts/spmv_tune_h200.sh", carry=["build-gpu", ".carry"])
# For each setting of the staged kernels' knobs (docs/algorithm.md §9, "Tuning"), one
# `magnus bench --op spmv` on the issue's inputs (f64, CUDA, beside cuSPARSE):
#   MAGNUS_SPMV_MERGE_ITEMS  merge items per work item of csr-balanced (default 7)
#   MAGNUS_SPMV_COO_ITEMS    entries per work item of coo and hybrid's COO part (default 7)
#   MAGNUS_SPMV_GROUP        work items per group of both, at most (default 256)
# SPMV_TUNE lists the settings as K:GROUP (K for both knobs), default
# "7:256 5:256 9:256 11:256 13:256 7:128 11:128 7:64"; SPMV_INPUTS the inputs (default the
# issue's three); SPMV_RUNS (default 20). Output in $OUT: tune.log (csr-balanced, coo, hybrid
# and cuSPARSE lines of each setting) and tune-K-G.csv. Exit 1 if a bench failed.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start spmv-tune
gpu_libs_setup "$root/build-gpu" "$root/.carry" >"$out/tune.log"
read -ra inputs <<<"${SPMV_INPUTS:-rmat:22:16:1 rmat:24:8:1 laplace3d:256:256:256}"
for setting in ${SPMV_TUNE:-7:256 5:256 9:256 11:256 13:256 7:128 11:128 7:64}; do
  k=${setting%%:*} g=${setting#*:}
  echo "== K $k, group $g" | tee -a "$out/tune.log"
  if MAGNUS_SPMV_MERGE_ITEMS=$k MAGNUS_SPMV_COO_ITEMS=$k MAGNUS_SPMV_GROUP=$g MAGNUS_BACKENDS=cuda \
       timeout "${SPMV_BENCH_TIMEOUT_S:-300}" "$magnus" bench --op spmv "${inputs[@]}" --type f64 \
       --systems cuda:0,cusparse@cuda:0 --runs "${SPMV_RUNS:-20}" --csv "$out/tune-$k-$g.csv" \
       >"$out/bench-$k-$g.log" 2>&1; then
    grep -E "csr-balanced|coo|hybrid|cusparse " "$out/bench-$k-$g.log" | grep -v "^  " |
      tee -a "$out/tune.log"
  else
    echo "bench K $k group $g: FAILED (exit $?)" | tee -a "$out/tune.log"; failed=1
    tail -n 5 "$out/bench-$k-$g.log" | tee -a "$out/tune.log"
  fi
done
exit $failed

#!/usr/bin/env bash
# The measurements this repository's open issues still wait for, in one device call (about
# 6-8 minutes), ON the GPU machine after scripts/gpu_bundle.sh and
# `scripts/bench_h200.sh --prepare` here:
#   run(command="bash scripts/pending_h200.sh", carry=["build-gpu", ".carry"], timeout_s=600)
# What each step must answer:
#   check    do the CUDA suites of the code since the last GPU run pass (SpMV, the device-side
#            check, native buffers, plans, the in-place multisplit)?                (issue 15)
#   spmv     every SpMV format beside each of cuSPARSE's CSR and COO algorithms on issue 15's
#            inputs: the irregular and regular targets, and AUTO within 10 % of the best
#            format (its rule changed after the last measurement)                   (issue 15)
#   python   magnus.spgemm (SciPy) against the CLI's end to end, the CuPy path against
#            magnus_spgemm_device, on soc-Slashdot0902 (10^8 products)             (issue 16)
#   ncu      what limits spmv_merge on rmat:22:16 (DRAM and L2 bytes, time)        (issue 15)
# PENDING_STEPS picks steps (default check,spmv,python,ncu). Output in $OUT (8 files at most
# come back): summary.txt, check.log, spmv.csv, spmv.log, python.json, ncu.txt, logs.tgz.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start pending summary.txt
summary=$say_file
steps=${PENDING_STEPS:-check,spmv,python,ncu}
if has check; then
  step check 150 env GPU_CHECK_STEPS=cuda OUT="$out/check" \
    GPU_CHECK_TESTS='spmv|cli_verify|native|wrap|plan|gmagnus' bash scripts/gpu_check.sh
  cp "$out/check/summary.txt" "$out/check.log" 2>/dev/null
fi
gpu_libs_setup "$root/build-gpu" "$root/.carry" >>"$summary"
if has spmv; then
  step spmv 200 env MAGNUS_BACKENDS=cuda "$magnus" bench --op spmv rmat:22:16:1 rmat:24:8:1 \
    laplace3d:256:256:256 --type f64 --systems cuda:0,cusparse@cuda:0 --runs 20 \
    --csv "$out/spmv.csv" --json "$out/spmv.json" >"$out/spmv.log" 2>&1
fi
if has python; then
  step python 150 env MAGNUS_LIBRARY="$root/build-gpu/runtime/libmagnus.so" \
    PYTHONPATH="$root/python" python3 bench/python_timing.py \
    .carry/matrices/soc-Slashdot0902.mtx.gz --cli "$magnus" --runs 10 >"$out/python.json"
fi
if has ncu; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  step ncu 150 "$ncu" --clock-control none --kernel-name regex:spmv_merge --launch-count 3 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum \
    env MAGNUS_BACKENDS=cuda "$magnus" spmv rmat:22:16:1 --format csr-balanced --type f64 \
    --device cuda:0 >"$out/ncu.txt" 2>&1
fi
(cd "$out" && tar czf logs.tgz --exclude=logs.tgz check spmv.json 2>/dev/null && rm -rf check spmv.json)
say "pending_h200: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'a step FAILED')"
exit $failed

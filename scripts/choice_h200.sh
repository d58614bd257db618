#!/usr/bin/env bash
# AUTO's statistics on the H200, kernel by kernel: Nsight Compute's time of the choice's two
# kernels (hash_row_products, hash_rows_overflow_sample) in one multiply of each of
# CHOICE_FILES (shared matrices, A·A), for the new build (build-gpu/) and another build's
# tools/magnus + libmagnus.so* in CHOICE_OLD (default .carry/old; skipped if absent), after
# scripts/gpu_bundle.sh here:
#   run(command="bash scripts/choice_h200.sh", carry=["build-gpu", ".carry"])
# Output: $OUT/choice-ncu.txt (input, build, kernel, ns per launch) and the ncu CSVs in
# $OUT/choice/. The multiplies' results are verified by the tests, not here.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start choice
mkdir -p "$out/choice"
old=$root/${CHOICE_OLD:-.carry/old}
files=${CHOICE_FILES:-bcsstk16 EX5 soc-Slashdot0902 vsp_befref_fxm_2_4_air02}
gpu_libs_setup "$root/build-gpu" "$root/.carry" >/dev/null 2>&1
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for f in $files; do
  m=$root/.carry/matrices/$f.mtx.gz
  for b in new old; do
    if [ $b = new ]; then bin=$root/build-gpu/tools/magnus; lib=${LD_LIBRARY_PATH:-}
    else [ -x "$old/magnus" ] || continue; bin=$old/magnus; lib=$old:${LD_LIBRARY_PATH:-}; fi
    csv=$out/choice/ncu-$f-$b.csv
    LD_LIBRARY_PATH=$lib MAGNUS_BACKENDS=cuda timeout 60 "$ncu" --clock-control none --csv \
      --metrics gpu__time_duration.sum -k regex:'hash_row_products|hash_rows_overflow_sample' \
      "$bin" multiply "$m" "$m" --device cuda:0 2>"$csv.log" | grep '^"' >"$csv"
    python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(sys.argv[2], sys.argv[3], r["Kernel Name"], r["Metric Value"], r["Metric Unit"])' \
      "$csv" "$f" "$b"
  done
done | tee "$out/choice-ncu.txt"

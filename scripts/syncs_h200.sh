#!/usr/bin/env bash
# Fewer host waits per multiply (the hash phases: bounds as context constants, zeroing by fills,
# one read of the bin counts, no wait at a phase's end), measured in ONE device call against
# the build before it (.carry/old: tools/magnus and libmagnus.so* of that commit), after
# scripts/gpu_bundle.sh here:
#   run(command="bash scripts/syncs_h200.sh", carry=["build-gpu", ".carry"], timeout_s=600)
# What each step must answer:
#   heavy    do the CUDA suites of the hash accumulator, gMAGNUS, AUTO, plans, the property
#            test and the structure check pass, and are memcheck, racecheck and synccheck
#            clean (scripts/heavy_h200.sh check,sanitize)? How much faster are the shared
#            matrices with >= 10^7 products and the R-MAT pairs of scales 15-16 (new against
#            old, the new build a second time as the noise, cuSPARSE in the first new run)?
#   trace    how many host waits, and how much device idle time after them, do one multiply
#            of ca-AstroPh_cc1 (gMAGNUS) and of EX5 (hash) have on CUDA, old and new
#            (MAGNUS_TRACE, scripts/trace_summary.py)?
#   python   where the CuPy path's time outside magnus_spgemm_device goes (the report's
#            convert, wrap and out times) on soc-Slashdot0902 and R-MAT scale 18
#   structure  (on request) the structure check's CUDA suites (structure, wrap, native
#            handles) and memcheck, racecheck and synccheck on its suite; racecheck on the
#            light-rows-global case (cut by the first call's sanitizer budget)
#   methods  (on request) issue 13's tables: scripts/methods_h200.sh real32,real64,rmat,cold
#            with AUTO (the default) and cuSPARSE
# SYNCS_STEPS picks steps (default heavy,trace,python). Output in $OUT: summary.txt,
# heavy.tgz, trace.txt, python-slashdot.json, python-rmat18.json; structure.txt; methods/.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start syncs summary.txt
steps=${SYNCS_STEPS:-heavy,trace,python}
gpu_libs_setup build-gpu .carry
old=$root/.carry/old
real="soc-Slashdot0902 vsp_befref_fxm_2_4_air02 email-Enron ca-HepPh vsp_sctap1-2b_and_seymourl
ca-AstroPh_cc1 ego-Facebook astro-ph bcsstk16 EX5"

if has heavy; then
  # shellcheck disable=SC2086 # lists of names
  OUT=$out/h HEAVY_OLD=.carry/old HEAVY_STEPS=check,compare,sanitize HEAVY_ROUNDS=1 \
    HEAVY_BUDGET_S=${SYNCS_HEAVY_S:-330} HEAVY_SANITIZE_S=110 HEAVY_SCALES=15-16 \
    HEAVY_FILES="$(echo $real)" HEAVY_VARIANT_ENV=MAGNUS_HOST_THREADS=8 \
    SANITIZE_CASES='default|auto|hash-global|hash-wide|light-rows-global' \
    HEAVY_CHECK_TESTS="spgemm_hash hash_work spgemm_gmagnus spgemm_auto spgemm_plan spgemm_property device_csr_structure" \
    bash scripts/heavy_h200.sh >/dev/null 2>&1
  say "heavy: exit $?"
  cat "$out/h/summary.txt" >>"$out/summary.txt"
  mv "$out/h/heavy.tgz" "$out/heavy.tgz" 2>/dev/null
  rm -rf "$out/h"
fi

if has trace; then
  gpu_find_matrices "$root/.carry/matrices" ca-AstroPh_cc1 EX5
  : >"$out/trace.txt"
  for f in "${inputs[@]}"; do
    for which in old new; do
      t=$out/trace-raw.txt
      rm -f "$t"
      if [ $which = old ]; then
        MAGNUS_TRACE=$t LD_LIBRARY_PATH="$old:${LD_LIBRARY_PATH:-}" timeout 60 "$old/magnus" \
          bench "$f" --systems cuda:0 --runs 5 --no-bandwidth >/dev/null 2>&1
      else
        MAGNUS_TRACE=$t timeout 60 build-gpu/tools/magnus bench "$f" --systems cuda:0 --runs 5 \
          --no-bandwidth >/dev/null 2>&1
      fi
      { echo "== $(basename "$f") $which"; python3 scripts/trace_summary.py "$t" --last 1; } \
        >>"$out/trace.txt" 2>&1
    done
  done
  rm -f "$out/trace-raw.txt"
  say "trace: done"
fi

if has python; then
  build-gpu/tools/magnus rmat --scale 18 --per-row 4 -o /tmp/r18.mtx >/dev/null 2>&1
  for pair in "slashdot .carry/matrices/soc-Slashdot0902.mtx.gz" "rmat18 /tmp/r18.mtx"; do
    set -- $pair
    MAGNUS_BACKENDS=cuda MAGNUS_LIBRARY=$root/build-gpu/runtime/libmagnus.so \
      PYTHONPATH=$root/python timeout 120 python3 bench/python_timing.py "$2" --paths cupy \
      --runs 30 >"$out/python-$1.json" 2>"$out/python-$1.err"
    say "python $1: exit $?"
    tail -n 3 "$out/python-$1.err" >>"$out/summary.txt"
    rm -f "$out/python-$1.err"
  done
fi

if has structure; then
  {
    for t in device_csr_structure device_csr_wrap device_csr_native; do
      MAGNUS_BACKENDS=cuda timeout 60 build-gpu/tests/$t -j1 >/dev/null 2>&1
      echo "$t: exit $?"
    done
    cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for tool in memcheck racecheck synccheck; do
      echo "== device_csr_structure ($tool)"
      MAGNUS_BACKENDS=cuda timeout 90 "$cs" --tool "$tool" --target-processes all \
        build-gpu/tests/device_csr_structure -j1 2>&1 | grep -E "SUMMARY|Synthesis"
    done
  } >"$out/structure.txt" 2>&1
  SANITIZE_CASES='^light-rows-global$' OUT=$out/s timeout 170 \
    bash scripts/sanitize_h200.sh >/dev/null 2>&1
  echo "light-rows-global racecheck: exit $?" >>"$out/structure.txt"
  grep -E "^==|SUMMARY|Synthesis" "$out/s/sanitize.log" >>"$out/structure.txt" 2>/dev/null
  rm -rf "$out/s"
  say "structure: done"
fi

if has methods; then
  OUT=$out/methods METHODS_STEPS=real32,real64,rmat,cold METHODS_BUDGET_S=${SYNCS_METHODS_S:-230} \
    METHODS_SYSTEMS=auto@cuda:0,cusparse@cuda:0 bash scripts/methods_h200.sh >/dev/null 2>&1
  say "methods: exit $?"
  rm -f "$out/methods/logs.tgz"
  (cd "$out/methods" && tar czf ../methods.tgz --exclude summary.txt . && find . -type f ! -name summary.txt -delete)
fi

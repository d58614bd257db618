#!/usr/bin/env bash
# `magnus bench` end to end on PoCL (no GPU needed), checked by check_bench_output.py.
#   test_bench.sh MODE MAGNUS SOURCE_DIR WORK_DIR SHARED_MATRICES [FAKE_CUSPARSE_LIB]
# MODE:
#   pocl        magnus, hash and auto on the OpenCL CPU device: a tiny R-MAT sweep (scales 8-9,
#               A 4 per row, B 8 per row, 2 runs) and add32 from the shared matrices when
#               present, with --plan; verified against the CPU reference
#   fake        the same against the fake CUDA driver + cuSPARSE (tests/tools/bench/fake_cusparse.c)
#               with ALG1 made to fail and --verify-limit 0, so magnus is checked against
#               the baseline's C (and C*x), --plan's C by C*x; the cuSPARSE rows must name
#               the failure and leave the plan columns empty
#   fake-wrong  the fake baseline returns a wrong C: its rows must be verified=no, magnus's
#               yes, and the exit status 1
# A 16 KiB local-memory budget makes rows heavy and runs the multisplit at these sizes.
# Exit 77 (skipped) when no OpenCL device is found.
set -u
mode=$1 magnus=$2 src=$3 work=$4 shared=$5 fake=${6:-}
mkdir -p "$work"
out=$work/$mode
rm -f "$out".csv "$out".json "$out".log
export MAGNUS_BACKENDS=opencl MAGNUS_LOCAL_MEM_BYTES=16384
device=$("$magnus" probe 2>/dev/null | awk '/^opencl:[0-9]+ / {print $1; exit}')
# shellcheck source=tests/util/require.sh
. "$src/tests/util/require.sh"
[ -n "$device" ] || skip_no_device opencl "test_bench: no OpenCL device"
require_shared "$shared" add32.mtx.gz

args=(bench --rmat-sweep --scales 8-9 --a-per-row 4 --b-per-row 8 --runs 2
      --bandwidth-bytes 16M --csv "$out.csv" --json "$out.json")
[ -e "$shared/add32.mtx.gz" ] && args+=("$shared/add32.mtx.gz")
check=(python3 "$src/tests/tools/bench/check_bench_output.py" --readme "$src/bench/README.md"
       --csv "$out.csv" --json "$out.json" --index "$shared/INDEX.tsv" --expect-local-mem 16384)
expect_rc=0
case $mode in
  pocl)
    args+=(--systems "$device,hash@$device,auto@$device" --plan)
    check+=(--expect-system "magnus@$device" --expect-system "hash@$device"
            --expect-system "auto@$device" --expect-plan) ;;
  fake|fake-wrong)
    [ -n "$fake" ] || { echo "test_bench: no fake cuSPARSE library given"; exit 2; }
    export MAGNUS_CUDA_LIBRARY=$fake MAGNUS_CUSPARSE_LIBRARY=$fake FAKE_CUSPARSE_FAIL=ALG1
    args+=(--systems "$device,cusparse@cuda:0" --verify-limit 0)
    check+=(--expect-system "magnus@$device" --expect-system cusparse@cuda:0
            --expect-detail "ALG1: compute: CUSPARSE_STATUS_INSUFFICIENT_RESOURCES")
    if [ "$mode" = fake ]; then
      # --plan beside a baseline: verified by the randomized check (--verify-limit 0), its
      # columns empty on the cuSPARSE rows (fake-wrong, without --plan: empty everywhere)
      args+=(--plan)
      check+=(--expect-speedup --expect-plan)
    else
      export FAKE_CUSPARSE_WRONG=1
      check+=(--expect-mismatch cusparse)
      expect_rc=1
    fi ;;
  *) echo "test_bench: unknown mode $mode"; exit 2 ;;
esac

echo "+ $magnus ${args[*]}"
"$magnus" "${args[@]}" >"$out.log" 2>&1
rc=$?
cat "$out.log"
if [ "$rc" -ne "$expect_rc" ]; then
  echo "test_bench: magnus bench exited $rc, expected $expect_rc"
  exit 1
fi
if [ "$mode" = fake-wrong ] && ! grep -q "MISMATCH: cusparse@cuda:0" "$out.log"; then
  echo "test_bench: the wrong baseline C was not reported as a MISMATCH"
  exit 1
fi
"${check[@]}" || exit 1
if [ "$mode" = fake ]; then
  # --verify-limit 0: magnus's randomized check ran C*x on its device C (the warm-up's), and says so
  python3 - "$out.csv" "magnus@$device" <<'PYEOF' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["system"] == sys.argv[2] and r["status"] == "ok"]
bad = [r["input"] for r in rows if "C·x on the device" not in r["verify_note"]]
if not rows or bad:
    sys.exit(f"test_bench: magnus rows without the device C*x note: {bad or 'no rows'}")
PYEOF
fi
if [ "$mode" = pocl ]; then
  # --seeds: every pair once per seed, beyond seed 1 named -seedS, B drawn with seed S + 1
  "$magnus" bench --rmat-sweep --scales 7 --a-per-row 4 --b-per-row 8 --seeds 1,3 --runs 1 \
    --systems "$device" --no-bandwidth --csv "$out-seeds.csv" >"$out-seeds.log" 2>&1 ||
    { cat "$out-seeds.log"; echo "test_bench: --seeds run failed"; exit 1; }
  for want in 'rmat-s7-a4-b8,.*rmat:7:4:1,rmat:7:8:2' 'rmat-s7-a4-b8-seed3,.*rmat:7:4:3,rmat:7:8:4'; do
    grep -q "^$want" "$out-seeds.csv" || { cat "$out-seeds.csv"; echo "test_bench: no row $want"; exit 1; }
  done
  [ "$(grep -c '^rmat-' "$out-seeds.csv")" = 2 ] || { echo "test_bench: --seeds 1,3 gave not 2 rows"; exit 1; }
fi
if [ "$mode" = fake ]; then
  # --op spmv: cuSPARSE's generic SpMV beside the formats, measured and verified the same way
  # (the fake computes y on the host), and its failure recorded on its row, not hidden.
  for fail in none SPMV; do
    FAKE_CUSPARSE_FAIL=$fail "$magnus" bench --op spmv rmat:8:4 --type f64 --runs 3 \
      --systems "$device,cusparse@cuda:0" --no-bandwidth --csv "$out-spmv-$fail.csv" \
      >"$out-spmv-$fail.log" 2>&1
    rc=$?
    want_rc=0 want_row=',cusparse@cuda:0,cusparse,CSR ALG_DEFAULT,256,256,.*,yes,""$'
    [ "$fail" = SPMV ] && want_rc=1 want_row=',cusparse@cuda:0,cusparse,.*,no,"cusparseSpMV: CUSPARSE_STATUS_INTERNAL_ERROR"$'
    if [ "$rc" -ne "$want_rc" ] || ! grep -q "^rmat:8:4$want_row" "$out-spmv-$fail.csv"; then
      cat "$out-spmv-$fail.log" "$out-spmv-$fail.csv"
      echo "test_bench: --op spmv with cuSPARSE (FAKE_CUSPARSE_FAIL=$fail): exit $rc, expected $want_rc and a row like $want_row"
      exit 1
    fi
  done
  # every one of cuSPARSE's CSR and COO algorithms has its own verified row
  for alg in "CSR ALG_DEFAULT" "CSR ALG1" "CSR ALG2" "COO ALG1" "COO ALG2"; do
    grep -q "^rmat:8:4,cusparse@cuda:0,cusparse,$alg,256,256,.*,yes,\"\"\$" "$out-spmv-none.csv" ||
      { cat "$out-spmv-none.csv"; echo "test_bench: no verified cuSPARSE SpMV row for $alg"; exit 1; }
  done
fi

#!/usr/bin/env bash
# `magnus bench` end to end on PoCL (no GPU needed), checked by check_bench_output.py.
#   test_bench.sh MODE MAGNUS SOURCE_DIR WORK_DIR SHARED_MATRICES [FAKE_CUSPARSE_LIB [OLD_LIB]]
# MODE:
#   pocl        magnus, hash and auto on the OpenCL CPU device: a tiny R-MAT sweep (scales 8-9,
#               A 4 per row, B 8 per row, 2 runs) and add32 from the shared matrices when
#               present, with --plan; verified against the CPU reference
#   pocl-unreported  magnus and hash with --unreported: timed runs without a report, the
#               phase columns (numeric, symbolic_ms > 0) from one more run
#   fake        the same against the fake CUDA driver + cuSPARSE (tests/tools/bench/fake_cusparse.c)
#               with ALG1 made to fail and --verify-limit 0, so magnus is checked against
#               the baseline's C (and C*x), --plan's C by C*x; the cuSPARSE rows must name
#               the failure and leave the plan columns empty; then --op spmv, checked by
#               check_spmv_output.py (and against FAKE_CUSPARSE_OLD, the 7th argument)
#   fake-wrong  the fake baseline returns a wrong C: its rows must be verified=no, magnus's
#               yes, and the exit status 1
#   fake-wrong-run  only every second timed run's C is wrong (the verified C right): the same
#               verdicts, the note naming the timed run, no speedup over those baselines
# The fake modes run both baselines, cusparse@cuda:0 and cusparse-pool@cuda:0.
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
    check+=(--expect-system "gmagnus@$device" --expect-system "hash@$device"
            --expect-system "auto@$device" --expect-plan) ;;
  pocl-unreported)
    args+=(--systems "$device,hash@$device" --unreported)
    check+=(--expect-system "gmagnus@$device" --expect-system "hash@$device") ;;
  fake|fake-wrong|fake-wrong-run)
    [ -n "$fake" ] || { echo "test_bench: no fake cuSPARSE library given"; exit 2; }
    export MAGNUS_CUDA_LIBRARY=$fake MAGNUS_CUSPARSE_LIBRARY=$fake FAKE_CUSPARSE_FAIL=ALG1
    # both baselines: cuMemAlloc'd and from the fake's stream-ordered pool (its protocol
    # checked: a mixed-up free aborts)
    args+=(--systems "$device,cusparse@cuda:0,cusparse-pool@cuda:0" --verify-limit 0)
    check+=(--expect-system "gmagnus@$device" --expect-system cusparse@cuda:0
            --expect-system cusparse-pool@cuda:0
            --expect-detail "ALG1: compute: CUSPARSE_STATUS_INSUFFICIENT_RESOURCES")
    if [ "$mode" = fake ]; then
      # --plan beside a baseline: verified by the randomized check (--verify-limit 0), its
      # columns empty on the cuSPARSE rows (fake-wrong, without --plan: empty everywhere);
      # every second copy one ulp off: the second timed run's C is checked on its own
      export FAKE_CUSPARSE_JITTER=1
      args+=(--plan)
      check+=(--expect-speedup --expect-plan --expect-same-runs cusparse=fewer)
    elif [ "$mode" = fake-wrong ]; then
      export FAKE_CUSPARSE_WRONG=1
      check+=(--expect-mismatch cusparse)
      expect_rc=1
    else
      # the verified C (the first timed run's) right, the second run's wrong
      export FAKE_CUSPARSE_WRONG=even
      check+=(--expect-mismatch cusparse --expect-note "timed run 2")
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
if [ "$mode" = pocl-unreported ]; then
  # the report's own run fills the phase columns: every row has a symbolic phase time
  python3 - "$out.csv" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r["input"] + " " + r["system"] for r in rows
       if r["status"] == "ok" and not float(r["symbolic_ms"] or 0) > 0]
if not rows or bad:
    sys.exit("test_bench: --unreported rows without a symbolic time: %s" % (bad or "no rows"))
print("test_bench: %d --unreported rows carry their phase times" % len(rows))
PY
fi
if [[ $mode == fake-wrong* ]] && ! grep -q "MISMATCH: cusparse@cuda:0" "$out.log"; then
  echo "test_bench: the wrong baseline C was not reported as a MISMATCH"
  exit 1
fi
"${check[@]}" || exit 1
if [ "$mode" = fake ]; then
  # --verify-limit 0: magnus's randomized check ran C*x on its device C (the warm-up's), and says so
  python3 - "$out.csv" "gmagnus@$device" <<'PYEOF' || exit 1
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
  # --op spmv: cuSPARSE's generic SpMV beside the formats, every variant its own row, measured
  # and verified the same way (the fake computes y on the host, and its events read a device
  # clock that each product advances by its algorithm's cost, so a median is that cost exactly
  # when each product is timed alone); failures and skips recorded on their rows.
  old=${7:-}
  spmv() { # NAME WANT_RC CHECK_ARGS... -- BENCH_ARGS...
    local name=$1 want=$2 c=() b=()
    shift 2
    while [ "$1" != -- ]; do c+=("$1"); shift; done
    shift
    "$magnus" bench --op spmv --type f64 --runs 3 --systems "$device,cusparse@cuda:0" \
      --no-bandwidth --csv "$out-spmv-$name.csv" --json "$out-spmv-$name.json" "$@" \
      >"$out-spmv-$name.log" 2>&1
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
      cat "$out-spmv-$name.log"
      echo "test_bench: --op spmv ($name): exit $rc, expected $want"
      exit 1
    fi
    python3 "$src/tests/tools/bench/check_spmv_output.py" --readme "$src/bench/README.md" \
      --csv "$out-spmv-$name.csv" --json "$out-spmv-$name.json" --log "$out-spmv-$name.log" \
      "${c[@]}" || { cat "$out-spmv-$name.log"; echo "test_bench: --op spmv ($name)"; exit 1; }
  }
  r=rmat:8:4
  # every variant verified (the sliced ELL of this R-MAT is too padded: skipped, not failed);
  # the yardstick the fastest of them, with preprocess
  FAKE_CUSPARSE_FAIL=none spmv all 0 \
    --expect-median "$r,CSR ALG_DEFAULT=0.008" --expect-median "$r,CSR ALG1=0.006" \
    --expect-median "$r,CSR ALG1+preprocess=0.005" --expect-median "$r,COO ALG2=0.012" \
    --expect-status "$r,SELL ALG1=skipped:nnz (limit 4x)" \
    --expect-status "$r,SELL ALG1+preprocess=skipped:nnz (limit 4x)" \
    --expect-baseline "$r=COO ALG1+preprocess" -- $r
  for alg in "CSR ALG_DEFAULT" "CSR ALG1" "CSR ALG2" "COO ALG1" "COO ALG2"; do
    for pre in no yes; do
      grep -q "^$r,cusparse@cuda:0,cusparse,$alg,$pre,ok,.*,yes,,,,0,\"\",\"\"\$" "$out-spmv-all.csv" ||
        { cat "$out-spmv-all.csv"; echo "test_bench: no verified cuSPARSE row for $alg (preprocess $pre)"; exit 1; }
    done
  done
  # every product failing: each row says why, no yardstick, exit 1
  FAKE_CUSPARSE_FAIL=SPMV spmv fail 1 \
    --expect-status "$r,CSR ALG1=failed:cusparseSpMV: CUSPARSE_STATUS_INTERNAL_ERROR" \
    --expect-status "$r,COO ALG2+preprocess=failed:cusparseSpMV: CUSPARSE_STATUS_INTERNAL_ERROR" \
    --expect-baseline "$r=" -- $r
  # y filled with NaN before each variant: COO ALG2 writing nothing fails its check (and is not
  # the yardstick, though fastest); a preprocess the library refuses is a skip; the sliced ELL
  # of a regular matrix runs (its layout checked by the fake); one byte floor per input: 32-bit
  # row pointers, columns and values, the x entries some column selects, y written (laplace:
  # 4*257 + 12*1216 + 8*256 + 8*256; empty-col: 4*4 + 12*3 + 8*2 + 8*3, its column 2 unused)
  l=laplace2d:16:16
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.5\n2 1 2\n3 3 -1\n' \
    >"$work/empty-col.mtx"
  FAKE_CUSPARSE_SPMV_SILENT=COO_ALG2 FAKE_CUSPARSE_NO_PREPROCESS=COO_ALG1 spmv reset 1 \
    --expect-floor "$l=19716" --expect-floor "empty-col=92" \
    --expect-verified "$l,COO ALG2=no" --expect-verified "$l,COO ALG2+preprocess=no" \
    --expect-status "$l,COO ALG1+preprocess=skipped:CUSPARSE_STATUS_NOT_SUPPORTED" \
    --expect-status "$l,SELL ALG1=ok" --expect-verified "$l,SELL ALG1+preprocess=yes" \
    --expect-median "$l,SELL ALG1=0.014" --expect-status "empty-col,SELL ALG1=skipped:limit 4x" \
    --expect-conversion "$l,SELL ALG1+preprocess=0.02" --expect-conversion "$l,SELL ALG1=0" \
    --expect-baseline "$l=COO ALG1" --expect-baseline "empty-col=COO ALG1" \
    -- $l "$work/empty-col.mtx"
  grep -q "^$l,cusparse@cuda:0,cusparse,COO ALG2,no,ok,.*,no,,,,0,\"\",\"y holds NaN" "$out-spmv-reset.csv" ||
    { cat "$out-spmv-reset.csv"; echo "test_bench: COO ALG2's unwritten y was not caught"; exit 1; }
  # a cuSPARSE without cusparseGetStream, cusparseCreateSlicedEll and cusparseSpMV_preprocess
  if [ -n "$old" ]; then
    MAGNUS_CUDA_LIBRARY=$old MAGNUS_CUSPARSE_LIBRARY=$old FAKE_CUSPARSE_FAIL=none spmv old 0 \
      --expect-status "$l,SELL ALG1=skipped:has no cusparseCreateSlicedEll" \
      --expect-status "$l,CSR ALG1+preprocess=skipped:has no cusparseSpMV_preprocess" \
      --expect-verified "$l,CSR ALG2=yes" --expect-baseline "$l=COO ALG1" -- $l
  fi
fi

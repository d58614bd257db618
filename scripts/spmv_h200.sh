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
#   irregular `magnus bench --op spmv` on issue 32's inputs (SPMV_IRREGULAR: R-MAT scales 20-23
#             with 4-16 per row, seeds 2 and 3, and the social and web graphs of the shared
#             matrices), SPMV_TYPES (default f64) each, beside every cuSPARSE SpMV algorithm
#   kernels   csr-balanced's items per work item and group size: SPMV_KERNEL_SETTINGS, ITEMS:GROUP
#             each, one `magnus bench --op spmv` (CUDA alone, median of SPMV_RUNS) per setting
#             on SPMV_KERNEL_INPUTS, in SPMV_KERNEL_TYPE (default f64)
#   ncu       Nsight Compute (--clock-control none) on the timed product of csr-balanced and of
#             cuSPARSE's SpMV algorithms on SPMV_NCU_INPUT (default rmat:22:16:2): time, DRAM and
#             L2 bytes, L1 hit rate, occupancy, stall reasons (ncu-*.csv, ncu.txt)
#   carveout  SpMV's product kernels with a preferred split of local memory and L1
#             (MAGNUS_SPMV_CARVEOUT, docs/performance.md "SpMV on power-law rows"): for each
#             value of SPMV_CARVEOUTS (default "unset 0 25 40 100"; unset: the driver's
#             choice) and type of SPMV_CARVEOUT_TYPES (default "f64 f32"), one `magnus bench
#             --op spmv` (CUDA alone, median of SPMV_RUNS, default 20) on SPMV_CARVEOUT_INPUTS
#             (default rmat:22:16:2 rmat:20:4:2 rmat:21:8:2 rmat:23:8:2) and the social and web
#             graphs of the irregular step; then, per value, Nsight Compute on csr-balanced's
#             product on rmat:22:16:2 in each type of SPMV_CARVEOUT_NCU_TYPES (default f64;
#             empty: none): L1 hit rate, L2 bytes, occupancy, the shared-memory configuration.
#             SPMV_CARVEOUT_KNOB sweeps another knob the same way (MAGNUS_SPMV_HOT_BYTES:
#             csr-balanced's hot x, values such as "unset 32K 64K 96K"), SPMV_CARVEOUT_SYSTEMS
#             (default cuda:0) adds systems to each bench (cusparse@cuda:0)
#   builds    the same SpMV benches through two builds, alternately (A/B of a kernel change in
#             one call): SPMV_BUILDS (default "old:.carry/old new:build-gpu"; LABEL:DIR, a DIR
#             holding magnus and libmagnus.so.0.1, or a build with tools/magnus),
#             SPMV_BUILD_ROUNDS (2) rounds, SPMV_BUILD_TYPES (f64 f32), on the carveout step's
#             inputs, CUDA alone, every format; builds.txt: per input, type and format, each
#             build's median of the rounds' medians and their ratio to the first build's
# SPMV_FORMATS and SPMV_TESTS narrow the sanitized formats and test executables,
# SPMV_TEST_FILTER the tests within them (Criterion's --filter, e.g. 'spmv_hot/*').
# Output in $OUT: sanitize.log, spmv.csv, spmv.json, spmv.log, irregular-TYPE.csv/.log,
# kernels.txt, ncu.txt, carveout.txt (+ carveout-TYPE-VALUE.csv/.log, ncu-carveout-*.csv).
# Exit 1 if a step failed.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start spmv
gpu_libs_setup "$root/build-gpu" "$root/.carry" >"$out/sanitize.log"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
steps=${SPMV_STEPS:-sanitize,bench}

# The kernels of an ncu CSV (--csv, sections below), one line of the figures that matter each.
ncu_summary() {
  echo "== $(basename "$1")"
  python3 - "$1" <<'PY'
import csv, io, sys
text = open(sys.argv[1], errors="replace").read().splitlines()
start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
if start is None:
    print("  no ncu rows"); sys.exit()
want = ["Duration", "Memory Throughput", "DRAM Throughput", "L1/TEX Hit Rate", "L2 Hit Rate",
        "Shared Memory Configuration Size", "Driver Shared Memory Per Block",
        "Achieved Occupancy", "Theoretical Occupancy", "Registers Per Thread",
        "Dynamic Shared Memory Per Block", "Block Limit Shared Mem", "Block Limit Registers",
        "Warp Cycles Per Issued Instruction", "Grid Size", "Block Size",
        "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum"]
k = {}
for r in csv.DictReader(io.StringIO("\n".join(text[start:]))):
    key = (r["ID"], r["Kernel Name"][:70])
    k.setdefault(key, {})[r["Metric Name"]] = (r["Metric Value"], r["Metric Unit"])
for (i, name), m in k.items():
    print(i, name)
    print("   ", "; ".join(f"{w}={m[w][0]}{m[w][1]}" for w in want if w in m))
PY
}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
ncu_prof=(--clock-control none --csv --section SpeedOfLight --section MemoryWorkloadAnalysis
          --section Occupancy --section LaunchStats --section WarpStateStats
          --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum)

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
    sanitize "test-$t" memcheck "$root/build-gpu/tests/$t" --jobs 1 \
      ${SPMV_TEST_FILTER:+--filter "$SPMV_TEST_FILTER"}
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
if [[ ,$steps, == *,irregular,* ]]; then
  gpu_find_matrices "$root/.carry/matrices" \
    ${SPMV_GRAPHS:-soc-Slashdot0902 ego-Facebook wiki-Vote PGPgiantcompo polblogs}
  read -ra gen <<<"${SPMV_IRREGULAR:-rmat:20:4:2 rmat:20:16:3 rmat:21:8:2 rmat:22:4:3 rmat:22:16:2 rmat:23:8:2 rmat:23:16:3}"
  for type in ${SPMV_TYPES:-f64}; do
    if MAGNUS_BACKENDS=cuda timeout "${SPMV_BENCH_TIMEOUT_S:-300}" "$magnus" bench --op spmv \
         "${gen[@]}" "${inputs[@]}" --type "$type" --systems cuda:0,cusparse@cuda:0 \
         --runs "${SPMV_RUNS:-20}" --csv "$out/irregular-$type.csv" >"$out/irregular-$type.log" 2>&1; then
      echo "irregular $type: ok"
    else
      echo "irregular $type: FAILED (exit $?)"; failed=1
    fi
    grep -E "^  .*speedup:" "$out/irregular-$type.log" | sed -E 's/ (csr|coo|hybrid|sellp) [^ ]+x?//g'
    sed -n '/^speedup of each magnus format/,$p' "$out/irregular-$type.log"
  done
fi

if [[ ,$steps, == *,kernels,* ]]; then
  # each setting ITEMS:GROUP: one bench of every magnus format (csr-balanced's row kept)
  read -ra kin <<<"${SPMV_KERNEL_INPUTS:-rmat:22:16:2}"
  for setting in ${SPMV_KERNEL_SETTINGS:-3:256 5:256 7:256}; do
    IFS=: read -r k g <<<"$setting"
    MAGNUS_SPMV_MERGE_ITEMS=$k MAGNUS_SPMV_GROUP=$g MAGNUS_BACKENDS=cuda timeout 120 "$magnus" \
      bench --op spmv "${kin[@]}" --type "${SPMV_KERNEL_TYPE:-f64}" --systems cuda:0 \
      --no-bandwidth --runs "${SPMV_RUNS:-20}" >"$out/kernel-$k-$g.log" 2>&1 ||
      { echo "kernels $setting: FAILED"; failed=1; }
    grep -E "csr-balanced" "$out/kernel-$k-$g.log" | sed "s/^/$setting /"
  done | tee "$out/kernels.txt"
fi

if [[ ,$steps, == *,ncu,* ]]; then
  input=${SPMV_NCU_INPUT:-rmat:22:16:2}
  MAGNUS_BACKENDS=cuda timeout 120 "$ncu" "${ncu_prof[@]}" \
    --kernel-name regex:spmv_ --launch-skip 3 --launch-count 6 \
    "$magnus" spmv "$input" --format csr-balanced --type f64 --device cuda:0 \
    >"$out/ncu-magnus.csv" 2>"$out/ncu-magnus.err" || { echo "ncu magnus: FAILED"; failed=1; }
  # cuSPARSE's kernels (SPMV_NCU_CUSPARSE=0 leaves them out): the bench with cuSPARSE alone
  # (each algorithm's warm-up and timed products; no magnus kernel runs there but the tool's
  # own small ones)
  [ "${SPMV_NCU_CUSPARSE:-1}" = 0 ] || MAGNUS_BACKENDS=cuda timeout 240 "$ncu" "${ncu_prof[@]}" --launch-count "${SPMV_NCU_LAUNCHES:-70}" \
    "$magnus" bench --op spmv "$input" --type f64 --systems cusparse@cuda:0 --runs 1 \
    --no-bandwidth >"$out/ncu-cusparse.csv" 2>"$out/ncu-cusparse.err" ||
    { echo "ncu cusparse: FAILED"; failed=1; }
  for f in "$out"/ncu-magnus.csv "$out"/ncu-cusparse.csv; do
    [ -f "$f" ] && ncu_summary "$f"
  done | tee "$out/ncu.txt"
fi

if [[ ,$steps, == *,carveout,* ]]; then
  # benches first (the measurement), Nsight Compute after (the why); "unset" leaves the
  # variable out of the environment: the driver's own carveout, today's default
  gpu_find_matrices "$root/.carry/matrices" \
    ${SPMV_GRAPHS:-soc-Slashdot0902 ego-Facebook wiki-Vote PGPgiantcompo polblogs}
  read -ra cin <<<"${SPMV_CARVEOUT_INPUTS:-rmat:22:16:2 rmat:20:4:2 rmat:21:8:2 rmat:23:8:2}"
  knob=${SPMV_CARVEOUT_KNOB:-MAGNUS_SPMV_CARVEOUT}
  carveout_env() { # VALUE -> the env(1) arguments that set or unset the knob
    if [ "$1" = unset ]; then echo "-u $knob"; else echo "$knob=$1"; fi
  }
  # SPMV_CARVEOUT_BENCH=0: Nsight Compute alone, the times being known
  [ "${SPMV_CARVEOUT_BENCH:-1}" = 0 ] || for type in ${SPMV_CARVEOUT_TYPES:-f64 f32}; do
    for c in ${SPMV_CARVEOUTS:-unset 0 25 40 100}; do
      # shellcheck disable=SC2046
      env $(carveout_env "$c") MAGNUS_BACKENDS=cuda timeout "${SPMV_CARVEOUT_TIMEOUT_S:-150}" \
        "$magnus" bench --op spmv "${cin[@]}" "${inputs[@]}" --type "$type" \
        --systems "${SPMV_CARVEOUT_SYSTEMS:-cuda:0}" \
        --no-bandwidth --runs "${SPMV_RUNS:-20}" --csv "$out/carveout-$type-$c.csv" \
        >"$out/carveout-$type-$c.log" 2>&1 || { echo "carveout $type $c: FAILED"; failed=1; }
      grep -E "csr-balanced" "$out/carveout-$type-$c.log" | sed "s/^/$type carveout=$c /"
    done
  done | tee "$out/carveout.txt"
  # the product's own spmv_merge: magnus spmv's first launch is its 1x1 warm-up product
  for type in ${SPMV_CARVEOUT_NCU_TYPES-f64}; do
    for c in ${SPMV_CARVEOUTS:-unset 0 25 40 100}; do
      # shellcheck disable=SC2046
      env $(carveout_env "$c") MAGNUS_BACKENDS=cuda timeout 120 "$ncu" "${ncu_prof[@]}" \
        --kernel-name spmv_merge --launch-skip 1 --launch-count 1 \
        "$magnus" spmv rmat:22:16:2 --format csr-balanced --type "$type" --device cuda:0 \
        >"$out/ncu-carveout-$type-$c.csv" 2>"$out/ncu-carveout-$type-$c.err" ||
        { echo "ncu carveout $type $c: FAILED"; failed=1; }
      ncu_summary "$out/ncu-carveout-$type-$c.csv"
    done
  done | tee -a "$out/carveout.txt"
fi
if [[ ,$steps, == *,builds,* ]]; then
  gpu_find_matrices "$root/.carry/matrices" \
    ${SPMV_GRAPHS:-soc-Slashdot0902 ego-Facebook wiki-Vote PGPgiantcompo polblogs}
  read -ra bin_inputs <<<"${SPMV_CARVEOUT_INPUTS:-rmat:22:16:2 rmat:20:4:2 rmat:21:8:2 rmat:23:8:2}"
  base_ld=$LD_LIBRARY_PATH
  builds=${SPMV_BUILDS:-old:.carry/old new:build-gpu}
  for r in $(seq 1 "${SPMV_BUILD_ROUNDS:-2}"); do
    for b in $builds; do
      label=${b%%:*} dir=$root/${b#*:}
      if [ -x "$dir/tools/magnus" ]; then bin=$dir/tools/magnus ld=$base_ld
      else bin=$dir/magnus ld=$dir:$base_ld; fi # its library before build-gpu's
      for type in ${SPMV_BUILD_TYPES:-f64 f32}; do
        LD_LIBRARY_PATH=$ld MAGNUS_BACKENDS=cuda timeout 150 "$bin" bench --op spmv \
          "${bin_inputs[@]}" "${inputs[@]}" --type "$type" --systems cuda:0 --no-bandwidth \
          --runs "${SPMV_RUNS:-20}" --csv "$out/build-$label-$type-$r.csv" \
          >"$out/build-$label-$type-$r.log" 2>&1 || { echo "builds $label $type $r: FAILED"; failed=1; }
      done
    done
  done
  python3 - "$out" "$builds" <<'PY' | tee "$out/builds.txt"
import csv, glob, os, statistics, sys
out, labels = sys.argv[1], [b.split(":")[0] for b in sys.argv[2].split()]
t = {}
for path in glob.glob(os.path.join(out, "build-*-*-*.csv")):
    _, label, typ, _ = os.path.basename(path)[:-4].split("-")
    for row in csv.DictReader(open(path)):
        if row.get("verified") == "yes" and row.get("median_ms"):
            t.setdefault((row["input"], typ, row["format"]), {}).setdefault(label, []).append(float(row["median_ms"]))
print("input type format: " + "  ".join(f"{l} ms" for l in labels) + f"  (over {labels[0]})")
ratios = {}
for key in sorted(t):
    med = {l: statistics.median(v) for l, v in t[key].items()}
    if labels[0] not in med: continue
    cells = [f"{med[l]:.4f}" if l in med else "-" for l in labels]
    rel = [f"{med[l] / med[labels[0]]:.3f}" for l in labels[1:] if l in med]
    for l in labels[1:]:
        if l in med: ratios.setdefault((key[1], key[2], l), []).append(med[l] / med[labels[0]])
    print(" ".join(key), " ".join(cells), " ".join(rel))
for (typ, fmt, l), v in sorted(ratios.items()):
    print(f"geomean {l}/{labels[0]} {typ} {fmt}: {statistics.geometric_mean(v):.3f} over {len(v)}")
PY
fi
exit $failed

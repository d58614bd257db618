#!/usr/bin/env bash
# The heavy-path measurement of issue 12 in ONE device call, after scripts/gpu_bundle.sh (the
# new build, build-gpu/) and another build's tools/magnus + libmagnus.so* in .carry/old/ (any
# Release build with -DMAGNUS_CUDA_KERNELS=ON: the landed commit, or a kernel variant):
#   run(command="bash scripts/heavy_h200.sh", carry=["build-gpu", ".carry"], timeout_s=600)
# Steps (HEAVY_STEPS, default all, in this order; each bounded, the whole by HEAVY_BUDGET_S):
#   check     CUDA tests of what the change touches: HEAVY_CHECK_TESTS (default spgemm_gmagnus
#             gmagnus_dense_chunks), and spgemm_gmagnus with the variant's environment, every
#             product against the CPU reference
#   ncu       Nsight Compute, kernel by kernel (time, DRAM bytes) of one multiply of
#             rmat-s18-a4-b8 (new build, old build) and rmat-s19-a8-b8 (new build), each beside
#             the same pair's wall time from `magnus bench` (5 runs) outside ncu
#   detail    Nsight Compute sections (speed of light, occupancy, launch, warp states,
#             scheduler, memory, instructions, compute) of HEAVY_DETAIL_KERNELS (a regex; the
#             first HEAVY_DETAIL_COUNT launches after HEAVY_DETAIL_SKIP of them: the CLI's
#             sample multiply comes first, one launch of each kernel or more) in one s18
#             multiply (new build)
#   compare   `magnus bench` on the perf_h200.sh inputs, rounds of: old build, new build, new
#             build with HEAVY_VARIANT_ENV (cuSPARSE in the first new run), HEAVY_ROUNDS (2)
#             rounds, so that noise and change are measured in the same minutes
#   trace     MAGNUS_TRACE timelines of rmat-s18-a4-b8 and rmat-s19-a8-b8 (new build, bench
#             with 3 runs), summed by scripts/trace_summary.py (waits, allocations, frees, and
#             the host time from each wait to the next launch)
#   sanitize  scripts/sanitize_h200.sh (memcheck, racecheck, synccheck), within HEAVY_SANITIZE_S
#             (default 200) seconds
# HEAVY_OLD (.carry/old) names the other build, HEAVY_VARIANT_ENV (MAGNUS_MULTISPLIT_GROUP=1024)
# the third configuration (VAR=value, one).
# Here, besides: ../shared/tools/ncu_kernels.py copied to .carry/ (the GPU machine has no ../shared).
# Output: $OUT/summary.txt and $OUT/heavy.tgz (every CSV and log; the device tool returns at
# most 8 files).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
new=$root/build-gpu
old=$root/${HEAVY_OLD:-.carry/old}
variant=${HEAVY_VARIANT_ENV:-MAGNUS_MULTISPLIT_GROUP=1024}
steps=${HEAVY_STEPS:-check,ncu,detail,compare,trace,sanitize}
budget=${HEAVY_BUDGET_S:-560}
rounds=${HEAVY_ROUNDS:-2}
dev=${HEAVY_DEVICE:-cuda:0}            # overrides to try the script on PoCL with tiny inputs
scales=${HEAVY_SCALES:-16-18}
files=${HEAVY_FILES:-soc-Slashdot0902 email-Enron vsp_befref_fxm_2_4_air02}
baseline=${HEAVY_BASELINE:-,cusparse@cuda:0}
out=${OUT:-$root/heavy-out}
work=$out/heavy
mkdir -p "$work"
summary=$out/summary.txt
: >"$summary"
start=$SECONDS
say() { echo "$*" | tee -a "$summary"; }
left() { echo $((budget - (SECONDS - start))); }
want() { [[ ",$steps," == *",$1,"* ]]; }

# shellcheck source=scripts/gpu_libs.sh
. "$root/scripts/gpu_libs.sh"
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
GPU_LIBS_SAY=say gpu_find_cusparse
say "heavy_h200: $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
# the old build's library beside its binary
old_env=(LD_LIBRARY_PATH="$old:${LD_LIBRARY_PATH:-}")

bounded() { # LIMIT LOG CMD...: runs CMD within LIMIT (and the budget), appending to LOG
  local limit=$1 log=$2 rest
  shift 2
  rest=$(left)
  [ "$limit" -gt $((rest - 5)) ] && limit=$((rest - 5))
  if [ "$limit" -lt 15 ]; then say "  skipped (${rest}s left): $*"; return 124; fi
  timeout --signal=TERM --kill-after=5 "$limit" "$@" >>"$log" 2>&1
}

if want check; then
  say "== check"
  for t in ${HEAVY_CHECK_TESTS:-spgemm_gmagnus gmagnus_dense_chunks}; do
    bounded 120 "$work/check.log" env MAGNUS_BACKENDS=cuda "$new/tests/$t" --jobs 1
    say "  $t: exit $?"
  done
  bounded 120 "$work/check.log" env MAGNUS_BACKENDS=cuda "$variant" \
    "$new/tests/spgemm_gmagnus" --jobs 1
  say "  spgemm_gmagnus ($variant): exit $?"
fi

if want ncu; then
  say "== ncu"
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
  one() { # NAME BINARY SCALE A_PER_ROW ENV... -- multiply args
    local name=$1 bin=$2 scale=$3 aper=$4 envs=()
    shift 4
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    # wall time outside ncu, the same pair: magnus bench (warm-up, then 5 timed multiplies)
    bounded 90 "$work/ncu-$name.wall.log" env "${envs[@]}" "$bin" bench --rmat-sweep \
      --scales "$scale" --a-per-row "$aper" --b-per-row 8 --runs 5 --runs-large 5 \
      --systems "$dev" --no-bandwidth --verify-limit 0 --csv "$work/ncu-$name.wall.csv"
    python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  wall %s: %s ms (alloc %s, symbolic %s, numeric %s), peak %.2f GB, verified %s" % (r["input"], r["time_mean_ms"], r["alloc_ms"], r["symbolic_ms"], r["numeric_ms"], float(r["peak_device_bytes"] or 0)/1e9, r["verified"]))' \
      "$work/ncu-$name.wall.csv" >>"$summary" 2>&1
    bounded 150 "$work/ncu-$name.csv" env "${envs[@]}" "$ncu" --clock-control none --csv \
      --metrics "$metrics" "$bin" multiply "$@" --device "$dev"
    say "  $name: exit $?"
    python3 "$root/.carry/ncu_kernels.py" "$work/ncu-$name.csv" --copy-gbps 4265 --top 14 \
      >"$work/ncu-$name.table.txt" 2>&1
    cat "$work/ncu-$name.table.txt" >>"$summary"
  }
  one s18-new "$new/tools/magnus" 18 4 -- rmat:18:4:1 rmat:18:8:2
  one s18-old "$old/magnus" 18 4 "${old_env[@]}" -- rmat:18:4:1 rmat:18:8:2
  one s19-new "$new/tools/magnus" 19 8 -- rmat:19:8:1 rmat:19:8:2
fi

if want detail; then
  say "== detail"
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  bounded 200 "$work/ncu-detail.txt" "$ncu" --clock-control none --section SpeedOfLight \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section InstructionStats --section ComputeWorkloadAnalysis \
    -k "regex:${HEAVY_DETAIL_KERNELS:-gmagnus_outer_product|gmagnus_dense_numeric|hash_chunks_numeric_local}" \
    -s "${HEAVY_DETAIL_SKIP:-0}" -c "${HEAVY_DETAIL_COUNT:-4}" "$new/tools/magnus" multiply rmat:18:4:1 rmat:18:8:2 --device "$dev"
  say "  detail: exit $?"
fi

if want compare; then
  say "== compare"
  # shellcheck disable=SC2086 # a list of names
  gpu_find_matrices "$root/.carry/matrices" $files
  common=(bench "${inputs[@]}" --rmat-sweep --scales "$scales" --a-per-row 4 --b-per-row 8 --runs 5
          --runs-large 5 --verify-limit 2e7 --max-timed-seconds 4 --no-bandwidth)
  for r in $(seq 1 "$rounds"); do
    bounded 90 "$work/compare.log" env "${old_env[@]}" "$old/magnus" "${common[@]}" \
      --systems "$dev" --csv "$work/old-$r.csv"
    say "  round $r old: exit $?"
    sys=$dev
    [ "$r" = 1 ] && sys=$dev$baseline
    bounded 90 "$work/compare.log" "$new/tools/magnus" "${common[@]}" --systems "$sys" \
      --csv "$work/new-$r.csv"
    say "  round $r new: exit $?"
    bounded 90 "$work/compare.log" env "$variant" "$new/tools/magnus" \
      "${common[@]}" --systems "$dev" --csv "$work/variant-$r.csv"
    say "  round $r variant ($variant): exit $?"
  done
  python3 - "$work" >>"$summary" <<'EOF'
import csv, glob, math, os, sys
w = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(w, "*-[0-9].csv"))):
    kind = os.path.basename(f).rsplit("-", 1)[0]
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok": continue
        key = (r["input"], "cusparse" if r["system"].startswith("cusparse") else kind)
        rows.setdefault(key, []).append((float(r["time_mean_ms"]), r))
inputs = sorted({k[0] for k in rows})
print("%-26s %9s %9s %9s %9s %8s %8s %7s %7s" % ("input", "old", "new", "variant", "cusparse",
      "new/old", "x_cusp", "verif", "peakGB"))
gm = {"new": [], "variant": [], "cn": []}
for i in inputs:
    med = {}
    for k in ("old", "new", "variant", "cusparse"):
        v = sorted(t for t, _ in rows.get((i, k), []))
        med[k] = v[len(v) // 2] if v else float("nan")
    last = rows.get((i, "new"), [(0, {})])[-1][1]
    print("%-26s %9.2f %9.2f %9.2f %9.2f %8.3f %8.3f %7s %7.2f" % (i, med["old"], med["new"],
          med["variant"], med["cusparse"], med["new"] / med["old"], med["cusparse"] / med["new"],
          last.get("verified", "?"), float(last.get("peak_device_bytes") or 0) / 1e9))
    if med["old"] == med["old"] and med["new"] == med["new"]:
        gm["new"].append(med["new"] / med["old"]); gm["variant"].append(med["variant"] / med["old"])
        gm["cn"].append(med["cusparse"] / med["new"])
for k, v in gm.items():
    v = [x for x in v if x == x]
    if v: print("geomean %s: %.3f" % (k, math.exp(sum(map(math.log, v)) / len(v))))
EOF
fi

if want trace; then
  say "== trace"
  for pair in "18 4" "19 8"; do
    set -- $pair
    rm -f "$work/trace-s$1.txt"
    bounded 90 "$work/trace-s$1.log" env MAGNUS_TRACE="$work/trace-s$1.txt" "$new/tools/magnus" \
      bench --rmat-sweep --scales "$1" --a-per-row "$2" --b-per-row 8 --runs 3 --runs-large 3 \
      --systems "$dev" --no-bandwidth --verify-limit 0
    python3 "$root/scripts/trace_summary.py" "$work/trace-s$1.txt" --top 14 >>"$summary" 2>&1
  done
fi

if want sanitize; then
  say "== sanitize"
  OUT=$work bounded "${HEAVY_SANITIZE_S:-200}" "$work/sanitize-run.log" bash "$root/scripts/sanitize_h200.sh"
  say "  sanitize: exit $? ($(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$work/sanitize.log" 2>/dev/null) clean summaries)"
  grep -E "^== |SUMMARY" "$work/sanitize.log" >>"$summary" 2>/dev/null
fi

say "heavy_h200: done in $((SECONDS - start))s"
tar -czf "$out/heavy.tgz" -C "$out" heavy

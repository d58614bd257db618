#!/usr/bin/env bash
# Two builds of magnus side by side on the H200, in ONE device call: the same `magnus bench`
# (scripts/perf_h200.sh's inputs) alternately with the old and the new build, ROUNDS times
# each (old, new, old, new, ...), so that run-to-run noise (old against old) and the change
# (old against new) are measured in the same minutes. A refactor must show times equal within
# that noise; every C is verified by each bench run.
#
# Here, first:   scripts/gpu_bundle.sh (the new build, build-gpu/, and .carry/), and the old
#                build's tools/magnus and libmagnus.so.0.1 copied into .carry/old/ (any Release
#                build with -DMAGNUS_CUDA_KERNELS=ON of the old commit).
# Device tool:   run(command="bash scripts/compare_builds_h200.sh", carry=["build-gpu", ".carry"])
#
# Files in $OUT (default ./compare-out): old-R.csv and new-R.csv per round R, compare.log, and
# summary.txt: per input, the median time of each run of each build, the spread of the old
# build's runs (noise) and new/old.
# Overrides: CMP_OLD (.carry/old), CMP_NEW (build-gpu), CMP_ROUNDS (2), CMP_RUNS (5),
# CMP_DEVICE (the bench's --systems: cuda:0; "cuda:0,opencl:0" adds NVIDIA's OpenCL, which
# gpu_libs.sh makes the only OpenCL device), CMP_FILES (names, blank- or comma-separated),
# CMP_SCALES (16-18), CMP_BUDGET_S (300),
# CMP_MATRICES, CMP_FIRST (old: each round runs the old build first; new: the new one first, to
# tell a difference of the builds from one of the order).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
old=$root/${CMP_OLD:-.carry/old}
new=$root/${CMP_NEW:-build-gpu}
rounds=${CMP_ROUNDS:-2}
runs=${CMP_RUNS:-5}
device=${CMP_DEVICE:-cuda:0}
files=${CMP_FILES:-soc-Slashdot0902 email-Enron vsp_befref_fxm_2_4_air02}
files=${files//,/ } # blanks or commas between the names
scales=${CMP_SCALES:-16-18}
budget=${CMP_BUDGET_S:-300}
matrices=${CMP_MATRICES:-$root/.carry/matrices}
out=${OUT:-$root/compare-out}
mkdir -p "$out"
log=$out/compare.log
: >"$log"
rm -f "$out"/old-*.csv "$out"/new-*.csv
say() { echo "$*" | tee -a "$log"; }
start=$SECONDS

[ -x "$old/magnus" ] || { say "compare: $old/magnus missing"; exit 2; }
[ -x "$new/tools/magnus" ] || { say "compare: $new/tools/magnus missing (scripts/gpu_bundle.sh)"; exit 2; }
# shellcheck source=scripts/gpu_libs.sh
. "$root/scripts/gpu_libs.sh"
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
base_ld=$LD_LIBRARY_PATH
say "compare: $(date -u +%FT%TZ) on $(hostname); old $old, new $new; $rounds rounds of $runs runs on $device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >>"$log" 2>&1

# shellcheck disable=SC2086 # $files is a list of names
gpu_find_matrices "$matrices" $files
args=("${inputs[@]}" --rmat-sweep --scales "$scales" --a-per-row 4 --b-per-row 8 --runs "$runs"
      --runs-large "$runs" --verify-limit 2e7 --no-bandwidth --systems "$device")
failed=0
for r in $(seq 1 "$rounds"); do
  order="old new"; [ "${CMP_FIRST:-old}" = new ] && order="new old"
  for which in $order; do
    left=$((budget - (SECONDS - start)))
    if [ "$left" -lt 30 ]; then say "compare: $which round $r skipped (${left}s left)"; continue; fi
    if [ "$which" = old ]; then
      bin=$old/magnus; ld="$old:${base_ld#*:}"  # the old library before the new one's directory
    else
      bin=$new/tools/magnus; ld=$base_ld
    fi
    say "compare: $which round $r"
    LD_LIBRARY_PATH=$ld timeout "$left" "$bin" bench "${args[@]}" --csv "$out/$which-$r.csv" \
      >>"$log" 2>&1 || { say "compare: $which round $r: exit $?"; failed=1; }
  done
done

python3 - "$out" "$rounds" >"$out/summary.txt" <<'PY'
import csv, glob, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for path in sorted(glob.glob(os.path.join(out, "*-*.csv"))):
    which, r = os.path.basename(path)[:-4].split("-")
    for row in csv.DictReader(open(path)):
        if row.get("status") != "ok":
            continue
        # gMAGNUS's system was "magnus@DEV" before issue 35 gave it one name ("gmagnus@DEV"):
        # rows are matched by input, algorithm and device, not by the system's spelling.
        system = row["system"]
        algo, _, dev = system.rpartition("@")
        if algo in ("magnus", "gmagnus"):
            system = "gmagnus@" + dev
        key = row["input"] + " " + system
        rows.setdefault(key, {"old": [], "new": [], "verified": set()})
        rows[key][which].append(float(row["time_median_ms"]))
        rows[key]["verified"].add(row.get("verified", ""))
print(f"{'input system':44} {'old medians (ms)':>24} {'new medians (ms)':>24} {'old spread':>10} {'new/old':>8} verified")
ratios = []
for key, d in rows.items():
    o, n = d["old"], d["new"]
    if not o or not n:
        print(f"{key:44} incomplete"); continue
    spread = (max(o) - min(o)) / statistics.median(o) if len(o) > 1 else float("nan")
    ratio = statistics.median(n) / statistics.median(o)
    ratios.append(ratio)
    print(f"{key:44} {' '.join(f'{x:.3f}' for x in o):>24} {' '.join(f'{x:.3f}' for x in n):>24} "
          f"{spread * 100:9.1f}% {ratio:8.3f} {','.join(sorted(d['verified']))}")
if ratios:
    g = 1.0
    for x in ratios: g *= x
    print(f"geometric mean new/old over {len(ratios)} input-system pairs: {g ** (1 / len(ratios)):.3f}")
PY
cat "$out/summary.txt" | tee -a "$log"
exit $failed

#!/usr/bin/env bash
# gMAGNUS tuning knobs measured on the H200 against cuSPARSE, in ONE device call of about
# 3-4 minutes (docs/performance.md). Each step is one `magnus bench` under one setting.
#
# Here, first:   scripts/gpu_bundle.sh        build-gpu/ (CUDA kernels) and .carry/ (matrices)
# Device tool:   run(command="bash scripts/perf_h200.sh", carry=["build-gpu", ".carry"],
#                    timeout_s=300)
#
# Steps (each under `timeout`, none stops the next; PERF_BUDGET_S, default 240 s, bounds them
# all: a step that would start with less than 20 s left is skipped):
#   check     the CUDA tests of the paths the knobs reach, against the CPU reference:
#             hash_work_cuda, gmagnus_dense_chunks_cuda, spgemm_gmagnus_all_dense_cuda
#   default   gMAGNUS and hash through cuda:0 with the library's defaults, and cuSPARSE
#   dense1024, dense512, dense256
#             gMAGNUS with MAGNUS_DENSE_MIN_ELEMENTS=N: the last level's chunks with more than
#             N elements go to the dense accumulator (default: tau = 3072 at 48 KiB)
#   group256  gMAGNUS with MAGNUS_HASH_GROUP_MAX=256 (hash tables of at most 256 work items)
#   local227k gMAGNUS with MAGNUS_LOCAL_MEM_BYTES=227K (the H200's whole local memory per
#             work group through CUDA; the library's default is min(device, 48 KiB))
#   opencl    gMAGNUS through NVIDIA's OpenCL (48 KiB) on the first matrix
# PERF_STEPS picks them (default: check,default,dense1024,dense512,dense256,opencl; the
# accumulator change of 2026-11-30 ran check,default,group256,local48k,opencl with
# PERF_LOCAL_MEM=227K, when 227 KiB was the default: bench/results/2026-11-30-h200-accumulator).
# Inputs: soc-Slashdot0902, email-Enron, vsp_befref_fxm_2_4_air02 (A*A) and R-MAT pairs of
# scales 16-18 with A 4 and B 8 per row; 5 timed runs after a warm-up; every C verified
# (reference up to 2e7 products, else cuSPARSE's C and C*x).
#
# Files in $OUT (default ./perf-out), at most 8: default.csv default.json, one STEP.csv per
# other bench step, perf.log (every step's output), summary.txt (the table printed last:
# every step's CSV, then the times of PERF_BEFORE for comparison).
# Columns: bench/README.md.
#
# Overrides, to try the script elsewhere (e.g. on PoCL with tiny inputs): PERF_BUILD
# (build-gpu), PERF_MATRICES (.carry/matrices), PERF_FILES (the three names, space-separated),
# PERF_SCALES (16-18), PERF_A (4), PERF_B (8), PERF_DEVICE (cuda:0), PERF_BASELINE
# (cusparse@cuda:0, or none), PERF_RUNS (5), PERF_STEPS, PERF_BUDGET_S (240), PERF_BEFORE
# (bench/results/2026-11-30-h200-accumulator/local48k.csv: the 48 KiB times of that run),
# PERF_LOCAL_MEM (the budget of the default and dense steps; empty: the library's).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

build=$root/${PERF_BUILD:-build-gpu}
magnus=$build/tools/magnus
matrices=${PERF_MATRICES:-$root/.carry/matrices}
files=${PERF_FILES:-soc-Slashdot0902 email-Enron vsp_befref_fxm_2_4_air02}
scales=${PERF_SCALES:-16-18}
device=${PERF_DEVICE:-cuda:0}
baseline=${PERF_BASELINE:-cusparse@cuda:0}
runs=${PERF_RUNS:-5}
local_mem=${PERF_LOCAL_MEM:-}
steps=${PERF_STEPS:-check,default,dense1024,dense512,dense256,opencl}
budget=${PERF_BUDGET_S:-240}
before=${PERF_BEFORE:-$root/bench/results/2026-11-30-h200-accumulator/local48k.csv}
out=${OUT:-$root/perf-out}
mkdir -p "$out"
log=$out/perf.log
summary=$out/summary.txt
: >"$log"
: >"$summary"
rm -f "$out"/*.csv "$out"/default.json
start=$SECONDS
say() { echo "$*" | tee -a "$log"; }
left() { echo $((budget - (SECONDS - start))); }

[ -x "$magnus" ] || { say "perf_h200: $magnus missing: run scripts/gpu_bundle.sh and carry it"; exit 2; }

# ---- environment: the carried libraries, NVIDIA's OpenCL alone, cuSPARSE (scripts/gpu_libs.sh) --
# shellcheck source=scripts/gpu_libs.sh
. "$root/scripts/gpu_libs.sh"
GPU_LIBS_SAY=say gpu_libs_setup "$build" "$root/.carry"
[ "$baseline" != none ] && GPU_LIBS_SAY=say gpu_find_cusparse
say "perf_h200: $(date -u +%FT%TZ) on $(hostname), budget ${budget}s, build $build, output $out"
say "perf_h200: OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-} MAGNUS_CUSPARSE_LIBRARY=${MAGNUS_CUSPARSE_LIBRARY:-}"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1; "$magnus" probe 2>&1; } >>"$log"

# shellcheck disable=SC2086 # $files is a list of names
gpu_find_matrices "$matrices" $files
say "perf_h200: ${#inputs[@]} matrices, R-MAT scales $scales (A ${PERF_A:-4}, B ${PERF_B:-8} per row)"
common=(--rmat-sweep --scales "$scales" --a-per-row "${PERF_A:-4}" --b-per-row "${PERF_B:-8}"
        --runs "$runs" --runs-large "$runs" --verify-limit 2e7 --max-timed-seconds 4)

# step NAME LIMIT_S [VAR=value...] -- magnus bench arguments: one bounded step, output in perf.log
step() {
  local name=$1 limit=$2 envs=() rest
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  rest=$(left)
  [ "$limit" -gt $((rest - 5)) ] && limit=$((rest - 5))
  if [[ ",$steps," != *",$name,"* ]]; then return; fi
  if [ "$limit" -lt 20 ]; then say "perf_h200: $name: skipped (${rest}s of the budget left)"; return; fi
  say "perf_h200: $name (at most ${limit}s): ${envs[*]} $*"
  local t0=$SECONDS rc
  { echo "==== $name"; env "${envs[@]}" timeout --signal=TERM --kill-after=10 "$limit" "$@"; } >>"$log" 2>&1
  rc=$?
  say "perf_h200: $name: exit $rc after $((SECONDS - t0))s$([ $rc -eq 124 ] && echo ' (stopped at its limit)')"
}

bench=("$magnus" bench "${inputs[@]}" "${common[@]}")
base=()
[ "$baseline" != none ] && base=(",$baseline")
backend=${device%%:*}
step check 60 MAGNUS_BACKENDS="$backend" -- bash -c \
  'for t in "$@"; do echo "== $t"; "$t" --jobs 1 || exit 1; done' check \
  "$build/tests/hash_work" "$build/tests/gmagnus_dense_chunks" "$build/tests/spgemm_gmagnus"
step check_all_dense 40 MAGNUS_BACKENDS="$backend" MAGNUS_DENSE_MIN_ELEMENTS=1 -- \
  "$build/tests/spgemm_gmagnus" --jobs 1 --filter 'gmagnus*/*'
step default 70 MAGNUS_LOCAL_MEM_BYTES="$local_mem" -- "${bench[@]}" \
  --systems "$device${base[*]}" --algorithms gmagnus,hash \
  --csv "$out/default.csv" --json "$out/default.json"
for n in 1024 512 256; do
  step "dense$n" 30 MAGNUS_DENSE_MIN_ELEMENTS=$n MAGNUS_LOCAL_MEM_BYTES="$local_mem" -- \
    "${bench[@]}" --systems "$device" --no-bandwidth --csv "$out/dense$n.csv"
done
step group256 30 MAGNUS_HASH_GROUP_MAX=256 MAGNUS_LOCAL_MEM_BYTES="$local_mem" -- \
  "${bench[@]}" --systems "$device" --no-bandwidth --csv "$out/group256.csv"
step local227k 30 MAGNUS_LOCAL_MEM_BYTES=227K -- "${bench[@]}" --systems "$device" --no-bandwidth \
  --csv "$out/local227k.csv"
step opencl 45 MAGNUS_BACKENDS=opencl -- "$magnus" bench "${inputs[0]:-rmat:12:4:1}" \
  --runs "$runs" --verify-limit 2e7 --no-baseline --no-bandwidth --csv "$out/opencl.csv"

# ---- the table: per input and system, mean ms (numeric, symbolic) and speedup over cuSPARSE ----
awk -v before="$before" '
function split_csv(line, f,   n, i, c, q, cur) {
  n = 0; cur = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (q) {
      if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 }
      else cur = cur c
    } else if (c == "\"") q = 1
    else if (c == ",") { f[++n] = cur; cur = "" }
    else cur = cur c
  }
  f[++n] = cur
  return n
}
function ms3(v) { return v == "" ? "-" : sprintf("%.3f", v) }
# read(file, tag): rows by input and system; tag names the step
function read(file, tag,   line, f, h, n, i, key) {
  if ((getline line < file) <= 0) return
  n = split_csv(line, h)
  for (i = 1; i <= n; i++) col[h[i]] = i
  while ((getline line < file) > 0) {
    split_csv(line, f)
    key = f[col["input"]]
    if (!(key in seen)) { seen[key] = 1; order[++ninputs] = key }
    sys = tag ":" f[col["system"]]
    if (!(sys in sysseen)) { sysseen[sys] = 1; systems[++nsystems] = sys }
    st[key, sys] = f[col["status"]] == "ok" ? (f[col["verified"]] == "yes" ? "" : "!") : "F"
    ms[key, sys] = f[col["time_mean_ms"]]
    num[key, sys] = f[col["numeric_ms"]]
    sym[key, sys] = f[col["symbolic_ms"]]
    if (tag == "new" && f[col["system"]] ~ /^cusparse/ && f[col["status"]] == "ok")
      cus[key] = f[col["time_mean_ms"]]
  }
  close(file)
}
BEGIN {
  out = ARGV[1]; ARGV[1] = ""; before = ARGV[2]; ARGV[2] = ""
  read(out "/default.csv", "new")
  for (k = 3; k < ARGC; k++) { tag = ARGV[k]; ARGV[k] = ""; read(out "/" tag ".csv", tag) }
  n0 = ninputs; read(before, "old"); ninputs = n0
  printf "%-26s %-24s %9s %9s %9s %8s\n", "input", "step:system", "mean_ms", "numeric", "symbolic", "x_cusp"
  for (i = 1; i <= ninputs; i++) {
    key = order[i]
    for (j = 1; j <= nsystems; j++) {
      sys = systems[j]
      if (!((key, sys) in ms)) continue
      x = (key in cus) && ms[key, sys] > 0 ? sprintf("%.3f", cus[key] / ms[key, sys]) : "-"
      printf "%-26s %-24s %9s %9s %9s %8s%s\n", key, sys, ms3(ms[key, sys]), ms3(num[key, sys]),
             ms3(sym[key, sys]), x, st[key, sys] == "" ? "" : " " st[key, sys]
    }
  }
  print "(x_cusp: cuSPARSE mean / this mean, cuSPARSE of this run; old: " before "; ! not verified, F failed)"
}' "$out" "$before" $(cd "$out" && ls -- *.csv 2>/dev/null | sed 's/\.csv$//' | grep -vx default) \
  >"$summary" 2>>"$log"
say "perf_h200: done in $((SECONDS - start))s"
cat "$summary"

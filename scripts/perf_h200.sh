#!/usr/bin/env bash
# The accumulator change of docs/performance.md ("Numeric phase") measured on the H200 against
# cuSPARSE and against the results of 2026-11-30, in ONE device call of about 2-3 minutes.
#
# Here, first:   scripts/gpu_bundle.sh        build-gpu/ (CUDA kernels) and .carry/ (matrices)
# Device tool:   run(command="bash scripts/perf_h200.sh", carry=["build-gpu", ".carry"],
#                    timeout_s=240)
#
# Steps (each under `timeout`, none stops the next; PERF_BUDGET_S, default 180 s, bounds them
# all: a step that would start with less than 20 s left is skipped):
#   check     tests/hash_work_cuda: the wide paths (1024 work items, compaction, row teams)
#             on CUDA against the CPU reference and host accumulations
#   default   `magnus bench`: gMAGNUS and hash through cuda:0 with the new defaults, cuSPARSE
#   group256  gMAGNUS with MAGNUS_HASH_GROUP_MAX=256 (only compaction, row teams, counting):
#             what the 1024-item groups add
#   local48k  gMAGNUS with MAGNUS_LOCAL_MEM_BYTES=48K (the budget knob: tau 3072, more
#             heavy rows; the setting NVIDIA's OpenCL had)
# default and group256 run with MAGNUS_LOCAL_MEM_BYTES=$PERF_LOCAL_MEM (default 227K: the
# H200's whole local memory through CUDA, which was the library's default budget when this
# script measured the change; since then the default is min(device, 48 KiB), what local48k
# runs; PERF_LOCAL_MEM= (empty) runs the library's default).
#   opencl    gMAGNUS through NVIDIA's OpenCL (48 KiB) on the first matrix
# Inputs: soc-Slashdot0902, email-Enron, vsp_befref_fxm_2_4_air02 (A*A) and R-MAT pairs of
# scales 16-18 with A 4 and B 8 per row; 5 timed runs after a warm-up; every C verified
# (reference up to 2e7 products, else cuSPARSE's C and C*x).
#
# Files in $OUT (default ./perf-out), at most 8: default.csv default.json group256.csv
# local48k.csv opencl.csv perf.log (every step's output) summary.txt (the table printed last).
# Columns: bench/README.md; the table adds the 2026-11-30 times (bench/results/2026-11-30-h200).
#
# Overrides, to try the script elsewhere (e.g. on PoCL with tiny inputs): PERF_BUILD
# (build-gpu), PERF_MATRICES (.carry/matrices), PERF_FILES (the three names, space-separated),
# PERF_SCALES (16-18), PERF_A (4), PERF_B (8), PERF_DEVICE (cuda:0), PERF_BASELINE
# (cusparse@cuda:0, or none), PERF_RUNS (5), PERF_STEPS (check,default,group256,local48k,opencl),
# PERF_BUDGET_S (180), PERF_BEFORE (bench/results/2026-11-30-h200), PERF_LOCAL_MEM (227K).
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
whole_local=${PERF_LOCAL_MEM-227K}
steps=${PERF_STEPS:-check,default,group256,local48k,opencl}
budget=${PERF_BUDGET_S:-180}
before=${PERF_BEFORE:-$root/bench/results/2026-11-30-h200}
out=${OUT:-$root/perf-out}
mkdir -p "$out"
log=$out/perf.log
summary=$out/summary.txt
: >"$log"
: >"$summary"
rm -f "$out"/default.csv "$out"/default.json "$out"/group256.csv "$out"/local48k.csv "$out"/opencl.csv
start=$SECONDS
say() { echo "$*" | tee -a "$log"; }
left() { echo $((budget - (SECONDS - start))); }

[ -x "$magnus" ] || { say "perf_h200: $magnus missing: run scripts/gpu_bundle.sh and carry it"; exit 2; }

# ---- environment (as scripts/bench_h200.sh): carried libraries, NVIDIA's OpenCL, cuSPARSE ----
export LD_LIBRARY_PATH="$build/runtime:$root/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1' && [ -e "$root/.carry/opencl/libOpenCL.so.1" ]; then
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$root/.carry/opencl"
fi
for cand in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
            $(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1 / {print $NF}'); do
  if [ -e "$cand" ] && [ -z "${OCL_ICD_FILENAMES:-}" ]; then export OCL_ICD_FILENAMES=$cand; fi
done
if [ "$baseline" != none ] && ! ldconfig -p 2>/dev/null | grep -q 'libcusparse\.so\.1[23] '; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda-*/lib64 /usr/local/cuda*/targets/x86_64-linux/lib \
           $(python3 -c 'import nvidia; print(list(nvidia.__path__)[0])' 2>/dev/null | sed 's|$|/cusparse/lib|'); do
    for v in 12 13; do
      if [ -z "${MAGNUS_CUSPARSE_LIBRARY:-}" ] && [ -e "$d/libcusparse.so.$v" ]; then
        export MAGNUS_CUSPARSE_LIBRARY=$d/libcusparse.so.$v
        export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"
      fi
    done
  done
fi
say "perf_h200: $(date -u +%FT%TZ) on $(hostname), budget ${budget}s, build $build, output $out"
say "perf_h200: OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-} MAGNUS_CUSPARSE_LIBRARY=${MAGNUS_CUSPARSE_LIBRARY:-}"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1; "$magnus" probe 2>&1; } >>"$log"

inputs=()
for f in $files; do
  for cand in "$matrices/$f.mtx.gz" "$matrices/$f.mtx"; do
    if [ -e "$cand" ]; then inputs+=("$cand"); break; fi
  done
done
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
step check 40 MAGNUS_BACKENDS="${device%%:*}" -- "$build/tests/hash_work_${device%%:*}" --jobs 1
step default 70 MAGNUS_LOCAL_MEM_BYTES="$whole_local" -- "${bench[@]}" \
  --systems "$device${base[*]}" --algorithms magnus,hash \
  --csv "$out/default.csv" --json "$out/default.json"
step group256 30 MAGNUS_HASH_GROUP_MAX=256 MAGNUS_LOCAL_MEM_BYTES="$whole_local" -- \
  "${bench[@]}" --systems "$device" --no-bandwidth --csv "$out/group256.csv"
step local48k 30 MAGNUS_LOCAL_MEM_BYTES=48K -- "${bench[@]}" --systems "$device" --no-bandwidth \
  --csv "$out/local48k.csv"
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
  out = ARGV[1]; ARGV[1] = ""
  read(out "/default.csv", "new"); read(out "/group256.csv", "g256"); read(out "/local48k.csv", "48k")
  read(out "/opencl.csv", "ocl")
  n0 = ninputs; read(before "/real.csv", "old"); read(before "/rmat.csv", "old"); ninputs = n0
  printf "%-26s %-24s %9s %9s %9s %8s\n", "input", "step:system", "mean_ms", "numeric", "symbolic", "x_cusp"
  for (i = 1; i <= ninputs; i++) {
    key = order[i]
    for (j = 1; j <= nsystems; j++) {
      sys = systems[j]
      if (!((key, sys) in ms) || sys ~ /^old:.*opencl/) continue
      x = (key in cus) && ms[key, sys] > 0 ? sprintf("%.3f", cus[key] / ms[key, sys]) : "-"
      printf "%-26s %-24s %9s %9s %9s %8s%s\n", key, sys, ms3(ms[key, sys]), ms3(num[key, sys]),
             ms3(sym[key, sys]), x, st[key, sys] == "" ? "" : " " st[key, sys]
    }
  }
  print "(x_cusp: cuSPARSE mean / this mean, cuSPARSE of this run; old: 2026-11-30; ! not verified, F failed)"
}' "$out" >"$summary" 2>>"$log"
say "perf_h200: done in $((SECONDS - start))s"
cat "$summary"

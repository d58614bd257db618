#!/usr/bin/env bash
# Runs ON the GPU machine, from the repository root, with build-gpu/ and .carry/ made here by
# scripts/gpu_bundle.sh: the `magnus` tool end to end through CUDA and through NVIDIA's OpenCL.
#   run(command="bash scripts/gpu_verify.sh", carry=["build-gpu", ".carry"])
# or as a step of gpu_check.sh (GPU_CHECK_STEPS=...,verify), which passes the devices it found.
#   1. magnus params for R-MAT pairs of scales 15-20 (A 4 per row seed 1, B 8 per row seed 2)
#      on each device: the text output, one block per input and device, in $OUT/params.txt;
#   2. magnus multiply --verify (gMAGNUS) on the same pairs plus scale 16 with A 16 and 32 per
#      row: the CPU reference checks products up to GPU_VERIFY_LIMIT (3e8), the randomized
#      check (random vectors, exact structure, heaviest rows entry by entry) the larger ones;
#      one row per input and device in $OUT/verify.txt, written as each run ends.
# The JSON of every run and its stderr go to the logs ($OUT/logs.tar.gz, scripts/gpu_env.sh);
# summary.txt gets the table too. Exits 1 if a run failed or did not verify.
# Time: about 2-3 minutes on the H200 (16 host cores do the verification); NVIDIA's OpenCL
# compiles the kernels at its first multiply (reported as "ready" seconds). No run starts
# after GPU_VERIFY_BUDGET_S; each is cut at GPU_VERIFY_RUN_TIMEOUT_S.
# Environment:
#   GPU_VERIFY_DEVICES        devices, space-separated, in MAGNUS_DEVICE syntax (default: the
#                             probe's CUDA device and NVIDIA's OpenCL device; GPU_VERIFY_CUDA_DEVICE
#                             and GPU_VERIFY_OPENCL_DEVICE, when set, replace the probe's choice,
#                             empty meaning none). PoCL's CPU device is never chosen by default:
#                             it would take hours on these inputs.
#   GPU_VERIFY_SCALES         scales of the A 4 / B 8 per row pairs (default "15 16 17 18 19 20")
#   GPU_VERIFY_EXTRA          more pairs as SCALE:A_PER_ROW, B 8 per row (default "16:16 16:32")
#   GPU_VERIFY_PARAMS_SCALES  scales for magnus params (default: GPU_VERIFY_SCALES)
#   GPU_VERIFY_STEPS          params,multiply (default both)
#   GPU_VERIFY_ALGORITHMS     gmagnus and/or hash (default "gmagnus")
#   GPU_VERIFY_LIMIT          --verify-limit: products checked by the CPU reference (3e8)
#   GPU_VERIFY_TYPE           f32 or f64 (default f32)
#   GPU_VERIFY_LOCAL_MEM      --local-mem BYTES for params and multiply, up to the device's
#                             (default: the library's, min(device, 48 KiB); both outputs
#                             print the budget in effect and the device's maximum)
#   GPU_VERIFY_BUDGET_S       no run starts after this many seconds (default 420)
#   GPU_VERIFY_RUN_TIMEOUT_S  seconds per command at most (default 150)
#   GPU_VERIFY_MAGNUS         the magnus binary (default build-gpu/tools/magnus)
set -u
if [ -z "${MAGNUS_GPU_ENV_DONE:-}" ]; then # standalone: a fresh summary
  mkdir -p "${OUT:-$(pwd)/gpu-out}"
  : >"${OUT:-$(pwd)/gpu-out}/summary.txt"
fi
# shellcheck source=gpu_env.sh
. "$(dirname "$0")/gpu_env.sh"

magnus=${GPU_VERIFY_MAGNUS:-$build/tools/magnus}
scales=${GPU_VERIFY_SCALES:-15 16 17 18 19 20}
extra=${GPU_VERIFY_EXTRA-16:16 16:32}
params_scales=${GPU_VERIFY_PARAMS_SCALES:-$scales}
steps=${GPU_VERIFY_STEPS:-params,multiply}
algorithms=${GPU_VERIFY_ALGORITHMS:-gmagnus}
limit=${GPU_VERIFY_LIMIT:-300000000}
type=${GPU_VERIFY_TYPE:-f32}
budget=${GPU_VERIFY_BUDGET_S:-420}
run_timeout=${GPU_VERIFY_RUN_TIMEOUT_S:-150}
local_mem=${GPU_VERIFY_LOCAL_MEM:-}
params_txt=$out/params.txt
verify_txt=$out/verify.txt
start=$SECONDS
failed=0

[ -x "$magnus" ] || { say "gpu_verify: no magnus binary at $magnus (run scripts/gpu_bundle.sh)"; exit 2; }

# ---- devices ---------------------------------------------------------------------------------
"$magnus" probe >"$logs/verify-probe.log" 2>&1
if [ -n "${GPU_VERIFY_DEVICES:-}" ]; then
  devices=$GPU_VERIFY_DEVICES
else
  list=$("$build/tools/magnus-bench-scan" --list 2>/dev/null)
  if [ -n "${GPU_VERIFY_CUDA_DEVICE+set}" ]; then cuda=$GPU_VERIFY_CUDA_DEVICE
  else cuda=$(awk -F'\t' '$1 ~ /^cuda:[0-9]+$/ {print $1; exit}' <<<"$list"); fi
  if [ -n "${GPU_VERIFY_OPENCL_DEVICE+set}" ]; then opencl=$GPU_VERIFY_OPENCL_DEVICE
  else opencl=$(awk -F'\t' '$1 ~ /^opencl:[0-9]+$/ && $5 != "cpu" && ($2 ~ /NVIDIA/ || $3 ~ /NVIDIA/) {print $1; exit}' <<<"$list"); fi
  devices="$cuda $opencl"
fi
read -ra devices <<<"$devices"
if [ ${#devices[@]} -eq 0 ]; then
  say "gpu_verify: no CUDA or NVIDIA OpenCL device found (see verify-probe.log); nothing run"
  gpu_pack_logs
  exit 1
fi
say "gpu_verify: $(date -u +%FT%TZ), devices ${devices[*]}, $type, budget ${budget}s"

# Seconds left of the budget (never below 0).
left() { local l=$((budget - (SECONDS - start))); echo $((l > 0 ? l : 0)); }
# run_limited SECONDS COMMAND...: the command, cut at min(SECONDS, what is left).
run_limited() {
  local cap=$1 l
  shift
  l=$(left)
  [ "$l" -lt "$cap" ] && cap=$l
  [ "$cap" -ge 1 ] || cap=1 # timeout 0 would mean none
  timeout "$cap" "$@"
}

# ---- JSON of `magnus multiply --json` (one member per line, as cli_json writes it) -----------
# flatten FILE: "path.to.key=value" lines (strings unquoted, arrays kept as "[1, 2]").
flatten() {
  awk '{
    line = $0
    sub(/^[ \t]+/, "", line); sub(/,$/, "", line)
    if (line ~ /^}/) { depth--; next }
    if (line == "{") next
    if (match(line, /^"[^"]*": /)) {
      key = substr(line, 2, RLENGTH - 4); val = substr(line, RLENGTH + 1)
      if (val == "{") { path[++depth] = key; next }
      prefix = ""
      for (i = 1; i <= depth; i++) prefix = prefix path[i] "."
      if (val ~ /^".*"$/) val = substr(val, 2, length(val) - 2)
      print prefix key "=" val
    }
  }' "$1"
}
# get FLAT KEY: the value of KEY in flattened text FLAT.
get() { sed -n "s/^$2=//p" <<<"$1" | head -n 1; }
# g3 NUMBER: three significant digits ("-" when empty, the text itself when not a number).
g3() { [ -n "$1" ] || { echo -; return; }; awk -v x="$1" 'BEGIN { if (x ~ /^[-+0-9.eE]+$/) printf "%.3g", x; else printf "%s", x }'; }

# ---- 1. magnus params --------------------------------------------------------------------------
if [[ ",$steps," == *",params,"* ]]; then
  : >"$params_txt"
  for s in $params_scales; do
    for d in "${devices[@]}"; do
      if [ "$(left)" -le 0 ]; then
        echo "== rmat scale $s (A 4/row, B 8/row) on $d: skipped (time budget)" >>"$params_txt"
        continue
      fi
      {
        echo "== rmat scale $s: A rmat:$s:4:1, B rmat:$s:8:2, on $d"
        run_limited "$run_timeout" "$magnus" params --device "$d" --type "$type" \
          ${local_mem:+--local-mem "$local_mem"} \
          "rmat:$s:4:1" "rmat:$s:8:2" 2>&1 || echo "(magnus params failed: rc $?)"
        echo
      } >>"$params_txt"
    done
  done
  n_failed=$(grep -c '^(magnus params failed' "$params_txt")
  [ "$n_failed" -eq 0 ] || failed=1
  say "gpu_verify: params for scales $params_scales on ${devices[*]} in $out/params.txt ($n_failed failed)"
  gpu_pack_logs
fi

# ---- 2. magnus multiply --verify ----------------------------------------------------------------
if [[ ",$steps," == *",multiply,"* ]]; then
  # Inputs as "label A-spec B-spec", smallest first so that a cut run keeps the most rows.
  inputs=()
  for s in $scales; do
    inputs+=("s$s-a4-b8 rmat:$s:4:1 rmat:$s:8:2")
    for e in $extra; do
      [ "${e%%:*}" = "$s" ] && inputs+=("s$s-a${e#*:}-b8 rmat:$s:${e#*:}:1 rmat:$s:8:2")
    done
  done
  for e in $extra; do # extras whose scale is not in the sweep
    [[ " $scales " == *" ${e%%:*} "* ]] ||
      inputs+=("s${e%%:*}-a${e#*:}-b8 rmat:${e%%:*}:${e#*:}:1 rmat:${e%%:*}:8:2")
  done
  header=$(printf '%-14s %-10s %-7s %15s %15s %8s %8s %-14s %-9s %-7s %s' input device algo \
    "products" "nnz(C)" "time(s)" "ready(s)" "levels (chunks)" verified method "rel. error")
  echo "$header" >"$verify_txt"
  say "$header"
  for entry in "${inputs[@]}"; do
    read -r label spec_a spec_b <<<"$entry"
    for d in "${devices[@]}"; do
      for alg in $algorithms; do
        name="multiply-$label-${d/:/}-$alg"
        if [ "$(left)" -le 0 ]; then
          row=$(printf '%-14s %-10s %-7s %s' "$label" "$d" "$alg" "skipped: time budget")
          echo "$row" >>"$verify_txt"; say "$row"
          continue
        fi
        t0=$SECONDS
        run_limited "$run_timeout" "$magnus" multiply "$spec_a" "$spec_b" --device "$d" \
          --algorithm "$alg" --type "$type" --verify --verify-limit "$limit" --json --progress \
          ${local_mem:+--local-mem "$local_mem"} \
          >"$logs/$name.json" 2>"$logs/$name.err"
        rc=$?
        flat=$(flatten "$logs/$name.json" 2>/dev/null)
        verified=$(get "$flat" verified)
        method=$(get "$flat" verification.method)
        if [ -z "$method" ]; then err=-
        elif [ "$method" = exact ]; then err=$(g3 "$(get "$flat" max_rel_error)")
        else err="$(g3 "$(get "$flat" verification.rel_error)") (rows $(g3 "$(get "$flat" verification.rel_error_row)"))"; fi
        # "2 (4, 2)": levels, then chunks per level, whose product is the chunks required.
        levels=$(get "$flat" report.levels)
        per_level=$(get "$flat" report.chunks_per_level)
        [ -n "$levels" ] && [ "$levels" != 0 ] && levels="$levels (${per_level#[}" && levels="${levels%]})"
        if [ $rc -ne 0 ] || [ "$verified" != true ]; then
          failed=1
          why=$([ $rc -eq 124 ] && echo "timeout" || echo "rc $rc")
          verified="NO ($why)"
        fi
        row=$(printf '%-14s %-10s %-7s %15s %15s %8s %8s %-14s %-9s %-7s %s' "$label" "$d" "$alg" \
          "$(get "$flat" products)" "$(get "$flat" C.nnz)" "$(g3 "$(get "$flat" compute_seconds)")" \
          "$(g3 "$(get "$flat" setup_seconds)")" "${levels:--}" "$verified" "${method:--}" "$err")
        echo "$row" >>"$verify_txt"
        say "$row"
        if [ $rc -ne 0 ] || [ "$(get "$flat" verified)" != true ]; then
          # The error lines (progress lines left out), else the end of stderr.
          { grep '^magnus' "$logs/$name.err" || tail -n 5 "$logs/$name.err"; } | tail -n 5 |
            cut -c1-240 | sed 's/^/    | /' | tee -a "$verify_txt" "$summary"
        fi
        echo "$label $d $alg: $((SECONDS - t0)) s" >>"$logs/verify-times.log"
        gpu_pack_logs
      done
    done
  done
fi

say "gpu_verify: $([ $failed -eq 0 ] && echo 'all runs verified' || echo 'SOME RUNS FAILED') in $((SECONDS - start)) s"
gpu_pack_logs
exit $failed

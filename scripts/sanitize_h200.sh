#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, synccheck) on multiplies that reach every gMAGNUS
# and hash kernel through CUDA, ON the H200 (device tool), after scripts/gpu_bundle.sh:
#   run(command="bash scripts/sanitize_h200.sh", carry=["build-gpu", ".carry"])
# Cases: a 4 KiB budget (heavy rows, one multisplit level through CUDA's subgroups of 32), a
# 1 KiB budget on scale 14 (three levels: the heavy-first layout between levels), the default
# 48 KiB budget (C narrow enough for one dense accumulator: no multisplit), every chunk dense
# (MAGNUS_DENSE_MIN_ELEMENTS=1), the multisplit in place in batches (MAGNUS_CHAT_GAP=4 on scale
# 14: one level), the hash algorithm with a 4 KiB budget (global tables), and light rows
# above tau (the heavy-row threshold at 12288 products) in wide local bins and in global tables,
# the hash algorithm in wide bins, the default (AUTO: the choice's statistics kernel), and
# gMAGNUS in row blocks (MAGNUS_CHAT_BATCH_BYTES=1M: the blocks' slices and the stack).
# SANITIZE_CASES (a regex of case names) runs a subset. Every product is verified. Output: $OUT/sanitize.log; exit 1 if any tool reports an error.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start sanitize sanitize.log
log=$say_file
gpu_libs_setup "$root/build-gpu" "$root/.carry" >>"$log"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
run_case() { # NAME TOOL ENV... -- ARGS...; SANITIZE_CASES (a regex) picks cases by name
  local name=$1 tool=$2 envs=()
  [[ -n ${SANITIZE_CASES:-} && ! $name =~ ${SANITIZE_CASES} ]] && return
  shift 2
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  echo "== $name ($tool)" | tee -a "$log"
  if env "${envs[@]}" timeout 120 "$cs" --tool "$tool" --error-exitcode 3 "$magnus" multiply "$@" \
       --device cuda:0 --verify >>"$log" 2>&1; then
    grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|verified' "$log" | tail -2 | sed 's/^/   /'
  else
    echo "   FAILED (exit $?)" | tee -a "$log"; failed=1
  fi
}
for tool in memcheck racecheck synccheck; do
  run_case small-budget "$tool" MAGNUS_BACKENDS=cuda -- rmat:12:4:1 rmat:12:8:2 --local-mem 4096 --algorithm gmagnus
  run_case three-levels "$tool" MAGNUS_BACKENDS=cuda -- rmat:14:4:1 rmat:14:8:2 --local-mem 1024 --algorithm gmagnus
  run_case default "$tool" MAGNUS_BACKENDS=cuda -- rmat:13:8:1 rmat:13:8:2 --algorithm gmagnus
  run_case all-dense "$tool" MAGNUS_BACKENDS=cuda MAGNUS_DENSE_MIN_ELEMENTS=1 -- rmat:13:8:1 rmat:13:8:2 --algorithm gmagnus
  run_case in-place "$tool" MAGNUS_BACKENDS=cuda MAGNUS_CHAT_GAP=4 MAGNUS_CHAT_GAP_MIN_BYTES=0 -- rmat:14:8:1 rmat:14:8:2 --algorithm gmagnus
  run_case auto "$tool" MAGNUS_BACKENDS=cuda -- rmat:14:8:1 rmat:14:8:2
  # gMAGNUS in row blocks (a 1 MiB batch budget: several blocks, then the stack)
  run_case batches "$tool" MAGNUS_BACKENDS=cuda MAGNUS_CHAT_BATCH_BYTES=1M -- rmat:12:4:1 rmat:12:8:2 --algorithm gmagnus
  # AUTO's overflow sample with tables of a few hundred entries: many drawn rows counted
  run_case auto-overflow "$tool" MAGNUS_BACKENDS=cuda -- rmat:12:8:1 rmat:12:8:2 --local-mem 8192
  run_case hash-global "$tool" MAGNUS_BACKENDS=cuda -- rmat:12:8:1 rmat:12:8:2 --algorithm hash --local-mem 4096
  run_case long-light-rows "$tool" MAGNUS_BACKENDS=cuda MAGNUS_HEAVY_ROW_PRODUCTS=12288 MAGNUS_HASH_WIDE_BINS=1 -- rmat:14:8:1 rmat:14:8:2 --algorithm gmagnus
  run_case hash-wide "$tool" MAGNUS_BACKENDS=cuda MAGNUS_HASH_WIDE_BINS=1 -- rmat:14:8:1 rmat:14:8:2 --algorithm hash
  # every local bin merged into the largest launch: items in larger tables than their own
  run_case hash-merged "$tool" MAGNUS_BACKENDS=cuda MAGNUS_HASH_MERGE_GROUPS=2147483647 -- rmat:12:8:1 rmat:12:8:2 --algorithm hash
  run_case gmagnus-merged "$tool" MAGNUS_BACKENDS=cuda MAGNUS_HASH_MERGE_GROUPS=2147483647 -- rmat:14:8:1 rmat:14:8:2 --algorithm gmagnus
  # every scan in one work group walking its tiles (prim_scan_tiles' carried total)
  run_case scan-one-group "$tool" MAGNUS_BACKENDS=cuda MAGNUS_SCAN_ONE_GROUP_TILES=65536 -- rmat:14:8:1 rmat:14:8:2 --algorithm hash
  run_case light-rows-global "$tool" MAGNUS_BACKENDS=cuda MAGNUS_HEAVY_ROW_PRODUCTS=12288 MAGNUS_HASH_WIDE_BINS=0 -- rmat:14:8:1 rmat:14:8:2 --algorithm gmagnus
  # dense rows (rows past the hash tables over C's whole width in local memory): rows of
  # several tiles of 1024 A entries, f32 and f64, and the same through AUTO
  run_case dense-rows "$tool" MAGNUS_BACKENDS=cuda -- rmat:14:16:1 rmat:14:8:2 --algorithm hash
  run_case dense-rows-f64 "$tool" MAGNUS_BACKENDS=cuda -- rmat:14:16:1 rmat:14:8:2 --algorithm hash --type f64
done
echo "sanitize: $([ $failed -eq 0 ] && echo 'no errors reported' || echo 'ERRORS (see sanitize.log)')" | tee -a "$log"
exit $failed

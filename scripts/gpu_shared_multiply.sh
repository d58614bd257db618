#!/usr/bin/env bash
# Runs ON the GPU machine (build-gpu/ and .carry/ from scripts/gpu_bundle.sh): every shared
# matrix squared by `magnus multiply --verify` on one device (default: NVIDIA's OpenCL device,
# found by name in the probe), one line per matrix in $OUT/shared-<device>.txt. The test
# executables cover the same matrices through CUDA (spgemm_gmagnus_shared_cuda); this covers
# NVIDIA's OpenCL through the CLI, which sees that device where the Criterion executables did
# not on the H200 machine (2026-11-30).
# Environment: SHARED_DEVICE (MAGNUS_DEVICE syntax), SHARED_BUDGET_S (no matrix starts after
# it, default 90), SHARED_ALGORITHM (magnus).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/build-gpu/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
magnus=$root/build-gpu/tools/magnus
dev=${SHARED_DEVICE:-$("$magnus" probe 2>/dev/null | awk '/^opencl:[0-9]+ +NVIDIA/ {print $1; exit}')}
[ -n "$dev" ] || { echo "gpu_shared_multiply: no device" >&2; exit 2; }
budget=${SHARED_BUDGET_S:-90}
table=$out/shared-${dev/:/}.txt
printf '%-28s %-9s %s\n' matrix device "products nnz(C) time(s) verified max_rel_error" >"$table"
failed=0
for f in "$root"/.carry/matrices/*.mtx.gz; do
  [ $SECONDS -lt "$budget" ] || { echo "$(basename "$f" .mtx.gz) skipped: time budget" >>"$table"; continue; }
  name=$(basename "$f" .mtx.gz)
  json=$(timeout 60 "$magnus" multiply "$f" --device "$dev" --algorithm "${SHARED_ALGORITHM:-magnus}" \
         --verify --json 2>"$out/.err")
  rc=$?
  line=$(python3 -c 'import json, sys
j = json.loads(sys.argv[1])
print(j["products"], j["C"]["nnz"], round(j["compute_seconds"], 4), j["verified"], j.get("max_rel_error"))' "$json" 2>/dev/null)
  [ $rc -eq 0 ] || { failed=1; line="FAILED rc=$rc $(tail -c 300 "$out/.err" | tr '\n' ' ')"; }
  printf '%-28s %-9s %s\n' "$name" "$dev" "$line" >>"$table"
done
cat "$table"
exit $failed

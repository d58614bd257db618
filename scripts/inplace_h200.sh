#!/usr/bin/env bash
# The in-place multisplit against two C-hat buffers on the H200 (issue 12's peak memory), ON
# the GPU machine through the device tool, after scripts/gpu_bundle.sh:
#   run(command="bash scripts/inplace_h200.sh", carry=["build-gpu", ".carry"])
# The same build twice in one call, each pair in its own process: the default (in place,
# MAGNUS_CHAT_GAP=8) and MAGNUS_CHAT_GAP=0 (two buffers, as before). Pairs: the ones whose peak
# exceeded cuSPARSE's in the 2026-12-01 sweep (rmat-s18-a32-b8, rmat-s19-a8-b8-seed2) and
# rmat-s18-a4-b8 for the time. Every C verified. Output in $OUT: inplace-*.csv, inplace.log.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start inplace
gpu_libs_setup "$root/build-gpu" "$root/.carry" >"$out/inplace.log"
runs=${INPLACE_RUNS:-5}
pair() { # NAME GAP SCALE A_PER_ROW SEEDS
  local name=$1 gap=$2
  if ! MAGNUS_CHAT_GAP=$gap timeout "${INPLACE_TIMEOUT_S:-120}" "$magnus" bench --rmat-sweep \
       --scales "$3" --a-per-row "$4" --b-per-row 8 --seeds "$5" --systems cuda:0 \
       --runs "$runs" --runs-large "$runs" --csv "$out/inplace-$name-gap$gap.csv" \
       >>"$out/inplace.log" 2>&1; then
    echo "$name gap $gap: FAILED"; failed=1
  fi
}
for gap in 8 0; do
  pair s18-a4 "$gap" 18 4 1
  pair s18-a32 "$gap" 18 32 1
  pair s19-a8-seed2 "$gap" 19 8 2
done
python3 - "$out" <<'EOF'
import csv, glob, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "inplace-*.csv"))):
    for r in csv.DictReader(open(f)):
        print(f"{os.path.basename(f):34s} {r['input']:24s} {r['status']:6s} "
              f"median {r['time_median_ms']:>9s} ms  peak {int(r['peak_device_bytes'] or 0)/1e9:7.2f} GB"
              f"  verified {r['verified']}")
EOF
exit $failed

#!/usr/bin/env bash
# Device call 1 (2026-12-03, eleventh session): gMAGNUS in row blocks.
# Must answer: (1) do the CUDA suites pass with batches (spgemm_batches_cuda among them)?
# (2) are memcheck/racecheck/synccheck clean on a batched multiply? (3) on rmat-s18-a32-b8
# (both seeds), what are the peak and the time by default (2 blocks) against one batch
# (MAGNUS_CHAT_BATCH_BYTES=1T), and against cuSPARSE in the same run? (4) the same for the
# pairs beyond 2^31 nnz(C) (s19-a16, s19-a32); (5) does scale 20 (A 4, 8, 16) complete?
set -u
root=$(pwd); new=$root/build-gpu
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
t0=$SECONDS
say "== suites"
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='spgemm_(batches|gmagnus|gmagnus_in_place|auto|plan)_cuda$' OUT=$tmp/check timeout 120 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E "ok|FAIL|fail" "$tmp/check/summary.txt" | grep -v "^gpu_libs" | tail -12 >>"$S" 2>/dev/null
say "== sanitizers on the batched case"
SANITIZE_CASES='^batches$' OUT=$w timeout 100 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
R=(bench --rmat-sweep --b-per-row 8 --runs 5 --runs-large 3 --no-bandwidth --no-fit-check)
say "== s18-a32 default (batches) with cuSPARSE"
timeout 130 "$new/tools/magnus" "${R[@]}" --scales 18-18 --a-per-row 32 --seeds 1,2 --systems cuda:0,cusparse@cuda:0 --csv "$w/s18a32-default.csv" >"$w/s18a32-default.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
say "== s18-a32 one batch (MAGNUS_CHAT_BATCH_BYTES=1T)"
MAGNUS_CHAT_BATCH_BYTES=1T timeout 50 "$new/tools/magnus" "${R[@]}" --scales 18-18 --a-per-row 32 --seeds 1,2 --systems cuda:0 --csv "$w/s18a32-whole.csv" >"$w/s18a32-whole.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
say "== s19 a16,a32 default, then one batch"
timeout 80 "$new/tools/magnus" "${R[@]}" --scales 19-19 --a-per-row 16,32 --runs-large 2 --systems cuda:0 --csv "$w/s19-default.csv" >"$w/s19-default.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
MAGNUS_CHAT_BATCH_BYTES=1T timeout 60 "$new/tools/magnus" "${R[@]}" --scales 19-19 --a-per-row 16,32 --runs-large 2 --systems cuda:0 --csv "$w/s19-whole.csv" >"$w/s19-whole.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
left=$((575 - SECONDS + t0)); say "== s20 a4,a16 default, cuSPARSE beside (${left} s left)"
[ $left -gt 30 ] && timeout $left "$new/tools/magnus" "${R[@]}" --scales 20-20 --a-per-row 4,16 --runs-large 2 --systems cuda:0,cusparse@cuda:0 --csv "$w/s20.csv" >"$w/s20.log" 2>&1; say "rc $? ($((SECONDS-t0)) s)"
python3 - "$w" >>"$S" <<'PY'
import csv, glob, os, sys
w = sys.argv[1]
print("%-26s %-8s %-16s %6s %10s %10s %8s %7s %s" % ("input", "run", "system", "status", "ms", "peak GB", "batches", "ver", "batch_ms"))
for f in sorted(glob.glob(os.path.join(w, "*.csv"))):
    run = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        print("%-26s %-8s %-16s %6s %10s %10.2f %8s %7s %s" % (r["input"], run.split("-")[-1], r["system"], r["status"], r["time_mean_ms"], float(r["peak_device_bytes"] or 0) / 1e9, r.get("batches", ""), r["verified"], r.get("batch_ms", "")))
PY
tar czf "$out/all.tgz" -C "$tmp" w check 2>/dev/null
cp "$w"/*.csv "$out"/ 2>/dev/null
say "done $((SECONDS-t0)) s"

#!/usr/bin/env bash
# Device call 2 (2026-12-03, twelfth session), the call-1 build.
# Must answer: (1) issue 12: where the outer product's issue slots go, instruction by
# instruction (ncu's source page in SASS with its executed-instruction and stall-sample
# counts: call 1 found it issue-bound, 80 instructions per element at 0.67 issued per cycle
# and scheduler, the L2 at 67 %); (2) issue 12: what NVIDIA's OpenCL still spends beyond
# CUDA on vsp_befref_fxm_2_4_air02 once the large blocks are kept (host and device traces of
# the last of 3 multiplies on each backend).
set -u
root=$(pwd); new=$root/build-gpu
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
M=$root/.carry/matrices; t0=$SECONDS
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 150 "$ncu" --clock-control none --set full --import-source no -k regex:gmagnus_outer_product --launch-skip 1 --launch-count 1 -f -o "$w/outer" "$new/tools/magnus" multiply rmat:18:4:1 rmat:18:8:2 --device cuda:0 >"$w/ncu.log" 2>&1; say "ncu: $? ($((SECONDS-t0)) s)"
timeout 60 "$ncu" -i "$w/outer.ncu-rep" --page source --print-source sass --csv >"$out/outer-sass.csv" 2>"$w/sass.err"; say "sass page: $? $(wc -l <"$out/outer-sass.csv") lines"
timeout 30 "$ncu" -i "$w/outer.ncu-rep" --page details >"$w/outer-details.txt" 2>&1
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\)|Issued Warp|Executed Instructions  |Registers Per" "$w/outer-details.txt" | sed 's/^/  /' >>"$S"
for d in cuda opencl; do
  MAGNUS_TRACE=$w/trace-$d.txt MAGNUS_TRACE_DEVICE=1 timeout 60 "$new/tools/magnus" bench "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --runs 3 --verify-limit 0 --no-bandwidth --systems $d:0 >"$w/bench-$d.log" 2>&1; say "trace $d: $?"
  python3 scripts/trace_summary.py "$w/trace-$d.txt" --last 1 --top 10 >"$out/sum-$d.txt" 2>&1
done
tar czf "$out/all.tgz" -C "$tmp" w --exclude='*.ncu-rep' 2>/dev/null
say "done $((SECONDS-t0)) s"

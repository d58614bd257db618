#!/usr/bin/env bash
# Device call 5 (2026-12-03, fourteenth session): whole rows without per-slot tests.
# Call 4: the H200 writes 4586 GB/s with cuMemsetD32 and copies 4268 GB/s, so the outer
# product's 2.5 TB/s is not the DRAM's write limit; rows of 256 (v8) 59.3-59.5 % on s18 and
# 60.9 % on s19 over three rounds, rows of 128 58.9 % / 58.7 % (spread within a call 0.1 %,
# across calls ~1 %). The PTX shows every slot's load and store behind its own branch
# (e < seg), while in a whole row only the first and the last slot can be cut.
# Builds (libraries with build-gpu's tools and tests, same host code): v8 (.carry/v8, call
# 3/4's rows of 256), vA (.carry/vA: rows of 256, whole rows without tests, 64 registers,
# a 24-byte spill in f32), vB (.carry/vB: rows of 128, whole rows without tests, 60
# registers, no spill), old (.carry/old, the landed kernels).
# Predicted: vA/vB 10-20 % fewer instructions than v8/new and 2-5 % faster: s18 >= 60 %.
# Must answer: (1) ncu outer product s18/s19, two rounds, v8 vA vB; (2) memcheck and
# racecheck on vA and vB (f32 default budget, f64 4 KiB budget), every C verified; (3) the
# gMAGNUS and batches suites on vA and vB; (4) perf inputs and R-MAT 15-18: old, vA, vB.
set -u
root=$(pwd); new=$root/build-gpu
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
base=$root/.carry/lib
lib() { echo "$root/.carry/$1/runtime"; }
tool() { case $1 in old) echo "$root/.carry/old/tools/magnus";; *) echo "$new/tools/magnus";; esac; }
on() { local b=$1; shift; LD_LIBRARY_PATH="$(lib "$b"):$base" "$@"; }
for b in old v8 vA vB; do say "ldd $b: $(on $b ldd "$(tool $b)" | grep libmagnus)"; done
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
export MAGNUS_BACKENDS=cuda
M=$root/.carry/matrices; t0=$SECONDS
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for round in 1 2; do
  for p in "18 4" "19 8"; do
    set -- $p
    for b in v8 vA vB; do
      on $b timeout 60 "$ncu" --clock-control none --csv -k regex:gmagnus_outer_product --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum "$(tool $b)" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-s$1-$b-$round.csv" 2>&1
      python3 - "$w/ncu-s$1-$b-$round.csv" "$b" "s$1" "$round" >>"$S" <<'PY'
import csv, io, sys
txt = open(sys.argv[1]).read(); i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
by = {}
for r in rows: by.setdefault(r["ID"], {})[r["Metric Name"]] = (float(r["Metric Value"].replace(",", "")), r["Metric Unit"])
last = by[sorted(by, key=int)[-1]] if by else None
if last:
    t = last["gpu__time_duration.sum"]; ms = t[0] * {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0}.get(t[1], 1e-6)
    def gb(x): v, u = last[x]; return v * {"byte": 1e-9, "Kbyte": 1e-6, "Mbyte": 1e-3, "Gbyte": 1.0}.get(u, 1e-9)
    g = gb("dram__bytes_read.sum") + gb("dram__bytes_write.sum")
    print("  round %s %s %-3s: %.3f ms, DRAM %.3f GB, %.1f %% of 4265 GB/s, %.3e warp instructions" % (sys.argv[4], sys.argv[3], sys.argv[2], ms, g, 100 * g / ms / 4265 * 1e3, last["smsp__inst_executed.sum"][0]))
else:
    print("  round %s %s %s: no data" % (sys.argv[4], sys.argv[3], sys.argv[2]))
PY
    done
  done
done
say "== sanitize ($((SECONDS-t0)) s)"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in vA vB; do
  for tool in memcheck racecheck; do
    on $b timeout 40 "$cs" --tool $tool "$new/tools/magnus" multiply rmat:13:8:1 rmat:13:8:2 --algorithm magnus --verify >"$w/$b-f32-$tool.log" 2>&1; say "$b f32 $tool: rc $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$w/$b-f32-$tool.log") $(grep -h 'verified' "$w/$b-f32-$tool.log" | head -1)"
    on $b timeout 40 "$cs" --tool $tool "$new/tools/magnus" multiply rmat:12:8:1 rmat:12:8:2 --type f64 --local-mem 4096 --algorithm magnus --verify >"$w/$b-f64-$tool.log" 2>&1; say "$b f64 $tool: rc $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$w/$b-f64-$tool.log") $(grep -h 'verified' "$w/$b-f64-$tool.log" | head -1)"
  done
done
pkill -f compute-sanitizer; sleep 1
say "== suites ($((SECONDS-t0)) s)"
for b in vA vB; do
  for t in spgemm_gmagnus spgemm_batches gmagnus_dense_chunks; do
    (cd "$new/tests" && on $b timeout 60 "./$t" --jobs 2 >"$w/$b-$t.log" 2>&1); say "$b $t: rc $? $(grep -h 'Synthesis' "$w/$b-$t.log")"
  done
done
say "== perf inputs and R-MAT 15-18 ($((SECONDS-t0)) s)"
gpu_find_matrices "$M" soc-Slashdot0902 email-Enron vsp_befref_fxm_2_4_air02
for b in old vA vB; do
  on $b timeout 50 "$(tool $b)" bench "${inputs[@]}" --rmat-sweep --scales 15-18 --a-per-row 4,8 --b-per-row 8 --runs 5 --runs-large 5 --verify-limit 2e7 --max-timed-seconds 3 --no-bandwidth --systems magnus@cuda:0 --csv "$w/perf-$b.csv" >"$w/perf-$b.log" 2>&1; say "perf $b: rc $? ($((SECONDS-t0)) s)"
done
python3 - "$w" >>"$S" <<'PY'
import csv, sys, os, math
w = sys.argv[1]; d = {}
for b in ("old", "vA", "vB"):
    p = os.path.join(w, "perf-%s.csv" % b)
    if not os.path.exists(p): continue
    for r in csv.DictReader(open(p)):
        if r["status"] == "ok": d.setdefault(r["input"], {})[b] = r
rs = {"vA": [], "vB": []}
for k, v in sorted(d.items()):
    if "old" not in v: continue
    o = float(v["old"]["time_median_ms"]); line = "  %-26s old %8.3f" % (k, o)
    for b in ("vA", "vB"):
        if b in v:
            n = float(v[b]["time_median_ms"]); rs[b].append(o / n)
            line += " | %s %8.3f (%.3f, outer %s, %s)" % (b, n, o / n, v[b].get("outer_product_ms"), v[b]["verified"])
    print(line)
for b, x in rs.items():
    if x: print("  geomean old/%s %.3f (min %.3f)" % (b, math.exp(sum(map(math.log, x)) / len(x)), min(x)))
PY
tar czf "$out/all.tgz" -C "$tmp" w 2>/dev/null
say "done $((SECONDS-t0)) s"

#!/usr/bin/env bash
# Device call 4 (2026-12-03, fourteenth session): how close the outer product by rows is to
# what a write-only kernel can reach, and its spread between runs.
# Builds (call 3's): new (build-gpu: rows of 128, 48 registers), v8 (.carry/v8/runtime: rows
# of 256). Call 3 put both at 59.3-61.6 % of the copy bandwidth with SM at 61 % and
# instructions no longer mattering (8.5e8 or 7.8e8 alike): bound by the writes.
# Must answer: (1) the H200's write-only ceiling (cuMemsetD32) beside its copy bandwidth
# (cuMemcpyDtoD), with .carry/write_bandwidth (source beside this script); (2) the outer
# product, s18 and s19, three alternating rounds of ncu per build: the spread of the
# percentage that issue 12's target reads.
set -u
root=$(pwd); new=$root/build-gpu; v8=$root/.carry/v8
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$new" "$root/.carry"
base=$root/.carry/lib
lib() { case $1 in v8) echo "$v8/runtime";; new) echo "$new/runtime";; esac; }
on() { local b=$1; shift; LD_LIBRARY_PATH="$(lib "$b"):$base" "$@"; }
for b in v8 new; do say "ldd $b: $(on $b ldd "$new/tools/magnus" | grep libmagnus)"; done
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
export MAGNUS_BACKENDS=cuda
t0=$SECONDS
say "== ceilings"
timeout 60 "$root/.carry/write_bandwidth" 4 >"$w/bw.txt" 2>&1; say "write_bandwidth: $?"
python3 - "$w/bw.txt" >>"$S" <<'PY'
import sys, re, statistics
d = {}
for l in open(sys.argv[1]):
    m = re.match(r"(\w+) .* ([0-9.]+) GB/s", l)
    if m: d.setdefault(m.group(1), []).append(float(m.group(2)))
for k, v in d.items(): print("  %s: median %.1f GB/s (min %.1f, max %.1f, %d runs)" % (k, statistics.median(v), min(v), max(v), len(v)))
PY
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for round in 1 2 3; do
  for p in "18 4" "19 8"; do
    set -- $p
    for b in new v8; do
      on $b timeout 60 "$ncu" --clock-control none --csv -k regex:gmagnus_outer_product --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$new/tools/magnus" multiply rmat:$1:$2:1 rmat:$1:8:2 --device cuda:0 >"$w/ncu-s$1-$b-$round.csv" 2>&1
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
    print("  round %s %s %-3s: %.3f ms, DRAM %.3f GB (read %.3f), %.1f %% of 4265 GB/s" % (sys.argv[4], sys.argv[3], sys.argv[2], ms, g, gb("dram__bytes_read.sum"), 100 * g / ms / 4265 * 1e3))
else:
    print("  round %s %s %s: no data" % (sys.argv[4], sys.argv[3], sys.argv[2]))
PY
    done
  done
done
tar czf "$out/all.tgz" -C "$tmp" w 2>/dev/null
say "done $((SECONDS-t0)) s"

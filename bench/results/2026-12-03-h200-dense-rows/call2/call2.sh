#!/usr/bin/env bash
# Device call 2 (2026-12-03, thirteenth session): which rows should be dense rows?
# Call 1 found the hash algorithm with dense rows (rows past its tables only) faster than
# gMAGNUS on vsp_befref, ca-HepPh, ca-AstroPh_cc1, email-Enron (f32) and R-MAT scale 15, but
# slower on ego-Facebook (1.18 against 1.05 ms f32), whose rows all fit the tables (C has 4,039
# columns, fewer than the 6,144 products of the largest table): its time goes to the large
# local tables (one row per group, sorted). This build also makes a row dense when its key
# passes C's width / MAGNUS_DENSE_ROW_SHARE (default 8; 0: only rows past the tables).
# Must answer: per input, the hash algorithm's time at shares 0, 2, 8 and 32, beside gMAGNUS
# and cuSPARSE in the same call (and AUTO at the default): which share, if any, makes the hash
# algorithm at least as fast as gMAGNUS on every input whose C fits, ego-Facebook included?
set -u
root=$(pwd)
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$root/build-gpu" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices; t0=$SECONDS; mag=$root/build-gpu/tools/magnus
export MAGNUS_BACKENDS=cuda
GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS='(spgemm_(hash|auto)|hash_work)_cuda$' OUT=$tmp/check timeout 150 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
grep -E " ok | FAILED|TIMEOUT" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
SANITIZE_CASES='^(dense-rows|dense-rows-f64)$' OUT=$w timeout 100 bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
pkill -f compute-sanitizer; sleep 1
run() { # NAME SHARE SYSTEMS
  for part in real32 real64 rmat; do
    case $part in
      real32) args=(--matrices "$M" --min-products 1e7 --type f32) ;;
      real64) args=(--matrices "$M" --min-products 1e7 --type f64) ;;
      rmat) args=(--rmat-sweep --scales 15 --a-per-row 4,8,16,32 --b-per-row 8 --seeds 1,2) ;;
    esac
    MAGNUS_DENSE_ROW_SHARE=$2 timeout 90 "$mag" bench "${args[@]}" --systems "$3" --runs 10 --runs-large 5 --max-timed-seconds 5 --verify-limit 2e7 --no-bandwidth --csv "$w/$1-$part.csv" >"$w/$1-$part.log" 2>&1
    say "$1 $part: $? ($((SECONDS-t0)) s)"
  done
}
run base 8 auto@cuda:0,magnus@cuda:0,hash@cuda:0,cusparse@cuda:0
for sh in 0 2 32; do run share$sh $sh hash@cuda:0; done
python3 - "$w" >"$out/shares.txt" 2>&1 <<'PY'
import csv, sys, os, math, glob
w = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(w, "*.csv"))):
    name = os.path.basename(f).rsplit("-", 1)[0]
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok": continue
        key = (r["input"], r["value_type"])
        sysname = r["system"].split("@")[0]
        label = sysname if name == "base" and sysname != "hash" else ("hash8" if name == "base" else "hash" + name[5:])
        if sysname.startswith("cusparse"):
            rows.setdefault(key, {})["cusparse"] = min(float(r["time_median_ms"]), rows.get(key, {}).get("cusparse", 1e9))
        else:
            rows.setdefault(key, {})[label] = float(r["time_median_ms"])
            rows[key][label + "_dense"] = r.get("rows_dense", "")
            if r["verified"] != "yes": print("NOT VERIFIED", key, label, r["verified"])
cols = ["auto", "magnus", "hash0", "hash2", "hash8", "hash32", "cusparse"]
print("%-32s %-4s " % ("input", "type") + " ".join("%9s" % c for c in cols) + "  dense rows at 0/2/8/32")
for key in sorted(rows):
    v = rows[key]
    print("%-32s %-4s " % (key[0][:32], key[1]) + " ".join("%9.3f" % v.get(c, float("nan")) for c in cols) +
          "  " + "/".join(str(v.get("hash%s_dense" % s, "")) for s in (0, 2, 8, 32)))
for c in cols[:-1]:
    r = [v["cusparse"] / v[c] for v in rows.values() if c in v and "cusparse" in v]
    m = [v["magnus"] / v[c] for v in rows.values() if c in v and "magnus" in v]
    if r: print("%-8s cusparse/x geomean %.3f (min %.3f); magnus/x geomean %.3f (min %.3f)" % (
        c, math.exp(sum(map(math.log, r)) / len(r)), min(r), math.exp(sum(map(math.log, m)) / len(m)), min(m)))
PY
cat "$out/shares.txt" >>"$S"
say "== trace of ego-Facebook f64, hash, share 8 ($((SECONDS-t0)) s)"
MAGNUS_TRACE=$w/trace-ego.txt MAGNUS_TRACE_DEVICE=1 timeout 30 "$mag" bench "$M/ego-Facebook.mtx.gz" --type f64 --runs 3 --verify-limit 0 --no-bandwidth --systems hash@cuda:0 >"$w/ego.log" 2>&1; say "ego trace: $?"
python3 scripts/trace_summary.py "$w/trace-ego.txt" --last 1 --top 12 >"$w/ego-sum.txt" 2>&1; head -45 "$w/ego-sum.txt" | sed 's/^/  /' >>"$S"
tar czf "$out/all.tgz" -C "$tmp" w check 2>/dev/null
say "done $((SECONDS-t0)) s"

#!/usr/bin/env bash
# One build against itself with a knob set back (the "A/B by environment" kind of device call;
# bench/results/2026-12-03-h200-dense-rows calls 1 and 3 ran it), ON the H200 after
# scripts/gpu_bundle.sh here:
#   run(command="AB_BASE_ENV=MAGNUS_DENSE_ROWS=0 bash scripts/auto_ab_h200.sh", carry=["build-gpu", ".carry"])
# Steps (AB_STEPS, default check,sanitize,methods,base,hsmu,trace, in this order):
#   check     the CUDA suites named by AB_CHECK_TESTS (a ctest regex; default the hash
#             accumulator's and AUTO's: '(spgemm_(hash|auto)|hash_work)_cuda$')
#   sanitize  scripts/sanitize_h200.sh on the cases AB_SANITIZE_CASES (default
#             '^(dense-rows|dense-rows-f64|auto|hash-global)$'), bounded by AB_SANITIZE_S (150)
#   methods   scripts/methods_h200.sh's real32, real64 and rmat: AUTO, each algorithm, cuSPARSE
#   base      AUTO again on the same inputs with AB_BASE_ENV (default MAGNUS_DENSE_ROWS=0) set:
#             the baseline, in the same call (old_auto.csv)
#   hsmu      HSMU-SpGEMM (.carry/hsmu/hsmu, f64) on the ten shared matrices
#   trace     MAGNUS_TRACE of vsp_befref f64 under AUTO, summarized by scripts/trace_summary.py
# Then compare.txt: per input AUTO against the baseline, gMAGNUS, hash and the best cuSPARSE
# algorithm (and HSMU in f64). Output in $OUT: summary.txt, real32/real64/rmat.csv,
# old_auto.csv, compare.txt and all/ (every log and CSV as plain files).
set -u
root=$(pwd)
steps=${AB_STEPS:-check,sanitize,methods,base,hsmu,trace}
has() { case ",$steps," in *",$1,"*) return 0;; esac; return 1; }
base_env=${AB_BASE_ENV:-MAGNUS_DENSE_ROWS=0}
out=${OUT:-$root/call-out}; tmp=/tmp/call; w=$tmp/w; mkdir -p "$w" "$out"; S=$out/summary.txt; : >"$S"
say() { echo "$*" | tee -a "$S"; }
. scripts/gpu_libs.sh
GPU_LIBS_SAY=say gpu_libs_setup "$root/build-gpu" "$root/.carry"; GPU_LIBS_SAY=say gpu_find_cusparse
say "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
M=$root/.carry/matrices; t0=$SECONDS; mag=$root/build-gpu/tools/magnus
if has check; then
  GPU_CHECK_STEPS=cuda GPU_CHECK_TESTS=${AB_CHECK_TESTS:-'(spgemm_(hash|auto)|hash_work)_cuda$'} OUT=$tmp/check timeout 150 bash scripts/gpu_check.sh >/dev/null 2>&1; say "suites: $? ($((SECONDS-t0)) s)"
  grep -E " ok | FAILED|TIMEOUT|^    \|" "$tmp/check/summary.txt" >>"$S" 2>/dev/null
fi
if has sanitize; then
  SANITIZE_CASES=${AB_SANITIZE_CASES:-'^(dense-rows|dense-rows-f64|auto|hash-global)$'} OUT=$w timeout "${AB_SANITIZE_S:-150}" bash scripts/sanitize_h200.sh >>"$S" 2>&1; say "sanitize: $? ($((SECONDS-t0)) s)"
  pkill -f compute-sanitizer; sleep 1
fi
if has methods; then
  say "== methods, new ($((SECONDS-t0)) s)"
  METHODS_STEPS=real32,real64,rmat METHODS_SYSTEMS=auto@cuda:0,gmagnus@cuda:0,hash@cuda:0,cusparse@cuda:0 METHODS_BUDGET_S=200 OUT=$tmp/m timeout 220 bash scripts/methods_h200.sh >/dev/null 2>&1; say "methods: $? ($((SECONDS-t0)) s)"
  cp "$tmp/m/real32.csv" "$tmp/m/real64.csv" "$tmp/m/rmat.csv" "$out/" 2>/dev/null
fi
if has base; then
  say "== base AUTO: $base_env ($((SECONDS-t0)) s)"
  for part in real32 real64 rmat; do
    case $part in
      real32) args=(--matrices "$M" --min-products 1e7 --type f32) ;;
      real64) args=(--matrices "$M" --min-products 1e7 --type f64) ;;
      rmat) args=(--rmat-sweep --scales 15-16 --a-per-row 4,8,16,32 --b-per-row 8 --seeds 1,2) ;;
    esac
    MAGNUS_BACKENDS=cuda env $base_env timeout 60 "$mag" bench "${args[@]}" --systems auto@cuda:0 --runs 10 --runs-large 5 --max-timed-seconds 5 --verify-limit 2e7 --no-bandwidth --csv "$w/old-$part.csv" >"$w/old-$part.log" 2>&1; say "base $part: $?"
  done
fi
if has hsmu; then
  say "== hsmu ($((SECONDS-t0)) s)"
  mkdir -p /tmp/h && cd /tmp/h
  for m in soc-Slashdot0902 vsp_befref_fxm_2_4_air02 email-Enron ca-HepPh vsp_sctap1-2b_and_seymourl ca-AstroPh_cc1 ego-Facebook astro-ph bcsstk16 EX5; do
    [ $((540 - SECONDS + t0)) -lt 8 ] && { say "hsmu $m: no time"; continue; }
    [ -e "$m.mtx" ] || gzip -dc "$M/$m.mtx.gz" > "$m.mtx"
    CUDA_MODULE_LOADING=EAGER timeout 20 "$root/.carry/hsmu/hsmu" "$m.mtx" > "$w/hsmu-$m.log" 2>&1
    say "hsmu $m: rc $? $(grep -h hsmu_total_ms "$w/hsmu-$m.log") conv_mean $(grep -h hsmu_conversion_ms "$w/hsmu-$m.log" | awk '{s+=$2;n++} END {if(n) printf "%.4f", s/n; else print "none"}') $(grep -h hsmu_cnnz "$w/hsmu-$m.log")"
  done
  cd "$root"
fi
if has trace; then
  say "== trace of vsp_befref f64, AUTO ($((SECONDS-t0)) s)"
  MAGNUS_BACKENDS=cuda MAGNUS_TRACE=$w/trace-vsp.txt MAGNUS_TRACE_DEVICE=1 timeout 30 "$mag" bench "$M/vsp_befref_fxm_2_4_air02.mtx.gz" --type f64 --runs 3 --verify-limit 0 --no-bandwidth --systems auto@cuda:0 >"$w/vsp.log" 2>&1; say "vsp trace: $?"
  python3 scripts/trace_summary.py "$w/trace-vsp.txt" --last 1 --top 12 >"$w/vsp-sum.txt" 2>&1; head -50 "$w/vsp-sum.txt" | sed 's/^/  /' >>"$S"
fi
cat "$w"/old-*.csv 2>/dev/null | awk 'NR==1 || !/^input,/' >"$out/old_auto.csv"
python3 - "$out" "$S" >"$out/compare.txt" 2>&1 <<'PY'
import csv, sys, math, os, re
out, S = sys.argv[1:]
def load(p):
    d = {}
    if not os.path.exists(p): return d
    for r in csv.DictReader(open(p)):
        if r.get("status") == "ok": d.setdefault((r["input"], r.get("value_type", "")), {})[r["system"]] = r
    return d
old = load(os.path.join(out, "old_auto.csv"))
g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
hsmu = {}
for line in open(S):
    m = re.match(r"hsmu (\S+): rc 0 hsmu_total_ms (\S+) conv_mean (\S+)", line)
    if m: hsmu[m.group(1)] = float(m.group(2)) + float(m.group(3))
for part in ("real32", "real64", "rmat"):
    new = load(os.path.join(out, part + ".csv"))
    print("==", part)
    vs_cu, vs_old, vs_best = [], [], []
    for key in sorted(new):
        v = new[key]; a = v.get("auto@cuda:0"); o = old.get(key, {}).get("auto@cuda:0")
        cu = [float(r["time_median_ms"]) for s, r in v.items() if s.startswith("cusparse")]
        t = lambda s: float(v[s]["time_median_ms"]) if s in v else float("nan")
        if not a: print("  %-34s no new auto" % key[0]); continue
        ta = float(a["time_median_ms"]); to = float(o["time_median_ms"]) if o else float("nan")
        best = min(cu) if cu else float("nan")
        line = "  %-34s auto %8.3f old %8.3f gmagnus %8.3f hash %8.3f cusparse %8.3f | old/new %.3f cus/new %.3f %s" % (
            key[0][:34], ta, to, t("gmagnus@cuda:0"), t("hash@cuda:0"), best, to / ta, best / ta, a.get("verified", ""))
        if part == "real64" and key[0] in hsmu: line += " hsmu %.3f (%.3fx)" % (hsmu[key[0]], hsmu[key[0]] / ta)
        print(line)
        if cu: vs_cu.append(best / ta)
        if o: vs_old.append(to / ta)
    print("  geomean: cusparse/new %.3f (min %.3f), old/new %.3f (min %.3f)" % (g(vs_cu), min(vs_cu) if vs_cu else 0, g(vs_old), min(vs_old) if vs_old else 0))
PY
cat "$out/compare.txt" >>"$S"
mkdir -p "$out/all" && cp -r "$tmp"/w "$tmp"/m "$tmp"/check "$out/all/" 2>/dev/null
say "done $((SECONDS-t0)) s"

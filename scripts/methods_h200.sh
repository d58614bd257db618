#!/usr/bin/env bash
# Issue 13's measurements (the method per input): gMAGNUS, the hash algorithm and cuSPARSE
# side by side on every input the issue names, in ONE device call, ON the H200 after
# scripts/gpu_bundle.sh here:
#   run(command="bash scripts/methods_h200.sh", carry=["build-gpu", ".carry"], timeout_s=600)
# What each step must answer:
#   real32, real64  the shared matrices with >= 10^7 products (A*A), f32 and f64: where does
#                   each algorithm win, by how much, and against the best cuSPARSE algorithm?
#   rmat            R-MAT pairs of scales 15-16, A 4,8,16,32, B 8, seeds 1 and 2 (fewer than
#                   2*10^8 products): the same question on small power-law products
#   auto            the library's default (the automatic choice) on the same inputs, when
#                   METHODS_AUTO=1: is it within reach of the faster of the two algorithms?
#   trace           MAGNUS_TRACE of EX5 and ca-AstroPh_cc1 (10^7-product inputs) under each
#                   algorithm: the host time outside kernels (waits, allocations, launches)
#   cold            the first multiply of a fresh context (kernels cached on disk) against
#                   the warm ones: bench's first_ms column, one input per process
#   variants        gMAGNUS (cuda:0) under each setting of METHODS_VARIANTS ("NAME:VAR=V,VAR=V
#                   NAME2:..."; default: the heavy-row threshold at 6144, 12288 and 24576
#                   products, with and without wide hash bins) on real32, real64 and R-MAT
#                   scales 15-18: which rows should take the heavy path?
#                   (docs/performance.md, "The method per row"). Output: variants.csv, every
#                   row's setting in its `variant` column
# METHODS_SYSTEMS (default auto@cuda:0,gmagnus@cuda:0,hash@cuda:0,cusparse@cuda:0: the
# library's choice, each algorithm forced, cuSPARSE) for real32, real64 and rmat;
# METHODS_VARIANT_SYSTEMS (gmagnus@cuda:0) and METHODS_VARIANT_PARTS ("real32 real64 rmat")
# for variants.
# METHODS_STEPS picks steps (default real32,real64,rmat,trace,cold; variants on request); METHODS_RUNS (10) timed
# runs; METHODS_BUDGET_S (420) bounds them all (a step is skipped with less than 20 s left).
# Files in $OUT, at most 8: summary.txt, real32.csv, real64.csv, rmat.csv, trace.txt,
# cold.csv, variants.csv, logs.tgz (the JSON files and logs). Every C is verified (CPU reference up to
# 2*10^7 products, else cuSPARSE's C and the randomized check); columns: bench/README.md.
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start methods summary.txt
mkdir -p "$out/logs"
summary=$say_file
steps=${METHODS_STEPS:-real32,real64,rmat,trace,cold}
runs=${METHODS_RUNS:-10}
budget=${METHODS_BUDGET_S:-420}
start=$SECONDS
gpu_libs_setup "$root/build-gpu" "$root/.carry" >>"$summary"
GPU_LIBS_SAY=say gpu_find_cusparse
export MAGNUS_BACKENDS=cuda
matrices=$root/.carry/matrices
systems=${METHODS_SYSTEMS:-auto@cuda:0,gmagnus@cuda:0,hash@cuda:0,cusparse@cuda:0}

step() { # NAME LIMIT COMMAND...: bounded by the budget; output in logs/NAME.log
  local name=$1 limit=$2 left=$((budget - (SECONDS - start)))
  shift 2
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$limit" -lt 20 ]; then say "$name: skipped (budget)"; return; fi
  local t0=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$out/logs/$name.log" 2>&1
  local rc=$?
  say "$name: exit $rc ($((SECONDS - t0)) s)"
  [ $rc -ne 0 ] && failed=1
  sed -n '/^magnus bench: [0-9]* input/,$p' "$out/logs/$name.log" >>"$summary"
  grep -E 'MISMATCH|did NOT verify|magnus failed on' "$out/logs/$name.log" >>"$summary"
}
bench() { # NAME LIMIT ARGS...
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$magnus" bench "$@" --runs "$runs" --runs-large 5 --max-timed-seconds 5 \
    --verify-limit 2e7 --csv "$out/$name.csv" --json "$out/logs/$name.json"
}

append_csv() { # SRC NAME DST: SRC's rows appended to DST (header once), `variant` = NAME
  python3 - "$@" <<'PY'
import csv, os, sys
src, name, dst = sys.argv[1:]
if not os.path.exists(src): sys.exit(0)
rows = list(csv.DictReader(open(src)))
new = not os.path.getsize(dst)
with open(dst, "a", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else [])
    if rows and new: w.writeheader()
    for r in rows:
        r["variant"] = name
        w.writerow(r)
PY
}

has real32 && bench real32 90 --matrices "$matrices" --min-products 1e7 --type f32 --systems "$systems"
has real64 && bench real64 90 --matrices "$matrices" --min-products 1e7 --type f64 --systems "$systems"
has rmat && bench rmat 120 --rmat-sweep --scales 15-16 --a-per-row 4,8,16,32 --b-per-row 8 \
  --seeds 1,2 --systems "$systems"
if has trace; then
  : >"$out/trace.txt"
  for m in EX5 ca-AstroPh_cc1; do
    for algo in magnus hash; do
      sys=cuda:0
      [ $algo = hash ] && sys=hash@cuda:0
      rm -f "$out/logs/trace-$m-$algo.txt"
      step "trace-$m-$algo" 40 env MAGNUS_TRACE="$out/logs/trace-$m-$algo.txt" "$magnus" bench \
        "$matrices/$m.mtx.gz" --type f32 --systems "$sys" --runs 3 --no-bandwidth --verify-limit 0
      { echo "==== $m $algo"; python3 "$root/scripts/trace_summary.py" \
          "$out/logs/trace-$m-$algo.txt" --last 1 --top 12; } >>"$out/trace.txt" 2>&1
    done
  done
fi
if has cold; then
  # One process per input: its first multiply is the context's first (bench's first_ms), with
  # kernels loaded on first use (preload 0, the default) or all at context creation (1).
  : >"$out/cold.csv"
  for m in EX5 ca-AstroPh_cc1 email-Enron; do
    for preload in 0 1; do
      step "cold-$m-$preload" 40 env MAGNUS_PRELOAD_KERNELS=$preload "$magnus" bench \
        "$matrices/$m.mtx.gz" --type f32 --systems auto@cuda:0 --runs 10 --no-bandwidth \
        --verify-limit 0 --csv "$out/logs/cold-$m-$preload.csv"
      append_csv "$out/logs/cold-$m-$preload.csv" "preload$preload" "$out/cold.csv"
    done
  done
fi
if has variants; then
  : >"$out/variants.csv"
  for v in ${METHODS_VARIANTS:-base: t6144:MAGNUS_HEAVY_ROW_PRODUCTS=6144,MAGNUS_HASH_WIDE_BINS=0 t6144w:MAGNUS_HEAVY_ROW_PRODUCTS=6144,MAGNUS_HASH_WIDE_BINS=1 t12288w:MAGNUS_HEAVY_ROW_PRODUCTS=12288,MAGNUS_HASH_WIDE_BINS=1 t24576w:MAGNUS_HEAVY_ROW_PRODUCTS=24576,MAGNUS_HASH_WIDE_BINS=1}; do
    name=${v%%:*}
    envs=()
    IFS=, read -r -a envs <<<"${v#*:}"
    for part in ${METHODS_VARIANT_PARTS:-real32 real64 rmat}; do
      case $part in
        real32) args=(--matrices "$matrices" --min-products 1e7 --type f32) ;;
        real64) args=(--matrices "$matrices" --min-products 1e7 --type f64) ;;
        rmat) args=(--rmat-sweep --scales 15-18 --a-per-row 4,16 --b-per-row 8) ;;
      esac
      step "v-$name-$part" 60 env "${envs[@]}" "$magnus" bench "${args[@]}" --systems "${METHODS_VARIANT_SYSTEMS:-gmagnus@cuda:0}" \
        --runs "$runs" --runs-large 5 --max-timed-seconds 3 --verify-limit 2e7 --no-bandwidth \
        --csv "$out/logs/v-$name-$part.csv"
      append_csv "$out/logs/v-$name-$part.csv" "$name" "$out/variants.csv"
    done
  done
fi
say "methods_h200: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'a step FAILED') in $((SECONDS - start)) s"
(cd "$out" && tar czf logs.tgz logs && rm -rf logs)
exit $failed

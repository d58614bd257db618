#!/usr/bin/env bash
# The measurements the open issues still wait for, ON the GPU machine after scripts/gpu_bundle.sh
# here (and, for `compare`, an older build in .carry/base/ or .carry/prewait/; for `hsmu`, the
# peer's binaries in .carry/hsmu/, never committed: bench/results/2026-12-06-h100-ptx/README.md
# says how they are built). Every step ran on 2026-12-06 on an H100
# (bench/results/2026-12-06-h100-pending/, -fifth/, -sixth/, -seventh/). Left for the next
# session's 30 device minutes, on an H200 where one is lent (the seventh session's fifth call
# found no machine, so what it built is unmeasured):
#   1. PENDING_STEPS=check,sanitize PENDING_SANITIZE_CASES='^(hash-merged|scan-one-group)$'
#      (issue 36, item 4 on the card it names; the first GPU run of one fill a binning, a
#      kernel change: hash_bin_fill's cursors in the counts' buffer; 373 s on the H100);
#   2. COMPARE_SMALL=1 COMPARE_OLD=.carry/cur KNOB=MAGNUS_HASH_SIDE_QUEUES KNOB_ORDER="1 0 0 1"
#      KNOB_RMAT=1 PENDING_STEPS=compare,trace,knob (+ .carry/cur, the library and tool of
#      e5ceec1, before one fill a binning): both predictions of docs/performance.md, "One fill a
#      binning, and one queue for the hash algorithm" (issue 36);
#   3. KNOB=--unreported KNOB_ORDER="0 1 1 0" PENDING_STEPS=knob: AUTO with and without a
#      report in its timed runs (magnus bench --unreported), both APIs: what the phases' device
#      timers cost (the same section, 3; a caller without a report no longer pays them);
#   4. RMATB4_SCALES=19-20 PENDING_STEPS=rmatb4 (issue 34, item 2; the step was missing in the
#      seventh session's call and is back).
# For example:
#   run(command="PENDING_BUDGET_S=460 PENDING_STEPS=check,sanitize bash scripts/pending_h200.sh",
#       carry=[build-gpu, .carry/lib, .carry/opencl, .carry/matrices])
# The tool refuses a working tree over 64 MiB with the repository's .git counted: the four
# carries above are about 34 MB; add at most two older builds (3.4 MB each) and run `git gc`
# first (loose objects took 18 MiB on 2026-12-06).
# What each step must answer (each under `timeout`; none starts with less than 20 s of
# PENDING_BUDGET_S, default 540, left). Set PENDING_BUDGET_S at least 40 s below the call's
# limit: the tool's limit_s is the smaller of timeout_s and the session's device time left, and
# the machine's start counts against the latter:
#   check    do the whole CUDA and NVIDIA-OpenCL suites pass on this GPU, test_fake_opencl's
#            PTX test included (fixed after its last GPU run)?                  (issue 36, item 4)
#   sanitize compute-sanitizer (memcheck, racecheck, synccheck) on the kernels changed since
#            the last GPU run: csr-balanced (spmv_merge, with hot x at 64K), the scans in one
#            work group walking their tiles (MAGNUS_SCAN_ONE_GROUP_TILES past any scan) and every
#            local bin merged (PENDING_SANITIZE_CASES: a regex of sanitize_h200.sh's cases)
#                                                                           (issues 32, 36)
#   compare  did a change move SpGEMM's time? This build against an older one (COMPARE_OLD,
#            default .carry/base: the library and tool of the commit before), alternately, 2
#            rounds; gMAGNUS through CUDA at scale, or with COMPARE_SMALL=1 the hash algorithm
#            on small shared matrices through CUDA and OpenCL (the host waits and launches the
#            fifth session removed, docs/performance.md)                     (issues 35, 36)
#   hsmu     does the peer leave its hub rows unwritten (the corrected check: expected on
#            star_100000_16_20000_8_s2 f64 1,455,646 unwritten entries in 16 rows, no value
#            mismatch in the rows it writes), f64 and f32?                     (issue 34, item 1)
#   star     the star-mixture class in f32 and f64, AUTO beside gMAGNUS, hash and cuSPARSE with
#            both allocators, every C verified                                 (issue 34, item 1)
#   stripes  where C is wider than a dense row of 48 KiB (NVIDIA's OpenCL), does the hash
#            algorithm with S column stripes beat gMAGNUS, and up to which S? AUTO, hash and
#            gMAGNUS through OpenCL on R-MAT scales 13-15 (2-7 stripes in f64, 1-4 in f32)
#            with 8 and 16 per row, seed 4 (AUTO's rule was never tuned on it), and the shared
#            matrices of 4e6 products or more, f64 and f32; then AUTO again with
#            MAGNUS_AUTO_STRIPES=3 (hash outright up to 3 stripes) on the same inputs
#                                                                               (issue 36, item 1)
#   trace    (the launches' own host cost: each input with the device's events and without,
#            since those events are a marker and a flush each through OpenCL)
#            where OpenCL's symbolic phase loses 1.2-2.1x to CUDA's at equal parameters (issue
#            36): host and device traces (MAGNUS_TRACE, scripts/trace_summary.py) of the last of
#            3 multiplies of bcsstk13, ca-CondMat and EX5 (hash on both) through CUDA at 48 KiB
#            and through OpenCL: if the device idles between launches and host reads, the cost
#            is per launch (the hypothesis, about 20 launches and 2 reads); if the kernels
#            themselves run longer, it is the code NVIDIA's OpenCL compiler made (issue 36, item 1)
#   rmatb4   where does R-MAT with a sparse B (4 per row) stand against cuSPARSE (both
#            allocators): scales RMATB4_SCALES (default 15-19), A 4-32 per row, seed 5, every C
#            verified; 2026-12-06 (H100) reached s18 a4 in 145 s: 1.34-2.29x, the numeric phase
#            39-58 % of the time (docs/performance.md)                     (issue 34, item 2)
#   rmatb4dense  does the numeric phase of R-MAT with a sparse B (39-58 % of its time, most of
#            it light chunks hashed one by one) shrink when more of those chunks go to the dense
#            accumulator: MAGNUS_DENSE_MIN_ELEMENTS default (512 at 48 KiB f32), 256, 128 on
#            scales 17-18, A 4 and 8, B 4, seed 6 (held out), gMAGNUS and cuSPARSE with the pool,
#            the phase columns beside the times                            (issue 34, item 2)
#   knob     one knob's values side by side (KNOB, default MAGNUS_SCAN_ONE_GROUP_TILES;
#            KNOB_ORDER, default "0 8 8 0"; KNOB_RUNS; KNOB_RMAT=1 adds R-MAT s15-16): AUTO
#            through CUDA and OpenCL on the shared matrices, f64 and f32, median of 20. Ran as
#            `merge` for MAGNUS_HASH_MERGE_GROUPS (0 and 132) on 2026-12-06   (issue 36)
#   dense    MAGNUS_DENSE_MIN_ELEMENTS at 128 (DENSE_ORDER) beside the default on the shared
#            matrices and R-MAT s15-17 with B 8 and 16 per row, seed 6, gMAGNUS and AUTO through
#            CUDA: does the threshold that helps a sparse B (rmatb4dense) hurt elsewhere? (issue 34)
#   spmvbuilds  SpMV (every format, CUDA) through this build and an older one in .carry/base
#            (copied from build-gpu before the change), alternately, SPMVBUILDS_ROUNDS rounds:
#            did a kernel change move the times? SPMVBUILDS_LIST ("LABEL:DIR ...") names more
#            than two builds, e.g. "base:.carry/base bounds:.carry/bounds new:build-gpu" (issue 32)
#   spmvhot  what ncu says of csr-balanced's hot x (MAGNUS_SPMV_HOT_BYTES unset, 32K, 64K;
#            SPMVHOT_SIZES to change): L2 bytes and active warps at each. The times of the
#            2026-12-06 H100 call refuted the prediction (f64 rmat:22:16:2 0.654 ms off, 0.655 at
#            32K, 1.009 at 64K) and its 300 s ended before ncu; docs/performance.md, "SpMV: x's
#            hot columns in local memory", names the two readings ncu tells apart  (issue 32)
# Files in $OUT (default ./pending-out): summary.txt (each step's status) and one archive a
# step (at most 8 files come back): check.tgz, sanitize.tgz, compare.tgz (summary.txt), hsmu.tgz (hsmu.txt,
# logs/), star.tgz (star-TYPE.csv), stripes.tgz (base-TYPE.csv, auto3-TYPE.csv),
# spmvhot.tgz (carveout.txt: the sweep, with its CSVs and ncu), trace.tgz (sum-*.txt), rmatb4.tgz,
# rmatb4dense.tgz (dense-VALUE.csv).
set -u
# shellcheck source=scripts/gpu_call.sh
. "$(dirname "$0")/gpu_call.sh"
gpu_call_start pending summary.txt
steps=${PENDING_STEPS:-check}
budget=${PENDING_BUDGET_S:-540}
# A step this script does not know would be skipped in silence (2026-12-06: rmatb4 was asked
# for after its block had been dropped, and the call ran without it): refused before the GPU.
known=",check,sanitize,compare,hsmu,star,stripes,trace,knob,rmatb4,rmatb4dense,dense,spmvbuilds,spmvhot,"
for s in ${steps//,/ }; do
  [[ $known == *",$s,"* ]] || { say "pending_h200: unknown step '$s' (known:${known//,/ })"; exit 2; }
done
left() { [ $((budget - SECONDS)) -ge 20 ] || { say "$1: skipped (budget spent)"; return 1; }; }
# At most 8 files come back from $OUT: each step's folder goes back as one archive (unpacked
# and committed as text here, never as the archive).
pack() { [ -d "$out/$1" ] && tar czf "$out/$1.tgz" -C "$out" "$1" && rm -rf "${out:?}/$1"; }
limit() { local l=$((budget - SECONDS)); echo $((l < $1 ? l : $1)); }
# Stopped from outside (the device tool's limit, when PENDING_BUDGET_S was set past it): the
# running step is stopped and every step's folder packed, so what they wrote still comes back
# within the 8 files (2026-12-06: a call stopped mid-step returned 8 of its 20 loose files).
# shellcheck disable=SC2317 # reached through the trap below
on_term() {
  [ -n "${step_pid:-}" ] && kill "$step_pid" 2>/dev/null
  say "pending_h200: stopped by a signal after $SECONDS s; packing what the steps wrote"
  for d in "$out"/*/; do [ -d "$d" ] && pack "$(basename "$d")"; done
  exit 124
}
trap on_term TERM INT
say "pending_h200: $(date -u +%FT%TZ) on $(hostname), steps $steps"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$say_file" 2>&1

if has check && left check; then
  step check "$(limit 420)" env GPU_CHECK_STEPS=cuda,opencl OUT="$out/check" bash scripts/gpu_check.sh
  pack check
fi
gpu_libs_setup "$root/build-gpu" "$root/.carry" >>"$say_file"
if has sanitize && left sanitize; then
  mkdir -p "$out/sanitize"
  step "sanitize spmv" "$(limit 60)" env SPMV_STEPS=sanitize SPMV_FORMATS=csr-balanced \
    SPMV_TESTS=spmv SPMV_TEST_FILTER='spmv_hot/*' MAGNUS_SPMV_HOT_BYTES=64K OUT="$out/sanitize/spmv" bash scripts/spmv_h200.sh
  step "sanitize hash" "$(limit 120)" env SANITIZE_CASES="${PENDING_SANITIZE_CASES:-^(scan-one-group|hash-merged)\$}" \
    OUT="$out/sanitize/hash" bash scripts/sanitize_h200.sh
  pack sanitize
fi
if has compare && left compare; then
  # the older build in .carry/base (COMPARE_OLD); COMPARE_SMALL=1: the hash algorithm on the
  # small shared matrices through both APIs (host waits and launches), not gMAGNUS at scale
  small=${COMPARE_SMALL:-0}
  step compare "$(limit 200)" env CMP_OLD="${COMPARE_OLD:-.carry/base}" CMP_ROUNDS=2 \
    CMP_RUNS="$([ "$small" = 1 ] && echo 20 || echo 5)" CMP_BUDGET_S=190 \
    $([ "$small" = 1 ] && echo "CMP_DEVICE=hash@cuda:0,hash@opencl:0 CMP_SCALES=12-13" \
      "CMP_FILES=bcsstk13,rajat19,add32,fe_4elt2,p2p-Gnutella05,ca-CondMat,EX5,wiki-Vote") \
    OUT="$out/compare" bash scripts/compare_builds_h200.sh
  pack compare
fi
if has hsmu && left hsmu; then
  mkdir -p "$out/hsmu"
  step hsmu "$(limit 150)" env HSMU_CHECK=1 HSMU_TIMEOUT=25 HSMU_LOG_DIR="$out/hsmu/logs" \
    bash .carry/hsmu/run.sh >"$out/hsmu/hsmu.txt" 2>&1
  pack hsmu
fi
stars="star:100000:16:20000:8:2 star:200000:32:40000:8:3 star:400000:32:40000:8:3
       star:200000:64:20000:4:5 star:100000:8:50000:16:7"
has star && mkdir -p "$out/star"
for type in f32 f64; do
  has star && left "star $type" || continue
  # shellcheck disable=SC2086 # $stars is a list
  # the host's checks of C take most of the time: 15 s held 2-3 of the 5 inputs
  step "star $type" "$(limit $((${STAR_TIME_LIMIT_S:-70} + 10)))" env MAGNUS_BACKENDS=cuda "$magnus" \
    bench $stars --type "$type" \
    --systems auto@cuda:0,gmagnus@cuda:0,hash@cuda:0,cusparse@cuda:0,cusparse-pool@cuda:0 \
    --runs 5 --time-limit "${STAR_TIME_LIMIT_S:-70}" --verify-limit 2e7 --no-bandwidth \
    --csv "$out/star/star-$type.csv" \
    >>"$out/star/star.log" 2>&1
done
pack star
has stripes && mkdir -p "$out/stripes"
# STRIPES_DEVICE=cuda:0 STRIPES_SCALES=15-17: the same question where a dense row holds 227 KiB
# (2-5 stripes in f64, 1-3 in f32 at those scales), before the rule's default may change there
sd=${STRIPES_DEVICE:-opencl:0} stripes_scales=${STRIPES_SCALES:-13-15}
for type in f64 f32; do
  has stripes && left "stripes $type" || continue
  # the same inputs twice: AUTO, hash and gMAGNUS as built, then AUTO with the stripes rule
  for run in base:0 auto3:3; do
    step "stripes $type ${run%%:*}" "$(limit 120)" env MAGNUS_AUTO_STRIPES="${run#*:}" \
      "$magnus" bench --rmat-sweep --scales "$stripes_scales" --a-per-row 8,16 --b-per-row 8,16 \
      --seeds 4 --matrices "$root/.carry/matrices" --min-products 4e6 --type "$type" \
      --systems "$([ "${run%%:*}" = base ] && echo "auto@$sd,hash@$sd,gmagnus@$sd" || echo "auto@$sd")" \
      --runs 3 --time-limit 100 --no-bandwidth --csv "$out/stripes/${run%%:*}-$type.csv" \
      >>"$out/stripes/stripes.log" 2>&1
  done
done
pack stripes
if has trace && left trace; then
  mkdir -p "$out/trace"
  for m in bcsstk13 ca-CondMat EX5; do
    f=$(ls "$root/.carry/matrices/$m".mtx* 2>/dev/null | head -1)
    [ -n "$f" ] || { say "trace: $m missing"; continue; }
    for d in cuda opencl; do
      lm=; [ "$d" = cuda ] && lm=48K
      # with the device's events (its timeline; two event records a launch, through OpenCL a
      # marker and a flush each, which cost the host and the device) and without (the
      # launches' own host time)
      for dev in 1 0; do
        t=$m-$d-$([ "$dev" = 1 ] && echo device || echo host)
        step "trace $t" 60 env ${lm:+MAGNUS_LOCAL_MEM_BYTES=$lm} \
          MAGNUS_TRACE="$out/trace/trace-$t.txt" MAGNUS_TRACE_DEVICE=$dev "$magnus" bench "$f" \
          --runs 3 --verify-limit 0 --no-bandwidth --systems "hash@$d:0" \
          >"$out/trace/bench-$t.log" 2>&1
        python3 scripts/trace_summary.py "$out/trace/trace-$t.txt" --last 1 --top 10 \
          >"$out/trace/sum-$t.txt" 2>&1
      done
    done
  done
  pack trace
fi
if has knob && left knob; then
  mkdir -p "$out/knob"
  # one knob's values (KNOB, KNOB_ORDER: e.g. "0 8 8 0", each value twice in mirrored order,
  # so the GPU's drift cancels in the pairs; the i-th run writes TYPE-API-VALUE-i.csv) through
  # both APIs, AUTO as users run it, on every shared matrix (KNOB_RMAT=1 adds R-MAT s15-16,
  # 8 per row, held-out seed 4). A KNOB beginning with -- is a flag of `magnus bench` instead
  # of a variable: value 1 passes it, 0 does not (e.g. KNOB=--unreported KNOB_ORDER="0 1 1 0")
  knob=${KNOB:-MAGNUS_SCAN_ONE_GROUP_TILES}
  for type in ${KNOB_TYPES:-f64 f32}; do
    for d in cuda opencl; do
      i=0
      for v in ${KNOB_ORDER:-0 8 8 0}; do
        i=$((i + 1))
        left "knob $type $d $v $i" || break 3
        set_knob=("$knob=$v") flag=()
        [[ $knob == --* ]] && { set_knob=(); [ "$v" = 1 ] && flag=("$knob"); }
        step "knob $knob=$v $type $d $i" "$(limit 75)" env "${set_knob[@]}" "$magnus" bench \
          "${flag[@]}" ${KNOB_RMAT:+--rmat-sweep --scales 15-16 --a-per-row 8 --b-per-row 8 --seeds 4} \
          --matrices "$root/.carry/matrices" --type "$type" --systems "auto@$d:0" \
          --runs "${KNOB_RUNS:-20}" --time-limit 65 --verify-limit 2e7 --no-bandwidth \
          --csv "$out/knob/$type-$d-$v-$i.csv" >>"$out/knob/knob.log" 2>&1
      done
    done
  done
  pack knob
fi
if has dense && left dense; then
  mkdir -p "$out/dense"
  # the dense threshold off the class it was measured on: shared matrices and the R-MAT sweep
  # (B 8 and 16 per row), gMAGNUS and AUTO, the values in DENSE_ORDER (pairs cancel drift)
  i=0
  for dme in ${DENSE_ORDER:-default 128 128 default}; do
    i=$((i + 1))
    left "dense $dme $i" || break
    step "dense $dme $i" "$(limit 120)" env MAGNUS_BACKENDS=cuda \
      $([ "$dme" != default ] && echo "MAGNUS_DENSE_MIN_ELEMENTS=$dme") "$magnus" bench \
      --rmat-sweep --scales "${DENSE_SCALES:-15-17}" --a-per-row 4,8,16 --b-per-row 8,16 --seeds 6 \
      $([ -n "${DENSE_TYPE:-}" ] && echo "--type $DENSE_TYPE") \
      --matrices "$root/.carry/matrices" --systems gmagnus@cuda:0,auto@cuda:0 --runs 5 \
      --time-limit 110 --verify-limit 2e7 --no-bandwidth --csv "$out/dense/dense-$dme-$i.csv" \
      >>"$out/dense/dense.log" 2>&1
  done
  pack dense
fi
if has rmatb4 && left rmatb4; then
  mkdir -p "$out/rmatb4"
  step rmatb4 "$(limit 240)" env MAGNUS_BACKENDS=cuda "$magnus" bench --rmat-sweep \
    --scales "${RMATB4_SCALES:-15-19}" --a-per-row 4,8,16,32 --b-per-row 4 --seeds 5 \
    --systems cuda:0,cusparse@cuda:0,cusparse-pool@cuda:0 --runs 5 --max-products 2e9 \
    --time-limit 220 --verify-limit 2e7 --csv "$out/rmatb4/rmatb4.csv" >"$out/rmatb4/rmatb4.log" 2>&1
  pack rmatb4
fi
if has rmatb4dense && left rmatb4dense; then
  mkdir -p "$out/rmatb4dense"
  for dme in default 256 128; do
    left "rmatb4dense $dme" || break
    step "rmatb4dense $dme" "$(limit 100)" env MAGNUS_BACKENDS=cuda \
      $([ "$dme" != default ] && echo "MAGNUS_DENSE_MIN_ELEMENTS=$dme") "$magnus" bench \
      --rmat-sweep --scales 17-18 --a-per-row 4,8 --b-per-row 4 --seeds 6 \
      --systems gmagnus@cuda:0,cusparse-pool@cuda:0 --runs 5 --time-limit 90 --verify-limit 2e7 \
      --csv "$out/rmatb4dense/dense-$dme.csv" >"$out/rmatb4dense/dense-$dme.log" 2>&1
  done
  pack rmatb4dense
fi
if has spmvbuilds && left spmvbuilds; then
  # SpMV through this build and the one in .carry/base (SPMVBUILDS_BASE), alternately
  step spmvbuilds "$(limit "${SPMVBUILDS_LIMIT_S:-240}")" env SPMV_STEPS=builds \
    SPMV_BUILDS="${SPMVBUILDS_LIST:-base:${SPMVBUILDS_BASE:-.carry/base} new:build-gpu}" \
    SPMV_BUILD_ROUNDS="${SPMVBUILDS_ROUNDS:-2}" OUT="$out/spmvbuilds" bash scripts/spmv_h200.sh
  pack spmvbuilds
fi
if has spmvhot && left spmvhot; then
  step spmvhot "$(limit 300)" env SPMV_CARVEOUT_BENCH="${SPMVHOT_BENCH:-1}" SPMV_STEPS=carveout SPMV_CARVEOUT_KNOB=MAGNUS_SPMV_HOT_BYTES \
    SPMV_CARVEOUTS="${SPMVHOT_SIZES:-unset 32K 64K}" SPMV_CARVEOUT_TYPES="f64 f32" SPMV_RUNS=20 \
    SPMV_CARVEOUT_TIMEOUT_S=40 SPMV_CARVEOUT_NCU_TYPES=f64 OUT="$out/spmvhot" \
    bash scripts/spmv_h200.sh
  pack spmvhot
fi
say "pending_h200: $([ "$failed" -eq 0 ] && echo 'all steps passed' || echo 'a step FAILED') in $SECONDS s"
exit "$failed"

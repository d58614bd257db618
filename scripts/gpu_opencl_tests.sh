#!/usr/bin/env bash
# Runs ON the H200 machine (build-gpu/ and .carry/ from scripts/gpu_bundle.sh): the OpenCL
# device tests (primitives, gMAGNUS with the shared matrices, hash) on NVIDIA's OpenCL alone,
# after printing what the machine's OpenCL set-up is. Written after the run of 2026-11-30 in
# which these Criterion executables saw one OpenCL device where the CLI saw two (PoCL and
# NVIDIA): here OCL_ICD_FILENAMES names NVIDIA's library explicitly, so it is device 0.
# Output: $OUT/opencl-tests.txt (the verdicts and the diagnostics), one line per test.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
log=$out/opencl-tests.txt
: >"$log"
say() { echo "$*" | tee -a "$log"; }
say "== OpenCL set-up: OCL_ICD_FILENAMES='${OCL_ICD_FILENAMES:-}' OCL_ICD_VENDORS='${OCL_ICD_VENDORS:-}'"
say "$(ls -l /etc/OpenCL/vendors/ 2>&1 | tr '\n' ' ')"
for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && say "  $f: $(cat "$f")"; done
nv=${GPU_OPENCL_LIBRARY:-}
for cand in $nv /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
            $(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1 / {print $NF}'); do
  [ -e "$cand" ] && { nv=$cand; break; }
done
say "NVIDIA OpenCL library: ${nv:-not found}"
[ -n "$nv" ] || exit 2
export OCL_ICD_FILENAMES=$nv
export LD_LIBRARY_PATH="$root/build-gpu/runtime:$root/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The tests' shared matrices (compiled-in path) from the carried copy.
shared=$(sed -n 's/^MAGNUS_SHARED_MATRICES:PATH=//p' "$root/build-gpu/CMakeCache.txt")
if [ -n "$shared" ] && [ ! -e "$shared" ] && [ -d "$root/.carry/matrices" ]; then
  mkdir -p "$(dirname "$shared")" && ln -s "$root/.carry/matrices" "$shared"
fi
say "$("$root/build-gpu/tools/magnus" probe 2>&1 | grep -E '^(cuda|opencl):' | tr '\n' ' ')"
failed=0
for t in primitives_opencl spgemm_gmagnus_opencl spgemm_gmagnus_shared_opencl spgemm_hash_opencl; do
  exe=$root/build-gpu/tests/${t%_opencl}  # one executable per test set (tests/CMakeLists.txt)
  exe=${exe/_shared/}
  start=$SECONDS
  extra=(); shared_env=0
  if [ "$t" != "${t/_shared/}" ]; then extra=(--filter 'gmagnus_shared/*'); shared_env=1; fi
  (cd "$root/build-gpu/tests" && MAGNUS_BACKENDS=opencl MAGNUS_DEVICE=opencl:0 MAGNUS_TEST_SHARED=$shared_env \
     MAGNUS_TEST_SHARED_MAX_PRODUCTS=${MAGNUS_TEST_SHARED_MAX_PRODUCTS:-200000000} \
     timeout 120 "$exe" --jobs 1 "${extra[@]}") \
     >"$out/.t.log" 2>&1
  rc=$?
  verdict=ok; [ $rc -eq 77 ] && verdict=skipped; [ $rc -ne 0 ] && [ $rc -ne 77 ] && { verdict="FAILED rc $rc"; failed=1; }
  say "$(printf '%-32s %-12s %4ds  %s' "$t" "$verdict" $((SECONDS - start)) "$(grep -m1 -E 'Synthesis|SKIP' "$out/.t.log")")"
  [ "$verdict" = ok ] || tail -n 8 "$out/.t.log" | sed 's/^/    | /' >>"$log"
done
rm -f "$out/.t.log"
exit $failed

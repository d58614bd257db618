# Sourced (not run) ON the GPU machine by scripts/gpu_env.sh (the test scripts),
# scripts/bench_h200.sh and scripts/perf_h200.sh: one place for finding the libraries the
# carried build needs there. Each function reports one line per choice it makes through the
# command named by GPU_LIBS_SAY (the caller's `say`; default echo).
#
#   gpu_libs_setup BUILD CARRY   unpacks BUILD/test-executables.tar.xz (gpu_bundle.sh packs the
#                test executables) the first time; LD_LIBRARY_PATH gets BUILD/runtime and CARRY/lib
#                in front (it wins over the tools' RUNPATH: after a second call for another build,
#                every tool loads that build's libmagnus; to compare two builds, run each with
#                LD_LIBRARY_PATH=ITS_BUILD/runtime:CARRY/lib, as bench/results/2026-12-03-h200-
#                pool-outer/call4/call4.sh does), and the
#                carried OpenCL ICD loader (CARRY/opencl) when the machine has none.
#                OpenCL runs through NVIDIA's library alone: OCL_ICD_FILENAMES names it, which
#                replaces the machine image's preset 'libpocl.so.2:libnvidia-opencl.so.1'
#                (with the preset the Criterion test processes saw one OpenCL device, not
#                NVIDIA's; an OCL_ICD_VENDORS directory naming both made NVIDIA's device vanish
#                from some processes' probes and PoCL assert at exit; seen 2026-11-30), unless
#                GPU_KEEP_OCL_ICD is set; GPU_OPENCL_ICDS names NVIDIA's and PoCL's libraries
#                together, for the one probe that must list every device.
#   gpu_find_cusparse            MAGNUS_CUSPARSE_LIBRARY (and its directory, plus a Python
#                wheel's lib/ directories for libnvJitLink, on LD_LIBRARY_PATH) when the loader
#                cannot find libcusparse.so.12 or .13 by name: the toolkit's or a wheel's copy.
#   gpu_find_matrices DIR NAME...  the array `inputs` gets DIR/NAME.mtx.gz (else DIR/NAME.mtx)
#                for each NAME found; the missing are left out (the scripts run what is there).
# shellcheck shell=bash

# The loader cache (ldconfig -p), captured: a `| grep -q` on it under pipefail can fail when
# grep exits before ldconfig has written everything.
gpu_ldconfig() { { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null || true; }

# have_lib NAME: the dynamic loader can find NAME (its cache or LD_LIBRARY_PATH).
have_lib() {
  local cache d
  cache=$(gpu_ldconfig)
  grep -qF "$1 " <<<"$cache" && return 0
  IFS=: read -ra dirs <<<"${LD_LIBRARY_PATH:-}"
  for d in "${dirs[@]}"; do [ -n "$d" ] && [ -e "$d/$1" ] && return 0; done
  return 1
}

gpu_libs_setup() {
  local build=$1 carry=$2 use_carried_opencl=0 nv_ocl="" pocl_icd cand
  # the test executables travel packed (scripts/gpu_bundle.sh): unpacked once per archive. The
  # marker holds the archive's checksum, not just its presence: a marker left by a dry run here
  # once travelled beside a rebuilt bundle without its executables, and every test failed (127).
  local sum
  if [ -e "$build/test-executables.tar.xz" ]; then
    sum=$(cksum <"$build/test-executables.tar.xz")
    if [ "$(cat "$build/tests/.unpacked" 2>/dev/null)" != "$sum" ]; then
      xz -dc "$build/test-executables.tar.xz" | tar -C "$build" -xf - &&
        echo "$sum" >"$build/tests/.unpacked" &&
        "${GPU_LIBS_SAY:-echo}" "gpu_libs: test executables unpacked into $build/tests"
    fi
  fi
  have_lib libOpenCL.so.1 || use_carried_opencl=1
  for cand in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
              $(gpu_ldconfig | awk '/libnvidia-opencl\.so\.1 / {print $NF}'); do
    [ -e "$cand" ] && { nv_ocl=$cand; break; }
  done
  pocl_icd=$(head -n 1 /etc/OpenCL/vendors/pocl.icd 2>/dev/null)
  if [ -n "$nv_ocl" ] && [ -z "${GPU_KEEP_OCL_ICD:-}" ]; then
    export OCL_ICD_FILENAMES=$nv_ocl
    export GPU_OPENCL_ICDS=$nv_ocl${pocl_icd:+:$pocl_icd}
    "${GPU_LIBS_SAY:-echo}" "gpu_libs: OpenCL through NVIDIA's library alone: OCL_ICD_FILENAMES=$nv_ocl"
  fi
  export LD_LIBRARY_PATH="$build/runtime:$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if [ $use_carried_opencl -eq 1 ] && [ -e "$carry/opencl/libOpenCL.so.1" ]; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$carry/opencl"
    "${GPU_LIBS_SAY:-echo}" "gpu_libs: no libOpenCL.so.1 here: using the carried OpenCL ICD loader"
  fi
}

gpu_find_cusparse() {
  local cache found="" dirs d v py_nvidia extra
  cache=$(gpu_ldconfig)
  if grep -q 'libcusparse\.so\.1[23] ' <<<"$cache"; then
    "${GPU_LIBS_SAY:-echo}" "gpu_libs: libcusparse from the loader cache: $(grep -m1 'libcusparse\.so\.1[23] ' <<<"$cache")"
    return 0
  fi
  dirs="/usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib"
  for d in /usr/local/cuda-*/lib64 /usr/local/cuda-*/targets/x86_64-linux/lib; do dirs="$dirs $d"; done
  py_nvidia=$(python3 -c 'import nvidia; print(list(nvidia.__path__)[0])' 2>/dev/null)
  [ -n "$py_nvidia" ] && for d in "$py_nvidia"/*/lib; do dirs="$dirs $d"; done
  for d in $dirs; do
    for v in 12 13; do
      if [ -z "$found" ] && [ -e "$d/libcusparse.so.$v" ]; then found=$d/libcusparse.so.$v; fi
    done
  done
  if [ -z "$found" ]; then
    "${GPU_LIBS_SAY:-echo}" "gpu_libs: NO libcusparse found (searched $dirs): the cuSPARSE rows will say unavailable"
    return 1
  fi
  export MAGNUS_CUSPARSE_LIBRARY=$found
  # its libnvJitLink: beside it (toolkit), or in a sibling wheel's lib/
  extra=$(dirname "$found")
  [ -n "$py_nvidia" ] && for d in "$py_nvidia"/*/lib; do extra="$extra:$d"; done
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$extra"
  "${GPU_LIBS_SAY:-echo}" "gpu_libs: libcusparse at $found"
}

# gpu_find_matrices DIR NAME...: sets `inputs` (an array) to the files of the NAMEs found in DIR,
# the compressed copy first.
gpu_find_matrices() {
  local dir=$1 f cand
  shift
  inputs=()
  for f in "$@"; do
    for cand in "$dir/$f.mtx.gz" "$dir/$f.mtx"; do
      if [ -e "$cand" ]; then inputs+=("$cand"); break; fi
    done
  done
}

# Sourced (not run) by gpu_check.sh and gpu_verify.sh ON the GPU machine, from the repository
# root, with build-gpu/ and .carry/ made here by scripts/gpu_bundle.sh. Sets up what the carried
# build needs there and the output conventions both scripts share:
#   root, build, carry, out   the checkout, build-gpu/ and .carry/ ($GPU_BUILD, $GPU_CARRY
#                        to test with others), and $OUT (default ./gpu-out)
#   logs                 per-step logs ($GPU_LOGS, default a fresh temporary directory, exported
#                        so that a nested script writes to the same place); never inside $OUT:
#                        the device tool brings back at most 8 files, so the logs travel as one
#                        $OUT/logs.tar.gz, refreshed by gpu_pack_logs after every step (a run
#                        cut short still brings back the logs of the steps it finished)
#   summary              $OUT/summary.txt; say LINE prints a line and appends it there
#   LD_LIBRARY_PATH      build-gpu/runtime, the carried Criterion (.carry/lib), the carried
#                        OpenCL ICD loader only when the machine has none
#   OCL_ICD_VENDORS      a directory registering NVIDIA's OpenCL library when the driver has it
#                        but /etc/OpenCL/vendors does not name it
#   shared_matrices      the directory the tests were built to read (MAGNUS_SHARED_MATRICES of
#                        build-gpu, i.e. /work/shared/matrices on the build machine): made a
#                        symbolic link to .carry/matrices when absent; empty if neither exists;
#                        also exported as MAGNUS_SHARED_MATRICES, which some tests read
#   the build machine's source path, baked into build-gpu, is linked to this checkout
# shellcheck shell=bash
root=$(pwd)
build=$root/${GPU_BUILD:-build-gpu}
carry=$root/${GPU_CARRY:-.carry}
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
summary=$out/summary.txt
if [ -z "${GPU_LOGS:-}" ]; then GPU_LOGS=$(mktemp -d "${TMPDIR:-/tmp}/magnus-gpu-logs.XXXXXX"); fi
export GPU_LOGS
logs=$GPU_LOGS
mkdir -p "$logs"

say() { echo "$*" | tee -a "$summary"; }

# Packs every log into $out/logs.tar.gz (written aside and renamed, so it is never half done).
gpu_pack_logs() {
  tar -czf "$out/.logs.tar.gz.part" -C "$logs" . 2>/dev/null &&
    mv -f "$out/.logs.tar.gz.part" "$out/logs.tar.gz"
}

# have_lib NAME: the dynamic loader can find NAME (ldconfig's cache or LD_LIBRARY_PATH).
have_lib() {
  { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -qF "$1 " && return 0
  local d
  IFS=: read -ra dirs <<<"${LD_LIBRARY_PATH:-}"
  for d in "${dirs[@]}"; do [ -n "$d" ] && [ -e "$d/$1" ] && return 0; done
  return 1
}

# Runs once per process tree: a nested script inherits the environment.
if [ -z "${MAGNUS_GPU_ENV_DONE:-}" ]; then
  export MAGNUS_GPU_ENV_DONE=1
  # The build tree holds absolute paths of the machine it was built on (ctest files, test data
  # directories): make them resolve here when this checkout lives elsewhere.
  built_src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null)
  if [ -n "$built_src" ] && [ "$built_src" != "$root" ] && [ ! -e "$built_src" ]; then
    if mkdir -p "$(dirname "$built_src")" 2>/dev/null && ln -s "$root" "$built_src" 2>/dev/null; then
      say "gpu_env: linked $built_src -> $root (paths baked into build-gpu)"
    else
      say "gpu_env: cannot link $built_src -> $root; ctest may not find its files"
    fi
  fi

  # OpenCL: the carried ICD loader only if the machine has none. The H200 machine registers
  # no nvidia.icd; seen there (2026-11-30): an OCL_ICD_VENDORS directory naming NVIDIA and PoCL
  # made NVIDIA's device vanish from some processes' probes and PoCL assert at exit, while
  # OCL_ICD_FILENAMES naming NVIDIA's library alone listed it every time. So runs use NVIDIA's
  # OpenCL alone; GPU_OPENCL_ICDS (set here too) names NVIDIA's and PoCL's libraries together
  # for the one probe that must list every device.
  use_carried_opencl=0
  have_lib libOpenCL.so.1 || use_carried_opencl=1
  nv_ocl=""
  for cand in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
              $({ ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | awk '/libnvidia-opencl\.so\.1 / {print $NF}'); do
    [ -e "$cand" ] && { nv_ocl=$cand; break; }
  done
  pocl_icd=$(cat /etc/OpenCL/vendors/pocl.icd 2>/dev/null | head -n 1)
  # The machine's image presets OCL_ICD_FILENAMES='libpocl.so.2:libnvidia-opencl.so.1' (seen
  # 2026-11-30); with it the Criterion test processes saw one OpenCL device, not NVIDIA's, so
  # the preset is replaced unless GPU_KEEP_OCL_ICD is set.
  if [ -n "$nv_ocl" ] && [ -z "${GPU_KEEP_OCL_ICD:-}" ]; then
    export OCL_ICD_FILENAMES=$nv_ocl
    export GPU_OPENCL_ICDS=$nv_ocl${pocl_icd:+:$pocl_icd}
    say "gpu_env: OpenCL through NVIDIA's library alone: OCL_ICD_FILENAMES=$nv_ocl"
  fi
  export LD_LIBRARY_PATH="$build/runtime:$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if [ $use_carried_opencl -eq 1 ] && [ -e "$carry/opencl/libOpenCL.so.1" ]; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$carry/opencl"
    say "gpu_env: no libOpenCL.so.1 here: using the carried OpenCL ICD loader"
  fi

  # The shared matrices, where the tests look for them.
  shared_matrices=$(sed -n 's/^MAGNUS_SHARED_MATRICES:PATH=//p' "$build/CMakeCache.txt" 2>/dev/null)
  if [ -n "$shared_matrices" ] && [ ! -e "$shared_matrices" ] && [ -d "$carry/matrices" ]; then
    if mkdir -p "$(dirname "$shared_matrices")" 2>/dev/null &&
       ln -s "$carry/matrices" "$shared_matrices" 2>/dev/null; then
      say "gpu_env: linked $shared_matrices -> $carry/matrices (the tests' shared matrices)"
    else
      say "gpu_env: cannot link $shared_matrices -> $carry/matrices"
    fi
  fi
  [ -n "$shared_matrices" ] && [ -e "$shared_matrices" ] || shared_matrices=
  export MAGNUS_GPU_SHARED_MATRICES=$shared_matrices
  # Tests that read the directory from the environment (the hash tests) look there too.
  if [ -n "$shared_matrices" ]; then export MAGNUS_SHARED_MATRICES=$shared_matrices
  elif [ -d "$carry/matrices" ]; then export MAGNUS_SHARED_MATRICES=$carry/matrices; fi
else
  shared_matrices=${MAGNUS_GPU_SHARED_MATRICES:-}
fi

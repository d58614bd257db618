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

# The library set-up shared with the bench scripts (have_lib, gpu_libs_setup).
# shellcheck source=scripts/gpu_libs.sh
. "$root/scripts/gpu_libs.sh"

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

  # Carried libraries and NVIDIA's OpenCL alone (scripts/gpu_libs.sh says why).
  GPU_LIBS_SAY=say gpu_libs_setup "$build" "$carry"
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

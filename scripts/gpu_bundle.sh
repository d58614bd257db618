#!/usr/bin/env bash
# Prepares, on this (Debian 12, no GPU) machine, what scripts/gpu_check.sh needs on the GPU
# machine, which has no compiler toolchain for magnus, no Criterion and no internet:
#   build-gpu/      a Release build (library, tools, test executables, ctest files), with the
#                   CUDA kernels embedded by nvcc; object files and archives are removed to keep
#                   it small (rebuild from scratch here after bundling).
#   .carry/lib/     libcriterion.so.3 and every library it needs that is not part of glibc
#   .carry/opencl/  the OpenCL ICD loader (libOpenCL.so.1), used there only if it has none
# Both paths are git-ignored; the device tool carries them with the working tree:
#   run(command="bash scripts/gpu_check.sh", carry=["build-gpu", ".carry"])
# Usage: scripts/gpu_bundle.sh [extra CMake options]   (e.g. -DMAGNUS_CUDA_ARCHITECTURES="80;90")
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build="build-gpu"
jobs=${JOBS:-2}

command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
  { echo "gpu_bundle: nvcc not found: the CUDA kernels would be missing" >&2; exit 1; }

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMAGNUS_BUILD_TESTS=ON -DMAGNUS_BUILD_TOOLS=ON \
      -DMAGNUS_CUDA_KERNELS=ON "$@" >/dev/null
cmake --build "$build" -j"$jobs"
grep -q "^MAGNUS_CUDA_KERNELS:BOOL=ON" "$build/CMakeCache.txt" ||
  { echo "gpu_bundle: CUDA kernels are not enabled in $build" >&2; exit 1; }

# Criterion and its dependencies, minus glibc's own libraries (the GPU machine's glibc is
# newer and must be the one used) and libraries every Linux has.
rm -rf .carry/lib .carry/opencl
mkdir -p .carry/lib .carry/opencl
probe_exe=$(find "$build/tests" -maxdepth 1 -type f -perm -u+x -name 'test_*' | head -n 1)
[ -n "$probe_exe" ] || { echo "gpu_bundle: no test executable in $build/tests" >&2; exit 1; }
ldd "$probe_exe" | awk '/=> \// {print $1, $3}' | while read -r name path; do
  case "$name" in
    linux-vdso*|ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libresolv.so*|\
    libmagnus.so*|libz.so*|libgcc_s.so*) continue ;;
  esac
  cp -L "$path" ".carry/lib/$name"
done
[ -e .carry/lib/libcriterion.so.3 ] || { echo "gpu_bundle: libcriterion.so.3 not found by ldd" >&2; exit 1; }
ocl=$(ldconfig -p | awk '/libOpenCL\.so\.1 .*x86-64/ {print $NF; exit}')
[ -n "$ocl" ] && cp -L "$ocl" .carry/opencl/libOpenCL.so.1

# Keep only what runs: objects and static archives are not needed there.
find "$build" \( -name '*.o' -o -name '*.a' -o -name 'embed_*.c' \) -type f -delete

size_kib=$(du -sk "$build" .carry | awk '{s += $1} END {print s}')
echo "gpu_bundle: $build and .carry ready: $((size_kib / 1024)) MiB (the carry limit is 64 MiB)"
ls .carry/lib
[ "$size_kib" -lt $((60 * 1024)) ] || { echo "gpu_bundle: too big to carry" >&2; exit 1; }
echo 'gpu_bundle: on the GPU machine: run(command="bash scripts/gpu_check.sh", carry=["build-gpu", ".carry"])'

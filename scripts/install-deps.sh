#!/usr/bin/env bash
# Installs, from Debian's packages only, everything magnus needs to build and test on a
# machine without a GPU. Idempotent: packages already present are left as they are.
set -euo pipefail
PKGS=(
  build-essential cmake pkg-config zlib1g-dev
  libcriterion-dev
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers clinfo pocl-opencl-icd
  libze1 libze-dev
  clang-14 llvm-14 llvm-spirv-14 spirv-tools libclang-rt-14-dev
  valgrind python3 python3-matplotlib
  python3-numpy python3-scipy python3-pytest python3-venv python3-setuptools python3-wheel
)
missing=()
for p in "${PKGS[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi

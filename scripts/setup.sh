#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine: install packages (Debian's only), configure
# and build magnus into ./build. Idempotent; pass extra CMake options as arguments.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
bash scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j"$jobs"
echo "setup: built into $here/build"

#!/usr/bin/env bash
# Builds the Matrix Market fuzzer with clang-14 (libFuzzer + ASan + UBSan) and runs it.
#
#   tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS [more libFuzzer options...]
#
# The run starts from the committed corpus (tests/fuzz/corpus/mm_read) and freshly generated
# seeds; new inputs go to BUILD_DIR/fuzz-work/mm_read, crashes to BUILD_DIR/fuzz-artifacts/.
# Exits non-zero if libFuzzer found a crash, leak, hang or oracle violation. To grow the
# committed corpus afterwards (minimised):
#   BUILD_DIR/tests/fuzz_mm_read -merge=1 tests/fuzz/corpus/mm_read BUILD_DIR/fuzz-work/mm_read
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0"
  exit 2
fi
build=$1
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${MAGNUS_FUZZ_CC:-clang-14}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=$cc cmake -S "$root" -B "$build" -DMAGNUS_FUZZ=ON -DMAGNUS_SANITIZE=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target fuzz_mm_read -j2
mkdir -p "$build/fuzz-work/mm_read" "$build/fuzz-seeds/mm_read" "$build/fuzz-artifacts"
python3 "$here/make_seeds.py" "$build/fuzz-seeds/mm_read" "$root/../shared/matrices"
# Leaks are errors (libFuzzer checks each input that allocates more than it frees).
"$build/tests/fuzz_mm_read" -dict="$here/mm.dict" -max_len=4096 -timeout=10 \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/" \
  "$@" "$build/fuzz-work/mm_read" "$here/corpus/mm_read" "$build/fuzz-seeds/mm_read"

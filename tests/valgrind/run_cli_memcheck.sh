#!/usr/bin/env bash
# The magnus CLI under valgrind memcheck: no invalid access, no uninitialised use and no
# definite or indirect leak on a verified multiply (CPU reference and, where an OpenCL device
# exists, PoCL), on a failing read of a malformed file, and on a multiply refused for lack of
# device memory (MAGNUS_DEVICE_MEMORY_LIMIT); the verified PoCL multiply only on request
# (MAGNUS_VALGRIND_OPENCL_MULTIPLY=1: it takes most of an hour under valgrind).
#
#   tests/valgrind/run_cli_memcheck.sh PATH/TO/magnus [WORK_DIR]
#
# Use a build without sanitizers (valgrind and ASan do not mix), e.g. the README's build/.
# Valgrind's own verdict is its exit status 99 (--error-exitcode), kept apart from the CLI's
# exit status, which each case checks as well (1 for the expected errors).
# tests/valgrind/pocl.supp silences reports made inside PoCL, the OpenCL ICD loader, LLVM or
# the dynamic loader working for them; nothing allocated or read by magnus code is suppressed.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  sed -n '2,14p' "$0"
  exit 2
fi
magnus=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
export MAGNUS_CACHE_DIR=${MAGNUS_CACHE_DIR:-$work/kernel-cache}
vg=(valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect
    --show-leak-kinds=definite,indirect --error-exitcode=99 --num-callers=40
    --suppressions="$here/pocl.supp" --gen-suppressions=all)
passed=0
failed=0

# run NAME EXPECTED_EXIT [ENV=VALUE...] -- ARGS...
run() {
  local name=$1 expected=$2
  shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local log="$work/$name.log"
  env "${envs[@]}" "${vg[@]}" --log-file="$log.vg" "$magnus" "$@" >"$log" 2>&1
  local rc=$?
  if [ $rc -eq 99 ]; then
    echo "FAIL $name: valgrind found errors (see $log.vg):"
    grep -E "^==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|Source|[0-9,]+ bytes in)" "$log.vg" | head -20
    failed=$((failed + 1))
  elif [ $rc -ne "$expected" ]; then
    echo "FAIL $name: exit status $rc, expected $expected"
    tail -5 "$log"
    failed=$((failed + 1))
  else
    echo "ok   $name ($(grep -c . "$log") lines of output, $(grep -oE 'ERROR SUMMARY: [0-9]+' "$log.vg"))"
    passed=$((passed + 1))
  fi
}

printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n2 x 2\n' >"$work/malformed.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1.5\n2 1 2\n3 3 -1\n' >"$work/short.mtx"
printf '%%%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n1 1 2\n2 1 -1\n3 2 -1\n4 4 2\n' >"$work/small.mtx"
gzip -c "$work/small.mtx" >"$work/small.mtx.gz"
head -c 40 "$work/small.mtx.gz" >"$work/cut.mtx.gz"

run cpu_multiply_verify 0 -- multiply rmat:7:4 --cpu --verify
run cpu_file_multiply_write 0 -- multiply "$work/small.mtx.gz" --cpu --type f64 -o "$work/c.mtx.gz"
run info_file 0 -- info "$work/small.mtx"
run gen_write_gzip 0 -- gen laplace2d 6 5 -o "$work/lap.mtx.gz"
run malformed_file 1 -- multiply "$work/malformed.mtx" --cpu
run too_few_entries 1 -- info "$work/short.mtx"
run truncated_gzip 1 -- info "$work/cut.mtx.gz"
run missing_file 1 -- multiply "$work/does-not-exist.mtx" --cpu
run bad_usage 2 -- multiply --no-such-option

# OpenCL (PoCL on CI): probing and a multiply refused for lack of device memory (the limit is
# so small that the first buffer fails, before any kernel is built: PoCL compiles kernels with
# LLVM, which under valgrind takes a quarter of an hour per program). The verified device
# multiplies are opt-in: MAGNUS_VALGRIND_OPENCL_MULTIPLY=1.
probe_out=$("$magnus" probe 2>/dev/null || true) # captured: `| grep -q` races under pipefail
if grep -q '^opencl:' <<<"$probe_out"; then
  run opencl_probe 0 -- probe
  run opencl_out_of_device_memory 1 MAGNUS_DEVICE_MEMORY_LIMIT=16 -- \
    multiply rmat:7:4 --backend opencl
  if [ "${MAGNUS_VALGRIND_OPENCL_MULTIPLY:-0}" = 1 ]; then
    run opencl_multiply_verify 0 -- multiply rmat:6:4 --backend opencl --verify
    run opencl_hash_multiply_verify 0 -- multiply rmat:6:4 --backend opencl --verify --algorithm hash
  fi
else
  echo "skip opencl cases: no OpenCL device"
fi

echo "valgrind memcheck: $passed passed, $failed failed"
[ $failed -eq 0 ]

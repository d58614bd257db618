#!/usr/bin/env bash
# CI's switches (tests/util/require_test_util.h, tests/util/require.sh) do what .ci/run relies
# on: a device test set without its device skips (77), but fails (1) when MAGNUS_REQUIRE_DEVICE
# lists the entry's backend, and only then; the shared-matrix test skips a missing directory or
# file, but fails with MAGNUS_REQUIRE_SHARED_MATRICES=1; the shell helpers the same.
#   test_require_switches.sh SPGEMM_GMAGNUS_EXE WORK_DIR SOURCE_DIR
set -u
exe=$1 work=$2 src=$3
mkdir -p "$work"
failures=0 checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# run WANT_RC VAR=VALUE... -- ARGS: the executable with exactly these switches (the shell's own,
# CI's among them, removed), its output in $work/out
run() {
    local want=$1
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env -u MAGNUS_REQUIRE_DEVICE -u MAGNUS_REQUIRE_SHARED_MATRICES -u MAGNUS_DEVICE \
        -u MAGNUS_SHARED_MATRICES -u MAGNUS_TEST_SHARED "${envs[@]}" "$exe" --jobs 1 "$@" \
        >"$work/out" 2>&1
    local rc=$?
    checks=$((checks + 1))
    [ "$rc" = "$want" ] || { fail "${envs[*]} $*: exit $rc, want $want"; sed 's/^/    /' "$work/out"; }
}

# ---- devices: an OpenCL device that does not exist ----------------------------------------
none=(MAGNUS_BACKENDS=opencl MAGNUS_DEVICE=opencl:no-such-device-anywhere
      MAGNUS_TEST_ENTRY_BACKEND=opencl)
run 77 "${none[@]}" --
run 1 "${none[@]}" MAGNUS_REQUIRE_DEVICE=opencl --
grep -q "MAGNUS_REQUIRE_DEVICE=opencl requires a device for opencl" "$work/out" ||
    fail "no message naming the switch"
run 1 "${none[@]}" "MAGNUS_REQUIRE_DEVICE=level0_fake, opencl" --
run 77 "${none[@]}" MAGNUS_REQUIRE_DEVICE=level0_fake,opencl_spir --  # another backend's

# ---- the shared matrices (needs a device: skipped without one, as the test it checks) --------
if ! env -u MAGNUS_REQUIRE_DEVICE MAGNUS_BACKENDS=opencl "$exe" --jobs 1 --filter 'none/*' \
        >/dev/null 2>&1; then
    echo "SKIP: no OpenCL device for the shared-matrix checks ($checks checks, $failures failures)"
    [ "$failures" -eq 0 ] || exit 1
    exit 77
fi
shared=(MAGNUS_BACKENDS=opencl MAGNUS_TEST_SHARED=1)
filter=(--filter 'gmagnus_shared/every_matrix_at_4k' --verbose) # --verbose: skip messages
run 0 "${shared[@]}" MAGNUS_SHARED_MATRICES="$work/no-such-dir" -- "${filter[@]}"
grep -q "no shared matrices" "$work/out" || fail "no skip message for a missing directory"
run 1 "${shared[@]}" MAGNUS_SHARED_MATRICES="$work/no-such-dir" MAGNUS_REQUIRE_SHARED_MATRICES=1 \
    -- "${filter[@]}"
grep -q "MAGNUS_REQUIRE_SHARED_MATRICES=1: this test may not skip" "$work/out" ||
    fail "no message naming the switch"
# a directory whose INDEX.tsv lists a file that is not there
mkdir -p "$work/partial"
printf 'name\tfile\tnnz_AxA\ngone\tgone.mtx\t1\n' >"$work/partial/INDEX.tsv"
run 0 "${shared[@]}" MAGNUS_SHARED_MATRICES="$work/partial" -- "${filter[@]}"
grep -q "1 matrices of INDEX.tsv missing" "$work/out" || fail "no skip message for a missing file"
run 1 "${shared[@]}" MAGNUS_SHARED_MATRICES="$work/partial" MAGNUS_REQUIRE_SHARED_MATRICES=1 \
    -- "${filter[@]}"

# ---- the shell helpers ----------------------------------------------------------------------
sh_run() { # WANT_RC SCRIPT [VAR=VALUE...]
    local want=$1 script=$2 rc
    shift 2
    env -u MAGNUS_REQUIRE_DEVICE -u MAGNUS_REQUIRE_SHARED_MATRICES "$@" \
        bash -c ". '$src/tests/util/require.sh'; $script" >"$work/out" 2>&1
    rc=$?
    checks=$((checks + 1))
    [ "$rc" = "$want" ] || fail "require.sh: '$script' $*: exit $rc, want $want"
}
sh_run 77 'skip_no_device opencl "no device"'
sh_run 1 'skip_no_device opencl "no device"' MAGNUS_REQUIRE_DEVICE=level0_fake,opencl
sh_run 77 'skip_no_device opencl "no device"' MAGNUS_REQUIRE_DEVICE=opencl_spir
sh_run 0 "require_shared '$work/no-such-dir'; exit 0"
sh_run 1 "require_shared '$work/no-such-dir'; exit 0" MAGNUS_REQUIRE_SHARED_MATRICES=1
sh_run 1 "require_shared '$work/partial' gone.mtx.gz; exit 0" MAGNUS_REQUIRE_SHARED_MATRICES=1
sh_run 0 "require_shared '$work/partial'; exit 0" MAGNUS_REQUIRE_SHARED_MATRICES=1

echo "require switches: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

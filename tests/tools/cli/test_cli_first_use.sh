#!/usr/bin/env bash
# First use of a device (issue 14, item 7): with empty kernel caches (magnus's and PoCL's), one
# note on stderr says that kernels are being built and where they are cached; the build, the
# first launch of every kernel and one untimed run of the product are 'ready in', not compute
# time, so the first run's compute time is close to a warm run's; a warm run builds nothing and
# says nothing. Scale 14 (the demo's): its grids exceed 65535 work items, past which PoCL compiles
# each kernel again at its first launch (work-group functions specialised for small grids):
# without the untimed first run the cold compute took 3.05 s against 0.57 s warm. Skips (77)
# without a device.
# Usage: test_cli_first_use.sh MAGNUS_BINARY WORK_DIR
set -u
magnus=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

device_selected || skip_no_device opencl "no device"
caches=(MAGNUS_CACHE_DIR="$work/magnus-cache" POCL_CACHE_DIR="$work/pocl-cache")

# cold: both caches empty
expect 0 env "${caches[@]}" "$magnus" demo --scale 14 --json
valid_json
contains err "note: building the float32 kernels for "
contains err "(first use; cached in $work/magnus-cache)"
checks=$((checks + 1))
n=$(grep -c "building the" "$work/err")
[ "$n" -eq 1 ] || fail "cold run: $n build notes, expected one"
same "cold: first_use" "$(json first_use)" true
same "cold: verified" "$(json verified)" true
cold=$(json compute_seconds)
cold_setup=$(json setup_seconds)

# warm: the same caches
expect 0 env "${caches[@]}" "$magnus" demo --scale 14 --json
valid_json
checks=$((checks + 1))
! grep -q "building the" "$work/err" || fail "warm run: a build note: $(cat "$work/err")"
same "warm: first_use" "$(json first_use)" false
same "warm: verified" "$(json verified)" true
warm=$(json compute_seconds)
holds "warm: set-up shorter than the cold one's ($cold_setup s)" "d['setup_seconds'] < $cold_setup"

# the time bound: first-use work is outside the cold run's compute time
checks=$((checks + 1))
python3 -c "import sys; c, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if c <= 2 * w + 0.25 else 1)" \
    "$cold" "$warm" || fail "cold compute $cold s against warm $warm s: first-use work was timed"

# the text report says so too
expect 0 env MAGNUS_CACHE_DIR="$work/magnus-cache-2" "$magnus" demo --scale 8
contains out "(first use: kernels built, the product computed once untimed)"

# a kernel cache that cannot be written is a warning, not an error (issue 33, item 9): the
# kernels are built (quickly: PoCL's own cache is warm from the cold run), the product verified
touch "$work/not-a-directory"
expect 0 env MAGNUS_CACHE_DIR="$work/not-a-directory" POCL_CACHE_DIR="$work/pocl-cache" \
    "$magnus" demo --scale 8
contains err "magnus demo: warning: the kernel cache $work/not-a-directory cannot be written (Not a directory)"
contains err "(first use; not cached)"
contains out "verified: yes"
checks=$((checks + 1))
! grep -q "cached in $work/not-a-directory" "$work/err" || fail "the notice says 'cached in' a file"

echo "cli_first_use: $checks checks, $failures failures (cold compute $cold s, warm $warm s)"
[ "$failures" -eq 0 ]

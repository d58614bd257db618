# shellcheck shell=bash
# CI's switches that turn a shell test's "skipped" into "failed" (the shell side of
# tests/util/require_test_util.h; .ci/run sets both):
#   MAGNUS_REQUIRE_DEVICE=LIST          backends (opencl, level0_fake, ...) that must have a
#                                       device
#   MAGNUS_REQUIRE_SHARED_MATRICES=1    the shared matrices must be there
# Source it, then:
#   skip_no_device BACKEND MESSAGE...   exit 77 with MESSAGE (skipped), or 1 where BACKEND is
#                                       required (a test of "any device" names opencl: on CI's
#                                       machine that is PoCL)
#   require_shared DIR [FILE...]        exit 1 when the switch is set and DIR/INDEX.tsv or a
#                                       FILE there is missing (else the caller's own checks
#                                       skip as before)

skip_no_device() {
    local backend=$1 b
    shift
    for b in ${MAGNUS_REQUIRE_DEVICE//,/ }; do
        if [ "$b" = "$backend" ]; then
            echo "FAIL: $* (MAGNUS_REQUIRE_DEVICE=$MAGNUS_REQUIRE_DEVICE requires a device" \
                "for $backend: this test may not skip)" >&2
            exit 1
        fi
    done
    echo "SKIP: $*"
    exit 77
}

require_shared() {
    local dir=$1 f
    shift
    [ "${MAGNUS_REQUIRE_SHARED_MATRICES:-0}" != 0 ] || return 0
    for f in INDEX.tsv "$@"; do
        if [ ! -f "$dir/$f" ]; then
            echo "FAIL: MAGNUS_REQUIRE_SHARED_MATRICES=1 but $dir/$f is missing" >&2
            exit 1
        fi
    done
}

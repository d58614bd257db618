/*
 * magnus_device_copy_bandwidth (runtime/device/copy_bandwidth.c), the ceiling `magnus bench` divides
 * its kernels' byte floors by: argument checks, that it allocates exactly the two buffers it
 * documents and frees them, and that a device-memory limit makes it fail cleanly. One
 * executable per backend (tests/tools/bench/bench.cmake); no timing is asserted beyond "a positive,
 * finite rate".
 */
#include <math.h>

#include "device_test_main.h"

Test(copy_bandwidth, rejects_bad_arguments) {
    magnus_context ctx = magnus_test_context();
    double gbps = -1;
    cr_expect_eq(magnus_device_copy_bandwidth(NULL, ctx, 1 << 20, 3), MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(magnus_device_copy_bandwidth(&gbps, NULL, 1 << 20, 3), MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(gbps, 0, "the output is cleared on failure");
    gbps = -1;
    cr_expect_eq(magnus_device_copy_bandwidth(&gbps, ctx, 4095, 3), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(gbps, 0);
    cr_expect_eq(magnus_device_copy_bandwidth(&gbps, ctx, 1 << 20, 0), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(magnus_device_copy_bandwidth(&gbps, ctx, 1 << 20, 1001),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_expect_str_neq(magnus_last_error(), "", "a detail message names the problem");
    cr_expect_eq(ctx->memory_in_use, 0, "nothing allocated by a refused call");
}

Test(copy_bandwidth, measures_with_two_buffers_and_frees_them) {
    magnus_context ctx = magnus_test_context();
    uint64_t in_use = ctx->memory_in_use;
    magnus_context_reset_peak(ctx);
    const uint64_t bytes = (1u << 20) + 5; /* rounded down to whole 8-byte words */
    double gbps = 0;
    magnus_status s = magnus_device_copy_bandwidth(&gbps, ctx, bytes, 3);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s: %s", magnus_status_string(s), magnus_last_error());
    cr_expect(gbps > 0 && isfinite(gbps), "rate %g GB/s", gbps);
    cr_expect_eq(ctx->memory_in_use, in_use, "both buffers freed");
    cr_expect_eq(ctx->memory_peak - in_use, 2 * (bytes & ~(uint64_t)7),
                 "a source and a destination of the rounded size (peak %llu)",
                 (unsigned long long)ctx->memory_peak);
}

Test(copy_bandwidth, fails_cleanly_beyond_the_memory_limit) {
    magnus_context_options opt;
    magnus_context_options_init(&opt);
    opt.device_memory_limit = 1u << 20; /* one buffer fits, the second does not */
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_create(&ctx, NULL, &opt);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
    double gbps = -1;
    cr_expect_eq(magnus_device_copy_bandwidth(&gbps, ctx, 1u << 20, 3),
                 MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    cr_expect_eq(gbps, 0);
    cr_expect_eq(ctx->memory_in_use, 0, "the first buffer is freed again");
    magnus_context_free(&ctx);
}

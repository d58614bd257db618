/*
 * The helpers of the test_probe executable's files (tests/device/device.cmake): the first
 * device of the probe (or skip the test), a context on it with a given local-memory budget
 * and device-memory limit, and a buffer with queued work on it.
 */
#ifndef MAGNUS_TESTS_DEVICE_PROBE_TEST_UTIL_H
#define MAGNUS_TESTS_DEVICE_PROBE_TEST_UTIL_H

#include <criterion/criterion.h>

#include "device_runtime.h"
#include "status_test_util.h"

/* The first device of the probe, or skip the test. */
static inline magnus_device_info need_device(void) {
    magnus_device_info d;
    magnus_status s = magnus_device_select(&d);
    if (s == MAGNUS_ERROR_NO_DEVICE) cr_skip_test("no device: %s", magnus_probe_diagnostics());
    ASSERT_OK(s);
    return d;
}

static inline magnus_context new_context(const magnus_device_info *d, uint64_t local,
                                         uint64_t limit) {
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = local;
    opt.device_memory_limit = limit;
    magnus_context ctx;
    ASSERT_OK(magnus_context_create(&ctx, d, &opt));
    return ctx;
}

/* A buffer of `bytes` with a fill queued on HEAVY (work that reads and writes it), so that
 * freeing it happens while queued work may still run. */
static inline magnus_dbuf busy_buffer(magnus_context ctx, size_t bytes) {
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, bytes, &b));
    uint32_t pattern = 0x5a5a5a5a;
    ASSERT_OK(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_HEAVY, &b, 0, &pattern, 4, bytes & ~(size_t)3));
    return b;
}

#endif

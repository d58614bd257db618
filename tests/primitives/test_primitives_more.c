/*
 * Device primitives against host computations (test_primitives.c has scan, partition and
 * histogram): fill, long segments, gather, queues, sizes past 2^31 elements and the kernel
 * modules. Same seed and messages as there.
 */
#include <stdarg.h>
#include <string.h>

#include "primitives_test_util.h"

/* ---- fill and gather -------------------------------------------------------------------- */

Test(fill, u32_u64_offsets) {
    magnus_context ctx = magnus_test_context();
    enum { N = 300007 };
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)N * 8, &b));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, 0, N, 0x0123456789abcdefULL));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, 1000, 5, (uint64_t)1 << 40));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, N - 1, 1, 42));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, N, 0, 42)); /* empty at the end: fine */
    uint64_t *h = download(ctx, &b, (size_t)N * 8);
    for (uint64_t i = 0; i < N; i++) {
        uint64_t want = i == N - 1 ? 42 : (i >= 1000 && i < 1005) ? (uint64_t)1 << 40
                                                                 : 0x0123456789abcdefULL;
        if (h[i] != want) cr_assert_fail("fill_u64 [%llu] = %llx", (unsigned long long)i,
                                         (unsigned long long)h[i]);
    }
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, 3, 2 * N - 3, 0xfeedf00d));
    uint32_t *w = download(ctx, &b, (size_t)N * 8);
    for (uint64_t i = 3; i < 2 * (uint64_t)N; i++)
        if (w[i] != 0xfeedf00d) cr_assert_fail("fill_u32 [%llu]", (unsigned long long)i);
    cr_assert_eq(magnus_prim_fill_u32(ctx, Q, &b, 4, 2 * N - 3, 0), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_prim_fill_u64(ctx, Q, &b, UINT64_MAX, 2, 0),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    free(h);
    free(w);
    magnus_dbuf_free(ctx, &b);
}

/* Long segments of a random row pointer (lengths up to 2^33: 64-bit sums), against a host
 * count, for several group counts (the host adds the groups' pairs). */
static void check_long_segments(magnus_context ctx, uint64_t n, uint64_t threshold,
                                uint64_t seed) {
    uint64_t *ptr = xmalloc((n + 1) * 8), count = 0, length = 0;
    magnus_prng r;
    magnus_prng_seed(&r, seed);
    ptr[0] = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = magnus_prng_next(&r), d = x % 4 == 0 ? (x >> 8) % ((uint64_t)1 << 33)
                                                          : (x >> 8) % (2 * threshold + 2);
        ptr[i + 1] = ptr[i] + d;
        if (d > threshold) {
            count++;
            length += d;
        }
    }
    magnus_dbuf b = upload(ctx, ptr, (n + 1) * 8);
    magnus_long_segments got;
    ASSERT_OK(magnus_prim_long_segments(ctx, Q, &b, n, threshold, &got));
    cr_assert(got.count == count && got.length == length,
              "long segments of %llu (threshold %llu, seed %llu): %llu / %llu, host %llu / %llu",
              (unsigned long long)n, (unsigned long long)threshold, (unsigned long long)seed,
              (unsigned long long)got.count, (unsigned long long)got.length,
              (unsigned long long)count, (unsigned long long)length);
    magnus_dbuf_free(ctx, &b);
    free(ptr);
}

Test(long_segments, counts_and_lengths) {
    magnus_context ctx = magnus_test_context();
    uint64_t ns[] = {0, 1, 255, 4097, 300007};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        check_long_segments(ctx, ns[i], 0, SEED + i);
        check_long_segments(ctx, ns[i], 6144, SEED + 10 + i);
    }
    size_t caps[] = {1, 3};
    for (size_t i = 0; i < 2; i++) {
        magnus_prim_set_max_groups(caps[i]);
        check_long_segments(ctx, 100003, 100, SEED + 20 + i);
    }
    magnus_prim_set_max_groups(0);
    magnus_dbuf small;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 16, &small));
    magnus_long_segments got;
    cr_assert_eq(magnus_prim_long_segments(ctx, Q, &small, 2, 0, &got),
                 MAGNUS_ERROR_INVALID_ARGUMENT); /* 3 offsets do not fit 16 bytes */
    magnus_dbuf_free(ctx, &small);
}

static void check_gather(magnus_context ctx, size_t size, int values, uint64_t n,
                         uint64_t in_count, uint64_t seed) {
    magnus_prng g;
    magnus_prng_seed(&g, seed ^ n);
    unsigned char *in = xmalloc(in_count * size);
    uint32_t *idx = xmalloc(n * 4);
    for (uint64_t i = 0; i < in_count * size; i++) in[i] = (unsigned char)magnus_prng_next(&g);
    for (uint64_t i = 0; i < n; i++) /* 1 in 64 out of range */
        idx[i] = (uint32_t)magnus_prng_below(&g, in_count + in_count / 64 + 1);
    magnus_dbuf din = upload(ctx, in, in_count * size), didx = upload(ctx, idx, n * 4), dout;
    ASSERT_OK(magnus_dbuf_alloc(ctx, n * size, &dout));
    if (values)
        ASSERT_OK(magnus_prim_gather_values(ctx, Q, size == 8 ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32,
                                            &dout, &din, in_count, &didx, n));
    else if (size == 8) ASSERT_OK(magnus_prim_gather_u64(ctx, Q, &dout, &din, in_count, &didx, n));
    else ASSERT_OK(magnus_prim_gather_u32(ctx, Q, &dout, &din, in_count, &didx, n));
    unsigned char *out = download(ctx, &dout, n * size);
    unsigned char zero[8] = {0};
    for (uint64_t i = 0; i < n; i++) {
        const void *want = idx[i] < in_count ? in + (size_t)idx[i] * size : zero;
        if (memcmp(out + i * size, want, size) != 0)
            cr_assert_fail("gather size %zu n=%llu seed=%llu: out[%llu] wrong (idx %u of %llu)",
                           size, (unsigned long long)n, (unsigned long long)seed,
                           (unsigned long long)i, idx[i], (unsigned long long)in_count);
    }
    free(in);
    free(idx);
    free(out);
    magnus_dbuf_free(ctx, &din);
    magnus_dbuf_free(ctx, &didx);
    magnus_dbuf_free(ctx, &dout);
}

Test(gather, u32_u64_values) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[] = {0, 1, 257, 100003};
    for (size_t i = 0; i < 4; i++) {
        check_gather(ctx, 4, 0, n[i], 5000, SEED);
        check_gather(ctx, 8, 0, n[i], 5000, SEED);
        check_gather(ctx, 4, 1, n[i], 77, SEED + 1);
        check_gather(ctx, 8, 1, n[i], 77, SEED + 1);
    }
    check_gather(ctx, 8, 0, 1000, 0, SEED + 2); /* empty source: all zeros */
    magnus_dbuf a;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 64, &a));
    cr_assert_eq(magnus_prim_gather_values(ctx, Q, (magnus_value_type)9, &a, &a, 1, &a, 1),
                 MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_eq(magnus_prim_gather_u32(ctx, Q, &a, &a, 4, &a, 4), MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_dbuf_free(ctx, &a);
}

/* ---- queues ----------------------------------------------------------------------------- */

/* b = 0, step, 2·step, ... (n entries: a fill, then its exclusive scan), queued on q. */
static void queue_ramp(magnus_context ctx, magnus_queue_id q, magnus_dbuf *b, uint64_t n,
                       uint64_t step) {
    ASSERT_OK(magnus_prim_fill_u64(ctx, q, b, 0, n, step));
    ASSERT_OK(magnus_prim_scan_u64(ctx, q, b, b, n, NULL));
}

/* Read through queue q, b's last entry is the ramp's: (n - 1)·step. */
static void expect_ramp_end(magnus_context ctx, magnus_queue_id q, const magnus_dbuf *b,
                            uint64_t n, uint64_t step) {
    uint64_t last = 0;
    ASSERT_OK(magnus_dbuf_read(ctx, q, &last, b, (size_t)(n - 1) * 8, 8));
    cr_assert_eq(last, step * (n - 1), "read through queue %d", (int)q);
}

/* Work on HEAVY, then LIGHT reads it after magnus_queue_depend; timers around it. */
Test(queues, depend_and_timer) {
    magnus_context ctx = magnus_test_context();
    enum { N = 1 << 20 };
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)N * 8, &b));
    magnus_timer t = {0};
    ASSERT_OK(magnus_timer_start(ctx, MAGNUS_QUEUE_HEAVY, &t));
    queue_ramp(ctx, MAGNUS_QUEUE_HEAVY, &b, N, 3);
    ASSERT_OK(magnus_timer_stop(ctx, MAGNUS_QUEUE_HEAVY, &t));
    ASSERT_OK(magnus_queue_depend(ctx, MAGNUS_QUEUE_LIGHT, MAGNUS_QUEUE_HEAVY));
    expect_ramp_end(ctx, MAGNUS_QUEUE_LIGHT, &b, N, 3);
    double ms = -1;
    ASSERT_OK(magnus_timer_elapsed_ms(ctx, &t, &ms));
    cr_assert_geq(ms, 0.0);
    cr_assert_null(t.start);
    ASSERT_OK(magnus_context_finish(ctx));
    magnus_dbuf_free(ctx, &b);
}

/* magnus_queue_fork: two queues wait for MAIN's work through one event; both read what it
 * wrote. A waiter that is the signaller, or both waiters the same queue, are fine; a queue out
 * of range is refused. */
Test(queues, fork_two_waiters_one_event) {
    magnus_context ctx = magnus_test_context();
    enum { N = 1 << 18 };
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)N * 8, &b));
    queue_ramp(ctx, MAGNUS_QUEUE_MAIN, &b, N, 5);
    ASSERT_OK(magnus_queue_fork(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_HEAVY, MAGNUS_QUEUE_LIGHT));
    expect_ramp_end(ctx, MAGNUS_QUEUE_HEAVY, &b, N, 5);
    expect_ramp_end(ctx, MAGNUS_QUEUE_LIGHT, &b, N, 5);
    ASSERT_OK(magnus_queue_fork(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_LIGHT));
    ASSERT_OK(magnus_queue_fork(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_HEAVY, MAGNUS_QUEUE_HEAVY));
    ASSERT_OK(magnus_queue_fork(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_MAIN));
    cr_assert_eq(magnus_queue_fork(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_COUNT, MAGNUS_QUEUE_LIGHT),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    ASSERT_OK(magnus_context_finish(ctx));
    magnus_dbuf_free(ctx, &b);
}

/* ---- beyond 2^31 elements (MAGNUS_TEST_LARGE=1; about 16 GiB of device memory) ----------- */

/* Checks v[i] == i * step at the ends and around the 2^31 and 2^32 element boundaries. */
static void check_ramp(magnus_context ctx, const magnus_dbuf *b, size_t size, uint64_t n,
                       uint64_t step) {
    uint64_t probes[] = {0, 1, 1000, ((uint64_t)1 << 31) - 1, (uint64_t)1 << 31,
                         ((uint64_t)1 << 31) + 1, ((uint64_t)1 << 32) - 1, (uint64_t)1 << 32,
                         n - 2, n - 1};
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
        if (probes[p] >= n) continue;
        uint64_t v = 0;
        ASSERT_OK(magnus_dbuf_read(ctx, Q, &v, b, (size_t)(probes[p] * size), size));
        uint64_t want = probes[p] * step;
        if (size == 4) want = (uint32_t)want;
        cr_assert_eq(v, want, "element %llu of %llu: %llu, expected %llu",
                     (unsigned long long)probes[p], (unsigned long long)n, (unsigned long long)v,
                     (unsigned long long)want);
    }
}

Test(large, past_2_31_elements) {
    if (!magnus_test_large()) cr_skip_test("set MAGNUS_TEST_LARGE=1 (needs ~16 GiB of device memory)");
    magnus_context ctx = magnus_test_context();
    const uint64_t n = ((uint64_t)1 << 31) + 1000;
    /* buffers of 16 GiB + 40 bytes and one of (2^32 + 5) x 4 + the partition's output */
    if (ctx->device.max_alloc_bytes < n * 8 || ctx->device.global_mem_bytes < n * 8 + (n / 2))
        cr_skip_test("the device holds %llu bytes (largest buffer %llu): this test needs 16 GiB "
                     "in one buffer", (unsigned long long)ctx->device.global_mem_bytes,
                     (unsigned long long)ctx->device.max_alloc_bytes);
    magnus_dbuf b;
    /* 64-bit scan of ones, in place: out[i] = i */
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * 8, &b));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, 0, n, 1));
    uint64_t total;
    ASSERT_OK(magnus_prim_scan_u64(ctx, Q, &b, &b, n, &total));
    cr_assert_eq(total, n);
    check_ramp(ctx, &b, 8, n, 1);
    magnus_dbuf_free(ctx, &b);
    /* 32-bit scan of threes (wraps past 2^32) and the partition of 2^32 + 5 flags */
    const uint64_t m = ((uint64_t)1 << 32) + 5;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)m * 4, &b));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, 0, m, 3));
    ASSERT_OK(magnus_prim_scan_u32(ctx, Q, &b, &b, m, &total));
    cr_assert_eq(total, (uint32_t)(3 * m));
    check_ramp(ctx, &b, 4, m, 3);
    /* partition of 2^32 flags (the most 32-bit indices allow), two of them set */
    const uint64_t p = (uint64_t)1 << 32;
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, 0, m, 0));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, ((uint64_t)1 << 31) + 7, 1, 1));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, p - 1, 1, 1));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, p, 1, 1)); /* outside the partitioned range */
    magnus_dbuf above;
    uint64_t na, nb;
    ASSERT_OK(magnus_prim_partition_flags(ctx, Q, &b, p, &above, NULL, &na, &nb));
    cr_assert_eq(na, 2u);
    cr_assert_eq(nb, p - 2);
    uint32_t got[2];
    ASSERT_OK(magnus_dbuf_read(ctx, Q, got, &above, 0, 8));
    cr_assert_eq(got[0], ((uint32_t)1 << 31) + 7);
    cr_assert_eq(got[1], UINT32_MAX);
    cr_assert_eq(magnus_prim_partition_flags(ctx, Q, &b, p + 1, &above, NULL, &na, &nb),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_dbuf_free(ctx, &above);
    magnus_dbuf_free(ctx, &b);
}

/* ---- kernel modules --------------------------------------------------------------------- */

/* The float64 module builds where the device has fp64 and is refused cleanly elsewhere. */
Test(modules, float64_builds_or_is_refused) {
    magnus_context ctx = magnus_test_context();
    magnus_status s = magnus_context_load_module(ctx, MAGNUS_VARIANT_F64);
    if (ctx->device.fp64) {
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_not_null(ctx->modules[MAGNUS_VARIANT_F64]);
    } else {
        cr_assert_eq(s, MAGNUS_ERROR_FEATURE_UNSUPPORTED, "%s", magnus_last_error());
    }
    cr_assert_eq(magnus_context_load_module(ctx, (magnus_kernel_variant)2),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
}

/*
 * Deferred freeing of device buffers (part of test_probe: test_probe.c): counted against the
 * limit until the context is idle, released by a finish, a release or the context's free.
 * Skipped without a device.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>

#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

/* ---- deferred freeing ------------------------------------------------------------------- */

Test(context, deferred_buffers_counted_until_finish) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 8192);
    magnus_dbuf a = busy_buffer(ctx, 6000), b;
    magnus_dbuf_free_deferred(ctx, &a);
    cr_assert_null(a.mem);
    cr_assert_eq(a.bytes, 0u);
    magnus_dbuf_free_deferred(ctx, &a); /* cleared: a no-op */
    magnus_dbuf_free_deferred(ctx, NULL);
    cr_assert_eq(ctx->ndeferred, 1u);
    /* still held, so still in use and against the limit */
    cr_assert_eq(ctx->memory_in_use, 6000u);
    cr_assert_eq(ctx->deferred_bytes, 6000u);
    cr_assert_eq(magnus_dbuf_alloc(ctx, 4000, &b), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    /* a queue's finish is not the context's */
    ASSERT_OK(magnus_queue_finish(ctx, MAGNUS_QUEUE_HEAVY));
    cr_assert_eq(ctx->memory_in_use, 6000u);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->ndeferred, 0u);
    cr_assert_eq(ctx->deferred_bytes, 0u);
    cr_assert_eq(ctx->memory_in_use, 0u);
    cr_assert_eq(ctx->memory_peak, 6000u);
    ASSERT_OK(magnus_dbuf_alloc(ctx, 4000, &b));
    /* after an error the drain frees them too */
    magnus_dbuf_free_deferred(ctx, &b);
    cr_assert_eq(ctx->memory_in_use, 4000u);
    magnus_error(MAGNUS_ERROR_INTERNAL, "the error that matters");
    cr_assert_eq(magnus_context_finish_after_error(ctx, MAGNUS_ERROR_INTERNAL),
                 MAGNUS_ERROR_INTERNAL);
    cr_assert_str_eq(magnus_last_error(), "the error that matters");
    cr_assert_eq(ctx->ndeferred, 0u);
    cr_assert_eq(ctx->memory_in_use, 0u);
    /* without host memory to grow the list, the buffer is freed at once (nothing leaks) */
    cr_assert_gt(ctx->deferred_capacity, 0u);
    while (ctx->ndeferred < ctx->deferred_capacity) {
        a = busy_buffer(ctx, 64);
        magnus_dbuf_free_deferred(ctx, &a);
    }
    const size_t full = ctx->ndeferred;
    const uint64_t held = ctx->memory_in_use;
    a = busy_buffer(ctx, 64);
    magnus_host_alloc_fail_after(0);
    magnus_dbuf_free_deferred(ctx, &a);
    magnus_host_alloc_fail_after(-1);
    cr_assert_null(a.mem);
    cr_assert_eq(ctx->ndeferred, full);
    cr_assert_eq(ctx->memory_in_use, held);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->memory_in_use, 0u);
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(context, many_deferred_buffers_without_a_finish) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    enum { N = 100 };
    uint64_t total = 0;
    for (int i = 0; i < N; i++) {
        magnus_dbuf b = busy_buffer(ctx, 64 + 4 * (size_t)i);
        total += b.bytes;
        magnus_dbuf_free_deferred(ctx, &b);
        /* none is freed (nor waited for) until the context is idle */
        cr_assert_eq(ctx->ndeferred, (size_t)i + 1);
        cr_assert_eq(ctx->memory_in_use, total);
    }
    cr_assert_eq(ctx->deferred_bytes, total);
    /* the caller has waited for the only queue that used them */
    ASSERT_OK(magnus_queue_finish(ctx, MAGNUS_QUEUE_HEAVY));
    ASSERT_OK(magnus_context_release_deferred(ctx));
    cr_assert_eq(ctx->ndeferred, 0u);
    cr_assert_eq(ctx->memory_in_use, 0u);
    /* the list is reused */
    magnus_dbuf b = busy_buffer(ctx, 128);
    magnus_dbuf_free_deferred(ctx, &b);
    cr_assert_eq(ctx->ndeferred, 1u);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->memory_in_use, 0u);
    cr_assert_eq(magnus_context_release_deferred(NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* magnus_context_free waits and frees what is still deferred (the ASan build checks that no
 * host memory leaks; the backend's context goes with its buffers). */
Test(context, free_with_deferred_buffers) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    for (int i = 0; i < 40; i++) {
        magnus_dbuf b = busy_buffer(ctx, 256);
        magnus_dbuf_free_deferred(ctx, &b);
    }
    cr_assert_eq(ctx->ndeferred, 40u);
    cr_assert_eq(ctx->memory_in_use, 40u * 256);
    ASSERT_OK(magnus_context_free(&ctx));
    cr_assert_null(ctx);
}

/*
 * The context's cache of freed device blocks (part of test_probe; runtime/device/device_pool.c):
 * a freed block is reused only after every queue has been waited for, only for the same size,
 * above MAGNUS_POOL_MAX_BLOCK only without a backend pool and never beside a new large block;
 * cached bytes count against the limit and in the peak,
 * and go back to the device under the limit rather than failing an allocation. Skipped
 * without a device.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>

#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

Test(device_pool, reuse_only_after_the_context_is_idle) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_dbuf a = busy_buffer(ctx, 40000), b, c;
    magnus_bmem *first = a.mem;
    magnus_dbuf_free(ctx, &a);
    cr_assert_null(a.mem);
    cr_assert_eq(ctx->memory_in_use, 0u);
    cr_assert_eq(ctx->memory_pooled, 40000u, "a freed block is held until it goes back");
    cr_assert_eq(ctx->pool_npending, 1u);
    /* the fill may still run: the same size must get another block */
    b = busy_buffer(ctx, 40000);
    cr_assert_neq(b.mem, first, "a pending block was handed out before the queues were idle");
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->pool_npending, 0u);
    cr_assert_eq(ctx->pool_nready, 1u);
    /* another size does not take it; the same size does */
    ASSERT_OK(magnus_dbuf_alloc(ctx, 40004, &c));
    cr_assert_neq(c.mem, first);
    magnus_dbuf_free(ctx, &c);
    ASSERT_OK(magnus_dbuf_alloc(ctx, 40000, &a));
    cr_assert_eq(a.mem, first, "the idle context did not reuse its cached block");
    cr_assert_eq(ctx->memory_in_use, 80000u);
    cr_assert_eq(ctx->memory_pooled, 40004u);
    /* a reused block is a working buffer: write, read back */
    uint32_t in[4] = {1, 2, 3, 4}, out[4] = {0};
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &a, 100, in, sizeof in));
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, out, &a, 100, sizeof out));
    cr_assert_arr_eq(in, out, sizeof in);
    magnus_dbuf_free(ctx, &a);
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_free(&ctx)); /* frees the cache (the ASan build checks leaks) */
}

/* Enough global memory for `blocks` blocks just above the small-block limit. */
static void need_large_blocks(const magnus_device_info *d, uint64_t blocks) {
    if (d->global_mem_bytes / blocks < (uint64_t)MAGNUS_POOL_MAX_BLOCK + 4096)
        cr_skip_test("%s has %llu bytes of global memory, too few for %llu blocks above %zu",
                     d->name, (unsigned long long)d->global_mem_bytes, (unsigned long long)blocks,
                     MAGNUS_POOL_MAX_BLOCK);
}

/* Large blocks are kept only where the backend's allocator keeps nothing itself (OpenCL,
 * Level Zero, CUDA without a stream-ordered pool); then the same size reuses the block. */
Test(device_pool, large_blocks_cached_only_without_a_backend_pool) {
    magnus_device_info d = need_device();
    need_large_blocks(&d, 4);
    magnus_context ctx = new_context(&d, 0, 0);
    const size_t big = MAGNUS_POOL_MAX_BLOCK + 1;
    magnus_dbuf a, b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, big, &a));
    ASSERT_OK(magnus_dbuf_alloc(ctx, MAGNUS_POOL_MAX_BLOCK, &b));
    const int backend_pool = magnus_context_reserved_bytes(ctx) != 0;
    magnus_bmem *first = a.mem;
    magnus_dbuf_free(ctx, &a);
    magnus_dbuf_free(ctx, &b);
    if (backend_pool) {
        cr_assert_eq(ctx->memory_pooled, MAGNUS_POOL_MAX_BLOCK,
                     "a large block was kept beside the backend's own pool");
    } else {
        cr_assert_eq(ctx->memory_pooled, big + MAGNUS_POOL_MAX_BLOCK);
        ASSERT_OK(magnus_context_finish(ctx));
        ASSERT_OK(magnus_dbuf_alloc(ctx, big, &a));
        cr_assert_eq(a.mem, first, "the idle context did not reuse its large block");
        cr_assert_eq(ctx->memory_pooled, MAGNUS_POOL_MAX_BLOCK);
        magnus_dbuf_free(ctx, &a);
    }
    ASSERT_OK(magnus_context_free(&ctx));
}

/* A large request of a size the cache does not hold gives the cached large blocks back before
 * asking the driver, so stale large blocks never add to a multiply's peak; small ones stay. */
Test(device_pool, large_miss_gives_large_blocks_back) {
    magnus_device_info d = need_device();
    need_large_blocks(&d, 6);
    magnus_context ctx = new_context(&d, 0, 0);
    const size_t big = MAGNUS_POOL_MAX_BLOCK + 4096;
    magnus_dbuf a, b, s;
    ASSERT_OK(magnus_dbuf_alloc(ctx, big, &a));
    if (magnus_context_reserved_bytes(ctx) != 0) {
        magnus_dbuf_free(ctx, &a);
        ASSERT_OK(magnus_context_free(&ctx));
        cr_skip_test("%s: the backend's allocator keeps freed memory itself", d.name);
    }
    ASSERT_OK(magnus_dbuf_alloc(ctx, big + 8, &b));
    ASSERT_OK(magnus_dbuf_alloc(ctx, 4096, &s));
    magnus_dbuf_free(ctx, &a);
    magnus_dbuf_free(ctx, &b);
    magnus_dbuf_free(ctx, &s);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->memory_pooled, 2 * (uint64_t)big + 8 + 4096);
    magnus_context_reset_peak(ctx);
    ASSERT_OK(magnus_dbuf_alloc(ctx, big + 16, &a));
    cr_assert_eq(ctx->memory_pooled, 4096u, "the large blocks of other sizes are still held");
    cr_assert_eq(ctx->memory_peak, 2 * (uint64_t)big + 8 + 4096,
                 "the new block was allocated beside the stale ones");
    magnus_dbuf_free(ctx, &a);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* Ready large blocks are capped at a quarter of the context's memory limit: the newest that
 * fit stay, the older ones go back when the context goes idle. */
Test(device_pool, large_blocks_capped_at_a_share_of_the_memory) {
    magnus_device_info d = need_device();
    need_large_blocks(&d, 16);
    const size_t big = MAGNUS_POOL_MAX_BLOCK + 64;
    magnus_context ctx = new_context(&d, 0, 16 * (uint64_t)(big + 64));
    enum { N = 6 };
    magnus_dbuf b[N];
    for (int i = 0; i < N; i++) ASSERT_OK(magnus_dbuf_alloc(ctx, big + 8 * (size_t)i, &b[i]));
    if (magnus_context_reserved_bytes(ctx) != 0) {
        for (int i = 0; i < N; i++) magnus_dbuf_free(ctx, &b[i]);
        ASSERT_OK(magnus_context_free(&ctx));
        cr_skip_test("%s: the backend's allocator keeps freed memory itself", d.name);
    }
    for (int i = 0; i < N; i++) magnus_dbuf_free(ctx, &b[i]); /* b[N-1] is the newest */
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->pool_nready, 4u, "%zu large blocks kept, the cap allows 4",
                 ctx->pool_nready);
    cr_assert_eq(ctx->pool_ready[0].bytes, big + 8 * 2u, "not the newest were kept");
    cr_assert_eq(ctx->memory_pooled, 4 * (uint64_t)big + 8 * (2 + 3 + 4 + 5));
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(device_pool, cache_is_trimmed_when_idle) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    enum { N = MAGNUS_POOL_CACHE_BLOCKS + 50 };
    for (int i = 0; i < N; i++) {
        magnus_dbuf b;
        ASSERT_OK(magnus_dbuf_alloc(ctx, 64 + 8 * (size_t)i, &b)); /* distinct sizes: no reuse */
        magnus_dbuf_free(ctx, &b);
    }
    cr_assert_eq(ctx->pool_npending, (size_t)N);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->pool_nready, (size_t)MAGNUS_POOL_CACHE_BLOCKS, "the cap was not applied");
    /* the oldest went: the first size is gone, the last one is still there */
    uint64_t kept = 0;
    for (size_t i = 0; i < ctx->pool_nready; i++) kept += ctx->pool_ready[i].bytes;
    cr_assert_eq(ctx->memory_pooled, kept);
    cr_assert_eq(ctx->pool_ready[0].bytes, 64 + 8 * 50u);
    cr_assert_eq(ctx->pool_ready[ctx->pool_nready - 1].bytes, 64 + 8 * (size_t)(N - 1));
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(device_pool, counted_against_the_limit_and_given_back_under_it) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 1 << 20);
    magnus_dbuf a = busy_buffer(ctx, 700 << 10), b;
    magnus_dbuf_free(ctx, &a); /* pending: may still be read */
    cr_assert_eq(ctx->memory_peak, 700u << 10);
    magnus_context_reset_peak(ctx);
    cr_assert_eq(ctx->memory_peak, 700u << 10, "cached bytes are held: they count in the peak");
    /* 700 K held + 500 K > 1 M: the cache is given back (after waiting) instead of failing */
    ASSERT_OK(magnus_dbuf_alloc(ctx, 500 << 10, &b));
    cr_assert_eq(ctx->memory_pooled, 0u);
    cr_assert_eq(ctx->memory_in_use, 500u << 10);
    /* what is in use still cannot be exceeded */
    cr_assert_eq(magnus_dbuf_alloc(ctx, 600 << 10, &a), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    cr_assert_null(a.mem);
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* magnus_context_trim gives everything kept back: the cache (ready and pending blocks) and
 * what the backend's allocator keeps mapped (CUDA's pool; nothing on other backends). */
Test(device_pool, trim_gives_everything_kept_back) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_dbuf a = busy_buffer(ctx, 3 << 20), b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 5000, &b));
    cr_assert(ctx->memory_reserved_peak == 0 || ctx->memory_reserved_peak >= (3u << 20) + 5000,
              "the allocator reports %llu bytes held with %u in use",
              (unsigned long long)ctx->memory_reserved_peak, (3u << 20) + 5000);
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_finish(ctx)); /* b's block is ready, a's still pending */
    magnus_dbuf_free(ctx, &a);
    cr_assert_eq(ctx->memory_pooled, (3u << 20) + 5000);
    ASSERT_OK(magnus_context_trim(ctx));
    cr_assert_eq(ctx->memory_pooled, 0u, "cached bytes left after trim");
    cr_assert_eq(ctx->pool_nready + ctx->pool_npending, 0u);
    const uint64_t kept = magnus_context_reserved_bytes(ctx);
    cr_assert_eq(kept, 0u, "the backend's allocator still holds %llu bytes",
                 (unsigned long long)kept);
    /* the context still works */
    magnus_dbuf c = busy_buffer(ctx, 4096);
    magnus_dbuf_free(ctx, &c);
    ASSERT_OK(magnus_context_free(&ctx));
    cr_assert_eq(magnus_context_trim(NULL), MAGNUS_ERROR_NULL_POINTER);
}

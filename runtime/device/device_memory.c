/*
 * Accounted device buffers. Every byte the device runtime allocates goes through
 * magnus_dbuf_alloc, so the context knows what is in use, its peak, and can refuse to go past
 * a limit (MAGNUS_DEVICE_MEMORY_LIMIT) before the device does. Blocks come from the context's
 * cache of freed ones when it has one of exactly that size (device_pool.c), else the driver;
 * the limit and the peak count cached blocks too, since the device memory is held, and so
 * does what the backend's own allocator keeps mapped for reuse (ops->mem_reserved: CUDA's
 * stream-ordered pool), when that is more.
 */
#include <stdio.h>

#include "backend.h"
#include "device_runtime.h"

/* Held device memory: buffers in use plus cached blocks. */
static uint64_t held(const magnus_context_s *ctx) {
    return ctx->memory_in_use + ctx->memory_pooled;
}

/* What the backend's allocator holds for the context (0: it keeps nothing of its own, or the
 * query failed: the context's own count stays right either way). */
static uint64_t reserved(const magnus_context_s *ctx) {
    uint64_t bytes = 0;
    return ctx->ops->mem_reserved(ctx->bctx, &bytes) == MAGNUS_SUCCESS ? bytes : 0;
}

/* Gives every cached block back to the device: the ready ones at once, the pending ones
 * after waiting for every queue (memory pressure is worth a wait). */
static magnus_status reclaim_pool(magnus_context ctx) {
    magnus_pool_evict_ready(ctx);
    if (ctx->memory_pooled) {
        for (int q = 0; q < MAGNUS_QUEUE_COUNT; q++) {
            magnus_status s = ctx->ops->queue_finish(ctx->queues[q]);
            if (s) return s;
        }
        magnus_pool_idle(ctx);
        magnus_pool_evict_ready(ctx);
    }
    /* and what the backend's allocator keeps */
    return ctx->ops->mem_trim(ctx->bctx);
}

magnus_status magnus_context_trim(magnus_context ctx) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    return reclaim_pool(ctx);
}

/* Makes room for `bytes` more under the limit, giving cached blocks back if needed. The
 * limit governs the context's own count; what the backend's allocator keeps beyond it
 * (rounding, freed memory kept mapped) is given back once it would pass the limit too. */
static magnus_status fit_under_limit(magnus_context ctx, uint64_t bytes) {
    if (!ctx->memory_limit) return MAGNUS_SUCCESS;
    const uint64_t kept = reserved(ctx);
    if (kept + bytes > ctx->memory_limit && kept > held(ctx))
        (void)ctx->ops->mem_trim(ctx->bctx); /* best effort: the count below decides */
    if (held(ctx) + bytes <= ctx->memory_limit) return MAGNUS_SUCCESS;
    magnus_status s = reclaim_pool(ctx);
    if (s) return s;
    if (held(ctx) + bytes <= ctx->memory_limit) return MAGNUS_SUCCESS;
    return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                        "device memory limit: %llu bytes requested, %llu in use, limit %llu "
                        "(MAGNUS_DEVICE_MEMORY_LIMIT or the context option)",
                        (unsigned long long)bytes, (unsigned long long)ctx->memory_in_use,
                        (unsigned long long)ctx->memory_limit);
}

magnus_status magnus_dbuf_alloc(magnus_context ctx, size_t bytes, magnus_dbuf *out) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_dbuf_alloc: out is NULL");
    out->mem = NULL;
    out->bytes = 0;
    uint64_t after;
    if (__builtin_add_overflow(held(ctx), (uint64_t)bytes, &after))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "device allocation of %zu bytes", bytes);
    out->mem = magnus_pool_take(ctx, bytes);
    if (!out->mem) {
        if ((s = fit_under_limit(ctx, bytes))) return s;
        const double t = MAGNUS_TRACE_START(ctx);
        s = ctx->ops->mem_alloc(ctx->bctx, bytes ? bytes : 1, &out->mem);
        magnus_trace_event(ctx, "alloc", s ? "failed" : "driver", t, bytes);
        if (s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY &&
            (ctx->memory_pooled || reserved(ctx) > ctx->memory_in_use)) {
            /* the cache is worth less than the request */
            char why[512];
            snprintf(why, sizeof why, "%s", magnus_last_error());
            magnus_status r = reclaim_pool(ctx);
            s = r ? r : ctx->ops->mem_alloc(ctx->bctx, bytes ? bytes : 1, &out->mem);
            if (s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY && !r) magnus_error(s, "%s", why);
        }
        if (s) {
            if (s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY)
                magnus_error_prefix("%zu bytes requested, %llu in use: ", bytes,
                                    (unsigned long long)ctx->memory_in_use);
            out->mem = NULL;
            return s;
        }
        const uint64_t r = reserved(ctx); /* the allocator grows only when it allocates */
        if (r > ctx->memory_reserved_peak) ctx->memory_reserved_peak = r;
    }
    out->bytes = bytes;
    ctx->memory_in_use += bytes;
    if (held(ctx) > ctx->memory_peak) ctx->memory_peak = held(ctx);
    return MAGNUS_SUCCESS;
}

void magnus_dbuf_free(magnus_context ctx, magnus_dbuf *buf) {
    if (!buf || !buf->mem || magnus_context_check(ctx)) return;
    const size_t bytes = buf->bytes;
    ctx->memory_in_use -= bytes <= ctx->memory_in_use ? bytes : ctx->memory_in_use;
    if (!magnus_pool_put(ctx, buf->mem, bytes)) {
        const double t = MAGNUS_TRACE_START(ctx);
        ctx->ops->mem_free(ctx->bctx, buf->mem);
        magnus_trace_event(ctx, "free", "driver", t, bytes);
    }
    buf->mem = NULL;
    buf->bytes = 0;
}

uint64_t magnus_context_reserved_bytes(const magnus_context_s *ctx) {
    return magnus_context_check(ctx) ? 0 : reserved(ctx);
}

void magnus_context_reset_peak(magnus_context ctx) {
    if (magnus_context_check(ctx)) return;
    ctx->memory_peak = held(ctx);
    ctx->memory_reserved_peak = reserved(ctx);
}

/* Context, queue, buffer and range [offset, offset+bytes) all valid. */
static magnus_status check_range(magnus_context ctx, magnus_queue_id q, const magnus_dbuf *buf,
                                 size_t offset, size_t bytes, const char *what) {
    magnus_status s = magnus_queue_check(ctx, q, what);
    if (s) return s;
    if (!buf) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: buffer is NULL", what);
    if (!buf->mem)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: buffer is not allocated", what);
    if (offset > buf->bytes || bytes > buf->bytes - offset)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: bytes [%zu, %zu + %zu) outside a buffer of %zu bytes", what,
                            offset, offset, bytes, buf->bytes);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_dbuf_write(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                                size_t dst_offset, const void *src, size_t bytes) {
    magnus_status s = check_range(ctx, q, dst, dst_offset, bytes, "magnus_dbuf_write");
    if (s || bytes == 0) return s;
    if (!src) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_dbuf_write: src is NULL");
    const double t = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->mem_write(ctx->queues[q], dst->mem, dst_offset, src, bytes);
    magnus_trace_event(ctx, "write", "", t, bytes);
    return s;
}

magnus_status magnus_dbuf_read(magnus_context ctx, magnus_queue_id q, void *dst,
                               const magnus_dbuf *src, size_t src_offset, size_t bytes) {
    magnus_status s = check_range(ctx, q, src, src_offset, bytes, "magnus_dbuf_read");
    if (s || bytes == 0) return s;
    if (!dst) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_dbuf_read: dst is NULL");
    const double t = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->mem_read(ctx->queues[q], dst, src->mem, src_offset, bytes);
    magnus_trace_event(ctx, "read", "", t, bytes);
    return s;
}

magnus_status magnus_dbuf_copy(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                               size_t dst_offset, const magnus_dbuf *src, size_t src_offset,
                               size_t bytes) {
    magnus_status s;
    if ((s = check_range(ctx, q, dst, dst_offset, bytes, "magnus_dbuf_copy (destination)")) ||
        (s = check_range(ctx, q, src, src_offset, bytes, "magnus_dbuf_copy (source)")) || bytes == 0)
        return s;
    const double t = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->mem_copy(ctx->queues[q], dst->mem, dst_offset, src->mem, src_offset, bytes);
    magnus_trace_event(ctx, "copy", "", t, bytes);
    return s;
}

magnus_status magnus_dbuf_fill(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                               size_t offset, const void *pattern, size_t pattern_bytes,
                               size_t bytes) {
    magnus_status s = check_range(ctx, q, dst, offset, bytes, "magnus_dbuf_fill");
    if (s) return s;
    if (!pattern) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_dbuf_fill: pattern is NULL");
    if ((pattern_bytes != 1 && pattern_bytes != 2 && pattern_bytes != 4 && pattern_bytes != 8) ||
        offset % pattern_bytes || bytes % pattern_bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_dbuf_fill: pattern of %zu bytes over [%zu, +%zu)", pattern_bytes,
                            offset, bytes);
    if (bytes == 0) return MAGNUS_SUCCESS;
    const double t = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->mem_fill(ctx->queues[q], dst->mem, offset, pattern, pattern_bytes, bytes);
    magnus_trace_event(ctx, "fill", "", t, bytes);
    return s;
}

/*
 * Accounted device buffers. Every byte the device runtime allocates goes through
 * magnus_dbuf_alloc, so the context knows what is in use, its peak, and can refuse to go past
 * a limit (MAGNUS_DEVICE_MEMORY_LIMIT) before the device does.
 */
#include "backend.h"
#include "device_runtime.h"

magnus_status magnus_dbuf_alloc(magnus_context ctx, size_t bytes, magnus_dbuf *out) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_dbuf_alloc: out is NULL");
    out->mem = NULL;
    out->bytes = 0;
    uint64_t after;
    if (__builtin_add_overflow(ctx->memory_in_use, (uint64_t)bytes, &after))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "device allocation of %zu bytes", bytes);
    if (ctx->memory_limit && after > ctx->memory_limit)
        return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                            "device memory limit: %zu bytes requested, %llu in use, limit %llu "
                            "(MAGNUS_DEVICE_MEMORY_LIMIT or the context option)",
                            bytes, (unsigned long long)ctx->memory_in_use,
                            (unsigned long long)ctx->memory_limit);
    if ((s = ctx->ops->mem_alloc(ctx->bctx, bytes ? bytes : 1, &out->mem))) {
        if (s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY)
            magnus_error_prefix("%zu bytes requested, %llu in use: ", bytes,
                                (unsigned long long)ctx->memory_in_use);
        out->mem = NULL;
        return s;
    }
    out->bytes = bytes;
    ctx->memory_in_use = after;
    if (after > ctx->memory_peak) ctx->memory_peak = after;
    return MAGNUS_SUCCESS;
}

void magnus_dbuf_free(magnus_context ctx, magnus_dbuf *buf) {
    if (!buf || !buf->mem || magnus_context_check(ctx)) return;
    ctx->ops->mem_free(ctx->bctx, buf->mem);
    ctx->memory_in_use -= buf->bytes <= ctx->memory_in_use ? buf->bytes : ctx->memory_in_use;
    buf->mem = NULL;
    buf->bytes = 0;
}

void magnus_context_reset_peak(magnus_context ctx) {
    if (!magnus_context_check(ctx)) ctx->memory_peak = ctx->memory_in_use;
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
    return ctx->ops->mem_write(ctx->queues[q], dst->mem, dst_offset, src, bytes);
}

magnus_status magnus_dbuf_read(magnus_context ctx, magnus_queue_id q, void *dst,
                               const magnus_dbuf *src, size_t src_offset, size_t bytes) {
    magnus_status s = check_range(ctx, q, src, src_offset, bytes, "magnus_dbuf_read");
    if (s || bytes == 0) return s;
    if (!dst) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_dbuf_read: dst is NULL");
    return ctx->ops->mem_read(ctx->queues[q], dst, src->mem, src_offset, bytes);
}

magnus_status magnus_dbuf_copy(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                               size_t dst_offset, const magnus_dbuf *src, size_t src_offset,
                               size_t bytes) {
    magnus_status s;
    if ((s = check_range(ctx, q, dst, dst_offset, bytes, "magnus_dbuf_copy (destination)")) ||
        (s = check_range(ctx, q, src, src_offset, bytes, "magnus_dbuf_copy (source)")) || bytes == 0)
        return s;
    return ctx->ops->mem_copy(ctx->queues[q], dst->mem, dst_offset, src->mem, src_offset, bytes);
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
    return ctx->ops->mem_fill(ctx->queues[q], dst->mem, offset, pattern, pattern_bytes, bytes);
}

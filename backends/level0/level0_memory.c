/*
 * Level Zero device memory: device USM allocations, copies and fills appended to a queue's
 * immediate command list. Writes and reads block until the queue is idle, so the caller's
 * host buffer may be reused or freed as soon as they return.
 */
#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include "level0_internal.h"

/* Device allocations are aligned to this (a power of two, as zeMemAllocDevice requires). */
#define LEVEL0_ALLOC_ALIGNMENT 256

static magnus_status check_range(const magnus_bmem *mem, size_t offset, size_t bytes,
                                 const char *what) {
    if (!mem) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: %s: buffer is NULL", what);
    if (offset > mem->bytes || bytes > mem->bytes - offset)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "level0: %s: bytes [%zu, %zu + %zu) outside a %zu-byte buffer", what,
                            offset, offset, bytes, mem->bytes);
    return MAGNUS_SUCCESS;
}

magnus_status level0_mem_alloc(magnus_bctx *ctx, size_t bytes, magnus_bmem **out) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_alloc output is NULL");
    *out = NULL;
    if (!ctx) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_alloc without a context");
    magnus_bmem *mem = magnus_host_calloc(1, sizeof *mem);
    if (!mem) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0: no host memory for a buffer");
    /* Beyond maxMemAllocSize (4 GiB on many Intel GPUs) an allocation must opt in to relaxed
     * limits; the module is built with -ze-opt-greater-than-4GB-buffer-required to match. */
    ze_relaxed_allocation_limits_exp_desc_t relaxed = {
        .stype = ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC,
        .flags = ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE};
    ze_device_mem_alloc_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                       .pNext = bytes > ctx->dev->max_alloc_bytes ? &relaxed : NULL,
                                       .flags = 0,
                                       .ordinal = 0};
    size_t request = bytes ? bytes : 1;
    ze_result_t r = magnus_ze.zeMemAllocDevice(ctx->context, &desc, request, LEVEL0_ALLOC_ALIGNMENT,
                                               ctx->dev->device, &mem->ptr);
    if (r || !mem->ptr) {
        magnus_host_free(mem);
        /* UNSUPPORTED_SIZE is how drivers refuse a size they cannot ever place. */
        if (r == ZE_RESULT_ERROR_UNSUPPORTED_SIZE) r = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
        if (!r) r = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeMemAllocDevice(%zu bytes)", bytes);
    }
    mem->bytes = bytes;
    *out = mem;
    return MAGNUS_SUCCESS;
}

void level0_mem_free(magnus_bctx *ctx, magnus_bmem *mem) {
    if (!mem) return;
    /* zeMemFree does not wait for queued work that still uses the buffer, so the context's
     * queues are drained first (cudaFree synchronises the same way). A failure to drain
     * (device lost) has nowhere to go: the buffer is freed regardless. */
    if (ctx && mem->ptr) {
        (void)level0_context_drain(ctx);
        magnus_ze.zeMemFree(ctx->context, mem->ptr);
    }
    magnus_host_free(mem);
}

/* A caller's device USM pointer (of this context; not checked): the handle only, unwrap never
 * frees the memory. */
magnus_status level0_mem_wrap(magnus_bctx *ctx, void *native, size_t bytes, magnus_bmem **out) {
    (void)ctx;
    *out = NULL;
    magnus_bmem *mem = magnus_host_calloc(1, sizeof *mem);
    if (!mem) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0 buffer handle");
    mem->ptr = native;
    mem->bytes = bytes;
    *out = mem;
    return MAGNUS_SUCCESS;
}

void level0_mem_unwrap(magnus_bctx *ctx, magnus_bmem *mem) {
    (void)ctx;
    magnus_host_free(mem);
}

/* A buffer's device USM pointer (zeMemAllocDevice's, or the caller's for a wrap). */
magnus_status level0_mem_native(magnus_bctx *ctx, magnus_bmem *mem, void **native) {
    (void)ctx;
    *native = mem->ptr;
    return MAGNUS_SUCCESS;
}

magnus_status level0_context_native(magnus_bctx *ctx, void **context, void **device) {
    *context = (void *)ctx->context;
    *device = (void *)ctx->dev->device;
    return MAGNUS_SUCCESS;
}

/* zeMemFree gives the memory back: nothing is kept that the runtime does not count itself. */
magnus_status level0_mem_reserved(magnus_bctx *ctx, uint64_t *bytes) {
    (void)ctx;
    *bytes = 0;
    return MAGNUS_SUCCESS;
}

magnus_status level0_mem_trim(magnus_bctx *ctx) {
    (void)ctx;
    return MAGNUS_SUCCESS;
}

static magnus_status append_copy(magnus_bqueue *q, void *dst, const void *src, size_t bytes,
                                 const char *what) {
    if (bytes == 0) return MAGNUS_SUCCESS;
    ze_result_t r = magnus_ze.zeCommandListAppendMemoryCopy(q->list, dst, src, bytes, NULL, 0, NULL);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeCommandListAppendMemoryCopy (%s, %zu bytes)",
                               what, bytes);
    return level0_queue_order(q, what);
}

magnus_status level0_mem_write(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                               const void *src, size_t bytes) {
    if (!q) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_write without a queue");
    magnus_status s = check_range(dst, dst_offset, bytes, "mem_write");
    if (s) return s;
    if (bytes && !src) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_write source is NULL");
    s = append_copy(q, (char *)dst->ptr + dst_offset, src, bytes, "host to device");
    return s ? s : level0_queue_finish(q);
}

magnus_status level0_mem_read(magnus_bqueue *q, void *dst, magnus_bmem *src, size_t src_offset,
                              size_t bytes) {
    if (!q) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_read without a queue");
    magnus_status s = check_range(src, src_offset, bytes, "mem_read");
    if (s) return s;
    if (bytes && !dst) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_read destination is NULL");
    s = append_copy(q, dst, (const char *)src->ptr + src_offset, bytes, "device to host");
    return s ? s : level0_queue_finish(q);
}

magnus_status level0_mem_copy(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                              magnus_bmem *src, size_t src_offset, size_t bytes) {
    if (!q) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_copy without a queue");
    magnus_status s = check_range(dst, dst_offset, bytes, "mem_copy destination");
    if (!s) s = check_range(src, src_offset, bytes, "mem_copy source");
    if (s) return s;
    return append_copy(q, (char *)dst->ptr + dst_offset, (const char *)src->ptr + src_offset,
                       bytes, "device to device");
}

magnus_status level0_mem_fill(magnus_bqueue *q, magnus_bmem *dst, size_t offset,
                              const void *pattern, size_t pattern_bytes, size_t bytes) {
    if (!q) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_fill without a queue");
    magnus_status s = check_range(dst, offset, bytes, "mem_fill");
    if (s) return s;
    if (!pattern) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: mem_fill pattern is NULL");
    if ((pattern_bytes != 1 && pattern_bytes != 2 && pattern_bytes != 4 && pattern_bytes != 8) ||
        bytes % pattern_bytes != 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "level0: mem_fill of %zu bytes with a %zu-byte pattern", bytes,
                            pattern_bytes);
    if (bytes == 0) return MAGNUS_SUCCESS;
    ze_result_t r = magnus_ze.zeCommandListAppendMemoryFill(q->list, (char *)dst->ptr + offset,
                                                            pattern, pattern_bytes, bytes, NULL,
                                                            0, NULL);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r,
                               "zeCommandListAppendMemoryFill(%zu bytes, %zu-byte pattern)", bytes,
                               pattern_bytes);
    return level0_queue_order(q, "fill");
}

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

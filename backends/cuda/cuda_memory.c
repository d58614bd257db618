/*
 * CUDA device memory: allocation, host<->device copies, device copies and pattern fills.
 * Every transfer goes on the queue's stream (the plain cuMemcpyHtoD would run on the legacy
 * NULL stream, which does not order with non-blocking streams); write and read then wait
 * for the stream, as backend.h says they block.
 *
 * Buffers come from a stream-ordered pool per context (cuMemAllocFromPoolAsync /
 * cuMemFreeAsync on one memory stream), because cuMemFree waits for the whole device and
 * unmaps, and cuMemAlloc maps, every time: on a multiply whose C-hat takes 8.6 GB the four
 * frees of its blocks took 19.5 ms of 131 (docs/performance.md). The pool keeps freed memory
 * mapped (release threshold: never) and hands it to the next allocation, within one multiply
 * (C inside C-hat's dead buffer) and across multiplies; mem_reserved reports what it holds,
 * so the runtime's peak and limit count it, and mem_trim gives it back. Order: an allocation
 * is followed by an event every queue waits for (so any queue may use the buffer at once), a
 * free is preceded by the memory stream waiting for every queue's work so far (so queued
 * kernels still using the buffer finish first); the host waits for neither.
 */
#ifdef MAGNUS_HAVE_CUDA_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

/* The embedded fill kernel (fill_u64.ptx, NUL-terminated). */
extern const unsigned char magnus_cuda_fill_ptx[];

static magnus_status check_range(const magnus_bmem *mem, size_t offset, size_t bytes,
                                 const char *what) {
    if (!mem) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: buffer is NULL", what);
    if (offset > mem->bytes || bytes > mem->bytes - offset)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: %zu bytes at offset %zu exceed the %zu-byte buffer", what, bytes,
                            offset, mem->bytes);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_memory_init(magnus_bctx *ctx) {
    ctx->pool = NULL;
    ctx->nqueues = 0;
    if (pthread_mutex_init(&ctx->mem_lock, NULL) != 0)
        return magnus_error(MAGNUS_ERROR_INTERNAL, "CUDA context %d: pthread_mutex_init failed",
                            ctx->index);
    const char *knob = getenv("MAGNUS_CUDA_POOL");
    if (knob && strcmp(knob, "0") == 0) return MAGNUS_SUCCESS; /* cuMemAlloc, for comparison */
    int supported = 0;
    if (magnus_cuda.DeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                                       ctx->device) != CUDA_SUCCESS ||
        !supported)
        return MAGNUS_SUCCESS;
    CUmemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = (int)ctx->device;
    magnus_status s = magnus_cuda_check(magnus_cuda.MemPoolCreate(&ctx->pool, &props),
                                        MAGNUS_ERROR_DEVICE, "cuMemPoolCreate on CUDA device %d",
                                        ctx->index);
    if (s) {
        ctx->pool = NULL;
        goto fail;
    }
    cuuint64_t keep_all = UINT64_MAX; /* freed memory stays mapped until mem_trim */
    if ((s = magnus_cuda_check(magnus_cuda.MemPoolSetAttribute(
                                   ctx->pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep_all),
                               MAGNUS_ERROR_DEVICE,
                               "cuMemPoolSetAttribute(RELEASE_THRESHOLD) on CUDA device %d",
                               ctx->index)) ||
        (s = magnus_cuda_check(
             magnus_cuda.StreamCreate(&ctx->mem_stream, CU_STREAM_NON_BLOCKING),
             MAGNUS_ERROR_DEVICE, "cuStreamCreate (memory stream) on CUDA device %d",
             ctx->index))) {
        magnus_cuda.MemPoolDestroy(ctx->pool);
        ctx->pool = NULL;
        goto fail;
    }
    if ((s = magnus_cuda_check(magnus_cuda.EventCreate(&ctx->mem_event, CU_EVENT_DISABLE_TIMING),
                               MAGNUS_ERROR_DEVICE, "cuEventCreate (memory) on CUDA device %d",
                               ctx->index))) {
        magnus_cuda.StreamDestroy(ctx->mem_stream);
        magnus_cuda.MemPoolDestroy(ctx->pool);
        ctx->pool = NULL;
        goto fail;
    }
    return MAGNUS_SUCCESS;
fail:
    pthread_mutex_destroy(&ctx->mem_lock);
    return s;
}

void magnus_cuda_memory_release(magnus_bctx *ctx) {
    if (ctx->pool) {
        /* frees still queued on the memory stream complete first; a pool with buffers
         * outstanding is released once they are freed (cuMemPoolDestroy) */
        magnus_cuda.StreamSynchronize(ctx->mem_stream);
        magnus_cuda.EventDestroy(ctx->mem_event);
        magnus_cuda.StreamDestroy(ctx->mem_stream);
        magnus_cuda.MemPoolDestroy(ctx->pool);
        ctx->pool = NULL;
    }
    pthread_mutex_destroy(&ctx->mem_lock);
}

magnus_status magnus_cuda_memory_add_queue(magnus_bctx *ctx, magnus_bqueue *q) {
    if (!ctx->pool) return MAGNUS_SUCCESS;
    magnus_status s = magnus_cuda_check(
        magnus_cuda.EventCreate(&q->recorded, CU_EVENT_DISABLE_TIMING), MAGNUS_ERROR_DEVICE,
        "cuEventCreate (queue) on CUDA device %d", ctx->index);
    if (s) return s;
    pthread_mutex_lock(&ctx->mem_lock);
    if (ctx->nqueues == MAGNUS_CUDA_MAX_QUEUES) {
        pthread_mutex_unlock(&ctx->mem_lock);
        magnus_cuda.EventDestroy(q->recorded);
        return magnus_error(MAGNUS_ERROR_INTERNAL, "CUDA device %d: more than %d queues",
                            ctx->index, MAGNUS_CUDA_MAX_QUEUES);
    }
    /* buffers allocated before the queue existed are ready for it too */
    CUresult r = magnus_cuda.StreamWaitEvent(q->stream, ctx->mem_event, 0);
    if (r == CUDA_SUCCESS) ctx->queues[ctx->nqueues++] = q;
    pthread_mutex_unlock(&ctx->mem_lock);
    if ((s = magnus_cuda_check(r, MAGNUS_ERROR_DEVICE, "cuStreamWaitEvent on CUDA device %d",
                               ctx->index)))
        magnus_cuda.EventDestroy(q->recorded);
    return s;
}

void magnus_cuda_memory_remove_queue(magnus_bctx *ctx, magnus_bqueue *q) {
    if (!ctx->pool) return;
    pthread_mutex_lock(&ctx->mem_lock);
    for (int i = 0; i < ctx->nqueues; i++)
        if (ctx->queues[i] == q) {
            ctx->queues[i] = ctx->queues[--ctx->nqueues];
            break;
        }
    pthread_mutex_unlock(&ctx->mem_lock);
    magnus_cuda.EventDestroy(q->recorded);
}

magnus_status magnus_cuda_mem_reserved(magnus_bctx *ctx, uint64_t *bytes) {
    *bytes = 0;
    if (!ctx->pool) return MAGNUS_SUCCESS;
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    cuuint64_t reserved = 0;
    if ((s = magnus_cuda_check(magnus_cuda.MemPoolGetAttribute(
                                   ctx->pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved),
                               MAGNUS_ERROR_DEVICE,
                               "cuMemPoolGetAttribute(RESERVED_MEM_CURRENT) on CUDA device %d",
                               ctx->index)))
        return s;
    *bytes = (uint64_t)reserved;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_mem_trim(magnus_bctx *ctx) {
    if (!ctx->pool) return MAGNUS_SUCCESS;
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    pthread_mutex_lock(&ctx->mem_lock);
    /* frees still queued on the memory stream would keep their memory in use */
    CUresult r = magnus_cuda.StreamSynchronize(ctx->mem_stream);
    if (r == CUDA_SUCCESS) r = magnus_cuda.MemPoolTrimTo(ctx->pool, 0);
    pthread_mutex_unlock(&ctx->mem_lock);
    return magnus_cuda_check(r, MAGNUS_ERROR_DEVICE, "cuMemPoolTrimTo on CUDA device %d",
                             ctx->index);
}

/* Under mem_lock: a pool allocation, then the event every queue waits for. */
static CUresult pool_alloc(magnus_bctx *ctx, magnus_bmem *mem) {
    CUresult r = magnus_cuda.MemAllocFromPoolAsync(&mem->ptr, mem->bytes, ctx->pool,
                                                   ctx->mem_stream);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        /* memory the pool keeps but cannot carve this block from (or that others need):
         * give it back and try once more */
        if (magnus_cuda.StreamSynchronize(ctx->mem_stream) == CUDA_SUCCESS &&
            magnus_cuda.MemPoolTrimTo(ctx->pool, 0) == CUDA_SUCCESS)
            r = magnus_cuda.MemAllocFromPoolAsync(&mem->ptr, mem->bytes, ctx->pool,
                                                  ctx->mem_stream);
    }
    if (r != CUDA_SUCCESS) return r;
    r = magnus_cuda.EventRecord(ctx->mem_event, ctx->mem_stream);
    for (int i = 0; r == CUDA_SUCCESS && i < ctx->nqueues; i++)
        r = magnus_cuda.StreamWaitEvent(ctx->queues[i]->stream, ctx->mem_event, 0);
    if (r != CUDA_SUCCESS) magnus_cuda.MemFreeAsync(mem->ptr, ctx->mem_stream);
    return r;
}

/* A caller's CUdeviceptr (of the primary context, which CUDA runtime code such as CuPy's
 * shares); its size cannot be asked of the driver without another entry point, so it is
 * taken as given. The handle only: unwrap never frees the memory. */
magnus_status magnus_cuda_mem_wrap(magnus_bctx *ctx, void *native, size_t bytes,
                                   magnus_bmem **out) {
    (void)ctx;
    *out = NULL;
    magnus_bmem *mem = magnus_host_calloc(1, sizeof *mem);
    if (!mem) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA buffer handle");
    mem->ptr = (CUdeviceptr)(uintptr_t)native;
    mem->bytes = bytes;
    *out = mem;
    return MAGNUS_SUCCESS;
}

void magnus_cuda_mem_unwrap(magnus_bctx *ctx, magnus_bmem *mem) {
    (void)ctx;
    magnus_host_free(mem);
}

/* A buffer's CUdeviceptr: a whole allocation (cuMemAlloc or one block of the stream-ordered
 * pool, never a slice of a larger one), an ordinary device pointer for any CUDA code on the
 * device. The pool's memory is accessible to its own device without cuMemPoolSetAccess. */
magnus_status magnus_cuda_mem_native(magnus_bctx *ctx, magnus_bmem *mem, void **native) {
    (void)ctx;
    *native = (void *)(uintptr_t)mem->ptr;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_context_native(magnus_bctx *ctx, void **context, void **device) {
    *context = (void *)ctx->context;
    *device = (void *)(intptr_t)ctx->device;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_mem_alloc(magnus_bctx *ctx, size_t bytes, magnus_bmem **out) {
    *out = NULL;
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    magnus_bmem *mem = magnus_host_calloc(1, sizeof *mem);
    if (!mem) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA buffer handle");
    mem->bytes = bytes ? bytes : 1; /* cuMemAlloc refuses 0 bytes */
    if (ctx->pool) {
        pthread_mutex_lock(&ctx->mem_lock);
        CUresult r = pool_alloc(ctx, mem);
        pthread_mutex_unlock(&ctx->mem_lock);
        s = magnus_cuda_check(r, MAGNUS_ERROR_DEVICE,
                              "cuMemAllocFromPoolAsync(%zu bytes) on CUDA device %d", mem->bytes,
                              ctx->index);
    } else {
        s = magnus_cuda_check(magnus_cuda.MemAlloc(&mem->ptr, mem->bytes), MAGNUS_ERROR_DEVICE,
                              "cuMemAlloc(%zu bytes) on CUDA device %d", mem->bytes, ctx->index);
    }
    if (s) {
        magnus_host_free(mem);
        return s;
    }
    *out = mem;
    return MAGNUS_SUCCESS;
}

void magnus_cuda_mem_free(magnus_bctx *ctx, magnus_bmem *mem) {
    if (!mem) return;
    if (magnus_cuda_make_current(ctx) == MAGNUS_SUCCESS) {
        if (ctx->pool) {
            /* after every queue's work so far: the host does not wait */
            pthread_mutex_lock(&ctx->mem_lock);
            CUresult r = CUDA_SUCCESS;
            for (int i = 0; r == CUDA_SUCCESS && i < ctx->nqueues; i++) {
                r = magnus_cuda.EventRecord(ctx->queues[i]->recorded, ctx->queues[i]->stream);
                if (r == CUDA_SUCCESS)
                    r = magnus_cuda.StreamWaitEvent(ctx->mem_stream, ctx->queues[i]->recorded, 0);
            }
            /* a failed wait (a sticky error) leaves the context unusable: synchronise */
            if (r != CUDA_SUCCESS) magnus_cuda.CtxSynchronize();
            magnus_cuda.MemFreeAsync(mem->ptr, ctx->mem_stream);
            pthread_mutex_unlock(&ctx->mem_lock);
        } else {
            /* Queued work may still use the buffer (backend.h). cuMemFree "may perform
             * implicit synchronization" (and in practice does), but only waiting for the
             * context makes it certain. A failed wait (a sticky error from earlier work)
             * leaves the context unusable anyway, so the memory is freed. */
            magnus_cuda.CtxSynchronize();
            magnus_cuda.MemFree(mem->ptr);
        }
    }
    magnus_host_free(mem);
}

static magnus_status wait_stream(magnus_bqueue *q, const char *what) {
    return magnus_cuda_check(magnus_cuda.StreamSynchronize(q->stream), MAGNUS_ERROR_DEVICE,
                             "cuStreamSynchronize after %s on CUDA device %d", what,
                             q->ctx->index);
}

magnus_status magnus_cuda_mem_write(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                                    const void *src, size_t bytes) {
    magnus_status s = check_range(dst, dst_offset, bytes, "CUDA mem_write");
    if (s || bytes == 0) return s;
    if (!src) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "CUDA mem_write: source is NULL");
    if ((s = magnus_cuda_make_current(q->ctx))) return s;
    if ((s = magnus_cuda_check(
             magnus_cuda.MemcpyHtoDAsync(dst->ptr + dst_offset, src, bytes, q->stream),
             MAGNUS_ERROR_DEVICE, "cuMemcpyHtoDAsync(%zu bytes) on CUDA device %d", bytes,
             q->ctx->index)))
        return s;
    return wait_stream(q, "cuMemcpyHtoDAsync");
}

magnus_status magnus_cuda_mem_read(magnus_bqueue *q, void *dst, magnus_bmem *src,
                                   size_t src_offset, size_t bytes) {
    magnus_status s = check_range(src, src_offset, bytes, "CUDA mem_read");
    if (s || bytes == 0) return s;
    if (!dst) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "CUDA mem_read: destination is NULL");
    if ((s = magnus_cuda_make_current(q->ctx))) return s;
    if ((s = magnus_cuda_check(
             magnus_cuda.MemcpyDtoHAsync(dst, src->ptr + src_offset, bytes, q->stream),
             MAGNUS_ERROR_DEVICE, "cuMemcpyDtoHAsync(%zu bytes) on CUDA device %d", bytes,
             q->ctx->index)))
        return s;
    return wait_stream(q, "cuMemcpyDtoHAsync");
}

magnus_status magnus_cuda_mem_copy(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                                   magnus_bmem *src, size_t src_offset, size_t bytes) {
    magnus_status s;
    if ((s = check_range(dst, dst_offset, bytes, "CUDA mem_copy destination")) ||
        (s = check_range(src, src_offset, bytes, "CUDA mem_copy source")))
        return s;
    if (bytes == 0) return MAGNUS_SUCCESS;
    /* Overlapping copies are undefined for cuMemcpy and an error in OpenCL: refuse them. */
    if (dst == src && dst_offset < src_offset + bytes && src_offset < dst_offset + bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "CUDA mem_copy: source [%zu, +%zu) and destination [%zu, +%zu) "
                            "overlap in one buffer",
                            src_offset, bytes, dst_offset, bytes);
    if ((s = magnus_cuda_make_current(q->ctx))) return s;
    return magnus_cuda_check(magnus_cuda.MemcpyDtoDAsync(dst->ptr + dst_offset,
                                                         src->ptr + src_offset, bytes, q->stream),
                             MAGNUS_ERROR_DEVICE, "cuMemcpyDtoDAsync(%zu bytes) on CUDA device %d",
                             bytes, q->ctx->index);
}

/* JIT-compiles the 8-byte fill kernel into the context on first use. */
static magnus_status fill_kernel(magnus_bctx *ctx, CUfunction *out) {
    magnus_status s = MAGNUS_SUCCESS;
    pthread_mutex_lock(&ctx->fill_lock);
    if (!ctx->fill_kernel) {
        CUmodule module = NULL;
        CUfunction function = NULL;
        s = magnus_cuda_check(magnus_cuda.ModuleLoadData(&module, magnus_cuda_fill_ptx),
                              MAGNUS_ERROR_KERNEL_BUILD,
                              "cuModuleLoadData(fill_u64.ptx) on CUDA device %d", ctx->index);
        if (!s) {
            s = magnus_cuda_check(
                magnus_cuda.ModuleGetFunction(&function, module, "magnus_cuda_fill_u64"),
                MAGNUS_ERROR_KERNEL_BUILD, "cuModuleGetFunction(magnus_cuda_fill_u64)");
            if (s) {
                magnus_cuda.ModuleUnload(module);
            } else {
                ctx->fill_module = module;
                ctx->fill_kernel = function;
            }
        }
    }
    *out = ctx->fill_kernel;
    pthread_mutex_unlock(&ctx->fill_lock);
    return s;
}

/* 8-byte pattern with distinct halves: cuMemsetD* write at most 32-bit values, so a small
 * grid-stride kernel writes the 64-bit value. (The cuMemsetD2D32 trick of two strided 2-D
 * fills, one per half, would also work but makes n rows of 4 bytes and may be slow.) */
static magnus_status fill_u64(magnus_bqueue *q, CUdeviceptr dst, size_t count, uint64_t value) {
    CUfunction function;
    magnus_status s = fill_kernel(q->ctx, &function);
    if (s) return s;
    const unsigned threads = 256;
    size_t groups = (count + threads - 1) / threads;
    if (groups > 65536) groups = 65536; /* the loop covers the rest */
    uint64_t dst_arg = dst, count_arg = count, value_arg = value;
    void *params[] = {&dst_arg, &count_arg, &value_arg};
    return magnus_cuda_check(magnus_cuda.LaunchKernel(function, (unsigned)groups, 1, 1, threads, 1,
                                                      1, 0, q->stream, params, NULL),
                             MAGNUS_ERROR_KERNEL_LAUNCH,
                             "cuLaunchKernel(magnus_cuda_fill_u64, %zu values) on CUDA device %d",
                             count, q->ctx->index);
}

magnus_status magnus_cuda_mem_fill(magnus_bqueue *q, magnus_bmem *dst, size_t offset,
                                   const void *pattern, size_t pattern_bytes, size_t bytes) {
    magnus_status s = check_range(dst, offset, bytes, "CUDA mem_fill");
    if (s) return s;
    if (!pattern) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "CUDA mem_fill: pattern is NULL");
    if (pattern_bytes != 1 && pattern_bytes != 2 && pattern_bytes != 4 && pattern_bytes != 8)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "CUDA mem_fill: pattern of %zu bytes (1, 2, 4 or 8)", pattern_bytes);
    /* As in OpenCL's clEnqueueFillBuffer; it also keeps every store naturally aligned. */
    if (offset % pattern_bytes || bytes % pattern_bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "CUDA mem_fill: offset %zu and size %zu must be multiples of the "
                            "%zu-byte pattern",
                            offset, bytes, pattern_bytes);
    if (bytes == 0) return MAGNUS_SUCCESS;
    if ((s = magnus_cuda_make_current(q->ctx))) return s;

    CUdeviceptr ptr = dst->ptr + offset;
    size_t count = bytes / pattern_bytes;
    CUresult r;
    const char *call;
    if (pattern_bytes == 1) {
        uint8_t v;
        memcpy(&v, pattern, 1);
        call = "cuMemsetD8Async";
        r = magnus_cuda.MemsetD8Async(ptr, v, count, q->stream);
    } else if (pattern_bytes == 2) {
        uint16_t v;
        memcpy(&v, pattern, 2);
        call = "cuMemsetD16Async";
        r = magnus_cuda.MemsetD16Async(ptr, v, count, q->stream);
    } else if (pattern_bytes == 4) {
        uint32_t v;
        memcpy(&v, pattern, 4);
        call = "cuMemsetD32Async";
        r = magnus_cuda.MemsetD32Async(ptr, v, count, q->stream);
    } else {
        uint32_t half[2];
        memcpy(half, pattern, 8);
        if (half[0] != half[1]) {
            uint64_t v;
            memcpy(&v, pattern, 8);
            return fill_u64(q, ptr, count, v);
        }
        /* Equal halves (0, all ones, ...): the same bytes as 2n 32-bit values. */
        call = "cuMemsetD32Async";
        r = magnus_cuda.MemsetD32Async(ptr, half[0], count * 2, q->stream);
    }
    return magnus_cuda_check(r, MAGNUS_ERROR_DEVICE, "%s(%zu bytes) on CUDA device %d", call,
                             bytes, q->ctx->index);
}

#endif /* MAGNUS_HAVE_CUDA_H */

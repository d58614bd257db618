/*
 * CUDA device memory: allocation, host<->device copies, device copies and pattern fills.
 * Every transfer goes on the queue's stream (the plain cuMemcpyHtoD would run on the legacy
 * NULL stream, which does not order with non-blocking streams); write and read then wait
 * for the stream, as backend.h says they block.
 */
#ifdef MAGNUS_HAVE_CUDA_H

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

magnus_status magnus_cuda_mem_alloc(magnus_bctx *ctx, size_t bytes, magnus_bmem **out) {
    *out = NULL;
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    magnus_bmem *mem = magnus_host_calloc(1, sizeof *mem);
    if (!mem) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA buffer handle");
    mem->bytes = bytes ? bytes : 1; /* cuMemAlloc refuses 0 bytes */
    if ((s = magnus_cuda_check(magnus_cuda.MemAlloc(&mem->ptr, mem->bytes), MAGNUS_ERROR_DEVICE,
                               "cuMemAlloc(%zu bytes) on CUDA device %d", mem->bytes,
                               ctx->index))) {
        magnus_host_free(mem);
        return s;
    }
    *out = mem;
    return MAGNUS_SUCCESS;
}

void magnus_cuda_mem_free(magnus_bctx *ctx, magnus_bmem *mem) {
    if (!mem) return;
    /* Queued work may still use the buffer (backend.h). cuMemFree "may perform implicit
     * synchronization" (and in practice does), but only waiting for the context makes it
     * certain; it costs nothing beyond what cuMemFree already does. A failed wait (a sticky
     * error from earlier work) leaves the context unusable anyway, so the memory is freed. */
    if (magnus_cuda_make_current(ctx) == MAGNUS_SUCCESS) {
        magnus_cuda.CtxSynchronize();
        magnus_cuda.MemFree(mem->ptr);
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

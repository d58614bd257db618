/*
 * CUDA contexts and queues: a context is the device's primary context (retained), a queue a
 * non-blocking stream on it. Every entry point makes the context current first (see
 * cuda_internal.h).
 */
#ifdef MAGNUS_HAVE_CUDA_H

#include "cuda_internal.h"

magnus_status magnus_cuda_make_current(magnus_bctx *ctx) {
    return magnus_cuda_check(magnus_cuda.CtxSetCurrent(ctx->context), MAGNUS_ERROR_DEVICE,
                             "cuCtxSetCurrent (CUDA device %d)", ctx->index);
}

magnus_status magnus_cuda_context_create(int index, magnus_bctx **out) {
    *out = NULL;
    magnus_bctx *ctx = magnus_host_calloc(1, sizeof *ctx);
    if (!ctx)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA context for device %d", index);
    ctx->index = index;
    magnus_status s = magnus_cuda_device_get(index, &ctx->device);
    if (s) goto fail;
    /* The primary context is the one the CUDA runtime and other libraries share, so device
     * memory and streams can be exchanged with them in one process. */
    if ((s = magnus_cuda_check(magnus_cuda.DevicePrimaryCtxRetain(&ctx->context, ctx->device),
                               MAGNUS_ERROR_DEVICE, "cuDevicePrimaryCtxRetain(%d)", index)))
        goto fail;
    int optin = 0;
    if ((s = magnus_cuda_make_current(ctx)) ||
        (s = magnus_cuda_device_attribute(ctx->device, index,
                                          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                          "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", &optin))) {
        magnus_cuda.DevicePrimaryCtxRelease(ctx->device);
        goto fail;
    }
    ctx->shared_optin = (size_t)(optin > 0 ? optin : 0);
    if (pthread_mutex_init(&ctx->fill_lock, NULL) != 0) {
        magnus_cuda.DevicePrimaryCtxRelease(ctx->device);
        s = magnus_error(MAGNUS_ERROR_INTERNAL, "CUDA context %d: pthread_mutex_init failed", index);
        goto fail;
    }
    if ((s = magnus_cuda_memory_init(ctx))) {
        pthread_mutex_destroy(&ctx->fill_lock);
        magnus_cuda.DevicePrimaryCtxRelease(ctx->device);
        goto fail;
    }
    *out = ctx;
    return MAGNUS_SUCCESS;
fail:
    magnus_host_free(ctx);
    return s;
}

void magnus_cuda_context_destroy(magnus_bctx *ctx) {
    if (!ctx) return;
    if (magnus_cuda_make_current(ctx) == MAGNUS_SUCCESS) {
        if (ctx->fill_module) magnus_cuda.ModuleUnload(ctx->fill_module);
        magnus_cuda_memory_release(ctx);
    }
    magnus_cuda.DevicePrimaryCtxRelease(ctx->device);
    pthread_mutex_destroy(&ctx->fill_lock);
    magnus_host_free(ctx);
}

magnus_status magnus_cuda_queue_create(magnus_bctx *ctx, int urgent, magnus_bqueue **out) {
    *out = NULL;
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    magnus_bqueue *q = magnus_host_calloc(1, sizeof *q);
    if (!q)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA stream for device %d",
                            ctx->index);
    q->ctx = ctx;
    /* Non-blocking: work on the legacy NULL stream (by other code in the process) must not
     * serialise magnus's streams. Urgent: the greatest priority, whose blocks the scheduler
     * starts before the waiting blocks of lower-priority grids (lower numbers are greater). */
    int least = 0, greatest = 0;
    if (urgent && magnus_cuda.CtxGetStreamPriorityRange(&least, &greatest) != CUDA_SUCCESS)
        greatest = 0;
    if ((s = magnus_cuda_check(
             magnus_cuda.StreamCreateWithPriority(&q->stream, CU_STREAM_NON_BLOCKING,
                                                  urgent ? greatest : 0),
             MAGNUS_ERROR_DEVICE, "cuStreamCreateWithPriority on CUDA device %d", ctx->index))) {
        magnus_host_free(q);
        return s;
    }
    if ((s = magnus_cuda_memory_add_queue(ctx, q))) {
        magnus_cuda.StreamDestroy(q->stream);
        magnus_host_free(q);
        return s;
    }
    *out = q;
    return MAGNUS_SUCCESS;
}

void magnus_cuda_queue_destroy(magnus_bqueue *q) {
    if (!q) return;
    /* cuStreamDestroy returns at once; work still queued completes first. */
    if (magnus_cuda_make_current(q->ctx) == MAGNUS_SUCCESS) {
        magnus_cuda_memory_remove_queue(q->ctx, q);
        magnus_cuda.StreamDestroy(q->stream);
    }
    magnus_host_free(q);
}

magnus_status magnus_cuda_queue_finish(magnus_bqueue *q) {
    magnus_status s = magnus_cuda_make_current(q->ctx);
    if (s) return s;
    return magnus_cuda_check(magnus_cuda.StreamSynchronize(q->stream), MAGNUS_ERROR_DEVICE,
                             "cuStreamSynchronize on CUDA device %d", q->ctx->index);
}

#endif /* MAGNUS_HAVE_CUDA_H */

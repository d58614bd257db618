/* CUDA devices, primary contexts and streams. */
#ifdef MAGNUS_HAVE_CUDA_H

#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

void magnus_cuda_format_version(int version, char *buf, size_t size) {
    snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

magnus_status magnus_cuda_make_current(magnus_bctx *ctx) {
    return magnus_cuda_check(magnus_cuda.CtxSetCurrent(ctx->context), MAGNUS_ERROR_DEVICE,
                             "cuCtxSetCurrent (CUDA device %d)", ctx->index);
}

magnus_status magnus_cuda_device_count(int *count) {
    *count = 0;
    int n = 0;
    magnus_status s = magnus_cuda_check(magnus_cuda.DeviceGetCount(&n),
                                        MAGNUS_ERROR_BACKEND_UNAVAILABLE, "%s: cuDeviceGetCount",
                                        magnus_cuda_library_path());
    if (s) return s;
    *count = n;
    return MAGNUS_SUCCESS;
}

static magnus_status get_device(int index, CUdevice *device) {
    return magnus_cuda_check(magnus_cuda.DeviceGet(device, index), MAGNUS_ERROR_NO_DEVICE,
                             "cuDeviceGet(%d)", index);
}

static magnus_status attribute(CUdevice device, int index, CUdevice_attribute which,
                               const char *name, int *value) {
    return magnus_cuda_check(magnus_cuda.DeviceGetAttribute(value, which, device),
                             MAGNUS_ERROR_DEVICE, "cuDeviceGetAttribute(%s) on CUDA device %d",
                             name, index);
}

magnus_status magnus_cuda_device_info(int index, magnus_device_info *info) {
    memset(info, 0, sizeof *info);
    CUdevice device;
    magnus_status s = get_device(index, &device);
    if (s) return s;
    info->backend = MAGNUS_BACKEND_CUDA;
    info->index = index;
    if ((s = magnus_cuda_check(magnus_cuda.DeviceGetName(info->name, (int)sizeof info->name,
                                                          device),
                               MAGNUS_ERROR_DEVICE, "cuDeviceGetName(%d)", index)))
        return s;
    info->name[sizeof info->name - 1] = '\0';
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    magnus_cuda_format_version(magnus_cuda.driver_version, info->driver_version,
                               sizeof info->driver_version);

    size_t total = 0;
    if ((s = magnus_cuda_check(magnus_cuda.DeviceTotalMem(&total, device), MAGNUS_ERROR_DEVICE,
                               "cuDeviceTotalMem(%d)", index)))
        return s;
    info->global_mem_bytes = total;

    int shared_optin = 0, sms = 0, warp = 0, max_threads = 0;
    if ((s = attribute(device, index, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                       "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", &shared_optin)) ||
        (s = attribute(device, index, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                       "MULTIPROCESSOR_COUNT", &sms)) ||
        (s = attribute(device, index, CU_DEVICE_ATTRIBUTE_WARP_SIZE, "WARP_SIZE", &warp)) ||
        (s = attribute(device, index, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                       "MAX_THREADS_PER_BLOCK", &max_threads)))
        return s;
    /* The opt-in maximum (227 KiB on Hopper), reachable because launch() raises
     * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES for launches above 48 KiB. */
    info->local_mem_bytes = (uint64_t)(shared_optin > 0 ? shared_optin : 0);
    info->compute_units = sms;
    info->subgroup_sizes[0] = warp;
    info->num_subgroup_sizes = 1;
    info->max_work_group_size = (uint64_t)(max_threads > 0 ? max_threads : 0);
    /* Every device the embedded kernels can run on (sm_60 and newer: atomicAdd on double)
     * has native fp64 and 64-bit atomics on global and shared memory. */
    info->fp64 = 1;
    info->atomic64 = 1;
    info->is_cpu = 0;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_context_create(int index, magnus_bctx **out) {
    *out = NULL;
    magnus_bctx *ctx = magnus_host_calloc(1, sizeof *ctx);
    if (!ctx)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA context for device %d", index);
    ctx->index = index;
    magnus_status s = get_device(index, &ctx->device);
    if (s) goto fail;
    /* The primary context is the one the CUDA runtime and other libraries share, so device
     * memory and streams can be exchanged with them in one process. */
    if ((s = magnus_cuda_check(magnus_cuda.DevicePrimaryCtxRetain(&ctx->context, ctx->device),
                               MAGNUS_ERROR_DEVICE, "cuDevicePrimaryCtxRetain(%d)", index)))
        goto fail;
    int optin = 0;
    if ((s = magnus_cuda_make_current(ctx)) ||
        (s = attribute(ctx->device, index, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
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
    *out = ctx;
    return MAGNUS_SUCCESS;
fail:
    magnus_host_free(ctx);
    return s;
}

void magnus_cuda_context_destroy(magnus_bctx *ctx) {
    if (!ctx) return;
    if (magnus_cuda_make_current(ctx) == MAGNUS_SUCCESS && ctx->fill_module)
        magnus_cuda.ModuleUnload(ctx->fill_module);
    magnus_cuda.DevicePrimaryCtxRelease(ctx->device);
    pthread_mutex_destroy(&ctx->fill_lock);
    magnus_host_free(ctx);
}

magnus_status magnus_cuda_queue_create(magnus_bctx *ctx, magnus_bqueue **out) {
    *out = NULL;
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    magnus_bqueue *q = magnus_host_calloc(1, sizeof *q);
    if (!q)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA stream for device %d",
                            ctx->index);
    q->ctx = ctx;
    /* Non-blocking: work on the legacy NULL stream (by other code in the process) must not
     * serialise magnus's streams. */
    if ((s = magnus_cuda_check(magnus_cuda.StreamCreate(&q->stream, CU_STREAM_NON_BLOCKING),
                               MAGNUS_ERROR_DEVICE, "cuStreamCreate on CUDA device %d",
                               ctx->index))) {
        magnus_host_free(q);
        return s;
    }
    *out = q;
    return MAGNUS_SUCCESS;
}

void magnus_cuda_queue_destroy(magnus_bqueue *q) {
    if (!q) return;
    /* cuStreamDestroy returns at once; work still queued completes first. */
    if (magnus_cuda_make_current(q->ctx) == MAGNUS_SUCCESS) magnus_cuda.StreamDestroy(q->stream);
    magnus_host_free(q);
}

magnus_status magnus_cuda_queue_finish(magnus_bqueue *q) {
    magnus_status s = magnus_cuda_make_current(q->ctx);
    if (s) return s;
    return magnus_cuda_check(magnus_cuda.StreamSynchronize(q->stream), MAGNUS_ERROR_DEVICE,
                             "cuStreamSynchronize on CUDA device %d", q->ctx->index);
}

#endif /* MAGNUS_HAVE_CUDA_H */

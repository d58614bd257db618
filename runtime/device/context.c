/*
 * Contexts: one device, its queues, its lazily loaded kernel modules, the local-memory budget
 * (the option, else MAGNUS_LOCAL_MEM_BYTES, else min(device, MAGNUS_DEFAULT_LOCAL_MEM_BUDGET)),
 * the device-memory limit and the tuning knobs in effect (options and environment are read
 * here, once; the algorithms read the context).
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "byte_size.h"
#include "device_runtime.h"

uint64_t magnus_default_local_budget(uint64_t device_local_mem_bytes) {
    return device_local_mem_bytes < MAGNUS_DEFAULT_LOCAL_MEM_BUDGET
               ? device_local_mem_bytes
               : MAGNUS_DEFAULT_LOCAL_MEM_BUDGET;
}

magnus_status magnus_context_check(const magnus_context_s *ctx) {
    if (!ctx) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "context is NULL");
    if (ctx->magic != MAGNUS_MAGIC_CONTEXT)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE,
                            "not a live magnus_context (freed or never created)");
    return MAGNUS_SUCCESS;
}

magnus_status magnus_context_options_init(magnus_context_options *opt) {
    magnus_error_clear();
    if (!opt) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_context_options_init: NULL");
    memset(opt, 0, sizeof *opt);
    return MAGNUS_SUCCESS;
}

static void context_release(magnus_context c) {
    /* the caller has waited for the queues (or none was created) */
    (void)magnus_context_release_deferred(c);
    magnus_host_free(c->deferred);
    magnus_context_constants_free(c);
    magnus_pool_release(c);
    magnus_trace_close(c);
    for (int v = 0; v < MAGNUS_VARIANT_COUNT; v++)
        for (int k = 0; k < MAGNUS_KERNEL_COUNT; k++)
            if (c->kernels[v][k].kernel) c->ops->kernel_release(c->kernels[v][k].kernel);
    for (int v = 0; v < MAGNUS_VARIANT_COUNT; v++)
        if (c->modules[v]) c->ops->module_unload(c->modules[v]);
    for (int q = 0; q < MAGNUS_QUEUE_COUNT; q++)
        if (c->queues[q]) c->ops->queue_destroy(c->queues[q]);
    if (c->bctx) c->ops->context_destroy(c->bctx);
    c->magic = MAGNUS_MAGIC_FREED;
    magnus_host_free(c);
}

/* Everything a context decides from its device's description, its options and the
 * environment, before it touches the backend: the budget, the memory limit, the tuning knobs
 * (magnus_context_create, and magnus_hash_params_compute for a device described rather than
 * present). `info` is the device as probed (local_mem_bytes: the device's whole local memory). */
magnus_status magnus_context_settings(magnus_context_s *c, const magnus_device_info *info,
                                      const magnus_context_options *opt) {
    magnus_status s;
    uint64_t local_budget, memory_limit;
    if ((s = magnus_knob_size(opt->local_mem_bytes, "MAGNUS_LOCAL_MEM_BYTES", &local_budget)) ||
        (s = magnus_knob_size(opt->device_memory_limit, "MAGNUS_DEVICE_MEMORY_LIMIT",
                              &memory_limit)))
        return s;
    if (local_budget > info->local_mem_bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "local memory budget of %llu bytes exceeds the %llu bytes of %s",
                            (unsigned long long)local_budget,
                            (unsigned long long)info->local_mem_bytes, info->name);
    uint32_t hash_group_max;
    uint64_t work_group_limit = info->max_work_group_size ? info->max_work_group_size : 256;
    if ((s = magnus_knob_hash_group_max(opt->hash_group_max, work_group_limit,
                                        &hash_group_max)))
        return s;
    c->device = *info;
    c->device_local_mem_bytes = info->local_mem_bytes;
    c->device.local_mem_bytes =
        local_budget ? local_budget : magnus_default_local_budget(info->local_mem_bytes);
    c->memory_limit = memory_limit;
    c->hash_group_max = hash_group_max;
    c->launch_local_limit = c->device.local_mem_bytes;
    /* the accumulators' (hash, dense rows) and the algorithms' own knobs, each into its slot
     * (device_runtime.h, magnus_knob_reader); a launch may ask what the most demanding asks */
    static const magnus_knob_reader *const readers[MAGNUS_KNOBS_COUNT] = {
        [MAGNUS_KNOBS_ACCUMULATE] = &magnus_knobs_accumulate,
        [MAGNUS_KNOBS_GMAGNUS] = &magnus_knobs_gmagnus,
        [MAGNUS_KNOBS_DENSE_ROWS] = &magnus_knobs_dense_rows,
    };
    for (int k = 0; k < MAGNUS_KNOBS_COUNT; k++) {
        uint64_t launch_local = 0;
        memset(&c->knobs[k], 0, sizeof c->knobs[k]);
        if ((s = readers[k]->read(c->knobs[k].bytes, &launch_local, c, opt))) return s;
        if (launch_local > c->launch_local_limit) c->launch_local_limit = launch_local;
    }
    return MAGNUS_SUCCESS;
}

magnus_status magnus_context_create(magnus_context *ctx, const magnus_device_info *device,
                                    const magnus_context_options *opt) {
    magnus_error_clear();
    if (!ctx) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_context_create: ctx is NULL");
    *ctx = NULL;
    magnus_context_options defaults;
    magnus_context_options_init(&defaults);
    if (!opt) opt = &defaults;
    magnus_device_info chosen;
    magnus_status s;
    if (!device) {
        if ((s = magnus_device_select(&chosen))) return s;
        device = &chosen;
    }
    const magnus_backend_ops *ops;
    if ((s = magnus_backend_get(device->backend, &ops))) return s;

    magnus_device_info info;
    memset(&info, 0, sizeof info);
    if ((s = ops->device_info(device->index, &info))) return s;
    info.backend = device->backend;
    info.index = device->index;
    if (info.max_alloc_bytes == 0) info.max_alloc_bytes = info.global_mem_bytes;

    magnus_context c = magnus_host_calloc(1, sizeof *c);
    if (!c) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "magnus_context_create");
    uint32_t preload_kernels, urgent_light;
    if ((s = magnus_context_settings(c, &info, opt)) ||
        (s = magnus_knob_preload(&preload_kernels, ops->preload_kernels)) ||
        (s = magnus_knob_urgent_light(&urgent_light)) ||
        (s = magnus_knob_scan_one_group(&c->scan_one_group_tiles))) {
        magnus_host_free(c);
        return s;
    }
    c->magic = MAGNUS_MAGIC_CONTEXT;
    c->ops = ops;
    c->build_notice.fn = opt ? opt->build_progress : NULL;
    c->build_notice.user = opt ? opt->build_progress_user : NULL;
    magnus_trace_open(c);
    if ((s = ops->context_create(info.index, &c->bctx))) {
        context_release(c);
        return s;
    }
    for (int q = 0; q < MAGNUS_QUEUE_COUNT; q++) {
        const int urgent = q == MAGNUS_QUEUE_LIGHT && urgent_light;
        if ((s = ops->queue_create(c->bctx, urgent, &c->queues[q]))) {
            context_release(c);
            return s;
        }
    }
    c->preload_kernels = preload_kernels;
    if (preload_kernels &&
        ((s = magnus_context_preload(c, MAGNUS_VARIANT_F32)) ||
         (c->device.fp64 && (s = magnus_context_preload(c, MAGNUS_VARIANT_F64))))) {
        context_release(c);
        return s;
    }
    *ctx = c;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_context_free(magnus_context *ctx) {
    if (!ctx || !*ctx) return MAGNUS_SUCCESS;
    magnus_status s = magnus_context_check(*ctx);
    if (s) return s;
    magnus_context c = *ctx;
    for (int q = 0; q < MAGNUS_QUEUE_COUNT; q++) c->ops->queue_finish(c->queues[q]);
    context_release(c);
    *ctx = NULL;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_context_device(magnus_device_info *out, const magnus_context_s *ctx) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_context_device: out is NULL");
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    *out = ctx->device;
    return MAGNUS_SUCCESS;
}

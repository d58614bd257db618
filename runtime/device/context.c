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

/* The option if nonzero, else the environment variable if set, else 0. */
static magnus_status size_setting(uint64_t option, const char *variable, uint64_t *out) {
    *out = option;
    const char *env = getenv(variable);
    if (option || !env || !*env) return MAGNUS_SUCCESS;
    if (magnus_parse_bytes(out, env))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s=%s: expected a size in bytes such as 65536, 48K, 512M or 2G",
                            variable, env);
    return MAGNUS_SUCCESS;
}

static void context_release(magnus_context c) {
    /* the caller has waited for the queues (or none was created) */
    (void)magnus_context_release_deferred(c);
    magnus_host_free(c->deferred);
    magnus_context_constants_free(c);
    magnus_pool_release(c);
    magnus_trace_close(c);
    for (int i = 0; i < c->nkernels; i++) {
        c->ops->kernel_release(c->kernels[i].kernel);
        magnus_host_free(c->kernels[i].name);
    }
    for (int v = 0; v < MAGNUS_VARIANT_COUNT; v++)
        if (c->modules[v]) c->ops->module_unload(c->modules[v]);
    for (int q = 0; q < MAGNUS_QUEUE_COUNT; q++)
        if (c->queues[q]) c->ops->queue_destroy(c->queues[q]);
    if (c->bctx) c->ops->context_destroy(c->bctx);
    c->magic = MAGNUS_MAGIC_FREED;
    magnus_host_free(c);
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

    uint64_t local_budget, memory_limit, chat_batch_bytes;
    if ((s = size_setting(opt->local_mem_bytes, "MAGNUS_LOCAL_MEM_BYTES", &local_budget)) ||
        (s = size_setting(opt->device_memory_limit, "MAGNUS_DEVICE_MEMORY_LIMIT", &memory_limit)) ||
        (s = size_setting(opt->chat_batch_bytes, "MAGNUS_CHAT_BATCH_BYTES", &chat_batch_bytes)))
        return s;
    if (chat_batch_bytes == 0) {
        const uint64_t memory = memory_limit ? memory_limit : info.global_mem_bytes;
        chat_batch_bytes = memory / MAGNUS_CHAT_BATCH_FRACTION;
        if (chat_batch_bytes == 0) chat_batch_bytes = 1;
    }
    if (local_budget > info.local_mem_bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "local memory budget of %llu bytes exceeds the %llu bytes of %s",
                            (unsigned long long)local_budget,
                            (unsigned long long)info.local_mem_bytes, info.name);
    uint32_t hash_group_max, multisplit_group, chat_gap_divisor;
    uint64_t chat_gap_min_bytes, heavy_row_products;
    uint32_t preload_kernels, urgent_light, dense_rows, dense_row_share;
    int spmv_local_share;
    bool hash_wide_bins;
    int64_t dense_min_elements;
    uint64_t work_group_limit = info.max_work_group_size ? info.max_work_group_size : 256;
    if ((s = magnus_knob_hash_group_max(opt->hash_group_max, work_group_limit,
                                        &hash_group_max)) ||
        (s = magnus_knob_multisplit_group(opt->multisplit_group, work_group_limit,
                                              &multisplit_group)) ||
        (s = magnus_knob_dense_min_elements(opt->dense_min_elements, &dense_min_elements)) ||
        (s = magnus_knob_chat_gap(&chat_gap_divisor, &chat_gap_min_bytes)) ||
        (s = magnus_knob_heavy_rows(&heavy_row_products, &hash_wide_bins)) ||
        (s = magnus_knob_preload(&preload_kernels, ops->preload_kernels)) ||
        (s = magnus_knob_urgent_light(&urgent_light)) ||
        (s = magnus_knob_dense_rows(&dense_rows, &dense_row_share)) ||
        (s = magnus_knob_spmv_carveout(&spmv_local_share)))
        return s;

    magnus_context c = magnus_host_calloc(1, sizeof *c);
    if (!c) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "magnus_context_create");
    c->magic = MAGNUS_MAGIC_CONTEXT;
    c->ops = ops;
    c->device = info;
    c->device_local_mem_bytes = info.local_mem_bytes;
    c->device.local_mem_bytes =
        local_budget ? local_budget : magnus_default_local_budget(info.local_mem_bytes);
    c->memory_limit = memory_limit;
    c->hash_group_max = hash_group_max;
    c->dense_min_elements = dense_min_elements;
    c->multisplit_group = multisplit_group;
    c->chat_gap_divisor = chat_gap_divisor;
    c->chat_gap_min_bytes = chat_gap_min_bytes;
    c->heavy_row_products = heavy_row_products;
    c->chat_batch_bytes = chat_batch_bytes;
    c->hash_wide_bins = hash_wide_bins && c->device_local_mem_bytes > c->device.local_mem_bytes;
    /* dense rows may use the device's local memory unless the caller set a budget */
    c->dense_rows_local_bytes =
        !dense_rows ? 0 : local_budget ? c->device.local_mem_bytes : c->device_local_mem_bytes;
    c->dense_row_share = dense_row_share;
    c->spmv_local_share = spmv_local_share;
    c->launch_local_limit = c->hash_wide_bins ? c->device_local_mem_bytes : c->device.local_mem_bytes;
    if (c->dense_rows_local_bytes > c->launch_local_limit)
        c->launch_local_limit = c->dense_rows_local_bytes;
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

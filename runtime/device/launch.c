/* Kernel launch by id (kernel_ids.h): modules load on first use, kernel handles (with their
 * limits) are cached per context, by variant and id. */
#include <string.h>

#include "backend.h"
#include "device_runtime.h"

static const char *variant_name(magnus_kernel_variant v) {
    return v == MAGNUS_VARIANT_F64 ? "float64" : "float32";
}

/* Every kernel's name, by id (kernel_ids.h). */
#define MG_KERNEL_SIG(kernel, ...) [MAGNUS_KERNEL_##kernel] = #kernel,
static const char *const kernel_names[MAGNUS_KERNEL_COUNT] = {
#include "kernel_signatures.h"
};
#undef MG_KERNEL_SIG

const char *magnus_kernel_name(magnus_kernel_id kernel) {
    return (int)kernel >= 0 && kernel < MAGNUS_KERNEL_COUNT ? kernel_names[kernel] : NULL;
}

/* Kernel `kernel` of `variant` (an id in range), made on first use: the module loaded if
 * needed, the kernel looked up by name in the module and its limits asked for before anything
 * launches it. */
static magnus_status lookup(magnus_context ctx, magnus_kernel_variant variant,
                            magnus_kernel_id kernel) {
    if (ctx->kernels[variant][kernel].kernel) return MAGNUS_SUCCESS;
    magnus_status s;
    double t0 = magnus_now_ms();
    if (!ctx->modules[variant] &&
        (s = ctx->ops->module_load(ctx->bctx, variant, &ctx->build_notice, &ctx->modules[variant])))
        return s;
    magnus_bkernel *handle;
    if ((s = ctx->ops->kernel_get(ctx->modules[variant], kernel_names[kernel], &handle))) return s;
    magnus_kernel_limits limits = {0, 0};
    if ((s = ctx->ops->kernel_limits(ctx->bctx, handle, &limits))) {
        ctx->ops->kernel_release(handle);
        return s;
    }
    ctx->kernels[variant][kernel].kernel = handle;
    ctx->kernels[variant][kernel].limits = limits;
    ctx->kernels[variant][kernel].local_share = -1; /* nothing asked yet: the driver's */
    ctx->kernel_load_ms += magnus_now_ms() - t0;
    return MAGNUS_SUCCESS;
}

/* lookup, its error prefixed with the kernel's name and variant. */
static magnus_status lookup_named(magnus_context ctx, magnus_kernel_variant variant,
                                  magnus_kernel_id kernel, const char *name) {
    magnus_status s = lookup(ctx, variant, kernel);
    if (s) magnus_error_prefix("kernel %s (%s): ", name, variant_name(variant));
    return s;
}

/* ctx is live and `kernel` an id: *name gets the kernel's name; an error names `caller`. */
static magnus_status check_kernel(const char **name, magnus_context ctx, magnus_kernel_id kernel,
                                  const char *caller) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (!(*name = magnus_kernel_name(kernel)))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: no kernel has id %d", caller,
                            (int)kernel);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_context_preload(magnus_context ctx, magnus_kernel_variant variant) {
    for (int k = 0; k < MAGNUS_KERNEL_COUNT; k++) {
        magnus_status s = lookup(ctx, variant, (magnus_kernel_id)k);
        if (s) return s;
    }
    return MAGNUS_SUCCESS;
}

magnus_status magnus_launch(magnus_context ctx, magnus_queue_id q, magnus_kernel_variant variant,
                            magnus_kernel_id kernel, size_t groups, size_t group_size,
                            size_t local_bytes, int nargs, const magnus_karg *args) {
    const char *name;
    magnus_status s = check_kernel(&name, ctx, kernel, "magnus_launch");
    if (s) return s;
    if ((int)q < 0 || q >= MAGNUS_QUEUE_COUNT || (int)variant < 0 ||
        variant >= MAGNUS_VARIANT_COUNT || nargs < 0 || (nargs > 0 && !args))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_launch(%s): queue %d, variant %d, %d arguments", name, (int)q,
                            (int)variant, nargs);
    if (groups == 0) return MAGNUS_SUCCESS;
    if (group_size == 0 || group_size > ctx->device.max_work_group_size)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_launch(%s): work group of %zu items (device maximum %llu)",
                            name, group_size, (unsigned long long)ctx->device.max_work_group_size);
    /* The budget sizes the algorithms; only the hash accumulator's wide bins and dense rows,
     * and SpMV's hot x where asked, go past it, never past the device (launch_local_limit). */
    const uint64_t local_limit = ctx->launch_local_limit;
    if (local_bytes > local_limit)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_launch(%s): %zu bytes of local memory exceed the %s of "
                            "%llu",
                            name, local_bytes,
                            local_limit == ctx->device.local_mem_bytes ? "budget" : "device's",
                            (unsigned long long)local_limit);
    for (int i = 0; i < nargs; i++)
        if (args[i].kind == MAGNUS_KARG_MEM ? !args[i].u.mem
                                            : args[i].kind != MAGNUS_KARG_VALUE ||
                                                  (args[i].size != 4 && args[i].size != 8))
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "magnus_launch(%s): argument %d is an unallocated buffer or a "
                                "value of %u bytes",
                                name, i, (unsigned)args[i].size);
    if ((s = lookup_named(ctx, variant, kernel, name))) return s;
    /* The launch's host time is the backend's call alone: the device trace's event records
     * around it (through OpenCL a marker and a flush each) are its own cost, not the launch's. */
    magnus_bevent *before = magnus_trace_device_before(ctx, q);
    const double t = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->launch(ctx->queues[q], ctx->kernels[variant][kernel].kernel, groups, group_size,
                         local_bytes, nargs, args);
    magnus_trace_event(ctx, "launch", name, t, (uint64_t)groups);
    magnus_trace_device_after(ctx, q, name, groups, before);
    if (s) magnus_error_prefix("kernel %s (%s), %zu groups of %zu: ", name, variant_name(variant),
                               groups, group_size);
    return s;
}

magnus_status magnus_kernel_limits_get(magnus_kernel_limits *out, magnus_context ctx,
                                       magnus_kernel_variant variant, magnus_kernel_id kernel) {
    if (!out)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_kernel_limits_get: out is NULL");
    const char *name;
    magnus_status s = check_kernel(&name, ctx, kernel, "magnus_kernel_limits_get");
    if (s) return s;
    if ((int)variant < 0 || variant >= MAGNUS_VARIANT_COUNT)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_kernel_limits_get(%s): no kernel variant %d", name,
                            (int)variant);
    if ((s = lookup_named(ctx, variant, kernel, name))) return s;
    *out = ctx->kernels[variant][kernel].limits;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_kernel_local_share(magnus_context ctx, magnus_kernel_variant variant,
                                        magnus_kernel_id kernel, int local_percent) {
    const char *name;
    magnus_status s = check_kernel(&name, ctx, kernel, "magnus_kernel_local_share");
    if (s) return s;
    if ((int)variant < 0 || variant >= MAGNUS_VARIANT_COUNT || local_percent < -1 ||
        local_percent > 100)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_kernel_local_share(%s): variant %d, %d %% of local memory "
                            "(expected -1 or 0..100)",
                            name, (int)variant, local_percent);
    if ((s = lookup_named(ctx, variant, kernel, name))) return s;
    if (ctx->kernels[variant][kernel].local_share == local_percent) return MAGNUS_SUCCESS;
    if ((s = ctx->ops->kernel_local_share(ctx->bctx, ctx->kernels[variant][kernel].kernel,
                                          local_percent))) {
        magnus_error_prefix("kernel %s (%s): ", name, variant_name(variant));
        return s;
    }
    ctx->kernels[variant][kernel].local_share = local_percent;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_context_load_module(magnus_context ctx, magnus_kernel_variant variant) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if ((int)variant < 0 || variant >= MAGNUS_VARIANT_COUNT)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "no kernel variant %d", (int)variant);
    if (ctx->modules[variant]) return MAGNUS_SUCCESS;
    s = ctx->ops->module_load(ctx->bctx, variant, &ctx->build_notice, &ctx->modules[variant]);
    if (s) magnus_error_prefix("%s kernels: ", variant_name(variant));
    return s;
}

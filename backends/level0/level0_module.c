/*
 * Level Zero modules and kernels: the embedded SPIR-V (backends/level0/level0.cmake) built with
 * zeModuleCreate, kernels looked up by name and launched on a queue's immediate list.
 */
#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level0_internal.h"

#ifdef MAGNUS_HAVE_SPIRV
MAGNUS_EMBEDDED_BLOB(magnus_spirv_f32);
MAGNUS_EMBEDDED_BLOB(magnus_spirv_f64);
#endif

/* Stateless addressing, so a buffer may exceed 4 GiB (Intel's IGC option; see
 * level0_mem_alloc). MAGNUS_LEVEL0_BUILD_FLAGS replaces it for drivers that refuse it. */
#define LEVEL0_DEFAULT_BUILD_FLAGS "-ze-opt-greater-than-4GB-buffer-required"

#ifdef MAGNUS_HAVE_SPIRV
/* Sets a KERNEL_BUILD error carrying the build log (truncated by the detail buffer). */
static magnus_status build_failure(ze_result_t r, ze_module_build_log_handle_t log,
                                   const char *variant) {
    char *text = NULL;
    size_t size = 0;
    if (log && magnus_ze.zeModuleBuildLogGetString(log, &size, NULL) == ZE_RESULT_SUCCESS && size) {
        text = magnus_host_malloc(size + 1);
        if (text && magnus_ze.zeModuleBuildLogGetString(log, &size, text) == ZE_RESULT_SUCCESS)
            text[size] = '\0';
        else if (text)
            text[0] = '\0';
    }
    const char *name = magnus_ze_result_name(r);
    magnus_status s = magnus_error(MAGNUS_ERROR_KERNEL_BUILD,
                                   "level0: zeModuleCreate (SPIR-V, %s) failed: %s; build log: %s",
                                   variant, name ? name : "?",
                                   text && text[0] ? text : "(empty)");
    magnus_host_free(text);
    return s;
}
#endif

magnus_status level0_module_load(magnus_bctx *ctx, magnus_kernel_variant variant,
                                 const magnus_build_notice *notice, magnus_bmodule **out) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: module output is NULL");
    *out = NULL;
    if (!ctx) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: module_load without a context");
    if (variant != MAGNUS_VARIANT_F32 && variant != MAGNUS_VARIANT_F64)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "level0: kernel variant %d", (int)variant);
    const char *vname = variant == MAGNUS_VARIANT_F64 ? "f64" : "f32";
#ifdef MAGNUS_HAVE_SPIRV
    if (variant == MAGNUS_VARIANT_F64 && !ctx->dev->info.fp64)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "level0: %s has no fp64 (ZE_DEVICE_MODULE_FLAG_FP64); the float64 "
                            "kernels cannot run on it", ctx->dev->info.name);
    const unsigned char *il = variant == MAGNUS_VARIANT_F64 ? magnus_spirv_f64 : magnus_spirv_f32;
    size_t il_size = variant == MAGNUS_VARIANT_F64 ? magnus_spirv_f64_size : magnus_spirv_f32_size;
    const char *flags = getenv("MAGNUS_LEVEL0_BUILD_FLAGS");
    if (!flags) flags = LEVEL0_DEFAULT_BUILD_FLAGS;

    magnus_bmodule *module = magnus_host_calloc(1, sizeof *module);
    if (!module) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0: no host memory for a module");
    module->ctx = ctx;
    ze_module_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
                             .format = ZE_MODULE_FORMAT_IL_SPIRV,
                             .inputSize = il_size,
                             .pInputModule = il,
                             .pBuildFlags = flags,
                             .pConstants = NULL};
    ze_module_build_log_handle_t log = NULL;
    char what[512];
    snprintf(what, sizeof what, "compiling the %s SPIR-V kernels for %s (the driver may cache them)",
             variant == MAGNUS_VARIANT_F64 ? "float64" : "float32", ctx->dev->info.name);
    magnus_build_notify(notice, 0, what);
    ze_result_t r = magnus_ze.zeModuleCreate(ctx->context, ctx->dev->device, &desc,
                                             &module->module, &log);
    magnus_build_notify(notice, 1, what);
    magnus_status s = MAGNUS_SUCCESS;
    if (r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        s = magnus_ze_error(MAGNUS_ERROR_KERNEL_BUILD, r, "zeModuleCreate (SPIR-V, %s)", vname);
    else if (r)
        s = build_failure(r, log, vname);
    if (log) magnus_ze.zeModuleBuildLogDestroy(log);
    if (s) {
        magnus_host_free(module);
        return s;
    }
    *out = module;
    return MAGNUS_SUCCESS;
#else
    (void)notice; /* nothing is compiled without SPIR-V kernels */
    return magnus_error(MAGNUS_ERROR_KERNEL_BUILD,
                        "level0: this libmagnus was built without SPIR-V kernels (%s); rebuild "
                        "with clang-14, llvm-spirv-14 and spirv-val (MAGNUS_SPIRV_KERNELS=ON)",
                        vname);
#endif
}

void level0_module_unload(magnus_bmodule *module) {
    if (!module) return;
    if (module->module) magnus_ze.zeModuleDestroy(module->module);
    magnus_host_free(module);
}

magnus_status level0_kernel_get(magnus_bmodule *module, const char *name, magnus_bkernel **out) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: kernel output is NULL");
    *out = NULL;
    if (!module || !name)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: kernel_get needs a module and a name");
    magnus_bkernel *kernel = magnus_host_calloc(1, sizeof *kernel);
    if (!kernel) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0: no host memory for a kernel");
    ze_kernel_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .flags = 0, .pKernelName = name};
    ze_result_t r = magnus_ze.zeKernelCreate(module->module, &desc, &kernel->kernel);
    if (r) {
        magnus_host_free(kernel);
        return magnus_ze_error(MAGNUS_ERROR_KERNEL_BUILD, r, "zeKernelCreate(\"%s\")", name);
    }
    *out = kernel;
    return MAGNUS_SUCCESS;
}

magnus_status level0_kernel_limits(magnus_bctx *ctx, magnus_bkernel *kernel,
                                   magnus_kernel_limits *limits) {
    if (!ctx || !kernel || !limits)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER,
                            "level0: kernel_limits needs a context, a kernel and an output");
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ze_result_t r = magnus_ze.zeKernelGetProperties(kernel->kernel, &props);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeKernelGetProperties");
    /* Intel's driver compiles each kernel for one SIMD width and says how many sub-groups of
     * it fit in a group (fewer where the kernel's registers run out): their product is the
     * kernel's largest group, never more than the device's maxTotalGroupSize. */
    uint64_t group = ctx->dev->info.max_work_group_size;
    uint64_t by_subgroups = (uint64_t)props.maxSubgroupSize * props.maxNumSubgroups;
    if (by_subgroups > 0 && by_subgroups < group) group = by_subgroups;
    limits->max_group_size = group;
    limits->static_local_bytes = props.localMemSize;
    return MAGNUS_SUCCESS;
}

/* Level Zero offers two flags, not a percent: below half the kernel prefers the large data
 * cache, above half the large shared local memory, -1 and exactly half no preference (flags
 * 0, the driver's default). A driver without the control (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
 * keeps its default: the call is a hint. */
magnus_status level0_kernel_local_share(magnus_bctx *ctx, magnus_bkernel *kernel,
                                        int local_percent) {
    (void)ctx;
    if (!kernel || local_percent < -1 || local_percent > 100)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "level0: local-memory share of %d %% (expected -1 or 0..100)",
                            local_percent);
    ze_cache_config_flags_t flags = 0;
    if (local_percent >= 0 && local_percent < 50) flags = ZE_CACHE_CONFIG_FLAG_LARGE_DATA;
    if (local_percent > 50) flags = ZE_CACHE_CONFIG_FLAG_LARGE_SLM;
    ze_result_t r = magnus_ze.zeKernelSetCacheConfig(kernel->kernel, flags);
    if (r == ZE_RESULT_SUCCESS || r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) return MAGNUS_SUCCESS;
    return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeKernelSetCacheConfig(%s)",
                           flags == ZE_CACHE_CONFIG_FLAG_LARGE_DATA ? "large data"
                           : flags ? "large SLM" : "default");
}

void level0_kernel_release(magnus_bkernel *kernel) {
    if (!kernel) return;
    if (kernel->kernel) magnus_ze.zeKernelDestroy(kernel->kernel);
    magnus_host_free(kernel);
}

static magnus_status set_arguments(magnus_bkernel *kernel, size_t local_bytes, int nargs,
                                   const magnus_karg *args) {
    for (int i = 0; i < nargs; i++) {
        const magnus_karg *a = &args[i];
        ze_result_t r;
        if (a->kind == MAGNUS_KARG_MEM) {
            /* A buffer is its device pointer, passed by value. */
            void *ptr = a->u.mem ? a->u.mem->ptr : NULL;
            r = magnus_ze.zeKernelSetArgumentValue(kernel->kernel, (uint32_t)i, sizeof ptr, &ptr);
        } else if (a->kind == MAGNUS_KARG_VALUE && (a->size == 4 || a->size == 8)) {
            /* Every union member starts at its first byte, so &a->u is the value either size. */
            r = magnus_ze.zeKernelSetArgumentValue(kernel->kernel, (uint32_t)i, a->size, &a->u);
        } else {
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "level0: kernel argument %d has kind %d and size %u", i,
                                (int)a->kind, a->size);
        }
        if (r)
            return magnus_ze_error(MAGNUS_ERROR_KERNEL_LAUNCH, r, "zeKernelSetArgumentValue(arg %d)", i);
    }
    /* The trailing MG_DYN_LOCAL_PARAM: a local-memory argument is a size with a NULL value. A
     * zero-size local argument is invalid, so an unused one still gets one 8-byte word. */
    size_t local = local_bytes ? local_bytes : sizeof(uint64_t);
    ze_result_t r = magnus_ze.zeKernelSetArgumentValue(kernel->kernel, (uint32_t)nargs, local, NULL);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_KERNEL_LAUNCH, r,
                               "zeKernelSetArgumentValue(arg %d: %zu bytes of local memory)",
                               nargs, local);
    return MAGNUS_SUCCESS;
}

magnus_status level0_launch(magnus_bqueue *q, magnus_bkernel *kernel, size_t groups,
                            size_t group_size, size_t local_bytes, int nargs,
                            const magnus_karg *args) {
    if (!q || !kernel || (nargs > 0 && !args))
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: launch needs a queue, a kernel and arguments");
    if (groups == 0) return MAGNUS_SUCCESS;
    const level0_device *dev = q->ctx->dev;
    if (nargs < 0 || group_size == 0 || group_size > dev->info.max_work_group_size ||
        groups > dev->max_group_count || local_bytes > dev->info.local_mem_bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "level0: launch of %zu groups of %zu with %zu bytes of local memory "
                            "exceeds %s (at most %u groups of %llu, %llu bytes)",
                            groups, group_size, local_bytes, dev->info.name, dev->max_group_count,
                            (unsigned long long)dev->info.max_work_group_size,
                            (unsigned long long)dev->info.local_mem_bytes);
    if (kernel->group_size != group_size) {
        ze_result_t r = magnus_ze.zeKernelSetGroupSize(kernel->kernel, (uint32_t)group_size, 1, 1);
        if (r)
            return magnus_ze_error(MAGNUS_ERROR_KERNEL_LAUNCH, r, "zeKernelSetGroupSize(%zu)", group_size);
        kernel->group_size = (uint32_t)group_size;
    }
    magnus_status s = set_arguments(kernel, local_bytes, nargs, args);
    if (s) return s;
    ze_group_count_t count = {.groupCountX = (uint32_t)groups, .groupCountY = 1, .groupCountZ = 1};
    ze_result_t r = magnus_ze.zeCommandListAppendLaunchKernel(q->list, kernel->kernel, &count, NULL,
                                                              0, NULL);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_KERNEL_LAUNCH, r,
                               "zeCommandListAppendLaunchKernel(%zu groups of %zu)", groups, group_size);
    return level0_queue_order(q, "kernel launch");
}

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

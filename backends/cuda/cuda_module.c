/*
 * CUDA kernel modules and launches. The modules are the fatbin and PTX that
 * backends/cuda/cuda.cmake builds from the kernels/ sources with nvcc and embeds in the library:
 * the fatbin (SASS for the configured architectures plus PTX) is loaded first; if the
 * driver refuses it, the PTX alone is JIT-compiled with an error log for the message.
 */
#ifdef MAGNUS_HAVE_CUDA_H

#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"
#include "cuda_ptx.h"

#ifdef MAGNUS_HAVE_CUDA_KERNELS
extern const unsigned char magnus_cuda_fatbin_f32[];
extern const unsigned char magnus_cuda_fatbin_f64[];
extern const unsigned char magnus_cuda_ptx_f32[]; /* NUL-terminated */
extern const unsigned char magnus_cuda_ptx_f64[];
#endif

static const char *variant_name(magnus_kernel_variant variant) {
    return variant == MAGNUS_VARIANT_F64 ? "f64" : "f32";
}

#ifdef MAGNUS_HAVE_CUDA_KERNELS
/* The PTX fallback: the driver JIT-compiles for the device, with its error log kept. A 12.x
 * driver that refuses nvcc 13's PTX ISA version gets the same PTX marked 8.0. */
static magnus_status load_ptx(magnus_bctx *ctx, magnus_kernel_variant variant, CUresult fatbin_r,
                              CUmodule *module) {
    const char *ptx =
        (const char *)(variant == MAGNUS_VARIANT_F64 ? magnus_cuda_ptx_f64 : magnus_cuda_ptx_f32);
    char log[4096] = "";
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    CUresult r = magnus_cuda.ModuleLoadDataEx(module, ptx, 2, options, values);
    const char *retried = "";
    if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION && magnus_cuda.driver_version >= 12000 &&
        magnus_cuda.driver_version < 13000) {
        char *lowered = magnus_cuda_ptx_lower_version(ptx);
        if (lowered) {
            log[0] = '\0';
            values[1] = (void *)(uintptr_t)sizeof log;
            r = magnus_cuda.ModuleLoadDataEx(module, lowered, 2, options, values);
            magnus_host_free(lowered);
            retried = " (also as PTX ISA " MAGNUS_CUDA_PTX_ISA_12 ")";
        }
    }
    if (r == CUDA_SUCCESS) return MAGNUS_SUCCESS;
    log[sizeof log - 1] = '\0';
    char fatbin_text[256], ptx_text[256];
    magnus_cuda_result_text(fatbin_r, fatbin_text, sizeof fatbin_text);
    magnus_cuda_result_text(r, ptx_text, sizeof ptx_text);
    return magnus_error(r == CUDA_ERROR_OUT_OF_MEMORY ? MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY
                                                      : MAGNUS_ERROR_KERNEL_BUILD,
                        "CUDA device %d (driver %d) cannot load the %s kernels: fatbin: %s; PTX "
                        "JIT%s: %s%s%s",
                        ctx->index, magnus_cuda.driver_version, variant_name(variant), fatbin_text,
                        retried, ptx_text, log[0] ? "; log: " : "", log);
}
#endif

magnus_status magnus_cuda_module_load(magnus_bctx *ctx, magnus_kernel_variant variant,
                                      const magnus_build_notice *notice, magnus_bmodule **out) {
    (void)notice; /* the embedded cubins load without a build */
    *out = NULL;
    if (variant != MAGNUS_VARIANT_F32 && variant != MAGNUS_VARIANT_F64)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "CUDA module_load: variant %d",
                            (int)variant);
#ifndef MAGNUS_HAVE_CUDA_KERNELS
    return magnus_error(MAGNUS_ERROR_KERNEL_BUILD,
                        "this libmagnus has no CUDA kernels: nvcc was not found when it was built "
                        "(put nvcc on PATH or set MAGNUS_NVCC, keep MAGNUS_CUDA_KERNELS=ON, and "
                        "rebuild); CUDA device %d, %s variant",
                        ctx->index, variant_name(variant));
#else
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    magnus_bmodule *m = magnus_host_calloc(1, sizeof *m);
    if (!m) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA module handle");
    m->ctx = ctx;
    m->variant = variant;
    const unsigned char *fatbin =
        variant == MAGNUS_VARIANT_F64 ? magnus_cuda_fatbin_f64 : magnus_cuda_fatbin_f32;
    CUresult r = magnus_cuda.ModuleLoadData(&m->module, fatbin);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        s = magnus_cuda_check(r, MAGNUS_ERROR_KERNEL_BUILD, "cuModuleLoadData(%s fatbin)",
                              variant_name(variant));
    } else if (r != CUDA_SUCCESS) {
        s = load_ptx(ctx, variant, r, &m->module);
    }
    if (s) {
        magnus_host_free(m);
        return s;
    }
    *out = m;
    return MAGNUS_SUCCESS;
#endif
}

void magnus_cuda_module_unload(magnus_bmodule *m) {
    if (!m) return;
    if (magnus_cuda_make_current(m->ctx) == MAGNUS_SUCCESS) magnus_cuda.ModuleUnload(m->module);
    magnus_host_free(m);
}

magnus_status magnus_cuda_kernel_get(magnus_bmodule *m, const char *name, magnus_bkernel **out) {
    *out = NULL;
    if (!name) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "CUDA kernel_get: name is NULL");
    magnus_status s = magnus_cuda_make_current(m->ctx);
    if (s) return s;
    magnus_bkernel *k = magnus_host_calloc(1, sizeof *k);
    if (!k) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA kernel handle %s", name);
    k->module = m;
    snprintf(k->name, sizeof k->name, "%s", name);
    int static_shared = 0;
    if ((s = magnus_cuda_check(magnus_cuda.ModuleGetFunction(&k->function, m->module, name),
                               MAGNUS_ERROR_KERNEL_BUILD, "cuModuleGetFunction(%s) in the %s module",
                               name, variant_name(m->variant))) ||
        (s = magnus_cuda_check(magnus_cuda.FuncGetAttribute(&static_shared,
                                                            CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                                            k->function),
                               MAGNUS_ERROR_KERNEL_BUILD, "cuFuncGetAttribute(%s, SHARED_SIZE_BYTES)",
                               name))) {
        magnus_host_free(k);
        return s;
    }
    k->static_shared = (size_t)(static_shared > 0 ? static_shared : 0);
    /* CUDA's default: 48 KiB per block minus the static shared arrays. */
    k->dynamic_shared_limit = k->static_shared < MAGNUS_CUDA_DEFAULT_SHARED
                                  ? MAGNUS_CUDA_DEFAULT_SHARED - k->static_shared
                                  : 0;
    *out = k;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_kernel_limits(magnus_bctx *ctx, magnus_bkernel *k,
                                        magnus_kernel_limits *limits) {
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    /* Below the device's MAX_THREADS_PER_BLOCK where the kernel's registers run out first. */
    int threads = 0;
    if ((s = magnus_cuda_check(magnus_cuda.FuncGetAttribute(&threads,
                                                            CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                                            k->function),
                               MAGNUS_ERROR_DEVICE,
                               "cuFuncGetAttribute(%s, MAX_THREADS_PER_BLOCK) on CUDA device %d",
                               k->name, ctx->index)))
        return s;
    limits->max_group_size = (uint64_t)(threads > 0 ? threads : 0);
    limits->static_local_bytes = k->static_shared; /* SHARED_SIZE_BYTES, read by kernel_get */
    return MAGNUS_SUCCESS;
}

/* CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT takes the percent of the device's most
 * shared memory per SM, or CU_SHAREDMEM_CARVEOUT_DEFAULT (-1), the very values of the
 * backend table's local_percent. The driver rounds it to a carveout the SM supports and
 * gives more where one block would not fit (so fewer blocks may be resident). */
magnus_status magnus_cuda_kernel_local_share(magnus_bctx *ctx, magnus_bkernel *k,
                                             int local_percent) {
    if (local_percent < -1 || local_percent > 100)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "CUDA kernel %s: local-memory share of %d %% (expected -1 or 0..100)",
                            k->name, local_percent);
    magnus_status s = magnus_cuda_make_current(ctx);
    if (s) return s;
    return magnus_cuda_check(
        magnus_cuda.FuncSetAttribute(k->function,
                                     CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                     local_percent),
        MAGNUS_ERROR_DEVICE, "cuFuncSetAttribute(%s, PREFERRED_SHARED_MEMORY_CARVEOUT, %d) on "
        "CUDA device %d", k->name, local_percent, ctx->index);
}

void magnus_cuda_kernel_release(magnus_bkernel *k) {
    magnus_host_free(k); /* the CUfunction belongs to its module */
}

/* Raises the kernel's dynamic shared memory limit when a launch needs more than it allows
 * (above 48 KiB CUDA requires the opt-in); the value set is remembered per kernel. */
static magnus_status allow_dynamic_shared(magnus_bkernel *k, size_t local_bytes) {
    if (local_bytes <= k->dynamic_shared_limit) return MAGNUS_SUCCESS;
    /* The opt-in maximum covers the kernel's static shared arrays and the dynamic part. */
    size_t optin = k->module->ctx->shared_optin;
    if (k->static_shared > optin || local_bytes > optin - k->static_shared)
        return magnus_error(MAGNUS_ERROR_KERNEL_LAUNCH,
                            "CUDA launch of %s: %zu bytes of dynamic local memory plus %zu of "
                            "static exceed the device's %zu per block",
                            k->name, local_bytes, k->static_shared, optin);
    magnus_status s = magnus_cuda_check(
        magnus_cuda.FuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     (int)local_bytes),
        MAGNUS_ERROR_KERNEL_LAUNCH,
        "cuFuncSetAttribute(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %zu) on CUDA device %d", k->name,
        local_bytes, k->module->ctx->index);
    if (!s) k->dynamic_shared_limit = local_bytes;
    return s;
}

/* Kernel parameters up to this count live on the stack; more (never in magnus) on the heap. */
#define STACK_PARAMS 32

magnus_status magnus_cuda_launch(magnus_bqueue *q, magnus_bkernel *k, size_t groups,
                                 size_t group_size, size_t local_bytes, int nargs,
                                 const magnus_karg *args) {
    if (groups == 0) return MAGNUS_SUCCESS;
    if (groups > INT32_MAX || group_size == 0 || group_size > 1024 || local_bytes > INT32_MAX ||
        nargs < 0 || (nargs > 0 && !args))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "CUDA launch of %s: %zu groups of %zu with %zu local bytes and %d "
                            "arguments (at most 2^31-1 groups of 1..1024)",
                            k->name, groups, group_size, local_bytes, nargs);
    if (q->ctx != k->module->ctx)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "CUDA launch: kernel and queue belong to different contexts");
    magnus_status s = magnus_cuda_make_current(q->ctx);
    if (s) return s;
    if ((s = allow_dynamic_shared(k, local_bytes))) return s;

    /* kernelParams[i] points at the value of parameter i; the driver copies as many bytes
     * as the kernel's parameter has. The last parameter is the dialect's MG_DYN_LOCAL_PARAM,
     * a dummy pointer (dynamic shared memory comes from sharedMemBytes). */
    size_t nparams = (size_t)nargs + 1;
    uint64_t stack_values[STACK_PARAMS];
    void *stack_params[STACK_PARAMS];
    uint64_t *values = stack_values;
    void **params = stack_params;
    if (nparams > STACK_PARAMS) {
        values = magnus_host_malloc(nparams * sizeof *values);
        params = magnus_host_malloc(nparams * sizeof *params);
        if (!values || !params) {
            s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA launch: %d arguments", nargs);
            goto done;
        }
    }
    for (int i = 0; i < nargs; i++) {
        values[i] = 0;
        if (args[i].kind == MAGNUS_KARG_MEM) {
            CUdeviceptr ptr = args[i].u.mem ? args[i].u.mem->ptr : 0;
            memcpy(&values[i], &ptr, sizeof ptr);
        } else if (args[i].kind == MAGNUS_KARG_VALUE && (args[i].size == 4 || args[i].size == 8)) {
            memcpy(&values[i], &args[i].u, args[i].size); /* little-endian: low bytes first */
        } else {
            s = magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                             "CUDA launch of %s: argument %d has kind %d and size %u", k->name, i,
                             (int)args[i].kind, (unsigned)args[i].size);
            goto done;
        }
        params[i] = &values[i];
    }
    values[nargs] = 0;
    params[nargs] = &values[nargs];

    s = magnus_cuda_check(magnus_cuda.LaunchKernel(k->function, (unsigned)groups, 1, 1,
                                                   (unsigned)group_size, 1, 1,
                                                   (unsigned)local_bytes, q->stream, params, NULL),
                          MAGNUS_ERROR_KERNEL_LAUNCH,
                          "cuLaunchKernel(%s, %zu groups of %zu, %zu shared bytes) on CUDA device %d",
                          k->name, groups, group_size, local_bytes, q->ctx->index);
done:
    if (values != stack_values) magnus_host_free(values);
    if (params != stack_params) magnus_host_free(params);
    return s;
}

#endif /* MAGNUS_HAVE_CUDA_H */

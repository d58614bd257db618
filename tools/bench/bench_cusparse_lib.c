/*
 * The cuSPARSE baseline's library (bench_cusparse.c says what the baseline runs): libcusparse
 * opened with dlopen from --cusparse-lib, $MAGNUS_CUSPARSE_LIBRARY or the usual names, its
 * functions resolved into the baseline's state, the device's primary context retained and a
 * cuSPARSE handle created on it; and their release.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cusparse_internal.h"

/* ---- opening -------------------------------------------------------------------------------- */
static void *open_library(const char *explicit_path, char *path, size_t path_size, char *why,
                          size_t n) {
    const char *env = getenv("MAGNUS_CUSPARSE_LIBRARY");
    const char *candidates[] = {
        explicit_path && explicit_path[0] ? explicit_path : NULL,
        env && env[0] ? env : NULL,
        "libcusparse.so.12",
        "libcusparse.so.13",
        "/usr/local/cuda/lib64/libcusparse.so.12",
        "/usr/local/cuda/lib64/libcusparse.so.13",
    };
    /* An explicit choice is the only one tried: a fallback would hide its failure. */
    size_t first = 0, last = sizeof candidates / sizeof *candidates;
    if (candidates[0]) last = 1;
    else if (candidates[1]) first = 1, last = 2;
    else first = 2;
    size_t used = 0;
    why[0] = 0;
    for (size_t i = first; i < last; i++) {
        if (!candidates[i]) continue;
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(path, path_size, "%s", candidates[i]);
            return h;
        }
        const char *e = dlerror();
        if (used < n)
            used += (size_t)snprintf(why + used, n - used, "%s%s", used ? "; " : "",
                                     e ? e : candidates[i]);
    }
    return NULL;
}

/* cusparse-pool's allocator: a pool on the device, freed memory kept (the release threshold
 * at its maximum), as backends/cuda/cuda_memory.c makes magnus's. */
static bool open_pool(bench_cusparse *cs, char *why, size_t n) {
    const bench_cuda_api *cu = &cs->cu;
    if (!cu->DeviceGetAttribute || !cu->MemPoolCreate || !cu->MemPoolDestroy ||
        !cu->MemPoolSetAttribute || !cu->MemAllocFromPoolAsync || !cu->MemFreeAsync) {
        snprintf(why, n, "the CUDA driver has no stream-ordered allocator (cuMemPoolCreate, "
                         "cuMemAllocFromPoolAsync: CUDA 11.2 and later)");
        return false;
    }
    int supported = 0;
    if (!check_cu(cs, cu->DeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                                             cs->device),
                  "cuDeviceGetAttribute(MEMORY_POOLS_SUPPORTED)", why, n))
        return false;
    if (!supported) {
        snprintf(why, n, "the device does not support memory pools");
        return false;
    }
    CUmemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = (int)cs->device;
    if (!check_cu(cs, cu->MemPoolCreate(&cs->pool, &props), "cuMemPoolCreate", why, n)) {
        cs->pool = NULL;
        return false;
    }
    cuuint64_t keep_all = UINT64_MAX;
    return check_cu(cs, cu->MemPoolSetAttribute(cs->pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                                &keep_all),
                    "cuMemPoolSetAttribute(RELEASE_THRESHOLD)", why, n);
}

bench_cusparse *bench_cusparse_open(int ordinal, const char *library, bool pool, char *why,
                                    size_t n) {
    bench_cusparse *cs = calloc(1, sizeof *cs);
    if (!cs) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    if (!bench_cuda_load(&cs->cu, why, n)) goto fail;
    char tried[384];
    cs->library = open_library(library, cs->path, sizeof cs->path, tried, sizeof tried);
    if (!cs->library) {
        snprintf(why, n, "cuSPARSE not found: %s", tried);
        goto fail;
    }
    void *sym;
#define BENCH_CUSPARSE_RESOLVE(name)                                                       \
    sym = dlsym(cs->library, #name);                                                     \
    if (!sym) {                                                                          \
        snprintf(why, n, "%s: missing symbol %s", cs->path, #name);                      \
        goto fail;                                                                       \
    }                                                                                    \
    memcpy(&cs->name, &sym, sizeof sym);
    BENCH_CUSPARSE_FUNCTIONS(BENCH_CUSPARSE_RESOLVE)
#undef BENCH_CUSPARSE_RESOLVE
#define BENCH_CUSPARSE_RESOLVE_OPTIONAL(name) \
    sym = dlsym(cs->library, #name);          \
    memcpy(&cs->name, &sym, sizeof sym);
    BENCH_CUSPARSE_SPMV_FUNCTIONS(BENCH_CUSPARSE_RESOLVE_OPTIONAL)
#undef BENCH_CUSPARSE_RESOLVE_OPTIONAL

    char what[64];
    snprintf(what, sizeof what, "cuDeviceGet(%d)", ordinal);
    if (!check_cu(cs, cs->cu.DeviceGet(&cs->device, ordinal), what, why, n) ||
        !check_cu(cs, cs->cu.DevicePrimaryCtxRetain(&cs->ctx, cs->device),
                  "cuDevicePrimaryCtxRetain", why, n))
        goto fail;
    cs->ctx_retained = true;
    size_t free_bytes = 0, total_bytes = 0;
    if (!check_cu(cs, cs->cu.CtxSetCurrent(cs->ctx), "cuCtxSetCurrent", why, n) ||
        !check_cu(cs, cs->cu.MemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo", why, n) ||
        !check_status(cs, cs->cusparseCreate(&cs->handle), "cusparseCreate", why, n) ||
        (pool && !open_pool(cs, why, n)))
        goto fail;
    cs->total_memory = total_bytes;
    char name[256] = "?";
    cs->cu.DeviceGetName(name, (int)sizeof name, cs->device);
    int major = 0, minor = 0, patch = 0;
    cs->cusparseGetProperty(MAJOR_VERSION, &major);
    cs->cusparseGetProperty(MINOR_VERSION, &minor);
    cs->cusparseGetProperty(PATCH_LEVEL, &patch);
    snprintf(cs->description, sizeof cs->description,
             "cuSPARSE %d.%d.%d (%.200s), CUDA driver %d.%d, %.200s%s", major, minor, patch,
             cs->path, cs->cu.driver_version / 1000,
             cs->cu.driver_version % 1000 / 10, name, pool ? ", stream-ordered pool" : "");
    return cs;
fail:
    bench_cusparse_close(cs);
    return NULL;
}

void bench_cusparse_close(bench_cusparse *cs) {
    if (!cs) return;
    if (cs->handle) {
        cs->cu.CtxSetCurrent(cs->ctx);
        cs->cusparseDestroy(cs->handle);
    }
    if (cs->pool) { /* the frees queued on stream 0 complete first */
        cs->cu.CtxSynchronize();
        cs->cu.MemPoolDestroy(cs->pool);
    }
    if (cs->ctx_retained) cs->cu.DevicePrimaryCtxRelease(cs->device);
    /* libcusparse stays mapped: its runtime registered exit handlers. */
    free(cs);
}

const char *bench_cusparse_describe(const bench_cusparse *cs) { return cs->description; }
uint64_t bench_cusparse_device_memory(const bench_cusparse *cs) { return cs->total_memory; }

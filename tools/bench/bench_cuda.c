/* Loading the CUDA driver for the cuSPARSE baseline (see bench_cuda.h). */
#include "bench_cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult (*getproc_v2_fn)(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                  CUdriverProcAddressQueryResult *status);
typedef CUresult (*getproc_v1_fn)(const char *symbol, void **pfn, int version, cuuint64_t flags);

static bool resolve(void *library, const char *symbol, int version, void **out, char *why,
                    size_t n) {
    /* The exported names: cuda.h #defines cuGetProcAddress to its _v2 (CUDA 12+). */
    void *sym = dlsym(library, "cuGetProcAddress_v2");
    getproc_v2_fn v2;
    getproc_v1_fn v1;
    memcpy(&v2, &sym, sizeof sym);
    CUresult r;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;
    *out = NULL;
    if (v2) {
        r = v2(symbol, out, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    } else {
        sym = dlsym(library, "cuGetProcAddress");
        memcpy(&v1, &sym, sizeof sym);
        if (!v1) {
            snprintf(why, n, "the CUDA driver has no cuGetProcAddress (older than 11.3?)");
            return false;
        }
        r = v1(symbol, out, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
    }
    if (r == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && *out) return true;
    snprintf(why, n, "cuGetProcAddress(\"%s\", %d) failed (CUresult %d, status %d)", symbol,
             version, (int)r, (int)found);
    return false;
}

bool bench_cuda_load(bench_cuda_api *api, char *why, size_t n) {
    static bench_cuda_api loaded;
    static bool done;
    static char failure[512];
    if (done) {
        if (failure[0]) snprintf(why, n, "%s", failure);
        else *api = loaded;
        return failure[0] == 0;
    }
    done = true;
    const char *path = getenv("MAGNUS_CUDA_LIBRARY");
    if (!path || !path[0]) path = "libcuda.so.1";
    snprintf(loaded.library, sizeof loaded.library, "%s", path);
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *e = dlerror();
        snprintf(failure, sizeof failure, "cannot open %s: %s", path, e ? e : "dlopen failed");
        snprintf(why, n, "%s", failure);
        return false;
    }
    void *sym;
    PFN_cuDriverGetVersion_v2020 get_version;
    char reason[256];
    bool ok = resolve(library, "cuDriverGetVersion", 11030, &sym, reason, sizeof reason);
    if (ok) {
        memcpy(&get_version, &sym, sizeof sym);
        ok = get_version(&loaded.driver_version) == CUDA_SUCCESS && loaded.driver_version > 0;
        if (!ok) snprintf(reason, sizeof reason, "cuDriverGetVersion failed");
    }
    int version = loaded.driver_version < BENCH_CUDA_API_VERSION ? loaded.driver_version
                                                                  : BENCH_CUDA_API_VERSION;
#define BENCH_CUDA_RESOLVE(member, symbol, type)                                   \
    if (ok && (ok = resolve(library, symbol, version, &sym, reason, sizeof reason))) \
        memcpy(&loaded.member, &sym, sizeof sym);
    BENCH_CUDA_ENTRY_POINTS(BENCH_CUDA_RESOLVE)
#undef BENCH_CUDA_RESOLVE
    /* optional: the pool's entry points stay NULL where the driver lacks them */
    char ignored[256];
#define BENCH_CUDA_RESOLVE_OPTIONAL(member, symbol, type)                              \
    if (ok && resolve(library, symbol, version, &sym, ignored, sizeof ignored))         \
        memcpy(&loaded.member, &sym, sizeof sym);
    BENCH_CUDA_POOL_ENTRY_POINTS(BENCH_CUDA_RESOLVE_OPTIONAL)
#undef BENCH_CUDA_RESOLVE_OPTIONAL
    if (ok) {
        CUresult r = loaded.Init(0);
        if (r != CUDA_SUCCESS) {
            char name[64];
            snprintf(reason, sizeof reason, "cuInit: %s",
                     bench_cuda_error_name(&loaded, r, name, sizeof name));
            ok = false;
        }
    }
    if (!ok) {
        /* The library stays open: a driver that ran cuInit must not be unmapped. */
        snprintf(failure, sizeof failure, "%s: %s", path, reason);
        snprintf(why, n, "%s", failure);
        return false;
    }
    *api = loaded;
    return true;
}

const char *bench_cuda_error_name(const bench_cuda_api *api, CUresult r, char *buf, size_t n) {
    const char *name = NULL;
    if (api && api->GetErrorName && api->GetErrorName(r, &name) == CUDA_SUCCESS && name)
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, "CUresult %d", (int)r);
    return buf;
}

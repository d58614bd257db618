/* Loading the CUDA driver at run time: dlopen, cuGetProcAddress, pinned-version entry points. */
#include "cuda_loader.h"

#ifdef MAGNUS_HAVE_CUDA_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic_library.h"

#define MAGNUS_CUDA_LIBRARY_VARIABLE "MAGNUS_CUDA_LIBRARY"
#define MAGNUS_CUDA_DEFAULT_LIBRARY "libcuda.so.1"

magnus_cuda_api magnus_cuda;

/* cuGetProcAddress as exported: cuda.h #defines the name to cuGetProcAddress_v2 (CUDA 12.0+,
 * with a symbolStatus output); 11.3-11.8 drivers export only the original, without it. */
typedef CUresult (*getproc_v2_fn)(const char *symbol, void **pfn, int cudaVersion,
                                  cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus);
typedef CUresult (*getproc_v1_fn)(const char *symbol, void **pfn, int cudaVersion,
                                  cuuint64_t flags);

static struct {
    pthread_mutex_t lock;
    int refs;               /* successful loads not yet unloaded */
    magnus_library library; /* open while refs > 0 */
    getproc_v2_fn getproc_v2;
    getproc_v1_fn getproc_v1;
} loader = {.lock = PTHREAD_MUTEX_INITIALIZER};

const char *magnus_cuda_library_path(void) {
    return magnus_library_path(MAGNUS_CUDA_LIBRARY_VARIABLE, MAGNUS_CUDA_DEFAULT_LIBRARY);
}

const char *magnus_cuda_result_text(CUresult result, char *buf, size_t size) {
    const char *name = NULL, *text = NULL;
    if (magnus_cuda.GetErrorName && magnus_cuda.GetErrorName(result, &name) != CUDA_SUCCESS)
        name = NULL;
    if (magnus_cuda.GetErrorString && magnus_cuda.GetErrorString(result, &text) != CUDA_SUCCESS)
        text = NULL;
    if (name && text)
        snprintf(buf, size, "%s (%s)", name, text);
    else if (name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "CUDA error %d", (int)result);
    return buf;
}

magnus_status magnus_cuda_check(CUresult result, magnus_status status, const char *fmt, ...) {
    if (result == CUDA_SUCCESS) return MAGNUS_SUCCESS;
    char what[256], text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) status = MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY;
    return magnus_error(status, "%s: %s", what, magnus_cuda_result_text(result, text, sizeof text));
}

/* Resolves one entry point at `version`; the error names the library and the symbol. */
static magnus_status resolve(const char *symbol, int version, void **out) {
    void *pfn = NULL;
    CUresult r;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;
    /* LEGACY_STREAM: the plain (not per-thread default stream) variants; the backend only
     * ever uses its own non-blocking streams, so the NULL stream's semantics never matter. */
    if (loader.getproc_v2)
        r = loader.getproc_v2(symbol, &pfn, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    else
        r = loader.getproc_v1(symbol, &pfn, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
    if (r == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && pfn) {
        *out = pfn;
        return MAGNUS_SUCCESS;
    }
    char text[256];
    const char *why = r != CUDA_SUCCESS ? magnus_cuda_result_text(r, text, sizeof text)
                      : found == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                          ? "symbol too new for the requested version"
                          : "symbol not found";
    return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                        "%s: cuGetProcAddress(\"%s\", %d) failed: %s", loader.library.path,
                        symbol, version, why);
}

/* Forgets every entry point and closes the library. Once cuInit has run the driver has
 * started threads and registered handlers inside libcuda, so the library is pinned in memory
 * (RTLD_NODELETE) rather than unmapped under them; only our pointers are dropped. */
static void close_library(bool pin) {
    memset(&magnus_cuda, 0, sizeof magnus_cuda);
    loader.getproc_v2 = NULL;
    loader.getproc_v1 = NULL;
    magnus_library_close(&loader.library, pin);
}

static magnus_status open_and_resolve(void) {
    magnus_status s = magnus_library_open(&loader.library, MAGNUS_CUDA_LIBRARY_VARIABLE,
                                          MAGNUS_CUDA_DEFAULT_LIBRARY);
    if (s) return s;
    const char *path = loader.library.path;
    /* The exact exported names ("cuGetProcAddress" in cuda.h is a macro for the _v2).
     * Function pointers are copied out of the void * with memcpy (POSIX guarantees the
     * representation; a cast through void ** would break strict aliasing). */
    void *sym = magnus_library_find(&loader.library, "cuGetProcAddress_v2");
    memcpy(&loader.getproc_v2, &sym, sizeof sym);
    if (!loader.getproc_v2) {
        sym = magnus_library_find(&loader.library, "cuGetProcAddress");
        memcpy(&loader.getproc_v1, &sym, sizeof sym);
        if (!loader.getproc_v1)
            return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                                "%s: missing symbol cuGetProcAddress_v2 (and cuGetProcAddress): "
                                "not a CUDA driver, or older than 11.3",
                                path);
    }

    /* The driver's version first, at the oldest version any cuGetProcAddress accepts, to
     * know which version the rest may be requested at. */
    if ((s = resolve("cuDriverGetVersion", 11030, &sym))) return s;
    memcpy(&magnus_cuda.DriverGetVersion, &sym, sizeof sym);
    int version = 0;
    CUresult r = magnus_cuda.DriverGetVersion(&version);
    if (r != CUDA_SUCCESS || version <= 0)
        return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                            "%s: cuDriverGetVersion failed (result %d, version %d)", path, (int)r,
                            version);
    magnus_cuda.driver_version = version;
    magnus_cuda.api_version = version < MAGNUS_CUDA_API_VERSION ? version : MAGNUS_CUDA_API_VERSION;

#define MAGNUS_CUDA_RESOLVE(member, symbol, type)                             \
    if ((s = resolve(symbol, magnus_cuda.api_version, &sym))) return s;        \
    _Static_assert(sizeof(type) == sizeof sym, "function pointer size");       \
    memcpy(&magnus_cuda.member, &sym, sizeof sym);
    MAGNUS_CUDA_ENTRY_POINTS(MAGNUS_CUDA_RESOLVE)
#undef MAGNUS_CUDA_RESOLVE
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_load(void) {
    pthread_mutex_lock(&loader.lock);
    magnus_status s = MAGNUS_SUCCESS;
    if (loader.refs > 0) {
        loader.refs++;
        goto done;
    }
    if ((s = open_and_resolve())) {
        close_library(false);
        goto done;
    }
    CUresult r = magnus_cuda.Init(0);
    if (r != CUDA_SUCCESS) {
        char text[256];
        s = magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "%s: cuInit failed: %s",
                         loader.library.path, magnus_cuda_result_text(r, text, sizeof text));
        close_library(true);
        goto done;
    }
    loader.refs = 1;
done:
    pthread_mutex_unlock(&loader.lock);
    return s;
}

void magnus_cuda_unload(void) {
    pthread_mutex_lock(&loader.lock);
    if (loader.refs > 0 && --loader.refs == 0) close_library(true);
    pthread_mutex_unlock(&loader.lock);
}

#else /* !MAGNUS_HAVE_CUDA_H: the backend exists but never loads */

magnus_status magnus_cuda_load(void) {
    return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                        "this libmagnus was built without the CUDA headers (cuda.h not found at "
                        "configure time; set MAGNUS_CUDA_INCLUDE_DIR or CUDA_PATH and rebuild)");
}

void magnus_cuda_unload(void) {}

#endif /* MAGNUS_HAVE_CUDA_H */

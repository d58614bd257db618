/*
 * A fake libcuda for testing the CUDA backend's loader on machines without NVIDIA hardware.
 * It exports what a real driver exports for the loader's purposes (cuGetProcAddress_v2 and
 * cuGetProcAddress) and hands out stubs for cuInit, cuDriverGetVersion, cuDeviceGetCount,
 * cuGetErrorName and cuGetErrorString; every other "cu*" name gets a stub that answers
 * CUDA_ERROR_NOT_SUPPORTED (never called: the fake has no devices).
 *
 * FAKE_CUDA_FAIL_AT (read at every call) picks the failure:
 *   init         cuInit returns CUDA_ERROR_NO_DEVICE
 *   getproc      cuGetProcAddress finds no "cuMemAlloc" (CUDA_SUCCESS, NULL, SYMBOL_NOT_FOUND,
 *                as a driver without the symbol answers)
 *   devicecount  cuDeviceGetCount returns CUDA_ERROR_UNKNOWN
 *   none / unset everything succeeds, with 0 devices
 *
 * Build variants (compile definitions):
 *   FAKE_CUDA_V1_ONLY    an 11.8 driver: only the original cuGetProcAddress (no symbolStatus)
 *   FAKE_CUDA_NO_GETPROC a library with no cuGetProcAddress at all
 *
 * Like a real driver, cuGetProcAddress refuses a requested version above the driver's own.
 * fake_cuda_requested_version(name) tells a test at which version the loader asked for a
 * name (-1: never), so it can check that entry points are pinned.
 *
 * No cuda.h: the few types and codes are spelled out here, with the driver's values.
 */
#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long cuuint64_t;
typedef int CUdriverProcAddressQueryResult;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999,
};
enum { SYMBOL_FOUND = 0, SYMBOL_NOT_FOUND = 1 };

#ifdef FAKE_CUDA_V1_ONLY
#define FAKE_DRIVER_VERSION 11080
#else
#define FAKE_DRIVER_VERSION 13000
#endif

static int fail_at(const char *step) {
    const char *v = getenv("FAKE_CUDA_FAIL_AT");
    return v && strcmp(v, step) == 0;
}

static CUresult fake_init(unsigned flags) {
    (void)flags;
    return fail_at("init") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

static CUresult fake_driver_get_version(int *version) {
    *version = FAKE_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

static CUresult fake_device_get_count(int *count) {
    if (fail_at("devicecount")) return CUDA_ERROR_UNKNOWN;
    *count = 0;
    return CUDA_SUCCESS;
}

static const struct {
    CUresult code;
    const char *name, *text;
} errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static CUresult fake_get_error(CUresult code, const char **out, int text) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == code) {
            *out = text ? errors[i].text : errors[i].name;
            return CUDA_SUCCESS;
        }
    *out = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}
static CUresult fake_get_error_name(CUresult code, const char **out) {
    return fake_get_error(code, out, 0);
}
static CUresult fake_get_error_string(CUresult code, const char **out) {
    return fake_get_error(code, out, 1);
}

static CUresult fake_not_supported(void) { return CUDA_ERROR_NOT_SUPPORTED; }

/* Which version each name was last requested at. */
#define MAX_REQUESTS 128
static struct {
    char name[64];
    int version;
} requests[MAX_REQUESTS];
static int nrequests;

static void record(const char *symbol, int version) {
    for (int i = 0; i < nrequests; i++)
        if (strcmp(requests[i].name, symbol) == 0) {
            requests[i].version = version;
            return;
        }
    if (nrequests < MAX_REQUESTS && strlen(symbol) < sizeof requests[0].name) {
        strcpy(requests[nrequests].name, symbol);
        requests[nrequests++].version = version;
    }
}

FAKE_EXPORT int fake_cuda_requested_version(const char *symbol) {
    for (int i = 0; i < nrequests; i++)
        if (strcmp(requests[i].name, symbol) == 0) return requests[i].version;
    return -1;
}

/* unused in the FAKE_CUDA_NO_GETPROC variant */
__attribute__((unused)) static CUresult lookup(const char *symbol, void **pfn, int version,
                       CUdriverProcAddressQueryResult *status) {
    *pfn = NULL;
    if (status) *status = SYMBOL_NOT_FOUND;
    if (version > FAKE_DRIVER_VERSION) return CUDA_ERROR_INVALID_VALUE;
    record(symbol, version);
    if (strncmp(symbol, "cu", 2) != 0) return CUDA_SUCCESS;
    if (fail_at("getproc") && strcmp(symbol, "cuMemAlloc") == 0) return CUDA_SUCCESS;
    void (*f)(void) = (void (*)(void))fake_not_supported;
    if (strcmp(symbol, "cuInit") == 0) f = (void (*)(void))fake_init;
    if (strcmp(symbol, "cuDriverGetVersion") == 0) f = (void (*)(void))fake_driver_get_version;
    if (strcmp(symbol, "cuDeviceGetCount") == 0) f = (void (*)(void))fake_device_get_count;
    if (strcmp(symbol, "cuGetErrorName") == 0) f = (void (*)(void))fake_get_error_name;
    if (strcmp(symbol, "cuGetErrorString") == 0) f = (void (*)(void))fake_get_error_string;
    memcpy(pfn, &f, sizeof f);
    if (status) *status = SYMBOL_FOUND;
    return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_NO_GETPROC
#ifndef FAKE_CUDA_V1_ONLY
FAKE_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                         cuuint64_t flags, CUdriverProcAddressQueryResult *status) {
    (void)flags;
    return lookup(symbol, pfn, cudaVersion, status);
}
#endif
FAKE_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                      cuuint64_t flags) {
    (void)flags;
    return lookup(symbol, pfn, cudaVersion, NULL);
}
#else
/* Something to export, so the library is not mistaken for an empty one. */
FAKE_EXPORT CUresult cuInit(unsigned flags) { return fake_init(flags); }
#endif

/*
 * The CUDA driver, loaded at run time: libcuda.so.1 (or $MAGNUS_CUDA_LIBRARY) is dlopened and
 * only its cuGetProcAddress is looked up by name; every other entry point is resolved through
 * cuGetProcAddress at one pinned API version (MAGNUS_CUDA_API_VERSION), so each pointer has the
 * ABI of the typedef it is stored in, whatever driver is installed. A plain dlsym("cuMemAlloc")
 * would return the legacy 32-bit cuMemAlloc, not cuMemAlloc_v2.
 *
 * The pointers live in one private struct (magnus_cuda) rather than in global symbols named
 * like the driver's, so a real libcuda in the same process never collides with them.
 * Nothing here links against libcuda: cuda.h is used for types and constants only.
 */
#ifndef MAGNUS_CUDA_LOADER_H
#define MAGNUS_CUDA_LOADER_H

#include "internal.h"

/*
 * Opens the driver, resolves every entry point and runs cuInit(0). Counted: each successful
 * call needs one magnus_cuda_unload(). On failure returns MAGNUS_ERROR_BACKEND_UNAVAILABLE
 * with a message naming the library and the symbol or call that failed, and leaves nothing
 * resolved. Built without cuda.h, it always fails and says why.
 */
magnus_status magnus_cuda_load(void);
void magnus_cuda_unload(void);

#ifdef MAGNUS_HAVE_CUDA_H

#include <cuda.h>
#include <cudaTypedefs.h>

/* The CUDA version whose entry-point ABIs the typedefs below describe. For each name the
 * driver returns the newest variant introduced at or before this version: cuMemAlloc ->
 * cuMemAlloc_v2 (3.2), cuDevicePrimaryCtxRelease -> _v2 (11.0), cuEventElapsedTime -> the
 * original (its _v2 came in 12.8), cuCtxSynchronize -> the original without arguments (13.0's
 * takes a context). No entry point used here changed ABI between 11.3 (the
 * first driver with cuGetProcAddress) and 12.0, so on an older driver the loader asks for
 * its own version instead (cuGetProcAddress refuses versions above the driver's). */
#define MAGNUS_CUDA_API_VERSION 12000

/* Every driver entry point the backend calls, with the typedef of its ABI at
 * MAGNUS_CUDA_API_VERSION (cudaTypedefs.h names them PFN_<name>_v<version introduced>).
 * cuDriverGetVersion, resolved first and on its own, is not in the list. */
#define MAGNUS_CUDA_ENTRY_POINTS(X)                                                   \
    X(GetErrorName, "cuGetErrorName", PFN_cuGetErrorName_v6000)                       \
    X(GetErrorString, "cuGetErrorString", PFN_cuGetErrorString_v6000)                 \
    X(Init, "cuInit", PFN_cuInit_v2000)                                               \
    X(DeviceGetCount, "cuDeviceGetCount", PFN_cuDeviceGetCount_v2000)                 \
    X(DeviceGet, "cuDeviceGet", PFN_cuDeviceGet_v2000)                                \
    X(DeviceGetName, "cuDeviceGetName", PFN_cuDeviceGetName_v2000)                    \
    X(DeviceTotalMem, "cuDeviceTotalMem", PFN_cuDeviceTotalMem_v3020)                 \
    X(DeviceGetAttribute, "cuDeviceGetAttribute", PFN_cuDeviceGetAttribute_v2000)     \
    X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                             \
      PFN_cuDevicePrimaryCtxRetain_v7000)                                             \
    X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease",                           \
      PFN_cuDevicePrimaryCtxRelease_v11000)                                           \
    X(CtxSetCurrent, "cuCtxSetCurrent", PFN_cuCtxSetCurrent_v4000)                    \
    X(CtxSynchronize, "cuCtxSynchronize", PFN_cuCtxSynchronize_v2000)                 \
    X(StreamCreate, "cuStreamCreate", PFN_cuStreamCreate_v2000)                       \
    X(StreamCreateWithPriority, "cuStreamCreateWithPriority",                         \
      PFN_cuStreamCreateWithPriority_v5050)                                           \
    X(CtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange",                       \
      PFN_cuCtxGetStreamPriorityRange_v5050)                                          \
    X(StreamDestroy, "cuStreamDestroy", PFN_cuStreamDestroy_v4000)                    \
    X(StreamSynchronize, "cuStreamSynchronize", PFN_cuStreamSynchronize_v2000)        \
    X(StreamWaitEvent, "cuStreamWaitEvent", PFN_cuStreamWaitEvent_v3020)              \
    X(MemAlloc, "cuMemAlloc", PFN_cuMemAlloc_v3020)                                   \
    X(MemFree, "cuMemFree", PFN_cuMemFree_v3020)                                      \
    X(MemPoolCreate, "cuMemPoolCreate", PFN_cuMemPoolCreate_v11020)                   \
    X(MemPoolDestroy, "cuMemPoolDestroy", PFN_cuMemPoolDestroy_v11020)                \
    X(MemPoolSetAttribute, "cuMemPoolSetAttribute", PFN_cuMemPoolSetAttribute_v11020) \
    X(MemPoolGetAttribute, "cuMemPoolGetAttribute", PFN_cuMemPoolGetAttribute_v11020) \
    X(MemPoolTrimTo, "cuMemPoolTrimTo", PFN_cuMemPoolTrimTo_v11020)                   \
    X(MemAllocFromPoolAsync, "cuMemAllocFromPoolAsync",                               \
      PFN_cuMemAllocFromPoolAsync_v11020)                                             \
    X(MemFreeAsync, "cuMemFreeAsync", PFN_cuMemFreeAsync_v11020)                      \
    X(MemcpyHtoDAsync, "cuMemcpyHtoDAsync", PFN_cuMemcpyHtoDAsync_v3020)              \
    X(MemcpyDtoHAsync, "cuMemcpyDtoHAsync", PFN_cuMemcpyDtoHAsync_v3020)              \
    X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync", PFN_cuMemcpyDtoDAsync_v3020)              \
    X(MemsetD8Async, "cuMemsetD8Async", PFN_cuMemsetD8Async_v3020)                    \
    X(MemsetD16Async, "cuMemsetD16Async", PFN_cuMemsetD16Async_v3020)                 \
    X(MemsetD32Async, "cuMemsetD32Async", PFN_cuMemsetD32Async_v3020)                 \
    X(ModuleLoadData, "cuModuleLoadData", PFN_cuModuleLoadData_v2000)                 \
    X(ModuleLoadDataEx, "cuModuleLoadDataEx", PFN_cuModuleLoadDataEx_v2010)           \
    X(ModuleUnload, "cuModuleUnload", PFN_cuModuleUnload_v2000)                       \
    X(ModuleGetFunction, "cuModuleGetFunction", PFN_cuModuleGetFunction_v2000)        \
    X(FuncGetAttribute, "cuFuncGetAttribute", PFN_cuFuncGetAttribute_v2020)           \
    X(FuncSetAttribute, "cuFuncSetAttribute", PFN_cuFuncSetAttribute_v9000)           \
    X(LaunchKernel, "cuLaunchKernel", PFN_cuLaunchKernel_v4000)                       \
    X(EventCreate, "cuEventCreate", PFN_cuEventCreate_v2000)                          \
    X(EventRecord, "cuEventRecord", PFN_cuEventRecord_v2000)                          \
    X(EventSynchronize, "cuEventSynchronize", PFN_cuEventSynchronize_v2000)           \
    X(EventElapsedTime, "cuEventElapsedTime", PFN_cuEventElapsedTime_v2000)           \
    X(EventDestroy, "cuEventDestroy", PFN_cuEventDestroy_v4000)

/* The resolved driver: member names are the entry points without the "cu" prefix
 * (cuda.h #defines many "cu" names to their _v2 symbols, which would rename members). */
typedef struct magnus_cuda_api {
#define MAGNUS_CUDA_MEMBER(member, symbol, type) type member;
    MAGNUS_CUDA_ENTRY_POINTS(MAGNUS_CUDA_MEMBER)
#undef MAGNUS_CUDA_MEMBER
    PFN_cuDriverGetVersion_v2020 DriverGetVersion;
    int driver_version; /* cuDriverGetVersion: 1000*major + 10*minor */
    int api_version;    /* the version the entry points were resolved at */
} magnus_cuda_api;

/* Valid between a successful magnus_cuda_load() and the matching magnus_cuda_unload(). */
extern magnus_cuda_api magnus_cuda;

/* The library path in use: $MAGNUS_CUDA_LIBRARY if set and not empty, else "libcuda.so.1". */
const char *magnus_cuda_library_path(void);

/*
 * Converts a failed driver call into a magnus status with a detail message
 * "<what>: CUDA_ERROR_NAME (driver's text)". CUDA_ERROR_OUT_OF_MEMORY always becomes
 * MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY; every other error becomes `status`.
 * Returns MAGNUS_SUCCESS (and sets nothing) when result is CUDA_SUCCESS.
 */
magnus_status magnus_cuda_check(CUresult result, magnus_status status, const char *fmt, ...)
    MAGNUS_PRINTF(3, 4);
/* "CUDA_ERROR_NAME (text)" for a result, in buf; works before the driver is loaded. */
const char *magnus_cuda_result_text(CUresult result, char *buf, size_t size);

#endif /* MAGNUS_HAVE_CUDA_H */

#endif

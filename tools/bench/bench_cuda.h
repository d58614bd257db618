/*
 * The few CUDA driver calls the cuSPARSE baseline needs (device memory on the device's primary
 * context, which magnus's CUDA backend and cuSPARSE's own runtime also use), loaded at run
 * time like the backend does (backends/cuda/cuda_loader.h): libcuda.so.1, or
 * $MAGNUS_CUDA_LIBRARY, opened with dlopen, entry points resolved with cuGetProcAddress at a
 * pinned API version, so each pointer has the ABI of its typedef (at 12000 cuEventElapsedTime
 * is the original, its _v2 came in 12.8; as backends/cuda/cuda_loader.h). Events time the SpMV
 * baseline's products on the device (bench_cusparse_spmv.c). Nothing links libcuda;
 * cuda.h gives the types only. Compiled only where cuda.h exists (tools/magnus_bench.cmake).
 */
#ifndef MAGNUS_BENCH_CUDA_H
#define MAGNUS_BENCH_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#define BENCH_CUDA_API_VERSION 12000

#define BENCH_CUDA_ENTRY_POINTS(X)                                                     \
    X(GetErrorName, "cuGetErrorName", PFN_cuGetErrorName_v6000)                        \
    X(Init, "cuInit", PFN_cuInit_v2000)                                                \
    X(DeviceGetCount, "cuDeviceGetCount", PFN_cuDeviceGetCount_v2000)                  \
    X(DeviceGet, "cuDeviceGet", PFN_cuDeviceGet_v2000)                                 \
    X(DeviceGetName, "cuDeviceGetName", PFN_cuDeviceGetName_v2000)                     \
    X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                              \
      PFN_cuDevicePrimaryCtxRetain_v7000)                                              \
    X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease",                            \
      PFN_cuDevicePrimaryCtxRelease_v11000)                                            \
    X(CtxSetCurrent, "cuCtxSetCurrent", PFN_cuCtxSetCurrent_v4000)                     \
    X(CtxSynchronize, "cuCtxSynchronize", PFN_cuCtxSynchronize_v2000)                  \
    X(MemGetInfo, "cuMemGetInfo", PFN_cuMemGetInfo_v3020)                              \
    X(MemAlloc, "cuMemAlloc", PFN_cuMemAlloc_v3020)                                    \
    X(MemFree, "cuMemFree", PFN_cuMemFree_v3020)                                       \
    X(MemcpyHtoD, "cuMemcpyHtoD", PFN_cuMemcpyHtoD_v3020)                              \
    X(MemcpyDtoH, "cuMemcpyDtoH", PFN_cuMemcpyDtoH_v3020)                              \
    X(EventCreate, "cuEventCreate", PFN_cuEventCreate_v2000)                           \
    X(EventRecord, "cuEventRecord", PFN_cuEventRecord_v2000)                           \
    X(EventSynchronize, "cuEventSynchronize", PFN_cuEventSynchronize_v2000)            \
    X(EventElapsedTime, "cuEventElapsedTime", PFN_cuEventElapsedTime_v2000)            \
    X(EventDestroy, "cuEventDestroy", PFN_cuEventDestroy_v4000)

/* The stream-ordered pool of the cusparse-pool baseline (the allocator magnus's CUDA backend
 * uses, backends/cuda/cuda_memory.c): resolved when present, NULL otherwise (a driver before
 * 11.2; that system then says it is unavailable). */
#define BENCH_CUDA_POOL_ENTRY_POINTS(X)                                                \
    X(DeviceGetAttribute, "cuDeviceGetAttribute", PFN_cuDeviceGetAttribute_v2000)      \
    X(MemPoolCreate, "cuMemPoolCreate", PFN_cuMemPoolCreate_v11020)                    \
    X(MemPoolDestroy, "cuMemPoolDestroy", PFN_cuMemPoolDestroy_v11020)                 \
    X(MemPoolSetAttribute, "cuMemPoolSetAttribute", PFN_cuMemPoolSetAttribute_v11020)  \
    X(MemAllocFromPoolAsync, "cuMemAllocFromPoolAsync",                                \
      PFN_cuMemAllocFromPoolAsync_v11020)                                              \
    X(MemFreeAsync, "cuMemFreeAsync", PFN_cuMemFreeAsync_v11020)

typedef struct bench_cuda_api {
#define BENCH_CUDA_MEMBER(member, symbol, type) type member;
    BENCH_CUDA_ENTRY_POINTS(BENCH_CUDA_MEMBER)
    BENCH_CUDA_POOL_ENTRY_POINTS(BENCH_CUDA_MEMBER)
#undef BENCH_CUDA_MEMBER
    int driver_version;
    char library[256];
} bench_cuda_api;

/* Loads the driver once per process and runs cuInit(0); false with the reason otherwise. */
bool bench_cuda_load(bench_cuda_api *api, char *why, size_t n);
/* "CUDA_ERROR_OUT_OF_MEMORY", or "CUresult 2" before the driver is loaded. */
const char *bench_cuda_error_name(const bench_cuda_api *api, CUresult r, char *buf, size_t n);

#endif

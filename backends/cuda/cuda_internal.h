/*
 * The CUDA backend's handles and the functions its ops table (cuda_ops.c) points at, grouped
 * by file. Built without cuda.h, only load() and unload() exist (cuda_loader.c's stub).
 * Every function that calls the driver on behalf of a context first makes that context's
 * primary context current on the calling thread (magnus_cuda_make_current), because the
 * runtime may call from any thread and the CUDA current context is per thread.
 */
#ifndef MAGNUS_CUDA_INTERNAL_H
#define MAGNUS_CUDA_INTERNAL_H

#include "backend.h"
#include "backend_functions.h"
#include "cuda_loader.h"

#ifdef MAGNUS_HAVE_CUDA_H

#include <pthread.h>

/* Shared memory (static + dynamic) a block may use without opting in: CUDA's fixed 48 KiB. */
#define MAGNUS_CUDA_DEFAULT_SHARED ((size_t)48 * 1024)
/* Queues a context may have at once (the runtime creates a handful). */
#define MAGNUS_CUDA_MAX_QUEUES 16

struct magnus_bctx {
    int index;
    CUdevice device;
    CUcontext context; /* the device's primary context, retained until context_destroy */
    size_t shared_optin; /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: static + dynamic per block */
    pthread_mutex_t fill_lock;
    CUmodule fill_module; /* fill_u64.ptx, JIT-compiled on the first 8-byte pattern fill */
    CUfunction fill_kernel;
    /* Stream-ordered memory (cuda_memory.c): buffers come from the context's own pool, which
     * keeps freed memory mapped for the next allocation, on one memory stream. pool NULL: the
     * device has no memory pools or MAGNUS_CUDA_POOL=0, and cuMemAlloc/cuMemFree are used. */
    CUmemoryPool pool;
    CUstream mem_stream;
    CUevent mem_event;        /* recorded after each allocation; every queue waits for it */
    pthread_mutex_t mem_lock; /* the memory stream and the queue list */
    magnus_bqueue *queues[MAGNUS_CUDA_MAX_QUEUES];
    int nqueues;
};

struct magnus_bqueue {
    magnus_bctx *ctx;
    CUstream stream;  /* non-blocking: never waits for the legacy NULL stream */
    CUevent recorded; /* pool frees: the memory stream waits for the queue's work so far */
};

struct magnus_bmem {
    CUdeviceptr ptr;
    size_t bytes; /* as allocated (at least 1) */
};

struct magnus_bmodule {
    magnus_bctx *ctx;
    CUmodule module;
    magnus_kernel_variant variant;
};

struct magnus_bkernel {
    magnus_bmodule *module;
    CUfunction function;
    char name[64];        /* for messages */
    size_t static_shared; /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES (MG_LOCAL_ARRAYs) */
    /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES in effect (48 KiB - static_shared until
     * raised once a launch asks for more), so the attribute is set only when a launch needs a
     * larger one. */
    size_t dynamic_shared_limit;
};

struct magnus_bevent {
    magnus_bctx *ctx;
    CUevent event;
};

/* devices (cuda_device.c) */
magnus_status magnus_cuda_device_count(int *count);
magnus_status magnus_cuda_device_info(int index, magnus_device_info *info);
/* cuDeviceGet / cuDeviceGetAttribute with the message naming the call (name: the attribute
 * without its CU_DEVICE_ATTRIBUTE_ prefix) and the device. */
magnus_status magnus_cuda_device_get(int index, CUdevice *device);
magnus_status magnus_cuda_device_attribute(CUdevice device, int index,
                                          CUdevice_attribute which, const char *name,
                                          int *value);
/* "13.0" from cuDriverGetVersion's 13000 (1000*major + 10*minor). */
void magnus_cuda_format_version(int version, char *buf, size_t size);

/* contexts and queues (cuda_context.c) */
magnus_status magnus_cuda_make_current(magnus_bctx *ctx);

/* memory (cuda_memory.c) */
/* The context's pool and memory stream (nothing when the device has no pools or
 * MAGNUS_CUDA_POOL=0), and their release; queues join and leave the list the pool orders
 * allocations and frees against. */
magnus_status magnus_cuda_memory_init(magnus_bctx *ctx);
void magnus_cuda_memory_release(magnus_bctx *ctx);
magnus_status magnus_cuda_memory_add_queue(magnus_bctx *ctx, magnus_bqueue *q);
void magnus_cuda_memory_remove_queue(magnus_bctx *ctx, magnus_bqueue *q);

/* The ops table's functions (runtime/backend/backend_functions.h), by file: cuda_context.c
 * contexts and queues, cuda_memory.c memory, cuda_module.c modules, kernels and launches,
 * cuda_event.c events. */
MAGNUS_BACKEND_DECLARE_FUNCTIONS(magnus_cuda);

#endif /* MAGNUS_HAVE_CUDA_H */

#endif

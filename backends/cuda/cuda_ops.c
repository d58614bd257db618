/*
 * The CUDA backend's ops table (runtime/backend/backend.h): NVIDIA GPUs through the CUDA
 * Driver API (libcuda.so.1, loaded at run time); queues are non-blocking streams on the
 * device's primary context; kernels come from the fatbin (or PTX) embedded at build time
 * (backends/cuda/cuda.cmake). Each group of ops lives in its own file, as in every backend:
 *   cuda_loader.c    dlopen + cuGetProcAddress    cuda_device.c    device count, device info
 *   cuda_context.c   contexts and streams         cuda_memory.c    buffers, copies, fills
 *   cuda_module.c    modules, kernels, launch     cuda_event.c     events and timing
 * and files only this backend has:
 *   cuda_ptx.c       rewrites nvcc 13's PTX ISA version for 12.x drivers (only CUDA
 *                    JIT-compiles a text whose version the driver may refuse)
 *   fill_u64.ptx     the 8-byte fill kernel (CUDA's memsets stop at 4-byte patterns)
 *
 * Built without the CUDA headers (no cuda.h at configure time), only load and unload are
 * set: load() explains why the backend is unavailable, so the runtime never reaches the rest.
 */
#include "cuda_internal.h"

static const magnus_backend_ops cuda_ops = {
    .name = "cuda",
    .kind = MAGNUS_BACKEND_CUDA,

    .load = magnus_cuda_load,
    .unload = magnus_cuda_unload,

#ifdef MAGNUS_HAVE_CUDA_H
    .device_count = magnus_cuda_device_count,
    .device_info = magnus_cuda_device_info,

    /* fatbin with SASS for the built architectures (PTX JIT elsewhere, which the first
     * multiply would pay anyway: the whole module loads on its first kernel) */
    .preload_kernels = true,

    MAGNUS_BACKEND_TABLE_FUNCTIONS(magnus_cuda),
#endif
};

const magnus_backend_ops *magnus_backend_cuda_ops(void) { return &cuda_ops; }

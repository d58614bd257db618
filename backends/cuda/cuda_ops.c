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

    .context_create = magnus_cuda_context_create,
    .context_destroy = magnus_cuda_context_destroy,
    .queue_create = magnus_cuda_queue_create,
    .queue_destroy = magnus_cuda_queue_destroy,
    .queue_finish = magnus_cuda_queue_finish,

    .mem_alloc = magnus_cuda_mem_alloc,
    .mem_free = magnus_cuda_mem_free,
    .mem_reserved = magnus_cuda_mem_reserved,
    .mem_trim = magnus_cuda_mem_trim,
    .mem_wrap = magnus_cuda_mem_wrap,
    .mem_unwrap = magnus_cuda_mem_unwrap,
    .mem_native = magnus_cuda_mem_native,
    .context_native = magnus_cuda_context_native,
    .mem_write = magnus_cuda_mem_write,
    .mem_read = magnus_cuda_mem_read,
    .mem_copy = magnus_cuda_mem_copy,
    .mem_fill = magnus_cuda_mem_fill,

    /* fatbin with SASS for the built architectures (PTX JIT elsewhere, which the first
     * multiply would pay anyway: the whole module loads on its first kernel) */
    .preload_kernels = true,
    .module_load = magnus_cuda_module_load,
    .module_unload = magnus_cuda_module_unload,
    .kernel_get = magnus_cuda_kernel_get,
    .kernel_limits = magnus_cuda_kernel_limits,
    .kernel_local_share = magnus_cuda_kernel_local_share,
    .kernel_release = magnus_cuda_kernel_release,
    .launch = magnus_cuda_launch,

    .event_record = magnus_cuda_event_record,
    .queue_wait_event = magnus_cuda_queue_wait_event,
    .event_synchronize = magnus_cuda_event_synchronize,
    .event_elapsed_ms = magnus_cuda_event_elapsed_ms,
    .event_destroy = magnus_cuda_event_destroy,
#endif
};

const magnus_backend_ops *magnus_backend_cuda_ops(void) { return &cuda_ops; }

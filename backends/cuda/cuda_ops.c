/*
 * The CUDA backend's ops table: NVIDIA GPUs through the CUDA Driver API (libcuda.so.1,
 * loaded at run time by cuda_loader.c). Queues are non-blocking streams on the device's
 * primary context; kernels come from the fatbin (or PTX) embedded at build time
 * (backends/cuda/cuda.cmake).
 *
 * Built without the CUDA headers (no cuda.h at configure time), the table is a stub whose
 * load() explains why the backend is unavailable.
 */
#include "backend.h"
#include "internal.h"

#ifdef MAGNUS_HAVE_CUDA_H

#include "cuda_internal.h"

static const magnus_backend_ops cuda_ops = {
    .name = "cuda",
    .kind = MAGNUS_BACKEND_CUDA,
    .load = magnus_cuda_load,
    .unload = magnus_cuda_unload,
    .device_count = magnus_cuda_device_count,
    .device_info = magnus_cuda_device_info,
    .context_create = magnus_cuda_context_create,
    .context_destroy = magnus_cuda_context_destroy,
    .queue_create = magnus_cuda_queue_create,
    .queue_destroy = magnus_cuda_queue_destroy,
    .queue_finish = magnus_cuda_queue_finish,
    .mem_alloc = magnus_cuda_mem_alloc,
    .mem_free = magnus_cuda_mem_free,
    .mem_write = magnus_cuda_mem_write,
    .mem_read = magnus_cuda_mem_read,
    .mem_copy = magnus_cuda_mem_copy,
    .mem_fill = magnus_cuda_mem_fill,
    .module_load = magnus_cuda_module_load,
    .module_unload = magnus_cuda_module_unload,
    .kernel_get = magnus_cuda_kernel_get,
    .kernel_release = magnus_cuda_kernel_release,
    .launch = magnus_cuda_launch,
    .event_record = magnus_cuda_event_record,
    .queue_wait_event = magnus_cuda_queue_wait_event,
    .event_synchronize = magnus_cuda_event_synchronize,
    .event_elapsed_ms = magnus_cuda_event_elapsed_ms,
    .event_destroy = magnus_cuda_event_destroy,
};

#else /* !MAGNUS_HAVE_CUDA_H */

static magnus_status cuda_unavailable_load(void) {
    return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                        "this libmagnus was built without the CUDA headers (cuda.h not found at "
                        "configure time; set MAGNUS_CUDA_INCLUDE_DIR or CUDA_PATH and rebuild)");
}
static void cuda_unavailable_unload(void) {}

static const magnus_backend_ops cuda_ops = {
    .name = "cuda",
    .kind = MAGNUS_BACKEND_CUDA,
    .load = cuda_unavailable_load,
    .unload = cuda_unavailable_unload,
    /* every other op is NULL: load() always fails, so the runtime never reaches them */
};

#endif

const magnus_backend_ops *magnus_backend_cuda_ops(void) { return &cuda_ops; }

/*
 * The OpenCL backend's ops table (runtime/backend/backend.h): the OpenCL 1.2 host API, loaded
 * at run time; kernels built from the embedded OpenCL C source. Each group of ops lives in its
 * own file, as in every backend:
 *   opencl_loader.c   dlopen + entry points       opencl_device.c   device list, device info
 *   opencl_context.c  contexts and queues         opencl_memory.c   buffers, copies, fills
 *   opencl_module.c   programs, kernels, launch   opencl_event.c    events and timing
 * and one file only this backend has:
 *   opencl_error.c    OpenCL error names and their magnus statuses: OpenCL has no call
 *                     that names an error, and its codes are many (CUDA asks
 *                     cuGetErrorName; Level Zero's few results are named in its loader)
 */
#include "opencl_internal.h"

static const magnus_backend_ops opencl_ops = {
    .name = "opencl",
    .kind = MAGNUS_BACKEND_OPENCL,

    .load = magnus_cl_load,
    .unload = magnus_cl_unload,

    .device_count = magnus_cl_device_count,
    .device_info = magnus_cl_device_info,

    .context_create = magnus_cl_context_create,
    .context_destroy = magnus_cl_context_destroy,
    .queue_create = magnus_cl_queue_create,
    .queue_destroy = magnus_cl_queue_destroy,
    .queue_finish = magnus_cl_queue_finish,

    .mem_alloc = magnus_cl_mem_alloc,
    .mem_free = magnus_cl_mem_free,
    .mem_reserved = magnus_cl_mem_reserved,
    .mem_trim = magnus_cl_mem_trim,
    .mem_wrap = magnus_cl_mem_wrap,
    .mem_unwrap = magnus_cl_mem_unwrap,
    .mem_native = magnus_cl_mem_native,
    .context_native = magnus_cl_context_native,
    .mem_write = magnus_cl_mem_write,
    .mem_read = magnus_cl_mem_read,
    .mem_copy = magnus_cl_mem_copy,
    .mem_fill = magnus_cl_mem_fill,

    .module_load = magnus_cl_module_load,
    .module_unload = magnus_cl_module_unload,
    .kernel_get = magnus_cl_kernel_get,
    .kernel_limits = magnus_cl_kernel_limits,
    .kernel_local_share = magnus_cl_kernel_local_share,
    .kernel_release = magnus_cl_kernel_release,
    .launch = magnus_cl_launch,

    .event_record = magnus_cl_event_record,
    .queue_wait_event = magnus_cl_queue_wait_event,
    .event_synchronize = magnus_cl_event_synchronize,
    .event_elapsed_ms = magnus_cl_event_elapsed_ms,
    .event_destroy = magnus_cl_event_destroy,
};

const magnus_backend_ops *magnus_backend_opencl_ops(void) { return &opencl_ops; }

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

    MAGNUS_BACKEND_TABLE_FUNCTIONS(magnus_cl),
};

const magnus_backend_ops *magnus_backend_opencl_ops(void) { return &opencl_ops; }

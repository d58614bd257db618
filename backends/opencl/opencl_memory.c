/*
 * The OpenCL backend: OpenCL 1.2 host API, loaded at run time (opencl_loader.c), kernels built
 * from the embedded OpenCL C source (opencl_module.c). Read the table at the bottom first.
 *
 * Choices:
 *   - Queues are in order with profiling enabled; an event is a marker
 *     (clEnqueueMarkerWithWaitList), and recording one flushes its queue so another queue
 *     waiting on it (clEnqueueBarrierWithWaitList) cannot wait on unsubmitted work.
 *   - Allocation is forced at mem_alloc time: many implementations (NVIDIA's, PoCL's) only
 *     reserve memory when a buffer is first used, so an out-of-memory would surface later, in
 *     some unrelated kernel launch, as CL_OUT_OF_RESOURCES. mem_alloc therefore writes one byte
 *     at the end of every new buffer through a private queue and waits for it; a failure there
 *     is reported as MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY. The cost is one small blocking write
 *     per allocation.
 *   - A buffer larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE is refused up front, naming that limit.
 *   - The dynamic local memory argument is given at least 8 bytes (OpenCL refuses a local
 *     argument of size 0).
 */
#include <stdio.h>
#include <string.h>

#include "opencl_internal.h"

/* "name | vendor | driver | device version | platform version": what a built binary depends on. */
static magnus_status context_identity(magnus_bctx *c) {
    char name[200], vendor[200], driver[200], version[200], platform[200];
    magnus_status s;
    if ((s = magnus_cl_device_string(c->device, CL_DEVICE_NAME, name, sizeof name)) ||
        (s = magnus_cl_device_string(c->device, CL_DEVICE_VENDOR, vendor, sizeof vendor)) ||
        (s = magnus_cl_device_string(c->device, CL_DRIVER_VERSION, driver, sizeof driver)) ||
        (s = magnus_cl_device_string(c->device, CL_DEVICE_VERSION, version, sizeof version)) ||
        (s = magnus_cl_platform_string(c->platform, CL_PLATFORM_VERSION, platform, sizeof platform)))
        return s;
    snprintf(c->identity, sizeof c->identity, "%s | %s | %s | %s | %s", name, vendor, driver,
             version, platform);
    return MAGNUS_SUCCESS;
}

static void ocl_context_destroy(magnus_bctx *c) {
    if (!c) return;
    if (c->alloc_queue) magnus_cl.ReleaseCommandQueue(c->alloc_queue);
    if (c->context) magnus_cl.ReleaseContext(c->context);
    magnus_host_free(c);
}

static magnus_status ocl_context_create(int index, magnus_bctx **out) {
    *out = NULL;
    magnus_bctx *c = magnus_host_calloc(1, sizeof *c);
    if (!c) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "OpenCL context");
    magnus_status s = magnus_cl_device_ids(index, &c->platform, &c->device);
    if (!s) s = context_identity(c);
    if (s) {
        ocl_context_destroy(c);
        return s;
    }
    cl_ulong max_alloc = 0;
    cl_device_fp_config fp64 = 0;
    magnus_cl.GetDeviceInfo(c->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    if (magnus_cl.GetDeviceInfo(c->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL))
        fp64 = 0;
    char *ext;
    if ((s = magnus_cl_device_extensions(c->device, &ext))) {
        ocl_context_destroy(c);
        return s;
    }
    c->max_alloc_bytes = max_alloc;
    c->fp64 = fp64 != 0 || magnus_cl_extension_listed(ext, "cl_khr_fp64");
    c->spir = magnus_cl_extension_listed(ext, "cl_khr_spir");
    magnus_host_free(ext);

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)c->platform, 0};
    cl_int err;
    c->context = magnus_cl.CreateContext(props, 1, &c->device, NULL, NULL, &err);
    if (!c->context) {
        ocl_context_destroy(c);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateContext");
    }
    c->alloc_queue = magnus_cl.CreateCommandQueue(c->context, c->device, 0, &err);
    if (!c->alloc_queue) {
        ocl_context_destroy(c);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateCommandQueue");
    }
    *out = c;
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_queue_create(magnus_bctx *c, magnus_bqueue **out) {
    cl_int err;
    cl_command_queue q =
        magnus_cl.CreateCommandQueue(c->context, c->device, CL_QUEUE_PROFILING_ENABLE, &err);
    *out = (magnus_bqueue *)(void *)q;
    if (!q) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateCommandQueue");
    return MAGNUS_SUCCESS;
}

static void ocl_queue_destroy(magnus_bqueue *q) {
    if (q) magnus_cl.ReleaseCommandQueue(magnus_cl_queue(q));
}

static magnus_status ocl_queue_finish(magnus_bqueue *q) {
    cl_int err = magnus_cl.Finish(magnus_cl_queue(q));
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clFinish");
    return MAGNUS_SUCCESS;
}

static bool is_allocation_failure(cl_int err) {
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
           err == CL_INVALID_BUFFER_SIZE;
}

static magnus_status ocl_mem_alloc(magnus_bctx *c, size_t bytes, magnus_bmem **out) {
    *out = NULL;
    if (bytes == 0) bytes = 1;
    if (c->max_alloc_bytes && bytes > c->max_alloc_bytes)
        return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                            "OpenCL: one buffer of %zu bytes exceeds the device's largest single "
                            "allocation, %llu bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                            bytes, (unsigned long long)c->max_alloc_bytes);
    cl_int err;
    cl_mem m = magnus_cl.CreateBuffer(c->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!m) {
        if (is_allocation_failure(err))
            return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                                "OpenCL: clCreateBuffer of %zu bytes: %s", bytes,
                                magnus_cl_error_name(err));
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateBuffer");
    }
    unsigned char touch = 0;
    err = magnus_cl.EnqueueWriteBuffer(c->alloc_queue, m, CL_TRUE, bytes - 1, 1, &touch, 0, NULL,
                                       NULL);
    if (err != CL_SUCCESS) {
        magnus_cl.ReleaseMemObject(m);
        if (is_allocation_failure(err))
            return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                                "OpenCL: the device could not back a buffer of %zu bytes: %s",
                                bytes, magnus_cl_error_name(err));
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "first write to a new buffer");
    }
    *out = (magnus_bmem *)(void *)m;
    return MAGNUS_SUCCESS;
}

static void ocl_mem_free(magnus_bctx *c, magnus_bmem *m) {
    (void)c;
    if (m) magnus_cl.ReleaseMemObject(magnus_cl_mem(m));
}

static magnus_status ocl_mem_write(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                                  const void *src, size_t bytes) {
    cl_int err = magnus_cl.EnqueueWriteBuffer(magnus_cl_queue(q), magnus_cl_mem(dst), CL_TRUE,
                                              dst_offset, bytes, src, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueWriteBuffer");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_mem_read(magnus_bqueue *q, void *dst, magnus_bmem *src, size_t src_offset,
                                 size_t bytes) {
    cl_int err = magnus_cl.EnqueueReadBuffer(magnus_cl_queue(q), magnus_cl_mem(src), CL_TRUE,
                                             src_offset, bytes, dst, 0, NULL, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueReadBuffer");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_mem_copy(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                                 magnus_bmem *src, size_t src_offset, size_t bytes) {
    cl_int err = magnus_cl.EnqueueCopyBuffer(magnus_cl_queue(q), magnus_cl_mem(src),
                                             magnus_cl_mem(dst), src_offset, dst_offset, bytes, 0,
                                             NULL, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueCopyBuffer");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_mem_fill(magnus_bqueue *q, magnus_bmem *dst, size_t offset,
                                 const void *pattern, size_t pattern_bytes, size_t bytes) {
    cl_int err = magnus_cl.EnqueueFillBuffer(magnus_cl_queue(q), magnus_cl_mem(dst), pattern,
                                             pattern_bytes, offset, bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueFillBuffer");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_kernel_get(magnus_bmodule *module, const char *name,
                                   magnus_bkernel **out) {
    cl_int err;
    cl_kernel k = magnus_cl.CreateKernel(module->program, name, &err);
    *out = (magnus_bkernel *)(void *)k;
    if (k) return MAGNUS_SUCCESS;
    if (err == CL_INVALID_KERNEL_NAME)
        return magnus_error(MAGNUS_ERROR_KERNEL_BUILD, "OpenCL: no kernel named %s in the module",
                            name);
    return magnus_cl_fail(err, MAGNUS_ERROR_KERNEL_LAUNCH, "clCreateKernel");
}

static void ocl_kernel_release(magnus_bkernel *k) {
    if (k) magnus_cl.ReleaseKernel(magnus_cl_kernel(k));
}

static magnus_status ocl_launch(magnus_bqueue *q, magnus_bkernel *kernel, size_t groups,
                               size_t group_size, size_t local_bytes, int nargs,
                               const magnus_karg *args) {
    cl_kernel k = magnus_cl_kernel(kernel);
    for (int i = 0; i < nargs; i++) {
        cl_int err;
        if (args[i].kind == MAGNUS_KARG_MEM) {
            cl_mem m = magnus_cl_mem(args[i].u.mem);
            err = magnus_cl.SetKernelArg(k, (cl_uint)i, sizeof m, &m);
        } else {
            err = magnus_cl.SetKernelArg(k, (cl_uint)i, args[i].size, &args[i].u);
        }
        if (err != CL_SUCCESS) {
            magnus_cl_fail(err, MAGNUS_ERROR_KERNEL_LAUNCH, "clSetKernelArg");
            magnus_error_prefix("argument %d: ", i);
            return MAGNUS_ERROR_KERNEL_LAUNCH;
        }
    }
    cl_int err = magnus_cl.SetKernelArg(k, (cl_uint)nargs, local_bytes ? local_bytes : 8, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_KERNEL_LAUNCH, "clSetKernelArg (local memory)");
    size_t global;
    if (!magnus_mul_size(groups, group_size, &global))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "OpenCL: %zu groups of %zu overflow", groups,
                            group_size);
    err = magnus_cl.EnqueueNDRangeKernel(magnus_cl_queue(q), k, 1, NULL, &global, &group_size, 0,
                                         NULL, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_KERNEL_LAUNCH, "clEnqueueNDRangeKernel");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_event_record(magnus_bqueue *q, magnus_bevent **out) {
    cl_event e = NULL;
    *out = NULL;
    cl_int err = magnus_cl.EnqueueMarkerWithWaitList(magnus_cl_queue(q), 0, NULL, &e);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueMarkerWithWaitList");
    err = magnus_cl.Flush(magnus_cl_queue(q));
    if (err != CL_SUCCESS) {
        magnus_cl.ReleaseEvent(e);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clFlush");
    }
    *out = (magnus_bevent *)(void *)e;
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_queue_wait_event(magnus_bqueue *q, magnus_bevent *event) {
    cl_event e = magnus_cl_event(event);
    cl_int err = magnus_cl.EnqueueBarrierWithWaitList(magnus_cl_queue(q), 1, &e, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueBarrierWithWaitList");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_event_synchronize(magnus_bevent *event) {
    cl_event e = magnus_cl_event(event);
    cl_int err = magnus_cl.WaitForEvents(1, &e);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clWaitForEvents");
    return MAGNUS_SUCCESS;
}

static magnus_status ocl_event_elapsed_ms(magnus_bevent *start, magnus_bevent *end, double *ms) {
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = magnus_cl.GetEventProfilingInfo(magnus_cl_event(start), CL_PROFILING_COMMAND_END,
                                                 sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = magnus_cl.GetEventProfilingInfo(magnus_cl_event(end), CL_PROFILING_COMMAND_END,
                                              sizeof t1, &t1, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetEventProfilingInfo");
    *ms = t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0.0;
    return MAGNUS_SUCCESS;
}

static void ocl_event_destroy(magnus_bevent *event) {
    if (event) magnus_cl.ReleaseEvent(magnus_cl_event(event));
}

static const magnus_backend_ops opencl_ops = {
    .name = "opencl",
    .kind = MAGNUS_BACKEND_OPENCL,
    .load = magnus_cl_load,
    .unload = magnus_cl_unload,
    .device_count = magnus_cl_device_count,
    .device_info = magnus_cl_device_info,
    .context_create = ocl_context_create,
    .context_destroy = ocl_context_destroy,
    .queue_create = ocl_queue_create,
    .queue_destroy = ocl_queue_destroy,
    .queue_finish = ocl_queue_finish,
    .mem_alloc = ocl_mem_alloc,
    .mem_free = ocl_mem_free,
    .mem_write = ocl_mem_write,
    .mem_read = ocl_mem_read,
    .mem_copy = ocl_mem_copy,
    .mem_fill = ocl_mem_fill,
    .module_load = magnus_cl_module_load,
    .module_unload = magnus_cl_module_unload,
    .kernel_get = ocl_kernel_get,
    .kernel_release = ocl_kernel_release,
    .launch = ocl_launch,
    .event_record = ocl_event_record,
    .queue_wait_event = ocl_queue_wait_event,
    .event_synchronize = ocl_event_synchronize,
    .event_elapsed_ms = ocl_event_elapsed_ms,
    .event_destroy = ocl_event_destroy,
};

const magnus_backend_ops *magnus_backend_opencl_ops(void) { return &opencl_ops; }

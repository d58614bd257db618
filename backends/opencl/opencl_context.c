/*
 * OpenCL contexts and queues. A context holds one device's OpenCL context and what building
 * and caching programs needs (the device identity, fp64, SPIR support); queues are in order
 * with profiling enabled, for the event timestamps.
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
    memcpy(c->name, name, sizeof c->name);
    return MAGNUS_SUCCESS;
}

/* Whether the device reports a PTX compute capability (cl_nv_device_attribute_query) of 6.0 or
 * more, where float and double atomic adds are instructions (atom.add.f64 needs sm_60): its
 * compiler may then take them as inline PTX (kernels/magnus_dialect.h, MG_PTX; opencl_module.c
 * tries, and builds without it if that fails). */
static int reports_ptx_float_atomics(cl_device_id device, const char *extensions) {
    cl_uint major = 0;
    return magnus_cl_extension_listed(extensions, "cl_nv_device_attribute_query") &&
           magnus_cl.GetDeviceInfo(device, MAGNUS_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
                                   sizeof major, &major, NULL) == CL_SUCCESS &&
           major >= 6;
}

void magnus_cl_context_destroy(magnus_bctx *c) {
    if (!c) return;
    if (c->alloc_queue) magnus_cl.ReleaseCommandQueue(c->alloc_queue);
    if (c->context) magnus_cl.ReleaseContext(c->context);
    magnus_host_free(c);
}

magnus_status magnus_cl_context_create(int index, magnus_bctx **out) {
    *out = NULL;
    magnus_bctx *c = magnus_host_calloc(1, sizeof *c);
    if (!c) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "OpenCL context");
    magnus_status s = magnus_cl_device_ids(index, &c->platform, &c->device);
    if (!s) s = context_identity(c);
    if (s) {
        magnus_cl_context_destroy(c);
        return s;
    }
    cl_ulong max_alloc = 0;
    cl_device_fp_config fp64 = 0;
    magnus_cl.GetDeviceInfo(c->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    if (magnus_cl.GetDeviceInfo(c->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL))
        fp64 = 0;
    char *ext;
    if ((s = magnus_cl_device_extensions(c->device, &ext))) {
        magnus_cl_context_destroy(c);
        return s;
    }
    c->max_alloc_bytes = max_alloc;
    c->fp64 = fp64 != 0 || magnus_cl_extension_listed(ext, "cl_khr_fp64");
    c->spir = magnus_cl_extension_listed(ext, "cl_khr_spir");
    c->ptx_float_atomics = reports_ptx_float_atomics(c->device, ext);
    magnus_host_free(ext);

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)c->platform, 0};
    cl_int err;
    c->context = magnus_cl.CreateContext(props, 1, &c->device, NULL, NULL, &err);
    if (!c->context) {
        magnus_cl_context_destroy(c);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateContext");
    }
    c->alloc_queue = magnus_cl.CreateCommandQueue(c->context, c->device, 0, &err);
    if (!c->alloc_queue) {
        magnus_cl_context_destroy(c);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateCommandQueue");
    }
    *out = c;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_queue_create(magnus_bctx *c, int urgent, magnus_bqueue **out) {
    (void)urgent; /* no priority in core OpenCL (backend.h) */
    cl_int err;
    cl_command_queue q =
        magnus_cl.CreateCommandQueue(c->context, c->device, CL_QUEUE_PROFILING_ENABLE, &err);
    *out = (magnus_bqueue *)(void *)q;
    if (!q) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clCreateCommandQueue");
    return MAGNUS_SUCCESS;
}

void magnus_cl_queue_destroy(magnus_bqueue *q) {
    if (q) magnus_cl.ReleaseCommandQueue(magnus_cl_queue(q));
}

magnus_status magnus_cl_queue_finish(magnus_bqueue *q) {
    cl_int err = magnus_cl.Finish(magnus_cl_queue(q));
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clFinish");
    return MAGNUS_SUCCESS;
}

/*
 * OpenCL buffers, copies and fills.
 *
 * Allocation is forced at mem_alloc time: many implementations (NVIDIA's, PoCL's) only
 * reserve memory when a buffer is first used, so an out-of-memory would surface later, in
 * some unrelated kernel launch, as CL_OUT_OF_RESOURCES. mem_alloc therefore writes one byte
 * at the end of every new buffer through a private queue and waits for it; a failure there
 * is reported as MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY. The cost is one small blocking write per
 * allocation. A buffer larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE is refused up front, naming
 * that limit.
 */
#include "opencl_internal.h"

static bool is_allocation_failure(cl_int err) {
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
           err == CL_INVALID_BUFFER_SIZE;
}

magnus_status magnus_cl_mem_alloc(magnus_bctx *c, size_t bytes, magnus_bmem **out) {
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

void magnus_cl_mem_free(magnus_bctx *c, magnus_bmem *m) {
    (void)c;
    if (m) magnus_cl.ReleaseMemObject(magnus_cl_mem(m));
}

/* A caller's cl_mem: it must belong to this context and hold `bytes`; retained until unwrap,
 * so the caller may release its own reference whenever it likes. */
magnus_status magnus_cl_mem_wrap(magnus_bctx *c, void *native, size_t bytes, magnus_bmem **out) {
    *out = NULL;
    cl_mem m = (cl_mem)native;
    cl_context owner = NULL;
    size_t size = 0;
    cl_int err = magnus_cl.GetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
    if (err == CL_SUCCESS) err = magnus_cl.GetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "OpenCL: the buffer to wrap is not a valid cl_mem (clGetMemObjectInfo: "
                            "%s)",
                            magnus_cl_error_name(err));
    if (owner != c->context)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "OpenCL: the buffer to wrap belongs to another cl_context than the "
                            "magnus context's (magnus_context_native gives it)");
    if (size < bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "OpenCL: the buffer to wrap holds %zu bytes, %zu are needed", size,
                            bytes);
    if ((err = magnus_cl.RetainMemObject(m)) != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clRetainMemObject");
    *out = (magnus_bmem *)(void *)m;
    return MAGNUS_SUCCESS;
}

void magnus_cl_mem_unwrap(magnus_bctx *c, magnus_bmem *m) {
    (void)c;
    if (m) magnus_cl.ReleaseMemObject(magnus_cl_mem(m)); /* wrap's reference */
}

/* The handle is the cl_mem itself; the caller gets no reference of its own (it borrows). */
magnus_status magnus_cl_mem_native(magnus_bctx *c, magnus_bmem *m, void **native) {
    (void)c;
    *native = (void *)magnus_cl_mem(m);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_context_native(magnus_bctx *c, void **context, void **device) {
    *context = (void *)c->context;
    *device = (void *)c->device;
    return MAGNUS_SUCCESS;
}

/* OpenCL gives a released buffer back to the implementation: nothing is kept for reuse that
 * the runtime does not count itself. */
magnus_status magnus_cl_mem_reserved(magnus_bctx *c, uint64_t *bytes) {
    (void)c;
    *bytes = 0;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_mem_trim(magnus_bctx *c) {
    (void)c;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_mem_write(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                                  const void *src, size_t bytes) {
    cl_int err = magnus_cl.EnqueueWriteBuffer(magnus_cl_queue(q), magnus_cl_mem(dst), CL_TRUE,
                                              dst_offset, bytes, src, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueWriteBuffer");
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_mem_read(magnus_bqueue *q, void *dst, magnus_bmem *src,
                                 size_t src_offset, size_t bytes) {
    cl_int err = magnus_cl.EnqueueReadBuffer(magnus_cl_queue(q), magnus_cl_mem(src), CL_TRUE,
                                             src_offset, bytes, dst, 0, NULL, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueReadBuffer");
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_mem_copy(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                                 magnus_bmem *src, size_t src_offset, size_t bytes) {
    cl_int err = magnus_cl.EnqueueCopyBuffer(magnus_cl_queue(q), magnus_cl_mem(src),
                                             magnus_cl_mem(dst), src_offset, dst_offset, bytes, 0,
                                             NULL, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueCopyBuffer");
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_mem_fill(magnus_bqueue *q, magnus_bmem *dst, size_t offset,
                                 const void *pattern, size_t pattern_bytes, size_t bytes) {
    cl_int err = magnus_cl.EnqueueFillBuffer(magnus_cl_queue(q), magnus_cl_mem(dst), pattern,
                                             pattern_bytes, offset, bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueFillBuffer");
    return MAGNUS_SUCCESS;
}

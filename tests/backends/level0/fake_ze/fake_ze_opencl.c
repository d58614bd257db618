/*
 * The OpenCL device behind the fake: kernels run on a CPU OpenCL device (PoCL), and device
 * memory is that device's fine-grained shared virtual memory, so the host touches it directly
 * (copies, fills, timestamps) and kernels receive the very pointers Level Zero hands out, by
 * value (clSetKernelArgSVMPointer), as Level Zero requires.
 *
 * Set up on first use (the first allocation or module), so tests that only probe never start
 * OpenCL. The fake links libOpenCL directly: it is a test driver, not part of libmagnus.
 * Without a usable device (no OpenCL, no fine-grained SVM, no cl_khr_spir) allocations fall
 * back to plain host memory and modules fail to build with a log that says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

static struct {
    bool tried, ready;
    char why[256];
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
    cl_uint svm_alignment; /* the largest alignment clSVMAlloc accepts (the device's) */
} cl;

static bool has_extension(cl_device_id device, const char *name) {
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS) return false;
    char *text = malloc(size + 1);
    if (!text) return false;
    bool found = false;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, text, NULL) == CL_SUCCESS) {
        text[size] = '\0';
        size_t n = strlen(name);
        for (const char *p = strstr(text, name); p && !found; p = strstr(p + 1, name))
            found = (p == text || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0');
    }
    free(text);
    return found;
}

/* A CPU device with fine-grained SVM and SPIR: PoCL's pthread/basic devices. */
static bool device_usable(cl_device_id device) {
    cl_device_svm_capabilities svm = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) != CL_SUCCESS)
        return false;
    return (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) && has_extension(device, "cl_khr_spir");
}

static void set_up(void) {
    cl.tried = true;
    cl_uint nplatforms = 0;
    if (clGetPlatformIDs(0, NULL, &nplatforms) != CL_SUCCESS || nplatforms == 0) {
        snprintf(cl.why, sizeof cl.why, "no OpenCL platform (install pocl-opencl-icd)");
        return;
    }
    cl_platform_id platforms[16];
    if (nplatforms > 16) nplatforms = 16;
    if (clGetPlatformIDs(nplatforms, platforms, NULL) != CL_SUCCESS) {
        snprintf(cl.why, sizeof cl.why, "clGetPlatformIDs failed");
        return;
    }
    for (cl_uint p = 0; p < nplatforms && !cl.device; p++) {
        cl_device_id devices[16];
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 16, devices, &n) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < n && !cl.device; d++)
            if (device_usable(devices[d])) cl.device = devices[d];
    }
    if (!cl.device) {
        snprintf(cl.why, sizeof cl.why,
                 "no OpenCL CPU device with fine-grained SVM and cl_khr_spir (PoCL has both)");
        return;
    }
    cl_int err;
    cl.context = clCreateContext(NULL, 1, &cl.device, NULL, NULL, &err);
    if (!cl.context) {
        snprintf(cl.why, sizeof cl.why, "clCreateContext failed: %d", err);
        return;
    }
    cl.queue = clCreateCommandQueueWithProperties(cl.context, cl.device, NULL, &err);
    if (!cl.queue) {
        snprintf(cl.why, sizeof cl.why, "clCreateCommandQueueWithProperties failed: %d", err);
        clReleaseContext(cl.context);
        cl.context = NULL;
        return;
    }
    cl_uint bits = 0;
    clGetDeviceInfo(cl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    cl.svm_alignment = bits >= 64 ? bits / 8 : 8;
    cl.ready = true;
}

bool fake_ze_cl_ready(const char **why) {
    if (!cl.tried) set_up();
    if (why) *why = cl.ready ? "" : cl.why;
    return cl.ready;
}

cl_device_id fake_ze_cl_device(void) { return cl.device; }
cl_context fake_ze_cl_context(void) { return cl.context; }
cl_command_queue fake_ze_cl_queue(void) { return cl.queue; }

/* OpenCL caps the alignment clSVMAlloc accepts (PoCL: 128 bytes), Level Zero callers ask for
 * more (magnus: 256), so larger alignments over-allocate and align by hand; *raw is what to
 * free. */
void *fake_ze_cl_alloc(size_t size, size_t alignment, void **raw) {
    *raw = NULL;
    if (!fake_ze_cl_ready(NULL)) {
        size_t rounded = (size + alignment - 1) / alignment * alignment;
        *raw = aligned_alloc(alignment, rounded);
        return *raw;
    }
    size_t extra = alignment > cl.svm_alignment ? alignment : 0;
    if (size > SIZE_MAX - extra) return NULL;
    *raw = clSVMAlloc(cl.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, size + extra,
                      0);
    if (!*raw) return NULL;
    uintptr_t p = (uintptr_t)*raw;
    p = (p + alignment - 1) & ~(uintptr_t)(alignment - 1);
    return (void *)p;
}

void fake_ze_cl_free(void *raw) {
    if (!raw) return;
    if (cl.ready) clSVMFree(cl.context, raw);
    else free(raw);
}

cl_program fake_ze_cl_build(const unsigned char *bitcode, size_t size, const char *options,
                            char *log, size_t log_size) {
    const char *why;
    if (!fake_ze_cl_ready(&why)) {
        snprintf(log, log_size, "fake_ze: kernels cannot run: %s", why);
        return NULL;
    }
    cl_int status = CL_SUCCESS, err;
    cl_program program = clCreateProgramWithBinary(cl.context, 1, &cl.device, &size, &bitcode,
                                                   &status, &err);
    if (!program) {
        snprintf(log, log_size, "fake_ze: clCreateProgramWithBinary (SPIR 1.2) failed: %d/%d", err,
                 status);
        return NULL;
    }
    err = clBuildProgram(program, 1, &cl.device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        int n = snprintf(log, log_size, "fake_ze: clBuildProgram(\"%s\") failed: %d; OpenCL log: ",
                         options, err);
        size_t used = n > 0 && (size_t)n < log_size ? (size_t)n : log_size;
        if (used < log_size)
            clGetProgramBuildInfo(program, cl.device, CL_PROGRAM_BUILD_LOG, log_size - used,
                                  log + used, NULL);
        log[log_size - 1] = '\0';
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

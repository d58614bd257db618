/*
 * A fake libOpenCL that fails on request: every OpenCL entry point magnus resolves is
 * forwarded to the real ICD loader (libOpenCL.so.1, or FAKE_OPENCL_REAL), except the one
 * named by FAKE_OPENCL_FAIL, which returns an error instead. magnus loads it through
 * MAGNUS_OPENCL_LIBRARY; tests/reliability/test_fake_opencl.c drives it.
 *
 * Variables, read at every call (so a test can change them between calls):
 *   FAKE_OPENCL_FAIL    "clName" fails every call of clName; "clName@N" lets the first N
 *                       calls through and fails the later ones (the count restarts whenever
 *                       the variable's value changes); unset or "none": nothing fails
 *   FAKE_OPENCL_ERROR   the cl_int error to return (default -5, CL_OUT_OF_RESOURCES;
 *                       -1001 makes clGetPlatformIDs say "no platform", as ICD loaders do)
 *   FAKE_OPENCL_REAL    the real library (default libOpenCL.so.1)
 *   FAKE_OPENCL_PTX_CC  N: the devices also list cl_nv_device_attribute_query and report a
 *                       PTX compute capability of N.0 (0x4000; the extension's other
 *                       queries go to the real device, which refuses them), and the compiler
 *                       refuses a build whose options ask for inline PTX
 *                       (-DMG_PTX), as one that takes no PTX would
 * An entry point that returns an object returns NULL and stores the error in *errcode_ret.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char last_spec[128];
static long calls_of_named; /* calls of the named function since the spec last changed */

/* Whether this call of `name` must fail. */
static bool should_fail(const char *name) {
    const char *spec = getenv("FAKE_OPENCL_FAIL");
    if (!spec || !*spec || strcmp(spec, "none") == 0) return false;
    size_t len = strcspn(spec, "@");
    if (strlen(name) != len || strncmp(spec, name, len) != 0) return false;
    long pass = spec[len] == '@' ? strtol(spec + len + 1, NULL, 10) : 0;
    pthread_mutex_lock(&lock);
    if (strncmp(last_spec, spec, sizeof last_spec) != 0) {
        snprintf(last_spec, sizeof last_spec, "%s", spec);
        calls_of_named = 0;
    }
    bool fail = calls_of_named++ >= pass;
    pthread_mutex_unlock(&lock);
    return fail;
}

static cl_int fail_code(void) {
    const char *e = getenv("FAKE_OPENCL_ERROR");
    return e && *e ? (cl_int)strtol(e, NULL, 10) : CL_OUT_OF_RESOURCES;
}

/* The real entry point `name`; aborts if the real library cannot give it (a broken test set-up,
 * not something magnus should have to survive). */
static void *real_symbol(const char *name) {
    static void *real;
    pthread_mutex_lock(&lock);
    if (!real) {
        const char *path = getenv("FAKE_OPENCL_REAL");
        real = dlopen(path && *path ? path : "libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    }
    pthread_mutex_unlock(&lock);
    void *sym = real ? dlsym(real, name) : NULL;
    if (!sym) {
        fprintf(stderr, "fake_opencl: no real %s: %s\n", name, dlerror());
        abort();
    }
    return sym;
}

/* An entry point returning cl_int. */
#define FORWARD_STATUS(name, params, args)                                                       \
    FAKE_EXPORT CL_API_ENTRY cl_int CL_API_CALL name params {                                    \
        if (should_fail(#name)) return fail_code();                                              \
        cl_int(CL_API_CALL * real_) params;                                                      \
        void *sym_ = real_symbol(#name);                                                         \
        memcpy(&real_, &sym_, sizeof sym_);                                                      \
        return real_ args;                                                                       \
    }

/* An entry point returning an object, with its error in *errcode_ret. */
#define FORWARD_OBJECT(type, name, params, args)                                                 \
    FAKE_EXPORT CL_API_ENTRY type CL_API_CALL name params {                                      \
        if (should_fail(#name)) {                                                                \
            if (errcode_ret) *errcode_ret = fail_code();                                         \
            return NULL;                                                                         \
        }                                                                                        \
        type(CL_API_CALL * real_) params;                                                        \
        void *sym_ = real_symbol(#name);                                                         \
        memcpy(&real_, &sym_, sizeof sym_);                                                      \
        return real_ args;                                                                       \
    }

typedef void(CL_CALLBACK *context_notify)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *program_notify)(cl_program, void *);

FORWARD_STATUS(clGetPlatformIDs, (cl_uint n, cl_platform_id *p, cl_uint *np), (n, p, np))
FORWARD_STATUS(clGetPlatformInfo, (cl_platform_id p, cl_platform_info i, size_t s, void *v, size_t *r),
               (p, i, s, v, r))
FORWARD_STATUS(clGetDeviceIDs,
               (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d, cl_uint *nd),
               (p, t, n, d, nd))
/* The real entry point `name` into the function pointer `fn`. */
#define REAL(fn, name)                                                                           \
    do {                                                                                         \
        void *sym_ = real_symbol(name);                                                          \
        memcpy(&fn, &sym_, sizeof sym_);                                                         \
    } while (0)

static const char *ptx_cc(void) {
    const char *cc = getenv("FAKE_OPENCL_PTX_CC");
    return cc && *cc ? cc : NULL;
}

static cl_int answer(const void *value, size_t size, size_t capacity, void *out, size_t *ret) {
    if (ret) *ret = size;
    if (!out) return CL_SUCCESS;
    if (capacity < size) return CL_INVALID_VALUE;
    memcpy(out, value, size);
    return CL_SUCCESS;
}

FAKE_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info i,
                                                            size_t s, void *v, size_t *r) {
    if (should_fail("clGetDeviceInfo")) return fail_code();
    cl_int(CL_API_CALL * real_)(cl_device_id, cl_device_info, size_t, void *, size_t *);
    REAL(real_, "clGetDeviceInfo");
    const char *cc = ptx_cc();
    if (!cc || (i != CL_DEVICE_EXTENSIONS && i != 0x4000)) return real_(d, i, s, v, r);
    if (i == 0x4000) {
        cl_uint major = (cl_uint)atoi(cc);
        return answer(&major, sizeof major, s, v, r);
    }
    static const char extra[] = " cl_nv_device_attribute_query";
    size_t n = 0;
    cl_int e = real_(d, i, 0, NULL, &n);
    if (e != CL_SUCCESS) return e;
    char *list = malloc(n + sizeof extra);
    if (!list) return CL_OUT_OF_HOST_MEMORY;
    if ((e = real_(d, i, n, list, NULL)) == CL_SUCCESS) {
        strcat(list, extra);
        e = answer(list, strlen(list) + 1, s, v, r);
    }
    free(list);
    return e;
}
FORWARD_OBJECT(cl_context, clCreateContext,
               (const cl_context_properties *p, cl_uint n, const cl_device_id *d, context_notify f,
                void *u, cl_int *errcode_ret),
               (p, n, d, f, u, errcode_ret))
FORWARD_STATUS(clReleaseContext, (cl_context c), (c))
FORWARD_OBJECT(cl_command_queue, clCreateCommandQueue,
               (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *errcode_ret),
               (c, d, p, errcode_ret))
FORWARD_STATUS(clReleaseCommandQueue, (cl_command_queue q), (q))
FORWARD_STATUS(clFlush, (cl_command_queue q), (q))
FORWARD_STATUS(clFinish, (cl_command_queue q), (q))
FORWARD_OBJECT(cl_mem, clCreateBuffer,
               (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *errcode_ret),
               (c, f, s, h, errcode_ret))
FORWARD_STATUS(clReleaseMemObject, (cl_mem m), (m))
FORWARD_STATUS(clRetainMemObject, (cl_mem m), (m))
FORWARD_STATUS(clGetMemObjectInfo, (cl_mem m, cl_mem_info i, size_t s, void *v, size_t *r),
               (m, i, s, v, r))
FORWARD_STATUS(clEnqueueWriteBuffer,
               (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, const void *p,
                cl_uint n, const cl_event *w, cl_event *e),
               (q, m, b, o, s, p, n, w, e))
FORWARD_STATUS(clEnqueueReadBuffer,
               (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, void *p, cl_uint n,
                const cl_event *w, cl_event *e),
               (q, m, b, o, s, p, n, w, e))
FORWARD_STATUS(clEnqueueCopyBuffer,
               (cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob, size_t s, cl_uint n,
                const cl_event *w, cl_event *e),
               (q, a, b, oa, ob, s, n, w, e))
FORWARD_STATUS(clEnqueueFillBuffer,
               (cl_command_queue q, cl_mem m, const void *p, size_t ps, size_t o, size_t s,
                cl_uint n, const cl_event *w, cl_event *e),
               (q, m, p, ps, o, s, n, w, e))
FORWARD_OBJECT(cl_program, clCreateProgramWithSource,
               (cl_context c, cl_uint n, const char **t, const size_t *l, cl_int *errcode_ret),
               (c, n, t, l, errcode_ret))
FORWARD_OBJECT(cl_program, clCreateProgramWithBinary,
               (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,
                const unsigned char **b, cl_int *st, cl_int *errcode_ret),
               (c, n, d, l, b, st, errcode_ret))
FAKE_EXPORT CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n,
                                                           const cl_device_id *d, const char *o,
                                                           program_notify f, void *u) {
    if (should_fail("clBuildProgram")) return fail_code();
    if (ptx_cc() && o && strstr(o, "-DMG_PTX")) return CL_BUILD_PROGRAM_FAILURE;
    cl_int(CL_API_CALL * real_)(cl_program, cl_uint, const cl_device_id *, const char *,
                                program_notify, void *);
    REAL(real_, "clBuildProgram");
    return real_(p, n, d, o, f, u);
}
FORWARD_STATUS(clGetProgramInfo, (cl_program p, cl_program_info i, size_t s, void *v, size_t *r),
               (p, i, s, v, r))
FORWARD_STATUS(clGetProgramBuildInfo,
               (cl_program p, cl_device_id d, cl_program_build_info i, size_t s, void *v,
                size_t *r),
               (p, d, i, s, v, r))
FORWARD_STATUS(clReleaseProgram, (cl_program p), (p))
FORWARD_OBJECT(cl_kernel, clCreateKernel, (cl_program p, const char *n, cl_int *errcode_ret),
               (p, n, errcode_ret))
FORWARD_STATUS(clReleaseKernel, (cl_kernel k), (k))
FORWARD_STATUS(clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
FORWARD_STATUS(clGetKernelWorkGroupInfo,
               (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t s, void *v,
                size_t *r),
               (k, d, i, s, v, r))
FORWARD_STATUS(clEnqueueNDRangeKernel,
               (cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *o, const size_t *g,
                const size_t *l, cl_uint n, const cl_event *w, cl_event *e),
               (q, k, dim, o, g, l, n, w, e))
FORWARD_STATUS(clEnqueueMarkerWithWaitList,
               (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
FORWARD_STATUS(clEnqueueBarrierWithWaitList,
               (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
FORWARD_STATUS(clWaitForEvents, (cl_uint n, const cl_event *e), (n, e))
FORWARD_STATUS(clGetEventProfilingInfo,
               (cl_event e, cl_profiling_info i, size_t s, void *v, size_t *r), (e, i, s, v, r))
FORWARD_STATUS(clReleaseEvent, (cl_event e), (e))

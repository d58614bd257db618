/*
 * The OpenCL entry points the backend uses, resolved at run time from libOpenCL.so.1 (or the
 * library named by MAGNUS_OPENCL_LIBRARY) into one private table. Nothing here defines a
 * symbol named like an OpenCL function, so a program that links a real libOpenCL next to
 * libmagnus sees no collision. Khronos' CL/cl.h is included for its types and constants only.
 */
#ifndef MAGNUS_OPENCL_LOADER_H
#define MAGNUS_OPENCL_LOADER_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "internal.h"

/* One pointer per entry point; the member name is the OpenCL name without "cl". */
typedef struct magnus_cl_api {
    cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
    cl_int (*GetPlatformInfo)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
    cl_int (*GetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
    cl_int (*GetDeviceInfo)(cl_device_id, cl_device_info, size_t, void *, size_t *);
    cl_context (*CreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *,
                                void(CL_CALLBACK *)(const char *, const void *, size_t, void *),
                                void *, cl_int *);
    cl_int (*ReleaseContext)(cl_context);
    cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id, cl_command_queue_properties,
                                           cl_int *);
    cl_int (*ReleaseCommandQueue)(cl_command_queue);
    cl_int (*Flush)(cl_command_queue);
    cl_int (*Finish)(cl_command_queue);
    cl_mem (*CreateBuffer)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
    cl_int (*ReleaseMemObject)(cl_mem);
    cl_int (*RetainMemObject)(cl_mem);
    cl_int (*GetMemObjectInfo)(cl_mem, cl_mem_info, size_t, void *, size_t *);
    cl_int (*EnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                                 cl_uint, const cl_event *, cl_event *);
    cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *,
                                cl_uint, const cl_event *, cl_event *);
    cl_int (*EnqueueCopyBuffer)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t,
                                cl_uint, const cl_event *, cl_event *);
    cl_int (*EnqueueFillBuffer)(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t,
                                cl_uint, const cl_event *, cl_event *);
    cl_program (*CreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *,
                                          cl_int *);
    cl_program (*CreateProgramWithBinary)(cl_context, cl_uint, const cl_device_id *,
                                          const size_t *, const unsigned char **, cl_int *,
                                          cl_int *);
    cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *,
                           void(CL_CALLBACK *)(cl_program, void *), void *);
    cl_int (*GetProgramInfo)(cl_program, cl_program_info, size_t, void *, size_t *);
    cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id, cl_program_build_info, size_t, void *,
                                  size_t *);
    cl_int (*ReleaseProgram)(cl_program);
    cl_kernel (*CreateKernel)(cl_program, const char *, cl_int *);
    cl_int (*ReleaseKernel)(cl_kernel);
    cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
    cl_int (*GetKernelWorkGroupInfo)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t,
                                     void *, size_t *);
    cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                   const size_t *, const size_t *, cl_uint, const cl_event *,
                                   cl_event *);
    cl_int (*EnqueueMarkerWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
    cl_int (*EnqueueBarrierWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
    cl_int (*WaitForEvents)(cl_uint, const cl_event *);
    cl_int (*GetEventProfilingInfo)(cl_event, cl_profiling_info, size_t, void *, size_t *);
    cl_int (*ReleaseEvent)(cl_event);
} magnus_cl_api;

/* The resolved table; valid between a successful magnus_cl_load() and magnus_cl_unload(). */
extern magnus_cl_api magnus_cl;

/*
 * Opens the library (MAGNUS_OPENCL_LIBRARY if set, else libOpenCL.so.1) and resolves every
 * entry point. Idempotent. On failure: MAGNUS_ERROR_BACKEND_UNAVAILABLE, a detail message
 * naming the library and the missing symbol, and nothing left loaded.
 */
magnus_status magnus_cl_load(void);
void magnus_cl_unload(void);
/* The path that was (or would be) opened, for diagnostics. */
const char *magnus_cl_library_path(void);

/* "CL_OUT_OF_RESOURCES" for -5, "CL error -1234" (in a static buffer) when unknown. */
const char *magnus_cl_error_name(cl_int err);
/*
 * Sets the detail message "<what>: <error name>" and returns the magnus status that fits the
 * OpenCL error: allocation failures give MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, CL_OUT_OF_HOST_MEMORY
 * gives MAGNUS_ERROR_OUT_OF_HOST_MEMORY, anything else `otherwise`.
 */
magnus_status magnus_cl_fail(cl_int err, magnus_status otherwise, const char *what);

#endif

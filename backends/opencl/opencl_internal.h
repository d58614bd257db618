/*
 * Shared by the files of the OpenCL backend: the context and module structs, the conversions
 * between OpenCL handles and the runtime's opaque handle types, and the functions the ops
 * table (opencl_ops.c) points at, grouped by file.
 *
 * Queues, buffers, kernels and events need no bookkeeping of their own, so the runtime's
 * opaque handles ARE the OpenCL handles (cl_command_queue, cl_mem, cl_kernel, cl_event):
 * no allocation, nothing to free beyond the OpenCL release call.
 */
#ifndef MAGNUS_OPENCL_INTERNAL_H
#define MAGNUS_OPENCL_INTERNAL_H

#include "backend.h"
#include "backend_functions.h"
#include "opencl_loader.h"

/* Device parameters of OpenCL 3.0 and vendor extensions, queried only when advertised. */
#define MAGNUS_CL_DEVICE_PREFERRED_WG_MULTIPLE 0x1067 /* OpenCL 3.0 */
#define MAGNUS_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000 /* cl_nv_device_attribute_query */
#define MAGNUS_CL_DEVICE_WARP_SIZE_NV 0x4003          /* cl_nv_device_attribute_query */
#define MAGNUS_CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043   /* cl_amd_device_attribute_query */
#define MAGNUS_CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108 /* cl_intel_required_subgroup_size */

/* A context on one device, with what module_load needs to build and cache programs. */
struct magnus_bctx {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue alloc_queue; /* touches new buffers so allocation failures show early */
    uint64_t max_alloc_bytes;     /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    int fp64;
    int spir;                     /* cl_khr_spir: SPIR 1.2 binaries accepted */
    int ptx_float_atomics;        /* reports a PTX compute capability >= 6.0 (opencl_module.c) */
    char identity[1024];          /* device name, vendor, driver and platform version */
    char name[200];               /* CL_DEVICE_NAME, for messages */
};

/* A built program of one variant. */
struct magnus_bmodule {
    cl_program program;
    magnus_bctx *ctx;
};

static inline cl_command_queue magnus_cl_queue(magnus_bqueue *q) { return (cl_command_queue)(void *)q; }
static inline cl_mem magnus_cl_mem(magnus_bmem *m) { return (cl_mem)(void *)m; }
static inline cl_kernel magnus_cl_kernel(magnus_bkernel *k) { return (cl_kernel)(void *)k; }
static inline cl_event magnus_cl_event(magnus_bevent *e) { return (cl_event)(void *)e; }

/* ---- devices (opencl_device.c) ---- */
/* Lists every usable device of every platform (available, with a compiler, OpenCL >= 1.2),
 * platform by platform. Re-enumerates on every call. */
magnus_status magnus_cl_device_count(int *count);
magnus_status magnus_cl_device_ids(int index, cl_platform_id *platform, cl_device_id *device);
magnus_status magnus_cl_device_info(int index, magnus_device_info *info);
/* String parameter of a device / platform into buf (truncated, always terminated). */
magnus_status magnus_cl_device_string(cl_device_id device, cl_device_info param, char *buf,
                                      size_t capacity);
magnus_status magnus_cl_platform_string(cl_platform_id platform, cl_platform_info param,
                                        char *buf, size_t capacity);
/* CL_DEVICE_EXTENSIONS as a new host string (magnus_host_free it). */
magnus_status magnus_cl_device_extensions(cl_device_id device, char **list);
/* Whether `extension` is a whole word of the space-separated list. */
bool magnus_cl_extension_listed(const char *list, const char *extension);

/* The ops table's functions (runtime/backend/backend_functions.h), by file: opencl_context.c
 * contexts and queues, opencl_memory.c memory, opencl_module.c programs, kernels and launches,
 * opencl_event.c events. */
MAGNUS_BACKEND_DECLARE_FUNCTIONS(magnus_cl);

#endif

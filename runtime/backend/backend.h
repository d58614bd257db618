/*
 * The backend interface: one table of function pointers per vendor backend, filled by that
 * backend alone (backends/<vendor>/<vendor>_ops.c), read top to bottom like PoCL's
 * pocl_device_ops. runtime/ sees a backend only through this table; no vendor type or name
 * appears outside backends/.
 *
 * Rules every backend follows:
 *   - load() dlopens the vendor library (libcuda.so.1, libze_loader.so.1, libOpenCL.so.1, or
 *     the path in MAGNUS_<VENDOR>_LIBRARY for tests) and resolves every entry point into a
 *     private struct; on failure it returns MAGNUS_ERROR_BACKEND_UNAVAILABLE with a detail
 *     message naming the library and symbol, and leaves nothing loaded.
 *   - Every other call returns a magnus_status and, on failure, sets the detail message with
 *     magnus_error() including the vendor's own error name/text.
 *   - Handles (contexts, queues, buffers, modules, kernels, events) are opaque structs that
 *     the backend defines; the runtime only passes them back.
 *   - Device memory is addressed as whole buffers: a kernel receives a buffer argument and
 *     any offset into it as a separate integer argument (OpenCL 1.2 has no pointer
 *     arithmetic on cl_mem). Host<->device copies take byte offsets.
 *   - launch() runs a 1-D grid of `groups` work groups of `group_size` work items with
 *     `local_bytes` of dynamic local memory. Every kernel's last parameter is the dialect's
 *     MG_DYN_LOCAL_PARAM (kernels/magnus_dialect.h); the backend supplies it (OpenCL/Level
 *     Zero: a local argument of local_bytes; CUDA: a dummy pointer plus sharedMemBytes, with
 *     the opt-in attribute set when local_bytes exceeds 48 KiB).
 *   - Queues are in order. Work on different queues may overlap; order across queues only
 *     with event_record + queue_wait_event.
 */
#ifndef MAGNUS_BACKEND_H
#define MAGNUS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device_handles.h"
#include "magnus/magnus.h"


typedef struct magnus_backend_ops {
    const char *name;          /* "cuda", "level0", "opencl" */
    magnus_backend_kind kind;
    /* The backend's modules are prebuilt binaries, so loading every kernel when a context is
     * created costs little and spares a context's first multiply (MAGNUS_PRELOAD_KERNELS's
     * default). False where a module may need a build (OpenCL C, SPIR-V). */
    bool preload_kernels;

    /* library */
    magnus_status (*load)(void);
    void (*unload)(void);

    /* devices */
    /* On success the detail message may hold a note for the probe's diagnostics (devices
     * skipped and why); the registry clears it before the call. */
    magnus_status (*device_count)(int *count);
    magnus_status (*device_info)(int index, magnus_device_info *info);

    /* contexts and queues */
    magnus_status (*context_create)(int index, magnus_bctx **ctx);
    void (*context_destroy)(magnus_bctx *ctx);
    /* urgent != 0: a hint that this queue's kernels should get the device's units before
     * those already waiting on the context's other queues (CUDA: the greatest stream
     * priority; Level Zero: ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH; OpenCL has no such
     * queue property in its core API and ignores it). Never changes results. */
    magnus_status (*queue_create)(magnus_bctx *ctx, int urgent, magnus_bqueue **queue);
    void (*queue_destroy)(magnus_bqueue *queue);
    magnus_status (*queue_finish)(magnus_bqueue *queue);

    /* memory: alloc/free return at once; write/read block until done; copy/fill are queued.
     * A buffer from mem_alloc may be used on every queue of the context right away, and
     * mem_free may be called while queued work still uses the buffer: the backend makes both
     * safe (OpenCL defers the release; CUDA orders a stream-ordered pool's allocation before,
     * and its free after, the work of every queue, or cuMemFree synchronises; Level Zero
     * drains first). */
    magnus_status (*mem_alloc)(magnus_bctx *ctx, size_t bytes, magnus_bmem **mem);
    void (*mem_free)(magnus_bctx *ctx, magnus_bmem *mem);
    /* Device memory the backend's allocator holds for the context: its live buffers plus
     * freed memory it keeps mapped for reuse (CUDA's stream-ordered pool). 0 when the
     * allocator keeps nothing (the runtime then counts its own buffers). mem_trim gives the
     * kept memory back to the device. */
    magnus_status (*mem_reserved)(magnus_bctx *ctx, uint64_t *bytes);
    magnus_status (*mem_trim)(magnus_bctx *ctx);
    magnus_status (*mem_write)(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                               const void *src, size_t bytes);
    magnus_status (*mem_read)(magnus_bqueue *q, void *dst, magnus_bmem *src, size_t src_offset,
                              size_t bytes);
    magnus_status (*mem_copy)(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,
                              magnus_bmem *src, size_t src_offset, size_t bytes);
    /* pattern_bytes is 1, 2, 4 or 8; bytes is a multiple of it */
    magnus_status (*mem_fill)(magnus_bqueue *q, magnus_bmem *dst, size_t offset,
                              const void *pattern, size_t pattern_bytes, size_t bytes);
    /* Foreign memory (magnus_device_csr_wrap): mem_wrap makes a buffer handle of the caller's
     * native buffer (OpenCL: a cl_mem of this context, which it retains and checks holds
     * `bytes`; CUDA: a CUdeviceptr; Level Zero: a device USM pointer; those two cannot be
     * checked); mem_unwrap drops the handle and leaves the caller's memory. context_native
     * gives the native context and device (cl_context and cl_device_id; CUcontext, the
     * primary one, and the CUdevice ordinal; ze_context_handle_t and ze_device_handle_t).
     * mem_native is mem_wrap's inverse (magnus_device_csr_native): the native buffer of any
     * handle, allocated or wrapped, the array at its offset 0 (OpenCL: the cl_mem, not
     * retained; CUDA: the CUdeviceptr; Level Zero: the USM pointer). */
    magnus_status (*mem_wrap)(magnus_bctx *ctx, void *native, size_t bytes, magnus_bmem **mem);
    void (*mem_unwrap)(magnus_bctx *ctx, magnus_bmem *mem);
    magnus_status (*mem_native)(magnus_bctx *ctx, magnus_bmem *mem, void **native);
    magnus_status (*context_native)(magnus_bctx *ctx, void **context, void **device);

    /* kernels: modules come from the backend's own embedded binaries */
    magnus_status (*module_load)(magnus_bctx *ctx, magnus_kernel_variant variant,
                                 const magnus_build_notice *notice, magnus_bmodule **module);
    void (*module_unload)(magnus_bmodule *module);
    /* a name the module lacks: MAGNUS_ERROR_KERNEL_BUILD, naming the kernel */
    magnus_status (*kernel_get)(magnus_bmodule *module, const char *name, magnus_bkernel **kernel);
    /* The kernel's limits on ctx's device (the context its module was loaded in). The device
     * runtime asks once, right after kernel_get and before any launch: OpenCL counts the local
     * arguments set so far in CL_KERNEL_LOCAL_MEM_SIZE. */
    magnus_status (*kernel_limits)(magnus_bctx *ctx, magnus_bkernel *kernel,
                                   magnus_kernel_limits *limits);
    /* A hint for how the compute unit splits the on-chip memory that local memory and the
     * L1 cache share, while this kernel runs: local_percent (0..100) is the share of the most
     * local memory the unit can have that the kernel prefers as local memory (the rest left
     * to the cache: 0 prefers the largest cache), -1 the driver's own choice (what a kernel
     * gets when this is never called). Never changes results; the driver may give a kernel
     * more local memory than preferred when its groups need it. CUDA: the function attribute
     * PREFERRED_SHARED_MEMORY_CARVEOUT; Level Zero: zeKernelSetCacheConfig's large-data or
     * large-SLM flag; OpenCL has no such control and does nothing. Called before the
     * kernel's first launch in the context. */
    magnus_status (*kernel_local_share)(magnus_bctx *ctx, magnus_bkernel *kernel,
                                        int local_percent);
    void (*kernel_release)(magnus_bkernel *kernel);
    magnus_status (*launch)(magnus_bqueue *q, magnus_bkernel *kernel, size_t groups,
                            size_t group_size, size_t local_bytes, int nargs,
                            const magnus_karg *args);

    /* events */
    magnus_status (*event_record)(magnus_bqueue *q, magnus_bevent **event);
    magnus_status (*queue_wait_event)(magnus_bqueue *q, magnus_bevent *event);
    magnus_status (*event_synchronize)(magnus_bevent *event);
    magnus_status (*event_elapsed_ms)(magnus_bevent *start, magnus_bevent *end, double *ms);
    void (*event_destroy)(magnus_bevent *event);
} magnus_backend_ops;

/* Each backend exports exactly one accessor for its table (defined in its *_ops.c). */
const magnus_backend_ops *magnus_backend_cuda_ops(void);
const magnus_backend_ops *magnus_backend_level0_ops(void);
const magnus_backend_ops *magnus_backend_opencl_ops(void);

#endif

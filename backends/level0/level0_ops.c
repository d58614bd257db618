/*
 * The Level Zero backend's ops table (runtime/backend/backend.h). Intel GPUs through the oneAPI Level
 * Zero loader, dlopened at run time; kernels are the SPIR-V embedded at build time.
 * The design (immediate command lists, events instead of fences) is described in
 * level0_internal.h; each group of ops lives in its own file:
 *   level0_loader.c   dlopen + entry points      level0_device.c   zeInit, probe, device info
 *   level0_context.c  contexts and queues         level0_memory.c   buffers, copies, fills
 *   level0_module.c   modules, kernels, launch    level0_event.c    events and timing
 * and one folder only this backend has:
 *   spirv/            build-time repairs of the SPIR-V that llvm-spirv-14 emits (only this
 *                     backend ships SPIR-V; see level0.cmake)
 *
 * Built without level_zero/ze_api.h, only load and unload are set: load() explains why the
 * backend is unavailable, so the runtime never reaches the rest.
 */
#include "level0_internal.h"

static const magnus_backend_ops level0_ops = {
    .name = "level0",
    .kind = MAGNUS_BACKEND_LEVEL0,

    .load = level0_load,
    .unload = level0_unload,

#ifdef MAGNUS_HAVE_LEVEL0_HEADERS
    .device_count = level0_device_count_get,
    .device_info = level0_device_info,

    .context_create = level0_context_create,
    .context_destroy = level0_context_destroy,
    .queue_create = level0_queue_create,
    .queue_destroy = level0_queue_destroy,
    .queue_finish = level0_queue_finish,

    .mem_alloc = level0_mem_alloc,
    .mem_free = level0_mem_free,
    .mem_reserved = level0_mem_reserved,
    .mem_trim = level0_mem_trim,
    .mem_wrap = level0_mem_wrap,
    .mem_unwrap = level0_mem_unwrap,
    .mem_native = level0_mem_native,
    .context_native = level0_context_native,
    .mem_write = level0_mem_write,
    .mem_read = level0_mem_read,
    .mem_copy = level0_mem_copy,
    .mem_fill = level0_mem_fill,

    .module_load = level0_module_load,
    .module_unload = level0_module_unload,
    .kernel_get = level0_kernel_get,
    .kernel_limits = level0_kernel_limits,
    .kernel_local_share = level0_kernel_local_share,
    .kernel_release = level0_kernel_release,
    .launch = level0_launch,

    .event_record = level0_event_record,
    .queue_wait_event = level0_queue_wait_event,
    .event_synchronize = level0_event_synchronize,
    .event_elapsed_ms = level0_event_elapsed_ms,
    .event_destroy = level0_event_destroy,
#endif
};

const magnus_backend_ops *magnus_backend_level0_ops(void) { return &level0_ops; }

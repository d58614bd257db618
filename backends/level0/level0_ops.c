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

    MAGNUS_BACKEND_TABLE_FUNCTIONS(level0),
#endif
};

const magnus_backend_ops *magnus_backend_level0_ops(void) { return &level0_ops; }

/*
 * The Level Zero entry points the backend uses, resolved at run time from the loader
 * (libze_loader.so.1, or the path in MAGNUS_LEVEL0_LIBRARY) into one private struct of typed
 * pointers. libmagnus never links the loader: a machine without it still loads libmagnus, and
 * the pointers cannot collide with a real zeInit elsewhere in the process.
 *
 * Each pointer's type comes from the prototype in level_zero/ze_api.h (__typeof__), so a
 * signature can never drift from the header. Naming a function here is the only step needed to
 * use it: MAGNUS_ZE_FUNCTIONS drives both the struct and the resolution loop.
 */
#ifndef MAGNUS_LEVEL0_LOADER_H
#define MAGNUS_LEVEL0_LOADER_H

#include <level_zero/ze_api.h>

#include "dynamic_library.h"
#include "magnus/magnus.h"

#define MAGNUS_ZE_FUNCTIONS(X)                                                                   \
    X(zeInit)                                                                                    \
    X(zeDriverGet)                                                                               \
    X(zeDriverGetProperties)                                                                     \
    X(zeDeviceGet)                                                                               \
    X(zeDeviceGetProperties)                                                                     \
    X(zeDeviceGetComputeProperties)                                                              \
    X(zeDeviceGetModuleProperties)                                                               \
    X(zeDeviceGetMemoryProperties)                                                               \
    X(zeDeviceGetCommandQueueGroupProperties)                                                    \
    X(zeContextCreate)                                                                           \
    X(zeContextDestroy)                                                                          \
    X(zeCommandListCreateImmediate)                                                              \
    X(zeCommandListDestroy)                                                                      \
    X(zeCommandListAppendBarrier)                                                                \
    X(zeCommandListAppendMemoryCopy)                                                             \
    X(zeCommandListAppendMemoryFill)                                                             \
    X(zeCommandListAppendLaunchKernel)                                                           \
    X(zeCommandListAppendWaitOnEvents)                                                           \
    X(zeCommandListAppendWriteGlobalTimestamp)                                                   \
    X(zeMemAllocDevice)                                                                          \
    X(zeMemAllocHost)                                                                            \
    X(zeMemFree)                                                                                 \
    X(zeModuleCreate)                                                                            \
    X(zeModuleDestroy)                                                                           \
    X(zeModuleBuildLogGetString)                                                                 \
    X(zeModuleBuildLogDestroy)                                                                   \
    X(zeKernelCreate)                                                                            \
    X(zeKernelDestroy)                                                                           \
    X(zeKernelSetGroupSize)                                                                      \
    X(zeKernelSetArgumentValue)                                                                  \
    X(zeKernelGetProperties)                                                                     \
    X(zeKernelSetCacheConfig)                                                                    \
    X(zeEventPoolCreate)                                                                         \
    X(zeEventPoolDestroy)                                                                        \
    X(zeEventCreate)                                                                             \
    X(zeEventDestroy)                                                                            \
    X(zeEventHostSynchronize)                                                                    \
    X(zeEventHostReset)

typedef struct magnus_ze_api {
    magnus_library library; /* handle NULL when not loaded */
#define MAGNUS_ZE_MEMBER(fn) __typeof__(fn) *fn;
    MAGNUS_ZE_FUNCTIONS(MAGNUS_ZE_MEMBER)
#undef MAGNUS_ZE_MEMBER
} magnus_ze_api;

/* The resolved entry points; valid between a successful magnus_ze_load() and magnus_ze_unload(). */
extern magnus_ze_api magnus_ze;

/*
 * dlopens the loader and resolves every entry point. On failure returns
 * MAGNUS_ERROR_BACKEND_UNAVAILABLE with a message naming the library (and the symbol), and
 * leaves nothing loaded. Loading twice without an unload is a no-op.
 */
magnus_status magnus_ze_load(void);
/* Closes the library and clears every pointer. */
void magnus_ze_unload(void);

/* "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", or NULL for a value this header does not name. */
const char *magnus_ze_result_name(ze_result_t result);

/*
 * Sets the detail message "<what> failed: <result name>" (what is printf-formatted, e.g.
 * "zeMemAllocDevice(%zu bytes)") and returns the status: the out-of-memory results map to
 * MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY / MAGNUS_ERROR_OUT_OF_HOST_MEMORY, anything else to
 * `fallback`.
 */
magnus_status magnus_ze_error(magnus_status fallback, ze_result_t result, const char *what, ...)
    __attribute__((format(printf, 3, 4)));

#endif

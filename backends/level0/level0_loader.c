/* Run-time loading of the Level Zero loader library and its result names. */
#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include "level0_loader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The soname of every Level Zero 1.x loader; MAGNUS_LEVEL0_LIBRARY overrides it (tests). */
#define MAGNUS_ZE_LIBRARY_VARIABLE "MAGNUS_LEVEL0_LIBRARY"
#define MAGNUS_ZE_DEFAULT_LIBRARY "libze_loader.so.1"

magnus_ze_api magnus_ze;

magnus_status magnus_ze_load(void) {
    if (magnus_ze.library.handle) return MAGNUS_SUCCESS;
    magnus_ze_api api;
    memset(&api, 0, sizeof api);
    magnus_status s =
        magnus_library_open(&api.library, MAGNUS_ZE_LIBRARY_VARIABLE, MAGNUS_ZE_DEFAULT_LIBRARY);
    if (s) return s;
#define MAGNUS_ZE_SYMBOL(fn) {#fn, &api.fn},
    const magnus_library_symbol symbols[] = {MAGNUS_ZE_FUNCTIONS(MAGNUS_ZE_SYMBOL)};
#undef MAGNUS_ZE_SYMBOL
    s = magnus_library_resolve(&api.library, "symbol",
                               " (a Level Zero loader older than the 1.x API magnus needs?)",
                               symbols, sizeof symbols / sizeof symbols[0]);
    if (s) {
        magnus_library_close(&api.library, false);
        return s;
    }
    magnus_ze = api;
    return MAGNUS_SUCCESS;
}

void magnus_ze_unload(void) {
    magnus_library_close(&magnus_ze.library, false);
    memset(&magnus_ze, 0, sizeof magnus_ze);
}

const char *magnus_ze_result_name(ze_result_t result) {
    switch (result) {
#define NAME(r)                                                                                  \
    case r: return #r;
        NAME(ZE_RESULT_SUCCESS)
        NAME(ZE_RESULT_NOT_READY)
        NAME(ZE_RESULT_ERROR_DEVICE_LOST)
        NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
        NAME(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
        NAME(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
        NAME(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
        NAME(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
        NAME(ZE_RESULT_ERROR_NOT_AVAILABLE)
        NAME(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
        NAME(ZE_RESULT_ERROR_UNINITIALIZED)
        NAME(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
        NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
        NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
        NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
        NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
        NAME(ZE_RESULT_ERROR_INVALID_SIZE)
        NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
        NAME(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
        NAME(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
        NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
        NAME(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
        NAME(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
        NAME(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
        NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
        NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
        NAME(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
        NAME(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
        NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
        NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
        NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
        NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
        NAME(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
        NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
        NAME(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
        NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef NAME
    default: return NULL;
    }
}

magnus_status magnus_ze_error(magnus_status fallback, ze_result_t result, const char *what, ...) {
    char call[512];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);
    magnus_status status = fallback;
    if (result == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY) status = MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY;
    if (result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY) status = MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
    const char *name = magnus_ze_result_name(result);
    if (name) return magnus_error(status, "level0: %s failed: %s", call, name);
    return magnus_error(status, "level0: %s failed: ze_result_t 0x%x", call, (unsigned)result);
}

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

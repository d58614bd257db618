/* Loads libOpenCL at run time and resolves the entry points into magnus_cl. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_loader.h"

magnus_cl_api magnus_cl;
static void *library;

static const char *const default_library = "libOpenCL.so.1";

const char *magnus_cl_library_path(void) {
    const char *env = getenv("MAGNUS_OPENCL_LIBRARY");
    return env && *env ? env : default_library;
}

/* Member of magnus_cl and the symbol that fills it, listed once. */
#define MAGNUS_CL_SYMBOLS(X)                                                                     \
    X(GetPlatformIDs)                                                                            \
    X(GetPlatformInfo)                                                                           \
    X(GetDeviceIDs)                                                                              \
    X(GetDeviceInfo)                                                                             \
    X(CreateContext)                                                                             \
    X(ReleaseContext)                                                                            \
    X(CreateCommandQueue)                                                                        \
    X(ReleaseCommandQueue)                                                                       \
    X(Flush)                                                                                     \
    X(Finish)                                                                                    \
    X(CreateBuffer)                                                                              \
    X(ReleaseMemObject)                                                                          \
    X(EnqueueWriteBuffer)                                                                        \
    X(EnqueueReadBuffer)                                                                         \
    X(EnqueueCopyBuffer)                                                                         \
    X(EnqueueFillBuffer)                                                                         \
    X(CreateProgramWithSource)                                                                   \
    X(CreateProgramWithBinary)                                                                   \
    X(BuildProgram)                                                                              \
    X(GetProgramInfo)                                                                            \
    X(GetProgramBuildInfo)                                                                       \
    X(ReleaseProgram)                                                                            \
    X(CreateKernel)                                                                              \
    X(ReleaseKernel)                                                                             \
    X(SetKernelArg)                                                                              \
    X(GetKernelWorkGroupInfo)                                                                    \
    X(EnqueueNDRangeKernel)                                                                      \
    X(EnqueueMarkerWithWaitList)                                                                 \
    X(EnqueueBarrierWithWaitList)                                                                \
    X(WaitForEvents)                                                                             \
    X(GetEventProfilingInfo)                                                                     \
    X(ReleaseEvent)

magnus_status magnus_cl_load(void) {
    if (library) return MAGNUS_SUCCESS;
    const char *path = magnus_cl_library_path();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "cannot load %s: %s", path,
                            why ? why : "unknown dlopen error");
    }
    magnus_cl_api api;
    memset(&api, 0, sizeof api);
    /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
#define MAGNUS_CL_RESOLVE(member)                                                                \
    {                                                                                            \
        void *sym = dlsym(handle, "cl" #member);                                                 \
        if (!sym) {                                                                              \
            dlclose(handle);                                                                     \
            return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,                                \
                                "%s lacks the OpenCL 1.2 entry point cl" #member, path);         \
        }                                                                                        \
        memcpy(&api.member, &sym, sizeof sym);                                                   \
    }
    MAGNUS_CL_SYMBOLS(MAGNUS_CL_RESOLVE)
#undef MAGNUS_CL_RESOLVE
    magnus_cl = api;
    library = handle;
    return MAGNUS_SUCCESS;
}

void magnus_cl_unload(void) {
    if (!library) return;
    dlclose(library);
    library = NULL;
    memset(&magnus_cl, 0, sizeof magnus_cl);
}

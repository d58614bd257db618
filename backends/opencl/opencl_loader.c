/* Loads libOpenCL at run time and resolves the entry points into magnus_cl. */
#include <string.h>

#include "dynamic_library.h"
#include "opencl_loader.h"

magnus_cl_api magnus_cl;
static magnus_library library;

#define MAGNUS_CL_LIBRARY_VARIABLE "MAGNUS_OPENCL_LIBRARY"
#define MAGNUS_CL_DEFAULT_LIBRARY "libOpenCL.so.1"

const char *magnus_cl_library_path(void) {
    return magnus_library_path(MAGNUS_CL_LIBRARY_VARIABLE, MAGNUS_CL_DEFAULT_LIBRARY);
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
    X(RetainMemObject)                                                                           \
    X(GetMemObjectInfo)                                                                          \
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
    if (library.handle) return MAGNUS_SUCCESS;
    magnus_library lib;
    magnus_status s =
        magnus_library_open(&lib, MAGNUS_CL_LIBRARY_VARIABLE, MAGNUS_CL_DEFAULT_LIBRARY);
    if (s) return s;
    magnus_cl_api api;
    memset(&api, 0, sizeof api);
#define MAGNUS_CL_SYMBOL(member) {"cl" #member, &api.member},
    const magnus_library_symbol symbols[] = {MAGNUS_CL_SYMBOLS(MAGNUS_CL_SYMBOL)};
#undef MAGNUS_CL_SYMBOL
    s = magnus_library_resolve(&lib, "OpenCL 1.2 entry point", NULL, symbols,
                               sizeof symbols / sizeof symbols[0]);
    if (s) {
        magnus_library_close(&lib, false);
        return s;
    }
    magnus_cl = api;
    library = lib;
    return MAGNUS_SUCCESS;
}

void magnus_cl_unload(void) {
    if (!library.handle) return;
    magnus_library_close(&library, false);
    memset(&magnus_cl, 0, sizeof magnus_cl);
}

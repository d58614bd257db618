/*
 * The base of the headers in kernels/shared/: constants and local-memory layouts that the
 * kernels and the host C code both compile, so that each is written once. Such a header is
 * valid OpenCL C 1.2, C11 and CUDA C++; it starts with `#include "mg_shared.h"` and holds
 * only macros and MG_SHARED_FN functions of the mg_ integer types (no mg_val: the host passes
 * a value size where a kernel passes sizeof(mg_val)).
 *
 * Kernel side, the dialect supplies the types and MG_SHARED_FN is a device function; host
 * side, the types are <stdint.h>'s and MG_SHARED_FN is static inline. The OpenCL build
 * concatenates the sources with their #include lines removed (cmake/MagnusConcat.cmake), so
 * kernels/kernels.cmake puts this file, then the other kernels/shared/ headers, before every
 * kernel file; include guards keep the nvcc and clang builds, which do follow the includes,
 * from seeing a header twice.
 */
#ifndef MAGNUS_SHARED_MG_SHARED_H
#define MAGNUS_SHARED_MG_SHARED_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__) || defined(__CUDACC__)
#include "magnus_dialect.h"
#define MG_SHARED_FN MG_DEVICE
#else
#include <stdint.h>
typedef int32_t mg_i32;
typedef uint32_t mg_u32;
typedef int64_t mg_i64;
typedef uint64_t mg_u64;
#define MG_SHARED_FN static inline
#endif

/* bytes rounded up to a multiple of 8: local arrays of 64-bit elements follow at such offsets */
MG_SHARED_FN mg_u64 mg_align8(mg_u64 bytes) { return (bytes + 7u) & ~(mg_u64)7u; }

#endif /* MAGNUS_SHARED_MG_SHARED_H */

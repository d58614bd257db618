/*
 * Foreign device buffers: matrices whose arrays another library allocated (zero-copy input).
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_BUFFERS_H
#define MAGNUS_BUFFERS_H

#include "magnus_spgemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * Foreign device buffers: matrices whose arrays another library allocated (zero-copy input)
 * ------------------------------------------------------------------------------------------ */
/* The context's native handles, to allocate buffers magnus can wrap: OpenCL: context is the
 * cl_context and device the cl_device_id; CUDA: the device's primary context (CUcontext, which
 * CUDA runtime libraries such as CuPy use too) and the CUdevice ordinal cast to a pointer;
 * Level Zero: ze_context_handle_t and ze_device_handle_t. */
typedef struct magnus_native_handles {
    magnus_backend_kind backend;
    void *context;
    void *device;
} magnus_native_handles;
MAGNUS_API magnus_status magnus_context_native(magnus_native_handles *out,
                                               const magnus_context_s *ctx);
/*
 * A device matrix over the caller's device buffers, without copying them: row_ptr (rows+1
 * int64), col_idx (nnz int32) and values (nnz of `type`), each the backend's native buffer:
 * an OpenCL cl_mem of the context's cl_context (retained while wrapped; one of another context
 * or smaller than its array is refused with MAGNUS_ERROR_INVALID_ARGUMENT), a CUDA device
 * pointer (CUdeviceptr cast to void *), a Level Zero device USM pointer (those two are taken
 * as given). col_idx and values may be NULL when nnz is 0. The structure is validated on the
 * device as magnus_csr_validate does (its status and message for the first broken rule, the
 * detail prefixed "wrapped matrix: ") and fingerprinted for plans, in one pass over row_ptr
 * and col_idx of which a few bytes come back (blocking); the values are not read.
 * Use it as any device matrix (an operand of magnus_spgemm_device and plans, download,
 * magnus_device_csr_write_values, which then writes into the caller's buffer);
 * magnus_device_csr_free drops the wrapper and leaves the buffers to their owner, who must
 * keep them alive, and not change the structure, until then. Wrapped buffers are not counted
 * in the context's memory in use or a report's peak.
 */
MAGNUS_API magnus_status magnus_device_csr_wrap(magnus_device_csr *out, magnus_context ctx,
                                                int64_t rows, int64_t cols, int64_t nnz,
                                                magnus_value_type type, void *row_ptr,
                                                void *col_idx, void *values);
/*
 * The other direction (zero-copy output to another library): the backend-native handles of a
 * device matrix's three arrays, as magnus_device_csr_wrap takes them: row_ptr (rows+1 int64),
 * col_idx (nnz int32) and values (nnz of `type`), each a CUDA device pointer (CUdeviceptr cast
 * to void *, of the device's primary context: magnus_context_native), an OpenCL cl_mem of the
 * context's cl_context (not retained for the caller) or a Level Zero device USM pointer; each
 * array starts at offset 0 of its handle, and with nnz 0 col_idx and values are live one-byte
 * placeholders. On CUDA a buffer may come from magnus's stream-ordered memory pool: it is an
 * ordinary device pointer of the device, usable by any CUDA code there (CuPy's included).
 * Works for any live device matrix: uploaded, a product, or a wrap (whose handles are the
 * caller's own).
 *
 * Lifetime: the buffers stay owned by dA and valid until magnus_device_csr_free(&dA); the
 * caller must not free or release them. The matrix is complete when the call that made it
 * returned (magnus's queues are idle between public calls), so another library may read it at
 * once. magnus frees a matrix's buffers stream-ordered on its own queues only, and may hand
 * them to its next allocation: work of another library (another stream or queue) that uses
 * them must be complete (synchronised) before dA is freed. As with a wrap, the caller may
 * write the values; the structure must not change while magnus holds dA (plans check a
 * fingerprint taken once). Errors: out NULL (MAGNUS_ERROR_NULL_POINTER), dA NULL
 * (MAGNUS_ERROR_NULL_POINTER) or freed (MAGNUS_ERROR_INVALID_HANDLE); *out is zeroed first.
 */
typedef struct magnus_device_csr_buffers {
    magnus_backend_kind backend;
    int64_t rows, cols, nnz;
    magnus_value_type type;
    void *row_ptr;
    void *col_idx;
    void *values;
} magnus_device_csr_buffers;
MAGNUS_API magnus_status magnus_device_csr_native(magnus_device_csr_buffers *out,
                                                  const magnus_device_csr dA);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_BUFFERS_H */

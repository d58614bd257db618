/*
 * magnus: portable GPU SpGEMM (C = A·B, CSR) built on the gMAGNUS algorithm.
 *
 * Conventions (after SuiteSparse:GraphBLAS and Level Zero):
 *   - every call returns a magnus_status: 0 is success, negative values are errors;
 *   - outputs come first: magnus_csr_new(&A, rows, cols, nnz, type);
 *   - an output handle (magnus_csr *C, magnus_context *ctx, ...) is written, never read: it is
 *     set to NULL first and to the new object on success, so it may be uninitialized; a matrix
 *     it held before is NOT freed (free it first, or it leaks), as with any C output argument;
 *   - objects are freed with magnus_X_free(&h), which sets the handle to NULL and accepts a
 *     NULL handle (or a pointer to NULL) as a no-op;
 *   - every handle carries a magic number, so a freed or foreign pointer is reported as
 *     MAGNUS_ERROR_INVALID_HANDLE rather than read;
 *   - when a call fails, magnus_last_error() gives a one-line detail message (file and line of
 *     a parse error, the first invalid entry of a matrix, the vendor's own error text...); a
 *     call that succeeds leaves it empty.
 *
 * Thread safety: the detail message is thread-local. Calls on distinct objects may run
 * concurrently from different threads; one object must not be used by two threads at once
 * unless a function's comment says otherwise.
 */
#ifndef MAGNUS_MAGNUS_H
#define MAGNUS_MAGNUS_H

/* The API by topic; each part includes the parts it builds on. */
#include "magnus_core.h"
#include "magnus_host.h"
#include "magnus_device.h"
#include "magnus_spgemm.h"
#include "magnus_buffers.h"
#include "magnus_params.h"
#include "magnus_spmv.h"

#endif /* MAGNUS_MAGNUS_H */

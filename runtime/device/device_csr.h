/*
 * Internal helpers for device-resident CSR matrices (struct magnus_device_csr_s in
 * device_runtime.h; public face in magnus.h). Used by the SpGEMM algorithms to build C and by
 * runtime/spgemm/spgemm.c for the host round trip. None of these clear the detail message.
 */
#ifndef MAGNUS_DEVICE_CSR_H
#define MAGNUS_DEVICE_CSR_H

#include "device_runtime.h"

/* NULL -> MAGNUS_ERROR_NULL_POINTER; freed, foreign or of another context ->
 * MAGNUS_ERROR_INVALID_HANDLE. ctx may be NULL to skip the context check. `name` ("A")
 * appears in the message. */
magnus_status magnus_device_csr_check(const struct magnus_device_csr_s *d, magnus_context ctx,
                                      const char *name);

/* A new rows x cols matrix of `type` with its row_ptr (rows+1 int64, contents undefined)
 * allocated and nnz = 0; col_idx and values stay unallocated until
 * magnus_device_csr_alloc_entries. */
magnus_status magnus_device_csr_new(magnus_device_csr *out, magnus_context ctx, int64_t rows,
                                    int64_t cols, magnus_value_type type);
/* Allocates col_idx and values for nnz entries and sets d->nnz (any earlier ones are freed). */
magnus_status magnus_device_csr_alloc_entries(struct magnus_device_csr_s *d, int64_t nnz);
/* Frees a matrix made here (or by upload) without touching the detail message; NULL is fine. */
void magnus_device_csr_destroy(magnus_device_csr *d);

/* d->values *= alpha on queue q, in d's value type (alpha rounded to float for float32);
 * nothing when alpha == 1 or d is empty. Waits for q. */
magnus_status magnus_device_csr_scale(struct magnus_device_csr_s *d, magnus_queue_id q,
                                      double alpha);

/* ---- row blocks (device_csr_rows.c); queued on q, but for the reads named ---- */

/* out[out_at + i] = in[in_at + i] + add - sub for i < n, 64-bit words modulo 2^64 (row
 * pointers moved to another base), by the kernel of `variant`'s module (the one the caller
 * uses, so that no other module is loaded for it). */
magnus_status magnus_dbuf_shift_u64(magnus_context ctx, magnus_queue_id q,
                                    magnus_kernel_variant variant, magnus_dbuf *out,
                                    uint64_t out_at, const magnus_dbuf *in, uint64_t in_at,
                                    uint64_t n, uint64_t add, uint64_t sub);
/* *out = rows r0 .. r1 - 1 of d, a new matrix of d's columns and type (its row pointers start
 * at 0). Reads d's row pointers at r0 and r1 (waits for q). */
magnus_status magnus_device_csr_rows(magnus_device_csr *out, const struct magnus_device_csr_s *d,
                                     int64_t r0, int64_t r1, magnus_queue_id q);
/* *out = the `count` blocks one under the other (rows and entries in order), a new matrix of
 * `cols` columns and `type` (every block must have them; count 0 gives a 0 x cols matrix).
 * On success the blocks are freed (their handles set to NULL): each array of theirs as soon
 * as it is copied, so that at most the blocks and one of C's arrays are held (1.5 times C in
 * float32, not twice). On failure they are left to the caller, perhaps without some arrays.
 * Waits for q. */
magnus_status magnus_device_csr_stack(magnus_device_csr *out, magnus_context ctx,
                                      magnus_device_csr *blocks, size_t count, int64_t cols,
                                      magnus_value_type type, magnus_queue_id q);

/* ---- the structure on the device (device_csr_structure.c) ---- */

/* A 64-bit fingerprint of d's structure (rows, cols, nnz, row_ptr, col_idx; not the values;
 * defined in kernels/shared/csr_structure.h): equal structures give equal fingerprints;
 * different ones differ but for a chance of about 2^-64 (it is a hash, not a comparison).
 * Known from the upload when d was uploaded with magnus_device_csr_upload, or from the check
 * of a wrap, else computed once on the device by prim_csr_structure, which checks the
 * structure too: a broken one (never made by the library) is its rule's error, the detail
 * prefixed "device matrix: ". Waits for queue MAIN when it computes (a small read back). */
magnus_status magnus_device_csr_fingerprint(uint64_t *out, struct magnus_device_csr_s *d);
/* The same fingerprint of host arrays (one pass over them). */
uint64_t magnus_csr_structure_fingerprint(int64_t rows, int64_t cols, int64_t nnz,
                                          const int64_t *row_ptr, const int32_t *col_idx);
/* Checks d's structure on the device by magnus_csr_validate's rules (runtime/core/csr_rules.h)
 * and records its fingerprint, in one pass over row_ptr and col_idx (values are not read).
 * A broken structure gives the first broken rule's status and message, as magnus_csr_validate
 * would give them for the same arrays, after `prefix`; only the values that message names are
 * read back. d->rows, cols and nnz must be set and its buffers hold rows + 1 and nnz
 * elements. Waits for queue MAIN. */
magnus_status magnus_device_csr_structure_check(struct magnus_device_csr_s *d,
                                                const char *prefix);

/* Upload / download on queue q, without validation or message clearing (the public entry
 * points do those). */
magnus_status magnus_device_csr_upload_on(magnus_device_csr *out, magnus_context ctx,
                                          magnus_queue_id q, const magnus_csr_s *A);
magnus_status magnus_device_csr_download_on(magnus_csr *out, const struct magnus_device_csr_s *d,
                                            magnus_queue_id q);

#endif

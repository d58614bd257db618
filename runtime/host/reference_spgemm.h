/* Internal entries of the CPU reference SpGEMM: an explicit thread count, so tests can check
 * that the result does not depend on it, and the symbolic count alone. */
#ifndef MAGNUS_REFERENCE_SPGEMM_H
#define MAGNUS_REFERENCE_SPGEMM_H

#include "magnus/magnus.h"

/* magnus_reference_spgemm with `nthreads` threads (<= 0: one per online CPU, capped, and one
 * for small products). */
magnus_status magnus_reference_spgemm_threads(magnus_csr *C, magnus_csr *magnitude,
                                              const magnus_csr_s *A, const magnus_csr_s *B,
                                              int nthreads);

/* nnz(A·B) only (the symbolic pass), for sizes whose product would not fit in memory. */
magnus_status magnus_reference_count(int64_t *nnz, const magnus_csr_s *A, const magnus_csr_s *B,
                                     int nthreads);

#endif

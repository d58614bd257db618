/*
 * Plans that keep every product's position in C (kernels/spgemm_plan.cl; the plan API in
 * spgemm_plan.c decides when one is made). Built from A, B and the C a full multiply of them
 * made; executed for new values of A and B with the same structures by one pass over the
 * products: C's values zeroed, then each product a_ik·b_kj added into C's entry (i, j) by a
 * float atomic, with no hash table, sort or symbolic work. Device memory: C's columns
 * (4 bytes per entry of C), one offset per entry of A (8 bytes) and one position per product
 * (4 bytes): about 4 bytes per product beside C itself.
 */
#ifndef MAGNUS_SPGEMM_PLAN_POSITIONS_H
#define MAGNUS_SPGEMM_PLAN_POSITIONS_H

#include "device_runtime.h"

typedef struct magnus_plan_positions {
    magnus_dbuf col_idx;   /* C's columns, int32, nnz(C) */
    magnus_dbuf entry_off; /* uint64, nnz(A) + 1: where each A entry's products start */
    magnus_dbuf positions; /* uint32, one per product: its entry of C */
    uint64_t products;
    uint32_t team; /* lanes per A entry in the kernels: about the mean B row an entry selects */
} magnus_plan_positions;

/* Positions of A·B's products in C (C = A·B as a multiply of this context made it: sorted
 * columns, every product's column present; nnz(C) < 2^32, which the caller checks). On
 * success C's col_idx has moved into pp (C keeps its row pointers and values). Waits for the
 * main queue. On error pp holds nothing and C is unchanged; a C that lacks a product's column
 * is MAGNUS_ERROR_INTERNAL. */
magnus_status magnus_plan_positions_build(magnus_plan_positions *pp, magnus_context ctx,
                                          const struct magnus_device_csr_s *A,
                                          const struct magnus_device_csr_s *B,
                                          struct magnus_device_csr_s *C);

/* C = A·B by the positions (A and B of the plan's structures): C, of the plan's shape, type
 * and nnz with its buffers allocated, gets row_ptr (the plan's, rows + 1 int64), the plan's
 * columns and the values. Queued on the main queue (no wait). */
magnus_status magnus_plan_positions_numeric(magnus_context ctx, const magnus_plan_positions *pp,
                                            const struct magnus_device_csr_s *A,
                                            const struct magnus_device_csr_s *B,
                                            const magnus_dbuf *row_ptr,
                                            struct magnus_device_csr_s *C);

/* The device bytes pp holds. */
uint64_t magnus_plan_positions_bytes(const magnus_plan_positions *pp);
void magnus_plan_positions_free(magnus_context ctx, magnus_plan_positions *pp);

#endif
